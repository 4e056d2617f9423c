"""numba kernels of ``compiled_walk.py`` (imported only there, so numba loads only for spots).

Their inputs are the named records of ``kernel_inputs.py`` (the plan's arrays, a strategy
source, the fused update) and of ``games/combo_terminals.py`` (the terminal tables, each
player's hands), read field by field, never by position. A terminal is valued by
``games/holdem/terminal_kernels.py``, the same loops the numpy walk's hold'em terminals use.

Each level's rows are split into interleaved chunks run on all cores (``prange``); a chunk
allocates its scratch once. Inner loops run over hands on contiguous rows, so LLVM vectorises
them. Accumulators are float64 whatever the storage dtype.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from solvers.exact.quantised_rows import store_block
from solvers.games.holdem.terminal_kernels import N_CARDS, terminal_value

set_threads = numba.set_num_threads
"""Threads of the next parallel regions of the calling thread (``compiled_walk`` picks)."""
ALL_THREADS: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set at import by numba

_CHANCE = 2
_TERMINAL = 3
_RESPOND = 1
_CFR = 2


@njit(cache=True, nogil=True)
def _strategy(weights, predictions, matching, scales, slot, first, count, out):
    """One decision's strategy ``out[:count, hands]`` from its per-edge ``weights``: regret
    matching (``matching``: positive part of regrets plus predictions, when given) or plain
    normalisation (strategy sums, or probabilities); uniform where nothing is positive.
    16-bit ``weights`` (``scales`` has rows) are codes: the decision's scale (``slot``) turns
    them into values; it cancels in the normalisation but not against predictions.
    ``out[count]`` is scratch (one more row than actions). Loops run over hands innermost."""
    n = weights.shape[1]
    total = out[count]
    total[:n] = 0.0
    scale = scales[slot] if scales.shape[0] > 0 else 1.0
    for j in range(count):
        row = out[j]
        source = weights[first + j]
        if predictions.shape[0] > 0:
            ahead = predictions[first + j]
            for h in range(n):
                value = source[h] * scale + ahead[h]
                row[h] = max(value, 0.0) if matching else value
        elif matching:
            for h in range(n):
                row[h] = max(source[h], 0.0)
        else:
            for h in range(n):
                row[h] = source[h]
        for h in range(n):
            total[h] += row[h]
    uniform = 1.0 / count
    for h in range(n):
        total[h] = 1.0 / total[h] if total[h] > 0.0 else -1.0
    for j in range(count):
        row = out[j]
        for h in range(n):
            row[h] = row[h] * total[h] if total[h] > 0.0 else uniform


@njit(cache=True, parallel=True)
def reach_down(plan, source0, source1, reach0, reach1):
    """Own reach of both players at every inner row (``PlanArrays`` ``plan``; strategies from
    ``StrategySource`` ``source0`` and ``source1``); the root row must hold 1.

    Parent by parent: a decision's strategy is formed once from its player's weights."""
    kind = plan.kind
    child_start = plan.child_start
    child_rows = plan.child_rows
    first_edge = plan.first_edge
    chance_mask = plan.chance_mask
    masks = plan.masks
    inner_index = plan.inner_index
    level_rows = plan.level_rows
    decision_slot = plan.decision_slot
    has_inner_child = plan.has_inner_child
    n_hands0 = reach0.shape[1]
    n_hands1 = reach1.shape[1]
    max_children = 1
    for row in range(child_start.shape[0] - 1):
        max_children = max(max_children, child_start[row + 1] - child_start[row])
    for level in range(level_rows.shape[0] - 1):
        lo = level_rows[level, 0]
        hi = level_rows[level, 1]
        n_rows = hi - lo
        n_chunks = min(n_rows, 64)
        for chunk in prange(n_chunks):
            sigma = np.empty((max_children + 1, max(n_hands0, n_hands1)))
            for row in range(lo + chunk, hi, n_chunks):
                if not has_inner_child[row]:
                    continue
                parent = inner_index[row]
                actor = kind[row]
                first_child = child_start[row]
                n_children = child_start[row + 1] - first_child
                if actor == 0:
                    _strategy(
                        source0.weights, source0.predictions, source0.matching, source0.scales,
                        decision_slot[row], first_edge[row], n_children, sigma,
                    )  # fmt: skip
                elif actor == 1:
                    _strategy(
                        source1.weights, source1.predictions, source1.matching, source1.scales,
                        decision_slot[row], first_edge[row], n_children, sigma,
                    )  # fmt: skip
                for j in range(n_children):
                    child = child_rows[first_child + j]
                    inner = inner_index[child]
                    if inner < 0:  # a terminal, or under a left-out suit twin
                        continue
                    if actor == 0:
                        for h in range(n_hands0):
                            reach0[inner, h] = reach0[parent, h] * sigma[j, h]
                        reach1[inner, :] = reach1[parent, :]
                    elif actor == 1:
                        for h in range(n_hands1):
                            reach1[inner, h] = reach1[parent, h] * sigma[j, h]
                        reach0[inner, :] = reach0[parent, :]
                    else:
                        m = chance_mask[child]
                        for h in range(n_hands0):
                            reach0[inner, h] = reach0[parent, h] * masks[m, 0, h]
                        for h in range(n_hands1):
                            reach1[inner, h] = reach1[parent, h] * masks[m, 1, h]


@njit(cache=True, parallel=True)
def values_up(
    player, mode, plan, own_source, opp_source, own_reach, opp_reach, values, tables, own_hands,
    opp_hands, update, best, own_swap,
):  # fmt: skip
    """Counterfactual values of ``player`` at every inner row, deepest level first.

    ``plan``: ``PlanArrays``; ``*_source``: ``StrategySource``; ``tables``: ``TerminalTables``
    seen from ``player``; ``*_hands``: ``ComboHands``; ``update``: ``FusedUpdate``. Strategies
    come from per-edge weights as in ``_strategy``. ``mode`` 0: the profile's values; 1: best
    response (max over actions, argmax into ``best`` when it has rows); 2: ``update`` applied to
    ``player``'s source (its weights are regrets) at every own decision. ``own_swap``: each
    hand's suit-swapped twin."""
    kind = plan.kind
    child_start = plan.child_start
    child_rows = plan.child_rows
    first_edge = plan.first_edge
    chance_mask = plan.chance_mask
    masks = plan.masks
    inner_index = plan.inner_index
    terminal_index = plan.terminal_index
    terminal_chance = plan.terminal_chance
    level_rows = plan.level_rows
    decision_slot = plan.decision_slot
    has_terminal_child = plan.has_terminal_child
    doubled = plan.doubled
    opp_weights = opp_hands.weights
    opponent = 1 - player
    n_own = values.shape[1]
    n_opp = opp_reach.shape[1]
    max_children = 1
    for row in range(child_start.shape[0] - 1):
        max_children = max(max_children, child_start[row + 1] - child_start[row])
    for level in range(level_rows.shape[0] - 1, -1, -1):
        lo = level_rows[level, 0]
        hi = level_rows[level, 1]
        n_rows = hi - lo
        n_chunks = min(n_rows, 64)
        for chunk in prange(n_chunks):
            child_values = np.empty((max_children, n_own))
            sigma = np.empty((max_children + 1, max(n_own, n_opp)))
            opp_weight = np.empty(n_opp)
            out = np.empty(n_own)
            totals = np.empty(N_CARDS)
            weaker = np.empty(N_CARDS)
            for row in range(lo + chunk, hi, n_chunks):
                inner = inner_index[row]
                if inner < 0:
                    continue
                actor = kind[row]
                first_child = child_start[row]
                n_children = child_start[row + 1] - first_child
                first = first_edge[row]
                if actor == opponent and has_terminal_child[row]:
                    _strategy(
                        opp_source.weights, opp_source.predictions, opp_source.matching,
                        opp_source.scales, decision_slot[row], first, n_children, sigma,
                    )  # fmt: skip
                shared = False  # the weight is the same for every terminal child of own rows
                for j in range(n_children):
                    child = child_rows[first_child + j]
                    if kind[child] != _TERMINAL:
                        below = inner_index[child]
                        if below < 0:  # a left-out suit twin: counted with its partner
                            continue
                        for h in range(n_own):
                            child_values[j, h] = values[below, h]
                        continue
                    terminal = terminal_index[child]
                    chance = terminal_chance[terminal]
                    if actor == opponent:
                        for h in range(n_opp):
                            opp_weight[h] = (
                                opp_reach[inner, h] * sigma[j, h] * opp_weights[h] * chance
                            )
                    elif actor == _CHANCE:
                        m = chance_mask[child]
                        for h in range(n_opp):
                            opp_weight[h] = (
                                opp_reach[inner, h] * masks[m, opponent, h] * opp_weights[h]
                            ) * chance
                    elif not shared:  # siblings share their path's chance weight too
                        for h in range(n_opp):
                            opp_weight[h] = opp_reach[inner, h] * opp_weights[h] * chance
                        shared = True
                    terminal_value(
                        terminal, opp_weight, child_values[j], tables, own_hands, opp_hands,
                        totals, weaker,
                    )  # fmt: skip
                if actor == player:
                    if mode == _RESPOND:
                        for h in range(n_own):
                            top = child_values[0, h]
                            choice = 0
                            for j in range(1, n_children):
                                if child_values[j, h] > top:
                                    top = child_values[j, h]
                                    choice = j
                            values[inner, h] = top
                            out[h] = choice
                        if best.shape[0] > 0:
                            slot = decision_slot[row]
                            for h in range(n_own):
                                best[slot, h] = np.int8(out[h])
                        continue
                    _strategy(
                        own_source.weights, own_source.predictions, own_source.matching,
                        own_source.scales, decision_slot[row], first, n_children, sigma,
                    )  # fmt: skip
                    out[:n_own] = 0.0
                    for j in range(n_children):
                        for h in range(n_own):
                            out[h] += sigma[j, h] * child_values[j, h]
                    for h in range(n_own):
                        values[inner, h] = out[h]
                    if mode == _CFR:
                        _cfr_update(
                            first, decision_slot[row], n_children, child_values, out,
                            own_reach[inner], sigma, own_source.weights, own_source.scales,
                            own_source.predictions, update,
                        )  # fmt: skip
                elif actor == opponent:
                    out[:n_own] = 0.0
                    for j in range(n_children):
                        for h in range(n_own):
                            out[h] += child_values[j, h]
                    for h in range(n_own):
                        values[inner, h] = out[h]
                else:
                    for h in range(n_own):
                        values[inner, h] = 0.0
                    for j in range(n_children):
                        child = child_rows[first_child + j]
                        if inner_index[child] < 0:
                            continue
                        m = chance_mask[child]
                        for h in range(n_own):
                            values[inner, h] += masks[m, player, h] * child_values[j, h]
                        if doubled[child]:  # its twin: the same values with hands swapped
                            for h in range(n_own):
                                twin = own_swap[h]
                                values[inner, h] += masks[m, player, twin] * child_values[j, twin]


