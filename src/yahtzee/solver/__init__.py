"""The optimal strategy: solver table, advisor, bots and simulation (numpy + numba)."""

from .advice import Advice, Option
from .planner import TurnPlanner
from .simulate import Simulation, simulate
from .solver import SOLVER_VERSION, Solver
from .strategies import STRATEGIES, Strategy, play_turn, strategy

__all__ = [
    "SOLVER_VERSION",
    "STRATEGIES",
    "Advice",
    "Option",
    "Simulation",
    "Solver",
    "Strategy",
    "TurnPlanner",
    "play_turn",
    "simulate",
    "strategy",
]
