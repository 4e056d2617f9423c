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

from solvers.exact.kernel_inputs import FusedUpdate
from solvers.exact.quantised_rows import store_block
from solvers.games.holdem.terminal_kernels import (
    N_CARDS,
    batch_clear,
    batch_finish,
    batch_sweep_add,
    terminal_value,
)

set_threads = numba.set_num_threads
"""Threads of the next parallel regions of the calling thread (``compiled_walk`` picks)."""
ALL_THREADS: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set at import by numba

_CHANCE = 2
_TERMINAL = 3
_RESPOND = 1
_CFR = 2
_PHASE_DOWN = 0  # walk_pass's steps: reach down the top rows, the subtrees, values up the top
_PHASE_SUBTREES = 1
_PHASE_UP = 2


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
def reach_down(plan, source0, source1, reach0, reach1, players):
    """Own reach of the ``players`` (a mask: 1 player 0, 2 player 1, 3 both) at every inner
    row (``PlanArrays`` ``plan``; strategies from ``StrategySource`` ``source0`` and
    ``source1``); the root row must hold 1. A value or best-response pass reads only the
    opponent's reach, so it asks for that one alone.

    Parent by parent: a decision's strategy is formed once from its player's weights."""
    level_rows = plan.level_rows
    sigma_rows = _max_children(plan) + 1
    for level in range(level_rows.shape[0] - 1):
        lo = level_rows[level, 0]
        hi = level_rows[level, 1]
        n_rows = hi - lo
        n_chunks = min(n_rows, 64)
        for chunk in prange(n_chunks):
            sigma = np.empty((sigma_rows, max(reach0.shape[1], reach1.shape[1])))
            for row in range(lo + chunk, hi, n_chunks):
                _reach_row(
                    plan, plan.inner_index, row, source0, source1, reach0, reach1, sigma, players
                )  # fmt: skip


@njit(cache=True, nogil=True)
def _max_children(plan):
    child_start = plan.child_start
    most = 1
    for row in range(child_start.shape[0] - 1):
        most = max(most, child_start[row + 1] - child_start[row])
    return most


@njit(cache=True, nogil=True)
def _reach_row(plan, index, row, source0, source1, reach0, reach1, sigma, players):
    """The reach of ``row``'s walked children from its own, for the ``players`` in the mask
    (1, 2 or 3; the other's rows are left as they are); ``index`` maps rows to rows of
    ``reach0``/``reach1`` (-1: not there). ``sigma``: scratch of ``_strategy``."""
    if not plan.has_inner_child[row]:
        return
    _row_strategy(plan, row, source0, source1, players, sigma)
    _reach_children(plan, index, row, reach0, reach1, sigma, players)


