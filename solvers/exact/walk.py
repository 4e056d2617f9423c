"""The tree plan and its numpy executor: the public tree flattened into index arrays (one plan)
and walked level by level with numpy.

There is one plan and two executors. Every exact question (EV, best response, exploitability,
Bayes ranges, action values) and every full-width solver (CFR family, fictitious play, double
oracle) walks this plan; ``executor.py`` decides which executor runs it: this numpy walk, which
serves every game and is the reference, or the compiled loops of ``compiled_walk.py``, which
serve hold'em spots and are tested against this one. Either way a walk costs a few calls per
depth of the tree, not a Python call per node. Nodes are renumbered into *rows*, breadth first,
with the non-terminal nodes of each depth before its terminals. Then:

- each depth level is one contiguous block of rows, whose parents are the contiguous block of
  non-terminal rows of the level above;
- the top-down reach pass is, per level, one gather from the parent block times a factor;
- the bottom-up value pass is, per level, a product and one 0/1 matrix product that sums each
  parent's children (faster than ``np.add.reduceat`` on these small blocks), written straight
  into the parent block; a best response then overwrites its own decision rows of that block
  with the maximum over their children (one padded gather per level).

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

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING

import numpy as np

from solvers.games.base import NodeKind, Strategy, TreeGame

if TYPE_CHECKING:
    import scipy.sparse as sp


@dataclass(frozen=True)
class Level:
    """Rows ``start:stop`` form one depth; their parents are rows ``parent_start:parent_stop``."""

    start: int
    stop: int
    parent_start: int
    parent_stop: int
    parent_index: np.ndarray
    """Parent of each row of the level, counted from ``parent_start``."""

    @functools.cached_property
    def sum_children(self) -> np.ndarray | sp.csr_matrix:
        """``[n_parents, n_rows_of_level]`` 0/1: row i sums the children of parent i. Dense for
        small levels (a BLAS product beats ``np.add.reduceat`` there), sparse for wide ones.
        Built on first use: the compiled walk never reads it, and a spot's solve then does not
        load scipy (22 MB)."""
        import scipy.sparse as sp  # noqa: PLC0415

        n_rows = self.stop - self.start
        shape = (self.parent_stop - self.parent_start, n_rows)
        ones = (np.ones(n_rows), (self.parent_index, np.arange(n_rows)))
        if shape[0] * shape[1] <= _DENSE_SUM_LIMIT:
            return sp.coo_matrix(ones, shape=shape).toarray()
        return sp.csr_matrix(ones, shape=shape)


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
class ResponseLevel:
    """One player's decision nodes whose children form one level, for the best-response max."""

    rows: np.ndarray
    """Rows of the decision nodes (all in the level's parent block)."""
    slots: np.ndarray
    """Their decision slots in ``PlayerEdges`` order."""
    child_rows: np.ndarray
    """``[k, max_actions]`` rows of each node's children, padded with the first child."""
    padding: np.ndarray | None
    """``[k, max_actions, 1]`` True where ``child_rows`` is padding; None when there is none."""


