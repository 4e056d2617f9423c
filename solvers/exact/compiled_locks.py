"""Node locks on the compiled walk, for locks on the spot's first street.

The numpy level walk serves any lock (``locks.py``) but holds ``[rows, 2, hands]`` arrays: a
flop spot's do not fit in memory. Locks on the decisions above the first chance node (a flop
strategy locked into a flop spot, the first street's play of any spot) run on the compiled walk:

- **Solving**: regret matching reads exactly the lock when a locked row's regrets are the lock's
  probabilities (positive where the lock plays, zero elsewhere), so the solver writes them there
  (``pinned_rows``)
  before and after every pass (and zeroes the predictions): the compiled loops form the locked
  strategy, and what their update wrote at those rows is gone before anything reads it.
- **Measuring**: a lock-following best response is the compiled best response below the locked
  rows (no lock is there) and, over the first street's few rows, the locked decisions and their
  ancestors valued again: a locked (node, hand) takes the lock-weighted sum of its children, a
  free one of the player's the maximum, and an opponent's row changes by what its changed
  children changed (its value is their sum).

``tests/test_compiled_locks.py`` checks both against the numpy walk.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from solvers.exact.compiled_walk import MODE_RESPOND, CompiledWalk, Source
from solvers.exact.locks import LockedEntries, Locks, locked_entries
from solvers.exact.walk import build_plan
from solvers.games.base import TreeGame


def first_street_decisions(game: TreeGame) -> set[int]:
    """Decision nodes with no chance node above them (the first street's)."""
    found: set[int] = set()
    stack = [game.root]
    while stack:
        node = stack.pop()
        if node.is_decision:
            found.add(node.id)
            stack.extend(game.nodes[c] for c in node.children)
    return found


def compiled_can_lock(game: TreeGame, locks: Locks) -> bool:
    """Whether every lock is on the first street (then the compiled walk serves them)."""
    return set(locks) <= first_street_decisions(game)


def suit_symmetric(game: TreeGame, locks: Locks) -> bool:
    """Whether every lock reads the same for a hand and its suit twin (the suit-isomorphic
    walk values a left-out twin from its image, which needs that); True with no twins."""
    swap = game.suit_swap() if hasattr(game, "suit_swap") else None
    if swap is None:
        return True
    for node_id, lock in locks.items():
        twin = swap.hands[game.nodes[node_id].player]
        rows = np.where(lock.hands[:, None], lock.probs, 0.0)
        if not (np.array_equal(lock.hands, lock.hands[twin]) and np.allclose(rows, rows[twin])):
            return False
    return True


def pinned_rows(
    game: TreeGame, walk: CompiledWalk, locks: Locks
) -> tuple[LockedEntries, LockedEntries]:
    """Both players' locks laid out on ``walk``'s compact edges."""
    row_of = build_plan(game).row_of_node
    out = []
    for p in (0, 1):
        first = {
            n: int(walk.plan.first_edge[row_of[n]]) for n in locks if game.nodes[n].player == p
        }
        out.append(locked_entries(game, locks, walk.plan.n_hands[p], first))
    return out[0], out[1]


def locked_response_compiled(
    game: TreeGame, walk: CompiledWalk, sources: list[Source], player: int, locks: Locks
) -> float:
    """``locks.locked_response_value`` on the compiled walk: ``player``'s best-response value
    against the opponent's part of ``sources`` while following its own locks (chips)."""
    with walk.lock:
        root = walk.root_values(player, sources, MODE_RESPOND)
        mine = {n: lock for n, lock in locks.items() if game.nodes[n].player == player}
        if not mine:
            return float(root.sum())
        plan = walk.plan
        row_of = build_plan(game).row_of_node
        top = plan.schedule.top_index
        buffer = walk.top_player_values(player)
        opp_reach = walk.top_reach[1 - player]

        def kept(node_id: int) -> np.ndarray:
            return buffer[top[row_of[node_id]]].astype(np.float64)

        changed: set[int] = set()
        for node_id in mine:  # the locked decisions and their ancestors
            while node_id >= 0 and node_id not in changed:
                changed.add(node_id)
                node_id = game.nodes[node_id].parent
        new: dict[int, np.ndarray] = {}
        for node_id in sorted(changed, key=lambda n: row_of[n], reverse=True):  # children first
            node = game.nodes[node_id]
            if node.player != player:  # the sum of its children: add what they changed
                new[node_id] = kept(node_id) + sum(
                    (new[c] - kept(c) for c in node.children if c in new), np.zeros(len(root))
                )
                continue
            children = np.empty((len(node.children), len(root)))
            ends = []
            for j, child in enumerate(node.children):
                if child in new:
                    children[j] = new[child]
                elif game.nodes[child].is_terminal:
                    ends.append(j)
                else:
                    children[j] = kept(child)
            if ends:
                ids = np.asarray(node.children)[ends]
                reach = opp_reach[top[row_of[node_id]]].astype(np.float64)
                terminals = plan.terminal_index[row_of[ids]]
                chance = game.path_chance[ids]
                children[ends] = game.terminal_values_of(  # type: ignore[attr-defined]
                    player, terminals, reach[None, :] * chance[:, None]
                )
            best = children.max(axis=0)
            lock = mine.get(node_id)
            if lock is None:
                new[node_id] = best
            else:
                weighted = (lock.probs.T * children).sum(axis=0)
                new[node_id] = np.where(lock.hands, weighted, best)
        return float(new[game.root.id].sum())


def locked_exploitability_compiled(
    game: TreeGame, walk: CompiledWalk, sources: list[Source], locks: Mapping
) -> float:
    """``locks.locked_exploitability`` on the compiled walk: ``(BR_0 + BR_1) / 2`` in chips
    with lock-following best responses."""
    return 0.5 * sum(locked_response_compiled(game, walk, sources, p, locks) for p in (0, 1))
