"""numba loop of the resolve gadget's iterations (``compiled_gadget.CompiledGadgetCFR``).

A river re-solve is 300 iterations of a tree of tens to hundreds of rows: each pass of the
compiled walk takes a fraction of a millisecond, and calling it from Python (the records, the
thread setting, the root's numpy update) cost as much again. This loop runs a chunk of
iterations in one call, with the walk's own kernels and the root's update in the same
arithmetic as the Python step, so the iterates are the same to the bit
(``tests/test_safe_resolve.py``; ``benchmarks/bench_gadget_loop.py`` times both). Imported only
by ``compiled_gadget.py``, when a gadget solve runs, so numba loads only then.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.exact.compiled_kernels import iteration_update, reach_down, values_up

_CFR = 2
_BOTH = 3  # reach_down's mask: both players


@njit(cache=True, nogil=True)
def gadget_iterations(
    first, numbers, discount, opponent, follow_floor, plan, source0, source1, update0, update1,
    reach0, reach1, values0, values1, tables0, tables1, hands0, hands1, swap0, swap1,
    alternative, regrets, follow,
):  # fmt: skip
    """Gadget DCFR iterations ``first`` on (``numbers[k]``: sum weight, positive and negative
    discounts). Per iteration and player, as ``CompiledRootCFR._compiled_update``: both reaches
    down; the ``opponent``'s scaled per hand by ``max(follow, follow_floor)`` (rounded to the walk's
    dtype); the player's CFR values up with its update; after the opponent's pass, regret
    matching at the root over terminate (``alternative``) and follow (its root values), with
    the same discounts, into ``regrets`` (``[2, hands]``) and ``follow``."""
    no_best = np.zeros((0, 0), dtype=np.int8)
    opp_reach = reach0 if opponent == 0 else reach1
    scale = np.empty(opp_reach.shape[1], opp_reach.dtype)
    for k in range(numbers.shape[0]):
        iteration = first + k
        for player in range(2):
            reach0[0, :] = 1.0
            reach1[0, :] = 1.0
            reach_down(plan, source0, source1, reach0, reach1, _BOTH)
            for h in range(scale.shape[0]):
                scale[h] = max(follow[h], follow_floor)
            for row in range(opp_reach.shape[0]):
                for h in range(scale.shape[0]):
                    opp_reach[row, h] *= scale[h]
            if player == 0:
                update = iteration_update(update0, iteration, numbers[k, 0], numbers[k, 1],
                                          numbers[k, 2])  # fmt: skip
                values_up(
                    player, _CFR, plan, source0, source1, reach0, reach1, values0, tables0,
                    hands0, hands1, update, no_best, swap0,
                )  # fmt: skip
                root = values0[0]
            else:
                update = iteration_update(update1, iteration, numbers[k, 0], numbers[k, 1],
                                          numbers[k, 2])  # fmt: skip
                values_up(
                    player, _CFR, plan, source1, source0, reach1, reach0, values1, tables1,
                    hands1, hands0, update, no_best, swap1,
                )  # fmt: skip
                root = values1[0]
            if player == opponent:
                _root_update(root, alternative, regrets, follow, discount, numbers[k])


@njit(cache=True, nogil=True)
def _root_update(root, alternative, regrets, follow, discount, numbers):
    """``CompiledGadgetCFR._update_root`` per hand, in its order of operations."""
    for h in range(follow.shape[0]):
        follows = np.float64(root[h])
        here = (1.0 - follow[h]) * alternative[h] + follow[h] * follows
        terminate = regrets[0, h] + (alternative[h] - here)
        stay = regrets[1, h] + (follows - here)
        if discount:
            terminate *= numbers[1] if terminate >= 0 else numbers[2]
            stay *= numbers[1] if stay >= 0 else numbers[2]
        regrets[0, h] = terminate
        regrets[1, h] = stay
        total = max(terminate, 0.0) + max(stay, 0.0)
        follow[h] = max(stay, 0.0) / total if total > 0 else 0.5
