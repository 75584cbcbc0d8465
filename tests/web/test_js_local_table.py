"""The local room of a device table (``static/local_table.js``) under node: the page's
Play protocol spoken over the JS engine, advisor and bots, kept in the device store
(``device_store.js``: in memory where there is no IndexedDB). One node run plays:

* a whole game against a level-3 bot (its moves shown at once, ``botDelay: 0``): the state
  after the hello, rolls that keep dice in their places (``held``), holds, a hint (the
  advisor's five best, as the server's ``hint``), the review after the game (the server's
  ``review`` shape, ``win_swing`` null), intents acknowledged once (the same id again: the
  same ack, nothing applied twice);
* the room opened again (a new module instance over the same store: a page reloaded)
  mid-turn: the same dice, places held and rolls left;
* refusals as the server words them: a wrong token (closed 4401), another seat's turn,
  chat and resign, taking back where the game does not allow it, hints off, bots at a
  table of real dice;
* a game of real dice: dice entered, a score written, a placement taken back.
"""

from __future__ import annotations

import base64
import gzip
from pathlib import Path
from typing import Any

import pytest

from tests.js_engine import run_js
from yahtzee.core import RuleSet, YatzyBox
from yahtzee.web.routers.advisor import table_file
from yahtzee.web.rules_models import RulesView

MODULES = (
    "i18n.js",
    "engine_errors.js",
    "engine_dice.js",
    "engine_rules.js",
    "engine_game.js",
    "advisor_dice.js",
    "advisor_scoring.js",
    "advisor_table.js",
    "advisor.js",
    "bots.js",
    "device_store.js",
    "local_tray.js",
    "local_advisor.js",
    "local_review.js",
    "local_table.js",
)

DRIVER = (Path(__file__).parent / "local_table_driver.js").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def played() -> Any:
    table = gzip.decompress(table_file(RuleSet.official()).gzipped)
    yatzy = gzip.decompress(table_file(RuleSet.named("yatzy+forced")).gzipped)
    rules = RulesView.offered().model_dump(mode="json")
    data = {
        "table": base64.b64encode(table).decode(),
        "yatzy_table": base64.b64encode(yatzy).decode(),
        "rules": rules,
    }
    return run_js(MODULES, DRIVER, data)


def test_a_device_table_starts_at_once(played: Any) -> None:
    created = played["created"]
    assert created["id"].startswith("device-") and created["device"]
    assert created["seats"] == [{"seat": 0, "name": "Ann", "token": "string"}]
    assert created["status"] == "playing"
    assert played["first"] == {
        "seq": 1,
        "you": {"seat": 0, "role": "player"},
        "game": 0,
        "slots": None,
        "win": None,
        "threshold": 63,
        "dice": "rolled",
    }


def test_rolls_holds_and_acks_as_the_server(played: Any) -> None:
    roll = played["roll"]
    assert roll["ack"] == {"v": 1, "type": "ack", "id": "r1", "seq": 2}
    assert roll["event"]["type"] == "roll" and roll["event"]["keep"] == "-"
    assert sorted(roll["slots"]) == sorted(roll["event"]["dice"]) and roll["left"] == 2
    assert played["rollAgain"] == {"ack": roll["ack"], "events": 1}  # the same id: applied once
    hold = {"v": 1, "type": "hold", "seq": 2, "player": 0, "held": [1, 3]}
    assert played["hold"]["message"] == hold
    kept = played["kept"]
    for place in (1, 3):  # held dice keep their places
        assert kept["after"][place] == kept["before"][place]
    assert kept["held"] == [1, 3]
    assert kept["keep"] == "".join(sorted(kept["before"][1] + kept["before"][3]))
    assert played["sync"], "a message was delivered inside send()"


def test_a_hint_is_the_advisors_five_best(played: Any) -> None:
    hint = played["hint"]
    assert hint["type"] == "hint" and len(hint["options"]) == 5
    assert hint["options"][0]["regret"] == 0
    assert all(o["action"].startswith(("keep ", "score ")) for o in hint["options"])
    assert played["notices"] == ["advisor_loading"]  # "Loading the advisor..." the first time


