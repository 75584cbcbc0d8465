"""Rule sets: the official rules and the variants, as data in one registry."""

from __future__ import annotations

import dataclasses
import re
import textwrap
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Self

from .box import Box
from .editions import AMERICAN, YATZY, BoxRule, Edition
from .errors import InvalidInput, show
from .language import N_, _, ngettext

UPPER_BONUS = AMERICAN.upper_bonus
UPPER_BONUS_THRESHOLD = AMERICAN.upper_bonus_threshold
YAHTZEE_BONUS = 100


class JokerRule(StrEnum):
    """What an extra Yahtzee (rolled with the Yahtzee box already filled) may do."""

    FORCED = "forced"
    """The rulebook: matching upper box if open; else any open lower box at full value;
    else zero in an open upper box. Applies whether the Yahtzee box holds 50 or 0."""
    FREE_CHOICE = "free-choice"
    """Any open box; Full House and the straights score full value only when the
    matching upper box is already filled."""
    NONE = "none"
    """No Joker: the dice score what they score normally, in any open box."""


class TieBreak(StrEnum):
    """How a tie for first place is settled."""

    SHARED = "shared"
    """The tied players share the win."""
    PLAYOFF = "playoff"
    """The tied players each roll all five dice once; highest sum wins; tied again, roll again."""


_WIDTH = 88  # the rules in words, wrapped as the American text is
_PLAYOFF_SUFFIX = "+playoff"
_PLAYOFF_SENTENCE = N_("Ties for first place: a one-roll playoff.")
_ORDERED_SENTENCE = N_("Boxes filled top to bottom.")
_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*(\+[a-z0-9]+)*")


