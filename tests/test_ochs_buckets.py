"""Opponent-cluster hand strength river buckets (``ochs``).

References are independent of the code under test: each hand's equity against a cluster by
brute force over the cluster's combos (the project's evaluator in one vectorised call, itself
checked against phevaluator in test_evaluator.py), and synthetic points whose clusters are known.
The full table takes a minute, so the means here are fitted on a sample of rivers.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.abstraction import boards as board_sets
from solvers.abstraction import hand_features as hf
from solvers.abstraction import ochs_buckets as ochs
from solvers.abstraction import ochs_kernels
from solvers.abstraction.buckets import CardAbstraction, parse_abstraction
from solvers.cards.deck import CLASS_LABELS, COMBO_CARDS, COMBO_CLASS, COMBO_INDEX, parse_cards
from solvers.cards.evaluator import evaluate
from solvers.errors import InputError

SMALL = 12


def _combo(text):
    a, b = parse_cards(text)
    return int(COMBO_INDEX[a, b])


def _brute_equity(board, hand, members):
    """Wins plus half the ties of ``hand`` over the ``members`` that share no card with it or
    the board (None when none is left)."""
    used = set(board.tolist()) | set(COMBO_CARDS[hand].tolist())
    left = [o for o in members if not used & set(COMBO_CARDS[o].tolist())]
    if not left:
        return None
    hands = COMBO_CARDS[[hand, *left]]
    seven = np.column_stack([hands, np.broadcast_to(board, (len(hands), 5))])
    strength = evaluate(seven.astype(np.int64))
    return float(np.mean((strength[0] > strength[1:]) + 0.5 * (strength[0] == strength[1:])))


@pytest.mark.parametrize("text", ["Kh 7d 2c 9s 4h", "Jh Th 4h 3c 9h", "As Ad 7c 7h 2s"])
def test_ochs_vectors_match_brute_force_on_any_clustering(text):
    board = np.array(parse_cards(text), dtype=np.int64)
    rng = np.random.default_rng(3)
    cluster = rng.integers(0, 3, 1326).astype(np.int64)
    out = np.empty((1326, 3))
    ochs_kernels.river_ochs(board, cluster, 3, *hf.evaluator_tables(), out)
    blocked = hf.blocked_mask(board[None, :])[0]
    assert (out[blocked] == -1).all()
    for hand in rng.choice(np.flatnonzero(~blocked), 25, replace=False):
        for c in range(3):
            expected = _brute_equity(board, hand, np.flatnonzero(cluster == c))
            assert out[hand, c] == pytest.approx(0.5 if expected is None else expected, abs=1e-12)


def test_starting_hands_cluster_from_weakest_to_strongest():
    clusters = ochs.class_clusters(300, seed=0)
    label = {name: int(clusters[i]) for i, name in enumerate(CLASS_LABELS)}
    assert label["AA"] == label["KK"] == ochs.N_CLUSTERS - 1
    assert label["72o"] == label["32o"] == 0
    assert label["72o"] < label["T9s"] < label["AKs"]
    assert sorted(set(clusters.tolist())) == list(range(ochs.N_CLUSTERS))
    # the same clustering from the same boards
    assert np.array_equal(clusters, ochs.class_clusters(300, seed=0))


def test_kmeans_l2_recovers_separated_clusters():
    rng = np.random.default_rng(4)
    truth = rng.integers(0, 4, 2_000)
    centres = np.array([[0.1, 0.1], [0.1, 0.9], [0.9, 0.1], [0.9, 0.9]])
    points = centres[truth] + rng.normal(0, 0.03, (2_000, 2))
    means = ochs.kmeans_l2(points, 4, seed=1)
    labels, _ = ochs_kernels.l2_nearest(points, means)
    for group in range(4):
        assert len(set(labels[truth == group])) == 1
    assert np.abs(np.sort(means, axis=0) - np.sort(centres, axis=0)).max() < 0.01


@pytest.fixture(scope="module")
def small_means():
    """``SMALL`` bucket means fitted on 80 sampled rivers."""
    return ochs.fit_centroids(SMALL, n_boards=80, n_rows=40_000, seed=2)


def test_buckets_run_from_weakest_to_strongest(small_means):
    sizes = np.bincount(ochs.combo_clusters(), minlength=ochs.N_CLUSTERS)
    strength = small_means.astype(np.float64) @ sizes
    assert np.all(np.diff(strength) >= 0)
    board = np.array(parse_cards("Kh 7d 2c 9s 4h"))
    buckets = ochs.river_buckets(board[None, :], small_means)[0]
    assert buckets[_combo("Kd Ks")] == SMALL - 1  # top set: no hand beats it
    assert buckets[_combo("3d 6s")] == 0  # no pair: nearly every hand beats it


def test_ochs_tells_apart_hands_that_beat_the_same_share_of_all_hands(small_means):
    """Within one hs2 river bucket (the same share of all hands beaten) OCHS puts hands in
    several buckets: who they beat differs."""
    board = np.array(parse_cards("Kh 7d 2c 9s 4h"))
    hs2 = CardAbstraction(5, 5, SMALL).combo_buckets(board, 3)
    mine = ochs.river_buckets(board[None, :], small_means)[0]
    split = [len(set(mine[hs2 == b].tolist())) for b in range(SMALL) if (hs2 == b).any()]
    assert max(split) >= 3


def test_combo_and_deal_buckets_read_ochs_from_means_and_tables(small_means, tmp_path,
                                                                monkeypatch):  # fmt: skip
    monkeypatch.setenv("POKERTUI_CACHE", str(tmp_path))  # no tables: one board computed
    monkeypatch.setattr(ochs, "centroids", lambda n, progress=None: small_means)
    abstraction = parse_abstraction(f"hs2(flop=5,turn=5,river=ochs{SMALL})")
    assert not abstraction.is_cached()
    board = np.array(parse_cards("Jh Td 4h 3c 9s"), dtype=np.int64)
    got = abstraction.combo_buckets(board, 3)
    expected = ochs.river_buckets(board[None, :], small_means)[0].astype(np.int16)
    blocked = hf.blocked_mask(board[None, :])[0]
    assert np.array_equal(got, np.where(blocked, -1, expected))
    # the same hands on the board with its suits renamed: the same buckets
    swap = np.array([1, 0, 3, 2])
    renamed = (board & ~3) | swap[board & 3]
    moved = COMBO_INDEX[(COMBO_CARDS[:, 0] & ~3) | swap[COMBO_CARDS[:, 0] & 3],
                        (COMBO_CARDS[:, 1] & ~3) | swap[COMBO_CARDS[:, 1] & 3]]  # fmt: skip
    assert np.array_equal(abstraction.combo_buckets(renamed, 3)[moved], got)
    # a deal reads the table row of its canonical river, which holds the same buckets
    rng = np.random.default_rng(8)
    cards = np.argsort(rng.random((6, 52)), axis=1)[:, :9]
    holes, boards = cards[:, :4].reshape(6, 2, 2), cards[:, 4:]
    keys, canonical, _ = board_sets.canonical_boards(5)
    table = np.zeros((len(keys), 1326), dtype=np.uint8)
    rows, _ = board_sets.board_index(boards)
    table[rows] = ochs.river_buckets(canonical[rows], small_means)
    abstraction._tables[3] = table
    abstraction._tables[1] = abstraction._tables[2] = np.zeros((1, 1), dtype=np.uint8)
    monkeypatch.setattr(abstraction, "_table", lambda street, progress=None:
                        abstraction._tables[street])  # fmt: skip
    dealt = abstraction.deal_buckets(holes, boards)
    combos = COMBO_INDEX[holes[:, :, 0], holes[:, :, 1]]
    for i in range(6):
        direct = ochs.board_buckets(boards[i], SMALL)
        assert (dealt[i, :, 3] == direct[combos[i]]).all()


def test_ochs_specs_round_trip_and_bad_ones_are_input_errors():
    a = parse_abstraction("pa(flop=40, turn=30, river=OCHS70)")
    assert a.n_buckets == (169, 40, 30, 70) and a.river_kind == "ochs"
    assert a.spec == "pa(flop=40,turn=30,river=ochs70)" and parse_abstraction(a.spec) == a
    assert a != parse_abstraction("pa(flop=40,turn=30,river=70)")
    for bad in ("pa(river=ochs300)", "pa(river=ochs0)", "hs2(river=ochscombo)",
                "hs2(river=ochs)", "hs2(river=och5)", "hs2(turn=ochs5)"):  # fmt: skip
        with pytest.raises(InputError):
            parse_abstraction(bad)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["hs2", "pa"]), st.integers(1, 256), st.integers(1, 256),
       st.integers(1, 256), st.sampled_from(["ochs", "OCHS", "Ochs"]))  # fmt: skip
def test_written_ochs_specs_round_trip(kind, flop, turn, river, word):
    parsed = parse_abstraction(f"{kind}(river={word}{river}, turn={turn}, flop={flop})")
    assert parsed.spec == f"{kind}(flop={flop},turn={turn},river=ochs{river})"
    assert parse_abstraction(parsed.spec) == parsed and parsed.n_buckets[3] == river


def test_starting_hands_of_one_class_share_a_cluster():
    clusters = ochs.combo_clusters()
    for c in range(169):
        assert len(set(clusters[COMBO_CLASS == c].tolist())) == 1
