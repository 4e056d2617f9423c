"""The Spots screen: the hold'em spot library and the user's own spots, with what is solved.

Each row is a spot file (``spots/`` in the project, then the user's ``saves/spots/``): its name,
street, board, pot, stack, and the best solved strategy file found for it, a shipped
``strategies/{stem}.ptsb`` (binary, ``docs/strategy_files.md``) or ``.json.gz``, or a finished
run in ``saves/runs/{stem}-*.json`` or ``-*.ptsb`` whose header names the same game, with the
exploitability it records in percent of the pot. Files are read in a thread worker. From a
row: Practice (play the solved bot), Explore (the strategy explorer), Edit (a copy with other
ranges or sizes, saved in the user's folder) and Solve (the solver launcher, preset to DCFR and
``SPOT_TARGET``, 0.3% of the pot; flop spots are solved this way, on demand, into a binary
file, and the finished run is found here next time). Practice or Explore on an unsolved row
solves it now: the launcher starts the run at once with a progress bar and, when the file is
validated, opens it.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from solvers.errors import InputError
from solvers.games.holdem.spot import SpotParams, load_spot_params, spot_meta, spot_spec
from solvers.games.spec import parse_spec
from solvers.runs.request import BINARY_SUFFIX, SPOT_TARGET
from solvers.strategy_file import read_strategy_text
from solvers.strategy_file.binary_layout import is_binary, read_frame

PROJECT_SPOTS = Path(__file__).resolve().parents[2] / "spots"


@dataclass
class SpotRow:
    path: Path
    name: str
    description: str
    street: str
    board: str
    pot: float
    stack: float
    spec: str
    solved: Path | None = None
    pot_percent: float | None = None

    @property
    def solved_text(self) -> str:
        if self.solved is None:
            return "no"
        if self.pot_percent is None:
            return "yes"
        return f"{self.pot_percent:.2g}%"


def _header(path: Path) -> dict | None:
    """A strategy file's JSON (gzip or plain) or a binary file's header, or None if it cannot
    be read."""
    try:
        if is_binary(path):  # a flop's .ptsb: its JSON header only, not its 50 MB of rows
            return read_frame(path)[0]
        data = json.loads(read_strategy_text(path))  # never a FIFO, a folder or a zip bomb
    except (InputError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _pot_percent(data: dict) -> float | None:
    measured = data.get("measured") or {}
    value = measured.get("pot_percent")
    return float(value) if isinstance(value, int | float) else None


def _same_spot(game: object, spec: str) -> bool:
    """Whether a file's game is the spot ``spec``: the same text, or the same parameters spelled
    otherwise (a file written before sizes were spelled canonically, ``50%,a`` for ``50%, a``)."""
    if game == spec:
        return True
    if not isinstance(game, str) or not game.startswith("nlhe("):
        return False
    try:
        _, params = parse_spec(game)
    except InputError:
        return False
    return isinstance(params, SpotParams) and spot_spec(params) == spec


def find_solution(row: SpotRow, strategies_dir: Path, runs_dir: Path) -> None:
    """Fill ``row.solved`` with the least exploitable file for the spot's game."""
    candidates = [
        strategies_dir / f"{row.path.stem}{suffix}" for suffix in (".ptsb", ".json.gz", ".json")
    ]
    candidates += sorted(runs_dir.glob(f"{row.path.stem}-*.json"))
    candidates += sorted(runs_dir.glob(f"{row.path.stem}-*.ptsb"))
    best: tuple[float, Path] | None = None
    for path in candidates:
        if not path.is_file():
            continue
        data = _header(path)
        if data is None or not _same_spot(data.get("game"), row.spec):
            continue
        percent = _pot_percent(data)
        rank = percent if percent is not None else float("inf")
        if best is None or rank < best[0]:
            best = (rank, path)
            row.pot_percent = percent
    row.solved = best[1] if best else None


def read_spot(path: Path) -> SpotRow:
    params = load_spot_params(path)
    meta = spot_meta(path)
    cards = params.board.split()
    return SpotRow(
        path=path,
        name=meta["name"] or path.stem,
        description=meta["description"],
        street={3: "flop", 4: "turn", 5: "river"}[len(cards)],
        board=" ".join(cards),
        pot=float(params.pot),
        stack=float(params.stack),
        spec=spot_spec(params),
    )


def spot_rows(folders: list[Path], strategies_dir: Path, runs_dir: Path) -> list[SpotRow]:
    """Every readable spot in ``folders`` (files that do not parse are left out)."""
    rows = []
    for folder in folders:
        for path in sorted(Path(folder).glob("*.toml")):
            try:
                row = read_spot(path)
            except InputError:
                continue
            find_solution(row, Path(strategies_dir), Path(runs_dir))
            rows.append(row)
    return rows


