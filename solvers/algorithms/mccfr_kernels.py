"""numba loops of the blueprint's external-sampling MCCFR (imported only by ``blueprint_mccfr``).

One call runs a batch of sampled deals over both cores (``prange``). For each deal, each seat in
turn is the traverser: at its own decisions every action is walked and the regrets of the
bucket's row grow by the action's value minus the node's; at the opponent's one action is sampled
from regret matching and the opponent's strategy sum grows by its current strategy (the
stochastically weighted average of external sampling). Updates are lock-free (Hogwild, as in
Pluribus): two threads rarely touch one row at once, and a lost float32 add is noise.

Pruning (Pluribus): once enabled, an action whose regret is below ``prune_below`` is skipped by
the traverser with probability ``prune_probability``, except on the river and for actions that
end the hand. Randomness is a xorshift64 stream per deal, seeded by the caller, so a batch is
reproducible on one thread.

The walk is recursive, and numba's on-disk cache of a recursive function crashes the next
process that loads it (a stale address of the recursive call), so these two compile in every
process (about 5 s) instead of being cached.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

_FOLD_END = 1
_SHOWDOWN_END = 2
_MAX_ACTIONS = 16


@njit(cache=True, nogil=True, inline="always")
def _uniform(state):
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return float(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def _match(regret, base, na, sigma):
    """Regret matching of one row into ``sigma[:na]``."""
    total = 0.0
    for a in range(na):
        r = regret[base + a]
        if r > 0.0:
            total += r
    if total > 0.0:
        for a in range(na):
            r = regret[base + a]
            sigma[a] = r / total if r > 0.0 else 0.0
    else:
        for a in range(na):
            sigma[a] = 1.0 / na


@njit(cache=False, nogil=True)
def _walk(
    node, p, buckets, winner, kind, player, street, amount, edge_start, n_actions, edge_child,
    offset, regret, strategy_sum, rng, scratch, depth, prune, prune_below, prune_probability,
    regret_floor,
):  # fmt: skip
    k = kind[node]
    if k == _FOLD_END:
        return -float(amount[node]) if player[node] == p else float(amount[node])
    if k == _SHOWDOWN_END:
        won = float(amount[node] * winner)
        return won if p == 0 else -won
    actor = player[node]
    na = n_actions[node]
    base = offset[node] + buckets[actor, street[node]] * na
    first = edge_start[node]
    sigma = scratch[depth, 0]
    values = scratch[depth, 1]
    _match(regret, base, na, sigma)
    if actor != p:
        for a in range(na):
            strategy_sum[base + a] += sigma[a]
        u = _uniform(rng)
        chosen = na - 1
        acc = 0.0
        for a in range(na):
            acc += sigma[a]
            if u < acc:
                chosen = a
                break
        return _walk(
            edge_child[first + chosen], p, buckets, winner, kind, player, street, amount,
            edge_start, n_actions, edge_child, offset, regret, strategy_sum, rng, scratch,
            depth + 1, prune, prune_below, prune_probability, regret_floor,
        )  # fmt: skip
    may_prune = prune and street[node] < 3
    value = 0.0
    explored = scratch[depth, 2]
    for a in range(na):
        child = edge_child[first + a]
        explored[a] = 1.0
        if may_prune and kind[child] == 0 and regret[base + a] < prune_below:
            if _uniform(rng) < prune_probability:
                explored[a] = 0.0
                continue
        v = _walk(
            child, p, buckets, winner, kind, player, street, amount, edge_start, n_actions,
            edge_child, offset, regret, strategy_sum, rng, scratch, depth + 1, prune, prune_below,
            prune_probability, regret_floor,
        )  # fmt: skip
        values[a] = v
        value += sigma[a] * v
    for a in range(na):
        if explored[a] > 0.0:
            r = regret[base + a] + (values[a] - value)
            regret[base + a] = r if r > regret_floor else regret_floor
    return value


@njit(cache=False, nogil=True, parallel=True)
def run_batch(
    buckets, winners, seeds, root, kind, player, street, amount, edge_start, n_actions,
    edge_child, offset, regret, strategy_sum, max_depth, prune, prune_below, prune_probability,
    regret_floor,
):  # fmt: skip
    """Both seats traverse every deal of the batch; returns the summed root values of seat 0."""
    n = buckets.shape[0]
    totals = np.zeros(n)
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = seeds[i] | np.uint64(1)
        scratch = np.empty((max_depth + 1, 3, _MAX_ACTIONS))
        for p in range(2):
            v = _walk(
                root, p, buckets[i], winners[i], kind, player, street, amount, edge_start,
                n_actions, edge_child, offset, regret, strategy_sum, rng, scratch, 0, prune,
                prune_below, prune_probability, regret_floor,
            )  # fmt: skip
            if p == 0:
                totals[i] = v
    return totals.sum()
