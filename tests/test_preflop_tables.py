"""The exact class-vs-class tables (solvers.cards.preflop_tables) against independent counts."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from solvers.cards import preflop_tables
from solvers.cards.deck import (
    CLASS_COMBOS,
    CLASS_LABELS,
    CLASS_SIZES,
    COMBO_CARDS,
    N_COMBOS,
    class_index,
    parse_cards,
)
from solvers.cards.equity import equity


def idx(label: str) -> int:
    return class_index(label)


@pytest.fixture(scope="module")
def flop():
    return preflop_tables.flop_table()


@pytest.fixture(scope="module")
def allin():
    return preflop_tables.preflop_allin_table()


def _combo_pair_orbits(a: str, b: str) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
    """Compatible combo pairs of two classes grouped by suit permutation: (rep1, rep2, size)."""
    orbits: dict[tuple, list] = {}
    for i in CLASS_COMBOS[idx(a)]:
        for j in CLASS_COMBOS[idx(b)]:
            ci, cj = (int(c) for c in COMBO_CARDS[i]), (int(c) for c in COMBO_CARDS[j])
            ci, cj = tuple(ci), tuple(cj)
            if set(ci) & set(cj):
                continue
            key = min(
                (
                    tuple(sorted(4 * (c >> 2) + p[c & 3] for c in ci)),
                    tuple(sorted(4 * (c >> 2) + p[c & 3] for c in cj)),
                )
                for p in itertools.permutations(range(4))
            )
            orbits.setdefault(key, []).append((ci, cj))
    return [(members[0][0], members[0][1], len(members)) for members in orbits.values()]


def _exact_class_equity(a: str, b: str) -> tuple[float, float, int]:
    """(win, tie, pairs) of class a vs class b over all 5-card boards via HvH equity calls."""
    win = tie = 0.0
    pairs = 0
    for hand1, hand2, size in _combo_pair_orbits(a, b):
        w1, w2 = np.zeros(N_COMBOS), np.zeros(N_COMBOS)
        w1[preflop_tables.COMBO_INDEX[hand1]] = 1
        w2[preflop_tables.COMBO_INDEX[hand2]] = 1
        result = equity(w1, w2, method="exact")
        win += size * result.win[0]
        tie += size * result.tie
        pairs += size
    return win / pairs, tie / pairs, pairs


def test_canonical_board_counts():
    flops, flop_mult = preflop_tables.canonical_boards(3)
    assert len(flops) == 1755 and flop_mult.sum() == comb(52, 3)
    boards, mult = preflop_tables.canonical_boards(5)
    assert len(boards) == 134_459 and mult.sum() == comb(52, 5)
    assert set(np.unique(mult).tolist()) <= {1, 4, 6, 12, 24}


def test_pair_counts_are_the_joint_prior(flop, allin):
    pairs = flop.pairs
    assert pairs.sum() == N_COMBOS * (N_COMBOS - 51 - 50)  # 1326 * 1225 ordered pairs
    assert np.array_equal(pairs, pairs.T)
    assert np.array_equal(pairs, allin.pairs)
    assert pairs[idx("AA"), idx("KK")] == 36
    assert pairs[idx("AA"), idx("AA")] == 6  # AsAh vs AdAc and its relabellings, ordered
    assert pairs[idx("AKs"), idx("AA")] == 4 * 3  # AKs leaves three aces: three pairs
    assert np.array_equal(pairs.sum(axis=1), CLASS_SIZES * 1225)


@pytest.mark.parametrize("name", ["flop", "allin"])
def test_probabilities_are_consistent(name, request):
    table = request.getfixturevalue(name)
    total = table.win + table.win.T + table.tie
    assert np.allclose(total, 1.0, atol=1e-12)
    assert table.win.min() >= 0 and table.tie.min() >= 0
    assert np.allclose(table.tie, table.tie.T)
    assert np.allclose(np.diag(table.equity), 0.5)


def test_flop_entries_match_phevaluator(flop):
    """Independent enumeration of all 17,296 flops with phevaluator (lower rank is better)."""
    import phevaluator  # the test extra installs it: fail, not skip

    def enumerate_pair(hand1: str, hand2: str) -> tuple[float, float]:
        h1, h2 = parse_cards(hand1), parse_cards(hand2)
        deck = [c for c in range(52) if c not in h1 + h2]
        wins = ties = n = 0
        for board in itertools.combinations(deck, 3):
            r1 = phevaluator.evaluate_cards(*h1, *board)
            r2 = phevaluator.evaluate_cards(*h2, *board)
            wins += r1 < r2
            ties += r1 == r2
            n += 1
        return wins / n, ties / n

    # AA vs AKs is a single suit orbit: every compatible combo pair is AsAh vs AdKd relabelled.
    win, tie = enumerate_pair("AsAh", "AdKd")
    assert flop.win[idx("AA"), idx("AKs")] == pytest.approx(win, abs=1e-12)
    assert flop.tie[idx("AA"), idx("AKs")] == pytest.approx(tie, abs=1e-12)
    # 87s vs 87o is one orbit too (the offsuit hand uses two of the other three suits), and
    # ties are frequent: both hands often play the same straight or the same pair.
    win, tie = enumerate_pair("8h7h", "8d7c")
    assert flop.win[idx("87s"), idx("87o")] == pytest.approx(win, abs=1e-12)
    assert flop.tie[idx("87s"), idx("87o")] == pytest.approx(tie, abs=1e-12)
    assert tie > 0.5


def test_worst_hand_on_the_flop_is_32o(flop):
    """Goykhman §5: ranked by equity against a random hand on the flop, 32o is the worst."""
    order = np.argsort(flop.equity_vs_random())
    assert CLASS_LABELS[order[0]] == "32o"
    assert CLASS_LABELS[order[-1]] == "AA"


def test_worst_hand_all_in_heads_up_is_still_32o(allin):
    """Goykhman §5 says 72o is the worst hand on the river; heads up it is not.

    Exactly, against one random hand on a 5-card board 32o has 32.30% and 72o 34.58%; 72o's
    reputation comes from multiway pots, where its lack of straight and flush chances matters.
    """
    equity = allin.equity_vs_random()
    assert CLASS_LABELS[int(np.argmin(equity))] == "32o"
    assert equity[idx("32o")] == pytest.approx(0.3230322812695285, abs=1e-12)
    assert equity[idx("72o")] == pytest.approx(0.3458364731534416, abs=1e-12)
    assert equity[idx("AA")] == pytest.approx(0.8520371330210104, abs=1e-12)


def test_known_allin_values(allin):
    eq = allin.equity
    assert eq[idx("AA"), idx("KK")] == pytest.approx(0.8194605046767396, abs=1e-12)  # ~82 / 18
    # The published non-transitive triple, pinned to the exact values.
    assert eq[idx("22"), idx("AKo")] == pytest.approx(0.53, abs=0.01)
    assert eq[idx("AKo"), idx("JTs")] == pytest.approx(0.60, abs=0.015)
    assert eq[idx("JTs"), idx("22")] == pytest.approx(0.53, abs=0.01)
    assert eq[idx("22"), idx("AKo")] == pytest.approx(PINNED["22 AKo"], abs=1e-12)
    assert eq[idx("AKo"), idx("JTs")] == pytest.approx(PINNED["AKo JTs"], abs=1e-12)
    assert eq[idx("JTs"), idx("22")] == pytest.approx(PINNED["JTs 22"], abs=1e-12)


PINNED = {
    "22 AKo": 0.5264916451751558,
    "AKo JTs": 0.5948608570674366,
    "JTs 22": 0.5383841011876396,
}


_RANDOM_PAIRS = [
    (CLASS_LABELS[a], CLASS_LABELS[b])
    for a, b in np.random.default_rng(2026).choice(len(CLASS_LABELS), size=(2, 2))
]


@pytest.mark.parametrize("a, b", [("AA", "KK"), ("AKo", "22"), ("JTs", "22"), *_RANDOM_PAIRS])
def test_allin_table_matches_exact_equity(allin, a, b):
    """The 5-card table against the equity module's exact HvH enumeration, orbit by orbit."""
    win, tie, pairs = _exact_class_equity(a, b)
    assert pairs == allin.pairs[idx(a), idx(b)]
    assert allin.win[idx(a), idx(b)] == pytest.approx(win, abs=1e-9)
    assert allin.tie[idx(a), idx(b)] == pytest.approx(tie, abs=1e-9)


