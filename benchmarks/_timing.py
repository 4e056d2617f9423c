"""Shared timing helpers for the benchmark scripts: medians over repeats, after a warm-up."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_seconds(run: Callable[[], Any], repeats: int, warmup: bool = True) -> tuple[float, Any]:
    """Median wall time of ``run()`` over ``repeats`` calls, and the last result."""
    result = run() if warmup else None
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def print_rows(title: str, rows: list[dict[str, Any]]) -> None:
    """A plain aligned table: benchmarks must not need rich."""
    print(f"\n{title}")
    if not rows:
        return
    columns = list(rows[0])
    width = {c: max(len(c), *(len(_fmt(r.get(c))) for r in rows)) for c in columns}
    print("  ".join(c.ljust(width[c]) for c in columns))
    for row in rows:
        print("  ".join(_fmt(row.get(c)).ljust(width[c]) for c in columns))


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)
