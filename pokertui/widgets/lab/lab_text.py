"""Texts of the range lab: the equity table, the category table and the cursor line.

The pilot tests format engine values through the same functions and compare the strings.
"""

from __future__ import annotations

import numpy as np
from rich.text import Text

from pokertui.widgets.format import pct
from solvers.cards.deck import CLASS_LABELS
from solvers.cards.equity import EquityResult
from solvers.cards.evaluator import CATEGORY_NAMES


def method_line(result: EquityResult) -> str:
    if result.method == "exact":
        return f"exact · {result.boards:,} runouts × {result.pairs:,} pairs"
    return f"Monte Carlo {result.samples:,} · s.e. {100 * result.std_error:.2f}%"


def equity_text(result: EquityResult, *, stale: bool = False, running: bool = False) -> Text:
    """Equity, win and tie of both sides, then how it was computed."""
    text = Text()
    text.append(f"{'':8}{'equity':>8}{'win':>8}{'tie':>8}\n", style="bold")
    for side, name in enumerate(("Hero", "Villain")):
        text.append(f"{name:<8}")
        text.append(f"{pct(result.equity[side]):>8}", style="bold")
        text.append(f"{pct(result.win[side]):>8}{pct(result.tie):>8}\n")
    note = method_line(result)
    if running:
        note += " · running…"
    text.append(note, style="dim")
    if stale:
        text.append("\ninputs changed: F5 to recompute", style="yellow")
    return text


def categories_text(hero: np.ndarray, villain: np.ndarray) -> Text:
    """Weighted combos per made-hand category, best first, with each side's share."""
    text = Text()
    text.append(f"{'category':<14}{'hero':>11}{'villain':>11}", style="bold")
    totals = (hero.sum() or 1.0, villain.sum() or 1.0)
    for index in range(len(CATEGORY_NAMES) - 1, -1, -1):
        text.append(f"\n{CATEGORY_NAMES[index]:<14}")
        for counts, total in zip((hero, villain), totals, strict=True):
            cell = f"{counts[index]:.4g} {pct(counts[index] / total)}" if counts[index] else "·"
            text.append(f"{cell:>11}", style="" if counts[index] else "dim")
    return text


def heat_cell_line(
    class_id: int,
    result: EquityResult | None,
    heat: np.ndarray | None,
    class_results: dict[int, EquityResult],
) -> str:
    """The heat map's line for the class under the cursor: its equity, or why there is none."""
    label = CLASS_LABELS[class_id]
    value = np.nan if heat is None else float(heat[class_id])
    if class_id in class_results:
        return f"{label}: equity {pct(value)} ({method_line(class_results[class_id])})"
    if not np.isnan(value):
        return f"{label}: equity {pct(value)}"
    if result is not None and result.method == "mc":
        return f"{label}: unavailable after Monte Carlo; ⏎ computes this class"
    if result is not None:
        return f"{label}: not in the hero range"
    return f"{label}: per-class equity comes with the equity run (F5)"
