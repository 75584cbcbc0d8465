"""The optimal strategy: solver table, advisor, bots and simulation (numpy + numba)."""

from .advice import Advice, Option
from .distribution import ScoreDistribution
from .planner import (
    TurnPlanner,
    compile_kernels_aside,
    compiled_kernels,
    use_compiled_kernels,
)
from .simulate import Simulation, simulate
from .solver import SOLVER_VERSION, Progress, Solver, cached_solver, solver_loaded
from .strategies import STRATEGIES, Strategy, strategy
from .target import TargetSolver

__all__ = [
    "SOLVER_VERSION",
    "STRATEGIES",
    "Advice",
    "Option",
    "Progress",
    "ScoreDistribution",
    "Simulation",
    "Solver",
    "Strategy",
    "TargetSolver",
    "TurnPlanner",
    "cached_solver",
    "compile_kernels_aside",
    "compiled_kernels",
    "simulate",
    "solver_loaded",
    "strategy",
    "use_compiled_kernels",
]