def test_small_batch_matches_brute_force():
    """The level/matrix-product accumulation against a direct 1326 x 1326 comparison."""
    boards, mult = preflop_tables.canonical_boards(3)
    pick = np.array([0, 17, 400, 1754])
    boards, mult = boards[pick], mult[pick]
    strength = preflop_tables._strengths(boards).astype(np.int64)
    wins_all, shared = preflop_tables._accumulate_chunk((boards, mult))
    onehot = np.zeros((N_COMBOS, 169))
    onehot[np.arange(N_COMBOS), preflop_tables.COMBO_CLASS] = 1
    live = strength > 0
    compatible = (
        preflop_tables._COMBO_ID_BITS[:, None] & preflop_tables._COMBO_ID_BITS[None, :]
    ) == 0
    direct_all = np.zeros((169, 169))
    direct_compat = np.zeros((169, 169))
    for s, m, alive in zip(strength, mult, live, strict=True):
        beats = (s[:, None] > s[None, :]) & alive[:, None] & alive[None, :]
        direct_all += m * onehot.T @ beats @ onehot
        direct_compat += m * onehot.T @ (beats & compatible) @ onehot
    assert np.array_equal(wins_all, direct_all)
    partner = preflop_tables._card_partner_combos()
    cls = preflop_tables.COMBO_CLASS[partner]
    shared_by_class = np.zeros((169, 169))
    np.add.at(shared_by_class, (cls[:, :, None], cls[:, None, :]), shared)
    assert np.array_equal(wins_all - shared_by_class, direct_compat)


def test_the_shipped_tables_load_without_computing(monkeypatch):
    """The tables ship with the package: loading one reads the file, never the minutes-long
    computation (how long a read takes is the benchmarks' business, not a timed test's)."""

    def refuse(*args, **kwargs):
        raise AssertionError("computed instead of read")

    monkeypatch.setattr(preflop_tables, "compute_table", refuse)
    monkeypatch.setattr(preflop_tables, "_LOADED", {})
    for board_cards in (3, 5):
        path = preflop_tables.DATA_DIR / preflop_tables.TABLE_FILES[board_cards]
        assert path.exists(), f"regenerate with python -m solvers.cards.preflop_tables ({path})"
        table = preflop_tables.load_table(board_cards)
        assert table.win.shape == (169, 169) and table.board_cards == board_cards
        assert preflop_tables.load_table(board_cards) is table  # kept after the first read
