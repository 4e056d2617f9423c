"""The explorer's hold'em panes: the solver view of a decision and the by-card report of a deal.

``SpotPane`` shows a ``solvers.reports.spot_report.SpotNodeView``: the aggregate frequency of
each action, the 13x13 grid split by action mix, the chosen class's combos with strategy, EV
and equity, and EV and equity histograms. ``ByCardPane`` shows a ``ByCard`` report. Neither
computes a poker number: the screen's workers hand them the reports.
"""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Input, Static

from pokertui.widgets.explorer.render import frequency_bars, seat_name
from pokertui.widgets.explorer.spot_grid import SpotGrid, legend
from pokertui.widgets.format import ev, pct
from solvers.errors import InputError

_BARS = " ▁▂▃▄▅▆▇█"


def histogram_text(title: str, edges: np.ndarray, shares: np.ndarray, unit: str) -> Text:
    """One line of bars, one per bin, with the range under it."""
    top = float(shares.max()) if shares.size and shares.max() > 0 else 1.0
    text = Text(f"{title}  ", style="bold")
    for share in shares:
        text.append(_BARS[round(8 * float(share) / top)] * 2, style="dark_orange")
    low, high = float(edges[0]), float(edges[-1])
    text.append(f"  {low:.{2 if unit == 'eq' else 0}f} .. {high:.{2 if unit == 'eq' else 0}f}")
    text.append("  peak " + pct(float(shares.max()) if shares.size else 0.0), style="dim")
    return text


class SpotPane(VerticalScroll):
    """The solver view of one decision node of a hold'em spot."""

    DEFAULT_CSS = """
    SpotPane { height: 1fr; padding: 0 1; }
    SpotPane > Static { margin-bottom: 1; }
    SpotPane > DataTable { height: auto; max-height: 10; margin-bottom: 1; }
    SpotPane > #spot-class { width: 30; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = None
        self.selected: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("Open a hold'em spot strategy and pick a decision node.", id="spot-head")
        yield Static("", id="spot-bars")
        yield Static("", id="spot-legend")
        yield SpotGrid(id="spot-grid")
        yield Input(placeholder="class, e.g. AKs (or click the grid)", id="spot-class")
        yield Static("", id="spot-class-head")
        yield DataTable(id="spot-combos", cursor_type="row", zebra_stripes=True)
        yield Static("", id="spot-charts")
        yield Input(
            placeholder="edit for a lock: AKs: bet 75=1 (Enter; 'reset' undoes; ctrl+l locks)",
            id="spot-edit",
        )

    def show_message(self, message: str) -> None:
        self.view = None
        self.query_one("#spot-head", Static).update(Text(message, style="dim"))
        for name in ("#spot-bars", "#spot-legend", "#spot-class-head", "#spot-charts"):
            self.query_one(name, Static).update("")
        self.query_one(SpotGrid).show((), np.zeros((169, 0)))
        self.query_one(SpotGrid).mix = None
        self.query_one(SpotGrid).update("")
        self.query_one("#spot-combos", DataTable).clear(columns=True)

    def show_view(self, view) -> None:
        self.view = view
        report = view.report
        head = Text(f"node {report.key!r}", style="bold")
        head.append(f" · board {view.board} · {seat_name(report.player)} to act")
        head.append(f" · reached {pct(report.reach_probability)}", style="dim")
        self.query_one("#spot-head", Static).update(head)
        self.query_one("#spot-bars", Static).update(
            frequency_bars(report.actions, report.aggregate)
        )
        self.query_one("#spot-legend", Static).update(legend(report.actions))
        self.query_one(SpotGrid).show(report.actions, view.mix.mix, self.selected)
        charts = histogram_text("EV", view.ev_histogram.edges, view.ev_histogram.shares, "ev")
        charts.append("\n")
        charts.append_text(
            histogram_text(
                "equity", view.equity_histogram.edges, view.equity_histogram.shares, "eq"
            )
        )
        self.query_one("#spot-charts", Static).update(charts)
        if self.selected:
            self.show_class(self.selected)

    def show_class(self, label: str) -> None:
        """The combos of ``label`` from the node view (the rows are already computed)."""
        self.selected = label
        if self.view is None:
            return
        head = self.query_one("#spot-class-head", Static)
        table = self.query_one("#spot-combos", DataTable)
        table.clear(columns=True)
        try:
            combos = self.view.combos(label)
        except InputError as exc:
            head.update(Text(str(exc), style="bold red"))
            return
        self.query_one(SpotGrid).show(self.view.report.actions, self.view.mix.mix, combos.label)
        if not len(combos.hands):
            head.update(Text(f"{combos.label}: no live combo in this range here", style="dim"))
            return
        head.update(Text(f"{combos.label}: {len(combos.hands)} combos", style="bold"))
        table.add_column("combo")
        table.add_column("range")
        for action in self.view.report.actions:
            table.add_column(action)
        table.add_column("EV")
        table.add_column("equity")
        for i, hand in enumerate(combos.hands):
            cells = [hand, pct(float(combos.reach[i]))]
            cells += [pct(float(p)) for p in combos.probs[i]]
            cells += [_value(combos.evs[i], ev), _value(combos.equities[i], pct)]
            table.add_row(*cells, key=hand)

    def on_spot_grid_class_picked(self, event: SpotGrid.ClassPicked) -> None:
        self.query_one("#spot-class", Input).value = event.label
        self.show_class(event.label)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "spot-class" and event.value.strip():
            event.stop()
            self.show_class(event.value.strip())


def _value(x: float, fmt) -> str:
    return "–" if not np.isfinite(x) else fmt(float(x))


class ByCardPane(VerticalScroll):
    """Each action's frequency and EV after every card of a deal, best card for the actor first."""

    DEFAULT_CSS = """
    ByCardPane { height: 1fr; padding: 0 1; }
    ByCardPane > DataTable { height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Static("Pick a deal in the tree (e.g. x/x on a turn spot).", id="bycard-head")
        yield DataTable(id="bycard-table", cursor_type="row", zebra_stripes=True)

    def show_message(self, message: str) -> None:
        self.query_one("#bycard-head", Static).update(Text(message, style="dim"))
        self.query_one("#bycard-table", DataTable).clear(columns=True)

    def show_report(self, report) -> None:
        seat = seat_name(report.player)
        head = Text(f"after each card of {report.key!r}: {seat} acts", style="bold")
        head.append(" · sorted by their EV (Enter: go to the node)", style="dim")
        self.query_one("#bycard-head", Static).update(head)
        table = self.query_one("#bycard-table", DataTable)
        table.clear(columns=True)
        table.add_column("card")
        table.add_column("reach")
        table.add_column("EV")
        for action in report.actions:
            table.add_column(action)
        for action in report.actions:
            table.add_column(f"EV {action}")
        order = np.argsort(-np.nan_to_num(report.ev, nan=-np.inf), kind="stable")
        for i in order:
            cells = [report.cards[i], pct(float(report.reach[i])), _value(report.ev[i], ev)]
            cells += [_value(x, pct) for x in report.frequency[i]]
            cells += [_value(x, ev) for x in report.action_ev[i]]
            table.add_row(*cells, key=report.node_keys[i])
