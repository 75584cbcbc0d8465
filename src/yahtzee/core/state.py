"""The game state machine as pure functions over immutable states.

Every change of state goes through `apply`, for live play and replay alike, so a
replayed game is the live game by construction. The ``check_*`` functions raise
`IllegalMove` before anything changes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum

from .box import Box
from .dice import Dice, Keep
from .editions import AMERICAN
from .entries import check_entry
from .errors import IllegalMove, InvalidInput, show
from .events import DiceEntered, Event, GameStarted, PlayoffRolled, Rolled, Scored, Undone, Written
from .frozen import fast_init
from .language import _
from .rules import RuleSet, TieBreak
from .scorecard import Scorecard
from .scoring import Placement

ROUNDS = len(AMERICAN.boxes)  # one round per box of the American card (`RuleSet.rounds`)
ROLLS_PER_TURN = 3
MAX_PLAYERS = 8
MAX_NAME_LENGTH = 40


class Phase(StrEnum):
    """Where a game is: turns, the tie-break playoff, or over."""

    TURN = "turn"
    """Players take turns filling boxes."""
    PLAYOFF = "playoff"
    """All boxes are filled and players tied for first roll off."""
    OVER = "over"


_OVER = Phase.OVER  # module constants: reading them is cheaper than the class attributes
_TURN = Phase.TURN


@fast_init
@dataclass(frozen=True, slots=True)
class Turn:
    """Where a turn stands: whose it is, the dice showing, and how many rolls are used."""

    player: int
    round: int
    dice: Dice | None = None
    rolls: int = 0
    kept: Keep = Keep.NONE

    @property
    def rolls_left(self) -> int:
        """Rolls still allowed this turn (0-2 once the dice are rolled)."""
        return ROLLS_PER_TURN - self.rolls


@dataclass(frozen=True, slots=True)
class Playoff:
    """A one-roll playoff among ``contenders``; ``rolls`` holds this round's throws."""

    contenders: tuple[int, ...]
    rolls: tuple[tuple[int, Dice], ...] = ()
    history: tuple[tuple[int, Dice], ...] = ()
    knocked_out: tuple[tuple[int, ...], ...] = ()
    """Players who lost a playoff round, one group per round, in order."""

    @property
    def next_player(self) -> int:
        return self.contenders[len(self.rolls)]


@fast_init
@dataclass(frozen=True, slots=True)
class GameState:
    """A game at one moment, as an immutable value: rules, players, cards, phase and turn."""

    rules: RuleSet
    players: tuple[str, ...]
    cards: tuple[Scorecard, ...]
    phase: Phase
    turn: Turn | None
    playoff: Playoff | None = None
    winners: tuple[int, ...] = ()
    before_placement: GameState | None = None
    """The state before the last placement, while it may be taken back (until the next
    roll, and not once the game has ended): see `check_undo`."""
    entered: bool = False
    """The players roll real dice and enter them, or write scores: see `check_entry`."""

    @property
    def current_player(self) -> int | None:
        """The seat that may act now (``None`` once the game is over)."""
        if self.phase is _OVER:
            return None
        turn = self.turn
        if turn is not None:
            return turn.player
        if self.playoff is not None:
            return self.playoff.next_player
        return None


def start(event: GameStarted) -> GameState:
    """The state at the start of a game, after checking its seats and rules."""
    players = tuple(name.strip() if isinstance(name, str) else name for name in event.players)
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise InvalidInput(
            _("A game has 1 to {most} players, not {count}.").format(
                most=MAX_PLAYERS, count=len(players)
            )
        )
    for name in players:
        if not isinstance(name, str) or not name or len(name) > MAX_NAME_LENGTH:
            raise InvalidInput(
                _("Player names are 1 to {most} characters: {name}.").format(
                    most=MAX_NAME_LENGTH, name=show(name)
                )
            )
        if not name.isprintable():
            raise InvalidInput(
                _("Player name {name} contains control characters.").format(name=show(name))
            )
    if len({name.casefold() for name in players}) != len(players):
        raise InvalidInput(_("Two players have the same name; give each a different name."))
    rules = RuleSet.named(event.rules)
    cards = (_EMPTY_CARD if rules.edition is AMERICAN else Scorecard.empty(rules),) * len(players)
    turn = Turn(player=0, round=1)
    return GameState(rules, players, cards, Phase.TURN, turn, entered=event.entered)


