"""The solver launcher: pick a game, an algorithm and a stopping rule, then follow the runs live.

Each run is a ``pokertui solve --json`` child process (``pokertui.runs``), so solving never
touches the event loop. A thread worker owned by the App reads the process's JSON lines and posts
``SolveUpdate`` messages; the handler here applies them to the App's ``RunBook`` and re-renders
the runs table and the convergence plot. Runs keep going when the screen is closed.

Finished files land in ``runs_dir``; once ``load_strategy`` accepts one it joins the app's
custom strategies (``settings.custom_strategies``), which the strategies screen lists.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import (
    Button,
    DataTable,
    Footer,
    Header,
    Input,
    Label,
    ProgressBar,
    Select,
    Static,
)

from pokertui.widgets.solve.choices import (
    ALGORITHM_NAMES,
    BLUEPRINT_ALGO,
    GAME_SPECS,
    STOP_DEFAULTS,
    STOP_RULES,
    is_full_game,
    parse_stop,
    remember_strategy,
)
from pokertui.widgets.solve.follow import follow_run, make_deliver
from pokertui.widgets.solve.messages import SolveUpdate
from pokertui.widgets.solve.plot import ConvergencePlot
from pokertui.widgets.solve.runbook import RunBook, RunRecord, book_for
from solvers.errors import InputError

__all__ = ["ALGORITHM_NAMES", "GAME_SPECS", "SolveScreen", "parse_stop"]


def target_progress(percents: list[float], target: float | None) -> float:
    """How far a run is from its first exploitability (``percents[0]``) to its target, on a
    log scale (CFR's exploitability falls about geometrically): 0 to 1."""
    if target is None or target <= 0 or len(percents) < 2 or percents[0] <= target:
        return 0.0
    done = math.log(percents[0] / percents[-1]) / math.log(percents[0] / target)
    return min(max(done, 0.0), 1.0)


def _fmt_exploit(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


RUN_COLUMNS = (
    ("#", 3),
    ("Game", 14),
    ("Algo", 12),
    ("State", 13),
    ("Iter", 13),
    ("Elapsed", 9),
    ("Exploit", 9),
)
"""Fixed widths that fit the longest live values ("interrupted ✓", "-5.27e-05", "100,000,000"),
so nothing is cut while a run updates its row in place."""


class SolveScreen(Screen[Path | None]):
    """The launcher. ``runs_dir`` receives the strategy files and checkpoints."""

    DEFAULT_CSS = """
    SolveScreen #solve-form { height: auto; padding: 0 1; }
    SolveScreen .solve-row { height: 3; }
    SolveScreen .solve-label { width: 8; padding: 1 0; }
    SolveScreen #solve-game, SolveScreen #solve-algo, SolveScreen #solve-stop { width: 20; }
    SolveScreen #solve-spec, SolveScreen #solve-options, SolveScreen #solve-lock { width: 1fr; }
    SolveScreen #solve-stop-value { width: 14; }
    SolveScreen Button { min-width: 10; margin-left: 1; }
    SolveScreen #solve-error { height: auto; color: $error; padding: 0 1; }
    SolveScreen #solve-progress { height: 1; padding: 0 1; }
    SolveScreen #solve-main { height: 1fr; }
    SolveScreen #solve-runs { width: 1fr; min-width: 50; }
    SolveScreen #solve-plot { width: 1fr; }
    SolveScreen #solve-files { height: auto; color: $text-muted; padding: 0 1; }
    """

    BINDINGS = [
        Binding("ctrl+s", "start", "Start"),
        Binding("ctrl+t", "cancel_run", "Cancel run"),
        Binding("ctrl+r", "resume_run", "Resume"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self,
        runs_dir: Path | None = None,
        preset: dict | None = None,
        start_now: bool = False,
    ) -> None:
        super().__init__()
        self.start_now = start_now
        """Start the preset run at once, show its progress bar and, when its file is
        validated, dismiss the screen with the file's path (the Spots screen's "solve now,
        then practise or explore")."""
        self.auto_run: int | None = None
        self.auto_target: float | None = None
        """Its target in % of the pot (a spot's ``SPOT_TARGET``), or None."""
        self.auto_percents: list[float] = []
        """The started run's exploitability in % of the pot, first and latest (the bar)."""
        self.preset = {k: str(v) for k, v in (preset or {}).items()}
        """Form values to start with: ``spec`` (or ``game``), ``algo``, ``target``, ``lock``; from
        the Spots screen's Solve and the explorer's lock. ``suffix``: the strategy file's
        (``.ptsb`` for a flop spot's binary file; default ``.json``)."""
        if "game" in self.preset:
            self.preset.setdefault("spec", self.preset.pop("game"))
        self.keep_preset = ({"game"} if "spec" in self.preset else set()) | (
            {"stop"} if "target" in self.preset else set()
        )
        """Selects whose initial Changed event must not overwrite the preset inputs."""
        if runs_dir is None:
            from pokertui.paths import saves_dir  # noqa: PLC0415

            runs_dir = saves_dir() / "runs"
        self.runs_dir = Path(runs_dir)
        """Where run outputs and their checkpoints are written."""
        self.shown_run: int | None = None
        """The run whose convergence the plot shows (the table's cursor row)."""

    @property
    def book(self) -> RunBook:
        return book_for(self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="solve-form"):
            with Horizontal(classes="solve-row"):
                yield Label("Game", classes="solve-label")
                yield Select(
                    [(name, name) for name in GAME_SPECS], value="kuhn", id="solve-game",
                    allow_blank=False,
                )  # fmt: skip
                yield Input(GAME_SPECS["kuhn"], id="solve-spec", placeholder="game spec")
            with Horizontal(classes="solve-row"):
                yield Label("Algo", classes="solve-label")
                yield Select(
                    [(name, name) for name in ALGORITHM_NAMES], value="cfr+", id="solve-algo",
                    allow_blank=False,
                )  # fmt: skip
                yield Input(id="solve-options", placeholder="options: key=value key=value")
                yield Input(id="solve-lock", placeholder="lock file (CFR family)")
            with Horizontal(classes="solve-row"):
                yield Label("Stop at", classes="solve-label")
                yield Select(
                    [(rule, rule) for rule in STOP_RULES], value="target", id="solve-stop",
                    allow_blank=False,
                )  # fmt: skip
                yield Input(STOP_DEFAULTS["target"], id="solve-stop-value")
                yield Button("Start", id="solve-start", variant="primary")
                yield Button("Cancel", id="solve-cancel", variant="warning")
                yield Button("Resume", id="solve-resume")
        yield Static("", id="solve-error")
        yield ProgressBar(total=1.0, show_eta=False, id="solve-progress")
        with Horizontal(id="solve-main"):
            yield DataTable(id="solve-runs", cursor_type="row", zebra_stripes=True)
            yield ConvergencePlot(id="solve-plot")
        yield Static("Finished files: none yet", id="solve-files")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#solve-runs", DataTable)
        for label, width in RUN_COLUMNS:
            table.add_column(label, width=width)
        self.book.listener = self
        for record in self.book.runs:
            self.refresh_row(record)
        self.refresh_files()
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        if "spec" in self.preset:
            self.query_one("#solve-spec", Input).value = self.preset["spec"]
        if "algo" in self.preset:
            self.query_one("#solve-algo", Select).value = self.preset["algo"]
        if "target" in self.preset:
            self.query_one("#solve-stop-value", Input).value = self.preset["target"]
        if "lock" in self.preset:
            self.query_one("#solve-lock", Input).value = self.preset["lock"]
        self.query_one(ProgressBar).display = self.start_now
        if self.start_now:
            self.call_after_refresh(self.action_start)

    def on_unmount(self) -> None:
        if self.book.listener is self:
            self.book.listener = None

    # --- form -------------------------------------------------------------------------------
    @on(Select.Changed, "#solve-game")
    def game_chosen(self, event: Select.Changed) -> None:
        if "game" in self.keep_preset:  # the Select's first change is its initial value
            self.keep_preset.discard("game")
            return
        self.query_one("#solve-spec", Input).value = GAME_SPECS.get(str(event.value), "")
        if is_full_game(str(event.value)):  # the full game trains a blueprint for a while
            self.query_one("#solve-algo", Select).value = BLUEPRINT_ALGO
            self.query_one("#solve-stop", Select).value = "seconds"

    @on(Select.Changed, "#solve-stop")
    def stop_chosen(self, event: Select.Changed) -> None:
        if "stop" in self.keep_preset:
            self.keep_preset.discard("stop")
            return
        self.query_one("#solve-stop-value", Input).value = STOP_DEFAULTS[str(event.value)]

    def show_error(self, text: str) -> None:
        self.query_one("#solve-error", Static).update(text)
        self.set_class(bool(text), "-has-error")

    # --- starting, cancelling, resuming -------------------------------------------------------
    @on(Button.Pressed, "#solve-start")
    def action_start(self) -> None:
        spec = self.query_one("#solve-spec", Input).value.strip()
        algo = str(self.query_one("#solve-algo", Select).value)
        rule = str(self.query_one("#solve-stop", Select).value)
        if not spec:
            self.show_error("Give a game spec, such as kuhn or leduc(ante=1).")
            return
        try:
            limit = parse_stop(rule, self.query_one("#solve-stop-value", Input).value.strip())
        except ValueError as exc:
            self.show_error(str(exc))
            return
        lock_text = self.query_one("#solve-lock", Input).value.strip()
        lock = Path(lock_text).expanduser() if lock_text else None
        if lock is not None and not lock.is_file():
            self.show_error(f"No lock file at {lock}.")
            return
        self.show_error("")
        name = Path(spec.split("(")[0].strip()).stem or "run"  # a spot file names its stem
        stamp = time.strftime("%Y%m%d-%H%M%S")
        run_id = len(self.book.runs) + 1
        suffix = ".npz" if is_full_game(spec) else self.preset.get("suffix", ".json")
        out = self.runs_dir / f"{name}-{algo.replace('+', 'plus')}-{stamp}-{run_id}{suffix}"
        options = self.query_one("#solve-options", Input).value
        record = self.book.add(
            game=spec, algo=algo, out=out, options=options, stop=(rule, limit), lock=lock
        )
        if self.start_now and self.auto_run is None:
            self.auto_run = record.run_id
            percent = rule == "target" and getattr(limit, "pot_percent", False)
            self.auto_target = getattr(limit, "value", None) if percent else None
        self.refresh_row(record)
        self.launch(record, resume=False)

    def launch(self, record: RunRecord, resume: bool) -> None:
        try:
            request = record.request()
        except InputError as exc:  # a bad option: the run fails before any process starts
            self.apply_update(SolveUpdate(record.run_id, {"event": "error", "message": str(exc)}))
            return
        deliver = make_deliver(self.app, self.book, self.apply_update)
        history = list(record.history)
        self.app.run_worker(
            lambda: follow_run(deliver, record.run_id, request, resume, history),
            name=f"solve-{record.run_id}",
            group=f"solve-{record.run_id}",
            thread=True,
            exclusive=True,
            exit_on_error=False,
        )

    def selected(self) -> RunRecord | None:
        table = self.query_one("#solve-runs", DataTable)
        if not self.book.runs:
            return None
        row = table.cursor_row
        return self.book.runs[row] if 0 <= row < len(self.book.runs) else self.book.runs[-1]

    @on(Button.Pressed, "#solve-cancel")
    def action_cancel_run(self) -> None:
        record = self.selected()
        active = [r for r in self.book.runs if r.active]
        if record is None or not record.active:
            record = active[-1] if active else None
        if record is None or not self.book.cancel(record.run_id):
            self.show_error("No running solve to cancel.")
            return
        self.refresh_row(record)

    @on(Button.Pressed, "#solve-resume")
    def action_resume_run(self) -> None:
        record = self.selected()
        if record is None or not record.resumable:
            self.show_error("Select a cancelled run with a checkpoint to resume.")
            return
        self.show_error("")
        record.state = "checking"
        self.refresh_row(record)
        self.launch(record, resume=True)

    def action_back(self) -> None:
        self.dismiss(None)

    # --- updates ------------------------------------------------------------------------------
    def apply_update(self, update: SolveUpdate) -> None:
        """Apply a worker's event to the book (on the event loop); also used with no screen."""
        book = book_for(self.app)
        record = book.apply(update.run_id, update.event, update.history, update.handle)
        if update.event.get("event") == "validated" and update.event.get("kind") != "blueprint":
            remember_strategy(self.app, update.event["path"])
        if not self.is_attached:
            return
        try:
            self.refresh_row(record)
            if record.state == "failed":
                self.show_error(f"Run {record.run_id} failed: {record.error}")
            if update.event.get("event") == "validated":
                self.refresh_files()
            if update.run_id == self.auto_run:
                self.follow_auto_run(update.event)
        except NoMatches:  # dismissed meanwhile: its widgets are going, the book is kept
            pass

    def follow_auto_run(self, event: dict) -> None:
        """The bar of the run started at once, and the hand-over of its file."""
        percent = event.get("exploitability_pot_percent")
        if isinstance(percent, int | float) and percent > 0:
            self.auto_percents = [*self.auto_percents[:1], float(percent)]
            bar = self.query_one(ProgressBar)
            bar.update(progress=target_progress(self.auto_percents, self.auto_target))
        if event.get("event") == "validated":
            self.query_one(ProgressBar).update(progress=1.0)
            self.dismiss(Path(event["path"]))

    @on(SolveUpdate)
    def solve_update(self, update: SolveUpdate) -> None:
        self.apply_update(update)

    @on(DataTable.RowHighlighted, "#solve-runs")
    def row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self.shown_run = int(event.row_key.value)
            self.refresh_plot()

    def refresh_row(self, record: RunRecord) -> None:
        table = self.query_one("#solve-runs", DataTable)
        key = str(record.run_id)
        state = record.state + (" ✓" if record.valid else "")
        cells = (
            key,
            record.game.split("(")[0],
            record.algo,
            state,
            f"{record.iterations:,}",
            f"{record.seconds:.1f}s",
            _fmt_exploit(record.exploitability),
        )
        if key in table.rows:
            for column, value in zip(table.columns, cells, strict=True):
                table.update_cell(key, column, value, update_width=True)
        else:
            table.add_row(*cells, key=key)
            table.move_cursor(row=table.row_count - 1)
            self.shown_run = record.run_id
        if self.shown_run in (None, record.run_id):
            self.shown_run = record.run_id
            self.refresh_plot()

    def refresh_plot(self) -> None:
        if self.shown_run is None:
            return
        record = self.book.get(self.shown_run)
        name = record.game.split("(")[0]
        title = f"Run {record.run_id} {record.algo} {name}: exploitability, log-log"
        for plot in self.query(ConvergencePlot):  # none once the screen is left mid-run
            plot.show(title, record.history)

    def refresh_files(self) -> None:
        files = self.book.finished_files
        text = "Finished files (also in Strategies): " + ", ".join(p.name for p in files)
        self.query_one("#solve-files", Static).update(text if files else "Finished files: none")