def _normalise(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A frozen set of rule options. Variants are values of this class, never code forks."""

    name: str
    summary: str
    joker: JokerRule = JokerRule.FORCED
    yahtzee_bonus: int = YAHTZEE_BONUS
    tie_break: TieBreak = TieBreak.SHARED
    edition: Edition = AMERICAN
    house: tuple[str, ...] = ()
    """The edition's house rules in force, in the edition's order (``("fh5", "tp4")``)."""
    ordered: bool = False
    """Boxes are filled top to bottom: only the first open box may be filled."""
    _scoring_key: str = field(init=False, repr=False, compare=False)
    _box_rules: tuple[BoxRule, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise InvalidInput(
                _(
                    "A rule-set name is lower-case letters, digits, hyphens and '+' options, "
                    "not {name}."
                ).format(name=show(self.name))
            )
        if self.yahtzee_bonus not in (0, YAHTZEE_BONUS) or isinstance(self.yahtzee_bonus, bool):
            raise InvalidInput(
                _("The Yahtzee bonus is 0 or {bonus} points.").format(bonus=YAHTZEE_BONUS)
            )
        if not isinstance(self.joker, JokerRule) or not isinstance(self.tie_break, TieBreak):
            raise InvalidInput(_("joker and tie_break take JokerRule and TieBreak values."))
        edition = self.edition
        if not isinstance(edition, Edition):
            raise InvalidInput(_("edition takes an Edition (Edition.named('yatzy'))."))
        if not edition.extra_rules and (self.joker is not JokerRule.NONE or self.yahtzee_bonus):
            raise InvalidInput(
                _("{title} has no Joker rule and no extra bonus.").format(
                    title=edition.display_title
                )
            )
        if not isinstance(self.house, tuple) or not isinstance(self.ordered, bool):
            raise InvalidInput(_("house takes a tuple of house-rule keys; ordered true or false."))
        known = [option.key for option in edition.house_rules]
        if list(self.house) != [key for key in known if key in self.house]:
            for key in self.house:
                edition.house_rule(key)  # names an unknown one
            raise InvalidInput(
                _("House rules are given once each, in the order {known}.").format(known=known)
            )
        key = f"joker={self.joker.value};bonus={self.yahtzee_bonus}"
        if edition is not AMERICAN:
            key += f";edition={edition.name}"
        if self.house:
            key += f";house={','.join(self.house)}"
        if self.ordered:
            key += ";ordered"
        object.__setattr__(self, "_scoring_key", key)
        object.__setattr__(self, "_box_rules", edition.scoring(self.house))

    # Registry -----------------------------------------------------------------------

    @classmethod
    def official(cls) -> RuleSet:
        """The rulebook's rules (``000_3b6270680b3a475d.txt``): the default."""
        return _REGISTRY["official"]

    @classmethod
    def named(cls, name: str) -> RuleSet:
        """A registered rule set by name; ``NAME+playoff`` settles ties by a playoff."""
        if not isinstance(name, str):
            raise InvalidInput(
                _("A rule-set name must be text, not {type}.").format(type=type(name).__name__)
            )
        key = _normalise(name)
        found = _REGISTRY.get(key)
        if found is not None:
            return found
        if key.endswith(_PLAYOFF_SUFFIX) and key[: -len(_PLAYOFF_SUFFIX)] in _REGISTRY:
            return _REGISTRY[key[: -len(_PLAYOFF_SUFFIX)]].with_playoff()
        names = ", ".join(_REGISTRY)
        raise InvalidInput(
            _(
                "Unknown rule set {name}. Rule sets: {names} (add '+playoff' to any of them)."
            ).format(name=show(name), names=names)
        )

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Names of the registered rule sets, ``official`` first."""
        return tuple(_REGISTRY)

    @classmethod
    def register(cls, rules: RuleSet) -> RuleSet:
        """Add a rule set to the registry (its name must be new; ties are shared in it)."""
        if rules.name in _REGISTRY:
            raise InvalidInput(
                _("A rule set named {rules_name!r} is already registered.").format(
                    rules_name=rules.name
                )
            )
        if rules.tie_break is not TieBreak.SHARED or rules.name.endswith(_PLAYOFF_SUFFIX):
            raise InvalidInput(
                _("Register a rule set with shared ties; NAME+playoff adds a playoff.")
            )
        _REGISTRY[rules.name] = rules
        return rules

    def with_playoff(self) -> RuleSet:
        """The same rules with ties for first place settled by a one-roll playoff."""
        if self.tie_break is TieBreak.PLAYOFF:
            return self
        return dataclasses.replace(
            self,
            name=self.name + _PLAYOFF_SUFFIX,
            summary=f"{self.summary} {_PLAYOFF_SENTENCE}",
            tie_break=TieBreak.PLAYOFF,
        )

    # Data ---------------------------------------------------------------------------

    @property
    def boxes(self) -> tuple[Box, ...]:
        """The boxes of the edition's card, in card order."""
        return self.edition.boxes

    @property
    def rounds(self) -> int:
        """Rounds in a game: one per box."""
        return len(self.edition.boxes)

    @property
    def box_rules(self) -> tuple[BoxRule, ...]:
        """How each box scores, in card order, with the house rules in force."""
        return self._box_rules

    @property
    def scoring_key(self) -> str:
        """What decides the score of any play (the tie-break does not): keys solver tables
        (made once: the meter and the solver's caches ask for it at every move)."""
        return self._scoring_key

    def to_dict(self) -> dict[str, Any]:
        """The rule set as JSON-ready data (``from_dict`` reads it back); ``edition``,
        ``house`` and ``ordered`` only where they are not the American defaults."""
        data: dict[str, Any] = {
            "name": self.name,
            "summary": self.summary,
            "joker": self.joker.value,
            "yahtzee_bonus": self.yahtzee_bonus,
            "tie_break": self.tie_break.value,
        }
        if self.edition is not AMERICAN:
            data["edition"] = self.edition.name
        if self.house:
            data["house"] = list(self.house)
        if self.ordered:
            data["ordered"] = True
        return data

    @classmethod
    def from_dict(cls, data: object) -> Self:
        """A rule set from ``to_dict``'s JSON form (``InvalidInput`` says what is wrong)."""
        if not isinstance(data, dict):
            raise InvalidInput(_("A rule set must be a JSON object."))
        try:
            bonus = data.get("yahtzee_bonus", YAHTZEE_BONUS)
            if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
                raise InvalidInput(_("yahtzee_bonus must be a whole number of points, 0 or more."))
            house = data.get("house", [])
            if not isinstance(house, list) or not all(isinstance(k, str) for k in house):
                raise InvalidInput(_("house must be a list of house-rule keys."))
            ordered = data.get("ordered", False)
            if not isinstance(ordered, bool):
                raise InvalidInput(_("ordered must be true or false."))
            return cls(
                name=data["name"],
                summary=data["summary"] if isinstance(data.get("summary"), str) else "",
                joker=JokerRule(data.get("joker", JokerRule.FORCED.value)),
                yahtzee_bonus=bonus,
                tie_break=TieBreak(data.get("tie_break", TieBreak.SHARED.value)),
                edition=Edition.named(data.get("edition", AMERICAN.name)),
                house=tuple(house),
                ordered=ordered,
            )
        except KeyError:
            raise InvalidInput(_("A rule set needs a 'name' field.")) from None
        except ValueError as bad:
            if isinstance(bad, InvalidInput):
                raise
            raise InvalidInput(
                _("Bad rule-set data: joker or tie_break is not a known option.")
            ) from None

    def summary_text(self) -> str:
        """`summary` in the language in force (``summary`` itself stays English: it is
        data, written in records and JSON)."""
        sentences: list[str] = []
        text = self.summary
        for ending in (_PLAYOFF_SENTENCE, _ORDERED_SENTENCE):
            if text.endswith(" " + ending):
                text = text[: -len(ending) - 1]
                sentences.insert(0, _(ending))
        return " ".join((_(text), *sentences))

    def describe(self) -> str:
        """The rule set in words, for players, in the language in force."""
        return "\n".join(_describe(self))

    def __str__(self) -> str:
        return self.name


def _wrap(text: str) -> list[str]:
    """A paragraph of the rules in words, wrapped as the American text is; one whose
    translation breaks its own lines (as the English of the American rules does) keeps
    them."""
    if "\n" in text:
        return text.splitlines()
    return textwrap.wrap(text, _WIDTH)


def _describe(rules: RuleSet) -> list[str]:
    edition = rules.edition
    rounds = rules.rounds
    if rules.ordered:
        turns = ngettext(
            "Turns: {rounds} round; in it, every player in seat order takes one turn. Roll all "
            "five dice, then up to two more times re-roll any of them (dice kept before "
            "included); stop whenever you like. Then fill the first open box from the top "
            "(boxes are filled top to bottom), with zero if the dice do not fit.",
            "Turns: {rounds} rounds; in each, every player in seat order takes one turn. Roll "
            "all five dice, then up to two more times re-roll any of them (dice kept before "
            "included); stop whenever you like. Then fill the first open box from the top "
            "(boxes are filled top to bottom), with zero if the dice do not fit.",
            rounds,
        )
    else:
        turns = ngettext(
            "Turns: {rounds} round; in it, every player in seat order takes one turn. Roll all "
            "five dice, then up to two more times re-roll any of them (dice kept before "
            "included); stop whenever you like. Then fill exactly one open box, with zero if "
            "the dice do not fit.",
            "Turns: {rounds} rounds; in each, every player in seat order takes one turn. Roll "
            "all five dice, then up to two more times re-roll any of them (dice kept before "
            "included); stop whenever you like. Then fill exactly one open box, with zero if "
            "the dice do not fit.",
            rounds,
        )
    # Translators: the first line of the rules in words: a rule set's name ("official",
    # not translated) and its summary.
    title = _("{rules}: {summary}").format(rules=rules.name, summary=rules.summary_text())
    lines = [title, "", *_wrap(turns.format(rounds=rounds)), ""]
    upper = edition.upper
    lines += _wrap(
        # Translators: {first} and {last} are the first and last upper boxes (Aces, Sixes).
        _("Upper section: {first} to {last} score the sum of the dice showing that face.").format(
            first=upper[0].display_name, last=upper[-1].display_name
        )
    )
    lines += _wrap(
        _(
            "Upper bonus: {bonus} points when the six upper boxes add up to {threshold} or more."
        ).format(bonus=edition.upper_bonus, threshold=edition.upper_bonus_threshold)
    )
    if edition is AMERICAN:
        c = edition.box_type
        lines += _wrap(
            # Translators: the boxes' names are filled in (as the card prints them).
            _(
                "Lower section: {three}, {four} and {chance} score the sum of all five\n"
                "dice; {full_house} (three of one face and two of another) 25; {small} (four in\n"
                "a row) 30; {large} (five in a row) 40; {yahtzee} (five of a kind) 50."
            ).format(
                three=c.parse("3k").display_name,
                four=c.parse("4k").display_name,
                chance=c.parse("ch").display_name,
                full_house=c.parse("fh").display_name,
                small=c.parse("ss").display_name,
                large=c.parse("ls").display_name,
                yahtzee=c.parse("yz").display_name,
            )
        )
        lines += _wrap(
            _(
                "A Large Straight may be scored as a Small Straight. A Yahtzee is not a "
                "Full House\nor a straight, except as a Joker."
            )
        )
        lines.append("")
    else:
        lines.append(_("Lower section:"))
        for box, rule in zip(edition.boxes, rules.box_rules, strict=True):
            if box.is_lower:
                # Translators: a lower box of the Yatzy card and how it scores.
                words = _("{box}: {scoring}.").format(box=box.display_name, scoring=rule.describe())
                lines += textwrap.wrap(
                    words,
                    _WIDTH,
                    initial_indent="  ",
                    subsequent_indent="    ",
                )
        lines.extend(_(edition.house_rule(key).words) for key in rules.house)
        lines.append("")
        lines += _wrap(
            _("No extra {edition} bonus and no Joker rule.").format(edition=edition.display_title)
        )
        lines.append("")
        lines += _wrap(_(_TIE_WORDS[rules.tie_break]))
        return lines
    if rules.yahtzee_bonus:
        lines += _wrap(
            _(
                "Yahtzee bonus: each further Yahtzee earns {bonus} points when the\n"
                "Yahtzee box holds 50 (none when it holds 0)."
            ).format(bonus=rules.yahtzee_bonus)
        )
    else:
        lines += _wrap(_("Yahtzee bonus: none; a further Yahtzee earns only the box it is put in."))
    lines += _wrap(_(_JOKER_WORDS[rules.joker]))
    lines.append("")
    lines += _wrap(_(_TIE_WORDS[rules.tie_break]))
    return lines


_JOKER_WORDS = {
    JokerRule.FORCED: N_(
        "Joker rule (forced): a Yahtzee rolled when the Yahtzee box is already filled (50 or 0)\n"
        "must go in the matching upper box if it is open; if not, in any open lower box, where\n"
        "Full House scores 25, Small Straight 30, Large Straight 40 and the other boxes the sum\n"
        "of the dice; if every lower box is filled too, as a zero in any open upper box."
    ),
    JokerRule.FREE_CHOICE: N_(
        "Joker rule (free choice): a Yahtzee rolled when the Yahtzee box is already filled\n"
        "(50 or 0) may go in any open box. Full House, Small Straight and Large Straight score\n"
        "their full 25, 30 and 40 for it only when the matching upper box is already filled."
    ),
    JokerRule.NONE: N_(
        "No Joker rule: a Yahtzee rolled when the Yahtzee box is already filled may go in any\n"
        "open box and scores only what those dice score there normally (0 as a Full House\n"
        "or a straight)."
    ),
}

_TIE_WORDS = {
    TieBreak.SHARED: N_("Ties: players tied for the highest total share the win."),
    TieBreak.PLAYOFF: N_(
        "Ties: players tied for the highest total each roll all five dice once; the highest\n"
        "sum wins, and those still tied roll again."
    ),
}

_REGISTRY: dict[str, RuleSet] = {}

for _rules in (
    RuleSet(
        name="official",
        summary=N_("The rulebook: forced Joker rule, 100-point Yahtzee bonus."),
    ),
    RuleSet(
        name="free-choice-joker",
        summary=N_("An extra Yahtzee may go in any open box (Verhoeff's reading of the Joker)."),
        joker=JokerRule.FREE_CHOICE,
    ),
    RuleSet(
        name="no-joker",
        summary=N_("No Joker rule: an extra Yahtzee scores only what its dice score normally."),
        joker=JokerRule.NONE,
    ),
    RuleSet(
        name="no-yahtzee-bonus",
        summary=N_("The rulebook's forced Joker placement, without the 100-point Yahtzee bonus."),
        yahtzee_bonus=0,
    ),
    RuleSet(
        name="no-bonus-no-joker",
        summary=N_(
            "Neither the Joker rule nor the Yahtzee bonus (the rules Glenn's 2006 study solved)."
        ),
        joker=JokerRule.NONE,
        yahtzee_bonus=0,
    ),
):
    RuleSet.register(_rules)

RuleSet.register(
    RuleSet(
        name="official+forced",
        summary=N_("The rulebook's scoring, with the boxes filled top to bottom (sequential)."),
        ordered=True,
    )
)

_YATZY_SUMMARIES = {
    (): N_("Scandinavian Yatzy: fifteen boxes, 50-point upper bonus, no extra-Yatzy bonus."),
    ("fh5",): N_("Scandinavian Yatzy; five of a kind is also a Full House."),
    ("tp4",): N_("Scandinavian Yatzy; four of a kind is also Two Pairs."),
    ("fh5", "tp4"): N_(
        "Scandinavian Yatzy; five of a kind is also a Full House, four of a kind also Two Pairs."
    ),
}
for _ordered in (False, True):
    for _house, _summary in _YATZY_SUMMARIES.items():
        RuleSet.register(
            RuleSet(
                name="+".join(("yatzy", *_house, *(("forced",) if _ordered else ()))),
                summary=f"{_summary} {_ORDERED_SENTENCE}" if _ordered else _summary,
                joker=JokerRule.NONE,
                yahtzee_bonus=0,
                edition=YATZY,
                house=_house,
                ordered=_ordered,
            )
        )