_EMPTY_CARD = Scorecard.empty()  # immutable: every game starts from this one


def check_actor(state: GameState, player: int | None) -> int:
    """The acting seat: ``player`` if given and it is that seat's turn."""
    current = state.current_player
    if current is None:
        raise IllegalMove(_over_message(state), code="game_over")
    if player is None:
        return current
    if (
        isinstance(player, bool)
        or not isinstance(player, int)
        or not 0 <= player < len(state.players)
    ):
        raise InvalidInput(
            _("There is no seat {player}; seats are 0 to {count}.").format(
                player=show(player), count=len(state.players) - 1
            )
        )
    if player != current:
        raise IllegalMove(
            _("It is {player}'s turn, not {other}'s.").format(
                player=state.players[current], other=state.players[player]
            ),
            code="not_your_turn",
        )
    return player


def check_roll(state: GameState, keep: Keep, player: int | None = None) -> None:
    """Raise `IllegalMove` unless the acting player may keep ``keep`` and roll."""
    turn = state.turn
    if (
        player is None
        and state.phase is _TURN
        and state.playoff is None
        and turn is not None
        and not state.entered
    ):
        # The usual cases, which pass every check below, seen at once.
        dice = turn.dice
        if dice is None:
            if not keep.faces:
                return  # a turn's first roll
        elif turn.rolls < ROLLS_PER_TURN and dice.contains(keep):
            return  # a re-roll
    check_actor(state, player)
    if state.entered:
        raise IllegalMove(
            _("In this game the players roll their own dice: enter the five dice showing."),
            code="dice_entered",
        )
    if state.playoff is not None:
        if keep.faces:
            raise IllegalMove(_("A playoff roll throws all five dice."), code="playoff_roll")
        return
    turn = state.turn
    assert turn is not None  # every phase but TURN is handled before this
    if turn.dice is None:
        if keep.faces:
            raise IllegalMove(
                _("The first roll throws all five dice; there is nothing to keep yet."),
                code="keep_before_roll",
            )
        return
    if turn.rolls >= ROLLS_PER_TURN:
        card = state.cards[turn.player]
        allowed = card.allowed_text(card.placements(turn.dice, state.rules))
        raise IllegalMove(
            _("You have used all three rolls: score the dice now. {allowed}").format(
                allowed=allowed
            ),
            code="no_rolls_left",
        )
    if not turn.dice.contains(keep):
        raise IllegalMove(
            _("You cannot keep {keep}: the dice show {dice}.").format(
                keep=keep.spaced(), dice=turn.dice.spaced()
            ),
            code="keep_not_in_dice",
        )


def check_score(state: GameState, category: Box, player: int | None = None) -> Placement:
    """The placement the acting player would make in ``category``, or `IllegalMove`."""
    turn = state.turn
    if not (  # the usual case, dice showing in a turn, passes the checks below at once
        player is None
        and state.phase is _TURN
        and state.playoff is None
        and turn is not None
        and turn.dice is not None
    ):
        check_actor(state, player)
        if state.playoff is not None:
            raise IllegalMove(
                _("Every box is filled; the playoff only rolls."), code="playoff_roll"
            )
        turn = _turn(state)
        if turn.dice is None:
            raise IllegalMove(_("Roll the dice before you score."), code="roll_first")
    return state.cards[turn.player].placement(turn.dice, category, state.rules)


def _check_entered(state: GameState, player: int | None) -> int:
    if not state.entered:
        raise IllegalMove(
            _("The program rolls the dice in this game: roll them instead of entering them."),
            code="dice_rolled",
        )
    return check_actor(state, player)


def check_dice_entry(
    state: GameState, dice: Dice, roll: int | None = None, player: int | None = None
) -> int:
    """The seat entering ``dice`` (as roll ``roll`` of the turn, if known), or
    `IllegalMove`: only in a game of entered dice, on the player's turn, before a box is
    filled. Entering again corrects the dice without using a roll."""
    seat = _check_entered(state, player)
    if roll is not None and (
        isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= ROLLS_PER_TURN
    ):
        raise InvalidInput(
            _("A roll of the turn is 1, 2 or {last} (or not said), not {roll}.").format(
                last=ROLLS_PER_TURN, roll=show(roll)
            ),
            code="bad_roll",
        )
    if not isinstance(dice, Dice):
        raise InvalidInput(_("Enter five dice, like 33356, not {dice}.").format(dice=show(dice)))
    return seat


