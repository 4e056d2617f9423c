"""The names ``pokertui lbr`` accepts, importable without numpy so the command line starts fast."""

from solvers.agents.action_sets import ACTION_SETS

__all__ = ["ACTION_SETS", "ESTIMATES", "STREETS"]

STREETS = ("preflop", "flop", "turn", "river")
"""Streets on which LBR can play greedily."""

ESTIMATES = ("checkdown", "bets")
"""The control variates' value estimates of the full game (``lbr.hunl_control``)."""
