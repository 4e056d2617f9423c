"""Node locks: parts of a strategy held fixed, and how far a profile is from the locked game's
equilibrium.

A lock fixes one decision node's action probabilities for some (or all) of the acting player's
hands. Solving "the rest" means finding an equilibrium of the *locked game*, where the locked
(node, hand) information sets are chance-like: the locked player keeps their other choices, the
opponent keeps all. So the convergence measure is the locked game's exploitability, in which
each player's best response must follow the locks: at a locked (node, hand) the value is the
lock-weighted sum of the children, not their maximum. That is one walk per player with a
masked maximum, on the same level plan as every other exact question.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from solvers.errors import InputError
from solvers.exact.walk import TreePlan, build_plan, profile_factor, reach_pass
from solvers.games.base import Strategy, TreeGame


@dataclass(frozen=True)
class NodeLock:
    """The fixed part of one decision node: ``probs`` rows of the ``hands`` marked True."""

    hands: np.ndarray
    """``[n_hands]`` bool: the acting player's hands whose row is locked."""
    probs: np.ndarray
    """``[n_hands, n_actions]``; rows of locked hands are distributions, the rest are ignored."""


Locks = Mapping[int, NodeLock]
"""Node id to its lock."""


@dataclass(frozen=True)
class LockedEntries:
    """One player's locked (edge, hand) entries of a per-edge array ``[n_edges, n_hands]``."""

    edges: np.ndarray
    """Edges of the locked nodes (every action of each)."""
    mask: np.ndarray
    """``[len(edges), n_hands]`` True where the hand's row at that node is locked."""
    probs: np.ndarray
    """``[len(edges), n_hands]`` the locked probabilities (0 where ``mask`` is False)."""

    def apply(self, per_edge: np.ndarray, fill: np.ndarray | float | None = None) -> np.ndarray:
        """Overwrite the locked entries of a per-edge array in place with the lock (or
        ``fill``); returns it."""
        if self.edges.size:
            block = per_edge[self.edges]
            per_edge[self.edges] = np.where(self.mask, self.probs if fill is None else fill, block)
        return per_edge


@dataclass(frozen=True)
class EdgeLocks(LockedEntries):
    """One player's locks in the numpy walk's edge layout, with its decision slots."""

    slot_mask: np.ndarray
    """``[n_decision_slots, n_hands]`` True where a (node, hand) is locked."""


def locked_entries(
    game: TreeGame, locks: Locks, n_hands: int, first_edge: Mapping[int, int]
) -> LockedEntries:
    """The locks of the nodes in ``first_edge`` (node id to the first of its edges in some
    per-edge layout) as entries of that layout; one player's nodes, ``n_hands`` hands."""
    picked, masks, probs = [], [], []
    for node_id in sorted(first_edge):
        lock, first = locks[node_id], int(first_edge[node_id])
        width = len(game.nodes[node_id].actions)
        picked.append(np.arange(first, first + width))
        masks.append(np.broadcast_to(lock.hands, (width, n_hands)))
        probs.append(np.where(lock.hands[None, :], lock.probs.T, 0.0))
    if not picked:
        empty = np.zeros((0, n_hands))
        return LockedEntries(np.zeros(0, dtype=np.intp), empty.astype(bool), empty)
    return LockedEntries(np.concatenate(picked), np.vstack(masks), np.vstack(probs))


def check_locks(game: TreeGame, locks: Locks) -> None:
    """Shapes and distributions; a broken lock is the caller's error, never a silent fix."""
    for node_id, lock in locks.items():
        node = game.nodes[node_id]
        if not node.is_decision:
            raise InputError(f"node {node.key!r} is not a decision node: it cannot be locked")
        shape = (game.n_hands[node.player], len(node.actions))
        if lock.probs.shape != shape or lock.hands.shape != shape[:1]:
            raise InputError(f"lock of node {node.key!r} has shape {lock.probs.shape}, not {shape}")
        rows = lock.probs[lock.hands]
        if not np.isfinite(rows).all() or (rows < -1e-9).any():
            raise InputError(f"lock of node {node.key!r} has a negative or non-finite probability")
        bad = np.flatnonzero(np.abs(rows.sum(axis=1) - 1.0) > 1e-6)
        if bad.size:
            hand = game.hand_labels[node.player][int(np.flatnonzero(lock.hands)[bad[0]])]
            raise InputError(
                f"lock of node {node.key!r}, hand {hand}: probabilities sum to "
                f"{rows[bad[0]].sum():.6g}, not 1"
            )


