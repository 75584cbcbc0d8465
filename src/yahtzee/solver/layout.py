"""The layout of the solver's work arrays: shared by the compiled kernels and the numpy
turn, with no compiler to import."""

from __future__ import annotations

from ..core import DICE_COUNT, ROLLS_PER_TURN, Category
from .tables import MAX_SUB_KEEPS, N_BOXES, N_MULTISETS, N_UPPER

NEG = -1.0e18
N_MS = N_MULTISETS
YAHTZEE_BOX = int(Category.YAHTZEE)

# Rows of the per-state table R of "value after placing": row 0 is a dead candidate, rows
# 1 + 6c + k hold upper box c filled with k dice (the points, the upper bonus if it is
# reached, and the next state's value), rows 37 + c - 6 a lower box (next state's value;
# the points are added per roll), and rows 44 and 45 the Yahtzee box filled with 0 or 50.
UPPER_ROWS = DICE_COUNT + 1  # an upper box holds 0 to 5 dice of its face
ROW_DEAD = 0
ROW_UPPER = 1
ROW_LOWER = ROW_UPPER + N_UPPER * UPPER_ROWS - N_UPPER  # 31: lower box c is row 31 + c
ROW_YAHTZEE_0 = ROW_LOWER + N_BOXES  # 44
ROW_YAHTZEE_50 = ROW_YAHTZEE_0 + 1
N_ROWS = ROW_YAHTZEE_50 + 1
MAX_CANDIDATES = -(-N_BOXES // 4) * 4  # every box, padded to whole passes of four

SCORE = 0
KEEP = 1
MAX_OPTIONS = MAX_CANDIDATES + MAX_SUB_KEEPS  # the boxes, then the keeps
LOG_WIDTH = 2 * ROLLS_PER_TURN  # per turn: roll, keep, roll, keep, roll, box (-1 where unused)
LOG_BOX = LOG_WIDTH - 1
