"""Shared output helpers: one JSON object for scripts, or rich tables for people."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


def jsonable(value: Any) -> Any:
    """``value`` with numpy types as plain ones and NaN or infinity as ``null``: strict JSON."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy arrays and scalars
        return jsonable(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def print_json(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(jsonable(payload), sort_keys=False) + "\n")


def add_json_flag(parser: Any) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")


NOISE = 1e-9
"""Relative size under which a figure is float64 rounding noise (sums of thousands of terms
round at 1e-16 to 1e-13 of their size), far below the digits any report shows."""


def is_noise(value: float, scale: float = 1.0) -> bool:
    """Whether ``value`` is smaller than ``NOISE`` times ``scale`` (the pot, or 100 for a
    percent of it): an exploitability of -4.44e-16 is rounding, not a finding, and prints 0."""
    return abs(value) < NOISE * abs(scale)


def gap_text(value: float, noise: bool, spec: str = ".3g") -> str:
    """An exploitability (or its percent, mbb) as text: 0 when it is rounding noise."""
    return "0" if noise else format(value, spec)


@contextmanager
def deal_progress(label: str, total: int, unit: str = "deals") -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr for a run of ``total`` duplicate deals (or other ``unit``s),
    drawn from the run's first report on: a run reports once its bots are built
    (``lbr.spot_run.run_chunks``), so a bad bot is refused with its message alone, and no bot
    is built twice to find out first."""
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

    bar = Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} " + unit),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    )
    task = bar.add_task(label, total=total)

    def report(done: int) -> None:
        if not bar.live.is_started:
            bar.start()
        bar.update(task, completed=done)

    try:
        yield report
    finally:
        if bar.live.is_started:
            bar.stop()


CHART_RANKS = "AKQJT98765432"


def class_chart(action: str, cell: Callable[[int, int], str]) -> Any:
    """A 13x13 table of one action's frequency by hand class (pairs on the diagonal, suited
    above it) for the terminal; ``cell(row, col)`` is the text of a class's cell, four wide."""
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"{action} (% per class, suited above the diagonal)",
                  title_justify="left", box=None, padding=(0, 0))  # fmt: skip
    table.add_column("", min_width=2)
    for rank in CHART_RANKS:
        table.add_column(rank, justify="right", min_width=4)
    for row in range(13):
        table.add_row(CHART_RANKS[row], *(cell(row, col) for col in range(13)))
    return table

