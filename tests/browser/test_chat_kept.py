"""Nothing a player wrote is lost (issue 26, item 5): the table's chat is kept with the
table, so after the server is killed and started again the pages show it again, in order,
and a page opened afresh shows it too."""

from __future__ import annotations

from typing import Any

from tests.browser.support import PHONE, create_table, join, open_page, start, wait_text
from tests.server_process import ServerProcess

LINES = ["Good luck, everyone!", "You too. The bots are tough", "Third line, last one"]


def chat_lines(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#chat-log .chat-line").all_text_contents()]


def test_the_chat_is_there_after_a_server_restart(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann, friends=1)
    bob = join(browser, invite, "Bob", PHONE)
    for page, text in zip((bob, ann, bob), LINES, strict=True):
        page.fill("#chat-text", text)
        page.click("#send")
        wait_text(ann, "#chat-log", text)
    start(ann)
    wait_text(bob, "#chat-log", LINES[-1])
    before = chat_lines(ann)
    assert [line.split(": ", 1)[1] for line in before] == LINES
    server.kill()
    wait_text(ann, "#banner-text", "Connection lost")
    server.start()
    for page in (ann, bob):
        page.wait_for_selector("#banner", state="hidden", timeout=30_000)
        page.wait_for_function(
            "(n) => document.querySelectorAll('#chat-log .chat-line').length === n",
            arg=len(LINES),
        )
        assert chat_lines(page) == before
    ann.reload()  # a page opened afresh reads it from the server, not from its memory
    ann.wait_for_selector("#play:not([hidden])")
    ann.wait_for_function(
        "(n) => document.querySelectorAll('#chat-log .chat-line').length === n", arg=len(LINES)
    )
    assert chat_lines(ann) == before
