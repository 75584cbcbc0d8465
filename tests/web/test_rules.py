"""What a table may be and what its cards hold (``GET /api/rules``): every rule set a new
table takes, with its boxes in card order, and a table's limits, each the one the server
holds a table to. The page keeps none of them by hand: it asks (tests/browser/
test_rules_page.py shows it drawing what the server says)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import new_table
from tests.web.helpers import joined, next_of
from yahtzee.core import Category, RuleSet
from yahtzee.web.page_files import STATIC


def rules_of(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/rules")
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json()
    return found


def create(client: TestClient, **body: Any) -> Any:
    return client.post("/api/tables", json={"host": "Ann", **body})


def test_the_server_serves_each_rule_set_with_its_boxes(client: TestClient) -> None:
    served = rules_of(client)
    assert [r["name"] for r in served["rule_sets"]] == list(RuleSet.names())
    assert served["default"] == "official" == served["rule_sets"][0]["name"]
    for rule_set in served["rule_sets"]:
        assert rule_set["summary"] == RuleSet.named(rule_set["name"]).summary
        assert [b["key"] for b in rule_set["boxes"]] == [c.key for c in Category]
        assert rule_set["boxes"][0] == {
            "key": "ones", "label": "Aces", "short": "Aces", "section": "upper",
        }  # fmt: skip
        assert rule_set["boxes"][9] == {
            "key": "small_straight", "label": "Small Straight", "short": "Sm. straight",
            "section": "lower",
        }  # fmt: skip
        assert [b["section"] for b in rule_set["boxes"]] == ["upper"] * 6 + ["lower"] * 7
        # each a new table takes
        made = create(client, rules=rule_set["name"])
        assert made.status_code == 201 and made.json()["table"]["rules"] == rule_set["name"]
    assert create(client, rules="no-such-rules").status_code == 400


def test_the_limits_served_are_the_ones_a_table_is_held_to(client: TestClient) -> None:
    limits = rules_of(client)["limits"]
    most = limits["players"] - 1  # the host sits too
    assert create(client, seats=[{"kind": "bot"}] * most).status_code == 201
    assert create(client, seats=[{"kind": "bot"}] * (most + 1)).status_code == 400
    assert create(client, host="A" * limits["name"]).status_code == 201
    assert create(client, host="A" * (limits["name"] + 1)).status_code == 400
    assert create(client, turn_timer=limits["turn_timer"]).status_code == 201
    assert create(client, turn_timer=limits["turn_timer"] + 1).status_code == 400
    host = new_table(client, [{"kind": "human"}])
    with joined(client, host["table"]["id"], token=host["token"]) as ann:
        next_of(ann, "state")
        ann.send_json({"type": "chat", "text": "x" * limits["chat"]})
        assert next_of(ann, "chat", "error")["type"] == "chat"
        ann.send_json({"type": "chat", "text": "x" * (limits["chat"] + 1)})
        assert next_of(ann, "chat", "error")["type"] == "error"


def test_the_page_keeps_no_rule_set_box_or_limit_by_hand() -> None:
    """The page's modules name no rule set and no box's label (they come from
    ``GET /api/rules``), and its inputs take their lengths from there too."""
    modules = {path.name: path.read_text(encoding="utf-8") for path in STATIC.glob("*.js")}
    assert "state.js" in modules and "card.js" in modules
    labels = {c.display_name for c in Category} | {c.short_name for c in Category}
    labels.discard("Yahtzee")  # the game's name too ("Yahtzee" is the page's title)
    for name, text in modules.items():
        for rule_set in RuleSet.names():
            assert f'"{rule_set}"' not in text, f"{name} names the rule set {rule_set}"
        strings = set(re.findall(r""""([^"\n]*)"|'([^'\n]*)'""", text))
        quoted = {a or b for a, b in strings}
        assert not labels & quoted, f"{name} labels boxes by hand: {sorted(labels & quoted)}"
        assert not re.search(r"\bMAX_(?:OTHER_SEATS|PLAYERS|NAME|CHAT)\b", text), name
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    for field in ("host-name", "daily-name", "join-name", "add-here-name", "chat-text"):
        tag = re.search(rf'<input id="{field}"[^>]*>', page)
        assert tag is not None and "maxlength" not in tag.group(0), tag
