"""Index tables over dice multisets, and a rule set's scoring as arrays.

Everything here is data derived from `yahtzee.core`; the solver's kernels read
these arrays and hold no rule of their own. A variant changes the arrays, not the code.

Multisets of 0 to 5 dice are indexed in `Keep.all` order; the 252 of size 5 are the
rolls, in `Dice.all` order, at indices ``ROLL_BASE`` to ``ROLL_BASE + 251``.

A rule set's edition decides the card: how many boxes (`CardShape`), the five-of-a-kind
box whose 50 an extra Yahtzee's bonus and Joker look at (none in editions without them),
the upper bonus, and whether boxes are filled in order. The kernels read these from the
`Model` (and its packed array), never from a module constant: the constants below named
after the American card (``N_BOXES``, ``N_MASKS``...) are the American edition's, which
the win tables, the curves and the environments still assume.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..core import (
    DICE_COUNT,
    FACE_COUNT,
    FACES,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_POINTS,
    Box,
    Category,
    Dice,
    Edition,
    Keep,
    RuleSet,
    placements,
    scores,
)

N_MULTISETS = len(Keep.all())  # 462
N_ROLLS = len(Dice.all())  # 252
ROLL_BASE = N_MULTISETS - N_ROLLS  # 210
N_BOXES = len(Category)  # the American card's
N_UPPER = FACE_COUNT  # every edition's upper section: one box per face, first on the card
MAX_BOXES = 15  # the most boxes of any edition's card (Yatzy): work arrays are this wide
MAX_SUB_KEEPS = 1 << DICE_COUNT  # a roll's distinct keeps of under five dice, -1 padded
N_MASKS = 1 << N_BOXES
ALL_FILLED = N_MASKS - 1
YAHTZEE_BIT = 1 << Category.YAHTZEE
UPPER_CAP = UPPER_BONUS_THRESHOLD

I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class DiceTables:
    """Rule-independent structure of dice multisets."""

    size: I32  # [462] dice in the multiset
    add: I32  # [462, 6] index of the multiset with one more die of face f+1 (-1 at size 5)
    remove: I32  # [462, 6] index with one die of face f+1 removed (itself if no such die)
    counts: I32  # [252, 6] faces of each roll
    probability: F64  # [252] chance of each roll when all five dice are thrown
    sub_keeps: I32  # [252, 32] distinct sub-multisets of each roll (-1 padded), size < 5
    yahtzee_roll: I32  # [6] roll index of five of face f+1


@cache
def dice_tables() -> DiceTables:
    keeps = Keep.all()
    index = {k.faces: i for i, k in enumerate(keeps)}
    size = np.array([len(k) for k in keeps], dtype=np.int32)
    add = np.full((N_MULTISETS, FACE_COUNT), -1, dtype=np.int32)
    remove = np.repeat(np.arange(N_MULTISETS, dtype=np.int32)[:, None], FACE_COUNT, axis=1)
    for i, k in enumerate(keeps):
        for f, face in enumerate(FACES):
            if len(k) < DICE_COUNT:
                add[i, f] = index[tuple(sorted((*k.faces, face)))]
            if face in k.faces:
                faces = list(k.faces)
                faces.remove(face)
                remove[i, f] = index[tuple(faces)]
    rolls = Dice.all()
    assert all(index[d.faces] == ROLL_BASE + r for r, d in enumerate(rolls))
    counts = np.array([d.counts for d in rolls], dtype=np.int32)
    probability = np.array([float(d.probability) for d in rolls])
    sub_keeps = np.full((N_ROLLS, MAX_SUB_KEEPS), -1, dtype=np.int32)
    for r, d in enumerate(rolls):
        subs = [index[k.faces] for k in d.keeps() if len(k) < DICE_COUNT]
        sub_keeps[r, : len(subs)] = subs
    yahtzee_roll = np.array([d.index for d in _yahtzees()], dtype=np.int32)
    return DiceTables(size, add, remove, counts, probability, sub_keeps, yahtzee_roll)


@dataclass(frozen=True)
class CardShape:
    """What the solver needs to know of a rule set's card: its boxes in card order (the
    first six the upper boxes of faces 1 to 6), the five-of-a-kind box whose 50 an extra
    Yahtzee's bonus and Joker look at (``yahtzee_box``, -1 in an edition without them,
    where the turn-start state has no "holds 50" bit), the upper bonus and its threshold
    (``cap``), and whether boxes are filled top to bottom (``ordered``)."""

    boxes: tuple[Box, ...]
    yahtzee_box: int
    cap: int
    upper_bonus: int
    ordered: bool

    @property
    def n_boxes(self) -> int:
        return len(self.boxes)

    @property
    def n_masks(self) -> int:
        return 1 << len(self.boxes)

    @property
    def all_filled(self) -> int:
        return (1 << len(self.boxes)) - 1

    @property
    def table_shape(self) -> tuple[int, int, int]:
        """``E[mask, yf, u]``'s shape: ``yf`` only where the card has a Yahtzee box."""
        return (self.n_masks, 2 if self.yahtzee_box >= 0 else 1, self.cap + 1)

    def masks(self, filled: int) -> npt.NDArray[np.int32]:
        """The turn-start masks with ``filled`` boxes filled that a game can reach (with
        boxes filled in order, the first ``filled`` boxes alone)."""
        if self.ordered:
            return np.array([(1 << filled) - 1], dtype=np.int32)
        return np.flatnonzero(_popcounts(len(self.boxes)) == filled).astype(np.int32)


