"""A decision point inside a turn: the dice, the rolls left and the card, with a notation.

``str(situation)`` is ``DICE ROLLS_LEFT [BOX=POINTS ...] [bonus=N]``: the filled boxes by
their short codes in scorecard order, and the Yahtzee bonus points if any, as in
``"13356 2 1s=3 fh=25 yz=50 bonus=100"``. ``Situation.parse`` reads that back; it also takes
box names as players write them (``aces=3``) and dice with spaces (``"1 3 3 5 6 2"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Self

from .category import Category
from .dice import DICE_COUNT, Dice
from .errors import InvalidInput, show
from .language import _
from .rules import RuleSet
from .scorecard import Scorecard
from .state import ROLLS_PER_TURN

_ROLLS_LEFT = tuple(str(n) for n in range(ROLLS_PER_TURN))
_MIN_TOKENS = 2  # the dice and the rolls left
_MAX_DIGITS = 6  # in a box's or the bonus's points


def _rolls_text() -> str:
    """``0, 1 or 2``, in the language in force."""
    return _("{some} or {last}").format(some=", ".join(_ROLLS_LEFT[:-1]), last=_ROLLS_LEFT[-1])


@dataclass(frozen=True, slots=True)
class Situation:
    """The dice showing, how many rolls are left (0-2), and the player's card."""

    dice: Dice
    rolls_left: int
    card: Scorecard = field(default_factory=Scorecard.empty)

    def __post_init__(self) -> None:
        if not isinstance(self.dice, Dice):
            raise InvalidInput(_("A situation needs the five dice showing."))
        rolls = self.rolls_left
        if isinstance(rolls, bool) or not isinstance(rolls, int) or not 0 <= rolls < ROLLS_PER_TURN:
            raise InvalidInput(
                _("Rolls left is {allowed}, not {given}.").format(
                    allowed=_rolls_text(), given=show(rolls)
                )
            )
        if not isinstance(self.card, Scorecard):
            raise InvalidInput(_("A situation needs a Scorecard."))
        if self.card.is_complete:
            raise InvalidInput(_("The card is complete: there is no decision to make."))

    @classmethod
    def of(cls, card: Scorecard, dice: Dice | str | None, rolls_left: int) -> Self:
        """The situation of ``card`` with ``dice`` showing and ``rolls_left`` rolls left."""
        if dice is None:
            raise InvalidInput(_("Roll the dice first: a situation needs the dice showing."))
        return cls(dice if isinstance(dice, Dice) else Dice.parse(dice), rolls_left, card)

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Self:
        """Read the notation (see the module's documentation); boxes are the rules' edition's
        (the American without rules)."""
        if not isinstance(text, str):
            raise InvalidInput(_("A situation is text like '13356 2 fh=25'."))
        tokens = text.replace(",", " ").split()
        dice_tokens = tokens[:DICE_COUNT]
        if len(dice_tokens) == DICE_COUNT and all(len(t) == 1 and t.isdigit() for t in dice_tokens):
            tokens = ["".join(dice_tokens), *tokens[DICE_COUNT:]]
        if len(tokens) < _MIN_TOKENS:
            raise InvalidInput(
                _("A situation is DICE ROLLS_LEFT [BOX=POINTS ...], like '13356 2 fh=25 yz=50'.")
            )
        dice = Dice.parse(tokens[0])
        rolls = tokens[1].lower().removeprefix("rolls=").removeprefix("r")
        if rolls not in _ROLLS_LEFT:
            raise InvalidInput(
                _("Rolls left is {allowed}, not {given}.").format(
                    allowed=_rolls_text(), given=show(tokens[1])
                )
            )
        boxes: dict[str, object] = {}
        box_type = rules.edition.box_type if rules is not None else Category
        bonus = 0
        for token in tokens[2:]:
            key, sep, value = token.partition("=")
            if not sep or not (value.isascii() and value.isdigit()) or len(value) > _MAX_DIGITS:
                raise InvalidInput(
                    _("{token} is not BOX=POINTS, like fh=25 or bonus=100.").format(
                        token=show(token)
                    )
                )
            if key.lower() == "bonus":
                bonus = int(value)
            else:
                box = box_type.parse(key)
                if box.key in boxes:
                    raise InvalidInput(_("{box} is given twice.").format(box=box.display_name))
                name = box.key
                boxes[name] = int(value)
        data = {"boxes": boxes, "yahtzee_bonus": bonus}
        if rules is not None:
            data["edition"] = rules.edition.name
        card = Scorecard.from_dict(data, rules=rules)
        return cls(dice, int(rolls), card)

    def __str__(self) -> str:
        parts = [str(self.dice), str(self.rolls_left)]
        parts += [f"{c.code}={points}" for c, points in self.card if points is not None]
        if self.card.yahtzee_bonus:
            parts.append(f"bonus={self.card.yahtzee_bonus}")
        return " ".join(parts)
