"""A game of Yahtzee for 1 to 8 players: actions, legal actions, events, replay, standings."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Self

from . import state as machine
from .box import Box
from .category import Category
from .committed import PLAYOFF_ROUND, CommittedDice
from .dice import Dice, Keep
from .errors import IllegalMove, InvalidInput, show
from .events import (
    DiceEntered,
    Event,
    GameStarted,
    PlayoffRolled,
    Rolled,
    Scored,
    Undone,
    Written,
    event_from_dict,
    event_to_dict,
)
from .language import _
from .rules import RuleSet
from .scorecard import Scorecard
from .scoring import Placement
from .situation import Situation
from .sources import DiceSource, RandomDice
from .state import GameState, Phase, Turn

_OVER = Phase.OVER  # a module constant: reading it is cheaper than the class attribute


@dataclass(frozen=True, slots=True)
class Score:
    """The action of filling a box with the dice showing."""

    category: Box

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Self:
        """The action of filling the box named ``text`` (any name players use: ``"fh"``,
        ``"aces"``), a box of the rules' edition (the American without rules)."""
        return cls((rules.edition.box_type if rules else Category).parse(text))

    def __str__(self) -> str:
        return f"score {self.category.display_name}"


@dataclass(frozen=True, slots=True)
class EnterDice:
    """In a game of entered dice: the five dice showing on the table, and which roll of the
    turn it is (1-3) if the player says (with it, advice is about what to keep; without,
    about the box)."""

    dice: Dice
    roll: int | None = None

    @classmethod
    def parse(cls, text: str, roll: int | None = None) -> Self:
        """The entry of the dice written ``text`` (``"33356"``, ``"3 3 3 5 6"``)."""
        return cls(Dice.parse(text), roll)

    def __str__(self) -> str:
        said = f" (roll {self.roll})" if self.roll is not None else ""
        return f"dice {self.dice}{said}"


@dataclass(frozen=True, slots=True)
class Write:
    """In a game of entered dice: ``points`` written in box ``category`` as on a paper pad
    (quick score entry), checked against what the box can hold."""

    category: Box
    points: int

    def __str__(self) -> str:
        return f"write {self.points} in {self.category.display_name}"


Action = Keep | Score
"""A decision: ``Keep(k)`` keeps ``k`` and rolls the other dice; ``Score(c)`` fills box ``c``
with the dice showing (what strategies choose and the advisor weighs)."""
Entry = EnterDice | Write
"""What a player at a table with real dice enters: ``EnterDice(d)`` says the dice showing,
``Write(c, n)`` writes points without dice."""
_ACTIONS = (Keep, Score, EnterDice, Write)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place: 1 for first (shared on equal totals), ``winner`` per the tie-break."""

    place: int
    player: int
    name: str
    total: int
    winner: bool


class LegalActions:
    """A lazy view of the actions allowed now; supports ``in``, iteration and ``len``."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, _ACTIONS):
            return False
        try:
            self._game.check(action)
        except IllegalMove:
            return False
        return True

    def _candidates(self) -> Iterator[Action | Entry]:
        state = self._game.state
        turn = state.turn
        if state.phase is Phase.OVER:
            return
        if state.entered:  # entries of every roll (then the boxes for the dice showing)
            yield from (EnterDice(dice) for dice in Dice.all())
            if state.playoff is None and turn is not None and turn.dice is not None:
                for placement in state.cards[turn.player].placements(turn.dice, state.rules):
                    yield Score(placement.category)
            return
        if state.playoff is not None or turn is None or turn.dice is None:
            yield Keep.NONE
            return
        if turn.rolls < machine.ROLLS_PER_TURN:
            yield from turn.dice.keeps()
        for placement in state.cards[turn.player].placements(turn.dice, state.rules):
            yield Score(placement.category)

    def __iter__(self) -> Iterator[Action | Entry]:
        return self._candidates()

    def __len__(self) -> int:
        return sum(1 for _ in self._candidates())

    def __bool__(self) -> bool:
        return any(True for _ in self._candidates())

    def __repr__(self) -> str:
        return f"<LegalActions {', '.join(map(str, self))}>"