def edge_locks(game: TreeGame, locks: Locks) -> tuple[EdgeLocks, EdgeLocks]:
    """Both players' locks laid out on the walk's edges."""
    check_locks(game, locks)
    plan = build_plan(game)
    out = []
    for p, edges in enumerate(plan.edges):
        slots = {n: k for k, n in enumerate(edges.decision_nodes) if n in locks}
        slot_mask = np.zeros((len(edges.decision_nodes), plan.n_hands[p]), dtype=bool)
        for node_id, slot in slots.items():
            slot_mask[slot] = locks[node_id].hands
        first = {n: int(edges.first_edge[slot]) for n, slot in slots.items()}
        entries = locked_entries(game, locks, plan.n_hands[p], first)
        out.append(EdgeLocks(entries.edges, entries.mask, entries.probs, slot_mask))
    return out[0], out[1]


def apply_locks(strategy: Strategy, locks: Locks) -> Strategy:
    """A copy of ``strategy`` whose locked rows are exactly the locks."""
    out = dict(strategy)
    for node_id, lock in locks.items():
        rows = np.array(out[node_id], dtype=float, copy=True)
        rows[lock.hands] = lock.probs[lock.hands]
        out[node_id] = rows
    return out


def locked_response_value(
    game: TreeGame, strategy: Mapping[int, np.ndarray], player: int, lock: EdgeLocks
) -> float:
    """``player``'s best-response value against the opponent's part of ``strategy`` when the
    player must follow their own locks (chips, ``player``'s point of view)."""
    plan = build_plan(game)
    per_edge: list[np.ndarray | None] = [None, None]
    per_edge[1 - player] = plan.per_edge(1 - player, strategy)
    factor = profile_factor(plan, per_edge)
    n_own = plan.n_hands[player]
    if lock.edges.size:
        rows = plan.edges[player].rows[lock.edges]
        factor[rows, player, :n_own] = np.where(lock.mask, lock.probs, 1.0)
    reach = reach_pass(plan, factor, np.zeros_like(factor))
    values = _masked_response_pass(game, plan, player, factor, reach, lock)
    return float(values[plan.row_of_node[0], :n_own].sum())


def _masked_response_pass(
    game: TreeGame,
    plan: TreePlan,
    player: int,
    factor: np.ndarray,
    reach: np.ndarray,
    lock: EdgeLocks,
) -> np.ndarray:
    """``walk.value_pass(respond=True)``, except that locked (node, hand) pairs keep the
    lock-weighted sum of their children instead of the maximum."""
    n_own, n_opp = plan.n_hands[player], plan.n_hands[1 - player]
    out = np.zeros((plan.n_rows, plan.max_hands))
    opp_reach = reach[plan.terminal_rows, 1 - player, :n_opp] * plan.terminal_chance
    out[plan.terminal_rows, :n_own] = game.terminal_values_batch(player, opp_reach)
    own_factor = factor[:, player]
    padded_mask = np.zeros((lock.slot_mask.shape[0], plan.max_hands), dtype=bool)
    padded_mask[:, :n_own] = lock.slot_mask
    for index in range(len(plan.levels) - 1, -1, -1):
        level = plan.levels[index]
        weighted = own_factor[level.start : level.stop] * out[level.start : level.stop]
        out[level.parent_start : level.parent_stop] = level.sum_children @ weighted
        response = plan.responses[player][index]
        if response is None:
            continue
        children = out[response.child_rows]
        if response.padding is not None:
            children = np.where(response.padding, -np.inf, children)
        best = children.max(axis=1)
        out[response.rows] = np.where(padded_mask[response.slots], out[response.rows], best)
    return out


def locked_exploitability(
    game: TreeGame, strategy: Mapping[int, np.ndarray], locks: Locks
) -> float:
    """``(BR_0 + BR_1) / 2`` in chips with lock-following best responses: zero exactly at an
    equilibrium of the locked game (for a profile that follows the locks)."""
    both = edge_locks(game, locks)
    return 0.5 * sum(locked_response_value(game, strategy, p, both[p]) for p in (0, 1))
