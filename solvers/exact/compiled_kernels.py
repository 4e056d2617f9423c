"""numba kernels of ``compiled_walk.py`` (imported only there, so numba loads only for spots).

Each level's rows are split into interleaved chunks run on all cores (``prange``); a chunk
allocates its scratch once. Inner loops run over hands on contiguous rows, so LLVM vectorises
them. Accumulators are float64 whatever the storage dtype.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

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
    r, scale, out, own_cards, own_sorted, own_strength, n_own,
    opp_cards, opp_sorted, opp_strength, n_opp, totals, weaker, tied,
):  # fmt: skip
    """``out[h] += scale * (compatible weaker - compatible stronger)`` on one board.

    One sweep in strength order: running sums of the weaker hands (overall and per card) and of
    the current tie group; per own hand, ``2 * weaker + tied - compatible total`` is weaker minus
    stronger among the hands sharing no card with it (the identical combo ties, and cancels)."""
    totals[:] = 0.0
    weaker[:] = 0.0
    tied[:] = 0.0
    total = 0.0
    for k in range(n_opp):
        h = opp_sorted[k]
        v = r[h]
        total += v
        totals[opp_cards[h, 0]] += v
        totals[opp_cards[h, 1]] += v
    below = 0.0
    j = 0
    i = 0
    while i < n_own:
        s = own_strength[i]
        while j < n_opp and opp_strength[j] < s:
            h = opp_sorted[j]
            v = r[h]
            below += v
            weaker[opp_cards[h, 0]] += v
            weaker[opp_cards[h, 1]] += v
            j += 1
        group = j
        tie = 0.0
        while j < n_opp and opp_strength[j] == s:
            h = opp_sorted[j]
            v = r[h]
            tie += v
            tied[opp_cards[h, 0]] += v
            tied[opp_cards[h, 1]] += v
            j += 1
        while i < n_own and own_strength[i] == s:
            h = own_sorted[i]
            a = own_cards[h, 0]
            b = own_cards[h, 1]
            net = (
                2.0 * (below - weaker[a] - weaker[b])
                + (tie - tied[a] - tied[b])
                - (total - totals[a] - totals[b])
            )
            out[h] += scale * net
            i += 1
        for k in range(group, j):
            h = opp_sorted[k]
            v = r[h]
            weaker[opp_cards[h, 0]] += v
            weaker[opp_cards[h, 1]] += v
            tied[opp_cards[h, 0]] = 0.0
            tied[opp_cards[h, 1]] = 0.0
        below += tie


@njit(cache=True, nogil=True)
def _terminal(
    t, r, out, is_fold, fold_pay, job_ptr, job_board, job_scale, scale,
    own_cards, own_same, own_weights, own_sorted, own_strength, own_live,
    opp_cards, opp_sorted, opp_strength, opp_live, totals, weaker, tied,
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
                r, job_scale[job], out, own_cards, own_sorted[b], own_strength[b], own_live[b],
                opp_cards, opp_sorted[b], opp_strength[b], opp_live[b], totals, weaker, tied,
            )  # fmt: skip
    for h in range(out.shape[0]):
        out[h] *= own_weights[h] * scale


@njit(cache=True, parallel=True)
def reach_down(parent, kind, edge, mask, nt, level_rows, masks, cur0, cur1, reach0, reach1):
    """Own reach of both players at every non-terminal row; the root row must hold 1."""
    n0 = reach0.shape[1]
    n1 = reach1.shape[1]
    for level in range(1, level_rows.shape[0]):
        lo = level_rows[level, 0]
        hi = level_rows[level, 1]
        for row in prange(lo, hi):
            up = nt[parent[row]]
            at = nt[row]
            k = kind[parent[row]]
            if k == 0:
                e = edge[row]
                for h in range(n0):
                    reach0[at, h] = reach0[up, h] * cur0[e, h]
                reach1[at, :] = reach1[up, :]
            elif k == 1:
                e = edge[row]
                for h in range(n1):
                    reach1[at, h] = reach1[up, h] * cur1[e, h]
                reach0[at, :] = reach0[up, :]
            else:
                m = mask[row]
                for h in range(n0):
                    reach0[at, h] = reach0[up, h] * masks[m, 0, h]
                for h in range(n1):
                    reach1[at, h] = reach1[up, h] * masks[m, 1, h]


@njit(cache=True, parallel=True)
def values_up(
    player, mode, parent, kind, child_ptr, child_rows, first_edge, edge, mask, nt, term,
    level_rows, masks, term_chance, own_cur, opp_cur, own_reach, opp_reach, values,
    is_fold, fold_pay, job_ptr, job_board, job_scale, scale,
    own_cards, own_same, own_weights, own_sorted, own_strength, own_live,
    opp_cards, opp_weights, opp_sorted, opp_strength, opp_live,
    regrets, sums, predictions, weight, floor, positive, negative, discount, predictive,
    best, slot_of_row,
):  # fmt: skip
    """Counterfactual values of ``player`` at every non-terminal row, deepest level first.

    ``mode`` 0: under ``own_cur``; 1: best response (max over actions, argmax into ``best``
    when it has rows); 2: a CFR update of ``player`` fused in (regrets, sums, predictions and
    the next ``own_cur``)."""
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
            r = np.empty(n_opp)
            out = np.empty(n_own)
            totals = np.empty(_N_CARDS)
            weaker = np.empty(_N_CARDS)
            tied = np.empty(_N_CARDS)
            for row in range(lo + chunk, hi, n_chunks):
                at = nt[row]
                k = kind[row]
                c0 = child_ptr[row]
                n_children = child_ptr[row + 1] - c0
                for j in range(n_children):
                    child = child_rows[c0 + j]
                    if kind[child] != _TERMINAL:
                        below = nt[child]
                        for h in range(n_own):
                            child_values[j, h] = values[below, h]
                        continue
                    t = term[child]
                    w = term_chance[t]
                    if k == opponent:
                        e = edge[child]
                        for h in range(n_opp):
                            r[h] = opp_reach[at, h] * opp_cur[e, h] * opp_weights[h] * w
                    elif k == _CHANCE:
                        m = mask[child]
                        for h in range(n_opp):
                            r[h] = opp_reach[at, h] * masks[m, opponent, h] * opp_weights[h] * w
                    else:
                        for h in range(n_opp):
                            r[h] = opp_reach[at, h] * opp_weights[h] * w
                    _terminal(
                        t, r, out, is_fold, fold_pay, job_ptr, job_board, job_scale, scale,
                        own_cards, own_same, own_weights, own_sorted, own_strength, own_live,
                        opp_cards, opp_sorted, opp_strength, opp_live, totals, weaker, tied,
                    )  # fmt: skip
                    for h in range(n_own):
                        child_values[j, h] = out[h]
                if k == player:
                    first = first_edge[row]
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
                    for h in range(n_own):
                        acc = 0.0
                        for j in range(n_children):
                            acc += own_cur[first + j, h] * child_values[j, h]
                        out[h] = acc
                        values[at, h] = acc
                    if mode == _CFR:
                        _cfr_update(
                            first, n_children, child_values, out, own_reach[at], own_cur,
                            regrets, sums, predictions, weight, floor, positive, negative,
                            discount, predictive,
                        )  # fmt: skip
                elif k == opponent:
                    for h in range(n_own):
                        acc = 0.0
                        for j in range(n_children):
                            acc += child_values[j, h]
                        values[at, h] = acc
                else:
                    for h in range(n_own):
                        values[at, h] = 0.0
                    for j in range(n_children):
                        m = mask[child_rows[c0 + j]]
                        for h in range(n_own):
                            values[at, h] += masks[m, player, h] * child_values[j, h]


@njit(cache=True, nogil=True)
def _cfr_update(
    first, n_actions, child_values, node_values, own_reach, cur, regrets, sums, predictions,
    weight, floor, positive, negative, discount, predictive,
):  # fmt: skip
    """One decision's regrets, strategy sums and next strategy, for every hand."""
    n = node_values.shape[0]
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
                sums[e, h] += weight * own_reach[h] * cur[e, h]
            if predictive:
                predictions[e, h] = instant
    uniform = 1.0 / n_actions
    for h in range(n):
        total = 0.0
        for j in range(n_actions):
            x = regrets[first + j, h]
            if predictive:
                x += predictions[first + j, h]
            if x > 0.0:
                total += x
        for j in range(n_actions):
            if total > 0.0:
                x = regrets[first + j, h]
                if predictive:
                    x += predictions[first + j, h]
                cur[first + j, h] = x / total if x > 0.0 else 0.0
            else:
                cur[first + j, h] = uniform


