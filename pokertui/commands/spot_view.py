"""``pokertui show F.json --node KEY`` for hold'em spots: action frequencies and a 13x13 grid.

A spot has a thousand combos per player, so instead of a row per hand the terminal shows each
action's frequency over the acting player's reach range and, per action, the 13x13 class grid
of how often each class takes it (reach-weighted over the class's live combos).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokertui.commands.output import class_chart
from solvers.cards.deck import CLASS_LABELS
from solvers.reports.spot_report import board_text, class_frequencies


def spot_payload(game, node, reach: np.ndarray, rows: np.ndarray, aggregate) -> dict[str, Any]:
    grid = class_frequencies(game, node.player, reach, rows).mix
    return {
        "node": node.key,
        "player": node.player,
        "seat": "OOP" if node.player == 0 else "IP",
        "board": board_text(node),
        "actions": list(node.actions),
        "aggregate": aggregate,
        "hands": list(game.hand_labels[node.player]),
        "probs": rows,
        "reach": reach,
        "classes": {
            label: [None if np.isnan(x) else float(x) for x in grid[c]]
            for c, label in enumerate(CLASS_LABELS)
            if not np.isnan(grid[c, 0])
        },
    }


def print_spot_node(payload: dict[str, Any], game, node) -> None:
    from rich.console import Console  # noqa: PLC0415

    console = Console()
    console.print(
        f"node {node.key!r} on {payload['board']}: {payload['seat']} to act", style="bold"
    )
    for action, freq in zip(node.actions, payload["aggregate"], strict=True):
        console.print(f"  {action:<16} {'-' if freq is None else f'{freq:6.1%}'}")
    grid = class_frequencies(game, node.player, payload["reach"], payload["probs"]).mix
    for a, action in enumerate(node.actions):

        def cell(row: int, col: int, a: int = a) -> str:
            value = grid[row * 13 + col, a]
            return "   ." if np.isnan(value) else f"{100 * value:4.0f}"

        console.print(class_chart(action, cell))
