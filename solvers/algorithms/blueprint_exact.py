"""Exact value, best response and exploitability of a blueprint on a fixed-board game.

With ``FixedBoardDeals`` the abstract game is small and has perfect recall (a player's bucket is
its combo and the board is known), so the exact best response is a walk of the betting tree
with one vector per node over the responder's combos: the opponent's reach (prior times its
strategy) goes down, and values come up as sums over compatible opponent combos at the
terminals (a fold pays the folder's chips, a showdown the common total, signed by the
strengths). Used by the tests to show that MCCFR's exploitability falls and to compare with the
spot engine; figures are in chips per deal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solvers.abstraction.betting_tree import DECISION, FOLD_END, BettingTree
from solvers.algorithms.blueprint_deals import FixedBoardDeals
from solvers.cards.deck import COMBO_CARDS
from solvers.cards.evaluator import evaluate

Rows = Callable[[int], np.ndarray]
"""``rows(node) -> [buckets, actions]`` probabilities of the player acting at ``node``."""


@dataclass(frozen=True)
class ExactFigures:
    values: tuple[float, float]
    """Each seat's expected chips when both follow the profile."""
    best_responses: tuple[float, float]
    """Each seat's expected chips when it best-responds to the other's profile."""

    @property
    def exploitability(self) -> float:
        """``(BR_0 + BR_1) / 2``: zero exactly at an equilibrium."""
        return (self.best_responses[0] + self.best_responses[1]) / 2.0


def exact_figures(
    tree: BettingTree, deals: FixedBoardDeals, rows: Rows, root: int = 0
) -> ExactFigures:
    combos = [np.flatnonzero(w > 0) for w in deals.weights]
    priors = [deals.weights[s][combos[s]] for s in (0, 1)]
    cards = [COMBO_CARDS[c] for c in combos]
    compatible = ~(cards[0][:, None, :, None] == cards[1][None, :, None, :]).any(axis=(2, 3))
    strength = []
    for s in (0, 1):
        seven = np.concatenate([cards[s], np.broadcast_to(deals.board, (len(combos[s]), 5))], 1)
        strength.append(evaluate(seven.astype(np.int64)).astype(np.int64))
    wins = np.sign(strength[0][:, None] - strength[1][None, :]) * compatible
    normaliser = float(priors[0] @ compatible @ priors[1])
    matrices = {0: (compatible.astype(float), wins.astype(float)),
                1: (compatible.T.astype(float), -wins.T.astype(float))}  # fmt: skip
    cache: dict[int, np.ndarray] = {}

    def policy(node: int, seat: int) -> np.ndarray:
        if node not in cache:
            cache[node] = rows(node)
        return cache[node][combos[seat]]

    def walk(node: int, me: int, reach: np.ndarray, respond: bool) -> np.ndarray:
        kind = tree.kind[node]
        if kind != DECISION:
            same, signed = matrices[me]
            amount = float(tree.amount[node])
            if kind == FOLD_END:
                sign = -1.0 if tree.player[node] == me else 1.0
                return sign * amount * (same @ reach)
            return amount * (signed @ reach)
        start, count = int(tree.edge_start[node]), int(tree.n_actions[node])
        children = tree.edge_child[start : start + count]
        actor = int(tree.player[node])
        sigma = policy(node, actor)
        if actor != me:
            parts = [walk(int(c), me, reach * sigma[:, a], respond) for a, c in enumerate(children)]
            return np.sum(parts, axis=0)
        values = np.stack([walk(int(c), me, reach, respond) for c in children], axis=1)
        return values.max(axis=1) if respond else (values * sigma).sum(axis=1)

    values, responses = [], []
    for me in (0, 1):
        reach = priors[1 - me]
        values.append(float(priors[me] @ walk(root, me, reach, False)) / normaliser)
        responses.append(float(priors[me] @ walk(root, me, reach, True)) / normaliser)
    return ExactFigures((values[0], values[1]), (responses[0], responses[1]))
