"""Ranges drawn as text: a 13x13 heat grid for hold'em classes, bars for a few hands, and a
histogram for games with many bins (von Neumann).

The values are the session's normalised Bayesian ranges; the drawing scales them to the
largest entry so a narrow range is still readable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from rich.color import Color
from rich.style import Style
from rich.text import Text

from pokertui.widgets.format import pct
from solvers.cards.deck import CLASS_LABELS, class_matrix

BAR_WIDTH = 14
_EIGHTHS = " ▁▂▃▄▅▆▇█"
_PARTIAL = " ▏▎▍▌▋▊▉█"
_LOW = (38, 38, 38)
_HIGH = (230, 120, 30)


def range_kind(labels: Sequence[str]) -> str:
    """``grid`` for the 169 hold'em classes, ``bars`` for a handful of hands, else ``histogram``."""
    if tuple(labels) == CLASS_LABELS:
        return "grid"
    return "bars" if len(labels) <= 16 else "histogram"


def render_range(labels: Sequence[str], values: np.ndarray, cell: int = 3) -> Text:
    """``cell`` is the grid's characters per class (wider panels pass more)."""
    kind = range_kind(labels)
    values = np.asarray(values, dtype=float)
    if kind == "grid":
        return heat_grid(values, cell)
    if kind == "bars":
        return bar_chart(labels, values)
    return histogram(values)


def _heat(share: float) -> Style:
    mix = [round(lo + (hi - lo) * share) for lo, hi in zip(_LOW, _HIGH, strict=True)]
    foreground = "black" if share > 0.6 else "grey85"
    return Style(color=foreground, bgcolor=Color.from_rgb(*mix))


def heat_grid(values: np.ndarray, cell: int = 3) -> Text:
    """Rows A..2 and columns A..2: pairs on the diagonal, suited above, offsuit below; each
    class is ``cell`` characters wide (3 fits an 80-column screen)."""
    top = float(values.max()) or 1.0
    grid = class_matrix(values)
    labels = class_matrix(np.array(CLASS_LABELS, dtype=object))
    text = Text()
    for row in range(13):
        for col in range(13):
            label = f"{labels[row, col]:^{cell}}" if cell > 3 else f"{labels[row, col]:<3}"
            text.append(label, style=_heat(float(grid[row, col]) / top))
        if row < 12:
            text.append("\n")
    return text


def bar_chart(labels: Sequence[str], values: np.ndarray) -> Text:
    top = float(values.max()) or 1.0
    width = max(len(label) for label in labels)
    text = Text()
    for index, (label, value) in enumerate(zip(labels, values, strict=True)):
        eighths = round(BAR_WIDTH * 8 * float(value) / top)
        bar = "█" * (eighths // 8) + (_PARTIAL[eighths % 8] if eighths % 8 else "")
        text.append(f"{label:<{width}} ", style="bold")
        text.append(f"{bar:<{BAR_WIDTH}}", style="dark_orange")
        text.append(f" {pct(float(value)):>6}")
        if index < len(labels) - 1:
            text.append("\n")
    return text


def histogram(values: np.ndarray, height: int = 4, columns: int = 32) -> Text:
    """Bins grouped into at most ``columns`` buckets, drawn as vertical bars in eighths."""
    size = math.ceil(len(values) / columns)
    buckets = [float(values[i : i + size].sum()) for i in range(0, len(values), size)]
    top = max(buckets) or 1.0
    text = Text()
    for level in range(height, 0, -1):
        for bucket in buckets:
            fill = bucket / top * height - (level - 1)
            text.append(_EIGHTHS[max(0, min(8, round(fill * 8)))], style="dark_orange")
        text.append("\n")
    last = len(values) - 1
    axis = f"0{' ' * max(len(buckets) - 1 - len(str(last)), 1)}{last}"
    text.append(axis, style="dim")
    text.append(f"\nbins of {size}" if size > 1 else "", style="dim")
    return text