@dataclass(frozen=True)
class TreePlan:
    n_hands: tuple[int, int]
    max_hands: int
    node_of_row: np.ndarray
    row_of_node: np.ndarray
    levels: tuple[Level, ...]
    chance_rows: np.ndarray
    """Rows of chance outcomes."""
    chance_masks: tuple[tuple[tuple[np.ndarray, np.ndarray], int], ...]
    """Per chance outcome row: its node's ``outcome_masks`` (shared, not copied) and index."""
    root_reach: np.ndarray
    """``[2, max_hands]``: 1 for real hands, 0 for padding."""
    terminal_rows: np.ndarray
    """Rows of ``game.terminal_ids``, in that order (the order of ``terminal_values_batch``)."""
    terminal_chance: np.ndarray
    """``[n_terminals, 1]``: product of chance probabilities on each terminal's path."""
    edges: tuple[PlayerEdges, PlayerEdges]
    responses: tuple[tuple[ResponseLevel | None, ...], tuple[ResponseLevel | None, ...]]
    """Per player and level (as ``levels``), that player's decisions among the level's parents."""

    @property
    def n_rows(self) -> int:
        return len(self.node_of_row)

    @functools.cached_property
    def fixed_factor(self) -> np.ndarray:
        """``[rows, 2, max_hands]``: the factors that do not depend on the strategy (chance
        masks, ones, zero padding); strategy entries are written over a copy each iteration.
        Built on first use: the compiled walk of big hold'em trees never needs it."""
        fixed = np.ones((self.n_rows, 2, self.max_hands))
        for p in (0, 1):
            fixed[:, p, self.n_hands[p] :] = 0.0
        for row, (masks, o) in zip(self.chance_rows, self.chance_masks, strict=True):
            for p in (0, 1):
                fixed[row, p, : self.n_hands[p]] = masks[p][o]
        return fixed

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

    def per_edge(self, player: int, strategy: Mapping[int, np.ndarray]) -> np.ndarray:
        """The per-edge ``[n_edges, n_hands]`` layout of ``player``'s part of ``strategy``."""
        edges = self.edges[player]
        return np.concatenate(
            [np.asarray(strategy[node_id], dtype=float).T for node_id in edges.decision_nodes]
        )


_DENSE_SUM_LIMIT = 1 << 16
"""Largest level (parents times children) summed by a dense 0/1 matrix product."""


@dataclass(frozen=True)
class NodeArrays:
    """The tree's shape per node id, read once from the nodes so that plans are built with
    array operations, not a Python loop over nodes."""

    kind: np.ndarray
    """0 decision, 1 chance, 2 terminal (int8)."""
    player: np.ndarray
    """The acting player of a decision, else -1."""
    parent: np.ndarray
    child_start: np.ndarray
    """Children of node ``n`` are ``child_ids[child_start[n]:child_start[n + 1]]``, in action
    order."""
    child_ids: np.ndarray

    def children(self, ids: np.ndarray) -> np.ndarray:
        """Every child of ``ids``, node by node, each node's in action order."""
        return csr_gather(self.child_start, self.child_ids, ids)


_KINDS = {NodeKind.DECISION: 0, NodeKind.CHANCE: 1, NodeKind.TERMINAL: 2}


def node_arrays(game: TreeGame) -> NodeArrays:
    """``NodeArrays`` of ``game`` (kept in ``game.derived``)."""

    def build() -> NodeArrays:
        nodes = game.nodes
        n = len(nodes)
        counts = np.fromiter((len(x.children) for x in nodes), dtype=np.intp, count=n)
        child_start = np.zeros(n + 1, dtype=np.intp)
        np.cumsum(counts, out=child_start[1:])
        children = chain.from_iterable(x.children for x in nodes)
        return NodeArrays(
            kind=np.fromiter((_KINDS[x.kind] for x in nodes), dtype=np.int8, count=n),
            player=np.fromiter((x.player for x in nodes), dtype=np.intp, count=n),
            parent=np.fromiter((x.parent for x in nodes), dtype=np.intp, count=n),
            child_start=child_start,
            child_ids=np.fromiter(children, dtype=np.intp, count=int(child_start[-1])),
        )

    return game.derived.get("node_arrays", None, build)


