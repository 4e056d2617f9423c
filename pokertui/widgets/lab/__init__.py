"""Widgets of the range and equity lab: the class grid, the combo dialog and the equity panel."""

from pokertui.widgets.lab.combo_dialog import ComboDialog
from pokertui.widgets.lab.equity_panel import EquityPanel
from pokertui.widgets.lab.range_grid import RangeGrid

__all__ = ["ComboDialog", "EquityPanel", "RangeGrid"]
