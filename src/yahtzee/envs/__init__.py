"""Reinforcement-learning environments (Gymnasium); ``import yahtzee.envs`` registers
``yahtzee/Solitaire-v0``."""

from gymnasium.envs.registration import register

from .solitaire import N_ACTIONS, SolitaireEnv, action_of, index_of

register(id="yahtzee/Solitaire-v0", entry_point="yahtzee.envs.solitaire:SolitaireEnv")

__all__ = ["N_ACTIONS", "SolitaireEnv", "action_of", "index_of"]