class SpotsScreen(Screen[None]):
    BINDINGS = [
        Binding("p", "practice", "Practice"),
        Binding("e", "explore", "Explore"),
        Binding("d", "edit", "Edit"),
        Binding("s", "solve", "Solve"),
        Binding("f5", "reload", "Reload", show=False),
        Binding("escape,q", "back", "Back"),
    ]
    DEFAULT_CSS = """
    SpotsScreen #spots-table { height: 1fr; }
    SpotsScreen #spots-about { height: auto; max-height: 6; padding: 0 1; color: $text-muted; }
    """

    @dataclass
    class Loaded(Message):
        rows: list[SpotRow]

    def __init__(self, strategies_dir: Path, saves_dir: Path, spots_dir: Path | None = None):
        super().__init__()
        self.strategies_dir = Path(strategies_dir)
        self.saves_dir = Path(saves_dir)
        self.folders = [Path(spots_dir) if spots_dir else PROJECT_SPOTS, self.user_dir]
        self.rows: list[SpotRow] = []

    @property
    def user_dir(self) -> Path:
        return self.saves_dir / "spots"

    @property
    def runs_dir(self) -> Path:
        return self.saves_dir / "runs"

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(id="spots-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="spots-about")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Spots"
        table = self.query_one(DataTable)
        table.add_columns("Spot", "Street", "Board", "Pot", "Stack", "Solved (% pot)")
        self.action_reload()

    def on_screen_resume(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        self.query_one(DataTable).loading = True
        self.load_rows()

    @work(thread=True, exclusive=True, exit_on_error=False, group="spots")
    def load_rows(self) -> None:
        self.post_message(self.Loaded(spot_rows(self.folders, self.strategies_dir, self.runs_dir)))

    @on(Loaded)
    def show_rows(self, event: Loaded) -> None:
        self.rows = event.rows
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.loading = False
        table.clear()
        for row in event.rows:
            table.add_row(
                row.name,
                row.street,
                row.board,
                f"{row.pot:g}",
                f"{row.stack:g}",
                row.solved_text,
                key=str(row.path),
            )
        if self.rows:
            table.move_cursor(row=min(max(cursor, 0), len(self.rows) - 1))
        table.focus()
        self.show_about()

    @on(DataTable.RowHighlighted)
    def show_about(self) -> None:
        row = self.current
        text = "" if row is None else f"{row.description}\n{row.path}"
        if row is not None and row.solved is not None:
            text += f" · solved: {row.solved.name}"
        self.query_one("#spots-about", Static).update(text)

    @property
    def current(self) -> SpotRow | None:
        table = self.query_one(DataTable)
        if self.rows and 0 <= table.cursor_row < len(self.rows):
            return self.rows[table.cursor_row]
        return None

    def _solved(self, then) -> SpotRow | None:
        """The current row if solved; an unsolved one is solved now (the launcher, started at
        once, with a progress bar) and ``then(path)`` opens the file it writes."""
        row = self.current
        if row is None:
            return None
        if row.solved is None:
            self.notify(f"{row.name} is not solved yet: solving it now.", timeout=4)
            self.action_solve(then=then)
            return None
        return row

    # --- actions ------------------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_practice()

    def action_practice(self) -> None:
        row = self._solved(self.practise_file)
        if row is not None:
            self.practise_file(row.solved)  # type: ignore[arg-type]

    def practise_file(self, path: Path) -> None:
        self.app.play_file(str(path))  # type: ignore[attr-defined]

    def action_explore(self) -> None:
        row = self._solved(self.explore_file)
        if row is not None:
            self.explore_file(row.solved)  # type: ignore[arg-type]

    def explore_file(self, path: Path) -> None:
        from pokertui.screens.explorer import ExplorerScreen  # noqa: PLC0415

        self.app.push_screen(ExplorerScreen(str(path), self.strategies_dir))

    def action_solve(self, then=None) -> None:
        row = self.current
        if row is None:
            return
        from pokertui.screens.solve import SolveScreen  # noqa: PLC0415

        preset = {
            "spec": str(row.path),
            "algo": "dcfr",
            "target": SPOT_TARGET.text(),
        }
        if row.street == "flop":  # a flop's JSON is a GB; its binary file 50 MB
            preset["suffix"] = BINARY_SUFFIX
        screen = SolveScreen(self.runs_dir, preset=preset, start_now=then is not None)
        self.app.push_screen(screen, lambda path: self.opened_after_solve(then, path))

    def opened_after_solve(self, then, path: Path | None) -> None:
        """Open the file the launcher hands back, once it has gone (the next screen mounts
        whole only after the dismissal is done)."""
        if then is not None and path is not None:
            self.app.call_later(then, path)

    def action_edit(self) -> None:
        row = self.current
        if row is None:
            return
        from pokertui.screens.spot_edit import SpotEditDialog  # noqa: PLC0415

        try:
            dialog = SpotEditDialog(row.path, self.user_dir)
        except (InputError, tomllib.TOMLDecodeError) as exc:  # changed since it was listed
            self.notify(f"Cannot edit {row.path.name}: {exc}", severity="error", timeout=6)
            return
        self.app.push_screen(dialog, self.edited)

    def edited(self, path: Path | None) -> None:
        if path is not None:
            self.notify(f"Saved {path.name}; press s on it to solve it.", timeout=4)
            self.action_reload()

    def action_back(self) -> None:
        self.dismiss(None)
