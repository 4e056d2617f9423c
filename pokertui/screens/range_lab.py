"""The range and equity lab: two ranges on 13x13 grids, a board, equity and hand categories.

The screen owns the model (both ranges as 1326 combo weights, the board and the dead cards);
the grids and texts only render it. A range changes through its text box, its grid, a top-x%
preset or the combo dialog, and every change is written back to both the box and the grid.
Equity runs in a thread worker: exact when ``solvers.cards.equity`` would enumerate (its ``auto``
rule), otherwise Monte Carlo in chunks so a progress bar can follow it.
"""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Label, Select, Static

from pokertui.widgets.lab.combo_dialog import ComboDialog
from pokertui.widgets.lab.equity_panel import EquityPanel
from pokertui.widgets.lab.lab_text import categories_text, heat_cell_line
from pokertui.widgets.lab.range_grid import RangeGrid
from solvers.cards import evaluator
from solvers.cards.deck import (
    CLASS_COMBOS,
    CLASS_LABELS,
    CLASS_SIZES,
    N_CLASSES,
    CardError,
    card_str,
    dead_mask,
    parse_cards,
)
from solvers.cards.equity import EquityResult
from solvers.cards.range_tools import (
    PRESET_PERCENTS,
    category_counts,
    top_percent_range,
)
from solvers.cards.ranges import RangeError, class_combo_counts, format_range, parse_range

SIDES = ("hero", "villain")


def _parse_or_empty(text: str) -> np.ndarray:
    """The range, or no hands while its box shows the error."""
    try:
        return parse_range(text)
    except RangeError:
        return parse_range("")


