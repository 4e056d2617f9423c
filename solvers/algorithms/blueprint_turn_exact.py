"""Exact value, best response and exploitability of a blueprint on a fixed-turn game in the real
game: every river is enumerated and the best response sees the combos and the river card.

The blueprint's strategy is the abstract one read through ``FixedTurnDeals``' buckets (a
combo's turn bucket, its river bucket under each river), so the figures measure what the
card abstraction costs, as in Johanson et al. (2013): the exploitability in the real game of an
equilibrium of the abstract game. The walk is ``blueprint_exact``'s with a chance layer where
the river comes: a vector per node over the responder's combos, the opponent's reach going
down; at the river each card is walked with the combos that hold it removed, and the values
are averaged over the 44 rivers each pair of hands leaves. Showdowns are one matrix-vector
product per river against the signed outcome matrix of that river. Figures are chips per deal.
"""

from __future__ import annotations

import numpy as np

from solvers.abstraction.betting_tree import DECISION, FOLD_END, SHOWDOWN_END, BettingTree
from solvers.algorithms.blueprint_deals import FixedTurnDeals
from solvers.algorithms.blueprint_exact import ExactFigures, Rows
from solvers.cards.board_strengths import board_strengths
from solvers.cards.deck import COMBO_CARDS


def exact_turn_figures(
    tree: BettingTree, deals: FixedTurnDeals, rows: Rows, root: int = 0
) -> ExactFigures:
    combos = [np.flatnonzero(w > 0) for w in deals.weights]
    priors = [deals.weights[s][combos[s]] for s in (0, 1)]
    cards = [COMBO_CARDS[c].astype(np.int64) for c in combos]
    compatible = ~(cards[0][:, None, :, None] == cards[1][None, :, None, :]).any(axis=(2, 3))
    rivers = deals.rivers
    # [river, combo]: may the combo see this river?
    live = [~(cards[s][None, :, :] == rivers[:, None, None]).any(axis=2) for s in (0, 1)]
    boards = np.column_stack([np.broadcast_to(deals.board.astype(np.int64), (len(rivers), 4)),
                              rivers])  # fmt: skip
    # [river, combo]; a combo holding the river reads -1, and ``live`` keeps it out of the sums
    strength = [board_strengths(boards, cards[s]) for s in (0, 1)]
    signed = np.sign(strength[0][:, :, None] - strength[1][:, None, :]) * compatible
    same = compatible.astype(np.float64)
    turn_bucket = [deals.turn_buckets[c] for c in combos]
    river_bucket = [deals.river_buckets[rivers][:, c] for c in combos]
    normaliser = float(priors[0] @ same @ priors[1])
    cache: dict[int, np.ndarray] = {}

    def policy(node: int, seat: int, river: int) -> np.ndarray:
        if node not in cache:
            cache[node] = rows(node)
        if river < 0:
            return cache[node][turn_bucket[seat]]
        return cache[node][np.maximum(river_bucket[seat][river], 0)]

    def terminal(node: int, me: int, reach: np.ndarray, river: int) -> np.ndarray:
        amount = float(tree.amount[node])
        if tree.kind[node] == FOLD_END:
            sign = -1.0 if tree.player[node] == me else 1.0
            return sign * amount * (same @ reach if me == 0 else same.T @ reach)
        outcome = signed[river]
        return amount * (outcome @ reach if me == 0 else -(outcome.T @ reach))

    def walk(node: int, me: int, reach: np.ndarray, river: int) -> tuple[np.ndarray, np.ndarray]:
        """``me``'s values following the profile and best-responding, per combo (unnormalised)."""
        kind = tree.kind[node]
        dealt = kind == SHOWDOWN_END or (kind == DECISION and tree.street[node] == 3)
        if river < 0 and dealt:
            value, best = np.zeros(len(combos[me])), np.zeros(len(combos[me]))
            for i in range(len(rivers)):
                v, b = walk(node, me, reach * live[1 - me][i], i)
                value += v * live[me][i]
                best += b * live[me][i]
            return value / FixedTurnDeals.RIVERS, best / FixedTurnDeals.RIVERS
        if kind != DECISION:
            v = terminal(node, me, reach, river)
            return v, v
        start, count = int(tree.edge_start[node]), int(tree.n_actions[node])
        children = tree.edge_child[start : start + count]
        actor = int(tree.player[node])
        sigma = policy(node, actor, river)
        if actor != me:
            parts = [walk(int(c), me, reach * sigma[:, a], river) for a, c in enumerate(children)]
            return np.sum([p[0] for p in parts], axis=0), np.sum([p[1] for p in parts], axis=0)
        parts = [walk(int(c), me, reach, river) for c in children]
        values = np.stack([p[0] for p in parts], axis=1)
        best = np.stack([p[1] for p in parts], axis=1)
        return (values * sigma).sum(axis=1), best.max(axis=1)

    values, responses = [], []
    for me in (0, 1):
        value, best = walk(root, me, priors[1 - me], -1)
        values.append(float(priors[me] @ value) / normaliser)
        responses.append(float(priors[me] @ best) / normaliser)
    return ExactFigures((values[0], values[1]), (responses[0], responses[1]))
