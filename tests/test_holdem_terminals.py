"""Hold'em terminal values equal a brute-force dense matrix built with phevaluator, to 1e-12."""

from itertools import combinations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.cards.deck import COMBO_CARDS, card_str, cards_str
from solvers.games import load_game
from solvers.games.holdem import terminal_kernels
from solvers.games.spec import forget_built_games
from tests.conftest import ROOT


def _random_range(rng, board, n_combos):
    """A range string of ``n_combos`` random combos off the board with random weights."""
    live = [c for c in range(1326) if not set(COMBO_CARDS[c]) & set(board)]
    picks = rng.choice(live, size=n_combos, replace=False)
    items = [f"{cards_str(COMBO_CARDS[c])}:{rng.uniform(0.05, 1):.4f}" for c in picks]
    return ", ".join(items)


def _spot(rng, n_board, n_combos, sizes="50%, a", raises="a"):
    board = [int(c) for c in rng.choice(52, size=n_board, replace=False)]
    streets = ("turn", "river") if n_board == 4 else ("river",)
    size_args = "".join(
        f',{s}_oop_bet="{sizes}",{s}_ip_bet="{sizes}",{s}_oop_raise="{raises}",'
        f'{s}_ip_raise="{raises}"'
        for s in streets
    )
    return load_game(
        f'nlhe(board="{cards_str(board, " ")}",pot=20,stack=30,'
        f'oop_range="{_random_range(rng, board, n_combos)}",'
        f'ip_range="{_random_range(rng, board, n_combos)}"{size_args})'
    )


def _strength(cards):
    return -evaluate_cards(*(card_str(int(c)) for c in cards))  # phevaluator: lower is better


def _dense(game, node):
    """``[n0, n1]`` player 0's payoff times the prior, pair by pair (runouts enumerated)."""
    put0, put1 = node.contributions
    combos = game.hand_combos
    matrix = np.zeros(game.n_hands)
    for i, a in enumerate(combos[0]):
        for j, b in enumerate(combos[1]):
            if game.prior[i, j] == 0:
                continue
            hole_a, hole_b = COMBO_CARDS[a], COMBO_CARDS[b]
            if set(node.board) & (set(hole_a) | set(hole_b)):
                continue  # a dealt card blocks the pair: the chance masks zero it
            if node.terminal == "fold":
                matrix[i, j] = -put0 if node.folder == 0 else put1
                continue
            used = set(node.board) | set(hole_a) | set(hole_b)
            left = [c for c in range(52) if c not in used]
            runouts = list(combinations(left, 5 - len(node.board)))
            total = 0.0
            for extra in runouts:
                board = [*node.board, *extra]
                sa, sb = _strength([*board, *hole_a]), _strength([*board, *hole_b])
                total += put1 if sa > sb else (-put0 if sa < sb else 0.0)
            matrix[i, j] = total / len(runouts)
    return matrix * game.prior


def _check_all_terminals(game, rng, terminals):
    """Values of the hands that can be at each terminal; the opponent's reach is zero on hands
    a dealt card blocks, as the walk's chance masks make it (own blocked hands are masked later)."""
    rows = [int(np.flatnonzero(game.terminal_ids == t.id)[0]) for t in terminals]
    for player in (0, 1):
        n_opp = game.n_hands[1 - player]
        reach = rng.uniform(0, 1, size=(len(game.terminal_ids), n_opp))
        for node, row in zip(terminals, rows, strict=True):
            reach[row] *= game.hand_possible(node, 1 - player)
        values = game.terminal_values_batch(player, reach)
        for node, row in zip(terminals, rows, strict=True):
            dense = _dense(game, node)
            expected = dense @ reach[row] if player == 0 else -(reach[row] @ dense)
            possible = game.hand_possible(node, player)
            assert possible.sum() > 0
            np.testing.assert_allclose(values[row][possible], expected[possible], atol=1e-12)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_river_terminals_match_a_dense_matrix(seed):
    rng = np.random.default_rng(seed)
    game = _spot(rng, 5, 60)
    terminals = [game.nodes[int(t)] for t in game.terminal_ids]
    assert {n.terminal for n in terminals} == {"fold", "showdown"}
    _check_all_terminals(game, rng, terminals)


def test_ties_and_blockers_on_a_paired_board_match_a_dense_matrix():
    """Many split pots: a board with a full house on it makes most hands tie."""
    rng = np.random.default_rng(7)
    game = load_game(
        'nlhe(board="Ks Kd Kh 7c 7d",pot=10,stack=10,oop_range="random",ip_range="77+,A7s+,KQo",'
        'river_oop_bet="a",river_ip_raise="a")'
    )
    terminals = [game.nodes[int(t)] for t in game.terminal_ids]
    _check_all_terminals(game, rng, terminals)


