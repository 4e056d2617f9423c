"""The card abstraction: exact hand strength, percentile buckets, canonical boards, the API.

References are independent of the code under test: brute force over every opponent hand and
runout with phevaluator (or, for the flop's million hands, the project's evaluator in one
vectorised call, itself checked against phevaluator in test_evaluator.py), the published
numbers of strategically distinct boards, and closed-form counts of dealt hands.
"""

from itertools import combinations
from math import comb

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.abstraction import boards as board_sets
from solvers.abstraction import hand_features as hf
from solvers.abstraction.buckets import CardAbstraction, parse_abstraction
from solvers.cards.deck import COMBO_CLASS, COMBO_INDEX, parse_cards
from solvers.cards.evaluator import evaluate
from solvers.errors import InputError


def _river_w(board, hole):
    """2 * wins + ties of ``hole`` against every opponent hand, by phevaluator (lower wins)."""
    board, hole = [int(c) for c in board], [int(c) for c in hole]
    rest = [c for c in range(52) if c not in board and c not in hole]
    mine = evaluate_cards(*board, *hole)
    w = 0
    for a, b in combinations(rest, 2):
        theirs = evaluate_cards(*board, a, b)
        w += 2 if mine < theirs else int(mine == theirs)
    return w


def _random_hole(rng, board):
    free = np.setdiff1d(np.arange(52), board)
    return rng.choice(free, 2, replace=False)


def test_canonical_board_counts_match_the_published_numbers():
    # strategically distinct flops, turns and rivers under suit relabelling
    for k, expected in ((3, 1755), (4, 16432), (5, 134459)):
        keys, boards, weights = board_sets.canonical_boards(k)
        assert len(keys) == expected and weights.sum() == comb(52, k)
        rows, _ = board_sets.board_index(boards)
        assert np.array_equal(rows, np.arange(expected))


def test_relabelled_boards_land_on_their_canonical_board():
    rng = np.random.default_rng(3)
    raw = np.array([rng.permutation(52)[:5] for _ in range(500)])
    for k in (3, 4, 5):
        rows, perm = board_sets.board_index(raw[:, :k])
        moved = np.sort(board_sets.relabel(raw[:, :k], perm), axis=1)
        canon = np.sort(board_sets.canonical_boards(k)[1][rows].astype(np.int64), axis=1)
        assert np.array_equal(moved, canon)
        assert np.array_equal(np.sort(perm, axis=1), np.tile(np.arange(4), (len(raw), 1)))


def test_river_strength_is_exact_against_brute_force():
    rng = np.random.default_rng(11)
    for _ in range(6):
        board = rng.permutation(52)[:5]
        w = hf.features(board[None, :], 3)[0]
        for _ in range(2):
            hole = _random_hole(rng, board)
            assert w[COMBO_INDEX[hole[0], hole[1]]] == _river_w(board, hole)
        assert (w[hf.blocked_mask(board[None, :])[0]] == -1).all()