@njit(cache=True, parallel=True)
def regret_match(first_edge, n_actions, regrets, predictions, predictive, cur):
    """Regret matching of every decision (``first_edge``/``n_actions`` per slot) into ``cur``."""
    n = regrets.shape[1]
    for slot in prange(first_edge.shape[0]):
        first = first_edge[slot]
        count = n_actions[slot]
        for h in range(n):
            total = 0.0
            for j in range(count):
                x = regrets[first + j, h]
                if predictive:
                    x += predictions[first + j, h]
                if x > 0.0:
                    total += x
            for j in range(count):
                if total > 0.0:
                    x = regrets[first + j, h]
                    if predictive:
                        x += predictions[first + j, h]
                    cur[first + j, h] = x / total if x > 0.0 else 0.0
                else:
                    cur[first + j, h] = 1.0 / count


@njit(cache=True, parallel=True)
def normalise(first_edge, n_actions, weights, out):
    """Per decision and hand, ``weights`` over the actions summing to 1; uniform where 0."""
    n = weights.shape[1]
    for slot in prange(first_edge.shape[0]):
        first = first_edge[slot]
        count = n_actions[slot]
        for h in range(n):
            total = 0.0
            for j in range(count):
                total += weights[first + j, h]
            for j in range(count):
                out[first + j, h] = weights[first + j, h] / total if total > 0.0 else 1.0 / count
