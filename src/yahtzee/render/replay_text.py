"""A recorded game as text, turn by turn, from its events."""

from __future__ import annotations

from collections.abc import Iterator

from ..core import (
    Dice,
    DiceEntered,
    Game,
    GameStarted,
    PlayoffRolled,
    Rolled,
    Scored,
    Undone,
    Written,
)
from ..core import state as machine
from ..core.language import _


def replay_lines(game: Game) -> Iterator[str]:
    names = game.players
    opening = game.event_log[0]
    assert isinstance(opening, GameStarted)
    state = machine.start(opening)
    for event in game.event_log[1:]:
        before = state.turn
        state = machine.apply(state, event)
        match event:
            case Rolled(player, keep, dice):
                if before is not None and before.rolls == 0:
                    yield _("Round {round}, {name}: rolls {dice}").format(
                        round=before.round, name=names[player], dice=dice.spaced()
                    )
                else:
                    yield "    " + _("keeps {kept}, rolls {dice}").format(
                        kept=keep.spaced(), dice=dice.spaced()
                    )
            case Scored(player, category, points, bonus):
                line = (
                    _("scores {points} in {box} + {bonus} Yahtzee bonus (total {total})")
                    if bonus
                    else _("scores {points} in {box} (total {total})")
                )
                yield "    " + line.format(
                    points=points, box=category.display_name, bonus=bonus,
                    total=state.cards[player].total,
                )  # fmt: skip
            case Undone(player):
                yield "    " + _("{name} takes that placement back").format(name=names[player])
            case PlayoffRolled(player, dice):
                yield _playoff(names[player], dice)
            case DiceEntered(player, dice, roll):
                if before is None:  # the playoff's throw
                    yield _playoff(names[player], dice)
                elif before.dice is None:
                    line = (
                        _("Round {round}, {name}: dice {dice}")
                        if roll is None
                        else _("Round {round}, {name}: dice {dice} (roll {roll})")
                    )
                    yield line.format(
                        round=before.round, name=names[player], dice=dice.spaced(), roll=roll
                    )
                else:
                    line = (
                        _("dice corrected or rolled again: {dice}")
                        if roll is None
                        else _("dice corrected or rolled again: {dice} (roll {roll})")
                    )
                    yield "    " + line.format(dice=dice.spaced(), roll=roll)
            case Written(player, category, points):
                yield _("Round {round}, {name}: writes {points} in {box} (total {total})").format(
                    round=before.round if before else "-", name=names[player], points=points,
                    box=category.display_name, total=state.cards[player].total,
                )  # fmt: skip
    if game.is_over:
        yield _("Final standings:")
        for s in game.standings():
            mark = "  " + _("(winner)") if s.winner else ""
            yield f"  {s.place}. {s.name} {s.total}{mark}"
    else:
        yield _("The game is still in progress.")


def _playoff(name: str, dice: Dice) -> str:
    return _("Playoff: {name} throws {dice} (sum {sum})").format(
        name=name, dice=dice.spaced(), sum=dice.total
    )
