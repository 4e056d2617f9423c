"""The abstract betting tree of the full game, flattened to arrays for the compiled solver.

Chance is not in the tree: the solver samples a whole deal (both hands and five board cards)
per iteration, so a street's end is a plain edge to the next street's first decision, where the
card abstraction hands each player a new bucket. Nodes are numbered in depth-first order;
node ``n``'s actions are edges ``edge_start[n] .. edge_start[n] + n_actions[n]``, each with its
child and its real action (``f``, ``c`` or ``r`` to a total), so that an agent can follow a real
hand down the tree. Terminals carry what the loser pays: the folder's chips, or at a showdown
the common total (stacks are equal, so a called all-in leaves equal totals).

A decision node's regrets and strategy sums live in one flat array at
``offset[n] + bucket * n_actions[n] + action`` (``slot_offsets``), so memory is fixed up front.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from solvers.abstraction.betting import BettingAbstraction
from solvers.errors import InputError
from solvers.games.holdem.bet_sizes import BetContext
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlConfig, HunlState

DECISION, FOLD_END, SHOWDOWN_END = 0, 1, 2
EDGE_FOLD, EDGE_CALL, EDGE_RAISE = 0, 1, 2
MAX_TREE_NODES = 5_000_000


@dataclass(frozen=True)
class BettingTree:
    kind: np.ndarray
    """int8 per node: DECISION, FOLD_END or SHOWDOWN_END."""
    player: np.ndarray
    """int8: the seat to act (decisions) or the seat that folded (FOLD_END)."""
    street: np.ndarray
    """int8: the street of a decision (0 preflop .. 3 river), or where the hand ended."""
    amount: np.ndarray
    """int32: at a terminal, the chips the loser pays."""
    committed: np.ndarray
    """int32 [nodes, 2]: each seat's total so far."""
    edge_start: np.ndarray
    n_actions: np.ndarray
    edge_child: np.ndarray
    edge_kind: np.ndarray
    edge_to: np.ndarray
    """int32: a raise's total (0 for fold and call)."""

    @property
    def n_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def decisions(self) -> np.ndarray:
        return np.flatnonzero(self.kind == DECISION)

    def actions(self, node: int) -> tuple[Action, ...]:
        """The real actions of a decision node's edges."""
        start, count = int(self.edge_start[node]), int(self.n_actions[node])
        names = (FOLD, CALL, RAISE)
        return tuple(
            Action(names[self.edge_kind[e]], int(self.edge_to[e]))
            for e in range(start, start + count)
        )

    def slot_offsets(self, n_buckets: tuple[int, ...]) -> tuple[np.ndarray, int]:
        """Per node, where its ``[buckets, actions]`` block starts in the flat arrays; and the
        total number of slots. ``n_buckets[street]`` buckets at each street's decisions."""
        sizes = np.zeros(self.n_nodes, dtype=np.int64)
        decision = self.kind == DECISION
        per_street = np.asarray(n_buckets, dtype=np.int64)[self.street.astype(np.int64)]
        sizes[decision] = per_street[decision] * self.n_actions[decision]
        offsets = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        return offsets.astype(np.int64), int(sizes.sum())


def root_state(config: HunlConfig, street: int = 0, committed: int | None = None) -> HunlState:
    """The start of a hand, or of a later street with both players in for ``committed`` chips
    (a subgame such as a river spot)."""
    if street == 0:
        return HunlState.initial(config)
    if committed is None or not config.big_blind <= committed < config.stack:
        raise InputError("a subgame root needs each player's total, below the stack")
    return HunlState(config, street, (committed, committed), 1, config.big_blind, 0,
                     history=("",) * (street + 1))  # fmt: skip


def build_tree(betting: BettingAbstraction, root: HunlState) -> BettingTree:
    """Every abstract betting sequence from ``root``, depth first."""
    kind: list[int] = []
    player: list[int] = []
    street: list[int] = []
    amount: list[int] = []
    committed: list[tuple[int, int]] = []
    edges_of: list[list[tuple[int, int, int]]] = []

    def add(state: HunlState, level: int, street_start: int) -> int:
        node = len(kind)
        if node >= MAX_TREE_NODES:
            raise InputError(f"the betting abstraction has over {MAX_TREE_NODES:,} nodes")
        committed.append(state.committed)
        edges_of.append([])
        if state.is_over:
            folded = state.folded >= 0
            kind.append(FOLD_END if folded else SHOWDOWN_END)
            player.append(state.folded if folded else -1)
            street.append(min(state.street, 3))
            amount.append(state.committed[state.folded] if folded else min(state.committed))
            return node
        kind.append(DECISION)
        player.append(state.to_act)
        street.append(state.street)
        amount.append(0)
        legal = state.legal()
        children: list[tuple[int, int, int]] = []
        if legal.can_fold:
            children.append((EDGE_FOLD, 0, add(state.apply(Action(FOLD)), level, street_start)))
        after = state.apply(Action(CALL))
        if after.street != state.street:
            children.append((EDGE_CALL, 0, add(after, 0, after.committed[0])))
        else:
            children.append((EDGE_CALL, 0, add(after, level, street_start)))
        seat = state.to_act
        ctx = BetContext(
            own=state.committed[seat],
            opp=state.committed[1 - seat],
            street_start=street_start,
            cap=state.config.stack,
            last_increment=state.last_raise,
            streets_left=4 - state.street,
        )
        for to in betting.raise_amounts(state.street, level, ctx, legal):
            after = state.apply(Action(RAISE, to))
            children.append((EDGE_RAISE, to, add(after, level + 1, street_start)))
        edges_of[node] = children
        return node

    add(replace(root), 0, root.committed[0] if root.street else 0)
    n = len(kind)
    n_actions = np.array([len(e) for e in edges_of], dtype=np.int8)
    edge_start = np.concatenate(([0], np.cumsum(n_actions, dtype=np.int64)[:-1])).astype(np.int32)
    flat = [edge for edges in edges_of for edge in edges]
    return BettingTree(
        kind=np.array(kind, dtype=np.int8),
        player=np.array(player, dtype=np.int8),
        street=np.array(street, dtype=np.int8),
        amount=np.array(amount, dtype=np.int32),
        committed=np.array(committed, dtype=np.int32).reshape(n, 2),
        edge_start=edge_start,
        n_actions=n_actions,
        edge_child=np.array([e[2] for e in flat], dtype=np.int32),
        edge_kind=np.array([e[0] for e in flat], dtype=np.int8),
        edge_to=np.array([e[1] for e in flat], dtype=np.int32),
    )
