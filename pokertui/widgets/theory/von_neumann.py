"""Von Neumann poker (Goykhman §2): the closed form beside the LP solution on M bins.

The plot draws the solved per-bin strategies as bar heights under the closed-form thresholds.
The dealer columns are the admissible equilibrium (call above y0), a flat dealer (the call mass c
spread evenly over (x1, x2)) and the LP's dealer. The last row, the player's best response, tells
which are equilibria: against an equilibrium dealer it gains nothing over the value. The flat
dealer is not one for every (a, B) (Goykhman's condition e1(x) < 0 on (x1, x2) fails for
(1, 2)), which the row shows.
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


def player_deviations(centres: np.ndarray, form) -> dict[str, np.ndarray]:
    """Bet indicators of the player's equilibrium and of common deviations from it."""
    x1, x2, y0 = form.x1, form.x2, form.y0
    return {
        "equilibrium": (centres < x1) | (centres > x2),
        "never bluff": centres > x2,
        "bluff twice as often": (centres < 2 * x1) | (centres > x2),
        "value-bet down to y0": (centres < x1) | (centres > y0),
        "always bet": np.ones_like(centres, bool),
        "never bet": np.zeros_like(centres, bool),
    }


def von_neumann_figures(ante: float, bet: float, bins: int) -> dict:
    """Closed form, LP thresholds, and the deviation EVs against both dealer equilibria."""
    from solvers.exact.evaluation import best_response, expected_values  # noqa: PLC0415
    from solvers.exact.lp import solve_lp  # noqa: PLC0415
    from solvers.games import load_game  # noqa: PLC0415
    from solvers.games.von_neumann import closed_form  # noqa: PLC0415
    from solvers.theory.thresholds import measured_thresholds  # noqa: PLC0415

    game = load_game(f"von_neumann(ante={ante!r},bet={bet!r},bins={bins})")
    form = closed_form(ante, bet)
    solution = solve_lp(game)
    measured = measured_thresholds(game, solution.strategy)
    root, facing = game.node_by_key("").id, game.node_by_key("b").id
    centres = (np.arange(bins) + 0.5) / bins
    middle = (centres > form.x1) & (centres < form.x2)
    flat_call = np.where(centres >= form.x2, 1.0, 0.0)
    flat_call[middle] = min(1.0, form.c / (form.x2 - form.x1))
    dealers = {
        "admissible": (centres > form.y0).astype(float),
        "flat": flat_call,
        "LP": solution.strategy[facing][:, 1],
    }
    rows = []
    for name, bets in player_deviations(centres, form).items():
        bet_p = bets.astype(float)
        evs = []
        for call in dealers.values():
            profile = {
                root: np.stack([1 - bet_p, bet_p], axis=1),
                facing: np.stack([1 - call, call], axis=1),
            }
            evs.append(expected_values(game, profile).totals[0])
        rows.append((name, *evs))
    best = []
    for call in dealers.values():
        profile = {root: np.ones((bins, 2)) / 2, facing: np.stack([1 - call, call], axis=1)}
        best.append(best_response(game, profile, 0).value)
    rows.append(("player's best response", *best))
    return {
        "form": form,
        "lp_value": solution.value,
        "measured": measured,
        "bet": solution.strategy[root][:, 1],
        "call": solution.strategy[facing][:, 1],
        "rows": rows,
    }


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
        f = von_neumann_figures(ante, bet, int(bins))
        form, measured = f["form"], f["measured"]
        table = self.query_one("#vn-thresholds", DataTable)
        table.clear()
        table.add_row(
            "closed form", fmt(form.x1), fmt(form.x2), fmt(form.c), fmt(form.y0), fmt(form.value)
        )
        table.add_row(
            f"LP, {int(bins)} bins", fmt(measured.x1), fmt(measured.x2), fmt(measured.c),
            fmt(measured.y0), fmt(f["lp_value"]),
        )  # fmt: skip
        width = 60
        marks = marker_row({"x1": form.x1, "x2": form.x2}, width)
        dealer_marks = marker_row({"y0": form.y0}, width)
        self.query_one("#vn-plot", Static).update(
            f"player bets  {bar_row(f['bet'], width)}\n"
            f"             {marks}\n"
            f"dealer calls {bar_row(f['call'], width)}\n"
            f"             {dealer_marks}  (0 ... 1, LP solution)"
        )
        deviations = self.query_one("#vn-deviations", DataTable)
        deviations.clear()
        for name, *evs in f["rows"]:
            deviations.add_row(name, *(f"{round(ev, 12) + 0.0:+.4f}" for ev in evs))
