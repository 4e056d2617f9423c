"""The strategies screen: shipped and custom bots with their game and measured exploitability.

Only each file's header is read (the game spec and the ``measured`` block the solver recorded),
in a thread worker, so a large file never stalls the screen. Enter makes the row's file the bot
that Play starts with.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from solvers.errors import InputError
from solvers.strategy_file.model import MAX_FILE_BYTES
from solvers.user_files import load_user_json


@dataclass
class StrategyRow:
    path: str
    origin: str
    game: str
    exploitability: str


def read_header(path: Path, origin: str) -> StrategyRow:
    try:
        data = load_user_json(path, MAX_FILE_BYTES, "strategy file")  # never a FIFO or a bomb
        game = str(data.get("game", "?"))
        measured = data.get("measured") or {}
        if "mbb_per_hand" in measured:
            exploit = f"{measured['exploitability']:.2g} chips ({measured['mbb_per_hand']:.3g} mbb)"
        else:
            exploit = "not measured"
    except (InputError, AttributeError, TypeError, KeyError, ValueError) as exc:
        game, exploit = "unreadable", type(exc).__name__
    return StrategyRow(str(path), origin, game, exploit)


class StrategiesScreen(Screen[str | None]):
    """Dismisses with the chosen file's path, or None."""

    BINDINGS = [Binding("escape,q", "back", "Back")]

    @dataclass
    class Loaded(Message):
        rows: list[StrategyRow]

    def __init__(self, shipped_dir: Path, custom: list[str], current: str) -> None:
        super().__init__()
        self.shipped_dir = Path(shipped_dir)
        self.custom = custom
        self.current = current
        self.rows: list[StrategyRow] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(f"Current bot: {self.current}", id="strategies-current")
        yield DataTable(id="strategies-table", cursor_type="row", zebra_stripes=True)
        yield Static("Enter: play this bot · other files: Play, then a path", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("File", "From", "Game", "Exploitability")
        table.loading = True
        self.read_headers()

    @work(thread=True, exclusive=True, exit_on_error=False, group="strategies")
    def read_headers(self) -> None:
        rows = [read_header(p, "shipped") for p in sorted(self.shipped_dir.glob("*.json"))]
        rows += [read_header(Path(p), "custom") for p in self.custom if Path(p).exists()]
        self.post_message(self.Loaded(rows))

    @on(Loaded)
    def show_rows(self, event: Loaded) -> None:
        self.rows = event.rows
        table = self.query_one(DataTable)
        table.loading = False
        for row in event.rows:
            table.add_row(Path(row.path).name, row.origin, row.game, row.exploitability)
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_pick()

    def action_pick(self) -> None:
        table = self.query_one(DataTable)
        if self.rows and 0 <= table.cursor_row < len(self.rows):
            self.dismiss(self.rows[table.cursor_row].path)

    def action_back(self) -> None:
        self.dismiss(None)