class RangeLabScreen(Screen[tuple[str, str] | None]):
    CSS_PATH = "range_lab.tcss"
    BINDINGS = [
        Binding("f5,ctrl+e", "equity", "Equity", priority=True),
        Binding("f2", "switch_side", "Hero/Villain"),
        Binding("f3", "toggle_heat", "Heat map"),
        Binding("escape", "leave", "Back"),
    ]

    def __init__(
        self,
        hero: str = "QQ+, AKs",
        villain: str = "random",
        board: str = "",
        *,
        samples: int = 200_000,
    ) -> None:
        super().__init__()
        self.weights = {"hero": _parse_or_empty(hero), "villain": _parse_or_empty(villain)}
        """Each side's 1326 combo weights (the last range string that parsed)."""
        self.start = {"hero": hero, "villain": villain, "board": board}
        """The texts the boxes start with (a bad one is reported like a typed one)."""
        self.board: list[int] = []
        self.dead: list[int] = []
        self.errors: dict[str, str] = {}
        """Input problems by field (hero, villain, board, dead), shown under the inputs."""
        self.view = "hero"
        """The grid on show: ``hero``, ``villain`` or ``heat`` (hero's per-class equity)."""
        self.samples = samples
        """Monte Carlo samples per run."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="lab-main"):
            with Vertical(id="lab-left"):
                with Vertical(id="lab-grids"):
                    yield RangeGrid(id="grid-hero")
                    yield RangeGrid(id="grid-villain")
                    yield RangeGrid(editable=False, id="grid-heat")
                yield Static(id="lab-cell")
            with VerticalScroll(id="lab-right"):
                for side in SIDES:
                    with Horizontal(classes="lab-row"):
                        yield Label(side.title(), classes="lab-label")
                        yield Input(self.start[side], id=f"{side}-range", compact=True)
                with Horizontal(classes="lab-row"):
                    yield Label("Board", classes="lab-label")
                    yield Input(self.start["board"], placeholder="Ts9s2d", id="board", compact=True)
                    yield Label(" Dead ", classes="lab-label-short")
                    yield Input(placeholder="none", id="dead", compact=True)
                with Horizontal(classes="lab-row"):
                    yield Label("Preset", classes="lab-label")
                    options = [(f"top {p}%", p) for p in PRESET_PERCENTS]
                    yield Select(options, prompt="top x%", id="preset", compact=True)
                yield Static(id="lab-message")
                yield Static(id="lab-counts")
                yield EquityPanel(self.samples, id="lab-equity")
                yield Static(id="lab-categories")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Range and equity lab"
        self.read_cards()
        self.show_view()
        self.refresh_all()
        self.query_one("#grid-hero").focus()
        self.warm_up()

    @work(thread=True, exclusive=True, exit_on_error=False, group="lab-warm-up")
    def warm_up(self) -> None:
        """Build the evaluator and preset tables off the event loop before the first use."""
        evaluator.warm_up()
        top_percent_range(100)

    # --- the model and its rendering ----------------------------------------------------------
    def grid(self, side: str) -> RangeGrid:
        return self.query_one(f"#grid-{side}", RangeGrid)

    @property
    def edit_side(self) -> str:
        return "villain" if self.view == "villain" else "hero"

    def set_range(self, side: str, weights: np.ndarray) -> None:
        """Adopt new weights for a side and write them back to its text box."""
        self.weights[side] = weights
        self.errors.pop(side, None)
        box = self.query_one(f"#{side}-range", Input)
        text = format_range(weights)
        if box.value != text:
            with box.prevent(Input.Changed):
                box.value = text
        self.changed()

    @property
    def panel(self) -> EquityPanel:
        return self.query_one(EquityPanel)

    @property
    def result(self) -> EquityResult | None:
        return self.panel.result

    @property
    def heat(self) -> np.ndarray | None:
        return self.panel.heat

    def changed(self) -> None:
        self.panel.mark_stale()
        self.refresh_all()

    def refresh_all(self) -> None:
        blockers = self.board + self.dead
        for side in SIDES:
            self.grid(side).show(class_combo_counts(self.weights[side]) / CLASS_SIZES)
        counts = [float(class_combo_counts(self.weights[s], blockers).sum()) for s in SIDES]
        for side, count in zip(SIDES, counts, strict=True):
            if not count and side not in self.errors:
                self.errors[f"{side}-empty"] = f"The {side} range is empty" + (
                    " once the board and dead cards are removed." if blockers else "."
                )
            else:
                self.errors.pop(f"{side}-empty", None)
        self.query_one("#lab-counts", Static).update(
            f"{'live ' if blockers else ''}combos: hero {counts[0]:.4g} · villain {counts[1]:.4g}"
        )
        message = "\n".join(self.errors.values())
        self.query_one("#lab-message", Static).update(message)
        self.query_one("#lab-message").display = bool(message)
        self.show_categories()
        self.show_cell()

    def show_categories(self) -> None:
        widget = self.query_one("#lab-categories", Static)
        if not 3 <= len(self.board) <= 5 or "board" in self.errors or "dead" in self.errors:
            widget.update("Hand categories need a board of 3 to 5 cards.")
            return
        hero, villain = (category_counts(self.weights[s], self.board, self.dead) for s in SIDES)
        widget.update(categories_text(hero, villain))

    def show_view(self, previous: str | None = None) -> None:
        if previous is not None:
            self.grid(self.view).cursor = self.grid(previous).cursor
        for name in (*SIDES, "heat"):
            self.grid(name).display = name == self.view
        titles = {"hero": "Hero range", "villain": "Villain range", "heat": "Hero equity by class"}
        self.query_one("#lab-grids").border_title = titles[self.view]
        self.show_cell()

    def show_cell(self) -> None:
        class_id = self.grid(self.view).cursor
        label = CLASS_LABELS[class_id]
        if self.view == "heat":
            line = heat_cell_line(
                class_id, self.panel.result, self.panel.heat, self.panel.class_results
            )
        else:
            combos = CLASS_COMBOS[class_id]
            weights = self.weights[self.view][combos]
            live = ~dead_mask(self.board + self.dead)[combos]
            line = (
                f"{label}: {float(weights[live].sum()):.4g}/{int(live.sum())} live combos · "
                f"weight {float(weights.mean()):.2f}"
            )
        keys = "space toggle · 1-9 weight 10-90% · 0 full · del clear · ⏎/right-click: combos"
        if self.view == "heat":
            keys = "⏎/right-click: one class's equity · F3 back"
        self.query_one("#lab-cell", Static).update(Text(line + "\n") + Text(keys, style="dim"))

    # --- inputs -------------------------------------------------------------------------------
    @on(Input.Changed, "#hero-range, #villain-range")
    def range_typed(self, event: Input.Changed) -> None:
        assert event.input.id is not None  # the selector matched it by id
        side = event.input.id.removesuffix("-range")
        try:
            weights = parse_range(event.value)
        except RangeError as exc:
            self.errors[side] = f"{side.title()} range: {exc}"
            self.refresh_all()
            return
        self.weights[side] = weights
        self.errors.pop(side, None)
        self.changed()

    @on(Input.Changed, "#board, #dead")
    def cards_typed(self) -> None:
        self.read_cards()
        self.changed()

    def read_cards(self) -> None:
        """Parse the board and dead-card boxes; a bad box keeps its last good cards."""
        for name in ("board", "dead"):
            text = self.query_one(f"#{name}", Input).value
            try:
                cards = parse_cards(text, max_cards=5 if name == "board" else None)
            except CardError as exc:
                self.errors[name] = f"{name.title()}: {exc}"
                continue
            self.errors.pop(name, None)
            setattr(self, name, cards)
        clash = sorted(set(self.board) & set(self.dead))
        if clash and "dead" not in self.errors:
            shared = ", ".join(card_str(c) for c in clash)
            self.errors["dead"] = f"Dead: {shared} is already on the board"

    @on(RangeGrid.Edited)
    def grid_edited(self, event: RangeGrid.Edited) -> None:
        assert event.grid.id is not None  # every grid is made with an id
        side = event.grid.id.removeprefix("grid-")
        weights = self.weights[side].copy()
        weights[CLASS_COMBOS[event.class_id]] = event.weight
        self.set_range(side, weights)

    @on(RangeGrid.CursorMoved)
    def cursor_moved(self) -> None:
        self.show_cell()

    @on(RangeGrid.Expand)
    def expand_class(self, event: RangeGrid.Expand) -> None:
        assert event.grid.id is not None  # every grid is made with an id
        side = event.grid.id.removeprefix("grid-")
        if side == "heat":
            self.action_class_equity(event.class_id)
            return
        blocked = dead_mask(self.board + self.dead)
        dialog = ComboDialog(event.class_id, self.weights[side], blocked)

        def apply(new: dict[int, float] | None) -> None:
            if new:
                weights = self.weights[side].copy()
                for combo, weight in new.items():
                    weights[combo] = weight
                self.set_range(side, weights)

        self.app.push_screen(dialog, apply)

    @on(Select.Changed, "#preset")
    def preset_chosen(self, event: Select.Changed) -> None:
        if not isinstance(event.value, int):  # Select.NULL: the blank prompt row
            return
        self.set_range(self.edit_side, top_percent_range(float(event.value)))
        self.notify(f"{self.edit_side.title()}: top {event.value}% of hands", timeout=2)

    def on_descendant_focus(self, event) -> None:
        """Typing in a range box shows that side's grid."""
        side = (event.widget.id or "").removesuffix("-range")
        if side in SIDES and self.view != side:
            self.view = side
            self.show_view()

    # --- actions ------------------------------------------------------------------------------
    def action_switch_side(self) -> None:
        previous, self.view = self.view, "villain" if self.view == "hero" else "hero"
        self.show_view(previous)
        self.grid(self.view).focus()

    def action_toggle_heat(self) -> None:
        previous, self.view = self.view, "hero" if self.view == "heat" else "heat"
        self.show_view(previous)
        self.grid(self.view).focus()

    def action_class_equity(self, class_id: int) -> None:
        """Equity of one hero class against the villain range (fills a heat-map cell)."""
        panel = self.panel
        if self.errors or not panel.run_class(
            class_id, self.weights["hero"], self.weights["villain"], self.board, self.dead
        ):
            self.notify("Run the equity (F5) on the current inputs first.", timeout=3)
            return
        self.query_one("#lab-cell", Static).update(f"{CLASS_LABELS[class_id]}: computing…")

    def action_leave(self) -> None:
        """Back, handing both ranges as text to whoever opened the lab (the spot editor)."""
        self.dismiss((format_range(self.weights["hero"]), format_range(self.weights["villain"])))

    def action_equity(self) -> None:
        if self.errors:
            self.notify("Fix the inputs first.", severity="warning", timeout=3)
            return
        self.panel.run(self.weights["hero"], self.weights["villain"], self.board, self.dead)

    @on(EquityPanel.Updated)
    def equity_updated(self) -> None:
        heat = self.panel.heat
        self.grid("heat").show(heat if heat is not None else np.full(N_CLASSES, np.nan))
        self.show_cell()
