"""Widgets of the strategy explorer: the public tree, the node view and the text renderers."""

from pokertui.widgets.explorer.node_view import NodeView
from pokertui.widgets.explorer.strategy_tree import StrategyTree

__all__ = ["NodeView", "StrategyTree"]