def test_refusals_in_the_servers_words(played: Any) -> None:
    refusals = played["refusals"]
    assert refusals["chat"]["code"] == "no_chat"
    assert refusals["resign"]["code"] == "no_resign"
    assert refusals["undo"]["code"] == "undo_off"
    assert refusals["unknown"]["code"] == "unknown_type"
    assert refusals["score"]["code"] == "invalid_input"
    assert "Unknown box" in refusals["score"]["message"]
    assert refusals["keep"]["code"] == "keep_before_roll"  # (Ann's turn again, not rolled)
    assert refusals["places"]["code"] == "invalid_input"
    assert played["stranger"] == 4401
    assert played["busy"] == {"closed": None, "pong": True}  # (it was closed 4401)
    assert played["hintsOff"] == "hints_off"
    assert "real dice" in played["botsEntered"]


def test_the_whole_game_ends_with_the_review(played: Any) -> None:
    assert played["over"]["phase"] == "over" and played["over"]["status"] == "finished"
    review = played["review"]
    assert review["type"] == "review" and review["notes"] == []
    [ann] = review["players"]
    assert ann["seat"] == 0 and ann["name"] == "Ann"
    assert ann["decisions"] >= 13
    for decision in ann["costliest"]:
        assert set(decision) == {"round", "dice", "chosen", "best", "loss", "win_swing"}
        assert decision["win_swing"] is None and decision["loss"] > 0
    games = {g["id"]: g for g in played["games"]}
    assert games[played["created"]["id"]]["status"] == "finished"
    body = played["body"]
    assert body["id"] == played["created"]["id"].removeprefix("device-")
    assert body["seat"] == 0 and body["rules"] == "official"
    assert body["players"] == [{"name": "Ann", "bot": None}, {"name": "Robo", "bot": "level3"}]
    assert body["events"] == played["over"]["seq"] and body["finished"] == "string"
    assert played["uploaded"] == "g-1"


def test_a_page_reloaded_mid_turn_shows_the_same_roll(played: Any) -> None:
    before, after = played["resumed"]["before"], played["resumed"]["after"]
    assert before == after
    assert before[1] == [0, 4] and before[2] == 2
    assert played["soloUndo"] == "ack"  # a game alone: a placement may be taken back


def test_real_dice_entered_written_and_taken_back(played: Any) -> None:
    # roll refused; dice entered (undo: none yet); bad dice; scored (Cy may take it back);
    # taken back; 7 in Fours refused; 12 written
    assert played["entered"] == ["dice_entered", None, "bad_dice", 0, None, "points_not_allowed", 0]
    cy = played["enteredCards"][0]
    assert cy["fours"] == 12 and cy["threes"] is None
    assert played["padTurn"] == 1


def test_a_yatzy_game_on_the_device_with_a_bot_and_hints(played: Any) -> None:
    """A game of Yatzy (fifteen boxes, filled top to bottom under +forced) against a
    level-3 bot, played out by the hints, reviewed: the advisor of its own table file."""
    hint = played["yatzyHint"]
    assert hint["type"] == "hint" and 1 <= len(hint["options"]) <= 5
    assert hint["options"][0]["regret"] == 0
    scores = [o["action"] for o in hint["options"] if o["action"].startswith("score ")]
    assert set(scores) <= {"score Ones"}  # +forced: only the first open box
    assert played["yatzyOutOfOrder"] == "out_of_order"
    over = played["yatzyOver"]
    assert over["phase"] == "over" and played["yatzyBotMoves"] == len(YatzyBox)
    for card in over["cards"]:
        assert card["edition"] == "yatzy" and list(card["boxes"]) == [b.key for b in YatzyBox]
        assert None not in card["boxes"].values()
    [ed] = played["yatzyReview"]["players"]
    assert ed["name"] == "Ed" and ed["decisions"] >= len(YatzyBox)