def csr_gather(start: np.ndarray, values: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """``values[start[i]:start[i + 1]]`` for every ``i`` of ``ids``, concatenated in order."""
    firsts, counts = start[ids], start[ids + 1] - start[ids]
    offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return values[np.repeat(firsts, counts) + offsets]


def _row_order(arrays: NodeArrays) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Breadth first, non-terminals first within each depth; the row bounds of each depth."""
    terminal = arrays.kind == 2
    parts: list[np.ndarray] = []
    bounds: list[tuple[int, int]] = []
    level = np.zeros(1, dtype=np.intp)
    done = 0
    while len(level):
        ends = terminal[level]
        level = np.concatenate([level[~ends], level[ends]])
        bounds.append((done, done + len(level)))
        done += len(level)
        parts.append(level)
        level = arrays.children(level)
    return np.concatenate(parts), bounds


def build_plan(game: TreeGame) -> TreePlan:
    """The flattened plan of ``game`` (kept in ``game.derived``)."""
    return game.derived.get("plan", None, lambda: _build_plan(game))


def _build_plan(game: TreeGame) -> TreePlan:
    nodes = game.nodes
    arrays = node_arrays(game)
    node_of_row, bounds = _row_order(arrays)
    row_of_node = np.empty(len(nodes), dtype=np.intp)
    row_of_node[node_of_row] = np.arange(len(nodes))

    levels = []
    for (parent_start, parent_end), (start, stop) in zip(bounds[:-1], bounds[1:], strict=True):
        # the level above's non-terminal rows come first: they are the parents, in row order
        n_parents = int((arrays.kind[node_of_row[parent_start:parent_end]] != 2).sum())
        parent_index = row_of_node[arrays.parent[node_of_row[start:stop]]] - parent_start
        levels.append(Level(start, stop, parent_start, parent_start + n_parents, parent_index))

    max_hands = max(game.n_hands)
    root_reach = np.zeros((2, max_hands))
    for p in (0, 1):
        root_reach[p, : game.n_hands[p]] = 1.0
    chance_ids = np.flatnonzero(arrays.kind == 1)
    chance_rows = row_of_node[arrays.children(chance_ids)]
    chance_masks: list[tuple[tuple[np.ndarray, np.ndarray], int]] = []
    for node_id in chance_ids.tolist():
        node = nodes[node_id]
        assert node.outcome_masks is not None
        chance_masks.extend((node.outcome_masks, o) for o in range(len(node.children)))

    edges = []
    for p in (0, 1):
        ids = np.flatnonzero((arrays.kind == 0) & (arrays.player == p))
        decision_rows = np.sort(row_of_node[ids])
        decisions = node_of_row[decision_rows]
        counts = arrays.child_start[decisions + 1] - arrays.child_start[decisions]
        edges.append(
            PlayerEdges(
                rows=row_of_node[arrays.children(decisions)],
                parent_rows=np.repeat(decision_rows, counts),
                first_edge=(np.cumsum(counts) - counts).astype(np.intp),
                n_actions=counts.astype(np.intp),
                decision_nodes=tuple(decisions.tolist()),
            )
        )
    parent_starts = np.array([level.parent_start for level in levels], dtype=np.intp)
    responses = tuple(_response_levels(edges[p], parent_starts) for p in (0, 1))
    terminals = game.terminal_ids
    plan = TreePlan(
        n_hands=game.n_hands,
        max_hands=max_hands,
        node_of_row=node_of_row,
        row_of_node=row_of_node,
        levels=tuple(levels),
        chance_rows=chance_rows.astype(np.intp),
        chance_masks=tuple(chance_masks),
        root_reach=root_reach,
        terminal_rows=row_of_node[terminals],
        terminal_chance=game.path_chance[terminals][:, None],
        edges=(edges[0], edges[1]),
        responses=(responses[0], responses[1]),
    )
    return plan


def _response_levels(
    edges: PlayerEdges, parent_starts: np.ndarray
) -> tuple[ResponseLevel | None, ...]:
    """Group a player's decision slots by the level their children are in."""
    n_slots = len(edges.decision_nodes)
    slot_level = np.searchsorted(parent_starts, edges.parent_rows[edges.first_edge], "right") - 1
    out: list[ResponseLevel | None] = []
    for index in range(len(parent_starts)):
        slots = np.flatnonzero(slot_level == index) if n_slots else np.zeros(0, dtype=np.intp)
        if len(slots) == 0:
            out.append(None)
            continue
        counts = edges.n_actions[slots]
        width = int(counts.max())
        offsets = np.minimum(np.arange(width)[None, :], counts[:, None] - 1)
        child_rows = edges.rows[edges.first_edge[slots][:, None] + offsets]
        padded = np.arange(width)[None, :] >= counts[:, None]
        out.append(
            ResponseLevel(
                rows=edges.parent_rows[edges.first_edge[slots]],
                slots=slots,
                child_rows=child_rows,
                padding=padded[:, :, None] if padded.any() else None,
            )
        )
    return tuple(out)


def profile_factor(plan: TreePlan, per_edge: list[np.ndarray | None]) -> np.ndarray:
    """The ``factor`` array of a profile given per player as per-edge probabilities.

    A player given as None keeps factor 1 on their edges: the layout a best response of that
    player walks with (their own choices are then made by ``value_pass(respond=True)``).
    """
    factor = plan.fixed_factor.copy()
    for p, edges in enumerate(plan.edges):
        probs = per_edge[p]
        if probs is not None and edges.n_edges:
            factor[edges.rows, p, : plan.n_hands[p]] = probs
    return factor


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
    game: TreeGame,
    plan: TreePlan,
    player: int,
    factor: np.ndarray,
    reach: np.ndarray,
    out: np.ndarray,
    respond: bool = False,
) -> np.ndarray:
    """Bottom-up counterfactual values of ``player`` at every row, into ``out[rows, max_hands]``.

    ``out[row, h] = sum over terminals t below and opponent hands h' of prior(h, h') * chance(t)
    * opp_reach(t, h') * payoff(h, h') * (player's own factors strictly below row)``. With
    ``respond`` the player best-responds instead: ``factor`` must hold 1 on the player's edges
    (``profile_factor`` with None for them), and each of their decision rows takes the per-hand
    maximum over its children; use ``best_actions`` to read the choices. Padding columns of
    ``out`` must start at zero.
    """
    n_own, n_opp = plan.n_hands[player], plan.n_hands[1 - player]
    opp_reach = reach[plan.terminal_rows, 1 - player, :n_opp] * plan.terminal_chance
    out[plan.terminal_rows, :n_own] = game.terminal_values_batch(player, opp_reach)
    own_factor = factor[:, player]
    responses = plan.responses[player]
    for index in range(len(plan.levels) - 1, -1, -1):
        level = plan.levels[index]
        weighted = own_factor[level.start : level.stop] * out[level.start : level.stop]
        if isinstance(level.sum_children, np.ndarray):
            np.matmul(level.sum_children, weighted, out=out[level.parent_start : level.parent_stop])
        else:
            out[level.parent_start : level.parent_stop] = level.sum_children @ weighted
        response = responses[index]
        if respond and response is not None:
            out[response.rows] = _children_values(out, response).max(axis=1)
    return out


def _children_values(out: np.ndarray, response: ResponseLevel) -> np.ndarray:
    """``[k, max_actions, hands]`` child values of a level's decisions; padding is -inf."""
    values = out[response.child_rows]
    if response.padding is not None:
        values = np.where(response.padding, -np.inf, values)
    return values


def best_actions(plan: TreePlan, player: int, values: np.ndarray) -> np.ndarray:
    """Per-edge one-hot ``[n_edges, n_hands]``: the action with the best child value per hand.

    ``values`` is the output of ``value_pass`` (any mode): a child's counterfactual value is what
    the player gets by taking that action, so the argmax is a pure best response where the pass
    responded. Ties go to the first action.
    """
    edges = plan.edges[player]
    n_hands = plan.n_hands[player]
    pure = np.zeros((edges.n_edges, n_hands))
    columns = np.arange(n_hands)
    for response in plan.responses[player]:
        if response is None:
            continue
        best = _children_values(values, response)[:, :, :n_hands].argmax(axis=1)  # [k, hands]
        pure[edges.first_edge[response.slots][:, None] + best, columns[None, :]] = 1.0
    return pure


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
