"""Reinforcement-learning environments (extra ``[rl]``).

``import yahtzee.envs`` registers the Gymnasium environment ``yahtzee/Solitaire-v0`` (one
player). ``gymnasium.make_vec`` gives its vectorised form: by default the compiled
`yahtzee.envs.vector.SolitaireVectorEnv`, or with ``vectorization_mode="sync"`` or
``"async"`` Gymnasium's vector envs over copies of the Python environment. The PettingZoo
AEC environment for 2-8 players is `yahtzee.envs.multiplayer.env`. Both share the
encoding in `yahtzee.envs.encoding`; `yahtzee.envs.baselines` reports the return
of the project's strategies.
"""

from gymnasium.envs.registration import register

from .encoding import N_ACTIONS, action_of, index_of
from .solitaire import SolitaireEnv

register(
    id="yahtzee/Solitaire-v0",
    entry_point="yahtzee.envs.solitaire:SolitaireEnv",
    vector_entry_point="yahtzee.envs.vector:SolitaireVectorEnv",
)

__all__ = ["N_ACTIONS", "SolitaireEnv", "action_of", "index_of"]
