"""The page's files hold to the server's Content-Security-Policy without a browser: no
inline script or style, nothing from another site, players' text never as HTML."""

from __future__ import annotations

import re

from yahtzee.web.routers.pages import STATIC

SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # a name, never fetched


def test_the_page_has_no_inline_script_or_style_and_nothing_from_elsewhere() -> None:
    html = (STATIC / "index.html").read_text()
    assert not re.search(r"\sstyle\s*=", html) and "<style" not in html
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))
    assert not re.search(r"\son[a-z]+\s*=", html)  # no inline event handlers
    script = "\n".join(path.read_text() for path in sorted(STATIC.glob("*.js")))
    assert "app.js" in html and len(script.splitlines()) > 500  # the page's modules, all read
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script
    assert "eval(" not in script and "new Function" not in script
    assert not re.search(r"setAttribute\(\s*['\"]style", script)
    css = (STATIC / "style.css").read_text()
    assert "@import" not in css
    for text in (html, script.replace(SVG_NAMESPACE, ""), css):
        assert not re.search(r"https?://", text)
    favicon = (STATIC / "favicon.svg").read_text()
    assert "<script" not in favicon and not re.search(r"href\s*=", favicon)
