"""The layout of the solver's work arrays: shared by the compiled kernels and the numpy
turn, with no compiler to import."""

from __future__ import annotations

from ..core import DICE_COUNT, FACE_COUNT, ROLLS_PER_TURN, Category
from .tables import MAX_BOXES, MAX_SUB_KEEPS, N_MULTISETS, N_ROLLS, N_UPPER

NEG = -1.0e18
N_MS = N_MULTISETS
YAHTZEE_BOX = int(Category.YAHTZEE)  # the American card's (kernels read the model's)

# Rows of the per-state table R of "value after placing": row 0 is a dead candidate, rows
# 1 + 6c + k hold upper box c filled with k dice (the points, the upper bonus if it is
# reached, and the next state's value), rows 37 + c - 6 a lower box (next state's value;
# the points are added per roll), and rows 46 and 47 the Yahtzee box filled with 0 or 50
# (a card of `MAX_BOXES` boxes fits: the rows of boxes it lacks are never read).
UPPER_ROWS = DICE_COUNT + 1  # an upper box holds 0 to 5 dice of its face
ROW_DEAD = 0
ROW_UPPER = 1
ROW_LOWER = ROW_UPPER + N_UPPER * UPPER_ROWS - N_UPPER  # 31: lower box c is row 31 + c
ROW_YAHTZEE_0 = ROW_LOWER + MAX_BOXES  # 46
ROW_YAHTZEE_50 = ROW_YAHTZEE_0 + 1
N_ROWS = ROW_YAHTZEE_50 + 1
MAX_CANDIDATES = -(-MAX_BOXES // 4) * 4  # every box, padded to whole passes of four

SCORE = 0
KEEP = 1
KEEP_CODE = MAX_BOXES  # an option's code: box c is c, keep k (Keep.all() order) KEEP_CODE + k
MAX_OPTIONS = MAX_CANDIDATES + MAX_SUB_KEEPS  # the boxes, then the keeps
TURN_SIZE = N_ROWS + 2 * N_MS  # one state's turn as one array: R, then K1, then K2

# The card, and the dice and scoring tables a one-lane turn reads, packed into one int16
# array (one argument to pass instead of eight, 47 KiB): where each starts, in this order.
PACK_N_BOXES = 0  # the card's boxes
PACK_YAHTZEE_BOX = 1  # its Yahtzee box whose 50 the Joker and bonus look at, -1: none
PACK_ORDERED = 2  # 1: boxes are filled top to bottom
PACK_POINTS = 3  # [252, MAX_BOXES] points by roll and box
PACK_COUNTS = PACK_POINTS + N_ROLLS * MAX_BOXES  # [252, 6] dice of each face by roll
PACK_POINTS_BY_BOX = PACK_COUNTS + N_ROLLS * FACE_COUNT  # [MAX_BOXES, 252] transposed
PACK_COUNTS_BY_FACE = PACK_POINTS_BY_BOX + MAX_BOXES * N_ROLLS  # [6, 252] counts, transposed
PACK_YAHTZEE_ROLL = PACK_COUNTS_BY_FACE + FACE_COUNT * N_ROLLS  # [6]
PACK_ADD = PACK_YAHTZEE_ROLL + FACE_COUNT  # [462, 6]
PACK_REMOVE = PACK_ADD + N_MS * FACE_COUNT  # [462, 6]
PACK_SUB_KEEPS = PACK_REMOVE + N_MS * FACE_COUNT  # [252, 32]
PACK_SIZE = PACK_SUB_KEEPS + N_ROLLS * MAX_SUB_KEEPS
LOG_WIDTH = 2 * ROLLS_PER_TURN  # per turn: roll, keep, roll, keep, roll, box (-1 where unused)
LOG_BOX = LOG_WIDTH - 1