@cache
def card_shape(rules: RuleSet) -> CardShape:
    """The card of the rules' edition, filled in order or not as the rules say."""
    return edition_card(rules.edition, rules.ordered)


@cache
def edition_card(edition: Edition, ordered: bool = False) -> CardShape:
    """The card of an edition."""
    boxes = edition.boxes
    ybox = int(edition.five_of_a_kind) if edition.extra_rules else -1
    cap, bonus = edition.upper_bonus_threshold, edition.upper_bonus
    if len(boxes) > MAX_BOXES or [b.face for b in boxes[:N_UPPER]] != list(FACES):
        raise ValueError("a card has at most MAX_BOXES boxes, the upper ones first")
    return CardShape(boxes, ybox, cap, bonus, ordered)


@cache
def _popcounts(n_boxes: int) -> npt.NDArray[np.int64]:
    masks = np.arange(1 << n_boxes)
    return sum((masks >> c) & 1 for c in range(n_boxes))  # type: ignore[return-value]


@dataclass(frozen=True)
class ScoringTables:
    """A rule set's scoring as arrays.

    ``points[r, c]`` is what roll ``r`` scores in box ``c`` by the box's own definition;
    it applies to every roll except a Yahtzee thrown with the Yahtzee box filled, whose
    legal boxes and points come from ``joker[mask, f, c]`` (-1 where the box is illegal)
    and which earns ``joker_bonus`` when the Yahtzee box holds 50 (a card without a
    Yahtzee box has a ``joker`` of one unused mask).
    """

    points: I32  # [252, boxes]
    joker: I32  # [masks, 6, boxes]
    joker_bonus: int


@cache
def scoring_tables(rules: RuleSet) -> ScoringTables:
    shape = card_shape(rules)
    if shape.yahtzee_box < 0:
        joker = np.full((1, FACE_COUNT, shape.n_boxes), -1, dtype=np.int32)
        return ScoringTables(points_table(rules), joker, 0)
    joker = np.full((shape.n_masks, FACE_COUNT, shape.n_boxes), -1, dtype=np.int32)
    bit = 1 << shape.yahtzee_box
    for mask in range(bit, shape.all_filled):
        if mask & bit:
            for f in range(FACE_COUNT):
                joker[mask, f] = joker_row(rules, mask, f)
    return ScoringTables(points_table(rules), joker, joker_bonus(rules))


@cache
def points_table(rules: RuleSet | None = None) -> I32:
    """``[252, boxes]``: what each roll scores in each box by the box's own definition
    (the official rules' for ``None``)."""
    rules = rules or RuleSet.official()
    return np.array([scores(d, rules) for d in Dice.all()], dtype=np.int32)


def joker_row(rules: RuleSet, mask: int, f: int) -> I32:
    """``[boxes]``: what five of face ``f + 1`` scores in each box (-1 where not allowed)
    with the boxes of ``mask`` filled, the Yahtzee box among them."""
    boxes = card_shape(rules).boxes
    row = np.full(len(boxes), -1, dtype=np.int32)
    open_boxes = [c for c in boxes if not mask >> c & 1]
    for p in placements(_yahtzees()[f], open_boxes, YAHTZEE_POINTS, rules):
        row[p.category] = p.points
    return row


@cache
def joker_bonus(rules: RuleSet) -> int:
    """The bonus an extra Yahtzee earns when the Yahtzee box holds 50."""
    dice, chance = _yahtzees()[0], [Category.CHANCE]
    return max(p.yahtzee_bonus for p in placements(dice, chance, YAHTZEE_POINTS, rules))


