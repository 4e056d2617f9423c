"""Recording LBR figures in a strategy file's header (the ``lbr`` list), and the translation price.

The file (JSON or binary) is rewritten atomically with only its ``lbr`` list changed: a figure
replaces an earlier one of the same action set and streets. The gap between the ``56`` and
``tree`` figures on the same streets is what the bot's translation of off-tree bets costs it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict

from solvers.atomic import atomic_write_text, write_error
from solvers.strategy_file import LbrFigure, dumps_document, load_strategy, read_strategy_text
from solvers.strategy_file.binary import replace_lbr
from solvers.strategy_file.binary_layout import is_binary


def figure_from_result(result: dict[str, Any]) -> LbrFigure:
    return LbrFigure(
        action_set=result["action_set"],
        streets=list(result["streets"]),
        unit=result["unit"],
        value=result["value"],
        ci95=result["ci95"],
        seat_values=tuple(result["seat_values"]),
        deals=None if result.get("exact") else result["deals"],
        seed=None if result.get("exact") else result["seed"],
        river_resolve=result.get("river_resolve"),
        turn_resolve=result.get("turn_resolve"),
    )


class TranslationPrice(TypedDict):
    """What off-tree translation costs: ``value`` and its 95% half-width ``ci95`` in ``unit``."""

    value: float
    ci95: float
    unit: str


def translation_price(figures: list[LbrFigure]) -> TranslationPrice | None:
    """``56`` minus ``tree`` on the same streets (the first such pair), with its 95% half-width."""
    by_key = {(f.action_set, tuple(f.streets)): f for f in figures}
    for (action_set, streets), tree in by_key.items():
        off = by_key.get(("56", streets))
        if action_set == "tree" and off is not None:
            spread = (tree.ci95**2 + off.ci95**2) ** 0.5
            return {"value": off.value - tree.value, "ci95": spread, "unit": tree.unit}
    return None


def record_lbr(path: str | Path, result: dict[str, Any]) -> list[LbrFigure]:
    """Store ``result`` (from ``lbr.spot_run.evaluate``) in the header of the file at ``path``."""
    loaded = load_strategy(path)  # the file must be valid before it is rewritten
    figure = figure_from_result(result)
    key = (figure.action_set, figure.streets)
    figures = [f for f in loaded.lbr if (f.action_set, f.streets) != key] + [figure]
    if is_binary(path):
        try:
            replace_lbr(path, figures)
        except OSError as exc:
            raise write_error(path, exc) from None
        return figures
    data = json.loads(read_strategy_text(path))
    nodes = data.pop("nodes")
    data["lbr"] = [f.model_dump() for f in figures]
    data["nodes"] = nodes
    try:
        atomic_write_text(path, dumps_document(data))
    except OSError as exc:
        raise write_error(path, exc) from None
    return figures


def lbr_summary(figures: list[LbrFigure]) -> str:
    """One status-line fragment for the explorer: each recorded figure and the translation
    price, such as `` · LBR tree +0.2% pot, 56 +12% pot · translation +12% pot``."""
    if not figures:
        return ""
    units = {"mbb_per_hand": " mbb", "pot_percent": "% pot"}
    parts = [f"{f.action_set} {f.value:+.3g}{units[f.unit]}" for f in figures]
    text = " · LBR " + ", ".join(parts)
    price = translation_price(figures)
    if price is not None:
        text += f" · translation {price['value']:+.3g}{units[price['unit']]}"
    return text
