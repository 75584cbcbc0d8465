"""The win-chance meter, read once for every face: `read_meter` and its value.

While the score-curve tables that give the exact chances are not there (the first time,
minutes), the meter is an estimate at once, from the tables that ship with the package
(`solver.interim`), marked as one with its margin, beside how far the build got.
A face shows a `MeterReading` and, while `MeterReading.settled` is false,
reads it again every `POLL_S` seconds (`MeterWatch` says when to stop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

from ..core.language import _, ngettext

if TYPE_CHECKING:
    from ..core import Game, RuleSet, Scorecard
    from ..store import Seat

POLL_S: Final = 1.0
"""Seconds between reads while the exact tables are being prepared."""
STALL_S: Final = 300.0
"""A preparation whose progress has not moved for this long is no longer watched (the
next placement looks again)."""


@dataclass(frozen=True, slots=True)
class MeterReading:
    """What the meter shows for the cards as they are.

    ``chances``: each seat's chance to finish first (alone: the chance to beat ``best``,
    the player's best finished score); ``None`` when there is nothing to show.
    ``estimate``: the chances are estimated, each within ``margin`` (a share of 1) of the
    exact one. ``progress``: ``(done, total)`` while the exact tables are being built."""

    chances: tuple[float, ...] | None = None
    estimate: bool = False
    margin: float | None = None
    progress: tuple[int, int] | None = None
    best: int | None = None

    @property
    def settled(self) -> bool:
        """Nothing more to come for these cards (no build under way)."""
        return self.progress is None


NOTHING: Final = MeterReading()


class Metered(Protocol):
    """What the meter reads of a game being played (`GameSession` is one): its game and
    rules, the tables that give the exact chances, the player's best score alone, and how
    its bots decided (for the review's notes)."""

    @property
    def game(self) -> Game: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def seats(self) -> list[Seat]: ...

    @property
    def bot_methods(self) -> dict[int, dict[str, int]]: ...

    def request_win_meter(self) -> tuple[int, int] | None: ...

    def win_meter_ready(self) -> bool: ...

    def win_chances(self, cards: tuple[Scorecard, ...] | None = None) -> list[float] | None: ...

    def best_score(self) -> int | None: ...


def read_meter(
    session: Metered, cards: tuple[Scorecard, ...] | None = None, *, over: bool = False
) -> MeterReading:
    """The meter of ``session``'s cards: exact once its tables are loaded, else an
    estimate (when one ships for the rules) and the build's progress. Asks for the
    tables (loaded or built in the background, once). Quick once the shipped tables are
    loaded (milliseconds); a worker thread's job all the same (the store may be asked
    for the player's best score). ``cards`` and ``over``: the game's cards and whether it
    was over, as taken at some moment (by default the game's now): then the game may go on
    meanwhile (the reading is of those cards). A solo game asks for no table to be built
    (see `_alone`)."""
    from ..solver.interim import can_estimate  # noqa: PLC0415

    game = session.game
    if cards is None:
        cards, over = game.cards, game.is_over
    if over:
        return NOTHING
    if len(cards) == 1:
        return _alone(session, cards)
    progress = session.request_win_meter()
    if session.win_meter_ready():
        exact = session.win_chances(cards)
        if exact is not None or progress is None:
            return MeterReading(tuple(exact) if exact is not None else None)
    if not can_estimate(session.rules):
        return MeterReading(progress=progress)
    return _estimated(session, progress, cards)


def _alone(session: Metered, cards: tuple[Scorecard, ...]) -> MeterReading:
    """A solo game's meter: the chance to beat the player's best score, nothing without
    one. No table is built for it: exact when the table is loaded (one on disk is loaded
    for a player with a best score), else the estimate, with no progress to show."""
    from ..solver.interim import can_estimate, estimate_beat  # noqa: PLC0415

    best = session.best_score()
    if best is not None:
        session.request_win_meter()  # loads a table already on disk; builds none
    if session.win_meter_ready():
        exact = session.win_chances(cards)
        return MeterReading(tuple(exact), best=best) if exact is not None else NOTHING
    if best is None or not can_estimate(session.rules):
        return NOTHING
    chance, margin = estimate_beat(cards[0], best, session.rules)
    return MeterReading((chance,), True, margin, None, best)


def quick_meter(session: Metered) -> MeterReading | None:
    """The meter when it is worked out at once, on the caller's thread (a tenth of a
    millisecond, no store read): a game over, or the estimate for two or more players
    while the exact tables are not loaded and no card's late distribution is to be worked
    out. None: ask `read_meter` in a worker thread."""
    from ..solver.interim import can_estimate, late_pending  # noqa: PLC0415

    game, rules = session.game, session.rules
    if game.is_over:
        return NOTHING
    if len(game.cards) == 1 or not can_estimate(rules):
        return None
    if any(late_pending(card, rules) for card in game.cards):
        return None
    progress = session.request_win_meter()
    if session.win_meter_ready():
        return None
    return _estimated(session, progress)


def _estimated(
    session: Metered,
    progress: tuple[int, int] | None,
    cards: tuple[Scorecard, ...] | None = None,
) -> MeterReading:
    """The estimated chances of two or more players (see `solver.interim`), of ``cards``
    (the game's now by default)."""
    from ..solver.interim import estimate_chances  # noqa: PLC0415

    chances, margin = estimate_chances(
        session.game.cards if cards is None else cards, session.rules
    )
    return MeterReading(tuple(chances), True, margin, progress)


@dataclass
class MeterWatch:
    """When a face reads the meter again: every `POLL_S` seconds while a build is
    under way, until its progress stalls for `STALL_S` seconds."""

    stall_s: float = STALL_S
    moved_at: float = 0.0
    last: tuple[int, int] | None = None

    def again(self, reading: MeterReading, now: float) -> bool:
        """Whether to read again in `POLL_S` seconds, after ``reading`` at ``now``
        (a monotonic clock's seconds)."""
        if reading.progress != self.last or self.last is None:
            self.moved_at, self.last = now, reading.progress
        if reading.settled:
            return False
        return now - self.moved_at < self.stall_s


def play_notes(session: Metered) -> list[str]:
    """How each bot that plays to win made its decisions, in a player's words, for the
    review: "Bot 2 (winning) played to win: 31 decisions on estimated chances (its exact
    tables were not ready yet), 12 on exact chances"."""
    from ..solver.interim import EV_METHOD, EXACT_METHOD, INTERIM_METHOD  # noqa: PLC0415

    def way(method: str, n: int) -> str:
        if method == INTERIM_METHOD:
            text = ngettext(
                "{n} decision on estimated chances (its exact tables were not ready yet)",
                "{n} decisions on estimated chances (its exact tables were not ready yet)",
                n,
            )
        elif method == EXACT_METHOD:
            text = ngettext("{n} decision on exact chances", "{n} decisions on exact chances", n)
        elif method == EV_METHOD:
            text = ngettext(
                "{n} decision for points (nothing to estimate the chances by yet)",
                "{n} decisions for points (nothing to estimate the chances by yet)",
                n,
            )
        else:
            # Translators: {method} is the name of a way of deciding, as the program has it.
            text = ngettext("{n} decision by {method}", "{n} decisions by {method}", n)
        return text.format(n=n, method=method)

    notes = []
    for seat, counts in sorted(session.bot_methods.items()):
        ways = [way(method, n) for method, n in counts.items()]
        # Translators: {ways} lists how many decisions were made on what, joined by commas.
        notes.append(
            _("{name} played to win: {ways}.").format(
                name=session.seats[seat].name, ways=", ".join(ways)
            )
        )
    return notes


__all__ = [
    "NOTHING",
    "POLL_S",
    "STALL_S",
    "MeterReading",
    "MeterWatch",
    "play_notes",
    "quick_meter",
    "read_meter",
]