def after_dice_entry(state: GameState, seat: int, dice: Dice, roll: int | None) -> GameState:
    """The state after a checked entry of dice (`check_dice_entry` passed): in the turns, the
    dice show (a roll not said counts as the last one, so advice is about the box); in the
    playoff, it is the seat's playoff roll."""
    if state.playoff is not None:
        return _playoff_roll(state, seat, dice)
    turn = _turn(state)
    rolls = ROLLS_PER_TURN if roll is None else roll
    return _with_turn(state, Turn(turn.player, turn.round, dice, rolls))


def check_written(
    state: GameState, category: Box, points: object, player: int | None = None
) -> Placement:
    """The placement of ``points`` written in ``category`` without dice (quick score
    entry), or `IllegalMove` / `InvalidInput` saying what is allowed: only in a game of
    entered dice, on the player's turn, in an open box, and points that box can hold."""
    seat = _check_entered(state, player)
    if state.playoff is not None:
        raise IllegalMove(_("Every box is filled; the playoff only rolls."), code="playoff_roll")
    card = state.cards[seat]
    category = state.rules.edition.parse_box(category)
    if not card.is_open(category):
        raise IllegalMove(
            _("{box} is already filled ({points}). Open boxes: {boxes}.").format(
                box=category.display_name,
                points=card[category],
                boxes=", ".join(c.display_name for c in card.open_boxes),
            ),
            code="box_filled",
        )
    if state.rules.ordered and category is not card.open_boxes[0]:
        raise IllegalMove(
            _(
                "Under the {rules} rules the boxes are filled top to bottom: the next is {box}."
            ).format(rules=state.rules.name, box=card.open_boxes[0].display_name),
            code="out_of_order",
        )
    return Placement(category, check_entry(category, points, state.rules))


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``, which must be legal in ``state``."""
    match event:
        case Rolled(player, keep, dice):
            check_actor(state, player)
            if state.playoff is not None:
                raise InvalidInput(_("A turn roll came during the playoff."))
            check_roll(state, keep, player)
            if not dice.contains(keep):
                raise InvalidInput(
                    _("Rolled dice {dice} do not contain the kept {keep}.").format(
                        dice=dice, keep=keep
                    )
                )
            return after_roll(state, keep, dice)
        case PlayoffRolled(player, dice):
            check_actor(state, player)
            if state.playoff is None:
                raise InvalidInput(_("A playoff roll came before any playoff."))
            check_roll(state, Keep.NONE, player)
            return _playoff_roll(state, player, dice)
        case Scored(player, category, points, bonus):
            placement = check_score(state, category, player)
            if (placement.points, placement.yahtzee_bonus) != (points, bonus):
                raise InvalidInput(
                    _(
                        "The log says {box} scored {points} (+{bonus}), but the dice "
                        "give {dice_points} (+{dice_bonus})."
                    ).format(
                        box=category.display_name,
                        points=show(points),
                        bonus=show(bonus),
                        dice_points=placement.points,
                        dice_bonus=placement.yahtzee_bonus,
                    )
                )
            return after_score(state, placement)
        case Undone(player):
            return check_undo(state, player)
        case DiceEntered(player, dice, roll):
            check_dice_entry(state, dice, roll, player)
            return after_dice_entry(state, player, dice, roll)
        case Written(player, category, points):
            return after_score(state, check_written(state, category, points, player))
        case GameStarted():
            raise InvalidInput(_("A game can start only once."))


def _turn(state: GameState) -> Turn:
    assert state.turn is not None  # every phase but TURN is handled before this
    return state.turn


def after_roll(state: GameState, keep: Keep, dice: Dice) -> GameState:
    """The state after a checked turn roll (`check_roll` passed, ``dice`` hold ``keep``)."""
    turn = state.turn
    assert turn is not None  # checked: a turn roll
    return GameState(  # _with_turn, inlined: the most frequent transition
        state.rules,
        state.players,
        state.cards,
        state.phase,
        Turn(turn.player, turn.round, dice, turn.rolls + 1, keep),
        state.playoff,
        state.winners,
        None,
        state.entered,
    )


def after_score(state: GameState, placement: Placement) -> GameState:
    """The state after a placement that `check_score` returned."""
    turn = state.turn
    assert turn is not None  # checked: a placement
    cards = list(state.cards)
    cards[turn.player] = cards[turn.player].with_placement(placement)
    player, round_ = turn.player + 1, turn.round
    if player == len(state.players):
        player, round_ = 0, round_ + 1
    if round_ <= state.rules.rounds:
        if state.before_placement is not None:  # the last player's entry stays now (a pad)
            state = dataclasses.replace(state, before_placement=None)
        return GameState(  # _with_turn, and the state to go back to if it is taken back
            state.rules,
            state.players,
            tuple(cards),
            state.phase,
            Turn(player, round_),
            state.playoff,
            state.winners,
            state,
            state.entered,
        )
    return _finish(_with_turn(state, None, tuple(cards)))


def check_undo(state: GameState, player: int | None = None) -> GameState:
    """The state the last placement is taken back to, or `IllegalMove` saying why
    it cannot be: only the player who placed it, before anyone rolls again, and not once
    the game has ended."""
    before = state.before_placement
    if before is None:
        if state.phase is _OVER:
            raise IllegalMove(_("The game is over: its last box stays."), code="no_undo")
        raise IllegalMove(
            _(
                "There is nothing to take back: a placement can be taken back only until the "
                "next roll."
            ),
            code="no_undo",
        )
    placed_by = before.turn.player if before.turn is not None else None
    if player is not None and player != placed_by:
        raise IllegalMove(_("Only the player who filled the box can take it back."), code="no_undo")
    return before


def _with_turn(
    state: GameState, turn: Turn | None, cards: tuple[Scorecard, ...] | None = None
) -> GameState:
    """``state`` with another turn (and cards): the hot path of play, built directly
    (``dataclasses.replace`` costs several times more)."""
    return GameState(
        state.rules,
        state.players,
        state.cards if cards is None else cards,
        state.phase,
        turn,
        state.playoff,
        state.winners,
        None,
        state.entered,
    )


def _leaders(state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
    best = max(state.cards[s].total for s in seats)
    return tuple(s for s in seats if state.cards[s].total == best)


def _finish(state: GameState) -> GameState:
    leaders = _leaders(state, tuple(range(len(state.players))))
    if len(leaders) > 1 and state.rules.tie_break is TieBreak.PLAYOFF:
        return dataclasses.replace(state, phase=Phase.PLAYOFF, playoff=Playoff(leaders))
    return dataclasses.replace(state, phase=Phase.OVER, winners=leaders)


def _playoff_roll(state: GameState, player: int, dice: Dice) -> GameState:
    playoff = state.playoff
    assert playoff is not None
    rolls = (*playoff.rolls, (player, dice))
    history = (*playoff.history, (player, dice))
    if len(rolls) < len(playoff.contenders):
        return dataclasses.replace(
            state, playoff=dataclasses.replace(playoff, rolls=rolls, history=history)
        )
    best = max(d.total for _, d in rolls)
    still_tied = tuple(p for p, d in rolls if d.total == best)
    out = (*playoff.knocked_out, tuple(p for p, d in rolls if d.total != best))
    if len(still_tied) > 1:
        return dataclasses.replace(state, playoff=Playoff(still_tied, (), history, out))
    return dataclasses.replace(
        state, phase=Phase.OVER, playoff=Playoff(playoff.contenders, rolls, history, out),
        winners=still_tied,
    )  # fmt: skip


def _over_message(state: GameState) -> str:
    winners = [state.players[w] for w in state.winners]
    if not winners:
        return _("The game is over.")
    names = winners[0]
    for name in winners[1:]:
        # Translators: two or more winners' names: "Ann and Bo" ({names} may be a list).
        names = _("{names} and {name}").format(names=names, name=name)
    return _("The game is over: {names} won.").format(names=names)
