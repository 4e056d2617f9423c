"""The Reports screen: the aggregate report of a batch folder (``pokertui batch``).

Type a folder and press Enter: a table of the solved flops (EVs, OOP's equity, the betting
frequency at the root and after a check, the exploitability reached) and, beside it, the
weight-averaged figures of each texture class with a bar per action. ``t`` cycles the texture
filter, ``s`` the sort column; Enter on a row opens that flop's strategy file in the explorer.
The figures are read from the batch's summaries (``solvers.reports.aggregate``); the screen
computes none of them.
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static

from solvers.errors import InputError
from solvers.reports.aggregate import (
    FILTER_TEXTURES,
    BatchReport,
    aggressive,
    by_texture,
    load_batch,
    select,
)

SORTS = ("name", "weight", "ev_oop", "equity_oop", "bet_root", "bet_after_check",
         "exploitability")  # fmt: skip
COLUMNS = ("flop", "weight", "texture", "EV OOP", "EV IP", "equity", "bet root",
           "bet after x", "expl %")  # fmt: skip
BAR = 20


def _bar(fraction: float) -> str:
    cells = round(max(0.0, min(1.0, fraction)) * BAR)
    return "█" * cells + "·" * (BAR - cells)


class ReportsScreen(Screen[None]):
    CSS_PATH = "reports.tcss"
    BINDINGS = [
        Binding("t", "cycle_texture", "Texture"),
        Binding("s", "cycle_sort", "Sort"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, folder: str | Path | None = None) -> None:
        super().__init__()
        self.initial = str(folder) if folder else ""
        self.report: BatchReport | None = None
        self.texture: str | None = None
        self.sort = "name"
        self.shown: list = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="reports-body"):
            yield Input(self.initial, placeholder="batch folder (pokertui batch ... --out DIR)",
                        id="reports-folder")  # fmt: skip
            yield Static("", id="reports-status")
            with Horizontal(id="reports-main"):
                yield DataTable(id="reports-table", cursor_type="row", zebra_stripes=True)
                with VerticalScroll(id="reports-side"):
                    yield Static("", id="reports-textures")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        if self.initial:
            self.open_folder(self.initial)
        else:
            self.query_one(Input).focus()

    @on(Input.Submitted, "#reports-folder")
    def _submitted(self, event: Input.Submitted) -> None:
        self.open_folder(event.value.strip())

    def open_folder(self, folder: str) -> None:
        try:
            self.report = load_batch(Path(folder).expanduser())
        except InputError as exc:
            self.report = None
            self.shown = []
            self.query_one(DataTable).clear()
            self.query_one("#reports-textures", Static).update("")
            self._status(f"[red]{exc}[/]")
            return
        self.refresh_view()
        self.query_one(DataTable).focus()

    def _status(self, text: str) -> None:
        self.query_one("#reports-status", Static).update(text)

    def refresh_view(self) -> None:
        if self.report is None:
            return
        rows = select(self.report.rows, self.texture, None, self.sort,
                      descending=self.sort not in ("name",))  # fmt: skip
        self.shown = rows
        table = self.query_one(DataTable)
        table.clear()
        for row in rows:
            texture = row.texture + (" conn" if row.connected else "")
            table.add_row(row.name, f"{row.weight:g}", texture, f"{row.ev_oop:.2f}",
                          f"{row.ev_ip:.2f}", f"{100 * row.equity_oop:.1f}%",
                          f"{100 * aggressive(row.root):.1f}%",
                          f"{100 * aggressive(row.after_check):.1f}%",
                          f"{row.exploitability:.3g}", key=row.name)  # fmt: skip
        missing = f", {len(self.report.missing)} not finished" if self.report.missing else ""
        self._status(
            f"{len(rows)} of {len(self.report.rows)} flops{missing}; texture "
            f"{self.texture or 'all'}, sorted by {self.sort}; Enter opens a flop in the explorer"
        )
        self.query_one("#reports-textures", Static).update(self._texture_text(rows))

    def _texture_text(self, rows) -> str:
        lines = []
        groups = by_texture(rows)
        total = groups["all"].get("weight", 0.0) or 1.0
        for name, group in groups.items():
            if not group.get("weight"):
                continue
            lines.append(f"[b]{name}[/b]  {group['flops']} flops, "
                         f"{100 * group['weight'] / total:.0f}% of weight")  # fmt: skip
            lines.append(f" EV OOP {group['ev_oop']:.2f}  IP {group['ev_ip']:.2f}  "
                         f"equity {100 * group['equity_oop']:.1f}%")  # fmt: skip
            for where, label in (("root", "root"), ("after_check", "vs x")):
                for action, freq in group[where].items():
                    lines.append(f" {label:<5}{action[:10]:<11}{_bar(freq)} {100 * freq:4.0f}%")
            lines.append("")
        return "\n".join(lines)

    def action_cycle_texture(self) -> None:
        options = (None, *FILTER_TEXTURES)
        self.texture = options[(options.index(self.texture) + 1) % len(options)]
        self.refresh_view()

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.refresh_view()

    @on(DataTable.RowSelected, "#reports-table")
    def _open_flop(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = next((r for r in self.shown if r.name == event.row_key.value), None)
        if row is None:
            return
        from pokertui.screens.explorer import ExplorerScreen  # noqa: PLC0415

        self.app.push_screen(ExplorerScreen(path=str(row.out)))
