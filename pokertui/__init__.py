"""pokertui: play and study heads-up poker against solved strategies in the terminal."""

from solvers import __version__

__all__ = ["__version__"]
