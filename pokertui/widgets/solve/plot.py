"""A log-log convergence plot drawn with Unicode braille, so it needs no plotting package.

Each character cell holds a 2x4 grid of dots: dot (column c, row r) of a cell sets bit
``BRAILLE_BITS[r][c]`` of ``0x2800``. Points are joined by straight segments in log space.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
GUTTER = 9
"""Columns for the y-axis labels and the axis line."""


def _decade_range(values: Sequence[float]) -> tuple[float, float]:
    low, high = math.floor(min(values)), math.ceil(max(values))
    return (low, high) if high > low else (low, low + 1)


def braille_plot(points: Sequence[tuple[float, float]], width: int, height: int) -> list[str]:
    """Lines of text plotting y against x, both on log10 scales, with labelled axes.

    Points with a non-positive coordinate cannot go on a log scale and are skipped.
    """
    width, height = max(width, GUTTER + 4), max(height, 3)
    plot_w, plot_h = width - GUTTER, height - 2
    usable = [(math.log10(x), math.log10(y)) for x, y in points if x > 0 and y > 0]
    if not usable:
        blank = [" " * (GUTTER - 1) + "│" + " " * plot_w for _ in range(plot_h)]
        return [*blank, " " * (GUTTER - 1) + "└" + "─" * plot_w, "  no progress yet"]
    x_low, x_high = _decade_range([p[0] for p in usable])
    y_low, y_high = _decade_range([p[1] for p in usable])
    dots_w, dots_h = plot_w * 2, plot_h * 4
    cells = [[0] * plot_w for _ in range(plot_h)]

    def to_dot(point: tuple[float, float]) -> tuple[float, float]:
        col = (point[0] - x_low) / (x_high - x_low) * (dots_w - 1)
        row = (y_high - point[1]) / (y_high - y_low) * (dots_h - 1)
        return col, row

    def set_dot(col: int, row: int) -> None:
        if 0 <= col < dots_w and 0 <= row < dots_h:
            cells[row // 4][col // 2] |= BRAILLE_BITS[row % 4][col % 2]

    dots = [to_dot(p) for p in usable]
    set_dot(round(dots[0][0]), round(dots[0][1]))
    for (c0, r0), (c1, r1) in zip(dots, dots[1:], strict=False):
        steps = max(1, int(max(abs(c1 - c0), abs(r1 - r0))))
        for step in range(steps + 1):
            t = step / steps
            set_dot(round(c0 + t * (c1 - c0)), round(r0 + t * (r1 - r0)))
    lines = []
    for index, row in enumerate(cells):
        label = ""
        if index == 0:
            label = f"1e{y_high}"
        elif index == plot_h - 1:
            label = f"1e{y_low}"
        body = "".join(chr(0x2800 + bits) if bits else " " for bits in row)
        lines.append(f"{label:>{GUTTER - 2}} ┤{body}")
    lines.append(" " * (GUTTER - 1) + "└" + "─" * plot_w)
    left, right = f"1e{x_low}", f"1e{x_high} iterations"
    lines.append(" " * GUTTER + left + right.rjust(plot_w - len(left)))
    return lines


class ConvergencePlot(Widget):
    """Exploitability against iterations for one run, on log scales."""

    DEFAULT_CSS = """
    ConvergencePlot {
        height: 1fr;
        min-height: 6;
        border: round $primary;
        border-title-color: $accent;
    }
    """

    points: reactive[tuple[tuple[float, float], ...]] = reactive(tuple)
    """(iterations, exploitability) pairs of the run shown."""

    def on_mount(self) -> None:
        self.border_title = "Exploitability (chips) vs iterations, log-log"

    def show(self, title: str, points: Sequence[tuple[float, float]]) -> None:
        self.border_title = title
        self.points = tuple(points)

    def render(self) -> Text:
        lines = braille_plot(self.points, self.content_size.width, self.content_size.height)
        return Text("\n".join(lines), no_wrap=True)
