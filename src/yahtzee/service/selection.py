"""The dice selected to keep, a game session's part (`GameSession` is one): which of the
dice showing the player to act keeps for the next roll, saved as they are selected so that
a game resumed later shows the same selection."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core import DICE_COUNT, IllegalMove, Keep

if TYPE_CHECKING:
    from ..core import Game
    from ..store import Store


class SessionSelection:
    """The selection's methods of `GameSession`, on its game and records."""

    game: Game
    store: Store | None
    game_id: str | None
    _selection: tuple[int, tuple[bool, ...]] | None

    @property
    def held(self) -> tuple[bool, ...]:
        """Which of the dice showing (in their order) the player to act keeps for the next
        roll: the last selection saved for the game as it stands, else the dice kept for
        the last roll (the first matching dice). None before a roll or without rolls left."""
        turn = self.game.turn
        dice = self.game.dice
        if turn is None or dice is None or not turn.rolls_left:
            return (False,) * DICE_COUNT
        selection = self._selection
        if selection is not None and selection[0] == len(self.game.event_log):
            return selection[1]
        left = list(turn.kept.faces)
        held = []
        for face in dice.faces:
            held.append(face in left)
            if face in left:
                left.remove(face)
        return tuple(held)

    @property
    def keep(self) -> Keep:
        """The dice `held`, as the keep of the next roll."""
        dice = self.game.dice
        if dice is None:
            return Keep.NONE
        return Keep(tuple(f for f, h in zip(dice.faces, self.held, strict=True) if h))

    def select(self, held: Sequence[bool]) -> None:
        """The player to act selects the dice to keep (a flag per die, in the order they
        show); saved at once, so a game resumed later shows the same selection."""
        turn = self.game.turn
        if turn is None or turn.dice is None or not turn.rolls_left:
            raise IllegalMove("There are no dice to keep now.", code="no_keep")
        flags = tuple(bool(h) for h in held)
        if len(flags) != DICE_COUNT:
            raise IllegalMove(
                f"Select each of the {DICE_COUNT} dice to keep or not.", code="bad_keep"
            )
        self._selection = (len(self.game.event_log), flags)
        if self.store is not None and self.game_id is not None:
            self.store.save_selection(self.game_id, *self._selection)
