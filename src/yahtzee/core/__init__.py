"""The rules engine: pure Python, no third-party imports, no I/O."""

from .category import Category
from .dice import DICE_COUNT, FACES, Dice, Keep, Outcome, chance_outcomes
from .errors import IllegalMove, InvalidInput, YahtzeeError
from .events import Event, GameStarted, PlayoffRolled, Rolled, Scored
from .game import Action, Game, LegalActions, Score, Standing
from .rules import UPPER_BONUS, UPPER_BONUS_THRESHOLD, JokerRule, RuleSet, TieBreak
from .scorecard import Scorecard
from .scoring import Placement, joker_score, placements, score
from .situation import Situation
from .sources import DiceSource, RandomDice, ScriptedDice, SecureDice
from .state import MAX_PLAYERS, ROLLS_PER_TURN, ROUNDS, GameState, Phase, Turn

__all__ = [
    "DICE_COUNT",
    "FACES",
    "MAX_PLAYERS",
    "ROLLS_PER_TURN",
    "ROUNDS",
    "UPPER_BONUS",
    "UPPER_BONUS_THRESHOLD",
    "Action",
    "Category",
    "Dice",
    "DiceSource",
    "Event",
    "Game",
    "GameStarted",
    "GameState",
    "IllegalMove",
    "InvalidInput",
    "JokerRule",
    "Keep",
    "LegalActions",
    "Outcome",
    "Phase",
    "Placement",
    "PlayoffRolled",
    "RandomDice",
    "Rolled",
    "RuleSet",
    "Score",
    "Scorecard",
    "Scored",
    "ScriptedDice",
    "SecureDice",
    "Situation",
    "Standing",
    "TieBreak",
    "Turn",
    "YahtzeeError",
    "chance_outcomes",
    "joker_score",
    "placements",
    "score",
]
