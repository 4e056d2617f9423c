"""Values for one concrete hand in a spot: showdown odds against a range, and full-information
values of a hand pair under a profile (the baseline of the EV-adjusted score).

``showdown_odds`` gives, for a showdown terminal, each seat-0 hand's chance to win and to tie
against each seat-1 hand. ``checkdown_odds`` follows the passive line from a node (check, else
call) through any chance nodes to the showdown, so a hand's equity against a range is defined
before the board is out too. ``pair_values`` gives the expected payoff of a dealt pair of hands from
a node when both seats follow a profile; with both hands known it is a plain expectation.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from solvers.exact.compiled_plan import compiled_plan
from solvers.exact.walk import TreePlan, build_plan, profile_factor
from solvers.games.base import Node, TreeGame
from solvers.games.holdem import pair_odds
from solvers.games.holdem.game import HoldemGame


def showdown_odds(game: TreeGame, node: Node) -> tuple[np.ndarray, np.ndarray]:
    """``(win, tie)``, each ``[n0, n1]``: seat 0's chance to win / split at this showdown."""
    table = getattr(game, "table", None)
    if table is not None:
        return table.win, table.tie
    sign = game.showdown_sign(node)
    return (sign > 0).astype(float), (sign == 0).astype(float)


def _passive_child(game: TreeGame, node: Node) -> Node:
    for label in ("check", "call"):
        if label in node.actions:
            return game.nodes[node.children[node.actions.index(label)]]
    aggressive = [i for i, label in enumerate(node.actions) if label != "fold"]
    return game.nodes[node.children[aggressive[-1] if aggressive else 0]]


def checkdown_odds(
    game: TreeGame, node: int | str | Node, seat: int, hand: int, opp_range: np.ndarray
) -> tuple[float, float]:
    """``(win, tie)`` of ``hand`` against ``opp_range`` if the hand were checked down from here.

    ``opp_range`` is the opponent's hand distribution (it need not be normalised).
    """
    node = game.node(node)
    if isinstance(game, HoldemGame):  # real cards: enumerate the runouts for this one combo
        return pair_odds.checkdown_odds(game, node.board, seat, hand, opp_range)
    win, tie, mass = _checkdown(game, node, seat, hand, np.asarray(opp_range, dtype=float))
    if mass <= 0:
        return float("nan"), float("nan")
    return win / mass, tie / mass


def _checkdown(game, node: Node, seat: int, hand: int, opp: np.ndarray):
    if node.is_terminal:
        if node.terminal != "showdown":
            return 0.0, 0.0, 0.0
        win, tie = showdown_odds(game, node)
        if seat == 0:
            win_row, tie_row = win[hand], tie[hand]
        else:  # seat 1 wins where seat 0 loses
            win_row, tie_row = 1.0 - win[:, hand] - tie[:, hand], tie[:, hand]
        prior = game.prior[hand] if seat == 0 else game.prior[:, hand]
        weight = opp * (prior > 0)
        return float(weight @ win_row), float(weight @ tie_row), float(weight.sum())
    if node.is_decision:
        return _checkdown(game, _passive_child(game, node), seat, hand, opp)
    assert node.outcome_probs is not None and node.outcome_masks is not None
    totals = np.zeros(3)
    for o, child in enumerate(node.children):
        own = node.outcome_masks[seat][o, hand]
        if own <= 0:
            continue
        weighted = opp * node.outcome_masks[1 - seat][o] * node.outcome_probs[o]
        totals += _checkdown(game, game.nodes[child], seat, hand, weighted)
    return tuple(totals)


def pair_values(
    game: TreeGame,
    profile: Mapping[int, np.ndarray],
    hands: tuple[int, int],
    factor: np.ndarray | None = None,
) -> np.ndarray:
    """Seat 0's expected payoff from every node when seat 0 holds ``hands[0]`` and seat 1
    ``hands[1]`` and both follow ``profile`` (chance uses the card-removal weights).

    ``[n_nodes]``; entries of nodes this pair cannot reach are 0.
    """
    h0, h1 = hands
    if game.prior[h0, h1] <= 0:
        raise ValueError("these two hands cannot be dealt together")
    return all_pair_values(game, profile, (np.array([h0]), np.array([h1])), factor)[:, 0]


