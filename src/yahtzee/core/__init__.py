"""The rules engine: pure Python, no third-party imports, no I/O."""

from .bot_choices import BOT_CHOICES, DEFAULT_BOT, BotChoice, bot_choice, chosen_bot
from .box import Box
from .category import Category
from .committed import CommittedDice, commitment
from .dice import DICE_COUNT, FACE_COUNT, FACES, Dice, Keep, Outcome, chance_outcomes
from .duplicate import DuplicateDice
from .editions import BoxRule, Edition, HouseRule, Scoring
from .entries import allowed_text, check_entry, possible_points
from .errors import IllegalMove, InvalidInput, YahtzeeError
from .events import (
    DiceEntered,
    Draw,
    Event,
    GameStarted,
    PlayoffRolled,
    Rolled,
    Scored,
    Undone,
    Written,
)
from .game import Action, EnterDice, Entry, Game, LegalActions, Score, Standing, Write
from .players import (
    DEFAULT_LEVEL,
    LEVELS,
    MAX_LEVEL,
    MIN_LEVEL,
    BotSpec,
    clean_text,
    name_key,
    player_name,
    same_name,
)
from .rules import UPPER_BONUS, UPPER_BONUS_THRESHOLD, YAHTZEE_BONUS, JokerRule, RuleSet, TieBreak
from .scorecard import Scorecard
from .scoring import (
    FULL_HOUSE_POINTS,
    LARGE_STRAIGHT_POINTS,
    SMALL_STRAIGHT_POINTS,
    YAHTZEE_POINTS,
    Placement,
    joker_score,
    placements,
    score,
    scores,
)
from .seat_dice import SeatDice
from .situation import Situation
from .sources import DiceSource, RandomDice, ScriptedDice, SecureDice
from .state import MAX_NAME_LENGTH, MAX_PLAYERS, ROLLS_PER_TURN, ROUNDS, GameState, Phase, Turn
from .verify import check_rolls, check_steps, committed_dice, draw_of
from .yatzy_boxes import YatzyBox

__all__ = [
    "BOT_CHOICES",
    "DEFAULT_BOT",
    "DEFAULT_LEVEL",
    "DICE_COUNT",
    "FACES",
    "FACE_COUNT",
    "FULL_HOUSE_POINTS",
    "LARGE_STRAIGHT_POINTS",
    "LEVELS",
    "MAX_LEVEL",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_LEVEL",
    "ROLLS_PER_TURN",
    "ROUNDS",
    "SMALL_STRAIGHT_POINTS",
    "UPPER_BONUS",
    "UPPER_BONUS_THRESHOLD",
    "YAHTZEE_BONUS",
    "YAHTZEE_POINTS",
    "Action",
    "BotChoice",
    "BotSpec",
    "Box",
    "BoxRule",
    "Category",
    "CommittedDice",
    "Dice",
    "DiceEntered",
    "DiceSource",
    "Draw",
    "DuplicateDice",
    "Edition",
    "EnterDice",
    "Entry",
    "Event",
    "Game",
    "GameStarted",
    "GameState",
    "HouseRule",
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
    "Scoring",
    "ScriptedDice",
    "SeatDice",
    "SecureDice",
    "Situation",
    "Standing",
    "TieBreak",
    "Turn",
    "Undone",
    "Write",
    "Written",
    "YahtzeeError",
    "YatzyBox",
    "allowed_text",
    "bot_choice",
    "chance_outcomes",
    "check_entry",
    "check_rolls",
    "check_steps",
    "chosen_bot",
    "clean_text",
    "commitment",
    "committed_dice",
    "draw_of",
    "joker_score",
    "name_key",
    "placements",
    "player_name",
    "possible_points",
    "same_name",
    "score",
    "scores",
]
