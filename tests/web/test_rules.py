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
from yahtzee.core import Dice, Edition, Game, RuleSet, Scorecard, YatzyBox
from yahtzee.web.models import GameView
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
        rules = RuleSet.named(rule_set["name"])
        assert rule_set["summary"] == rules.summary
        assert [b["key"] for b in rule_set["boxes"]] == [c.key for c in rules.boxes]
        assert [b["code"] for b in rule_set["boxes"]] == [c.code for c in rules.boxes]
        assert [b["section"] for b in rule_set["boxes"]] == ["upper"] * 6 + ["lower"] * (
            len(rules.boxes) - 6
        )
        assert rule_set["rounds"] == rules.rounds == len(rule_set["boxes"])
        assert rule_set["title"] == rules.edition.title
        for box, rule in zip(rule_set["boxes"], rules.box_rules, strict=True):
            assert box["scoring"] == {
                "kind": rule.kind.value, "n": rule.n, "points": rule.points,
                "faces": list(rule.faces), "also": rule.also, "words": rule.describe(),
            }  # fmt: skip
        engine = rule_set["rules"]
        assert engine["edition"] == rules.edition.name
        assert engine["house"] == list(rules.house) and engine["ordered"] == rules.ordered
        assert engine["upper_bonus"] == rules.edition.upper_bonus
        assert engine["upper_bonus_threshold"] == rules.edition.upper_bonus_threshold
        assert engine["five_of_a_kind"] == rules.edition.five_of_a_kind.key
        card = Scorecard.empty(rules).to_dict()
        assert engine["card_edition"] == card.get("edition")
        if rules.edition is Edition.american():  # as they were before editions
            assert rule_set["boxes"][0] == {
                "key": "ones", "label": "Aces", "short": "Aces", "section": "upper",
                "code": "1s", "scoring": rule_set["boxes"][0]["scoring"],
            }  # fmt: skip
            assert engine["points"] == {
                "full_house": 25, "small_straight": 30, "large_straight": 40, "yahtzee": 50,
            }  # fmt: skip
        else:
            assert engine["points"] is None
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
    boxes = [box for name in Edition.names() for box in Edition.named(name).boxes]
    labels = {c.display_name for c in boxes} | {c.short_name for c in boxes}
    labels -= {"Yahtzee", "Yatzy"}  # the games' names too ("Yahtzee" is the page's title)
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


def test_yatzy_rule_sets_are_served_with_their_own_card(client: TestClient) -> None:
    """The Scandinavian card: fifteen boxes, One Pair and Two Pairs among them, the
    50-point upper bonus, the house rules in the boxes' scoring."""
    sets = {r["name"]: r for r in rules_of(client)["rule_sets"]}
    plain, both = sets["yatzy"], sets["yatzy+fh5+tp4+forced"]
    assert [b["key"] for b in plain["boxes"]] == [b.key for b in YatzyBox]
    assert plain["boxes"][6]["label"] == "One Pair" and plain["boxes"][6]["code"] == "1p"
    assert plain["rules"]["upper_bonus"] == 50 and plain["rounds"] == 15
    assert plain["boxes"][7]["scoring"]["also"] is False
    assert both["boxes"][7]["scoring"]["also"] is True  # tp4
    assert both["boxes"][12]["scoring"]["also"] is True  # fh5
    assert both["rules"]["ordered"] is True and plain["rules"]["ordered"] is False
    assert both["rules"]["house"] == ["fh5", "tp4"]


def test_a_games_view_names_the_boxes_of_its_own_edition() -> None:
    """The GAME view's legal boxes are its edition's, also after a game of another edition
    showed placements equal as numbers (Yatzy's One Pair and Yahtzee's Three of a Kind
    are both box 6: the view's cache once mixed them up)."""
    american = Game(1, "official")
    american.dice_source = _Fixed(Dice.parse("11123"))
    american.roll()
    GameView.of(american)  # remembers its placements' views
    yatzy = Game(1, "yatzy")
    yatzy.dice_source = _Fixed(Dice.parse("11123"))
    yatzy.roll()
    shown = {p.box: p.name for p in GameView.of(yatzy).placements}
    assert shown["one_pair"] == "One Pair" and shown["three_of_a_kind"] == "Three of a Kind"
    assert list(shown) == [b.key for b in YatzyBox]


class _Fixed:
    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def throw(self, keep: object) -> Dice:
        return self.dice