def all_pair_values(
    game: TreeGame,
    profile: Mapping[int, np.ndarray],
    pairs: tuple[np.ndarray, np.ndarray] | None = None,
    factor: np.ndarray | None = None,
) -> np.ndarray:
    """Full-information values ``[n_nodes, n_pairs]`` of many hand pairs at once.

    ``pairs`` holds the seat-0 and seat-1 hand of each pair (default: every pair, in
    ``np.indices(game.n_hands)`` order, so the result reshapes to ``[n_nodes, n0, n1]``). One
    bottom-up pass of the level walk: a pair's value at a node is the actor's action
    probabilities (or the chance weights ``p_o * mask0 * mask1``, renormalised for the pair)
    times the children's values; at a terminal it is the payoff of that pair. ``factor`` is the
    profile's edge factors if already computed (``Walk.factor`` of a walk with no responder).
    """
    if pairs is None:
        grid = np.indices(game.n_hands).reshape(2, -1)
        pairs = (grid[0], grid[1])
    h0, h1 = (np.asarray(h, dtype=np.intp) for h in pairs)
    plan = build_plan(game)
    if factor is None:
        factor = profile_factor(plan, [plan.per_edge(0, profile), plan.per_edge(1, profile)])
    weight = factor[:, 0, h0] * factor[:, 1, h1] * _edge_chance(game, plan)[:, None]
    return _pair_pass(game, plan, weight, h0, h1)


def pair_values_of_columns(
    game: TreeGame, columns: tuple[np.ndarray, np.ndarray], hands: tuple[int, int]
) -> np.ndarray:
    """``pair_values`` of one dealt pair from each seat's action probabilities with its own hand
    only (``columns[p]``: ``[plan.edges[p].n_edges]``, ``hands[p]``'s column of the per-edge
    profile): what a flop needs, where the profile's ``[rows, 2, hands]`` factors are GBs."""
    h0, h1 = hands
    if game.prior[h0, h1] <= 0:
        raise ValueError("these two hands cannot be dealt together")
    plan = build_plan(game)
    compiled = compiled_plan(game)
    chance = np.flatnonzero(compiled.chance_mask >= 0)
    weight = _edge_chance(game, plan).copy()
    for p, hand in enumerate(hands):
        weight[plan.edges[p].rows] *= columns[p]
        mask = compiled.masks[compiled.chance_mask[chance], p, hand]
        weight[chance] *= mask
    pair = (np.array([h0]), np.array([h1]))
    return _pair_pass(game, plan, weight[:, None], *pair)[:, 0]


def _pair_pass(game, plan: TreePlan, weight, h0: np.ndarray, h1: np.ndarray) -> np.ndarray:
    """The bottom-up pass of ``all_pair_values`` given every row's edge weight per pair."""
    values = np.zeros((plan.n_rows, len(h0)))
    prior = game.prior[h0, h1]
    if isinstance(game, HoldemGame) and len(h0) == 1:  # one dealt pair: no dense matrices
        values[plan.terminal_rows] = pair_odds.pair_payoffs(game, int(h0[0]), int(h1[0]))[:, None]
    else:
        payoff = np.stack([game.terminal_matrix(int(t))[h0, h1] for t in game.terminal_ids])
        with np.errstate(invalid="ignore", divide="ignore"):
            values[plan.terminal_rows] = np.where(prior > 0, payoff / prior, 0.0)
    for level in reversed(plan.levels):
        children = slice(level.start, level.stop)
        parents = slice(level.parent_start, level.parent_stop)
        total = level.sum_children @ (weight[children] * values[children])
        mass = level.sum_children @ weight[children]
        values[parents] = np.where(mass > 0, total / np.where(mass > 0, mass, 1.0), 0.0)
    return values[plan.row_of_node]


def _edge_chance(game: TreeGame, plan: TreePlan) -> np.ndarray:
    """``[rows]``: the chance probability on the edge into each row (1 below a decision)."""

    def build() -> np.ndarray:
        per_node = np.ones(len(game.nodes))
        for node in game.nodes:
            if node.is_chance:
                assert node.outcome_probs is not None
                per_node[list(node.children)] = node.outcome_probs
        return per_node[plan.node_of_row]

    return game.derived.get("edge_chance", None, build)
