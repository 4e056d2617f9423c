"""Widgets that render a ``Session``: the table, action bar, hand log, live panel and ranges."""

from pokertui.widgets.action_bar import ActionBar
from pokertui.widgets.hand_log import HandLog
from pokertui.widgets.live_panel import LivePanel
from pokertui.widgets.table_view import TableView

__all__ = ["ActionBar", "HandLog", "LivePanel", "TableView"]