def test_turn_e_hs2_is_exact_against_brute_force():
    rng = np.random.default_rng(12)
    for _ in range(2):
        board = rng.permutation(52)[:4]
        hole = _random_hole(rng, board)
        rivers = [c for c in range(52) if c not in board and c not in hole]
        total = sum(_river_w([*board, r], hole) ** 2 for r in rivers)
        scale = 1980**2 * 46
        expected = (total * 65535 + scale // 2) // scale
        assert hf.features(board[None, :], 2)[0, COMBO_INDEX[hole[0], hole[1]]] == expected


def test_flop_e_hs2_is_exact_against_brute_force():
    rng = np.random.default_rng(13)
    board = rng.permutation(52)[:3]
    hole = _random_hole(rng, board)
    rest = np.setdiff1d(np.arange(52), np.concatenate([board, hole]))
    runouts = np.array(list(combinations(rest, 2)))  # 1,081 turn-river pairs
    total = 0
    for turn, river in runouts:
        full = np.array([*board, turn, river])
        others = np.setdiff1d(rest, [turn, river])
        opp = np.array(list(combinations(others, 2)))  # 990 opponent hands
        theirs = evaluate(np.column_stack([np.tile(full, (len(opp), 1)), opp]))
        mine = evaluate(np.concatenate([full, hole])[None, :])[0]
        total += int(2 * (mine > theirs).sum() + (mine == theirs).sum()) ** 2
    scale = 1980**2 * 1081
    expected = (total * 65535 + scale // 2) // scale
    assert hf.features(board[None, :], 1)[0, COMBO_INDEX[hole[0], hole[1]]] == expected


def test_flop_sums_from_the_turns_equal_the_direct_sweep():
    """The table build reads a flop's sums off its turns; it must equal 1,176 river sweeps."""
    flops = np.array([parse_cards("AhKhQh"), parse_cards("7c7d2s"), parse_cards("9s8s2d")])
    turns = np.array([[*f, t] for f in flops for t in range(52) if t not in f])
    keys, _ = board_sets.canonical_keys(turns)
    keys = np.unique(keys)
    canon = board_sets.boards_from_keys(keys, 4).astype(np.int64)
    tables = hf.evaluator_tables()
    turn_sums = hf.kernels().runout_w2_sums(canon, *tables)
    derived = hf.lookup_kernels().flop_sums_from_turns(
        flops.astype(np.int64), keys, turn_sums, COMBO_INDEX.astype(np.int64), tables[0]
    )
    direct = hf.kernels().runout_w2_sums(flops.astype(np.int64), *tables)
    assert np.array_equal(derived, direct)


def test_shipped_histograms_count_every_dealt_hand():
    hists = hf.shipped_histograms()
    assert hists["flop"].sum() == comb(52, 3) * comb(49, 2)
    assert hists["turn"].sum() == comb(52, 4) * comb(48, 2)
    assert hists["river"].sum() == comb(52, 5) * comb(47, 2)
    # every win is someone's loss: the mean river hand strength is exactly one half
    river = hists["river"]
    assert (river * np.arange(1981)).sum() == 990 * river.sum()


@pytest.mark.parametrize("n", [8, 50, 200])
def test_percentile_buckets_are_monotone_and_balanced(n):
    for name in ("flop", "turn", "river"):
        hist = hf.shipped_histograms()[name]
        lookup = hf.percentile_buckets(hist, n)
        assert (np.diff(lookup) >= 0).all() and lookup[0] == 0 and lookup[-1] == n - 1
        share = np.bincount(lookup, weights=hist, minlength=n) / hist.sum()
        # equal values share a bucket, so a bucket misses 1/n by at most one value's share
        lump = hist.max() / hist.sum()
        assert np.abs(share - 1 / n).max() <= lump, (name, share.min(), share.max())
        if name != "river" and n <= 50:  # 58,000+ distinct values: balanced within 1 %
            assert np.abs(share * n - 1).max() < 0.01


def test_river_buckets_order_hands_by_strength_and_put_the_nuts_on_top():
    abstraction = CardAbstraction(flop=10, turn=10, river=50)
    board = np.array(parse_cards("AhKhQh7c2d"))
    buckets = abstraction.combo_buckets(board, 3)
    royal = COMBO_INDEX[parse_cards("Jh")[0], parse_cards("Th")[0]]
    worst = COMBO_INDEX[parse_cards("3c")[0], parse_cards("4s")[0]]
    assert buckets[royal] == 49 and buckets[worst] == 0
    rng = np.random.default_rng(5)
    holes = [_random_hole(rng, board) for _ in range(40)]
    strength = [_river_w(board, h) for h in holes]
    chosen = [buckets[COMBO_INDEX[h[0], h[1]]] for h in holes]
    order = np.argsort(strength, kind="stable")
    assert (np.diff(np.array(chosen)[order]) >= 0).all()


def test_flop_buckets_rise_with_brute_force_strength():
    abstraction = CardAbstraction(flop=20, turn=20, river=20)
    board = np.array(parse_cards("9s8s2d"))
    buckets = abstraction.combo_buckets(board, 1)
    sets = [COMBO_INDEX[parse_cards(c)[0], parse_cards(c)[1]] for c in ("9h9d", "8h8d", "2h2c")]
    air = COMBO_INDEX[parse_cards("4c3h")[0], parse_cards("4c3h")[1]]
    assert min(buckets[sets]) >= 18 and buckets[air] <= 2
    # a flush-and-straight draw has potential: above a weak pair, though it holds nothing yet
    draw = COMBO_INDEX[parse_cards("Ts")[0], parse_cards("7s")[0]]
    weak_pair = COMBO_INDEX[parse_cards("2c")[0], parse_cards("3h")[0]]
    assert buckets[draw] > buckets[weak_pair]


def test_preflop_is_the_169_classes_and_blocked_combos_are_marked():
    abstraction = CardAbstraction()
    assert np.array_equal(abstraction.combo_buckets(np.array([], int), 0), COMBO_CLASS)
    board = np.array(parse_cards("AsKd5c"))
    for street in (1, 3):
        full = np.array(parse_cards("AsKd5c7h8h"))
        buckets = abstraction.combo_buckets(full if street == 3 else board, street)
        blocked = hf.blocked_mask(full[None, : 3 if street == 1 else 5])[0]
        assert (buckets[blocked] == -1).all() and (buckets[~blocked] >= 0).all()


def test_combo_mode_is_the_hole_combo():
    abstraction = parse_abstraction("river=combo, flop=3, turn=4")
    assert abstraction.n_buckets == (169, 3, 4, 1326)
    board = np.array(parse_cards("AsKd5c7h8h"))
    buckets = abstraction.combo_buckets(board, 3)
    free = buckets >= 0
    assert np.array_equal(buckets[free], np.flatnonzero(free))


def test_spec_round_trips_and_bad_specs_are_input_errors():
    a = parse_abstraction("hs2(flop=50, turn=60, river=70)")
    assert a.n_buckets == (169, 50, 60, 70) and a.spec == "hs2(flop=50,turn=60,river=70)"
    assert parse_abstraction(a.spec) == a and parse_abstraction("turn=60") == CardAbstraction(
        turn=60
    )
    for bad in (
        "hs2(flop=0)", "flop=100000", "flop=-3", "flop=2.5", "kmeans(flop=3)", "flop=3,flop=4",
        "preflop=10", "flop", "x" * 300, "river=lossy",
    ):  # fmt: skip
        with pytest.raises(InputError):
            parse_abstraction(bad)
    with pytest.raises(InputError):
        CardAbstraction(flop=True)
    with pytest.raises(InputError):
        CardAbstraction().combo_buckets(np.array([1, 1, 2]), 1)
    with pytest.raises(InputError):
        CardAbstraction().combo_buckets(np.array([1, 2]), 1)


def _random_deals(n, seed):
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :9]
    return cards[:, :4].reshape(n, 2, 2), cards[:, 4:]


@pytest.mark.slow
def test_deal_buckets_match_combo_buckets_and_ignore_suit_names(tmp_path, monkeypatch):
    """Tables (cached, canonical boards) and the one-board computation agree on every street."""
    abstraction = CardAbstraction(flop=30, turn=40, river=50)
    holes, boards = _random_deals(3000, 7)
    got = abstraction.deal_buckets(holes, boards)
    assert got.dtype == np.int16 and got.shape == (3000, 2, 4)
    combos = COMBO_INDEX[holes[:, :, 0], holes[:, :, 1]]
    assert np.array_equal(got[:, :, 0], COMBO_CLASS[combos])
    monkeypatch.setenv("POKERTUI_CACHE", str(tmp_path))  # no tables: computed per board
    fresh = CardAbstraction(flop=30, turn=40, river=50)
    for i in range(0, 3000, 150):
        for street in (1, 2, 3):
            row = fresh.combo_buckets(boards[i], street)
            assert (got[i, :, street] == row[combos[i]]).all()
    # renaming suits (a random permutation per deal) changes no bucket
    perm = np.argsort(np.random.default_rng(8).random((3000, 4)), axis=1)
    renamed = board_sets.relabel(holes, perm), board_sets.relabel(boards, perm)
    again = abstraction.deal_buckets(*renamed)
    assert np.array_equal(again, got)
    # dealt hands spread evenly over the buckets
    for street, n in ((1, 30), (2, 40), (3, 50)):
        share = np.bincount(got[:, :, street].ravel(), minlength=n) / got[:, :, street].size
        assert share.max() < 2.2 / n and share.min() > 0.3 / n


@pytest.mark.slow
def test_a_corrupt_or_unwritable_cache_costs_only_a_rebuild(tmp_path, monkeypatch):
    from solvers.abstraction import bucket_tables

    monkeypatch.setenv("POKERTUI_CACHE", str(tmp_path))
    path = bucket_tables.cache_dir() / f"{bucket_tables.FORMAT}_buckets_river_3.npy"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a table")
    assert not bucket_tables.cached(3, 3)
    table = bucket_tables.bucket_table(3, 3)
    assert table.shape == (134459, 1326) and bucket_tables.cached(3, 3)
    # a table of the wrong shape, put in place by rename as the cache writes (rewriting the
    # file in place would pull the pages from under ``table``, which maps it)
    np.save(tmp_path / "wrong.npy", np.zeros((5, 1326), dtype=np.uint8))
    (tmp_path / "wrong.npy").replace(path)
    assert not bucket_tables.cached(3, 3)
    again = bucket_tables.bucket_table(3, 3)
    assert np.array_equal(again, table)
    _, boards, _ = board_sets.canonical_boards(5)
    rows = [0, 777, 134458]
    lookup = hf.percentile_buckets(hf.shipped_histograms()["river"], 3)
    for row in rows:
        w = hf.features(boards[row][None, :].astype(np.int64), 3)[0]
        assert np.array_equal(table[row][w >= 0], lookup[w[w >= 0]])
    # a cache folder that cannot be made: the table is built, said so, and kept in memory
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("POKERTUI_CACHE", str(blocker))
    said: list[str] = []
    kept = bucket_tables.bucket_table(3, 3, said.append)
    assert np.array_equal(kept, table) and any("could not cache" in m for m in said)
    assert bucket_tables.bucket_table(3, 3) is kept


@pytest.mark.slow
def test_shipped_histograms_rebuild_bit_for_bit():
    from solvers.abstraction import bucket_tables

    flop, turn = bucket_tables.feature_table(1), bucket_tables.feature_table(2)
    rebuilt = hf.build_histograms(flop, turn)
    for name, shipped in hf.shipped_histograms().items():
        assert np.array_equal(rebuilt[name], shipped), name