@njit(cache=True, nogil=True)
def _row_strategy(plan, row, source0, source1, players, sigma):
    """The strategy at ``row`` into ``sigma`` when its actor is one of the ``players`` (a mask);
    nothing at a chance row or another player's decision."""
    actor = plan.kind[row]
    n_children = plan.child_start[row + 1] - plan.child_start[row]
    if actor == 0 and (players & 1) != 0:
        _strategy(
            source0.weights, source0.predictions, source0.matching, source0.scales,
            plan.decision_slot[row], plan.first_edge[row], n_children, sigma,
        )  # fmt: skip
    elif actor == 1 and (players & 2) != 0:
        _strategy(
            source1.weights, source1.predictions, source1.matching, source1.scales,
            plan.decision_slot[row], plan.first_edge[row], n_children, sigma,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def _reach_children(plan, index, row, reach0, reach1, sigma, players):
    """``_reach_row`` once the strategy at ``row`` is in ``sigma``."""
    kind = plan.kind
    child_start = plan.child_start
    child_rows = plan.child_rows
    masks = plan.masks
    n_hands0 = reach0.shape[1]
    n_hands1 = reach1.shape[1]
    parent = index[row]
    actor = kind[row]
    first_child = child_start[row]
    n_children = child_start[row + 1] - first_child
    want0 = (players & 1) != 0
    want1 = (players & 2) != 0
    for j in range(n_children):
        child = child_rows[first_child + j]
        inner = index[child]
        if inner < 0:  # a terminal, or under a left-out suit twin
            continue
        if actor == 0:
            if want0:
                for h in range(n_hands0):
                    reach0[inner, h] = reach0[parent, h] * sigma[j, h]
            if want1:
                for h in range(n_hands1):
                    reach1[inner, h] = reach1[parent, h]
        elif actor == 1:
            if want1:
                for h in range(n_hands1):
                    reach1[inner, h] = reach1[parent, h] * sigma[j, h]
            if want0:
                for h in range(n_hands0):
                    reach0[inner, h] = reach0[parent, h]
        else:
            m = plan.chance_mask[child]
            if want0:
                for h in range(n_hands0):
                    reach0[inner, h] = reach0[parent, h] * masks[m, 0, h]
            if want1:
                for h in range(n_hands1):
                    reach1[inner, h] = reach1[parent, h] * masks[m, 1, h]


@njit(cache=True, nogil=True)
def _value_scratch(plan, n_own, n_opp):
    """Per-thread scratch of ``_value_row``: child values, strategy, opponent weights, one
    row, and the terminal kernels' per-card sums."""
    most = _max_children(plan)
    return (
        np.empty((most, n_own)),
        np.empty((most + 1, max(n_own, n_opp))),
        np.empty(n_opp),
        np.empty(n_own),
        np.empty(N_CARDS),
        np.empty(N_CARDS),
    )


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
    level_rows = plan.level_rows
    for level in range(level_rows.shape[0] - 1, -1, -1):
        lo = level_rows[level, 0]
        hi = level_rows[level, 1]
        n_rows = hi - lo
        n_chunks = min(n_rows, 64)
        for chunk in prange(n_chunks):
            scratch = _value_scratch(plan, values.shape[1], opp_reach.shape[1])
            no_slot, no_values = _no_batch()
            for row in range(lo + chunk, hi, n_chunks):
                _value_row(
                    player, mode, plan, plan.inner_index, row, own_source, opp_source,
                    own_reach, opp_reach, values, tables, own_hands, opp_hands, update, best,
                    own_swap, scratch, no_slot, no_values, _no_cache(),
                )  # fmt: skip


@njit(cache=True, nogil=True)
def _no_cache():
    """The strategy cache of ``_value_row`` where strategies are formed on the spot."""
    return np.empty((0, 0, 0))


@njit(cache=True, nogil=True)
def _no_batch():
    """The batch arguments of ``_value_row`` where no terminal is batched."""
    return np.full(0, -1, dtype=np.int64), np.empty((0, 0))


@njit(cache=True, nogil=True)
def _value_row(
    player, mode, plan, index, row, own_source, opp_source, own_reach, opp_reach, values,
    tables, own_hands, opp_hands, update, best, own_swap, scratch, batch_slot, batch_values,
    cache,
):  # fmt: skip
    """``values_up`` at one row: its children's values (rows ``index``, terminals valued on
    the spot, or read from column ``batch_slot[terminal]`` of ``batch_values`` where a group
    of subtrees swept its showdowns together: ``_batch_showdowns``) combined into its own,
    the update or the best response applied there. ``cache`` (rows ``index``, or none) holds
    the strategies formed on the way down: the opponent's at every decision, the player's own
    too in an update pass (``_walk_chunk``)."""
    inner = index[row]
    if inner < 0:
        return
    child_values, sigma, opp_weight, out, totals, weaker = scratch
    kind = plan.kind
    child_start = plan.child_start
    child_rows = plan.child_rows
    chance_mask = plan.chance_mask
    masks = plan.masks
    terminal_index = plan.terminal_index
    terminal_chance = plan.terminal_chance
    opp_weights = opp_hands.weights
    opponent = 1 - player
    n_own = values.shape[1]
    n_opp = opp_reach.shape[1]
    actor = kind[row]
    first_child = child_start[row]
    n_children = child_start[row + 1] - first_child
    first = plan.first_edge[row]
    cached = cache.shape[0] > 0
    if cached and actor != _CHANCE and (actor == opponent or mode == _CFR):
        sigma = cache[inner]
    elif actor == opponent and plan.has_terminal_child[row]:
        _strategy(
            opp_source.weights, opp_source.predictions, opp_source.matching,
            opp_source.scales, plan.decision_slot[row], first, n_children, sigma,
        )  # fmt: skip
    shared = False  # the weight is the same for every terminal child of own rows
    for j in range(n_children):
        child = child_rows[first_child + j]
        if kind[child] != _TERMINAL:
            below = index[child]
            if below < 0:  # a left-out suit twin: counted with its partner
                continue
            for h in range(n_own):
                child_values[j, h] = values[below, h]
            continue
        terminal = terminal_index[child]
        if batch_slot.shape[0] > 0 and batch_slot[terminal] >= 0:
            k = batch_slot[terminal]
            for h in range(n_own):
                child_values[j, h] = batch_values[h, k]
            continue
        chance = terminal_chance[terminal]
        if actor == opponent:
            for h in range(n_opp):
                opp_weight[h] = opp_reach[inner, h] * sigma[j, h] * opp_weights[h] * chance
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
            terminal, opp_weight, child_values[j], tables, own_hands, opp_hands, totals, weaker
        )
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
                slot = plan.decision_slot[row]
                for h in range(n_own):
                    best[slot, h] = np.int8(out[h])
            return
        if not (cached and mode == _CFR):
            _strategy(
                own_source.weights, own_source.predictions, own_source.matching,
                own_source.scales, plan.decision_slot[row], first, n_children, sigma,
            )  # fmt: skip
        out[:n_own] = 0.0
        for j in range(n_children):
            for h in range(n_own):
                out[h] += sigma[j, h] * child_values[j, h]
        for h in range(n_own):
            values[inner, h] = out[h]
        if mode == _CFR:
            _cfr_update(
                first, plan.decision_slot[row], n_children, child_values, out,
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
            if index[child] < 0:
                continue
            m = chance_mask[child]
            for h in range(n_own):
                values[inner, h] += masks[m, player, h] * child_values[j, h]
            if plan.doubled[child]:  # its twin: the same values with hands swapped
                for h in range(n_own):
                    twin = own_swap[h]
                    values[inner, h] += masks[m, player, twin] * child_values[j, twin]


@njit(cache=True, parallel=True)
def walk_pass(
    player, mode, plan, schedule, own_source, opp_source, top_reach0, top_reach1, top_values,
    tables, own_hands, opp_hands, update, best, own_swap, workers, batches, cache_rows,
    action_rows, group_weights,
):  # fmt: skip
    """``reach_down`` and ``values_up`` of ``player`` in one pass on the ``Schedule``
    ``schedule``: reach down the rows above the cut by levels (in ``top_*``, the root row
    holding 1), then each subtree in a per-thread scratch (reach down from its head, values
    up, the head's values written back; ``workers`` scratches, interleaved over the
    subtrees), then values up the rows above the cut. Each row's
    arithmetic is ``values_up``'s, so the results are the same to the bit. The schedule's
    subtrees may be groups (several heads), whose values go up by the segments of ``batches``
    (``ShowdownBatches``), each sweeping its showdowns together first. With ``cache_rows`` (the
    longest subtree's rows, or 0) a scratch keeps the strategies formed on the way down,
    ``action_rows`` rows each (a decision's most actions and ``_strategy``'s scratch row), for
    the way up, where they are formed again otherwise. ``group_weights`` (one per subtree
    group, or empty for all at 1) samples chance below the cut: a group of weight 0 is not
    walked (its heads' values are 0), another's heads' values are scaled by its weight.

    The three phases are steps of one parallel loop (``_walk_chunk`` does a chunk of any of
    them). numba compiles each ``prange`` loop into a function of its own and optimises the
    row kernels it calls again inside each: with one loop instead of three, the first compile
    of a signature took 30 to 37 s instead of 49 s here."""
    top_levels = schedule.top_levels
    sub_start = schedule.sub_start
    n_levels = top_levels.shape[0]
    n_subtrees = sub_start.shape[0] - 1
    sigma_rows = _max_children(plan) + 1
    most = _longest_subtree(sub_start)
    n_steps = 2 * n_levels  # levels but the last going down, the subtrees, every level up
    # np.int64(chunk) below: the loop index is unsigned in the compiled loop, and int64 plus
    # uint64 is float64 to numba, which would compile _walk_chunk a second time
    for step in range(n_steps):
        if step < n_levels - 1:
            phase = _PHASE_DOWN
            lo = top_levels[step, 0]
            hi = top_levels[step, 1]
            n_chunks = min(hi - lo, 64)
        elif step == n_levels - 1:
            phase = _PHASE_SUBTREES
            lo = 0
            hi = n_subtrees
            n_chunks = min(n_subtrees, workers)
        else:
            phase = _PHASE_UP
            level = n_steps - 1 - step
            lo = top_levels[level, 0]
            hi = top_levels[level, 1]
            n_chunks = min(hi - lo, 64)
        for chunk in prange(n_chunks):
            _walk_chunk(
                phase, lo, np.int64(chunk), hi, n_chunks, sigma_rows, most, player, mode, plan,
                schedule, own_source, opp_source, top_reach0, top_reach1, top_values, tables,
                own_hands, opp_hands, update, best, own_swap, batches, cache_rows, action_rows,
                group_weights,
            )  # fmt: skip


@njit(cache=True, nogil=True)
def iteration_update(update, iteration, sum_weight, positive, negative):
    """``update`` (a ``FusedUpdate``) with the numbers of another iteration: the same arrays
    and flags, the dither seed ``iteration``."""
    return FusedUpdate(
        strategy_sums=update.strategy_sums,
        sum_scales=update.sum_scales,
        dither_seed=iteration,
        sum_weight=sum_weight,
        floor=update.floor,
        discount=update.discount,
        positive=positive,
        negative=negative,
    )


@njit(cache=True, nogil=True)
def _longest_subtree(sub_start):
    most = 1
    for s in range(sub_start.shape[0] - 1):
        most = max(most, sub_start[s + 1] - sub_start[s])
    return most


@njit(cache=True, nogil=True)
def _walk_chunk(
    phase, lo, chunk, hi, stride, sigma_rows, most, player, mode, plan, schedule, own_source,
    opp_source, top_reach0, top_reach1, top_values, tables, own_hands, opp_hands, update, best,
    own_swap, batches, cache_rows, action_rows, group_weights,
):  # fmt: skip
    """One chunk of a ``walk_pass`` step: rows (or subtrees) ``lo + chunk``, then every
    ``stride``-th below ``hi``, with the chunk's own scratch (``sigma_rows`` rows of strategy,
    reach and values for ``most`` rows of a subtree)."""
    first = lo + chunk
    top_index = schedule.top_index
    top_rows = schedule.top_rows
    n_own = top_values.shape[1]
    n_opp = top_reach1.shape[1] if player == 0 else top_reach0.shape[1]
    # the update reads the player's own reach; values and best responses the opponent's only
    players = 3 if mode == _CFR else (2 if player == 0 else 1)
    source0, source1 = (own_source, opp_source) if player == 0 else (opp_source, own_source)
    if phase != _PHASE_UP:
        sigma = np.empty((sigma_rows, max(top_reach0.shape[1], top_reach1.shape[1])))
    if phase == _PHASE_DOWN:
        for i in range(first, hi, stride):
            _reach_row(
                plan, top_index, top_rows[i], source0, source1, top_reach0, top_reach1, sigma,
                players,
            )  # fmt: skip
        return
    scratch = _value_scratch(plan, n_own, n_opp)
    no_slot, no_values = _no_batch()
    if phase == _PHASE_UP:
        own_top, opp_top = (top_reach0, top_reach1) if player == 0 else (top_reach1, top_reach0)
        for i in range(first, hi, stride):
            _value_row(
                player, mode, plan, top_index, top_rows[i], own_source, opp_source,
                own_top, opp_top, top_values, tables, own_hands, opp_hands, update, best,
                own_swap, scratch, no_slot, no_values, _no_cache(),
            )  # fmt: skip
        return
    local_index = schedule.local_index
    sub_rows = schedule.sub_rows
    sub_start = schedule.sub_start
    reach0 = np.empty((most, top_reach0.shape[1]), top_reach0.dtype)
    reach1 = np.empty((most, top_reach1.shape[1]), top_reach1.dtype)
    values = np.empty((most, n_own), top_values.dtype)
    columns = batches.most
    batch_weights = np.empty((n_opp, columns))
    batch_values = np.empty((n_own, columns))
    batch_scales = np.empty(columns)
    batch_terminals = np.empty(columns, dtype=np.int64)
    batch_weaker = np.empty((N_CARDS, columns))
    batch_below = np.empty(columns)
    # the strategies formed on the way down, kept for the way up (each is formed once a pass
    # instead of two or three times) when the walk gives the cache rows
    cache = np.empty((cache_rows, action_rows, max(top_reach0.shape[1], top_reach1.shape[1])))
    for s in range(first, hi, stride):
        lo = sub_start[s]
        end = sub_start[s + 1]
        weight = group_weights[s] if group_weights.shape[0] > 0 else 1.0
        if weight == 0.0:  # not sampled: its heads count nothing this pass
            for i in range(lo, end):
                head = top_index[sub_rows[i]]
                if head >= 0:
                    for h in range(n_own):
                        top_values[head, h] = 0.0
            continue
        for i in range(lo, end):  # each member subtree parents first from its head
            row = sub_rows[i]
            head = top_index[row]
            if head >= 0:  # a head: its reach comes from the rows above the cut
                at = local_index[row]
                for h in range(top_reach0.shape[1]):
                    reach0[at, h] = top_reach0[head, h]
                for h in range(top_reach1.shape[1]):
                    reach1[at, h] = top_reach1[head, h]
            if cache_rows > 0:
                at = local_index[row]
                _row_strategy(plan, row, source0, source1, players, cache[at])
                if plan.has_inner_child[row]:
                    _reach_children(plan, local_index, row, reach0, reach1, cache[at], players)
            else:
                _reach_row(
                    plan, local_index, row, source0, source1, reach0, reach1, sigma, players
                )  # fmt: skip
        own_reach, opp_reach = (reach0, reach1) if player == 0 else (reach1, reach0)
        # values up segment by segment, the last first: each segment's batched showdowns
        # are swept just before its rows (every row's reach is down by now)
        for k in range(batches.seg_start[s + 1] - 1, batches.seg_start[s] - 1, -1):
            first_row = batches.seg_first[k]
            stop_row = batches.seg_stop[k]
            slots = no_slot
            if batches.columns[k] > 0:
                _batch_showdowns(
                    k, first_row, stop_row, player, plan, schedule, opp_source, opp_reach,
                    tables, own_hands, opp_hands, batches, sigma, batch_weights, batch_values,
                    batch_scales, batch_terminals, batch_weaker, batch_below, cache,
                )  # fmt: skip
                slots = batches.slot
            for i in range(stop_row - 1, first_row - 1, -1):
                row = sub_rows[i]
                _value_row(
                    player, mode, plan, local_index, row, own_source, opp_source, own_reach,
                    opp_reach, values, tables, own_hands, opp_hands, update, best, own_swap,
                    scratch, slots, batch_values, cache,
                )  # fmt: skip
                head = top_index[row]
                if head >= 0:
                    at = local_index[row]
                    for h in range(n_own):
                        top_values[head, h] = values[at, h] * weight


@njit(cache=True, nogil=True)
def _batch_showdowns(
    s, lo, end, player, plan, schedule, opp_source, opp_reach, tables, own_hands, opp_hands,
    batches, sigma, weights, out, scales, terminals, weaker, below, cache,
):  # fmt: skip
    """Segment ``s``'s batched showdowns (rows ``schedule.sub_rows[lo:end]``, their reach
    down) valued together into ``out``'s columns: each terminal's opponent weight formed as
    ``_value_row`` forms it (reach, the opponent's strategy at its decision or the chance
    mask, range weight, chance), then one sweep of each of the segment's boards, every column
    with its own terminal's scale for that board."""
    kind = plan.kind
    child_start = plan.child_start
    child_rows = plan.child_rows
    opp_weights = opp_hands.weights
    opponent = 1 - player
    n_opp = opp_reach.shape[1]
    for i in range(lo, end):
        row = schedule.sub_rows[i]
        if not plan.has_terminal_child[row]:
            continue
        inner = schedule.local_index[row]
        actor = kind[row]
        first_child = child_start[row]
        n_children = child_start[row + 1] - first_child
        formed = False
        for j in range(n_children):
            child = child_rows[first_child + j]
            if kind[child] != _TERMINAL:
                continue
            terminal = plan.terminal_index[child]
            k = batches.slot[terminal]
            if k < 0:
                continue
            chance = plan.terminal_chance[terminal]
            if actor == opponent:
                if not formed and cache.shape[0] > 0:
                    sigma = cache[inner]
                    formed = True
                elif not formed:
                    _strategy(
                        opp_source.weights, opp_source.predictions, opp_source.matching,
                        opp_source.scales, plan.decision_slot[row], plan.first_edge[row],
                        n_children, sigma,
                    )  # fmt: skip
                    formed = True
                for h in range(n_opp):
                    weights[h, k] = opp_reach[inner, h] * sigma[j, h] * opp_weights[h] * chance
            elif actor == _CHANCE:
                m = plan.chance_mask[child]
                for h in range(n_opp):
                    weights[h, k] = (
                        opp_reach[inner, h] * plan.masks[m, opponent, h] * opp_weights[h]
                    ) * chance
            else:
                for h in range(n_opp):
                    weights[h, k] = opp_reach[inner, h] * opp_weights[h] * chance
            terminals[k] = terminal
    count = batches.columns[s]
    batch_clear(out, count)
    for job in range(batches.jobs[s]):
        board = tables.job_board[batches.job_first[s] + job]
        for k in range(count):
            scales[k] = tables.job_scale[tables.job_start[terminals[k]] + job]
        batch_sweep_add(
            weights, count, scales, out, own_hands.sorted_hands[board],
            own_hands.sorted_strength[board], own_hands.sorted_cards[board],
            own_hands.n_live[board], opp_hands.sorted_hands[board],
            opp_hands.sorted_strength[board], opp_hands.sorted_cards[board],
            opp_hands.n_live[board], weaker, below,
        )  # fmt: skip
    batch_finish(out, count, own_hands.weights, tables.scale)


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
    n_hands = source.weights.shape[1]
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
            for j in range(count):
                for h in range(n_hands):
                    out[first + j, h] = sigma[j, h]


# --- the resolve gadget's iterations ----------------------------------------------------------
# A river re-solve is 300 iterations of a tree of tens to hundreds of rows: each pass takes a
# fraction of a millisecond, and calling it from Python (the records, the thread setting, the
# root's numpy update) cost as much again. ``gadget_iterations`` runs a chunk of iterations of
# ``agents/compiled_gadget.CompiledGadgetCFR`` in one call, with the root's update in the same
# arithmetic as its Python step, so the iterates are the same to the bit
# (``tests/test_safe_resolve.py``; ``benchmarks/bench_gadget_loop.py`` times both).


@njit(cache=True, nogil=True)
def gadget_iterations(
    first, numbers, opponent, follow_floor, plan, source0, source1, update0, update1,
    reach0, reach1, values0, values1, tables0, tables1, hands0, hands1, swap0, swap1,
    alternative, regrets, follow,
):  # fmt: skip
    """Gadget DCFR iterations ``first`` on (``numbers[k]``: sum weight, positive and negative
    discounts). Per iteration and player, as ``CompiledRootCFR._compiled_update``: both reaches
    down; the ``opponent``'s scaled per hand by ``max(follow, follow_floor)`` (rounded to the walk's
    dtype); the player's CFR values up with its update; after the opponent's pass, regret
    matching at the root over terminate (``alternative``) and follow (its root values), with
    the same discounts (when ``update0.discount``), into ``regrets`` (``[2, hands]``) and
    ``follow``."""
    no_best = np.zeros((0, 0), dtype=np.int8)
    opp_reach = reach0 if opponent == 0 else reach1
    scale = np.empty(opp_reach.shape[1], opp_reach.dtype)
    for k in range(numbers.shape[0]):
        iteration = first + k
        for player in range(2):
            reach0[0, :] = 1.0
            reach1[0, :] = 1.0
            reach_down(plan, source0, source1, reach0, reach1, 3)  # both players
            for h in range(scale.shape[0]):
                scale[h] = max(follow[h], follow_floor)
            for row in range(opp_reach.shape[0]):
                for h in range(scale.shape[0]):
                    opp_reach[row, h] *= scale[h]
            mine = player == 0
            own_source, opp_source = (source0, source1) if mine else (source1, source0)
            own_reach, other_reach = (reach0, reach1) if mine else (reach1, reach0)
            own_hands, opp_hands = (hands0, hands1) if mine else (hands1, hands0)
            values = values0 if mine else values1
            update = iteration_update(update0 if mine else update1, iteration, numbers[k, 0],
                                      numbers[k, 1], numbers[k, 2])  # fmt: skip
            values_up(
                player, _CFR, plan, own_source, opp_source, own_reach, other_reach, values,
                tables0 if mine else tables1, own_hands, opp_hands, update, no_best,
                swap0 if mine else swap1,
            )  # fmt: skip
            root = values[0]
            if player == opponent:
                _root_update(root, alternative, regrets, follow, update0.discount, numbers[k])


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
