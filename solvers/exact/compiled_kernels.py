"""numba kernels of ``compiled_walk.py`` (imported only there, so numba loads only for spots).

Each level's rows are split into interleaved chunks run on all cores (``prange``); a chunk
allocates its scratch once. Inner loops run over hands on contiguous rows, so LLVM vectorises
them. Accumulators are float64 whatever the storage dtype.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

set_threads = numba.set_num_threads
"""Threads of the next parallel regions of the calling thread (``compiled_walk`` picks)."""
ALL_THREADS: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set at import by numba

_N_CARDS = 52
_CHANCE = 2
_TERMINAL = 3
_RESPOND = 1
_CFR = 2


@njit(cache=True, nogil=True)
def _card_totals(r, opp_cards, totals):
    """Sum of ``r`` and, per card, of ``r`` over the opponent hands holding it."""
    totals[:] = 0.0
    total = 0.0
    for h in range(r.shape[0]):
        v = r[h]
        total += v
        totals[opp_cards[h, 0]] += v
        totals[opp_cards[h, 1]] += v
    return total


@njit(cache=True, nogil=True)
def _fold_value(r, own_cards, own_same, opp_cards, pay, out, totals):
    total = _card_totals(r, opp_cards, totals)
    for h in range(out.shape[0]):
        s = own_same[h]
        back = r[s] if s >= 0 else 0.0
        out[h] = pay * (total - totals[own_cards[h, 0]] - totals[own_cards[h, 1]] + back)


@njit(cache=True, nogil=True)
def _showdown_add(
    r, scale, out, own_sorted, own_strength, own_cards, n_own,
    opp_sorted, opp_strength, opp_cards, n_opp, weaker,
):  # fmt: skip
    """``out[h] += scale * (compatible weaker - compatible stronger)`` on one board.

    One sweep in strength order keeps the running sum of the opponent's weaker hands, overall
    and per card (``weaker[c]``: the part holding card c). An own hand's compatible weaker
    weight is ``below - weaker[a] - weaker[b]`` for its cards a, b; taken before and after its
    tie group joins, the two add up to ``weaker + weaker-or-equal``, and minus the compatible
    total (the same sum once every hand has joined) that is weaker minus stronger, ties and
    the identical combo counting neither way. ``*_cards`` are the hands' cards in sorted order.
    """
    weaker[:] = 0.0
    below = 0.0
    j = 0
    i = 0
    while i < n_own:
        s = own_strength[i]
        while j < n_opp and opp_strength[j] < s:
            v = r[opp_sorted[j]]
            below += v
            weaker[opp_cards[j, 0]] += v
            weaker[opp_cards[j, 1]] += v
            j += 1
        stop = i
        while stop < n_own and own_strength[stop] == s:
            out[own_sorted[stop]] += scale * (
                below - weaker[own_cards[stop, 0]] - weaker[own_cards[stop, 1]]
            )
            stop += 1
        while j < n_opp and opp_strength[j] == s:
            v = r[opp_sorted[j]]
            below += v
            weaker[opp_cards[j, 0]] += v
            weaker[opp_cards[j, 1]] += v
            j += 1
        for k in range(i, stop):
            out[own_sorted[k]] += scale * (
                below - weaker[own_cards[k, 0]] - weaker[own_cards[k, 1]]
            )
        i = stop
    while j < n_opp:  # stronger than every own hand: they only join the total
        v = r[opp_sorted[j]]
        below += v
        weaker[opp_cards[j, 0]] += v
        weaker[opp_cards[j, 1]] += v
        j += 1
    for k in range(n_own):  # minus the compatible total
        out[own_sorted[k]] -= scale * (below - weaker[own_cards[k, 0]] - weaker[own_cards[k, 1]])


@njit(cache=True, nogil=True)
def _terminal(
    t, r, out, is_fold, fold_pay, job_ptr, job_board, job_scale, scale,
    own_cards, own_same, own_weights, own_sorted, own_strength, own_sorted_cards, own_live,
    opp_cards, opp_sorted, opp_strength, opp_sorted_cards, opp_live, totals, weaker,
):  # fmt: skip
    """The walking player's value of terminal ``t`` for every hand, given opponent weight ``r``
    (reach times range weight times chance), into ``out``."""
    if is_fold[t]:
        _fold_value(r, own_cards, own_same, opp_cards, fold_pay[t], out, totals)
    else:
        out[:] = 0.0
        for job in range(job_ptr[t], job_ptr[t + 1]):
            b = job_board[job]
            _showdown_add(
                r, job_scale[job], out, own_sorted[b], own_strength[b], own_sorted_cards[b],
                own_live[b], opp_sorted[b], opp_strength[b], opp_sorted_cards[b], opp_live[b],
                weaker,
            )  # fmt: skip
    for h in range(out.shape[0]):
        out[h] *= own_weights[h] * scale


@njit(cache=True, nogil=True)
def _strategy(weights, predictions, matching, first, count, out):
    """One decision's strategy ``out[:count, hands]`` from its per-edge ``weights``: regret
    matching (``matching``: positive part of regrets plus predictions, when given) or plain
    normalisation (strategy sums, or probabilities); uniform where nothing is positive.
    ``out[count]`` is scratch (one more row than actions). Loops run over hands innermost."""
    n = weights.shape[1]
    total = out[count]
    total[:n] = 0.0
    for j in range(count):
        row = out[j]
        source = weights[first + j]
        if predictions.shape[0] > 0:
            ahead = predictions[first + j]
            for h in range(n):
                row[h] = max(source[h] + ahead[h], 0.0) if matching else source[h] + ahead[h]
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
def reach_down(
    kind, child_ptr, child_rows, first_edge, mask, nt, level_rows, masks,
    weights0, predictions0, matching0, weights1, predictions1, matching1, reach0, reach1,
    has_nonterminal,
):  # fmt: skip
    """Own reach of both players at every non-terminal row; the root row must hold 1.

    Parent by parent: a decision's strategy is formed once from its player's weights."""
    n0 = reach0.shape[1]
    n1 = reach1.shape[1]
    max_children = 1
    for row in range(child_ptr.shape[0] - 1):
        max_children = max(max_children, child_ptr[row + 1] - child_ptr[row])
    for level in range(level_rows.shape[0] - 1):
        lo = level_rows[level, 0]
        hi = level_rows[level, 1]
        n_rows = hi - lo
        n_chunks = min(n_rows, 64)
        for chunk in prange(n_chunks):
            sigma = np.empty((max_children + 1, max(n0, n1)))
            for row in range(lo + chunk, hi, n_chunks):
                if not has_nonterminal[row]:
                    continue
                up = nt[row]
                k = kind[row]
                c0 = child_ptr[row]
                count = child_ptr[row + 1] - c0
                if k == 0:
                    _strategy(weights0, predictions0, matching0, first_edge[row], count, sigma)
                elif k == 1:
                    _strategy(weights1, predictions1, matching1, first_edge[row], count, sigma)
                for j in range(count):
                    child = child_rows[c0 + j]
                    at = nt[child]
                    if at < 0:  # a terminal, or under a left-out suit twin
                        continue
                    if k == 0:
                        for h in range(n0):
                            reach0[at, h] = reach0[up, h] * sigma[j, h]
                        reach1[at, :] = reach1[up, :]
                    elif k == 1:
                        for h in range(n1):
                            reach1[at, h] = reach1[up, h] * sigma[j, h]
                        reach0[at, :] = reach0[up, :]
                    else:
                        m = mask[child]
                        for h in range(n0):
                            reach0[at, h] = reach0[up, h] * masks[m, 0, h]
                        for h in range(n1):
                            reach1[at, h] = reach1[up, h] * masks[m, 1, h]


@njit(cache=True, parallel=True)
def values_up(
    player, mode, kind, child_ptr, child_rows, first_edge, mask, nt, term,
    level_rows, masks, term_chance, own_weights_e, own_predictions, own_matching,
    opp_weights_e, opp_predictions, opp_matching, own_reach, opp_reach, values,
    is_fold, fold_pay, job_ptr, job_board, job_scale, scale,
    own_cards, own_same, own_weights, own_sorted, own_strength, own_sorted_cards, own_live,
    opp_cards, opp_weights, opp_sorted, opp_strength, opp_sorted_cards, opp_live,
    sums, weight, floor, positive, negative, discount, best, slot_of_row, has_terminal,
    doubled, own_swap,
):  # fmt: skip
    """Counterfactual values of ``player`` at every non-terminal row, deepest level first.

    Strategies come from per-edge weights as in ``_strategy``. ``mode`` 0: the profile's values;
    1: best response (max over actions, argmax into ``best`` when it has rows); 2: a CFR update
    of ``player`` fused in (``own_weights_e`` are its regrets, updated with ``own_predictions``
    and ``sums``)."""
    opponent = 1 - player
    n_own = values.shape[1]
    n_opp = opp_reach.shape[1]
    max_children = 1
    for row in range(child_ptr.shape[0] - 1):
        max_children = max(max_children, child_ptr[row + 1] - child_ptr[row])
    for level in range(level_rows.shape[0] - 1, -1, -1):
        lo = level_rows[level, 0]
        hi = level_rows[level, 1]
        n_rows = hi - lo
        n_chunks = min(n_rows, 64)
        for chunk in prange(n_chunks):
            child_values = np.empty((max_children, n_own))
            sigma = np.empty((max_children + 1, max(n_own, n_opp)))
            r = np.empty(n_opp)
            out = np.empty(n_own)
            totals = np.empty(_N_CARDS)
            weaker = np.empty(_N_CARDS)
            for row in range(lo + chunk, hi, n_chunks):
                at = nt[row]
                if at < 0:
                    continue
                k = kind[row]
                c0 = child_ptr[row]
                n_children = child_ptr[row + 1] - c0
                first = first_edge[row]
                if k == opponent and has_terminal[row]:
                    _strategy(
                        opp_weights_e, opp_predictions, opp_matching, first, n_children, sigma
                    )
                shared = False  # r is the same for every terminal child of an own decision
                for j in range(n_children):
                    child = child_rows[c0 + j]
                    if kind[child] != _TERMINAL:
                        below = nt[child]
                        if below < 0:  # a left-out suit twin: counted with its partner
                            continue
                        for h in range(n_own):
                            child_values[j, h] = values[below, h]
                        continue
                    t = term[child]
                    w = term_chance[t]
                    if k == opponent:
                        for h in range(n_opp):
                            r[h] = opp_reach[at, h] * sigma[j, h] * opp_weights[h] * w
                    elif k == _CHANCE:
                        m = mask[child]
                        for h in range(n_opp):
                            r[h] = opp_reach[at, h] * masks[m, opponent, h] * opp_weights[h] * w
                    elif not shared:  # siblings share their path's chance weight too
                        for h in range(n_opp):
                            r[h] = opp_reach[at, h] * opp_weights[h] * w
                        shared = True
                    _terminal(
                        t, r, child_values[j], is_fold, fold_pay, job_ptr, job_board, job_scale,
                        scale, own_cards, own_same, own_weights, own_sorted, own_strength,
                        own_sorted_cards, own_live, opp_cards, opp_sorted, opp_strength,
                        opp_sorted_cards, opp_live, totals, weaker,
                    )  # fmt: skip
                if k == player:
                    if mode == _RESPOND:
                        for h in range(n_own):
                            top = child_values[0, h]
                            choice = 0
                            for j in range(1, n_children):
                                if child_values[j, h] > top:
                                    top = child_values[j, h]
                                    choice = j
                            values[at, h] = top
                            out[h] = choice
                        if best.shape[0] > 0:
                            slot = slot_of_row[row]
                            for h in range(n_own):
                                best[slot, h] = np.int8(out[h])
                        continue
                    _strategy(
                        own_weights_e, own_predictions, own_matching, first, n_children, sigma
                    )
                    out[:n_own] = 0.0
                    for j in range(n_children):
                        for h in range(n_own):
                            out[h] += sigma[j, h] * child_values[j, h]
                    for h in range(n_own):
                        values[at, h] = out[h]
                    if mode == _CFR:
                        _cfr_update(
                            first, n_children, child_values, out, own_reach[at], sigma,
                            own_weights_e, sums, own_predictions, weight, floor, positive,
                            negative, discount,
                        )  # fmt: skip
                elif k == opponent:
                    out[:n_own] = 0.0
                    for j in range(n_children):
                        for h in range(n_own):
                            out[h] += child_values[j, h]
                    for h in range(n_own):
                        values[at, h] = out[h]
                else:
                    for h in range(n_own):
                        values[at, h] = 0.0
                    for j in range(n_children):
                        child = child_rows[c0 + j]
                        if nt[child] < 0:
                            continue
                        m = mask[child]
                        for h in range(n_own):
                            values[at, h] += masks[m, player, h] * child_values[j, h]
                        if doubled[child]:  # its twin: the same values with hands swapped
                            for h in range(n_own):
                                g = own_swap[h]
                                values[at, h] += masks[m, player, g] * child_values[j, g]


@njit(cache=True, nogil=True)
def _cfr_update(
    first, n_actions, child_values, node_values, own_reach, sigma, regrets, sums, predictions,
    weight, floor, positive, negative, discount,
):  # fmt: skip
    """One decision's regrets, predictions and strategy sums, for every hand (``sigma`` is the
    strategy played this iteration)."""
    n = node_values.shape[0]
    predictive = predictions.shape[0] > 0
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
def strategies(first_edge, n_actions, weights, predictions, matching, out):
    """``_strategy`` of every decision (``first_edge``/``n_actions`` per slot) into ``out``."""
    max_actions = 1
    for slot in range(n_actions.shape[0]):
        max_actions = max(max_actions, n_actions[slot])
    n_slots = first_edge.shape[0]
    n_chunks = min(n_slots, 64)
    for chunk in prange(n_chunks):
        sigma = np.empty((max_actions + 1, weights.shape[1]))
        for slot in range(chunk, n_slots, n_chunks):
            first = first_edge[slot]
            count = n_actions[slot]
            _strategy(weights, predictions, matching, first, count, sigma)
            out[first : first + count] = sigma[:count]
