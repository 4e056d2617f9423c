"""Writing strategy files: rounded, measured by exact best response, written atomically."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from solvers.atomic import atomic_write_text
from solvers.cards.deck import classes_to_combos
from solvers.cards.ranges import format_range
from solvers.errors import InputError
from solvers.exact.evaluation import exploitability
from solvers.games.base import Strategy, TreeGame
from solvers.strategy_file.model import (
    DEFAULT_PRECISION,
    FORMAT_VERSION,
    LbrFigure,
    Measured,
    SolverInfo,
    StrategyFile,
)
from solvers.strategy_file.read import _holdem_view


def round_rows(rows: np.ndarray, precision: int = DEFAULT_PRECISION) -> np.ndarray:
    """Round to ``precision`` decimals keeping each row a distribution (the largest entry absorbs
    the rounding error)."""
    rounded = np.round(np.clip(rows, 0.0, 1.0), precision)
    residual = 1.0 - rounded.sum(axis=1)
    biggest = rounded.argmax(axis=1)
    rounded[np.arange(len(rows)), biggest] += residual
    return np.round(rounded, precision + 3)


def rounded_strategy(game: TreeGame, strategy: Strategy, precision: int = DEFAULT_PRECISION):
    return {n.id: round_rows(np.asarray(strategy[n.id]), precision) for n in game.decision_nodes()}


def measure(game: TreeGame, strategy: Strategy) -> Measured:
    return measured_from(exploitability(game, strategy))


def _implied_action(actions) -> str:
    """The action a readable hold'em node leaves out: fold, else check, else the last one."""
    for passive in ("fold", "check"):
        if passive in actions:
            return passive
    return actions[-1]


def _spot_spreader(game: TreeGame, player: int):
    """Per-hand values of a spot's live combos onto the 1326 combos (zero elsewhere)."""
    combos = game.hand_combos[player]  # type: ignore[attr-defined]

    def spread(values: np.ndarray) -> np.ndarray:
        full = np.zeros(1326)
        full[combos] = values
        return full

    return spread


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def to_document(
    game: TreeGame,
    strategy: Strategy,
    *,
    form: str = "compact",
    solver: SolverInfo | None = None,
    measured: Measured | None = None,
    defaults: str | None = None,
    lbr: list[LbrFigure] | None = None,
    arrays: bool = False,
    head_only: bool = False,
) -> dict[str, Any]:
    """The JSON object of a strategy file in either form.

    With ``arrays`` the compact rows stay numpy arrays, for ``dumps_document`` right after (a
    turn spot's millions of numbers as Python floats would cost hundreds of MB). With
    ``head_only`` the nodes are left out (``document_chunks`` streams them)."""
    nodes: dict[str, Any] = {}
    for node in () if head_only else game.decision_nodes():
        nodes[node.key] = node_entry(game, node, np.asarray(strategy[node.id]), form, arrays)
    doc: dict[str, Any] = {"format_version": FORMAT_VERSION, "game": game.spec_string()}
    doc["form"] = form
    if defaults:
        doc["defaults"] = defaults
    if solver is not None:
        doc["solver"] = solver.model_dump()
    if measured is not None:
        doc["measured"] = measured.model_dump()
    if lbr:
        doc["lbr"] = [figure.model_dump() for figure in lbr]
    doc["nodes"] = nodes
    return doc


def node_entry(game: TreeGame, node, rows: np.ndarray, form: str, arrays: bool = False):
    """One decision node's entry in the ``nodes`` object of a file in ``form``."""
    hands = game.hand_labels[node.player]
    view = _holdem_view(game, node.player)
    if form == "compact":
        entry: dict[str, Any] = {
            "actions": list(node.actions),
            "hands": list(hands),
            "probs": rows if arrays else rows.tolist(),
        }
        if view == "spot":  # the spot's live combos in a fixed order: no need to list them
            del entry["hands"]
        return entry
    if form == "readable" and view is not None:
        spread = None
        if view == "classes":
            spread = classes_to_combos
        elif view == "spot":
            spread = _spot_spreader(game, node.player)
        implied = _implied_action(node.actions)
        return {  # the passive action is left out: it takes the rest
            action: format_range(spread(rows[:, a]) if spread else rows[:, a])
            for a, action in enumerate(node.actions)
            if action != implied
        }
    if form == "readable":
        return {
            hand: {a: _number(p) for a, p in zip(node.actions, row, strict=True) if p > 0}
            for hand, row in zip(hands, rows.tolist(), strict=True)
        }
    raise InputError(f"form must be 'compact' or 'readable', not {form!r}")


