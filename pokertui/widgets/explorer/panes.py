"""The explorer's other tabs: the hand filter, the exploitability report and the comparison.

Panes only render what the screen hands them; the screen's workers compute it.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Input, Static

from pokertui.widgets.explorer.render import (
    compare_summary,
    exploit_summary,
    hand_path_text,
    seat_name,
)
from pokertui.widgets.format import pct


class HandPane(VerticalScroll):
    """A hand label in, that hand's path through the tree out (for every seat holding it)."""

    def compose(self) -> ComposeResult:
        yield Input(placeholder="hand, e.g. K, Qh or AKs; Enter", id="explorer-hand")
        yield Static("", id="explorer-hand-path")

    def show_paths(self, label: str, paths) -> None:
        text = Text()
        for player, steps in paths:
            text.append_text(hand_path_text(label, player, steps))
        self.query_one("#explorer-hand-path", Static).update(text)

    def show_message(self, message: str) -> None:
        self.query_one("#explorer-hand-path", Static).update(Text(message, style="bold red"))


class ExploitPane(VerticalScroll):
    """Best-response values, exploitability, and the nodes where the best response gains."""

    def compose(self) -> ComposeResult:
        yield Static("Open a strategy to measure it.", id="explorer-exploit-summary")
        yield Static(
            "each node's share of the exploitability, reach-weighted (Enter: go there)",
            classes="dim",
        )
        yield DataTable(id="explorer-gains", cursor_type="row", zebra_stripes=True)

    def show_report(self, report) -> None:
        self.query_one("#explorer-exploit-summary", Static).update(exploit_summary(report))
        table = self.query_one("#explorer-gains", DataTable)
        table.clear(columns=True)
        table.add_columns("node", "BR", "here", "subtree", "top hand")
        rows = [(player, gain) for player in (0, 1) for gain in report.gains[player]]
        rows.sort(key=lambda row: -row[1].local_gain)
        for player, gain in rows:
            table.add_row(
                gain.key or "(root)",
                f"seat {player + 1}",
                f"{gain.local_share:.4g}",
                f"{gain.subtree_share:.4g}",
                f"{gain.top_hand} {gain.top_action}" if gain.local_gain > 1e-9 else "–",
                key=f"{player}:{gain.key}",
            )

    def show_message(self, message: str) -> None:
        self.query_one("#explorer-exploit-summary", Static).update(Text(message, style="bold red"))
        self.query_one("#explorer-gains", DataTable).clear(columns=True)


class ComparePane(VerticalScroll):
    """A second file for the same game: frequency differences per node and cross EVs."""

    def compose(self) -> ComposeResult:
        yield Input(placeholder="file B to compare with the open file; Enter", id="explorer-other")
        yield Static("", id="explorer-compare-summary")
        yield DataTable(id="explorer-diffs", cursor_type="row", zebra_stripes=True)

    def show_comparison(self, path_a: str, path_b: str, comparison) -> None:
        summary = compare_summary(path_a, path_b, comparison)
        self.query_one("#explorer-compare-summary", Static).update(summary)
        table = self.query_one("#explorer-diffs", DataTable)
        table.clear(columns=True)
        table.add_columns("node", "seat", "differs")
        for diff in sorted(comparison.nodes, key=lambda d: (-d.difference, d.node_id)):
            share = pct(diff.difference) + ("" if diff.reached else " (unreached)")
            table.add_row(diff.key or "(root)", seat_name(diff.player), share, key=diff.key)

    def show_message(self, message: str) -> None:
        self.query_one("#explorer-compare-summary", Static).update(Text(message, style="bold red"))
        self.query_one("#explorer-diffs", DataTable).clear(columns=True)