def test_turn_terminals_and_all_in_runouts_match_a_dense_matrix():
    rng = np.random.default_rng(11)
    game = _spot(rng, 4, 25)
    terminals = [game.nodes[int(t)] for t in game.terminal_ids]
    runouts = [n for n in terminals if n.terminal == "showdown" and len(n.board) == 4]
    assert runouts, "an all-in on the turn must be valued over the river runouts"
    rivers = [n for n in terminals if len(n.board) == 5][:6]
    _check_all_terminals(game, rng, [*runouts, *rivers])


def test_identical_ranges_match_a_dense_matrix():
    """Same combos for both players: every hand's identical combo is the opponent's same index."""
    rng = np.random.default_rng(5)
    text = _random_range(rng, [], 70)
    game = load_game(
        f'nlhe(board="Ah 9c 9d 4s 2h",pot=8,stack=12,oop_range="{text}",ip_range="{text}",'
        'river_oop_bet="50%, a",river_ip_bet="a",river_oop_raise="a")'
    )
    for same in game.strengths.same:
        np.testing.assert_array_equal(same, np.arange(game.n_hands[0]))
    terminals = [game.nodes[int(t)] for t in game.terminal_ids]
    _check_all_terminals(game, rng, terminals)


FLOP_ALLIN = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA, KQs, 87s",'
    'ip_range="QQ, AKs, T9s, AA:0.5",flop_oop_bet="a",flop_ip_bet="a")'
)
"""Flop all-ins: showdowns valued over every 2-card runout (1,081 boards)."""


@pytest.mark.parametrize("dense_from", [1, 10_000])
@pytest.mark.parametrize(
    "spot", [str(ROOT / "spots" / "river.toml"), str(ROOT / "spots" / "turn.toml"), FLOP_ALLIN]
)
def test_the_compiled_terminals_equal_the_numpy_oracle_on_every_terminal(
    monkeypatch, spot, dense_from
):
    """Every terminal of the shipped river and turn spots and of flop all-ins (many boards,
    runouts, both fold paths of the numpy oracle), in float64 and float32: the compiled loops
    against the vectorised numpy sweep."""
    from tests import showdown_oracle  # noqa: PLC0415

    monkeypatch.setattr(showdown_oracle, "DENSE_FOLD_ROWS", dense_from)
    game = load_game(spot)
    rng = np.random.default_rng(3)
    for player in (0, 1):
        reach = rng.uniform(0, 1, size=(len(game.terminal_ids), game.n_hands[1 - player]))
        expected = showdown_oracle.terminal_values_batch(game, player, reach)
        values = game.terminal_values_batch(player, reach)
        assert np.abs(expected).max() > 0.1
        np.testing.assert_allclose(values, expected, rtol=0, atol=1e-11)
        single = game.terminal_values_batch(player, reach.astype(np.float32))
        assert single.dtype == np.float32
        np.testing.assert_allclose(single, expected, rtol=1e-5, atol=1e-6 * np.abs(expected).max())


@pytest.mark.parametrize("identical", [False, True])
def test_flop_runouts_valued_as_one_product_match_a_dense_matrix(identical):
    """A flop's called all-ins and checked-down lines are showdowns over every 2-card runout,
    valued as one product with the runouts' summed signs (``HoldemGame._dense_runouts``), hands
    sharing a card (the identical combo too) counting neither way."""
    rng = np.random.default_rng(13)
    board = [int(c) for c in rng.choice(52, size=3, replace=False)]
    oop = _random_range(rng, board, 9)
    ip = oop if identical else _random_range(rng, board, 9)
    game = load_game(
        f'nlhe(board="{cards_str(board, " ")}",pot=20,stack=30,oop_range="{oop}",'
        f'ip_range="{ip}",flop_oop_bet="50%, a",flop_ip_bet="a")'
    )
    tables = game.combo_terminals()
    dense = [game.nodes[int(t)] for t in game.terminal_ids[tables.dense_of >= 0]]
    assert {n.key for n in dense} >= {"x/x", "b10/c", "b30/c", "x/b30/c"}
    assert tables.dense[0].shape == (1, *game.n_hands)  # one board: one matrix for them all
    _check_all_terminals(game, rng, dense)