def resolve_rules(rules: RuleSet | str | None) -> RuleSet:
    """A rule set given by itself, by name, or the official rules for ``None``."""
    if rules is None:
        return RuleSet.official()
    return RuleSet.named(rules) if isinstance(rules, str) else rules


def upper_reach(mask: int) -> int:
    """The highest capped upper subtotal a card with these boxes filled can have."""
    return min(UPPER_CAP, sum(DICE_COUNT * c.face for c in Category.upper() if mask >> c & 1))


@cache
def _yahtzees() -> tuple[Dice, ...]:
    """Five of a kind of each face, in face order (made once: the Joker table asks for
    them 24,576 times, which took 1.6 s of every cold start)."""
    return tuple(Dice((face,) * DICE_COUNT) for face in FACES)


class Model(NamedTuple):
    """Everything the kernels read about dice and a rule set, as one numba-ready tuple."""

    points: I32
    joker: I32
    joker_bonus: int
    counts: I32
    yahtzee_roll: I32
    add: I32
    remove: I32
    sub_keeps: I32
    cap: int
    upper_bonus: float
    packed: I16  # what a one-lane turn reads, in one small array (see layout.PACK_*)
    n_boxes: int
    yahtzee_box: int  # -1: the card has none (no "holds 50" bit in the state)
    ordered: int  # 1: only the first open box may be filled
    five_box: int  # the five-of-a-kind box (Yahtzee, Yatzy), bonus or not: its rate


def pack(shape: CardShape, points: I32) -> I16:
    """The card and the dice and scoring tables a one-lane turn reads, in one int16 array
    laid out as `layout.PACK_*` says (box-indexed parts `MAX_BOXES` wide, zero padded)."""
    dice = dice_tables()
    wide = np.zeros((N_ROLLS, MAX_BOXES), dtype=np.int32)
    wide[:, : shape.n_boxes] = points
    header = np.array([shape.n_boxes, shape.yahtzee_box, int(shape.ordered)], dtype=np.int32)
    tables = np.concatenate([
        header, wide.ravel(), dice.counts.ravel(), wide.T.ravel(), dice.counts.T.ravel(),
        dice.yahtzee_roll, dice.add.ravel(), dice.remove.ravel(), dice.sub_keeps.ravel(),
    ])  # fmt: skip
    packed = tables.astype(np.int16)
    if not np.array_equal(packed, tables):
        raise ValueError("a scoring or dice table does not fit in 16 bits")
    return packed


@cache
def model(rules: RuleSet) -> Model:
    dice, scoring, shape = dice_tables(), scoring_tables(rules), card_shape(rules)
    return Model(
        scoring.points, scoring.joker, scoring.joker_bonus, dice.counts, dice.yahtzee_roll,
        dice.add, dice.remove, dice.sub_keeps, shape.cap, float(shape.upper_bonus),
        pack(shape, scoring.points), shape.n_boxes, shape.yahtzee_box, int(shape.ordered),
        int(rules.edition.five_of_a_kind),
    )  # fmt: skip


@cache
def reach_table(n_boxes: int = N_BOXES) -> I32:
    """``upper_reach`` of every mask of a card of ``n_boxes`` boxes."""
    masks = np.arange(1 << n_boxes)
    most = sum(DICE_COUNT * c.face * (masks >> c & 1) for c in Category.upper())
    return np.minimum(UPPER_CAP, most).astype(np.int32)


@dataclass(frozen=True, eq=False)
class TurnScoring:
    """What one turn in numpy reads: a `Model` less the full Joker table, whose
    rows are derived when a state needs them (the full table takes a while to derive)."""

    rules: RuleSet
    points: I32
    joker_bonus: int
    counts: I32
    yahtzee_roll: I32
    add: I32
    remove: I32
    sub_keeps: I32
    cap: int
    upper_bonus: float
    n_boxes: int
    yahtzee_box: int
    ordered: int

    def joker(self, mask: int, f: int) -> I32:
        return _joker_row(self.rules, mask, f)


_joker_row = cache(joker_row)


@cache
def turn_scoring(rules: RuleSet) -> TurnScoring:
    dice, shape = dice_tables(), card_shape(rules)
    bonus = joker_bonus(rules) if shape.yahtzee_box >= 0 else 0
    return TurnScoring(
        rules, points_table(rules), bonus, dice.counts, dice.yahtzee_roll, dice.add,
        dice.remove, dice.sub_keeps, shape.cap, float(shape.upper_bonus), shape.n_boxes,
        shape.yahtzee_box, int(shape.ordered),
    )  # fmt: skip
