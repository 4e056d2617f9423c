"""The terminal values of a hold'em spot as compiled loops: card-removal folds and the sorted
showdown sweep, the one definition both executors use.

The compiled walk (``solvers/exact/compiled_kernels.py``) calls ``terminal_value`` for each
terminal child as it values the parent; the numpy walk asks the game's
``terminal_values_batch``, which runs ``terminal_values`` over all terminals at once. Inputs
are the named records of ``games/combo_terminals.py`` (``TerminalTables`` seen from the player
whose values are computed, a ``ComboHands`` per player). The vectorised numpy sweep these loops
replaced is kept as the tests' independent oracle (``tests/showdown_oracle.py``).

Imported only on use (numba loads only for spots). Accumulators are float64.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

N_CARDS = 52


@njit(cache=True, nogil=True)
def _card_totals(opp_weight, opp_cards, totals):
    """Sum of ``opp_weight`` and, per card, of ``opp_weight`` over the hands holding it."""
    totals[:] = 0.0
    total = 0.0
    for h in range(opp_weight.shape[0]):
        weight = opp_weight[h]
        total += weight
        totals[opp_cards[h, 0]] += weight
        totals[opp_cards[h, 1]] += weight
    return total


@njit(cache=True, nogil=True)
def _fold_value(opp_weight, own_cards, own_same, opp_cards, pay, out, totals):
    """``pay`` times the opponent weight compatible with each own hand: the total, minus the
    hands holding either card, plus the identical combo (taken away twice)."""
    total = _card_totals(opp_weight, opp_cards, totals)
    for h in range(out.shape[0]):
        same = own_same[h]
        back = opp_weight[same] if same >= 0 else 0.0
        out[h] = pay * (total - totals[own_cards[h, 0]] - totals[own_cards[h, 1]] + back)


@njit(cache=True, nogil=True)
def _showdown_add(
    opp_weight, scale, out, own_sorted, own_strength, own_cards, n_own,
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
    j = 0  # the opponent's next hand in strength order
    i = 0  # the first own hand of the current tie group
    while i < n_own:
        strength = own_strength[i]
        while j < n_opp and opp_strength[j] < strength:
            weight = opp_weight[opp_sorted[j]]
            below += weight
            weaker[opp_cards[j, 0]] += weight
            weaker[opp_cards[j, 1]] += weight
            j += 1
        stop = i
        while stop < n_own and own_strength[stop] == strength:
            out[own_sorted[stop]] += scale * (
                below - weaker[own_cards[stop, 0]] - weaker[own_cards[stop, 1]]
            )
            stop += 1
        while j < n_opp and opp_strength[j] == strength:
            weight = opp_weight[opp_sorted[j]]
            below += weight
            weaker[opp_cards[j, 0]] += weight
            weaker[opp_cards[j, 1]] += weight
            j += 1
        for k in range(i, stop):
            out[own_sorted[k]] += scale * (
                below - weaker[own_cards[k, 0]] - weaker[own_cards[k, 1]]
            )
        i = stop
    while j < n_opp:  # stronger than every own hand: they only join the total
        weight = opp_weight[opp_sorted[j]]
        below += weight
        weaker[opp_cards[j, 0]] += weight
        weaker[opp_cards[j, 1]] += weight
        j += 1
    for k in range(n_own):  # minus the compatible total
        out[own_sorted[k]] -= scale * (below - weaker[own_cards[k, 0]] - weaker[own_cards[k, 1]])


@njit(cache=True, parallel=True)
def sorted_tables(strength, cards, n_strengths, order, sorted_strength, sorted_cards, n_live):
    """Per board (a row of ``strength``, -1 where the board blocks the hand): the hands in
    ascending strength, blocked ones last, ties in index order (``order``), their strengths
    and cards in that order, and the unblocked count. A counting sort over the strengths
    ``1..n_strengths``: the order of a stable argsort, which took a flop's 1,176 boards 40 ms
    a player."""
    n_boards, n_hands = strength.shape
    n_chunks = min(n_boards, 64)
    for chunk in prange(n_chunks):
        starts = np.empty(n_strengths + 2, dtype=np.int64)
        for board in range(chunk, n_boards, n_chunks):
            row = strength[board]
            starts[:] = 0
            for h in range(n_hands):
                bin_ = row[h] if row[h] >= 0 else n_strengths + 1
                starts[bin_] += 1
            total = 0
            for b in range(n_strengths + 2):
                count = starts[b]
                starts[b] = total
                total += count
            n_live[board] = starts[n_strengths + 1]  # the blocked hands' first place
            for h in range(n_hands):
                bin_ = row[h] if row[h] >= 0 else n_strengths + 1
                at = starts[bin_]
                starts[bin_] = at + 1
                order[board, at] = h
                sorted_strength[board, at] = row[h]
                sorted_cards[board, at, 0] = cards[h, 0]
                sorted_cards[board, at, 1] = cards[h, 1]


@njit(cache=True, nogil=True)
def batch_clear(out, count):
    """Zero the first ``count`` columns of ``out``: a batch of showdowns valued together, a
    column each, starts here, adds one ``batch_sweep_add`` per board (in the order of each
    terminal's jobs) and ends with ``batch_finish``, each column's arithmetic
    ``terminal_value``'s."""
    for h in range(out.shape[0]):
        for k in range(count):
            out[h, k] = 0.0


@njit(cache=True, nogil=True)
def batch_finish(out, count, own_weights, scale):
    """Each own hand's sums times its range weight and the tables' scale, as
    ``terminal_value`` ends."""
    for h in range(out.shape[0]):
        factor = own_weights[h] * scale
        for k in range(count):
            out[h, k] *= factor


@njit(cache=True, nogil=True)
def batch_sweep_add(
    weights, count, scales, out, own_sorted, own_strength, own_cards, n_own, opp_sorted,
    opp_strength, opp_cards, n_opp, weaker, below,
):  # fmt: skip
    """``_showdown_add`` of ``count`` columns on one board in one sweep. Each column's
    operations are ``_showdown_add``'s in the same order, so each column is the single sweep's
    to the bit; the walk in strength order, the card lookups and the tie groups are paid once
    for all columns, whose loops are contiguous. ``weaker`` (``[52, columns]``) and ``below``
    are scratch."""
    for c in range(N_CARDS):
        for k in range(count):
            weaker[c, k] = 0.0
    for k in range(count):
        below[k] = 0.0
    j = 0
    i = 0
    while i < n_own:
        strength = own_strength[i]
        while j < n_opp and opp_strength[j] < strength:
            _join(weights[opp_sorted[j]], count, below, weaker[opp_cards[j, 0]],
                  weaker[opp_cards[j, 1]])  # fmt: skip
            j += 1
        stop = i
        while stop < n_own and own_strength[stop] == strength:
            _credit(out[own_sorted[stop]], count, scales, below, weaker[own_cards[stop, 0]],
                    weaker[own_cards[stop, 1]])  # fmt: skip
            stop += 1
        while j < n_opp and opp_strength[j] == strength:
            _join(weights[opp_sorted[j]], count, below, weaker[opp_cards[j, 0]],
                  weaker[opp_cards[j, 1]])  # fmt: skip
            j += 1
        for k in range(i, stop):
            _credit(out[own_sorted[k]], count, scales, below, weaker[own_cards[k, 0]],
                    weaker[own_cards[k, 1]])  # fmt: skip
        i = stop
    while j < n_opp:  # stronger than every own hand: they only join the total
        _join(weights[opp_sorted[j]], count, below, weaker[opp_cards[j, 0]],
              weaker[opp_cards[j, 1]])  # fmt: skip
        j += 1
    for k in range(n_own):  # minus the compatible total
        row = out[own_sorted[k]]
        first = weaker[own_cards[k, 0]]
        second = weaker[own_cards[k, 1]]
        for c in range(count):
            row[c] -= scales[c] * (below[c] - first[c] - second[c])


@njit(cache=True, nogil=True, inline="always")
def _join(weight, count, below, first, second):
    """An opponent hand joins the weaker side, in every column."""
    for k in range(count):
        below[k] += weight[k]
        first[k] += weight[k]
        second[k] += weight[k]


@njit(cache=True, nogil=True, inline="always")
def _credit(row, count, scales, below, first, second):
    """``row[k] += scales[k] * (below - weaker[a] - weaker[b])`` in every column."""
    for k in range(count):
        row[k] += scales[k] * (below[k] - first[k] - second[k])


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _dense_value(signs, pay, opp_weight, out):
    """``out[h] = pay * sum over o of signs[h, o] * opp_weight[o]``: a showdown over many
    runouts of one board, as one product with the runouts' summed signs. The sum may be
    reassociated, so the compiler splits it over vector lanes: 0.22 ms instead of 1.5 ms for
    1,326 by 1,326 here (a flop walk values several such terminals a pass), the same sums to
    about 1e-15 of their size and the same bits on every run and thread count."""
    n_opp = opp_weight.shape[0]
    for h in range(out.shape[0]):
        row = signs[h]
        acc = 0.0
        for o in range(n_opp):
            acc += row[o] * opp_weight[o]
        out[h] = pay * acc


@njit(cache=True, parallel=True)
def runout_signs(boards, own_strength, opp_strength, own_cards, opp_cards, dead_boards, out):
    """``out[h, o]``: over ``boards`` (rows of the strength tables), the boards where own hand
    ``h`` beats opponent hand ``o`` less those where it loses; 0 for hands sharing a card. An
    own hand a board blocks (strength -1) is skipped; a blocked opponent hand must hold a
    strength above every live one, so each board that blocks it counts -1, and ``dead_boards``
    (the boards that block ``o`` and leave ``h``, the same number for every pair that shares no
    card) is added back: the inner loop then has no branch and vectorises. Own hands in blocks,
    so each board's opponent row is read once a block; int32 counts, written as exact floats."""
    n_own, n_opp = out.shape
    block = 32
    for start in prange((n_own + block - 1) // block):
        first = start * block
        stop = min(first + block, n_own)
        counts = np.zeros((stop - first, n_opp), dtype=np.int32)
        for k in range(boards.shape[0]):
            board = boards[k]
            theirs = opp_strength[board]
            for i in range(stop - first):
                mine = own_strength[board, first + i]
                if mine < 0:
                    continue
                for o in range(n_opp):
                    counts[i, o] += np.int32(mine > theirs[o]) - np.int32(mine < theirs[o])
        for i in range(stop - first):
            a, b = own_cards[first + i, 0], own_cards[first + i, 1]
            for o in range(n_opp):
                c, d = opp_cards[o, 0], opp_cards[o, 1]
                clash = a == c or a == d or b == c or b == d
                out[first + i, o] = 0.0 if clash else counts[i, o] + dead_boards


def runout_signs_on_all_threads(*args) -> None:
    """``runout_signs`` on every thread the process may use (a pool worker's share): the tables
    are built wherever they are first needed, often inside a small walk that has set its own
    regions to one thread, and this build is one large parallel job."""
    before = numba.get_num_threads()
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    try:
        runout_signs(*args)
    finally:
        numba.set_num_threads(before)


@njit(cache=True, nogil=True)
def terminal_value(terminal, opp_weight, out, tables, own, opp, totals, weaker):
    """The walking player's value of ``terminal`` for every hand, given opponent weight
    ``opp_weight`` (reach times range weight times chance), into ``out``. ``tables`` is a
    ``TerminalTables``, ``own`` and ``opp`` the two players' ``ComboHands``; ``totals`` and
    ``weaker`` are per-card scratch."""
    if tables.is_fold[terminal]:
        _fold_value(
            opp_weight, own.cards, own.same, opp.cards, tables.fold_pay[terminal], out, totals
        )
    elif tables.dense_of[terminal] >= 0:
        _dense_value(
            tables.dense[tables.dense_of[terminal]], tables.dense_scale[terminal], opp_weight, out
        )
    else:
        out[:] = 0.0
        for job in range(tables.job_start[terminal], tables.job_start[terminal + 1]):
            board = tables.job_board[job]
            _showdown_add(
                opp_weight, tables.job_scale[job], out, own.sorted_hands[board],
                own.sorted_strength[board], own.sorted_cards[board], own.n_live[board],
                opp.sorted_hands[board], opp.sorted_strength[board], opp.sorted_cards[board],
                opp.n_live[board], weaker,
            )  # fmt: skip
    scale = tables.scale
    own_weights = own.weights
    for h in range(out.shape[0]):
        out[h] *= own_weights[h] * scale


@njit(cache=True, parallel=True)
def terminal_values(terminals, opp_reach, out, tables, own, opp):
    """``out[k]``: every own hand's value at terminal ``terminals[k]`` given the opponent's
    reach ``opp_reach[k]`` (chance included, range weight not): every terminal at once for a
    value pass, or the few below one node for a report."""
    n_terminals = terminals.shape[0]
    n_chunks = min(n_terminals, 64)
    opp_weights = opp.weights
    for chunk in prange(n_chunks):
        opp_weight = np.empty(opp_reach.shape[1])
        row = np.empty(out.shape[1])
        totals = np.empty(N_CARDS)
        weaker = np.empty(N_CARDS)
        for k in range(chunk, n_terminals, n_chunks):
            for h in range(opp_weight.shape[0]):
                opp_weight[h] = opp_reach[k, h] * opp_weights[h]
            terminal_value(terminals[k], opp_weight, row, tables, own, opp, totals, weaker)
            for h in range(row.shape[0]):
                out[k, h] = row[h]


@njit(cache=True, parallel=True)
def runout_sums(boards, opp_weight, won, seen, own, opp):
    """Over the boards ``boards`` (indices into the tables), per own hand: ``won`` the
    compatible opponent weight it beats minus the weight that beats it (the showdown sweep at
    scale 1), ``seen`` the compatible weight in all, both summed over the boards a hand is live
    on. A hand's equity over those runouts is ``(seen + won) / (2 seen)``."""
    n_boards = boards.shape[0]
    n_chunks = max(1, min(n_boards, 64))
    n_own = won.shape[0]
    part_won = np.zeros((n_chunks, n_own))
    part_seen = np.zeros((n_chunks, n_own))
    for chunk in prange(n_chunks):
        weaker = np.empty(N_CARDS)
        for k in range(chunk, n_boards, n_chunks):
            board = boards[k]
            n_live = own.n_live[board]
            _showdown_add(
                opp_weight, 1.0, part_won[chunk], own.sorted_hands[board],
                own.sorted_strength[board], own.sorted_cards[board], n_live,
                opp.sorted_hands[board], opp.sorted_strength[board], opp.sorted_cards[board],
                opp.n_live[board], weaker,
            )  # fmt: skip
            total = 0.0  # weaker now holds every live opponent hand's weight per card
            for j in range(opp.n_live[board]):
                total += opp_weight[opp.sorted_hands[board, j]]
            cards = own.sorted_cards[board]
            for i in range(n_live):
                h = own.sorted_hands[board, i]
                same = own.same[h]
                back = opp_weight[same] if same >= 0 else 0.0
                part_seen[chunk, h] += total - weaker[cards[i, 0]] - weaker[cards[i, 1]] + back
    for chunk in range(n_chunks):
        for h in range(n_own):
            won[h] += part_won[chunk, h]
            seen[h] += part_seen[chunk, h]
