"""The public tree flattened once into index arrays: a CFR iteration is a few numpy ops per level.

``solvers.exact.evaluation`` walks the tree node by node, which is exact and fine for one
evaluation, but a solver repeats the walk thousands of times. Here nodes are renumbered into
*rows*, breadth
first, with the non-terminal nodes of each depth before its terminals. Then:

- each depth level is one contiguous block of rows, whose parents are the contiguous block of
  non-terminal rows of the level above;
- the top-down reach pass is, per level, one gather from the parent block times a factor;
- the bottom-up value pass is, per level, a product and one 0/1 matrix product that sums each
  parent's children (faster than ``np.add.reduceat`` on these small blocks), written straight
  into the parent block.

So an iteration costs a few numpy calls per depth (9 levels for Leduc), not per node.

Layouts (``node_of_row[row]`` is the node id of a row):

- ``factor[row, p, h]``, ``[rows, 2, max_hands]``: what player ``p``'s reach is multiplied by on
  the edge into ``row``: ``p``'s action probability if the parent is ``p``'s decision, ``p``'s
  chance mask if the parent is a chance node, else 1. The same factor weights child values
  bottom-up. Hands of the player with fewer hands are padded with zeros.
- An *edge* of player ``p`` is a row whose parent is a decision node of ``p``. Edges are numbered
  in row order, so the actions of one decision node are consecutive: action ``a`` of decision
  slot ``k`` (node ``edges[p].decision_nodes[k]``) is edge ``first_edge[k] + a``, and per-edge
  arrays (regrets, strategy sums, current strategy) are ``[n_edges, n_hands[p]]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from solvers.games.base import Strategy, TreeGame


@dataclass(frozen=True)
class Level:
    """Rows ``start:stop`` form one depth; their parents are rows ``parent_start:parent_stop``."""

    start: int
    stop: int
    parent_start: int
    parent_stop: int
    parent_index: np.ndarray
    """Parent of each row of the level, counted from ``parent_start``."""
    sum_children: np.ndarray | sp.csr_matrix
    """``[n_parents, n_rows_of_level]`` 0/1: row i sums the children of parent i. Dense for
    small levels (a BLAS product beats ``np.add.reduceat`` there), sparse for wide ones."""


@dataclass(frozen=True)
class PlayerEdges:
    rows: np.ndarray
    """Row of each edge (the child reached by the action)."""
    parent_rows: np.ndarray
    """Row of the decision node each edge leaves."""
    first_edge: np.ndarray
    """First edge of each decision slot (``np.add.reduceat`` offsets)."""
    n_actions: np.ndarray
    """Number of actions of each decision slot."""
    decision_nodes: tuple[int, ...]
    """Node ids of this player's decision nodes, in slot order."""

    @property
    def n_edges(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class TreePlan:
    n_hands: tuple[int, int]
    max_hands: int
    node_of_row: np.ndarray
    row_of_node: np.ndarray
    levels: tuple[Level, ...]
    fixed_factor: np.ndarray
    """``[rows, 2, max_hands]``: the factors that do not depend on the strategy (chance masks,
    ones, zero padding); strategy entries are written over a copy each iteration."""
    root_reach: np.ndarray
    """``[2, max_hands]``: 1 for real hands, 0 for padding."""
    terminal_rows: np.ndarray
    """Rows of ``game.terminal_ids``, in that order (the order of ``terminal_values_batch``)."""
    terminal_chance: np.ndarray
    """``[n_terminals, 1]``: product of chance probabilities on each terminal's path."""
    edges: tuple[PlayerEdges, PlayerEdges]

    @property
    def n_rows(self) -> int:
        return len(self.node_of_row)

    def segment_sums(self, player: int, per_edge: np.ndarray) -> np.ndarray:
        """Sum over each decision node's actions, repeated back to every edge of the node."""
        edges = self.edges[player]
        totals = np.add.reduceat(per_edge, edges.first_edge, axis=0)
        return np.repeat(totals, edges.n_actions, axis=0)

    def strategy_dict(self, player: int, per_edge: np.ndarray) -> Strategy:
        """``{node_id: [n_hands, n_actions]}`` views of a per-edge array, transposed."""
        edges = self.edges[player]
        out: Strategy = {}
        for slot, node_id in enumerate(edges.decision_nodes):
            first = edges.first_edge[slot]
            out[node_id] = per_edge[first : first + edges.n_actions[slot]].T
        return out

    def per_edge(self, player: int, strategy: Strategy) -> np.ndarray:
        """The per-edge ``[n_edges, n_hands]`` layout of ``player``'s part of ``strategy``."""
        edges = self.edges[player]
        return np.concatenate(
            [np.asarray(strategy[node_id], dtype=float).T for node_id in edges.decision_nodes]
        )


_DENSE_SUM_LIMIT = 1 << 16
"""Largest level (parents times children) summed by a dense 0/1 matrix product."""


def _row_order(game: TreeGame) -> tuple[list[int], list[tuple[int, int]]]:
    """Breadth first, non-terminals first within each depth; the row bounds of each depth."""
    nodes = game.nodes
    order: list[int] = []
    bounds: list[tuple[int, int]] = []
    level = [0]
    while level:
        level = [n for n in level if not nodes[n].is_terminal] + [
            n for n in level if nodes[n].is_terminal
        ]
        bounds.append((len(order), len(order) + len(level)))
        order.extend(level)
        level = [child for nid in level for child in nodes[nid].children]
    return order, bounds


def build_plan(game: TreeGame) -> TreePlan:
    """The flattened plan of ``game`` (cached on the game object)."""
    cached = game.__dict__.get("_cfr_plan")
    if cached is not None:
        return cached
    nodes = game.nodes
    order, bounds = _row_order(game)
    node_of_row = np.array(order, dtype=np.intp)
    row_of_node = np.empty(len(nodes), dtype=np.intp)
    row_of_node[node_of_row] = np.arange(len(nodes))

    levels = []
    for (parent_start, parent_end), (start, stop) in zip(bounds[:-1], bounds[1:], strict=True):
        parents = [n for n in order[parent_start:parent_end] if not nodes[n].is_terminal]
        local = {nid: i for i, nid in enumerate(parents)}
        parent_index = np.array([local[nodes[n].parent] for n in order[start:stop]], dtype=np.intp)
        shape = (len(parents), stop - start)
        ones = (np.ones(stop - start), (parent_index, np.arange(stop - start)))
        sum_children: np.ndarray | sp.csr_matrix
        if shape[0] * shape[1] <= _DENSE_SUM_LIMIT:
            sum_children = sp.coo_matrix(ones, shape=shape).toarray()
        else:
            sum_children = sp.csr_matrix(ones, shape=shape)
        levels.append(
            Level(
                start, stop, parent_start, parent_start + len(parents), parent_index, sum_children
            )
        )

    max_hands = max(game.n_hands)
    fixed = np.ones((len(nodes), 2, max_hands))
    root_reach = np.zeros((2, max_hands))
    for p in (0, 1):
        fixed[:, p, game.n_hands[p] :] = 0.0
        root_reach[p, : game.n_hands[p]] = 1.0
    for node in nodes:
        if node.is_chance:
            assert node.outcome_masks is not None
            for o, child in enumerate(node.children):
                for p in (0, 1):
                    fixed[row_of_node[child], p, : game.n_hands[p]] = node.outcome_masks[p][o]

    edges = []
    for p in (0, 1):
        decision_rows = sorted(row_of_node[n.id] for n in nodes if n.is_decision and n.player == p)
        rows, parents, firsts, counts = [], [], [], []
        for drow in decision_rows:
            node = nodes[node_of_row[drow]]
            firsts.append(len(rows))
            counts.append(len(node.children))
            rows.extend(row_of_node[child] for child in node.children)
            parents.extend([drow] * len(node.children))
        edges.append(
            PlayerEdges(
                rows=np.array(rows, dtype=np.intp),
                parent_rows=np.array(parents, dtype=np.intp),
                first_edge=np.array(firsts, dtype=np.intp),
                n_actions=np.array(counts, dtype=np.intp),
                decision_nodes=tuple(int(node_of_row[r]) for r in decision_rows),
            )
        )
    terminals = game.terminal_ids
    plan = TreePlan(
        n_hands=game.n_hands,
        max_hands=max_hands,
        node_of_row=node_of_row,
        row_of_node=row_of_node,
        levels=tuple(levels),
        fixed_factor=fixed,
        root_reach=root_reach,
        terminal_rows=row_of_node[terminals],
        terminal_chance=game.path_chance[terminals][:, None],
        edges=(edges[0], edges[1]),
    )
    game.__dict__["_cfr_plan"] = plan
    return plan


def reach_pass(plan: TreePlan, factor: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Top-down: ``out[row, p]`` is player ``p``'s own reach (actions times chance masks).

    ``factor`` and ``out`` are ``[rows, 2, max_hands]``; both players go down together.
    """
    flat_factor = factor.reshape(plan.n_rows, -1)
    flat = out.reshape(plan.n_rows, -1)
    flat[0] = plan.root_reach.reshape(-1)
    for level in plan.levels:
        parents = flat[level.parent_start : level.parent_stop]
        np.multiply(
            parents[level.parent_index],
            flat_factor[level.start : level.stop],
            out=flat[level.start : level.stop],
        )
    return out


def value_pass(
    game: TreeGame, plan: TreePlan, player: int, factor: np.ndarray, reach: np.ndarray, out
) -> np.ndarray:
    """Bottom-up counterfactual values of ``player`` at every row, into ``out[rows, max_hands]``.

    ``out[row, h] = sum over terminals t below and opponent hands h' of prior(h, h') * chance(t)
    * opp_reach(t, h') * payoff(h, h') * (player's own factors strictly below row)``, as in
    ``solvers.exact.evaluation.counterfactual_values``. Padding columns of ``out`` start at zero.
    """
    n_own, n_opp = plan.n_hands[player], plan.n_hands[1 - player]
    opp_reach = reach[plan.terminal_rows, 1 - player, :n_opp] * plan.terminal_chance
    out[plan.terminal_rows, :n_own] = game.terminal_values_batch(player, opp_reach)
    own_factor = factor[:, player]
    for level in reversed(plan.levels):
        weighted = own_factor[level.start : level.stop] * out[level.start : level.stop]
        if isinstance(level.sum_children, np.ndarray):
            np.matmul(level.sum_children, weighted, out=out[level.parent_start : level.parent_stop])
        else:
            out[level.parent_start : level.parent_stop] = level.sum_children @ weighted
    return out


def realization_weights(plan: TreePlan, profile: list[np.ndarray]) -> list[np.ndarray]:
    """Per player, ``own reach at the edge's node * probability of the edge`` ([n_edges, hands]).

    ``profile`` holds both players' per-edge strategies. Summing these weights over several
    strategies and normalising per node mixes them as a player who picks one strategy up front
    would (Kuhn's theorem), which plain averaging of action probabilities does not.
    """
    factor = plan.fixed_factor.copy()
    for p, edges in enumerate(plan.edges):
        factor[edges.rows, p, : plan.n_hands[p]] = profile[p]
    reach = reach_pass(plan, factor, np.zeros_like(factor))
    return [
        reach[edges.parent_rows, p, : plan.n_hands[p]] * profile[p]
        for p, edges in enumerate(plan.edges)
    ]


def uniform_per_edge(plan: TreePlan, player: int) -> np.ndarray:
    """``[n_edges, n_hands]``: every action of a node equally likely, for every hand."""
    edges = plan.edges[player]
    per_action = np.repeat(1.0 / edges.n_actions, edges.n_actions)[:, None]
    return per_action * np.ones(plan.n_hands[player])


def normalise_per_node(plan: TreePlan, player: int, weights: np.ndarray) -> np.ndarray:
    """Behavioural strategy from per-edge weights; uniform where a node has no weight."""
    totals = plan.segment_sums(player, weights)
    reached = totals > 0
    normalised = weights / np.where(reached, totals, 1.0)
    return np.where(reached, normalised, uniform_per_edge(plan, player))


def strategy_from_weights(plan: TreePlan, weights: list[np.ndarray]) -> Strategy:
    """Both players' per-edge weights (strategy sums, realization weights) as one profile."""
    out: Strategy = {}
    for p in (0, 1):
        out.update(plan.strategy_dict(p, normalise_per_node(plan, p, weights[p])))
    return out
