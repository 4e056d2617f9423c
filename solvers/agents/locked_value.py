"""What a street's play is worth with the rest of the hand played well: the yardstick for
comparing re-solves of one street made on different trees.

A re-solve's own exploitability is measured in its own tree (a flop checked down after the flop,
or check or all-in on every street), so two trees' figures do not compare. Here one player's
first-street strategy from any tree is locked into a common, richer tree of the same spot
(``first_street_locks``: same first-street sizes, more sizes later), everything else is solved
(``solvers.algorithms.locked_cfr``, on the compiled walk), and the value that player can then
guarantee is bracketed by exact best responses (``locked_values``): below by what the opponent's
best response leaves it, above by its own lock-following best response. Against the common
tree's unlocked value, the difference is what the first-street play costs when both players
play the later streets as well as that tree allows (the bot re-solves them when they come).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from solvers.algorithms.base import make_solver
from solvers.algorithms.locked_cfr import LockedCFR
from solvers.errors import InputError
from solvers.exact.compiled_locks import first_street_decisions, locked_response_compiled
from solvers.exact.locks import Locks, NodeLock
from solvers.games.base import TreeError, TreeGame


def first_street_locks(
    source: TreeGame, strategy: Mapping[int, np.ndarray], target: TreeGame, player: int
) -> Locks:
    """``player``'s first-street rows of ``strategy`` (a profile of ``source``) as locks of
    ``target``: node by node through the public keys, action by action through the labels,
    an action ``target`` adds played with probability 0. A node ``source`` lacks (after an
    opponent's bet only ``target`` has) is left free: there the bot would re-solve."""
    if source.n_hands != target.n_hands or any(
        a != b for a, b in zip(source.hand_labels, target.hand_labels, strict=True)
    ):
        raise InputError("the two spots' ranges differ: locks would not carry over")
    locks: dict[int, NodeLock] = {}
    for node_id in sorted(first_street_decisions(target)):
        node = target.nodes[node_id]
        if node.player != player:
            continue
        try:
            theirs = source.node_by_key(node.key)
        except TreeError:  # a node the source tree lacks
            continue
        missing = set(theirs.actions) - set(node.actions)
        if missing:
            raise InputError(f"node {node.key!r}: {sorted(missing)} not in the common tree")
        rows = np.asarray(strategy[theirs.id], dtype=np.float64)
        probs = np.zeros((target.n_hands[player], len(node.actions)))
        for j, label in enumerate(theirs.actions):
            probs[:, node.actions.index(label)] = rows[:, j]
        probs /= probs.sum(axis=1, keepdims=True)
        locks[node_id] = NodeLock(np.ones(target.n_hands[player], dtype=bool), probs)
    return locks


@dataclass(frozen=True)
class LockedValue:
    """``player``'s value in the locked game, bracketed, in chips (the spot's pot units)."""

    player: int
    low: float
    """What the opponent's best response leaves ``player`` against its solved strategy: a
    value ``player`` can guarantee."""
    high: float
    """``player``'s lock-following best response against the opponent's solved strategy: no
    strategy that follows the locks guarantees more."""
    iterations: int
    seconds: float

    @property
    def middle(self) -> float:
        return 0.5 * (self.low + self.high)


def locked_values(
    game: TreeGame,
    locks: Locks,
    players: tuple[int, ...],
    target_pct: float,
    max_iterations: int,
    check_every: int = 20,
) -> dict[int, LockedValue]:
    """Solve ``game`` around ``locks`` (DCFR) until each of ``players``' brackets is within
    ``target_pct`` of the pot or ``max_iterations``; their brackets (no locks: the game's
    value for each player, from one solve)."""
    solver = LockedCFR(game, locks, variant="dcfr") if locks else make_solver(game, "dcfr")
    pot = float(game.pot)  # type: ignore[attr-defined]
    started = time.perf_counter()
    while True:
        solver.run(iterations=min(check_every, max_iterations - solver.iterations))
        mine = _responses(game, solver, locks)  # each player's lock-following best response
        brackets = {p: (-mine[1 - p], mine[p]) for p in players}
        width = max(high - low for low, high in brackets.values())
        if width <= target_pct / 100.0 * pot or solver.iterations >= max_iterations:
            break
    took = time.perf_counter() - started
    return {p: LockedValue(p, *brackets[p], solver.iterations, took) for p in players}


def _responses(game: TreeGame, solver, locks: Locks) -> tuple[float, float]:
    """Both players' lock-following best-response values against the solver's output (chips,
    each from its own side): player p can guarantee ``-R[1-p]`` and no more than ``R[p]``."""
    walk = solver.compiled
    if walk is None:
        raise InputError("locked_values needs the compiled walk (a hold'em spot)")
    sources = solver.output_sources()
    r0, r1 = (locked_response_compiled(game, walk, sources, p, locks) for p in (0, 1))
    return r0, r1
