"""The figures an aggregate report needs of one solved spot, read once when its job finishes.

For a hold'em spot: each action's frequency at the root (OOP's range) and after a check (IP's
range facing it), and OOP's equity against IP over every runout, range against range. The root
actor's weights are the joint prior's marginal; IP's after a check are the prior weighted by
OOP's checking probability (card removal both ways). Equity per OOP combo comes from
``spot_equity`` and is averaged with each combo's share of the prior, which gives the
range-against-range equity exactly since every compatible pair sees the same runouts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvers.cards.deck import card_str
from solvers.games.base import Node, TreeGame
from solvers.games.holdem.game import HoldemGame
from solvers.reports.spot_equity import equity_vs_range

CHECK = "check"


def _frequencies(weights: np.ndarray, rows: np.ndarray, actions) -> dict[str, float]:
    total = float(weights.sum())
    if total <= 0:
        return {}
    return {a: float(f) for a, f in zip(actions, weights @ rows / total, strict=True)}


def range_equity(game: HoldemGame) -> float:
    """OOP's equity against IP's range on the spot's board, over every runout."""
    board = tuple(int(c) for c in game.root.board)
    combos0, combos1 = game.hand_combos
    per_combo = equity_vs_range(board, combos0, combos1, game.range_weights[1])
    share = np.asarray(game.prior).sum(axis=1)
    known = np.isfinite(per_combo) & (share > 0)
    return float((share[known] * per_combo[known]).sum() / share[known].sum())


def summary_nodes(game: TreeGame) -> list[Node]:
    """The decision nodes ``spot_summary`` reads: the root and the node after a check."""
    root = game.root
    nodes = [root]
    if CHECK in root.actions:
        after = game.child(root, CHECK)
        if after.is_decision and after.player != root.player:
            nodes.append(after)
    return nodes


def spot_summary(game: TreeGame, strategy) -> dict[str, Any]:
    """Root and after-check frequencies and OOP's equity of a solved hold'em spot; ``strategy``
    needs only the ``summary_nodes`` (by node id)."""
    if not isinstance(game, HoldemGame):
        raise TypeError(f"a spot summary is of a hold'em spot, not {game.name}")
    prior = np.asarray(game.prior, dtype=float)
    root = game.root
    rows = np.asarray(strategy[root.id], dtype=float)
    summary: dict[str, Any] = {
        "root_player": int(root.player),
        "root": _frequencies(prior.sum(axis=1), rows, root.actions),
        "after_check": {},
        "equity_oop": range_equity(game),
        "board": " ".join(card_str(int(c)) for c in root.board),
    }
    for after in summary_nodes(game)[1:]:
        checks = rows[:, root.actions.index(CHECK)]
        reach = (prior * checks[:, None]).sum(axis=0)
        summary["after_check"] = _frequencies(
            reach, np.asarray(strategy[after.id], dtype=float), after.actions
        )
    return summary