def _rows_json(probs: Any) -> str:
    """Rows of probabilities as JSON, one row per line; whole numbers without ``.0``.

    One C-encoded ``json.dumps`` per node, not one per row or number: a turn spot has millions
    of numbers. ``repr`` of a float never ends in a zero except ``N.0``, so dropping ``.0``
    before a comma or bracket turns exactly the whole numbers into integers."""
    rows = probs.tolist() if isinstance(probs, np.ndarray) else probs
    text = json.dumps(rows).replace(".0,", ",").replace(".0]", "]")
    return text[1:-1].replace("], [", "],\n    [")


def document_chunks(head: dict[str, Any], nodes: Iterable[tuple[str, dict[str, Any]]]):
    """The text of a strategy file in pieces: the header, then one node at a time, so that a
    big spot's file is written without holding it whole (``atomic_write_chunks``)."""
    compact = head.get("form") == "compact"
    yield json.dumps(head, indent=1)[:-2] + ',\n "nodes": {\n'
    separator = ""
    for key, node in nodes:
        yield separator + _node_text(key, node, compact)
        separator = ",\n"
    yield "\n }\n}\n"


def _node_text(key: str, node: dict[str, Any], compact: bool) -> str:
    if not compact:
        inner = ",\n   ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in node.items())
        return f"  {json.dumps(key)}: {{\n   {inner}}}"
    rows = _rows_json(node["probs"])
    hands = f'"hands": {json.dumps(node["hands"])},' if "hands" in node else ""
    return (
        f'  {json.dumps(key)}: {{"actions": {json.dumps(node["actions"])}, '
        f'{hands}\n   "probs": [\n    {rows}]}}'
    )


def dumps_document(doc: dict[str, Any]) -> str:
    """Readable JSON: one line per node row, so files diff and read well."""
    head = {k: v for k, v in doc.items() if k != "nodes"}
    return "".join(document_chunks(head, doc["nodes"].items()))


def measured_from(report) -> Measured:
    """The header's ``measured`` block from an ``Exploitability`` report."""
    pot = report.pot_percent
    return Measured(
        exploitability=report.exploitability,
        nash_conv=report.nash_conv,
        best_response_values=(report.best_responses[0].value, report.best_responses[1].value),
        game_value=report.game_value,
        mbb_per_hand=report.mbb_per_hand,
        pot_percent=None if pot is None or not math.isfinite(pot) else pot,
    )


def save_strategy(
    path: str | os.PathLike,
    game: TreeGame,
    strategy: Strategy,
    *,
    solver: SolverInfo | None = None,
    form: str = "compact",
    precision: int = DEFAULT_PRECISION,
    measure_it: bool = True,
) -> StrategyFile:
    """Round, measure (exact best response of the rounded profile) and write atomically.

    A strategy holding NaN or infinity is refused: no file a loader would reject is written.
    """
    if not all(np.isfinite(np.asarray(strategy[n.id])).all() for n in game.decision_nodes()):
        raise InputError("the strategy holds NaN or infinite probabilities; nothing was written")
    rounded = rounded_strategy(game, strategy, precision)
    measured = measure(game, rounded) if measure_it else None
    doc = to_document(game, rounded, form=form, solver=solver, measured=measured, arrays=True)
    atomic_write_text(path, dumps_document(doc))
    return StrategyFile(game, rounded, solver, measured, str(path))
