"""The computer players a new game offers, in the order a menu lists them (weakest first),
each with its name and one line saying what choosing it does.

The new-game screens show these (the page takes them from ``GET /api/bots``); ``random``,
``greedy`` and ``heuristic`` stay for simulations and are not offered as opponents.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidInput, show
from .language import N_, NP_, _, pgettext
from .players import DEFAULT_LEVEL, BotSpec


@dataclass(frozen=True, slots=True)
class BotChoice:
    """A bot a new game offers: ``name`` as a menu shows it (``Winning``), ``about`` what
    choosing it does, in a few words (``plays for the best chance to finish first``)."""

    spec: BotSpec
    name: str
    about: str
    word: str = ""
    """What a sentence calls it, lower case (``winning`` in "bot, winning"); a level's is
    ``level 3``."""

    @property
    def shown_name(self) -> str:
        """`name` in the language in force (``name`` itself is English, as data)."""
        if self.spec.level is not None:
            return _("Level {level}").format(level=self.spec.level)
        return _(self.name)

    @property
    def shown_word(self) -> str:
        """`word` in the language in force ("bot, level 3", "bot, auf Sieg")."""
        if self.spec.level is not None:
            return _("level {level}").format(level=self.spec.level)
        return pgettext("bot in a sentence", self.word or self.key)

    @property
    def shown_about(self) -> str:
        """`about` in the language in force."""
        return _(self.about)

    @property
    def key(self) -> str:
        """The bot's key (`BotSpec.key`): ``level3``, ``winning``."""
        return self.spec.key


_LEVEL_ABOUT = {  # the points: a game of Yahtzee (the official rules); Yatzy's are lower
    1: N_("plays with a beginner's mistakes, about 190 points a game of Yahtzee"),
    2: N_("plays with many small mistakes, about 219 points a game of Yahtzee"),
    3: N_("plays with a few mistakes, about 234 points a game of Yahtzee"),
    4: N_("plays with a small mistake now and then, about 250 points a game of Yahtzee"),
    5: N_("plays without mistakes, the same as Optimal"),
}

BOT_CHOICES: tuple[BotChoice, ...] = (
    *(BotChoice(BotSpec.at_level(n), f"Level {n}", about) for n, about in _LEVEL_ABOUT.items()),
    BotChoice(
        BotSpec("optimal"),
        N_("Optimal"),
        N_("plays for the most points, about 255 a game (Yatzy: 248)"),
        NP_("bot in a sentence", "optimal"),
    ),
    BotChoice(
        BotSpec("winning"),
        N_("Winning"),
        N_("plays for the best chance to finish first"),
        NP_("bot in a sentence", "winning"),
    ),
)
DEFAULT_BOT = BotSpec.at_level(DEFAULT_LEVEL)
"""The bot a new seat gets until another is chosen."""


def bot_choice(key: str) -> BotChoice:
    """The offered bot of this exact key (``level3``, ``optimal``, ``winning``);
    `InvalidInput` for any other."""
    for choice in BOT_CHOICES:
        if choice.key == key:
            return choice
    offered = ", ".join(c.key for c in BOT_CHOICES)
    raise InvalidInput(
        _("There is no bot {key} to choose: the bots are {offered}.").format(
            key=show(key), offered=offered
        )
    )


def chosen_bot(key: str | None = None, level: int | None = None) -> BotSpec:
    """The bot asked for by its key (`bot_choice`) or by its level (1-5), not both;
    `DEFAULT_BOT` with neither. `InvalidInput` for anything else."""
    if key is not None and level is not None:
        raise InvalidInput(_("Choose a bot by its name or by its level, not both."))
    if key is not None:
        return bot_choice(key).spec
    return DEFAULT_BOT if level is None else BotSpec.at_level(level)
