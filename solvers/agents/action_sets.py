"""The bet sizer's action sets by name, importable without numpy so the command line starts fast."""

ACTION_SETS = ("fc", "fcpa", "56", "tree")
"""Fold/call; plus pot and all-in; plus 55 pot fractions; the bot's own sizes (Lisý and
Bowling's names, ``bet_sizing.py``)."""
