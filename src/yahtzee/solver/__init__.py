"""The optimal strategy: solver table, advisor, bots and simulation (numpy + numba)."""

from .advice import Advice, Option
from .planner import TurnPlanner
from .simulate import Simulation, simulate
from .solver import SOLVER_VERSION, Progress, Solver, cached_solver
from .strategies import STRATEGIES, Strategy, strategy

__all__ = [
    "SOLVER_VERSION",
    "STRATEGIES",
    "Advice",
    "Option",
    "Progress",
    "Simulation",
    "Solver",
    "Strategy",
    "TurnPlanner",
    "cached_solver",
    "simulate",
    "strategy",
]
