"""The solver view's 13x13 grid: each class cell split into coloured bands by its action mix.

The widget only draws ``solvers.reports.spot_report.ClassMix``; cell sizes follow the space it
gets (3 columns and 1 row a cell at 80x24, wider and taller cells on a big terminal). A click
on a cell posts ``ClassPicked`` with the class label.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rich.color import Color
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from solvers.cards.deck import CLASS_LABELS

_PASSIVE = {"check": (46, 139, 87), "call": (46, 139, 87), "fold": (70, 110, 180)}
_BETS = [(230, 160, 60), (220, 110, 50), (200, 70, 50), (170, 40, 60), (130, 20, 70)]
_EMPTY = (40, 40, 40)


def action_colours(actions: Sequence[str]) -> list[tuple[int, int, int]]:
    """Check/call green, fold blue, bets and raises from orange (small) to deep red (all-in)."""
    aggressive = [a for a in actions if a not in _PASSIVE]
    colours = []
    for action in actions:
        if action in _PASSIVE:
            colours.append(_PASSIVE[action])
            continue
        if action.startswith("all-in"):
            colours.append(_BETS[-1])
            continue
        rank = aggressive.index(action)  # bets and raises come smallest first
        colours.append(_BETS[round((len(_BETS) - 1) * rank / max(len(aggressive) - 1, 1))])
    return colours


def cell_bands(mix_row: np.ndarray, width: int) -> list[int]:
    """Action index of each of ``width`` character columns (largest-remainder rounding)."""
    raw = np.nan_to_num(mix_row, nan=0.0) * width
    counts = np.floor(raw).astype(int)
    for index in np.argsort(-(raw - counts), kind="stable")[: width - counts.sum()]:
        counts[index] += 1
    return [a for a, n in enumerate(counts) for _ in range(n)]


def legend(actions: Sequence[str]) -> Text:
    text = Text()
    for action, colour in zip(actions, action_colours(actions), strict=True):
        text.append("  ", style=Style(bgcolor=Color.from_rgb(*colour)))
        text.append(f" {action}  ")
    return text


class SpotGrid(Static):
    """Draws a class mix; ``show(actions, mix)`` with ``mix`` ``[169, n_actions]``."""

    DEFAULT_CSS = """
    SpotGrid { width: 1fr; height: auto; }
    """

    @dataclass
    class ClassPicked(Message):
        label: str

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.actions: tuple[str, ...] = ()
        self.mix: np.ndarray | None = None
        self.selected: str | None = None
        self.cell = (3, 1)

    def show(self, actions: Sequence[str], mix: np.ndarray, selected: str | None = None) -> None:
        self.actions, self.mix, self.selected = tuple(actions), mix, selected
        self._draw()

    def on_resize(self, _: events.Resize) -> None:
        self._draw()

    def cell_size(self) -> tuple[int, int]:
        """Cell width and height from the space this widget has (the grid uses big screens)."""
        width = max(3, min(10, (self.size.width or 40) // 13))
        parent = self.parent
        parent_height = parent.size.height if isinstance(parent, Widget) else 0
        height = 2 if width >= 7 and parent_height >= 40 else 1
        return width, height

    def _draw(self) -> None:
        if self.mix is None:
            self.update("")
            return
        self.cell = width, height = self.cell_size()
        colours = action_colours(self.actions)
        text = Text()
        for row in range(13):
            for line in range(height):
                for col in range(13):
                    c = row * 13 + col
                    label = CLASS_LABELS[c] if line == 0 else ""
                    label = label.center(width) if width > 3 else f"{label:<3}"[:width]
                    self._append_cell(text, label, self.mix[c], colours, width, c)
                if row < 12 or line < height - 1:
                    text.append("\n")
        self.update(text)

    def _append_cell(self, text: Text, label: str, mix_row, colours, width: int, c: int) -> None:
        picked = self.selected == CLASS_LABELS[c]
        if np.isnan(mix_row).all():
            style = Style(color="grey50", bgcolor=Color.from_rgb(*_EMPTY), reverse=picked)
            text.append(label, style=style)
            return
        for char, action in zip(label, cell_bands(mix_row, width), strict=True):
            style = Style(
                color="white", bgcolor=Color.from_rgb(*colours[action]), bold=True, reverse=picked
            )
            text.append(char, style=style)

    def on_click(self, event: events.Click) -> None:
        width, height = self.cell
        row, col = event.y // height, event.x // width
        if self.mix is not None and 0 <= row < 13 and 0 <= col < 13:
            self.post_message(self.ClassPicked(CLASS_LABELS[row * 13 + col]))
