"""Von Neumann poker (Goykhman §2): the closed form beside the LP solution on M bins.

The numbers (thresholds, dealers, deviation EVs) come from ``solvers.theory.von_neumann_theory``;
this pane draws the solved per-bin strategies as bar heights under the closed-form thresholds and
lays out the tables.
"""

from __future__ import annotations

import numpy as np
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from pokertui.widgets.theory.common import TheoryPane, fmt, parse_number

BARS = " ▁▂▃▄▅▆▇█"


def bar_row(probabilities: np.ndarray, width: int) -> str:
    """One character per column: the mean probability of the bins it covers, as a bar."""
    columns = np.array_split(np.asarray(probabilities, dtype=float), width)
    return "".join(BARS[round(float(np.mean(c)) * (len(BARS) - 1))] for c in columns if len(c))


def marker_row(marks: dict[str, float], width: int) -> str:
    row = [" "] * width
    for label, position in marks.items():
        start = min(width - len(label), max(0, int(position * width)))
        row[start : start + len(label)] = label
    return "".join(row)


class VonNeumannPane(TheoryPane):
    FIELDS = (("vn-ante", "Ante a", "1"), ("vn-bet", "Bet B", "2"), ("vn-bins", "Bins M", "60"))

    def compose(self) -> ComposeResult:
        yield from self.compose_inputs()
        yield DataTable(id="vn-thresholds", cursor_type="none")
        yield Static(id="vn-plot", classes="theory-out")
        yield DataTable(id="vn-deviations", cursor_type="none", zebra_stripes=True)
        yield Static(
            "Player EVs. The best-response row equals the value only against an equilibrium"
            " dealer.",
            classes="theory-note",
        )

    def on_mount(self) -> None:
        self.query_one("#vn-thresholds", DataTable).add_columns("", "x1", "x2", "c", "y0", "value")
        self.query_one("#vn-deviations", DataTable).add_columns(
            "Player strategy", "vs admissible dealer", "vs flat dealer", "vs LP dealer"
        )
        super().on_mount()

    def recompute(self) -> None:
        ante = parse_number(self.text("vn-ante"), "the ante", low=0)
        bet = parse_number(self.text("vn-bet"), "the bet", low=0)
        bins = parse_number(self.text("vn-bins"), "the number of bins", 2, 200)
        if ante <= 0 or bet <= 0 or not bins.is_integer():
            raise ValueError("need an ante > 0, a bet > 0 and a whole number of bins")
        from solvers.games.von_neumann import ClosedForm  # noqa: PLC0415
        from solvers.theory.von_neumann_theory import von_neumann_figures  # noqa: PLC0415

        f = von_neumann_figures(ante, bet, int(bins))
        form, measured = f.form, f.measured
        assert isinstance(form, ClosedForm) and isinstance(measured, ClosedForm)  # typed object
        table = self.query_one("#vn-thresholds", DataTable)
        table.clear()
        table.add_row(
            "closed form", fmt(form.x1), fmt(form.x2), fmt(form.c), fmt(form.y0), fmt(form.value)
        )
        table.add_row(
            f"LP, {int(bins)} bins", fmt(measured.x1), fmt(measured.x2), fmt(measured.c),
            fmt(measured.y0), fmt(f.lp_value),
        )  # fmt: skip
        width = 60
        marks = marker_row({"x1": form.x1, "x2": form.x2}, width)
        dealer_marks = marker_row({"y0": form.y0}, width)
        self.query_one("#vn-plot", Static).update(
            f"player bets  {bar_row(f.bet, width)}\n"
            f"             {marks}\n"
            f"dealer calls {bar_row(f.call, width)}\n"
            f"             {dealer_marks}  (0 ... 1, LP solution)"
        )
        deviations = self.query_one("#vn-deviations", DataTable)
        deviations.clear()
        for name, *evs in f.rows:
            deviations.add_row(name, *(f"{round(ev, 12) + 0.0:+.4f}" for ev in evs))
