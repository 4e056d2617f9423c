"""The explorer's numbers as rich text: frequency bars and grids, hand paths, reports.

Every figure goes through ``pokertui.widgets.format`` so tests can format the engine's values the
same way and look for them in the rendered text.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from rich.color import Color
from rich.style import Style
from rich.text import Text

from pokertui.widgets.format import pct
from solvers.cards.deck import CLASS_LABELS, class_matrix

BAR_WIDTH = 20
_LOW = (38, 38, 38)
_HIGH = (40, 160, 90)


def seat_name(player: int) -> str:
    return f"seat {player + 1}"


def bar(share: float, width: int = BAR_WIDTH) -> str:
    filled = round(max(0.0, min(1.0, share)) * width)
    return "█" * filled + "·" * (width - filled)


def frequency_bars(actions: Sequence[str], shares: np.ndarray | None) -> Text:
    """One line per action: label, bar and percentage over the actor's reach range."""
    text = Text()
    width = max(len(a) for a in actions)
    for index, action in enumerate(actions):
        share = None if shares is None else float(shares[index])
        text.append(f"{action:<{width}} ", style="bold")
        text.append(bar(share or 0.0), style="green")
        text.append(f" {pct(share):>6}")
        if index < len(actions) - 1:
            text.append("\n")
    return text


def _cell(share: float) -> Style:
    mix = [round(lo + (hi - lo) * share) for lo, hi in zip(_LOW, _HIGH, strict=True)]
    return Style(color="black" if share > 0.6 else "grey85", bgcolor=Color.from_rgb(*mix))


def frequency_grid(title: str, shares: np.ndarray, possible: np.ndarray) -> Text:
    """A 13x13 hold'em grid of one action's frequency, on an absolute 0-100% scale."""
    grid = class_matrix(np.where(possible, shares, 0.0))
    labels = class_matrix(np.array(CLASS_LABELS, dtype=object))
    text = Text(f"{title}\n", style="bold")
    for row in range(13):
        for col in range(13):
            text.append(f"{labels[row, col]:<3}", style=_cell(float(grid[row, col])))
        if row < 12:
            text.append("\n")
    return text


def hand_path_text(label: str, player: int, steps) -> Text:
    """A hand's path: at each node of its seat, its frequencies with the favourite in bold."""
    text = Text(f"{label} in {seat_name(player)}: ", style="bold")
    if not steps:
        text.append("never reaches a decision\n")
        return text
    text.append(f"{len(steps)} decision nodes\n")
    for step in steps:
        text.append(f"  {step.key or '(root)'}", style="cyan")
        text.append(f"  reached {pct(step.own_reach)}:")
        best = int(np.argmax(step.probs))
        for index, (action, share) in enumerate(zip(step.actions, step.probs, strict=True)):
            style = "bold reverse" if index == best else ""
            text.append(" ")
            text.append(f"{action} {pct(float(share))}", style=style)
        text.append("\n")
    return text


def precise(value: float) -> str:
    """Chips with six decimals, signed, as ``pokertui strategy exploit`` prints them."""
    return f"{value:+.6f}"


def exploit_summary(report) -> Text:
    """BR values per seat, exploitability in chips, mbb/hand and % pot, and the game value."""
    info = report.exploitability
    text = Text()
    for player, response in enumerate(info.best_responses):
        text.append(f"{seat_name(player)}: ", style="bold")
        text.append(f"best response {precise(response.value)}")
        text.append(f" · as played {precise(report.expected_values[player])}\n", style="dim")
    text.append("exploitability ", style="bold")
    text.append(f"{info.exploitability:.4g} chips · {info.mbb_per_hand:.4g} mbb/hand")
    if np.isfinite(info.pot_percent):
        text.append(f" · {info.pot_percent:.3g}% of the pot")
    return text


def compare_summary(path_a: str, path_b: str, comparison) -> Text:
    text = Text()
    for name, path in (("A", path_a), ("B", path_b)):
        text.append(f"{name} ", style="bold")
        text.append(f"{Path(path).name}\n")
    text.append("seat 1 EV, A vs B ", style="bold")
    text.append(f"{precise(comparison.a_vs_b)}  (A in seat 1, B in seat 2)\n")
    text.append("seat 1 EV, B vs A ", style="bold")
    text.append(f"{precise(comparison.b_vs_a)}  (B in seat 1, A in seat 2)\n")
    value_a, value_b = comparison.values
    text.append(f"self-play: A {precise(value_a)} · B {precise(value_b)}", style="dim")
    return text
