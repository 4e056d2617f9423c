"""The potential-aware card abstraction (``pa``) and the fixed-turn game that measures it.

References are independent of the code under test: river strengths by brute force over every
opponent hand (the project's evaluator in one vectorised call, itself checked against
phevaluator in test_evaluator.py), scipy's Wasserstein distance for the EMD, brute-force
weighted medians, synthetic clusters whose membership is known, and the fixed-board exact
evaluator for the fixed-turn one. The full tables take minutes, so the clusters here are fitted
on a sample of boards; the tables' lookups are checked against the one-board computation.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import wasserstein_distance

from solvers.abstraction import boards as board_sets
from solvers.abstraction import emd_kernels
from solvers.abstraction import hand_features as hf
from solvers.abstraction import potential_buckets as pa
from solvers.abstraction.betting import parse_betting
from solvers.abstraction.betting_tree import DECISION, build_tree, root_state
from solvers.abstraction.buckets import CardAbstraction, parse_abstraction
from solvers.abstraction.emd_kmeans import ground_order, kmeans_emd, kmedians_l1
from solvers.algorithms.blueprint_deals import FixedBoardDeals, FixedTurnDeals
from solvers.algorithms.blueprint_exact import exact_figures
from solvers.algorithms.blueprint_turn_exact import exact_turn_figures
from solvers.cards.deck import COMBO_CARDS, COMBO_INDEX, N_COMBOS, parse_cards
from solvers.cards.evaluator import evaluate
from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig

SMALL = 8
"""Flop and turn clusters of the sampled fit."""


def _combo(text):
    a, b = parse_cards(text)
    return int(COMBO_INDEX[a, b])


def _brute_river_histogram(board, hole):
    """Counts of the hand's 46 rivers per strength bin, from 2 * wins + ties over all 990
    opponent hands of each river."""
    counts = np.zeros(pa.N_BINS, dtype=np.int64)
    for river in np.setdiff1d(np.arange(52), np.concatenate([board, hole])):
        full = np.append(board, river)
        rest = np.setdiff1d(np.arange(52), np.concatenate([full, hole]))
        pairs = np.array([(a, b) for i, a in enumerate(rest) for b in rest[i + 1 :]])
        seven = np.column_stack([pairs, np.broadcast_to(full, (len(pairs), 5))])
        mine = evaluate(np.append(hole, full)[None, :].astype(np.int64))[0]
        theirs = evaluate(seven.astype(np.int64))
        w = 2 * int((mine > theirs).sum()) + int((mine == theirs).sum())
        counts[w * pa.N_BINS // (hf.W_MAX + 1)] += 1
    return counts


def test_turn_histograms_match_brute_force_and_their_emd_is_wasserstein():
    board = np.array(parse_cards("Kh 7d 2c 9s"))
    holes = ["As Ah", "7s 2h", "Qh Jh", "8c 6c", "Kd 9d"]
    cdf = pa.decode(pa.turn_keys(board[None, :])[0])
    brute = {h: _brute_river_histogram(board, np.array(parse_cards(h))) for h in holes}
    for h in holes:
        assert brute[h].sum() == 46
        assert np.array_equal(cdf[_combo(h)], np.cumsum(brute[h])[:-1])
    assert (pa.turn_keys(board[None, :])[0][hf.blocked_mask(board[None, :])[0]] == -1).all()
    centres = (np.arange(pa.N_BINS) + 0.5) / pa.N_BINS
    rows = np.stack([cdf[_combo(h)] for h in holes])
    ground = pa.turn_ground(rows)
    _, by_kernel = emd_kernels.l1_nearest(rows[:1].astype(float), rows[1:2].astype(float))
    for i, a in enumerate(holes):
        for j, b in enumerate(holes):
            expected = wasserstein_distance(centres, centres, brute[a], brute[b])
            assert ground[i, j] == pytest.approx(expected, abs=1e-12)
    assert by_kernel[0] / 46 / pa.N_BINS == pytest.approx(ground[0, 1], abs=1e-12)


def test_greedy_emd_is_exact_for_one_bucket_and_never_below_the_true_emd():
    rng = np.random.default_rng(4)
    n_buckets = 12
    x = np.sort(rng.random(n_buckets))  # buckets on a line: the exact EMD is Wasserstein-1
    ground = np.abs(x[:, None] - x[None, :])
    order, distance = ground_order(ground)
    for trial in range(60):
        mean = rng.dirichlet(np.ones(n_buckets) * 0.5)
        spread = 1 if trial < 10 else rng.integers(2, 8)
        row = np.sort(rng.choice(rng.choice(n_buckets, spread, replace=False), 47)).astype(np.int16)
        _, got = emd_kernels.emd_nearest(row[None, :], mean[None, :], order, distance)
        point = np.bincount(row, minlength=n_buckets) / 47
        exact = wasserstein_distance(x, x, point, mean)
        assert got[0] >= exact - 1e-12
        if spread == 1:
            assert got[0] == pytest.approx(exact, abs=1e-12)
    same = np.sort(rng.integers(0, n_buckets, 47)).astype(np.int16)
    mass = np.bincount(same, minlength=n_buckets) / 47
    assert emd_kernels.emd_nearest(same[None], mass[None], order, distance)[1][0] < 1e-12


def test_kmedians_recovers_separated_clusters_and_takes_weighted_medians():
    rng = np.random.default_rng(0)
    centres = np.array([[2, 5, 9], [20, 25, 30], [40, 44, 46]])
    truth = rng.integers(0, 3, 600)
    points = np.clip(centres[truth] + rng.integers(-2, 3, (600, 3)), 0, 46)
    weights = rng.uniform(0.5, 3.0, 600)
    fitted = kmedians_l1(points, weights, 3, seed=1)
    labels, _ = emd_kernels.l1_nearest(points.astype(float), fitted.astype(float))
    for group in range(3):
        assert len(set(labels[truth == group])) == 1
    assert len(set(labels)) == 3
    # one cluster: its centroid minimises the weighted L1 sum, coordinate by coordinate
    alone = kmedians_l1(points, weights, 1, seed=1)[0]
    for d in range(3):
        cost = [(weights * np.abs(points[:, d] - v)).sum() for v in range(47)]
        assert cost[alone[d]] == pytest.approx(min(cost))


def test_kmeans_emd_recovers_separated_clusters():
    rng = np.random.default_rng(2)
    n_buckets = 20
    ground = np.abs(np.arange(n_buckets)[:, None] - np.arange(n_buckets)[None, :]) / n_buckets
    truth = rng.integers(0, 3, 400)
    centre = np.array([2, 10, 17])[truth]
    rows = np.sort(np.clip(centre[:, None] + rng.integers(-2, 3, (400, 47)), 0, n_buckets - 1))
    means = kmeans_emd(rows.astype(np.int16), np.ones(400), 3, ground, seed=3)
    assert np.allclose(means.sum(axis=1), 1.0)
    order, distance = ground_order(ground)
    labels, _ = emd_kernels.emd_nearest(rows.astype(np.int16), means, order, distance)
    for group in range(3):
        assert len(set(labels[truth == group])) == 1
    assert len(set(labels)) == 3


@pytest.fixture(scope="module")
def sampled_fit():
    """Turn centroids fitted on 300 canonical turns and flop means on 24 flops and Kh 7d 2c."""
    rng = np.random.default_rng(0)
    _, turns, weights = board_sets.canonical_boards(4)
    picked = rng.choice(len(turns), 300, replace=False)
    keys = pa.turn_keys(turns[picked])
    valid = keys >= 0
    distinct, inverse = np.unique(keys[valid], return_inverse=True)
    mass = np.bincount(inverse, np.broadcast_to(weights[picked][:, None], keys.shape)[valid])
    fitted = kmedians_l1(pa.decode(distinct), mass, SMALL, seed=0)
    turn = fitted[np.argsort(pa.turn_strength(fitted), kind="stable")]
    flops = board_sets.canonical_boards(3)[1][rng.choice(1755, 24, replace=False)]
    flops = np.vstack([flops, parse_cards("Kh 7d 2c")]).astype(np.int64)
    rows = np.vstack([r[r[:, 0] >= 0] for r in (pa.flop_board_rows(f, turn) for f in flops)])
    means = kmeans_emd(rows, np.ones(len(rows)), SMALL, pa.turn_ground(turn), seed=0)
    return turn, means


def test_pa_splits_aces_from_seven_deuce_on_k72_where_hs2_joins_them(sampled_fit, tmp_path,
                                                                      monkeypatch):  # fmt: skip
    monkeypatch.setenv("POKERTUI_CACHE", str(tmp_path))  # no tables: one board computed
    turn, means = sampled_fit
    flop = np.array(parse_cards("Kh 7d 2c"))
    aces, seven_deuce = _combo("As Ah"), _combo("7s 2h")
    rows = pa.flop_board_rows(flop, turn)
    labels = pa.flop_labels(rows[[aces, seven_deuce]], means, pa.turn_ground(turn))
    assert labels[0] != labels[1]
    # what tells them apart is the spread of their turn buckets over the 47 turns
    assert not np.array_equal(rows[aces], rows[seven_deuce])
    for n in (SMALL, 50):
        hs2 = CardAbstraction(n, n, n).combo_buckets(flop, 1)
        assert hs2[aces] == hs2[seven_deuce]


def test_turn_centroids_order_buckets_by_strength(sampled_fit):
    turn, _ = sampled_fit
    board = np.array(parse_cards("Kh 7d 2c 9s"))
    buckets = pa.turn_board_buckets(board[None, :], turn)[0]
    assert buckets[_combo("Kd Ks")] == SMALL - 1 and buckets[_combo("4s 3h")] == 0
    assert (buckets[hf.blocked_mask(board[None, :])[0]] == -1).all()
    assert np.all(np.diff(pa.turn_strength(turn)) >= 0)


def _inject_tables(abstraction, boards):
    """Fill the flop and turn table rows of these deals' canonical boards from the one-board
    computation on the canonical board itself (what a table row is)."""
    for street, k in ((1, 3), (2, 4)):
        keys, canonical, _ = board_sets.canonical_boards(k)
        table = np.zeros((len(keys), N_COMBOS), dtype=np.uint8)
        rows, _ = board_sets.board_index(boards[:, :k])
        for row in np.unique(rows):
            buckets = abstraction.combo_buckets(canonical[row].astype(np.int64), street)
            table[row] = np.maximum(buckets, 0)
        abstraction._tables[street] = table


@pytest.mark.parametrize("kind", ["hs2", "pa"])
def test_deal_buckets_equal_combo_buckets_on_the_deals_board(kind, sampled_fit, tmp_path,
                                                               monkeypatch):  # fmt: skip
    monkeypatch.setenv("POKERTUI_CACHE", str(tmp_path))
    turn, means = sampled_fit
    monkeypatch.setattr(pa, "turn_centroids", lambda n, progress=None: turn)
    monkeypatch.setattr(pa, "flop_means", lambda n, n_turn, progress=None: means)
    abstraction = parse_abstraction(f"{kind}(flop={SMALL},turn={SMALL},river=combo)")
    rng = np.random.default_rng(11)
    cards = np.argsort(rng.random((10, 52)), axis=1)[:, :9]
    holes, boards = cards[:, :4].reshape(10, 2, 2), cards[:, 4:]
    _inject_tables(abstraction, boards)
    got = abstraction.deal_buckets(holes, boards)
    combos = COMBO_INDEX[holes[:, :, 0], holes[:, :, 1]]
    for i in range(10):
        for street in (1, 2, 3):
            row = abstraction.combo_buckets(boards[i], street)
            assert (got[i, :, street] == row[combos[i]]).all()
    assert len(np.unique(got[:, :, 1])) > 2  # not one bucket for everything


def test_spec_round_trips_and_bad_specs_are_input_errors():
    a = parse_abstraction("pa(flop=40, turn=30, river=70)")
    assert a.kind == "pa" and a.n_buckets == (169, 40, 30, 70)
    assert a.spec == "pa(flop=40,turn=30,river=70)" and parse_abstraction(a.spec) == a
    assert a != parse_abstraction("hs2(flop=40,turn=30,river=70)")
    assert parse_abstraction("PA(river=combo)").spec == "pa(flop=50,turn=50,river=combo)"
    for bad in ("pa(flop=300)", "pa(turn=combo)", "kmeans(flop=3)", "pa(flop=3", "pa flop=3",
                "pa(flop=3,size=4)", "(flop=3)", "pa(flop=3)(turn=2)"):  # fmt: skip
        with pytest.raises(InputError):
            parse_abstraction(bad)
    with pytest.raises(InputError):
        CardAbstraction(kind="emd")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="pahs2()=,flopturnivecmb0123456789 ", max_size=40))
def test_any_text_parses_and_round_trips_or_is_an_input_error(text):
    try:
        parsed = parse_abstraction(text)
    except InputError:
        return
    assert parse_abstraction(parsed.spec) == parsed


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["hs2", "pa"]), st.integers(1, 256), st.integers(1, 256),
       st.one_of(st.integers(1, 1000), st.just("combo")))  # fmt: skip
def test_written_specs_round_trip(kind, flop, turn, river):
    text = f"{kind}(river={river}, turn={turn}, flop={flop})"
    parsed = parse_abstraction(text)
    assert parsed.spec == f"{kind}(flop={flop},turn={turn},river={river})"
    assert parse_abstraction(parsed.spec) == parsed


def _turn_game():
    rng = np.random.default_rng(5)
    ranges = (np.zeros(N_COMBOS), np.zeros(N_COMBOS))
    board = parse_cards("Jh Td 4h 3c")
    allowed = np.flatnonzero(~np.isin(COMBO_CARDS, board).any(axis=1))
    for weights in ranges:
        weights[rng.choice(allowed, 30, replace=False)] = rng.uniform(0.5, 1.0, 30)
    tree = build_tree(parse_betting("pre=a; flop=a; turn=75%,a|a; river=75%,a|a"),
                      root_state(HunlConfig(10), 2, 200))  # fmt: skip
    return board, ranges, tree


def test_fixed_turn_deals_deal_every_river_alike_and_read_the_buckets():
    board, ranges, _ = _turn_game()
    abstraction = CardAbstraction(10, 10, 10)
    deals = FixedTurnDeals(board, ranges, abstraction)
    assert deals.n_buckets == (1, 1, 10, 10)
    n = 60_000
    chosen, river = deals.deal(n, np.random.default_rng(1))
    cards = np.column_stack([COMBO_CARDS[chosen].reshape(n, 4), river])
    assert (np.sort(cards, axis=1)[:, 1:] != np.sort(cards, axis=1)[:, :-1]).all()
    assert not np.isin(cards, board).any()
    assert ((ranges[0][chosen[:, 0]] > 0) & (ranges[1][chosen[:, 1]] > 0)).all()
    # the river is uniform over the 44 cards each deal leaves: a card's expected count is the
    # number of deals it is free in, over 44 (about 1,250 here, so 15% is over 5 sigma)
    free = np.ones((n, 52), dtype=bool)
    free[np.arange(n)[:, None], cards[:, :4]] = False
    free[:, board] = False
    expected = free.sum(axis=0) / 44
    counts = np.bincount(river, minlength=52)
    rivers = np.setdiff1d(np.arange(52), board)
    assert np.abs(counts[rivers] / expected[rivers] - 1).max() < 0.15
    buckets, winners = deals.sample(2_000, np.random.default_rng(2))
    chosen, river = deals.deal(2_000, np.random.default_rng(2))
    turn = abstraction.combo_buckets(np.array(board), 2)
    assert np.array_equal(buckets[:, :, 2], turn[chosen])
    for i in range(0, 2_000, 97):
        on_river = abstraction.combo_buckets(np.array([*board, river[i]]), 3)
        assert np.array_equal(buckets[i, :, 3], on_river[chosen[i]])
        seven = [np.array([*COMBO_CARDS[c], *board, river[i]])[None, :] for c in chosen[i]]
        assert winners[i] == np.sign(int(evaluate(seven[0])[0]) - int(evaluate(seven[1])[0]))
    fine = FixedTurnDeals(board, ranges, abstraction, lossless_river=True)
    assert fine.n_buckets == (1, 1, 10, 52 * N_COMBOS)
    assert np.array_equal(fine.turn_buckets, deals.turn_buckets)
    hand = _combo("As Ks")
    assert fine.river_buckets[parse_cards("2s")[0], hand] == parse_cards("2s")[0] * N_COMBOS + hand
    with pytest.raises(InputError):
        FixedTurnDeals(board[:3], ranges)


def test_fixed_turn_exact_value_is_the_weighted_mean_of_the_fixed_river_games():
    board, ranges, tree = _turn_game()
    rng = np.random.default_rng(9)
    policy = {}
    for node in np.flatnonzero(tree.kind == DECISION):
        policy[int(node)] = rng.dirichlet(np.ones(int(tree.n_actions[node])), N_COMBOS)
    deals = FixedTurnDeals(board, ranges)  # lossless: turn bucket = combo, river = card, combo

    def rows(node):
        return policy[node] if tree.street[node] == 2 else np.tile(policy[node], (52, 1))

    turn = exact_turn_figures(tree, deals, rows)
    total = mass = 0.0
    best_known = 0.0
    for river in deals.rivers:
        fixed = FixedBoardDeals([*board, int(river)], ranges)
        live = np.flatnonzero(fixed.weights[0] > 0), np.flatnonzero(fixed.weights[1] > 0)
        cards = COMBO_CARDS[live[0]], COMBO_CARDS[live[1]]
        fits = ~(cards[0][:, None, :, None] == cards[1][None, :, None, :]).any(axis=(2, 3))
        weight = fixed.weights[0][live[0]] @ fits @ fixed.weights[1][live[1]]
        figures = exact_figures(tree, fixed, lambda node: policy[node])
        total += weight * figures.values[0]
        best_known += weight * figures.best_responses[0]
        mass += weight
    assert turn.values[0] == pytest.approx(total / mass, rel=1e-9, abs=1e-9)
    assert turn.values[0] == pytest.approx(-turn.values[1], abs=1e-9)
    # a best response that sees the river only when it comes earns less than one seeing it early
    assert turn.values[0] - 1e-9 <= turn.best_responses[0] <= best_known / mass + 1e-9


def test_pa_tables_are_read_for_their_own_counts(tmp_path, monkeypatch):
    monkeypatch.setenv("POKERTUI_CACHE", str(tmp_path))
    asked = []

    def table(*counts, progress=None):
        asked.append(counts)
        return np.zeros((3, N_COMBOS), dtype=np.uint8)

    monkeypatch.setattr(pa, "flop_table", lambda n, n_turn, progress=None: table(n, n_turn))
    monkeypatch.setattr(pa, "turn_table", lambda n, progress=None: table(n))
    abstraction = parse_abstraction("pa(flop=12,turn=7,river=combo)")
    assert not abstraction.is_cached()
    abstraction.prepare()
    assert asked == [(12, 7), (7,)] and abstraction.is_cached()


def test_pa_river_buckets_are_the_hs2_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("POKERTUI_CACHE", str(tmp_path))
    board = np.array(parse_cards("Jh Td 4h 3c 9s"))
    mine = parse_abstraction("pa(flop=5,turn=5,river=20)").combo_buckets(board, 3)
    assert np.array_equal(mine, CardAbstraction(5, 5, 20).combo_buckets(board, 3))
    assert len(np.unique(mine[mine >= 0])) > 10
