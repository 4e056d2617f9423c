"""The range lab's equity panel: runs equity in thread workers and shows the result.

Exact enumeration when ``solvers.cards.equity`` would choose it (its ``auto`` rule); otherwise Monte
Carlo in chunks, so the progress bar follows the run and the estimate sharpens live. An exact
run gives the hero's exact per-class equity (the heat map); a Monte Carlo run gives per-class
estimates from the same samples, and :meth:`EquityPanel.run_class` refines one class with a run
of its own (Enter on the heat map).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from pokertui.widgets.lab.lab_text import equity_text
from pokertui.widgets.lab.messages import (
    ClassEquityDone,
    EquityDone,
    EquityFailed,
    EquityProgress,
)
from solvers.cards.deck import CLASS_COMBOS, CLASS_LABELS, N_CLASSES
from solvers.cards.equity import EXACT_SECONDS_BUDGET, EquityResult, equity, estimate_exact_seconds
from solvers.cards.range_tools import class_equity, monte_carlo_chunks
from solvers.errors import InputError

MC_CHUNKS = 20


class EquityPanel(Vertical):
    DEFAULT_CSS = """
    EquityPanel {
        height: auto;
        margin: 1 0 0 0;
    }
    EquityPanel #lab-result {
        height: auto;
    }
    """

    @dataclass
    class Updated(Message):
        """The result or the per-class equities changed (the screen redraws the heat map)."""

        panel: EquityPanel

    def __init__(self, samples: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.samples = samples
        """Monte Carlo samples per run (a class on demand uses a quarter)."""
        self.request = 0
        """Id of the latest run; results of older runs are dropped."""
        self.result: EquityResult | None = None
        self.heat: np.ndarray | None = None
        """Hero's equity per class (NaN: unknown or not in the range)."""
        self.class_results: dict[int, EquityResult] = {}
        """Classes computed on demand after a Monte Carlo run."""
        self.stale = False
        """The inputs changed since the result was computed."""

    def compose(self) -> ComposeResult:
        yield ProgressBar(id="lab-progress", show_eta=False)
        yield Static("F5: equity", id="lab-result")

    def on_mount(self) -> None:
        self.query_one(ProgressBar).display = False

    def mark_stale(self) -> None:
        if self.result is not None and not self.stale:
            self.stale = True
            self.show()

    def show(self, running: bool = False) -> None:
        if self.result is not None:
            text = equity_text(self.result, stale=self.stale, running=running)
            self.query_one("#lab-result", Static).update(text)

    # --- whole ranges -------------------------------------------------------------------------
    def run(self, hero: np.ndarray, villain: np.ndarray, board, dead) -> None:
        self.request += 1
        self.result, self.heat, self.stale, self.class_results = None, None, False, {}
        self.query_one("#lab-result", Static).update("computing…")
        bar = self.query_one(ProgressBar)
        bar.display = True
        bar.update(total=None, progress=0)
        self.post_message(self.Updated(self))
        self.run_equity(self.request, hero.copy(), villain.copy(), list(board), list(dead))

    @work(thread=True, exclusive=True, exit_on_error=False, group="lab-equity")
    def run_equity(self, request: int, hero, villain, board, dead) -> None:
        worker = get_current_worker()
        try:
            if estimate_exact_seconds(hero, villain, board, dead) <= EXACT_SECONDS_BUDGET:
                result = equity(hero, villain, board, dead, method="exact")
                assert result.hand_equity is not None  # an exact run gives each combo's equity
                heat = class_equity(result.hand_equity, hero)
                self.post_message(EquityDone(request, result, heat))
                return
            chunks = monte_carlo_chunks(
                hero, villain, board, dead, samples=self.samples, chunks=MC_CHUNKS
            )
            for partial in chunks:
                if worker.is_cancelled:
                    return
                self.post_message(EquityProgress(request, partial.samples / self.samples, partial))
            assert partial.hand_equity is not None  # every chunk carries per-combo estimates
            self.post_message(EquityDone(request, partial, class_equity(partial.hand_equity, hero)))
        except InputError as exc:
            self.post_message(EquityFailed(request, str(exc)))
        except Exception as exc:  # noqa: BLE001 - shown inline; the lab stays usable
            self.post_message(EquityFailed(request, f"{type(exc).__name__}: {exc}"))

    @on(EquityProgress)
    def progress(self, message: EquityProgress) -> None:
        if message.request == self.request:
            self.query_one(ProgressBar).update(total=1.0, progress=message.done)
            self.result = message.partial
            self.show(running=True)

    @on(EquityDone)
    def done(self, message: EquityDone) -> None:
        if message.request == self.request:
            self.query_one(ProgressBar).display = False
            self.result, self.heat = message.result, message.class_equity
            self.show()
            self.post_message(self.Updated(self))

    @on(EquityFailed)
    def failed(self, message: EquityFailed) -> None:
        if message.request == self.request:
            self.query_one(ProgressBar).display = False
            self.query_one("#lab-result", Static).update(f"[red]Equity failed:[/] {message.error}")

    # --- one class on demand ------------------------------------------------------------------
    def run_class(self, class_id: int, hero: np.ndarray, villain: np.ndarray, board, dead) -> bool:
        """Start one hero class's equity against the villain; False when there is no current
        result to add it to."""
        if self.result is None or self.stale:
            return False
        only_class = np.zeros_like(hero)
        combos = CLASS_COMBOS[class_id]
        only_class[combos] = hero[combos]
        self.run_class_equity(
            self.request, class_id, only_class, villain.copy(), list(board), list(dead)
        )
        return True

    @work(thread=True, exclusive=True, exit_on_error=False, group="lab-class")
    def run_class_equity(self, request: int, class_id: int, hero, villain, board, dead) -> None:
        try:
            result = equity(hero, villain, board, dead, samples=self.samples // 4, seed=class_id)
        except Exception as exc:  # noqa: BLE001 - shown inline
            self.post_message(EquityFailed(request, f"{CLASS_LABELS[class_id]}: {exc}"))
            return
        self.post_message(ClassEquityDone(request, class_id, result))

    @on(ClassEquityDone)
    def class_done(self, message: ClassEquityDone) -> None:
        if message.request != self.request or self.result is None:
            return
        if self.heat is None:
            self.heat = np.full(N_CLASSES, np.nan)
        self.heat[message.class_id] = message.result.equity[0]
        self.class_results[message.class_id] = message.result
        self.post_message(self.Updated(self))
