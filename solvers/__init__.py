"""Pure poker computation for pokertui: cards, evaluation, equity, games and solvers.

This package never imports textual, rich or pokertui (a test enforces it).
"""

__version__ = "0.1.0"