class Game:
    """A game in progress. Its truth is the append-only list of events (`events`)."""

    def __init__(
        self,
        players: Sequence[str] | int = 1,
        rules: RuleSet | str | None = None,
        dice: DiceSource | random.Random | None = None,
        *,
        entered: bool = False,
    ) -> None:
        """``entered``: the players roll real dice and enter them (`enter_dice`) or write
        scores (`write`); the program then never rolls, and ``dice`` is not used."""
        if isinstance(players, int) and not isinstance(players, bool):
            if not 1 <= players <= machine.MAX_PLAYERS:
                raise InvalidInput(
                    _("A game has 1 to {most} players, not {players}.").format(
                        most=machine.MAX_PLAYERS, players=players
                    )
                )
            players = [f"Player {i + 1}" for i in range(players)]
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise InvalidInput(
                _("Players must be a list of names or a number from 1 to {most}.").format(
                    most=machine.MAX_PLAYERS
                )
            )
        rule_set = _rules(rules)
        self.dice_source: DiceSource = _source(dice)
        opening = GameStarted(tuple(players), rule_set.name, entered=bool(entered))
        self._state = machine.start(opening)
        opening = dataclasses.replace(opening, players=self._state.players)
        if isinstance(dice, CommittedDice) and not entered:  # published before the first roll
            opening = dataclasses.replace(opening, commitment=dice.commitment, draw=dice.draw)
        self._events: list[Event] = [opening]

    # Reading ------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The whole state as one immutable value."""
        return self._state

    @property
    def rules(self) -> RuleSet:
        """The rule set this game is played under."""
        return self._state.rules

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in seat order."""
        return self._state.players

    @property
    def cards(self) -> tuple[Scorecard, ...]:
        """Each player's scorecard, in seat order."""
        return self._state.cards

    @property
    def phase(self) -> Phase:
        """Turns, the playoff, or over."""
        return self._state.phase

    @property
    def turn(self) -> Turn | None:
        """The turn under way (dice, held dice, rolls made), ``None`` when there is none."""
        return self._state.turn

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is (``None`` once the game is over)."""
        return self._state.current_player

    @property
    def dice(self) -> Dice | None:
        """The dice showing in the current turn (``None`` before its first roll)."""
        return self._state.turn.dice if self._state.turn else None

    @property
    def entered(self) -> bool:
        """Whether the players enter their dice (or scores) instead of the program rolling."""
        return self._state.entered

    @property
    def is_over(self) -> bool:
        """Whether every box is filled (and any playoff rolled)."""
        return self._state.phase is _OVER

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several for a shared win)."""
        return self._state.winners

    @property
    def events(self) -> list[dict[str, Any]]:
        """The event log in JSON form (a fresh copy)."""
        return [event_to_dict(e) for e in self._events]

    @property
    def event_log(self) -> tuple[Event, ...]:
        """Every event so far, in order (what ``Game.replay`` rebuilds the game from)."""
        return tuple(self._events)

    def snapshot(self) -> Game:
        """The game as it stands now, kept as it is while this one plays on (a copy that
        shares the immutable state and events). For reading: it draws on the same dice
        source, so play on it would take rolls from this game's dice."""
        return self.as_it_was(self._state, len(self._events))

    def as_it_was(self, state: GameState, events: int) -> Game:
        """The game as it stood after its first ``events`` events, ``state`` being its
        state then (one this game passed through, kept by the caller: it is not worked out
        again). A copy for reading, as `snapshot`'s; made when asked for, so that a caller
        may keep a state for each move without a copy of the events each (`snapshot`
        is the game as it stands now)."""
        if not 0 < events <= len(self._events):
            raise ValueError(f"the game has {len(self._events)} events, not {events}")
        copy = object.__new__(Game)
        copy.dice_source, copy._state, copy._events = (
            self.dice_source, state, self._events[:events]
        )  # fmt: skip
        return copy

    def situation(self) -> Situation | None:
        """The current player's decision point (``None`` before the first roll or after
        the turns: a playoff roll has nothing to decide)."""
        turn = self._state.turn
        if turn is None or turn.dice is None:
            return None
        return Situation(turn.dice, turn.rolls_left, self._state.cards[turn.player])

    def legal_actions(self) -> LegalActions:
        """The actions allowed now (a lazy view: iterate it, or test ``action in ...``)."""
        return LegalActions(self)

    def placements(self) -> tuple[Placement, ...]:
        """The legal boxes for the dice showing (empty before the first roll)."""
        turn = self._state.turn
        if turn is None or turn.dice is None:
            return ()
        return self._state.cards[turn.player].placements(turn.dice, self.rules)

    def standings(self) -> tuple[Standing, ...]:
        """Players by total, best first; equal totals share a place unless a playoff
        separated them (the winner first, then the later a player was knocked out)."""
        cards, winners = self._state.cards, set(self._state.winners)
        rounds = self._state.playoff.knocked_out if self._state.playoff else ()
        lasted = {p: i for i, group in enumerate(rounds) for p in group}

        def rank(p: int) -> tuple[int, bool, int]:
            return (-cards[p].total, p not in winners, -lasted.get(p, len(rounds)))

        order = sorted(range(len(cards)), key=lambda p: (rank(p), p))
        result: list[Standing] = []
        for index, player in enumerate(order):
            same = bool(result) and rank(result[-1].player) == rank(player)
            place = result[-1].place if same else index + 1
            total = cards[player].total
            result.append(Standing(place, player, self.players[player], total, player in winners))
        return tuple(result)

    # Acting -------------------------------------------------------------------------

    def check(self, action: Action | Entry, player: int | None = None) -> None:
        """Raise `IllegalMove` unless ``action`` is allowed now."""
        if isinstance(action, Score):
            machine.check_score(self._state, action.category, player)
        elif isinstance(action, Keep):
            machine.check_roll(self._state, action, player)
        elif isinstance(action, EnterDice):
            machine.check_dice_entry(self._state, action.dice, action.roll, player)
        elif isinstance(action, Write):
            machine.check_written(self._state, action.category, action.points, player)
        else:
            raise InvalidInput(
                _("Not an action: {action}; use Keep(...) or Score(...).").format(
                    action=show(action)
                )
            )

    def roll(self, keep: Keep | str = Keep.NONE, *, player: int | None = None) -> Dice:
        """Keep ``keep`` (none on the first roll) and throw the other dice."""
        keep = keep if isinstance(keep, Keep) else Keep.parse(keep)
        machine.check_roll(self._state, keep, player)
        seat = self._state.current_player
        assert seat is not None
        source = self.dice_source
        if isinstance(source, CommittedDice):  # its dice: by the seat, round and roll
            playoff = self._state.playoff
            turn = self._state.turn
            if playoff is not None:
                dice = source.throw_for(seat, PLAYOFF_ROUND, len(playoff.history) + 1, keep)
            else:
                assert turn is not None
                dice = source.throw_for(seat, turn.round, turn.rolls + 1, keep)
        else:
            dice = source.throw(keep)
        if self._state.playoff is not None:
            self._append(PlayoffRolled(seat, dice))
        elif not dice.contains(keep):
            raise InvalidInput(
                _("The dice source threw {dice}, which does not hold {keep}.").format(
                    dice=dice, keep=keep
                )
            )
        else:  # checked above: the transition without checking again
            keep = keep.shared  # (kept for the game's life: one of the 462)
            self._state = machine.after_roll(self._state, keep, dice)
            self._events.append(Rolled(seat, keep, dice))
        return dice

    def score(self, category: Box | str, *, player: int | None = None) -> Placement:
        """Fill ``category`` with the dice showing; returns what it scored."""
        box_type = self._state.rules.edition.box_type
        if type(category) is not box_type:  # (of returns a box of the edition as it is)
            category = box_type.of(category)
        placement = machine.check_score(self._state, category, player)
        seat = self._state.current_player
        assert seat is not None
        self._state = machine.after_score(self._state, placement)  # checked above
        self._events.append(Scored(seat, category, placement.points, placement.yahtzee_bonus))
        return placement

    def enter_dice(
        self, dice: Dice | str, roll: int | None = None, *, player: int | None = None
    ) -> Dice:
        """In a game of entered dice: the five dice showing on the table (``roll``: which roll
        of the turn, 1-3, if known). Entered again before a box is filled, it corrects them
        without using a roll; in the playoff, it is the player's playoff roll."""
        dice = dice if isinstance(dice, Dice) else Dice.parse(dice)
        seat = machine.check_dice_entry(self._state, dice, roll, player)
        self._state = machine.after_dice_entry(self._state, seat, dice, roll)
        self._events.append(DiceEntered(seat, dice, roll))
        return dice

    def write(self, category: Box | str, points: int, *, player: int | None = None) -> Placement:
        """In a game of entered dice: write ``points`` in ``category`` without dice (quick
        score entry). The points are checked against what the box can hold under the rules;
        the bonuses follow from the boxes. A Yahtzee is entered as dice instead, so that its
        Joker placement and bonus follow the rules."""
        box_type = self._state.rules.edition.box_type
        if type(category) is not box_type:
            category = box_type.of(category)
        placement = machine.check_written(self._state, category, points, player)
        seat = self._state.current_player
        assert seat is not None
        self._state = machine.after_score(self._state, placement)
        self._events.append(Written(seat, category, placement.points))
        return placement

    def can_undo(self, player: int | None = None) -> bool:
        """Whether the last placement may be taken back now (by ``player``)."""
        try:
            machine.check_undo(self._state, player)
        except IllegalMove:
            return False
        return True

    def undo(self, *, player: int | None = None) -> Scored | Written:
        """Take back the last placement (before anyone rolls again; not once the game has
        ended): the box is open again and the same dice show with the same rolls left.
        The log keeps the placement and records the taking back. Returns the placement
        taken back."""
        before = machine.check_undo(self._state, player)
        placed = self._events[-1]
        assert isinstance(placed, Scored | Written)  # only a placement leaves a state to go back to
        self._state = before
        self._events.append(Undone(placed.player))
        return placed

    def play(self, action: Action | Entry, *, player: int | None = None) -> Dice | Placement:
        """Take any action: a `Keep` rolls, a `Score` fills a box."""
        if isinstance(action, Score):
            return self.score(action.category, player=player)
        if isinstance(action, Keep):
            return self.roll(action, player=player)
        if isinstance(action, EnterDice):
            return self.enter_dice(action.dice, action.roll, player=player)
        if isinstance(action, Write):
            return self.write(action.category, action.points, player=player)
        raise InvalidInput(_("Not an action: {action}.").format(action=show(action)))

    def _append(self, event: Event) -> None:
        self._state = machine.apply(self._state, event)
        self._events.append(event)

    # Replay -------------------------------------------------------------------------

    @classmethod
    def replay(
        cls, events: Iterable[dict[str, Any] | Event], dice: DiceSource | None = None
    ) -> Game:
        """Rebuild a game from its events; play goes on with ``dice`` (a fresh random source
        by default). Malformed or impossible logs raise `InvalidInput`."""
        if isinstance(events, str | bytes | dict) or not isinstance(events, Iterable):
            raise InvalidInput(_("An event log is a list of events."))
        items = iter(events)
        first = next(items, None)
        if first is None:
            raise InvalidInput(_("An event log starts with a start event; this one is empty."))
        opening = event_from_dict(first)
        if not isinstance(opening, GameStarted):
            raise InvalidInput(_("An event log must begin with the game's start event."))
        game = cls(list(opening.players), opening.rules, dice, entered=opening.entered)
        first = game._events[0]  # the commitment and draw as recorded, whatever dice go on
        assert isinstance(first, GameStarted)
        game._events[0] = dataclasses.replace(
            first, commitment=opening.commitment, draw=opening.draw
        )
        game._extend(items, 2)
        return game

    def extend(self, events: Iterable[dict[str, Any] | Event]) -> None:
        """Append recorded events (made by another copy of this game, say on another
        server node), checked as `replay` checks them. On a bad one this raises
        `InvalidInput`, and the events before it stay appended."""
        if isinstance(events, str | bytes | dict) or not isinstance(events, Iterable):
            raise InvalidInput(_("Events come as a list."))
        self._extend(iter(events), len(self._events) + 1)

    def _extend(self, items: Iterator[dict[str, Any] | Event], start: int) -> None:
        for number, raw in enumerate(items, start=start):
            try:
                self._append(event_from_dict(raw, self._state.rules.edition.box_type))
            except IllegalMove as error:
                raise InvalidInput(
                    _("Event {number} is not legal here: {error}").format(
                        number=number, error=error
                    )
                ) from None
            except InvalidInput as error:
                raise InvalidInput(
                    _("Event {number}: {error}").format(number=number, error=error)
                ) from None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._state == other._state and self._events == other._events

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Game {', '.join(self.players)}: {self.phase}, {len(self._events)} events>"


def _rules(rules: RuleSet | str | None) -> RuleSet:
    if rules is None:
        return RuleSet.official()
    if isinstance(rules, str):
        return RuleSet.named(rules)
    if not isinstance(rules, RuleSet):
        raise InvalidInput(
            _("Rules are a RuleSet or a rule-set name, not {rules}.").format(rules=show(rules))
        )
    if RuleSet.named(rules.name) != rules:
        raise InvalidInput(
            _(
                "These rules differ from the registered {rules_name!r}; register them "
                "under a new name (RuleSet.register) so the game's log can name them."
            ).format(rules_name=rules.name)
        )
    return rules


def _source(dice: DiceSource | random.Random | None) -> DiceSource:
    if dice is None:
        return RandomDice()
    if isinstance(dice, random.Random):
        return RandomDice(dice)
    if not callable(getattr(dice, "throw", None)):
        raise InvalidInput(_("A dice source needs a throw(keep) method, or pass a random.Random."))
    return dice
