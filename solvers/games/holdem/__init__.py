"""No-limit hold'em postflop subgames (issue 12): spot files, bet-size trees, fast terminals."""

from solvers.games.holdem.game import HoldemGame
from solvers.games.holdem.spot import SpotParams, load_spot_params

__all__ = ["HoldemGame", "SpotParams", "load_spot_params"]
