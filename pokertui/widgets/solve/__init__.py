"""Widgets and the run model of the solver launcher (``pokertui.screens.solve``)."""

from pokertui.widgets.solve.plot import ConvergencePlot, braille_plot
from pokertui.widgets.solve.runbook import RunBook, RunRecord, book_for

__all__ = ["ConvergencePlot", "RunBook", "RunRecord", "book_for", "braille_plot"]
