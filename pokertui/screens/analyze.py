"""The Analyze screen: ``pokertui analyze`` in the app, over hands played elsewhere.

Type hand-history files (space-separated), optionally the hero's name and the model bot, and
press Enter: a worker imports the files and values every decision of the hero against the
model bot (``solvers.analysis``), hand by hand with a progress line; the session's summary and
a table of the hands, worst first, follow. Enter on a hand replays it decision by decision
(``analyze_hand.py``). The numbers are the analysis records'; the screen computes none.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Checkbox, DataTable, Footer, Header, Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from pokertui.widgets.analysis_view import lost_cell, summary_text
from pokertui.widgets.format import plural
from solvers.errors import InputError

COLUMNS = ("EV lost bb", "hand", "position", "pot", "worst")
_RUN_LOCK = threading.Lock()
"""One analysis at a time: a cancelled run finishes the hand it is on, and its model bots
(cached per process by ``runner.model_agent``) are not shared between threads."""


class _Stopped(Exception):
    """The worker was cancelled: the run stops between hands."""


@dataclass
class AnalysisResult:
    report: dict
    skipped: list[tuple[str, int]]
    failed: dict[str, str]
    rows: list = field(default_factory=list)
    """``replay.HandRow``s, worst first."""
    hands: dict = field(default_factory=dict)
    """Task key -> (ImportedHand, seat, decisions)."""
    bots: list[str] = field(default_factory=list)


class AnalysisProgress(Message):
    def __init__(self, run: int, done: int, total: int, note: str = "") -> None:
        super().__init__()
        self.run, self.done, self.total, self.note = run, done, total, note


class AnalysisFinished(Message):
    def __init__(self, run: int, result: AnalysisResult) -> None:
        super().__init__()
        self.run, self.result = run, result


class AnalysisFailed(Message):
    def __init__(self, run: int, error: str) -> None:
        super().__init__()
        self.run, self.error = run, error


class AnalyzeScreen(Screen[None]):
    DEFAULT_CSS = """
    AnalyzeScreen #analyze-inputs { height: auto; }
    AnalyzeScreen #analyze-files { width: 3fr; }
    AnalyzeScreen #analyze-hero { width: 1fr; }
    AnalyzeScreen #analyze-bot { width: 2fr; }
    AnalyzeScreen #analyze-status { height: auto; padding: 0 1; }
    AnalyzeScreen #analyze-main { height: 1fr; }
    AnalyzeScreen #analyze-table { width: 1fr; }
    AnalyzeScreen #analyze-side { width: 44; padding: 0 1; }
    """
    BINDINGS = [
        Binding("ctrl+s", "start", "Analyze"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, files: str = "", strategies_dir=None) -> None:
        super().__init__()
        self.initial = files
        self.strategies_dir = strategies_dir
        self.run_id = 0
        self.result: AnalysisResult | None = None
        self.analysis_worker: Worker | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="analyze-body"):
            with Horizontal(id="analyze-inputs"):
                yield Input(self.initial, placeholder="hand-history files (space-separated)",
                            id="analyze-files")  # fmt: skip
                yield Input(placeholder="hero (optional)", id="analyze-hero")
                yield Input(placeholder="model bot (default: each depth's)", id="analyze-bot")
            yield Checkbox("value off the bot's tree only the size chosen (faster)",
                           id="analyze-chosen-only")  # fmt: skip
            yield Static("Type the files and press Enter.", id="analyze-status")
            with Horizontal(id="analyze-main"):
                yield DataTable(id="analyze-table", cursor_type="row", zebra_stripes=True)
                with VerticalScroll(id="analyze-side"):
                    yield Static("", id="analyze-summary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.query_one("#analyze-files", Input).focus()

    def _status(self, text: str) -> None:
        self.query_one("#analyze-status", Static).update(text)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def action_start(self) -> None:
        paths = self.query_one("#analyze-files", Input).value.split()
        if not paths:
            self._status("[red]Type one or more hand-history files.[/]")
            return
        hero = self.query_one("#analyze-hero", Input).value.strip() or None
        bot = self.query_one("#analyze-bot", Input).value.strip() or None
        chosen_only = self.query_one("#analyze-chosen-only", Checkbox).value
        self.run_id += 1
        self._status("Reading the files…")
        self.analysis_worker = self.analyze(self.run_id, paths, hero, bot, not chosen_only,
                                   self._shipped_dir())  # fmt: skip

    def action_back(self) -> None:
        self.workers.cancel_group(self, "analyze")
        self.app.pop_screen()

    def _shipped_dir(self):
        from pokertui.paths import strategies_dir  # noqa: PLC0415

        found = self.strategies_dir or getattr(self.app, "strategies_dir", None)
        return found if found is not None else strategies_dir()

    @work(thread=True, exclusive=True, exit_on_error=False, group="analyze")
    def analyze(self, run: int, paths: list[str], hero: str | None, bot: str | None,
                all_sizes: bool, shipped) -> None:  # fmt: skip
        worker = get_current_worker()
        if not _RUN_LOCK.acquire(blocking=False):
            self.post_message(AnalysisProgress(run, 0, 0, "waiting for the last run to stop…"))
            _RUN_LOCK.acquire()
        try:
            if worker.is_cancelled:
                return
            result = self._analysis(run, paths, hero, bot, all_sizes, shipped, worker)
        except _Stopped:
            return
        except InputError as exc:
            self.post_message(AnalysisFailed(run, str(exc)))
            return
        finally:
            _RUN_LOCK.release()
        self.post_message(AnalysisFinished(run, result))

    def _analysis(self, run, paths, hero, bot, all_sizes, shipped, worker) -> AnalysisResult:
        from pokertui.commands.analyze import choose_heroes, model_bots  # noqa: PLC0415
        from solvers.analysis.importer import read_hands  # noqa: PLC0415
        from solvers.analysis.replay import hand_row, worst_first  # noqa: PLC0415
        from solvers.analysis.runner import hero_tasks, run_analysis  # noqa: PLC0415
        from solvers.analysis.session_report import session_report  # noqa: PLC0415

        imported = read_hands(paths)
        skipped = imported.skipped
        heroes = choose_heroes(imported.hands, hero, False, skipped.as_rows())
        self.post_message(AnalysisProgress(run, 0, 0, "Loading the model bot…"))
        bots = model_bots(bot, {h.stack for h in imported.hands}, shipped=shipped)
        tasks = hero_tasks(imported.hands, heroes, bots, skipped)

        def progress(done: int) -> None:
            if worker.is_cancelled:
                raise _Stopped
            self.post_message(AnalysisProgress(run, done, len(tasks)))

        done, failed = run_analysis(tasks, all_sizes, workers=1, progress=progress)
        by_key = {t.key: t for t in tasks}
        hands = {key: (by_key[key].hand, by_key[key].seat, ds) for key, ds in done.items()}
        rows = worst_first([hand_row(k, h, s, ds) for k, (h, s, ds) in hands.items()])
        report = session_report(done, worst=0)
        names = sorted({name for name in bots.values() if name is not None})
        return AnalysisResult(report, skipped.as_rows(), failed, rows, hands, names)

    def on_analysis_progress(self, message: AnalysisProgress) -> None:
        if message.run != self.run_id:
            return
        if message.note:
            self._status(message.note)
        else:
            self._status(f"Analysing: {message.done:,} of {message.total:,} hands done")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failure the importer does not describe (a bug, a file that vanished mid-read) is
        still shown, never left as a progress line that stops moving."""
        if event.worker is self.analysis_worker and event.state == WorkerState.ERROR:
            error = f"{type(event.worker.error).__name__}: {event.worker.error}"
            self._status(f"[red]The analysis failed: {_escape(error)}[/]")

    def on_analysis_failed(self, message: AnalysisFailed) -> None:
        if message.run != self.run_id:
            return
        self._status(f"[red]{_escape(message.error)}[/]")

    def on_analysis_finished(self, message: AnalysisFinished) -> None:
        if message.run != self.run_id:
            return
        self.result = result = message.result
        table = self.query_one(DataTable)
        table.clear()
        for row in result.rows:
            table.add_row(Text(lost_cell(row.ev_lost), justify="right"), row.source,
                          row.position, row.pot_type, row.worst_street or "–",
                          key=row.key)  # fmt: skip
        self.query_one("#analyze-summary", Static).update(
            summary_text(result.report, result.skipped, result.failed, result.bots)
        )
        count = len(result.rows)
        self._status(f"{plural(count, 'hand')} analysed, worst first; Enter replays a hand")
        if count:
            table.focus()

    @on(DataTable.RowSelected, "#analyze-table")
    def _open_hand(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if self.result is None or event.row_key.value not in self.result.hands:
            return
        from pokertui.screens.analyze_hand import AnalyzeHandScreen  # noqa: PLC0415

        hand, seat, decisions = self.result.hands[event.row_key.value]
        self.app.push_screen(AnalyzeHandScreen(hand, seat, decisions))


def _escape(text: str) -> str:
    from rich.markup import escape  # noqa: PLC0415

    return escape(text)