def test_a_runout_matrix_kept_for_more_hands_serves_fewer(monkeypatch):
    """A flop's runout matrix is kept (``runout_cache.py``): a game on the same flop whose hands
    are among the kept ones picks its rows and columns out, equal to its own build; one with a
    hand the kept matrix lacks builds its own."""
    from solvers.games.holdem import runout_cache, terminal_kernels  # noqa: PLC0415

    rng = np.random.default_rng(17)
    board = [int(c) for c in rng.choice(52, size=3, replace=False)]
    flop = cards_str(board, " ")
    live = [c for c in range(1326) if not set(COMBO_CARDS[c]) & set(board)]
    wide = [rng.choice(live, size=60, replace=False) for _ in range(2)]
    narrow = [rng.choice(w, size=25, replace=False) for w in wide]

    def spot(combos):  # built anew each time, not the game load_game keeps
        forget_built_games()
        oop, ip = (", ".join(cards_str(COMBO_CARDS[c]) for c in side) for side in combos)
        return load_game(
            f'nlhe(board="{flop}",pot=20,stack=30,oop_range="{oop}",ip_range="{ip}",'
            'flop_oop_bet="a",flop_ip_bet="a")'
        )

    def matrix(game):
        return game.combo_terminals().dense[0][0]

    runout_cache.clear()
    built = matrix(spot(narrow))
    runout_cache.clear()
    matrix(spot(wide))

    def refuse(*args):
        raise AssertionError("built again")

    with monkeypatch.context() as patch:
        patch.setattr(terminal_kernels, "runout_signs_on_all_threads", refuse)
        np.testing.assert_array_equal(matrix(spot(narrow)), built)
        swapped = spot(narrow[::-1])  # the players' hands swapped: not among the kept ones
        with pytest.raises(AssertionError, match="built again"):
            matrix(swapped)
    assert np.abs(built).max() > 0

    # hands the kept matrix lacks: only their rows and columns are built, the rest copied, and
    # the matrix equals a build from nothing (a duplicate deal's second play on the flop)
    other = [c for c in live if c not in set(wide[0]) | set(wide[1])]
    mixed = [np.concatenate([narrow[0], rng.choice(other, size=10, replace=False)]),
             np.concatenate([rng.choice(other, size=5, replace=False), narrow[1]])]  # fmt: skip
    runout_cache.clear()
    whole = matrix(spot(mixed))
    cells = []
    full = terminal_kernels.runout_signs_on_all_threads

    def counted(*args):
        cells.append(args[-1].size)
        full(*args)

    runout_cache.clear()
    matrix(spot(wide))
    with monkeypatch.context() as patch:
        patch.setattr(terminal_kernels, "runout_signs_on_all_threads", counted)
        np.testing.assert_array_equal(matrix(spot(mixed)), whole)
    assert cells == [10 * 30, 25 * 5]  # the new rows against every column, then the new columns


def test_a_released_game_builds_the_same_tables_again(monkeypatch):
    """``HoldemGame.release`` drops the walks and the showdown tables a kept flop solve no
    longer needs, and gives the heap's free pages back once (not when there was nothing to
    free); the next walk builds them again, and the values are the same to the bit."""
    from solvers.algorithms.base import make_solver  # noqa: PLC0415
    from solvers.exact.evaluation import exploitability  # noqa: PLC0415
    from solvers.games.holdem import game as holdem_game  # noqa: PLC0415

    trims = []
    monkeypatch.setattr(holdem_game, "trim_heap", lambda: trims.append(1))

    rng = np.random.default_rng(19)
    board = [int(c) for c in rng.choice(52, size=3, replace=False)]
    game = load_game(
        f'nlhe(board="{cards_str(board, " ")}",pot=20,stack=30,'
        f'oop_range="{_random_range(rng, board, 30)}",ip_range="{_random_range(rng, board, 30)}",'
        'flop_oop_bet="50%, a",flop_ip_bet="a",turn_oop_bet="a",turn_ip_bet="a")'
    )
    solver = make_solver(game, "dcfr")
    solver.run(iterations=5)
    strategy = solver.average_strategy()
    reach = rng.uniform(0, 1, size=(len(game.terminal_ids), game.n_hands[1]))
    before = (exploitability(game, strategy).exploitability, game.terminal_values_batch(0, reach))
    assert {"strengths", "_combo_terminals"} <= set(vars(game)) and game.derived.keys("plan")
    game.release()
    assert not {"strengths", "_combo_terminals"} & set(vars(game)) and not game.derived.keys("plan")
    game.release()  # nothing left to free: no second trim
    assert len(trims) == 1
    after = (exploitability(game, strategy).exploitability, game.terminal_values_batch(0, reach))
    assert after[0] == before[0] > 0
    assert np.array_equal(after[1], before[1])


def test_sorted_tables_are_a_stable_sort_with_blocked_hands_last():
    """``terminal_kernels.sorted_tables`` against numpy's stable argsort on random boards:
    strengths with many ties, a fifth of the hands blocked (-1)."""
    rng = np.random.default_rng(5)
    strength = rng.integers(1, 40, size=(30, 200))
    strength[rng.random(strength.shape) < 0.2] = -1
    cards = rng.integers(0, 52, size=(200, 2))
    order = np.empty(strength.shape, dtype=np.int32)
    ranked = np.empty(strength.shape, dtype=np.int32)
    ranked_cards = np.empty((*strength.shape, 2), dtype=np.int8)
    live = np.empty(30, dtype=np.int64)
    terminal_kernels.sorted_tables(strength, cards, 40, order, ranked, ranked_cards, live)
    key = np.where(strength < 0, np.iinfo(np.int64).max, strength)
    expected = np.argsort(key, axis=1, kind="stable")
    assert np.array_equal(order, expected)
    assert np.array_equal(ranked, np.take_along_axis(strength, expected, axis=1))
    assert np.array_equal(ranked_cards, cards[expected])
    assert np.array_equal(live, (strength >= 0).sum(axis=1))
