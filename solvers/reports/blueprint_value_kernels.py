"""Compiled loops of ``blueprint_values``: deals sampled for one hand class at one preflop node,
and each deal valued exactly over the blueprint's actions for both seats (numba)."""

from __future__ import annotations

import numpy as np
from numba import njit

DECISION, FOLD_END, SHOWDOWN_END = 0, 1, 2


@njit(cache=False)
def sample_deals(rng, class_combos, opp_cumulative, combo_cards, pool_cards, n_deals):
    """Up to ``n_deals`` deals ``(own combo, opponent combo, pool board)``: the own combo
    uniform in its class, the opponent's by ``opp_cumulative`` (cumulative weights over the
    1,326 combos) among those that share no card with it, and the board uniform over the pool
    boards that share no card with either. An own combo that no opponent combo fits, or a pair
    of hands that no pool board fits, is drawn again; fewer rows come back only when that
    keeps failing (a class the range cannot face, or a pool far too small)."""
    out = np.empty((n_deals, 3), dtype=np.int64)
    n_combos = len(opp_cumulative)
    n_pool = pool_cards.shape[0]
    fits = np.zeros(len(class_combos))  # the opponent's weight that each own combo leaves
    for m in range(len(class_combos)):
        a, b = combo_cards[class_combos[m], 0], combo_cards[class_combos[m], 1]
        for i in range(n_combos):
            c, e = combo_cards[i, 0], combo_cards[i, 1]
            if c != a and c != b and e != a and e != b:
                fits[m] += opp_cumulative[i] - (opp_cumulative[i - 1] if i else 0.0)
    d = 0
    attempts = 0
    while d < n_deals and attempts < 50 * n_deals + 1000:
        attempts += 1
        m = rng.integers(0, len(class_combos))
        if fits[m] <= 0.0:
            continue
        own = class_combos[m]
        a, b = combo_cards[own, 0], combo_cards[own, 1]
        while True:
            opp = np.searchsorted(opp_cumulative, rng.random() * opp_cumulative[-1], side="right")
            if opp >= n_combos:
                continue
            c, e = combo_cards[opp, 0], combo_cards[opp, 1]
            if c != a and c != b and e != a and e != b:
                break
        board = -1
        for _ in range(8 * n_pool):
            pick = rng.integers(0, n_pool)
            clash = False
            for k in range(5):
                card = pool_cards[pick, k]
                if card == a or card == b or card == c or card == e:
                    clash = True
                    break
            if not clash:
                board = pick
                break
        if board < 0:
            continue
        out[d, 0], out[d, 1], out[d, 2] = own, opp, board
        d += 1
    return out[:d]


@njit(cache=False)
def child_values(
    root,
    end,
    seat,
    deals,
    deal_strength,
    combo_class,
    pool_buckets,
    pool_strength,
    kind,
    player,
    street,
    amount,
    edge_start,
    n_actions,
    edge_child,
    offsets,
    strategy,
):
    """``[deals, actions of root]``: ``seat``'s net chips of the hand after each action at
    ``root`` (whose subtree is nodes ``root .. end - 1``), both seats playing the blueprint's
    rows of their buckets thereafter, exact over every later action. ``deal_strength``
    ``[deals, 2]`` (own, opponent), when not empty, replaces the pool board's showdown: for a
    subtree without later-street decisions, whose deals each get a board of their own."""
    na_root = n_actions[root]
    out = np.empty((deals.shape[0], na_root))
    value = np.empty(end - root)
    buckets = np.empty((2, 4), dtype=np.int64)
    for d in range(deals.shape[0]):
        own, opp, board = deals[d, 0], deals[d, 1], deals[d, 2]
        hands = (own, opp) if seat == 0 else (opp, own)
        for s in range(2):
            buckets[s, 0] = combo_class[hands[s]]
            for t in range(1, 4):
                buckets[s, t] = pool_buckets[board, t - 1, hands[s]]
        if deal_strength.shape[0]:  # the deal's own board: (own, opponent) strengths
            s0 = deal_strength[d, 0] if seat == 0 else deal_strength[d, 1]
            s1 = deal_strength[d, 1] if seat == 0 else deal_strength[d, 0]
        else:
            s0 = pool_strength[board, hands[0]]
            s1 = pool_strength[board, hands[1]]
        winner = -1 if s0 == s1 else (0 if s0 > s1 else 1)
        for node in range(end - 1, root, -1):
            i = node - root
            k = kind[node]
            if k == FOLD_END:
                value[i] = -amount[node] if player[node] == seat else amount[node]
            elif k == SHOWDOWN_END:
                if winner < 0:
                    value[i] = 0.0
                else:
                    value[i] = amount[node] if winner == seat else -amount[node]
            else:
                na = n_actions[node]
                start = offsets[node] + buckets[player[node], street[node]] * na
                total = 0.0
                for a in range(na):
                    p = strategy[start + a]
                    if p:
                        total += p * value[edge_child[edge_start[node] + a] - root]
                value[i] = total / 255.0
        for a in range(na_root):
            out[d, a] = value[edge_child[edge_start[root] + a] - root]
    return out
