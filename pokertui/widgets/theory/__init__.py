"""The theory lab's panes, one toy game per file (``pokertui.screens.theory``)."""

from pokertui.widgets.theory.kuhn import KuhnPane
from pokertui.widgets.theory.matrix import MatrixPane
from pokertui.widgets.theory.pot_odds import PotOddsPane
from pokertui.widgets.theory.river import RiverPane
from pokertui.widgets.theory.von_neumann import VonNeumannPane

__all__ = ["KuhnPane", "MatrixPane", "PotOddsPane", "RiverPane", "VonNeumannPane"]
