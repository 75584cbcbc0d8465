"""A recorded game as text, turn by turn, from its events."""

from __future__ import annotations

from collections.abc import Iterator

from ..core import DiceEntered, Game, GameStarted, PlayoffRolled, Rolled, Scored, Undone, Written
from ..core import state as machine


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
                    yield f"Round {before.round}, {names[player]}: rolls {dice.spaced()}"
                else:
                    yield f"    keeps {keep.spaced()}, rolls {dice.spaced()}"
            case Scored(player, category, points, bonus):
                extra = f" + {bonus} Yahtzee bonus" if bonus else ""
                yield (f"    scores {points} in {category.display_name}{extra} "
                       f"(total {state.cards[player].total})")  # fmt: skip
            case Undone(player):
                yield f"    {names[player]} takes that placement back"
            case PlayoffRolled(player, dice):
                yield f"Playoff: {names[player]} throws {dice.spaced()} (sum {dice.total})"
            case DiceEntered(player, dice, roll):
                said = f" (roll {roll})" if roll is not None else ""
                if before is None:  # the playoff's throw
                    yield f"Playoff: {names[player]} throws {dice.spaced()} (sum {dice.total})"
                elif before.dice is None:
                    yield f"Round {before.round}, {names[player]}: dice {dice.spaced()}{said}"
                else:
                    yield f"    dice corrected or rolled again: {dice.spaced()}{said}"
            case Written(player, category, points):
                yield (f"Round {before.round if before else '-'}, {names[player]}: writes "
                       f"{points} in {category.display_name} "
                       f"(total {state.cards[player].total})")  # fmt: skip
    if game.is_over:
        yield "Final standings:"
        for s in game.standings():
            yield f"  {s.place}. {s.name} {s.total}{'  (winner)' if s.winner else ''}"
    else:
        yield "The game is still in progress."
