"""The public tree as a Textual ``Tree``: one line per node, found again by its key.

Each line reads ``action → what comes next``; a node's data is its id in ``game.nodes``.
Chance nodes expand into their outcomes (the cards dealt), terminals are leaves.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from pokertui.widgets.explorer.render import seat_name
from solvers.reports.blueprint_report import SEATS


def node_caption(node) -> Text:
    """What happens at a node: who acts, a deal, or how the hand ends."""
    if node.is_decision:
        return Text(seat_name(node.player), style="cyan")
    if node.is_chance:
        return Text(f"deal {len(node.children)}", style="magenta")
    return Text(node.terminal or "end", style="dim")


class StrategyTree(Tree[int]):
    """The game's public tree; ``go_to(key)`` opens the path to a node and moves the cursor."""

    DEFAULT_CSS = """
    StrategyTree {
        height: 1fr;
        min-width: 24;
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__("no strategy open", **kwargs)
        self.by_key: dict[str, TreeNode[int]] = {}
        """Tree lines by node key."""

    def show_game(self, game) -> None:
        """Rebuild the lines for ``game`` (every node: even Leduc has only a few hundred)."""
        self.reset(Text.assemble((game.name, "bold"), " → ", node_caption(game.root)), 0)
        self.by_key = {"": self.root}
        for node in game.nodes[1:]:  # parents come first
            parent = game.nodes[node.parent]
            action = parent.actions[parent.children.index(node.id)]
            label = Text.assemble((action, "bold"), " → ", node_caption(node))
            holder = self.by_key[parent.key]
            if node.is_terminal:
                line = holder.add_leaf(label, node.id)
            else:
                line = holder.add(label, node.id)
            self.by_key[node.key] = line
        self.root.expand()
        self.move_cursor(self.root)

    def show_blueprint(self, view) -> None:
        """Lines for a full-game blueprint's preflop decisions (a ``BlueprintView``): each is
        the action that leads to it and the seat to act; the data is the tree's node id."""
        nodes = view.preflop_nodes()
        root = nodes[0]
        self.reset(Text.assemble((view.path.name, "bold"), " → ",
                                 (f"{SEATS[root.player]} to act", "cyan")), root.node)  # fmt: skip
        self.by_key = {root.key: self.root}
        for info in nodes[1:]:  # depth first: a parent line comes first
            edge = int(view.parent_edge[info.node])
            parent = view.by_node[int(view.edge_parent[edge])]
            action = parent.actions[edge - int(view.tree.edge_start[parent.node])]
            label = Text.assemble((action, "bold"), " → ", (f"{SEATS[info.player]} to act",
                                                             "cyan"))  # fmt: skip
            self.by_key[info.key] = self.by_key[parent.key].add(label, info.node)
        self.root.expand_all()
        self.move_cursor(self.root)

    def go_to(self, key: str) -> bool:
        """Expand the path to ``key`` and put the cursor on it; False for an unknown key."""
        target = self.by_key.get(key)
        if target is None:
            return False
        ancestor = target.parent
        while ancestor is not None:
            ancestor.expand()
            ancestor = ancestor.parent
        self.call_after_refresh(self.move_cursor, target)
        return True
