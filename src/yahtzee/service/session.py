"""A game being played: the one place that drives a game for every front end.

A `GameSession` owns the `Game` and its dice, the seats (a human by name or
a bot by `BotSpec`), the record in the store (every action saved as it happens),
the bots' moves, the hints (allowed or not, and who used them), the dice the player to act
has selected to keep (saved as they are selected), taking back the last placement (where
the game allows it), the end-of-game review of every human seat (saved with the record),
the stand-in move when a turn timer runs out, the win-chance meter (`meter`, read by
`service.meter`) and the rematch. The terminal game, the server and plain mode only
read it and tell it what their players did.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core import (
    DEFAULT_LEVEL,
    DICE_COUNT,
    Action,
    BotSpec,
    Box,
    Dice,
    DiceEntered,
    DiceSource,
    EnterDice,
    Entry,
    Event,
    Game,
    IllegalMove,
    Keep,
    Placement,
    RandomDice,
    RuleSet,
    Score,
    Scored,
    Write,
    Written,
)
from ..core.language import N_, _
from ..store import Seat, Store
from ..store.resume import Resumable
from .meter import MeterReading, read_meter

if TYPE_CHECKING:
    from ..core import Scorecard
    from ..solver import Advice, Progress, Solver, Strategy
    from ..solver.curve_build import Kind
    from ..solver.review import PlayerReview


REVIEW_DECIMALS = 6
"""The advisor loss is recorded to a millionth of a point: the numpy turn and the compiled
kernels agree to about 1e-13, so a game's record does not depend on which one a process
happened to use."""


STAND_IN = BotSpec.at_level(DEFAULT_LEVEL)
"""Who plays for a human whose turn timer ran out."""

NO_BOTS_ENTERED = N_(
    "A computer player cannot sit in a game of real dice (it has no hands to roll them): "
    "seat people only, or let the program roll."
)
"""(Translated where it is raised, with `_`.)"""


def new_game(
    seats: Sequence[Seat], rules: RuleSet, dice: DiceSource, *, entered: bool = False
) -> Game:
    """The game of these seats (`InvalidInput` for a bot in a game of entered dice)."""
    if entered and any(seat.bot is not None for seat in seats):
        raise IllegalMove(_(NO_BOTS_ENTERED), code="bots_need_rolled_dice")
    return Game([s.name for s in seats], rules, dice, entered=entered)


@dataclass(frozen=True, slots=True)
class Move:
    """What one action did: who acted, what they did, and the events it appended."""

    seat: int
    name: str
    action: Action | Entry
    events: tuple[Event, ...]
    dice: Dice | None = None
    placement: Placement | None = None
    by_bot: bool = False
    seq: int = 0
    """The sequence number of this move's last event (the log's length after it)."""


@dataclass
class GameSession:
    """A game being played, with its seats, record, bots, hints, the dice selected to keep,
    the win-chance meter and the review."""

    game: Game
    seats: list[Seat]
    store: Store | None = None
    game_id: str | None = None
    seed: int | str | None = None
    hints_allowed: bool = True
    hinted: set[int] = field(default_factory=set)
    undo_allowed: bool | None = None
    """Whether a player may take back their last placement; ``None``: only in a game of
    one player (in a game against others, only where the table allows it)."""
    _selection: tuple[int, tuple[bool, ...]] | None = field(default=None, repr=False)
    _bots: dict[int, Strategy] = field(default_factory=dict, repr=False)
    _stand_ins: dict[int, Strategy] = field(default_factory=dict, repr=False)
    _best: list[int | None] = field(default_factory=list, repr=False)
    """The solo player's best finished score, once looked up (it cannot change mid-game)."""
    _review: list[PlayerReview] | None = field(default=None, repr=False)
    _review_has_win: bool = field(default=False, repr=False)
    bot_methods: dict[int, dict[str, int]] = field(default_factory=dict)
    """Per bot seat that plays to win: how many of its decisions each method made (see
    `solver.interim.INTERIM_METHOD`), for the review to say."""
    stand_in_bot: BotSpec = STAND_IN
    """Who plays for a human whose turn timer ran out (the table's timeout rule's bot)."""
    sitting: str | None = None
    """The sitting this game belongs to (the games the same players play one after the
    other): the id of its first game, or of its first table. None for a game not recorded."""

    # Starting ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        seats: Sequence[Seat],
        rules: RuleSet,
        *,
        store: Store | None = None,
        seed: int | str | None = None,
        dice: DiceSource | None = None,
        hints: bool = True,
        undo: bool | None = None,
        entered: bool = False,
        sitting: str | None = None,
    ) -> GameSession:
        """A new game (recorded when ``store`` is given). ``seed`` makes the dice and the
        bots reproducible; ``dice`` replaces the dice source (the server's is secure);
        ``undo``: see `undo_allowed`; ``entered``: the players roll real dice and enter
        them (people only: a computer player has no hands); ``sitting``: the sitting this
        game continues (see `rematch`)."""
        if store is None:
            game = new_game(seats, rules, dice or RandomDice(seed), entered=entered)
            return cls(game, list(seats), None, None, seed, hints, undo_allowed=undo)
        session = cls.prepared(seats, rules, store, str(uuid.uuid4()), seed=seed, dice=dice,
                               hints=hints, undo=undo, entered=entered)  # fmt: skip
        session.sitting = sitting or session.game_id
        store.start(session.game, seats, seed=seed, game_id=session.game_id, sitting=sitting)
        return session

    @classmethod
    def prepared(
        cls,
        seats: Sequence[Seat],
        rules: RuleSet,
        store: Store,
        game_id: str,
        *,
        seed: int | str | None = None,
        dice: DiceSource | None = None,
        hints: bool = True,
        undo: bool | None = None,
        entered: bool = False,
    ) -> GameSession:
        """A new game to be recorded as ``game_id`` in ``store`` by the caller (a table's
        game is recorded with the table's start, in one transaction): play it only once
        recorded."""
        game = new_game(seats, rules, dice or RandomDice(seed), entered=entered)
        return cls(game, list(seats), store, game_id, seed, hints, undo_allowed=undo)

    @classmethod
    def resume(
        cls,
        store: Store,
        game_id: str,
        *,
        dice: DiceSource | None = None,
        seed: int | str | None = None,
        hints: bool = True,
        undo: bool | None = None,
    ) -> GameSession:
        """A recorded game, exactly where it stopped (mid-turn included, with the dice
        the player had selected to keep)."""
        found = store.resumable(game_id, dice or RandomDice(seed))
        return cls.of_record(found, store, game_id, seed=seed, hints=hints, undo=undo)

    @classmethod
    def of_record(
        cls,
        found: Resumable,
        store: Store,
        game_id: str,
        *,
        seed: int | str | None = None,
        hints: bool = True,
        undo: bool | None = None,
    ) -> GameSession:
        """`resume` from what the records hold, read already (`Store.resumables`)."""
        session = cls(
            found.game, found.seats, store, game_id, seed, hints, set(found.hinted),
            undo_allowed=undo,
        )  # fmt: skip
        session._selection = found.selection
        session.sitting = found.sitting
        return session

    def rematch(
        self, *, seed: int | str | None = None, dice: DiceSource | None = None
    ) -> GameSession:
        """The next game of the sitting: the same seats, rules, hint setting and dice
        (rolled or entered), and the same store."""
        return GameSession.new(
            self.seats,
            self.rules,
            store=self.store,
            seed=seed,
            dice=dice,
            hints=self.hints_allowed,
            undo=self.undo_allowed,
            entered=self.game.entered,
            sitting=self.sitting,
        )

    # Reading -------------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self.game.rules

    @property
    def current(self) -> int | None:
        return self.game.current_player

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].bot is not None

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot is None]

    def placements(self) -> dict[Box, Placement]:
        return {p.category: p for p in self.game.placements()}

    # The dice selected to keep ------------------------------------------------------

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
            raise IllegalMove(_("There are no dice to keep now."), code="no_keep")
        flags = tuple(bool(h) for h in held)
        if len(flags) != DICE_COUNT:
            raise IllegalMove(
                _("Select each of the {count} dice to keep or not.").format(count=DICE_COUNT),
                code="bad_keep",
            )
        self._selection = (len(self.game.event_log), flags)
        if self.store is not None and self.game_id is not None:
            self.store.save_selection(self.game_id, *self._selection)

    # Taking back ---------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        """Whether the last placement may be taken back now (by the player who made it,
        before anyone rolls again), in a game that allows it."""
        if not self.undo_on:
            return False
        log = self.game.event_log
        last = log[-1] if log else None
        if not isinstance(last, Scored | Written):
            return False
        return not self.is_bot(last.player) and self.game.can_undo()

    @property
    def bot_waits(self) -> bool:
        """Whether the bot to act waits before it plays: the last placement, a human's,
        may still be taken back (`can_undo`), and the bot's first roll would end that.
        A face then lets its player take it back or go on (a key, or a short countdown
        it shows) before it lets the bot act."""
        return self.can_undo and self.is_bot(self.current)

    def undo(self) -> Scored | Written:
        """Take back the last placement (recorded as an event, and saved): the box is open
        again and the same dice show. Returns the placement taken back."""
        if not self.undo_on:
            raise IllegalMove(_("Taking back a placement is off in this game."), code="undo_off")
        log = self.game.event_log
        last = log[-1] if log else None
        if isinstance(last, Scored) and self.is_bot(last.player):
            raise IllegalMove(_("A computer player's placement stays."), code="no_undo")
        placed = self.game.undo()
        self.save()
        return placed

    @property
    def undo_on(self) -> bool:
        """Whether this game lets a player take back a placement at all (by default: in a
        game of one player, and in a game of entered dice, where an entry stays editable
        until the next player's turn, as on a paper pad)."""
        if self.undo_allowed is not None:
            return self.undo_allowed
        return len(self.seats) == 1 or self.game.entered

    # Acting --------------------------------------------------------------------------

    def act(self, action: Action | Entry, seat: int | None = None, *, review: bool = True) -> Move:
        """Check and apply one action of ``seat`` (the player to act by default), save it,
        and when it ends the game, review and record the game (``review=False``: the
        caller runs `finish` itself, say in the background)."""
        move = self.apply(action, seat)
        self.save()
        if review and self.game.is_over:
            self.finish()
        return move

    def roll(self, keep: Keep = Keep.NONE, seat: int | None = None) -> Move:
        return self.act(keep, seat)

    def score(self, category: Box | str, seat: int | None = None, *, review: bool = True) -> Move:
        chosen = self.game.rules.edition.parse_box(category)
        return self.act(Score(chosen), seat, review=review)

    def enter_dice(
        self, dice: Dice | str, roll: int | None = None, seat: int | None = None
    ) -> Move:
        """In a game of entered dice: the dice showing on the table (see `Game.enter_dice`)."""
        return self.act(EnterDice(dice if isinstance(dice, Dice) else Dice.parse(dice), roll), seat)

    @property
    def next_roll(self) -> int | None:
        """In a game of entered dice: which roll of the turn new dice entered now are, as
        a player at the table means them. After dice said to be roll 1 or 2, the next one
        (the player threw again); otherwise not said (a turn's first dice, or dice whose
        roll was not said, which count as the last roll). Entering dice again with the
        roll of the dice showing (`said_roll`) corrects them instead."""
        turn = self.game.turn
        if not self.game.entered or turn is None or turn.dice is None or not turn.rolls_left:
            return None
        return turn.rolls + 1

    @property
    def said_roll(self) -> int | None:
        """In a game of entered dice: the roll said with the dice showing (their last
        entry), if any."""
        for event in reversed(self.game.event_log):
            if isinstance(event, DiceEntered):
                return event.roll
        return None

    def write(self, category: Box | str, points: int, seat: int | None = None) -> Move:
        """In a game of entered dice: points written in a box (see `Game.write`)."""
        chosen = self.game.rules.edition.parse_box(category)
        return self.act(Write(chosen, points), seat)

    def apply(self, action: Action | Entry, seat: int | None = None) -> Move:
        """Check and apply one action in memory only; `save` (or a group commit)
        records it, `reload` takes it back if that fails."""
        player = self.current if seat is None else seat
        if player is None:
            raise IllegalMove(_("The game is over."), code="game_over")
        before = len(self.game.event_log)
        self.game.check(action, player)
        result = self.game.play(action, player=player)
        log = self.game.event_log
        return Move(
            player,
            self.game.players[player],
            action,
            tuple(log[before:]),
            result if isinstance(result, Dice) else None,
            result if isinstance(result, Placement) else None,
            self.is_bot(player),
            len(log),
        )

    def save(self) -> None:
        if self.store is not None and self.game_id is not None:
            self.store.save(self.game_id, self.game)

    def reload(self) -> None:
        """Back to what the records hold (after a save that failed)."""
        if self.store is not None and self.game_id is not None:
            self.game = self.store.load(self.game_id, self.game.dice_source)

    def finish(self) -> None:
        """Review the finished game and keep each human's advisor loss with its record."""
        if self.store is None or self.game_id is None or not self.game.is_over:
            return
        for player in self.review():
            loss = round(player.total_loss, REVIEW_DECIMALS)
            self.store.set_review(self.game_id, player.player, len(player.decisions), loss)

    # Bots and the turn timer's stand-in ---------------------------------------------

    def bot_action(self, seat: int | None = None) -> Action:
        """What the bot at ``seat`` (the player to act by default) does now."""
        player = self.current if seat is None else seat
        if player is None or not self.is_bot(player):
            raise IllegalMove(_("It is not a computer player's turn."), code="not_a_bot")
        spec = self.seats[player].bot
        assert spec is not None
        if player not in self._bots:
            self._bots[player] = self._strategy(spec, player)
        return self._choose(self._bots[player])

    def bot_decides_quickly(self, seat: int) -> bool:
        """Whether the bot at ``seat`` decides in microseconds (`bot_action` may then run
        on an event loop): its strategy does, or is one made at once (then it is made
        now: a new game's first bot move needs no worker thread either)."""
        spec = self.seats[seat].bot if 0 <= seat < len(self.seats) else None
        return spec is not None and self._quick(self._bots, seat, spec)

    def stand_in(self, seat: int) -> Action:
        """The move made for a human whose turn timer ran out: `stand_in_bot`'s choice
        (its strategy made on first use: a worker thread's job unless
        `stand_in_decides_quickly`)."""
        strategy = self._stand_ins.get(seat)
        if strategy is None:
            strategy = self._stand_ins[seat] = self._strategy(self.stand_in_bot, seat)
        return self._choose(strategy)

    def stand_in_decides_quickly(self, seat: int) -> bool:
        """Whether the stand-in at ``seat`` decides in microseconds (`stand_in` may then
        run on an event loop), as `bot_decides_quickly` says for a bot."""
        return self._quick(self._stand_ins, seat, self.stand_in_bot)

    def _quick(self, made: dict[int, Strategy], seat: int, spec: BotSpec) -> bool:
        """Whether the strategy ``made`` holds for ``seat`` (or one made now, if that is
        quick) decides quickly."""
        from ..solver import solver_loaded  # noqa: PLC0415
        from ..solver.strategies import decides_quickly, made_at_once  # noqa: PLC0415

        strategy = made.get(seat)
        if strategy is None:
            if not solver_loaded(self.rules) or not made_at_once(spec, self.rules):
                return False
            strategy = made[seat] = self._strategy(spec, seat)
        return decides_quickly(strategy)

    def _choose(self, strategy: Strategy) -> Action:
        from ..solver.strategies import rival_aware  # noqa: PLC0415

        situation = self.game.situation()
        if situation is None:
            return Keep.NONE
        if rival_aware(strategy):
            me = self.current
            rivals = [card for seat, card in enumerate(self.game.cards) if seat != me]
            action = strategy.choose_against(situation, rivals)
            method = getattr(strategy, "method", None)
            if isinstance(method, str) and me is not None and rivals:
                counts = self.bot_methods.setdefault(me, {})
                counts[method] = counts.get(method, 0) + 1
            return action
        return strategy.choose(situation)

    def _strategy(self, spec: BotSpec, seat: int) -> Strategy:
        from ..solver import strategy  # noqa: PLC0415 - numba loads with the first bot

        self.solver()
        rng = random.Random(f"{self.seed}/{seat}") if self.seed is not None else None
        return strategy(spec, self.rules, rng)

    def play_bot(self, *, review: bool = True) -> Move:
        """The bot whose turn it is takes one action (recorded)."""
        return self.act(self.bot_action(), review=review)

    def bot_moves(self) -> Iterator[Move]:
        """Every bot action until a human is to act or the game is over."""
        while not self.game.is_over and self.is_bot(self.current):
            yield self.play_bot()

    def hand_to_bot(self, seat: int, spec: BotSpec) -> None:
        """A seat's player left for good: a bot plays the seat from now on (not in a game
        of entered dice: a bot cannot roll the dice on the table)."""
        if self.game.entered:
            raise IllegalMove(_(NO_BOTS_ENTERED), code="bots_need_rolled_dice")
        self.seats[seat] = Seat(self.seats[seat].name, spec)
        self._bots.pop(seat, None)

    # The win-chance meter ------------------------------------------------------------

    def meter(
        self, cards: tuple[Scorecard, ...] | None = None, *, over: bool = False
    ) -> MeterReading:
        """The win-chance meter as every face shows it: exact, or an estimate while the
        exact tables are prepared (see `read_meter`, also for ``cards`` and ``over``; a
        worker thread's job)."""
        return read_meter(self, cards, over=over)

    def win_chances(self, cards: tuple[Scorecard, ...] | None = None) -> list[float] | None:
        """Each seat's chance to finish first if everyone plays for the most expected points
        from here, ties shared; alone, the chance to beat the player's best finished score
        under these rules (``None`` without one). ``None`` while the table that answers is
        not loaded: it is then loaded (or built) in the background, see
        `win_meter_progress`. ``cards``: the game's as they were at some moment (the
        game's now by default), for a reading made while the game goes on."""
        from ..solver.curve_table import cached_table  # noqa: PLC0415
        from ..solver.winning import beat_chance, win_chances  # noqa: PLC0415

        cards = self.game.cards if cards is None else cards
        self._request_meter_tables()
        if not self.win_meter_ready():
            return None
        table = cached_table("distribution", self.game.rules)
        if len(cards) > 1:
            return win_chances(cards, table)
        best = self.best_score()
        return None if best is None else [beat_chance(cards[0], best, table)]

    def win_meter_ready(self) -> bool:
        """Whether the meter's table is loaded (until then `win_chances` has nothing
        to work out: it only asks for the table, see `request_win_meter`)."""
        from ..solver.curve_table import table_loaded  # noqa: PLC0415

        return table_loaded("distribution", self.game.rules)

    def request_win_meter(self) -> tuple[int, int] | None:
        """Ask for the meter's tables (loaded or built in the background, once) and say
        how far they are, as `win_meter_progress` (quick: no table is read)."""
        self._request_meter_tables()
        return self.win_meter_progress()

    def _request_meter_tables(self) -> None:
        from ..solver.curve_table import CurveTable  # noqa: PLC0415
        from ..solver.winning import request_tables  # noqa: PLC0415

        # against others, the target table too: the review's swing in win chance needs it
        kinds: tuple[Kind, ...] = ("distribution", "target")
        if len(self.game.cards) == 1:
            # alone, there is no one to beat but the player's best: no table is built for
            # that (minutes, and a build that a solo game would name for nothing); one
            # already on disk is loaded, else the chance is the shipped estimate
            kinds = ("distribution",)
            if not CurveTable.path_for("distribution", self.game.rules).is_file():
                return
        request_tables(self.game.rules, kinds)  # nothing to do once loaded (or being loaded)

    def win_meter_progress(self) -> tuple[int, int] | None:
        """``(done, total)`` while the meter's table is being built for a game against
        others, else ``None`` (a solo game builds none)."""
        from ..solver.winning import table_progress  # noqa: PLC0415

        if len(self.game.cards) == 1:
            return None
        return table_progress(self.game.rules, "distribution")

    def win_tables_building(self) -> bool:
        """Whether a table the review's win column needs (either kind) is being built."""
        from ..solver.winning import table_progress  # noqa: PLC0415

        kinds: tuple[Kind, ...] = ("distribution", "target")
        return any(table_progress(self.game.rules, kind) is not None for kind in kinds)

    def best_score(self) -> int | None:
        """The solo player's best finished score under these rules (None without one)."""
        if self.store is None:
            return None
        if not self._best:
            from ..store.queries import best_total  # noqa: PLC0415

            self._best.append(best_total(self.store, self.seats[0].name, self.game.rules.name))
        return self._best[0]

    # Hints and the review ------------------------------------------------------------

    def solver(self, progress: Progress | None = None) -> Solver:
        """The exact solver for this game's rules (loaded, or built, the first time;
        ``progress`` hears of a build)."""
        from ..solver import cached_solver  # noqa: PLC0415 - numpy and the table load here

        return cached_solver(self.rules, progress=progress)

    @property
    def solver_ready(self) -> bool:
        """Whether hints, bots and the review answer without loading the solver first."""
        from ..solver import solver_loaded  # noqa: PLC0415

        return solver_loaded(self.rules)

    def hint(self, seat: int | None = None) -> Advice:
        """The advisor's ranked options for ``seat``'s decision now; records that the
        player used a hint."""
        player = self.current if seat is None else seat
        if not self.hints_allowed:
            raise IllegalMove(_("Hints are off for this game."), code="hints_off")
        situation = self.game.situation()
        if situation is None or player is None or player != self.current:
            raise IllegalMove(
                _("Hints are for the player whose dice are showing."), code="not_your_turn"
            )
        advice = self.solver().advise(situation)
        if player not in self.hinted:
            self.hinted.add(player)
            if self.store is not None and self.game_id is not None:
                self.store.mark_hints_used(self.game_id, player)
        return advice

    @property
    def hints_used(self) -> bool:
        return bool(self.hinted)

    def review_has_win(self) -> bool:
        """Whether a review made now has its win column (against others, once the tables
        that tell are loaded; `review` is then made again if it had none)."""
        from ..solver.review import has_win_swings  # noqa: PLC0415

        return has_win_swings(self.game)

    def review(self) -> list[PlayerReview]:
        """Each human's decisions against the optimal ones (computed once; again once
        the tables of the chance to win are loaded, for the win column)."""
        if not self.game.is_over:
            raise IllegalMove(_("The review comes when the game is over."), code="not_over")
        with_win = self.review_has_win()
        if self._review is None or (with_win and not self._review_has_win):
            from ..solver.review import review  # noqa: PLC0415

            self.solver()
            self._review = review(self.game, self.humans)
            self._review_has_win = with_win
        return self._review


def warm_up(rules: RuleSet | None = None, *, compile_kernels: bool = False) -> None:
    """Load the solver for ``rules`` (official by default) and play a bot's first
    decision, so that the first hint or bot move of a game answers at once. With
    ``compile_kernels``, also compile the turn kernels aside (a child process) and use
    them: many games at once (a server) then cost a tenth of the processor."""
    chosen = rules or RuleSet.official()
    session = GameSession.new([Seat("warm-up", BotSpec.at_level(DEFAULT_LEVEL))], chosen)
    session.play_bot()  # the first roll
    session.play_bot()  # a decision: loads the table, solves a turn
    if compile_kernels:
        from ..solver import compile_kernels_aside  # noqa: PLC0415

        compile_kernels_aside()
