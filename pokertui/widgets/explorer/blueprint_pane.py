"""The explorer's view of a full-game blueprint's preflop node: each action's total over the
range that arrives, the 13x13 grid split by action mix, one 13x13 chart per action, and the
picked class's row. It draws ``solvers.reports.blueprint_report.PreflopChart`` only.
"""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from pokertui.widgets.explorer.render import frequency_bars, frequency_grid
from pokertui.widgets.explorer.spot_grid import SpotGrid, legend
from pokertui.widgets.format import pct
from solvers.cards.deck import CLASS_LABELS


class BlueprintPane(VerticalScroll):
    """One preflop node of a blueprint."""

    DEFAULT_CSS = """
    BlueprintPane { height: 1fr; padding: 0 1; }
    BlueprintPane > Static { margin-bottom: 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.chart = None

    def compose(self) -> ComposeResult:
        yield Static(
            "Open a full-game blueprint (.npz) and pick a preflop node.", id="blueprint-head"
        )
        yield Static("", id="blueprint-bars")
        yield Static("", id="blueprint-legend")
        yield SpotGrid(id="blueprint-grid")
        yield Static("", id="blueprint-class")
        yield Static("", id="blueprint-charts")

    def show_message(self, message: str) -> None:
        self.chart = None
        self.query_one("#blueprint-head", Static).update(Text(message, style="dim"))
        for name in (
            "#blueprint-bars",
            "#blueprint-legend",
            "#blueprint-class",
            "#blueprint-charts",
        ):
            self.query_one(name, Static).update("")
        grid = self.query_one(SpotGrid)
        grid.mix = None
        grid.update("")

    def show_chart(self, chart) -> None:
        self.chart = chart
        info = chart.info
        head = Text(f"node {info.key or '(root)'!r}", style="bold")
        head.append(f" · {info.name}\n")
        head.append(
            f"totals over the {chart.combos:.0f} combos that arrive (combos x own "
            f"reach); every hand dealt: "
            + ", ".join(
                f"{a} {pct(float(t))}" for a, t in zip(info.actions, chart.totals_all, strict=True)
            ),
            style="dim",
        )
        self.query_one("#blueprint-head", Static).update(head)
        self.query_one("#blueprint-bars", Static).update(frequency_bars(info.actions, chart.totals))
        self.query_one("#blueprint-legend", Static).update(legend(info.actions))
        self.query_one(SpotGrid).show(info.actions, chart.freq)
        charts = Text()
        possible = np.ones(len(CLASS_LABELS), dtype=bool)
        for a, action in enumerate(info.actions):
            charts.append_text(
                frequency_grid(f"{action} (% of each class)", chart.freq[:, a], possible)
            )
            charts.append("\n")
        self.query_one("#blueprint-charts", Static).update(charts)
        self.query_one("#blueprint-class", Static).update("")

    def on_spot_grid_class_picked(self, event: SpotGrid.ClassPicked) -> None:
        self.show_class(event.label)

    def show_class(self, label: str) -> None:
        if self.chart is None or label not in CLASS_LABELS:
            return
        c = CLASS_LABELS.index(label)
        text = Text(f"{label}: ", style="bold")
        text.append(
            ", ".join(
                f"{a} {pct(float(p))}"
                for a, p in zip(self.chart.info.actions, self.chart.freq[c], strict=True)
            )
        )
        text.append(f" · own reach of the line {pct(float(self.chart.reach[c]))}", style="dim")
        self.query_one("#blueprint-class", Static).update(text)
        self.query_one(SpotGrid).show(self.chart.info.actions, self.chart.freq, label)
