"""The 13x13 class grid of the range lab: weights (or equities) as colour, edited by keys and mouse.

The grid only draws the 169 values it is given and reports edits as messages; the screen owns
the range and calls :meth:`RangeGrid.show` with the new values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from rich.color import Color
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from solvers.cards.deck import CLASS_LABELS, N_CLASSES

CELL_WIDTH = 3
_EMPTY = (38, 38, 38)
_FULL = (230, 120, 30)
_LOSE = (170, 40, 40)
_EVEN = (190, 170, 40)
_WIN = (40, 150, 60)


def _mix(low: tuple[int, ...], high: tuple[int, ...], share: float) -> Color:
    return Color.from_rgb(*(round(a + (b - a) * share) for a, b in zip(low, high, strict=True)))


def weight_style(weight: float) -> Style:
    """Dark for 0, orange for 1: the colour intensity is the class's mean combo weight."""
    return Style(color="black" if weight > 0.6 else "grey85", bgcolor=_mix(_EMPTY, _FULL, weight))


def equity_style(value: float) -> Style:
    """Red (0) through yellow (0.5) to green (1); NaN (not in the range) is dim."""
    if math.isnan(value):
        return Style(color="grey35", bgcolor=Color.from_rgb(*_EMPTY))
    if value < 0.5:
        colour = _mix(_LOSE, _EVEN, value * 2)
    else:
        colour = _mix(_EVEN, _WIN, value * 2 - 1)
    return Style(color="black", bgcolor=colour)


class RangeGrid(Widget, can_focus=True):
    """Rows and columns A..2: pairs on the diagonal, suited above it, offsuit below."""

    DEFAULT_CSS = """
    RangeGrid {
        width: 39;
        height: 13;
    }
    """
    BINDINGS = [
        Binding("up", "move(-13)", "Up", show=False),
        Binding("down", "move(13)", "Down", show=False),
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("space", "toggle_cell", "Toggle"),
        *(Binding(str(d), f"set_weight({d / 10 if d else 1.0})", show=False) for d in range(10)),
        Binding("delete,backspace", "set_weight(0.0)", "Clear", show=False),
        Binding("enter", "expand", "Combos"),
    ]

    cursor: reactive[int] = reactive(0)
    """Class id under the cursor (``row * 13 + col``)."""

    @dataclass
    class Edited(Message):
        """The user set every combo of ``class_id`` to ``weight``."""

        grid: RangeGrid
        class_id: int
        weight: float

    @dataclass
    class Expand(Message):
        """Enter or right click on ``class_id``: its single combos (or, on the heat map, its
        equity)."""

        grid: RangeGrid
        class_id: int

    @dataclass
    class CursorMoved(Message):
        grid: RangeGrid
        class_id: int

    def __init__(self, *, editable: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.editable = editable
        """False for the equity heat map: the cursor moves but nothing is edited."""
        self.values = np.zeros(N_CLASSES)
        """Per class: the mean combo weight, or an equity (NaN: no value)."""

    def show(self, values: np.ndarray) -> None:
        self.values = np.asarray(values, dtype=float).copy()
        self.refresh()

    def render(self) -> Text:
        style_of = weight_style if self.editable else equity_style
        text = Text(no_wrap=True, overflow="crop")
        for class_id, label in enumerate(CLASS_LABELS):
            style = style_of(float(self.values[class_id]))
            if class_id == self.cursor:
                style += Style(reverse=self.has_focus, underline=True, bold=True)
            text.append(f"{label:<{CELL_WIDTH}}", style=style)
            if class_id % 13 == 12 and class_id < N_CLASSES - 1:
                text.append("\n")
        return text

    def watch_cursor(self) -> None:
        self.post_message(self.CursorMoved(self, self.cursor))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        row, col = divmod(self.cursor, 13)
        if abs(step) == 13:
            row = (row + (1 if step > 0 else -1)) % 13
        else:
            col = (col + step) % 13
        self.cursor = row * 13 + col

    def action_toggle_cell(self) -> None:
        if self.editable:
            weight = 0.0 if self.values[self.cursor] > 0 else 1.0
            self.post_message(self.Edited(self, self.cursor, weight))

    def action_set_weight(self, weight: float) -> None:
        if self.editable:
            self.post_message(self.Edited(self, self.cursor, weight))

    def action_expand(self) -> None:
        self.post_message(self.Expand(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not (0 <= offset.y < 13 and 0 <= offset.x < 13 * CELL_WIDTH):
            return
        self.focus()
        self.cursor = offset.y * 13 + offset.x // CELL_WIDTH
        if event.button == 3:  # right click: the single combos
            self.action_expand()
        else:
            self.action_toggle_cell()
