"""The node pane: actions with their aggregate frequencies, per-hand frequencies and EVs, and
both players' ranges at the node.

Hold'em games (the 169 classes) also get one 13x13 grid per action; every game gets the per-hand
table. The hand filter's hands are drawn reversed in the table.
"""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from pokertui.widgets.explorer.render import frequency_bars, frequency_grid, seat_name
from pokertui.widgets.format import chips, ev, pct
from pokertui.widgets.range_view import range_kind, render_range


def _share(values: np.ndarray, index: int) -> str:
    return pct(float(values[index]))


class NodeView(VerticalScroll):
    DEFAULT_CSS = """
    NodeView {
        height: 1fr;
        padding: 0 1;
    }
    NodeView > Static {
        margin-bottom: 1;
    }
    NodeView > DataTable {
        height: auto;
        max-height: 24;
        margin-bottom: 1;
    }
    """

    hand_labels: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    """The open game's hand labels per seat (the screen sets them)."""

    def compose(self) -> ComposeResult:
        yield Static("Open a strategy file, then pick a node in the tree.", id="node-head")
        yield Static("", id="node-bars")
        yield Static("", id="node-grids")
        yield DataTable(id="node-hands", cursor_type="row", zebra_stripes=True)
        yield Static("", id="node-ranges")

    def part(self, name: str):
        return self.query_one(f"#node-{name}")

    def show_decision(self, report, highlight: set[str]) -> None:
        """A decision node: ``report`` is a ``solvers.reports.strategy_report.NodeReport``."""
        head = Text(f"node {report.key!r}", style="bold")
        head.append(f" · {seat_name(report.player)} to act")
        head.append(f" · reached {pct(report.reach_probability)} of deals", style="dim")
        self.part("head").update(head)
        bars = Text("frequency over the actor's reach range\n", style="italic")
        bars.append_text(frequency_bars(report.actions, report.aggregate))
        self.part("bars").update(bars)
        self.part("bars").display = True
        grids = self.part("grids")
        if range_kind(report.hands) == "grid":
            text = Text()
            for index, action in enumerate(report.actions):
                if index:
                    text.append("\n\n")
                text.append_text(frequency_grid(action, report.probs[:, index], report.possible))
            grids.update(text)
            grids.display = True
        else:
            grids.display = False
        self._fill_table(report, highlight)
        self._show_ranges(report.ranges, report.key)

    def _fill_table(self, report, highlight: set[str]) -> None:
        table = self.query_one("#node-hands", DataTable)
        table.clear(columns=True)
        table.add_column("hand", key="hand")
        table.add_column("range", key="range")
        for action in report.actions:
            table.add_column(action, key=f"p:{action}")
        for action in report.actions:
            table.add_column(f"EV {action}", key=f"ev:{action}")
        total = report.reach_weight.sum()
        share = report.reach_weight / total if total > 0 else report.reach_weight
        wanted = {h.lower() for h in highlight}
        for index, hand in enumerate(report.hands):
            if not report.possible[index]:
                continue
            row = report.probs[index]
            evs = report.action_evs[index]
            cells = [hand, pct(float(share[index]))]
            cells += [_share(row, a) for a in range(len(report.actions))]
            cells += ["–" if np.isnan(v) else ev(float(v)) for v in evs]
            style = "bold reverse" if hand.lower() in wanted else ""
            table.add_row(*(Text(c, style=style) for c in cells), key=hand)
        table.display = True

    def _show_ranges(self, ranges, key: str) -> None:
        text = Text()
        labels = self.hand_labels
        for player, values in enumerate(ranges):
            if player:
                text.append("\n\n")
            text.append(f"{seat_name(player)} range at {key!r}\n", style="bold")
            if values is None:
                text.append("never reached under this strategy", style="dim")
            else:
                text.append_text(render_range(labels[player], values))
        self.part("ranges").update(text)

    def show_other(self, node, ranges) -> None:
        """A chance or terminal node: what happens there, and the ranges."""
        head = Text(f"node {node.key!r}", style="bold")
        if node.is_chance:
            head.append(f" · deal: {', '.join(node.actions)}")
        else:
            put0, put1 = node.contributions
            head.append(f" · {node.terminal} · pot {chips(put0 + put1)}")
            if node.terminal == "fold":
                head.append(f" · {seat_name(node.folder)} folded")
        self.part("head").update(head)
        for name in ("bars", "grids", "hands"):
            self.part(name).display = False
        self._show_ranges(ranges, node.key)