@njit(cache=True, nogil=True)
def _cfr_update(
    first, slot, n_actions, child_values, node_values, own_reach, sigma, regrets, scales,
    predictions, update,
):  # fmt: skip
    """``update`` (a ``FusedUpdate``) at one decision, for every hand: regrets, predictions
    and strategy sums (``sigma`` is the strategy played this iteration). 16-bit storage
    (``scales`` has rows): the decision's block is decoded, updated in float64 in
    ``child_values`` (read for the last time here) and stored back with a new scale
    (``quantised_rows.store_block``); the sums likewise with ``update.sum_scales``."""
    sums = update.strategy_sums
    weight = update.sum_weight
    floor = update.floor
    discount = update.discount
    positive = update.positive
    negative = update.negative
    n = node_values.shape[0]
    predictive = predictions.shape[0] > 0
    seed = update.dither_seed
    if scales.shape[0] > 0:
        scale = np.float64(scales[slot])
        for j in range(n_actions):
            e = first + j
            for h in range(n):
                instant = child_values[j, h] - node_values[h]
                value = regrets[e, h] * scale + instant
                if floor and value < 0.0:
                    value = 0.0
                if discount:
                    value *= positive if value >= 0.0 else negative
                child_values[j, h] = value
                if predictive:
                    predictions[e, h] = instant
        scales[slot] = store_block(child_values, n_actions, n, regrets, first, True, 2 * seed)
        if weight > 0.0:
            sum_scales = update.sum_scales
            scale = np.float64(sum_scales[slot])
            for j in range(n_actions):
                e = first + j
                for h in range(n):
                    child_values[j, h] = sums[e, h] * scale + weight * own_reach[h] * sigma[j, h]
            sum_scales[slot] = store_block(
                child_values, n_actions, n, sums, first, False, 2 * seed + 1 if seed else 0
            )
        return
    for j in range(n_actions):
        e = first + j
        for h in range(n):
            instant = child_values[j, h] - node_values[h]
            value = regrets[e, h] + instant
            if floor and value < 0.0:
                value = 0.0
            if discount:
                value *= positive if value >= 0.0 else negative
            regrets[e, h] = value
            if weight > 0.0:
                sums[e, h] += weight * own_reach[h] * sigma[j, h]
            if predictive:
                predictions[e, h] = instant


@njit(cache=True, parallel=True)
def strategies(slot_first, slot_actions, source, out):
    """``_strategy`` of every decision (``slot_first``/``slot_actions`` per slot) of a
    ``StrategySource`` into ``out``."""
    max_actions = 1
    for slot in range(slot_actions.shape[0]):
        max_actions = max(max_actions, slot_actions[slot])
    n_slots = slot_first.shape[0]
    n_chunks = min(n_slots, 64)
    for chunk in prange(n_chunks):
        sigma = np.empty((max_actions + 1, source.weights.shape[1]))
        for slot in range(chunk, n_slots, n_chunks):
            first = slot_first[slot]
            count = slot_actions[slot]
            _strategy(
                source.weights, source.predictions, source.matching, source.scales, slot, first,
                count, sigma,
            )  # fmt: skip
            out[first : first + count] = sigma[:count]
