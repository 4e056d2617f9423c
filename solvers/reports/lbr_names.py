"""The names ``pokertui lbr`` accepts, importable without numpy so the command line starts fast."""

ACTION_SETS = ("fc", "fcpa", "56", "tree")
"""LBR's bets: fold/call; plus pot and all-in; plus 55 pot fractions; the bot's own sizes."""

STREETS = ("preflop", "flop", "turn", "river")
"""Streets on which LBR can play greedily."""

ESTIMATES = ("checkdown", "bets")
"""The control variates' value estimates of the full game (``lbr_hunl_control``)."""
