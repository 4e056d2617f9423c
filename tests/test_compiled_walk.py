"""The compiled walk of hold'em spots (``solvers/exact/compiled_walk.py``) against the numpy level
walk (``solvers/exact/walk.py``, the reference) and against brute force.

- Values and best responses of random behavioural profiles, per hand at every non-terminal
  row, in float64 (1e-10 absolute) and float32 (1e-5 relative), on a river spot with different
  ranges that share combos, a turn spot (river cards as chance nodes) and spots with all-ins
  before the river (showdowns over several runout boards).
- The best-response argmax against ``walk.best_actions``.
- ``exploitability`` and the per-edge helpers of ``evaluation.py`` (routed to the compiled walk
  in float32 for spots) against best responses computed on the numpy walk.
- Whole ``FullWidthCFR`` runs, compiled against numpy, in float64.
- Brute force: values of fixed lines summed pair by pair and runout by runout with
  ``phevaluator``, so that a showdown or fold that ignored card removal would fail.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.algorithms import make_solver
from solvers.algorithms.base import SolverError
from solvers.cards.deck import COMBO_CARDS, card_str
from solvers.exact.compiled_plan import compiled_plan
from solvers.exact.compiled_walk import MODE_RESPOND, MODE_VALUES, Source, compiled_walk
from solvers.exact.evaluation import (
    exploitability,
    respond_per_edge,
    value_per_edge,
    walk_per_edge,
)
from solvers.exact.executor import compiled_applies, evaluation_dtype
from solvers.exact.walk import best_actions, build_plan, normalise_per_node
from solvers.games import load_game
from tests.conftest import ROOT

RIVER = (
    'nlhe(board="Qs Jh 2h 8d 3c",pot=100,stack=200,'
    'oop_range="99+, AQs+, KQs, T9s, 54s, A5s:0.5",'
    'ip_range="TT+, AJs+, KJs, QJs, 97s, 65s, A4s, 22:0.7",'
    'river_oop_bet="50%, a",river_ip_bet="75%",river_oop_raise="a",river_ip_raise="a")'
)
"""Different ranges (52 and 51 live combos) with many identical combos: card removal matters."""
TURN = (
    'nlhe(board="Qs Jh 2h 8d",pot=100,stack=200,oop_range="QQ, JJ, AKs, T9s, 87o, A5s",'
    'ip_range="KK, QJs, AQs, 98s, 22, JJ:0.5",turn_oop_bet="50%",turn_ip_bet="75%",'
    'river_oop_bet="60%",river_ip_bet="a",river_ip_raise="a")'
)
"""A turn spot: check-check or bet-call deals the river as a chance node (44 live cards)."""
TURN_ALLIN = (
    'nlhe(board="Qs Jh 2h 8d",pot=100,stack=60,oop_range="QQ, JJ, AKs, T9s, 87o",'
    'ip_range="KK, QJs, AQs, 98s, JJ",turn_oop_bet="a",turn_ip_bet="a",river_oop_bet="a",'
    'river_ip_bet="a")'
)
"""All-ins on the turn: their showdowns are valued over every river card (no chance node)."""
FLOP_ALLIN = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA, KQs, 87s",'
    'ip_range="QQ, AKs, T9s, AA:0.5",flop_oop_bet="a",flop_ip_bet="a",river_oop_bet="a")'
)
"""Check or all-in on the flop: an all-in is valued over 2-card runouts, a check goes through
two chance nodes (OOP's river all-in keeps the streets after it from being checked down)."""
SPOTS = {"river": RIVER, "turn": TURN, "turn_allin": TURN_ALLIN, "flop_allin": FLOP_ALLIN}
ALGOS = ("dcfr", "cfr+", "pcfr+")


def random_profile(game, seed: int) -> list[np.ndarray]:
    """Both players' random behavioural strategies per edge (float64), far from uniform."""
    plan = build_plan(game)
    rng = np.random.default_rng(seed)
    return [
        normalise_per_node(plan, p, rng.random((plan.edges[p].n_edges, game.n_hands[p])) ** 3)
        for p in (0, 1)
    ]


def numpy_values(game, profile, player: int, respond: bool) -> tuple[object, np.ndarray]:
    """The numpy walk and ``player``'s ``[rows, max_hands]`` values (best response if
    ``respond``: then ``player``'s own strategy is not given to the walk)."""
    given = [None if (respond and q == player) else profile[q] for q in (0, 1)]
    done = walk_per_edge(game, given)
    return done, done.values(game, player, respond=respond)


def compiled_values(game, profile, player: int, mode: int, dtype=np.float64):
    """The compiled walk after ``reach_down`` and ``values_up``; ``(walk, root, best)``."""
    plan = build_plan(game)
    done = compiled_walk(game, dtype)
    cast = [Source(np.ascontiguousarray(x, dtype=dtype)) for x in profile]
    done.reach_down(cast)
    best = None
    if mode == MODE_RESPOND:
        best = np.full((len(plan.edges[player].decision_nodes), game.n_hands[player]), -1, np.int8)
    root = done.values_up(player, cast, mode, best=best).copy()
    return done, root, best


def root_row(game) -> int:
    return int(build_plan(game).row_of_node[0])


# --- the spots are what the tests need ---------------------------------------------------


def test_the_spots_have_the_features_the_comparisons_rely_on():
    river = load_game(RIVER)
    assert compiled_applies(river)
    assert river.n_hands[0] != river.n_hands[1]
    tables = river.combo_terminals()
    shared = int((tables.hands[0].same >= 0).sum())
    assert 10 <= shared < river.n_hands[0]  # identical combos, and combos only one side holds
    assert not any(n.is_chance for n in river.nodes)

    turn = load_game(TURN)
    assert sum(n.is_chance for n in turn.nodes) == 3  # check-check, bet-call, check-bet-call
    assert all(len(n.board) == 5 for n in turn.nodes if n.terminal == "showdown")

    for spec, cards in ((TURN_ALLIN, 4), (FLOP_ALLIN, 3)):
        game = load_game(spec)
        early = [n for n in game.nodes if n.terminal == "showdown" and len(n.board) == cards]
        assert early, "no all-in before the river"
        tables = game.combo_terminals()
        row = int(np.flatnonzero(game.terminal_ids == early[0].id)[0])
        assert tables.job_ptr[row + 1] - tables.job_ptr[row] > 40  # one job per runout board


# --- 1. values against the numpy walk -----------------------------------------------------


@pytest.mark.parametrize("mode", [MODE_VALUES, MODE_RESPOND], ids=["values", "respond"])
@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("spot", list(SPOTS))
def test_float64_values_equal_the_numpy_walk(spot, player, mode):
    game = load_game(SPOTS[spot])
    n_own = game.n_hands[player]
    for seed in (1, 2):
        profile = random_profile(game, seed)
        done, values = numpy_values(game, profile, player, respond=mode == MODE_RESPOND)
        fast, root, _ = compiled_values(game, profile, player, mode)
        ref = values[root_row(game), :n_own]
        assert np.abs(ref).max() > 0.5  # chips: a real comparison, not zeros against zeros
        np.testing.assert_allclose(root, ref, rtol=0, atol=1e-10)
        # Every non-terminal row, not only the root; and both players' reach.
        cp = compiled_plan(game)
        rows = np.flatnonzero(cp.inner_index >= 0)
        kept = fast.player_values(player)[cp.inner_index[rows]]
        np.testing.assert_allclose(kept, values[rows, :n_own], rtol=0, atol=1e-10)
        for p in (0, 1):
            if mode == MODE_RESPOND and p == player:
                continue  # the numpy walk holds 1 on the responder's edges
            np.testing.assert_allclose(
                fast.reach[p][cp.inner_index[rows]],
                done.reach[rows, p, : game.n_hands[p]],
                rtol=0,
                atol=1e-13,
            )


@pytest.mark.parametrize("mode", [MODE_VALUES, MODE_RESPOND], ids=["values", "respond"])
@pytest.mark.parametrize("spot", ["river", "turn", "turn_allin"])
def test_float32_values_stay_within_float32_rounding(spot, mode):
    """The storage dtype of exact evaluation on spots: sums run in float64 inside."""
    game = load_game(SPOTS[spot])
    profile = random_profile(game, 3)
    for player in (0, 1):
        _, values = numpy_values(game, profile, player, respond=mode == MODE_RESPOND)
        _, root, _ = compiled_values(game, profile, player, mode, np.float32)
        assert root.dtype == np.float32
        ref = values[root_row(game), : game.n_hands[player]]
        np.testing.assert_allclose(root, ref, rtol=0, atol=1e-5 * np.abs(ref).max())


# --- 2. best-response argmax --------------------------------------------------------------


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("spot", list(SPOTS))
def test_best_response_argmax_matches_walk_best_actions(spot, player):
    game = load_game(SPOTS[spot])
    plan = build_plan(game)
    edges = plan.edges[player]
    n_own = game.n_hands[player]
    profile = random_profile(game, 4)
    _, values = numpy_values(game, profile, player, respond=True)
    _, _, best = compiled_values(game, profile, player, MODE_RESPOND)
    assert best.shape == (len(edges.decision_nodes), n_own)
    assert (best >= 0).all() and (best < edges.n_actions[:, None]).all()
    # The compiled choice as a one-hot per-edge strategy, like walk.best_actions gives.
    columns = np.arange(n_own)
    compiled_pure = np.zeros((edges.n_edges, n_own))
    compiled_pure[edges.first_edge[:, None] + best, columns[None, :]] = 1.0
    numpy_pure = best_actions(plan, player, values)

    child = values[edges.rows, :n_own]  # each action's value, per edge
    chosen = np.add.reduceat(child * compiled_pure, edges.first_edge, axis=0)
    top = np.maximum.reduceat(child, edges.first_edge, axis=0)
    np.testing.assert_allclose(chosen, top, rtol=0, atol=1e-10)  # the chosen action is a best one

    # Where the best action is clear (no tie within 1e-9 chips), the choice is the same one.
    second = np.full_like(top, -np.inf)
    for slot, first in enumerate(edges.first_edge):
        block = child[first : first + edges.n_actions[slot]]
        if len(block) > 1:
            second[slot] = np.sort(block, axis=0)[-2]
    clear = np.repeat(top - second > 1e-9, edges.n_actions, axis=0)
    assert clear.sum() > 0.3 * clear.size
    np.testing.assert_array_equal(compiled_pure[clear], numpy_pure[clear])


# --- 3. exploitability and the per-edge helpers of evaluation.py ---------------------------


@pytest.mark.parametrize("spot", ["river", "turn", "flop_allin"])
def test_exploitability_equals_numpy_best_responses(spot):
    game = load_game(SPOTS[spot])
    assert evaluation_dtype(game) == np.float64  # spots this size are evaluated in float64
    plan = build_plan(game)
    profile = random_profile(game, 5)
    strategy = {**plan.strategy_dict(0, profile[0]), **plan.strategy_dict(1, profile[1])}
    report = exploitability(game, strategy)

    row = root_row(game)
    for p in (0, 1):
        _, values = numpy_values(game, profile, p, respond=True)
        root = values[row, : game.n_hands[p]]
        response = report.best_responses[p]
        assert response.value == pytest.approx(root.sum(), rel=1e-10)
        marginal = game.hand_weights(p)
        live = marginal > 0
        np.testing.assert_allclose(
            response.per_hand[live], root[live] / marginal[live], rtol=0,
            atol=1e-10 * np.abs(root / np.where(live, marginal, 1.0)).max(),
        )  # fmt: skip
        # The pure strategy returned is a best response: on the numpy walk it earns the value.
        pure = plan.per_edge(p, response.strategy)
        played = [pure if q == p else profile[q] for q in (0, 1)]
        _, earned = numpy_values(game, played, p, respond=False)
        assert earned[row, : game.n_hands[p]].sum() == pytest.approx(root.sum(), rel=1e-10)

    _, values0 = numpy_values(game, profile, 0, respond=False)
    game_value = values0[row, : game.n_hands[0]].sum()
    assert report.game_value == pytest.approx(game_value, rel=1e-10, abs=1e-6)
    numpy_conv = sum(
        numpy_values(game, profile, p, respond=True)[1][row, : game.n_hands[p]].sum()
        for p in (0, 1)
    )
    assert report.nash_conv == pytest.approx(numpy_conv, rel=1e-10)
    assert report.exploitability > 1.0  # a random profile is far from equilibrium (chips)


def test_per_edge_helpers_equal_the_numpy_walk():
    game = load_game(TURN)
    plan = build_plan(game)
    profile = random_profile(game, 6)
    row = root_row(game)
    _, values0 = numpy_values(game, profile, 0, respond=False)
    assert value_per_edge(game, profile) == pytest.approx(
        values0[row, : game.n_hands[0]].sum(), rel=1e-5
    )
    for p in (0, 1):
        value, root, pure = respond_per_edge(game, profile[1 - p], p)
        _, values = numpy_values(game, profile, p, respond=True)
        ref = values[row, : game.n_hands[p]]
        assert value == pytest.approx(ref.sum(), rel=1e-5)
        np.testing.assert_allclose(root, ref, rtol=0, atol=1e-5 * np.abs(ref).max())
        assert pure.shape == (plan.edges[p].n_edges, game.n_hands[p])
        np.testing.assert_array_equal(plan.segment_sums(p, pure), 1.0)  # one-hot per node


# --- 4. FullWidthCFR, compiled against numpy ------------------------------------------------


def _assert_same_state(fast, slow, rtol: float = 1e-9) -> None:
    names = ["regrets", "strategy_sums"] + (["predictions"] if fast.config.predictive else [])
    for name in names:
        for p in (0, 1):
            got, want = getattr(fast, name)[p], getattr(slow, name)[p]
            assert got.dtype == want.dtype == np.float64
            scale = np.abs(want).max()
            assert scale > 0
            np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * scale, err_msg=name)


def _solver_pair(game, algo):
    fast = make_solver(game, algo, walk="compiled", precision="float64")
    slow = make_solver(game, algo, walk="numpy", precision="float64")
    assert fast._compiled is not None and slow._compiled is None  # the two paths really run
    return fast, slow


@pytest.mark.parametrize("algo", ALGOS)
def test_cfr_runs_agree_on_a_river_spot(algo):
    """Twenty iterations each, independently: regrets, sums and average strategies agree."""
    game = load_game(RIVER)
    fast, slow = _solver_pair(game, algo)
    fast.run(iterations=20)
    slow.run(iterations=20)
    _assert_same_state(fast, slow)
    average_fast, average_slow = fast.average_strategy(), slow.average_strategy()
    assert average_fast.keys() == average_slow.keys()
    for node, mix in average_slow.items():
        np.testing.assert_allclose(average_fast[node], mix, rtol=0, atol=1e-9)


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("spot", ["river", "turn"])
def test_cfr_iterations_agree_step_by_step(spot, algo):
    """Twenty iterations, the numpy solver restarted from the compiled one's state after each.

    Lock-step because regret matching is discontinuous at zero. Hold'em has exact ties between
    actions (on the turn spot, a river hand that beats everything the opponent still holds earns
    the same by checking as by betting into a fold); their cumulative regrets are 0 in exact
    arithmetic but +-1e-19 in floating point, with signs that depend on the summation order, so
    the two walks can send such a hand to different pure actions and independent runs drift
    apart legitimately (``test_cfr_runs_agree_on_a_river_spot`` runs independently where no
    such tie occurs). Each single iteration must still agree to rounding.
    """
    game = load_game(SPOTS[spot])
    fast, slow = _solver_pair(game, algo)
    for _ in range(20):
        fast.run(iterations=1)
        slow.run(iterations=1)
        assert fast.iterations == slow.iterations
        _assert_same_state(fast, slow)
        state = fast.state_dict()
        state["settings"] = np.array(repr(sorted(slow.settings().items())))
        slow.load_state_dict(state)
        current_fast, current_slow = fast.current_strategy(), slow.current_strategy()
        for node, mix in current_slow.items():  # regret matching inside the compiled loops
            np.testing.assert_allclose(current_fast[node], mix, rtol=0, atol=1e-12)
    average_fast, average_slow = fast.average_strategy(), slow.average_strategy()
    for node, mix in average_slow.items():
        np.testing.assert_allclose(average_fast[node], mix, rtol=0, atol=1e-9)


# --- 5. what the compiled path refuses --------------------------------------------------------


def test_the_compiled_walk_refuses_what_it_cannot_do():
    spot = load_game(RIVER)
    with pytest.raises(SolverError, match="alternating"):
        make_solver(spot, "dcfr", walk="compiled", alternating=False)
    with pytest.raises(SolverError, match="hold'em"):
        make_solver(load_game("kuhn"), "cfr", walk="compiled")
    with pytest.raises(SolverError):
        make_solver(spot, "dcfr", walk="fast")
    # auto: compiled where it applies, else the numpy walk.
    assert make_solver(spot, "dcfr")._compiled is not None
    assert make_solver(spot, "dcfr", alternating=False)._compiled is None
    assert make_solver(load_game("kuhn"), "cfr")._compiled is None


# --- 6. brute force: card removal -----------------------------------------------------------

RIVER_BRUTE = (
    'nlhe(board="Ks Qd 7h 4s 2c",pot=60,stack=100,oop_range="AA, KK, AK, Q7s, 44:0.5",'
    'ip_range="AA:0.5, KK, AKs, QQ, A4s, 22, 76s",river_oop_bet="a")'
)
"""Heavily overlapping ranges on a river: most pairs of combos share a card."""
TURN_BRUTE = (
    'nlhe(board="Ks Qd 7h 4s",pot=60,stack=40,oop_range="AA, KQs, 65s, 44:0.5",'
    'ip_range="AA:0.5, KK, AKs, 76s, 33",turn_oop_bet="a")'
)
"""Check-check deals the river as a chance node; all-in and call runs the river out."""
TURN_RIVER_BRUTE = (
    'nlhe(board="Ks Qd 7h 4s",pot=60,stack=40,oop_range="AA, KQs, 65s, 44:0.5",'
    'ip_range="AA:0.5, KK, AKs, 76s, 33",river_oop_bet="a")'
)
"""Check-only turn, then an all-in on the river: folds below a chance node (only the chance
masks keep a hand that holds the river card out of a fold)."""
FLOP_BRUTE = (
    'nlhe(board="Ks Qd 7h",pot=60,stack=40,oop_range="AKs, 65s",ip_range="AA:0.5, KQs",'
    'flop_oop_bet="a")'
)


def _line(game, wanted: tuple[str, ...]) -> list[np.ndarray]:
    """Per edge, both players always take the first action in ``wanted`` a node offers
    (matched by prefix), else the node's first action."""
    plan = build_plan(game)
    profile = []
    for p in (0, 1):
        edges = plan.edges[p]
        pure = np.zeros((edges.n_edges, game.n_hands[p]))
        for slot, node_id in enumerate(edges.decision_nodes):
            actions = game.nodes[node_id].actions
            pick = next((i for w in wanted for i, a in enumerate(actions) if a.startswith(w)), 0)
            pure[edges.first_edge[slot] + pick] = 1.0
        profile.append(pure)
    return profile


def _brute_force(game, board: tuple[int, ...], outcome) -> np.ndarray:
    """``[n0, n1]``: player 0's prior-weighted payoff per pair of combos, pair by pair.

    ``outcome(a, b, runouts)`` is player 0's payoff holding combo ``a`` against ``b``; pairs
    sharing a card get no prior, and ``runouts`` leaves out the board and both hands."""
    combos, weights = game.hand_combos, game.range_weights
    out = np.zeros(game.n_hands)
    total = 0.0
    for i, a in enumerate(combos[0]):
        for j, b in enumerate(combos[1]):
            cards = {int(c) for c in (*COMBO_CARDS[a], *COMBO_CARDS[b])}
            if len(cards) < 4:
                continue
            weight = weights[0][i] * weights[1][j]
            total += weight
            deck = [c for c in range(52) if c not in cards and c not in board]
            runouts = list(combinations(deck, 5 - len(board)))
            out[i, j] = weight * outcome(a, b, runouts)
    return out / total


def _strength(cards) -> int:
    """phevaluator's rank of a 5- to 7-card hand: lower is stronger."""
    return evaluate_cards(*(card_str(int(c)) for c in cards))


def _showdown(put: float, board: tuple[int, ...]):
    """Player 0's payoff in a showdown for ``put`` chips each, averaged over the runouts."""

    def outcome(a, b, runouts) -> float:
        net = 0
        for extra in runouts:
            ours = _strength((*board, *extra, *COMBO_CARDS[a]))
            theirs = _strength((*board, *extra, *COMBO_CARDS[b]))
            net += (ours < theirs) - (ours > theirs)
        return put * net / len(runouts)

    return outcome


@pytest.mark.parametrize(
    ("spec", "wanted", "kind"),
    [
        (RIVER_BRUTE, ("check",), "showdown 30"),
        (RIVER_BRUTE, ("all-in", "call"), "showdown 130"),
        (RIVER_BRUTE, ("all-in", "fold"), "fold 30"),
        (TURN_BRUTE, ("check",), "showdown 30"),
        (TURN_BRUTE, ("all-in", "call"), "showdown 70"),
        (TURN_BRUTE, ("all-in", "fold"), "fold 30"),
        (TURN_RIVER_BRUTE, ("all-in", "fold"), "fold 30"),
        (TURN_RIVER_BRUTE, ("all-in", "call"), "showdown 70"),
        (FLOP_BRUTE, ("all-in", "call"), "showdown 70"),
    ],
    ids=[
        "river-checkdown", "river-allin-call", "river-allin-fold", "turn-checkdown",
        "turn-allin-call", "turn-allin-fold", "river-card-allin-fold", "river-card-allin-call",
        "flop-allin-call",
    ],
)  # fmt: skip
def test_fixed_lines_equal_brute_force_with_card_removal(spec, wanted, kind):
    """Root values of a pure line against the pair-by-pair, runout-by-runout sum: the river
    deals as a chance node (turn check-down, river all-in) or as runouts of an all-in (turn and
    flop). A fold pays the same whatever the runout, given that both hands can meet."""
    game = load_game(spec)
    what, put = kind.split()
    board = tuple(int(c) for c in game.root.board)
    if what == "fold":
        dense = _brute_force(game, board, lambda a, b, runouts: float(put))
    else:
        dense = _brute_force(game, board, _showdown(float(put), board))
    profile = _line(game, wanted)
    for player, expected in ((0, dense.sum(axis=1)), (1, -dense.sum(axis=0))):
        assert np.abs(expected).max() > 0.01
        for mode in (MODE_VALUES, MODE_RESPOND):  # a pure line: respond cannot do worse
            _, root, _ = compiled_values(game, profile, player, mode)
            if mode == MODE_VALUES:
                np.testing.assert_allclose(root, expected, rtol=0, atol=1e-12)
            else:
                assert (root >= expected - 1e-12).all()

    if len(board) == 5:
        # Ignoring card removal (every pair meets, each hand's strength on its own) is far off:
        # the comparison above would catch a walk that did so.
        combos, weights = game.hand_combos, game.range_weights
        strength = [np.array([_strength((*board, *COMBO_CARDS[c])) for c in cs]) for cs in combos]
        sign = np.sign(strength[1][None, :] - strength[0][:, None])
        payoff = float(put) * (np.ones_like(sign) if what == "fold" else sign)
        naive = (weights[0][:, None] * weights[1][None, :] * payoff).sum(axis=1) / game.normaliser
        expected = dense.sum(axis=1)
        assert np.abs(naive - expected).max() > 0.1 * np.abs(expected).max()


def test_check_down_river_is_the_dense_terminal_matrix():
    """The check-down river spot's one terminal: ``terminal_matrix`` (the numpy showdown, dense
    ``[n0, n1]`` payoff times prior) summed against the opponent's unit reach is the root."""
    game = load_game(
        'nlhe(board="Ks Qd 7h 4s 2c",pot=60,stack=100,oop_range="AA, KK, AK, Q7s, 44:0.5",'
        'ip_range="AA:0.5, KK, AKs, QQ, A4s, 22, 76s")'
    )
    (terminal,) = game.terminal_ids
    assert [n.key for n in game.nodes] == ["", "x", "x/x"]
    matrix = game.terminal_matrix(int(terminal)) * game.path_chance[terminal]
    profile = [np.ones((1, n)) for n in game.n_hands]
    _, root0, _ = compiled_values(game, profile, 0, MODE_VALUES)
    _, root1, _ = compiled_values(game, profile, 1, MODE_VALUES)
    np.testing.assert_allclose(root0, matrix.sum(axis=1), rtol=0, atol=1e-12)
    np.testing.assert_allclose(root1, -matrix.sum(axis=0), rtol=0, atol=1e-12)
    board = tuple(int(c) for c in game.root.board)
    brute = _brute_force(game, board, _showdown(30.0, board))
    np.testing.assert_allclose(matrix, brute, rtol=0, atol=1e-12)


# --- the shipped benchmark spot -------------------------------------------------------------


@pytest.mark.slow
def test_shipped_turn_spot_matches_the_numpy_walk():
    """``spots/turn.toml`` (1,128 combos a side, 9,705 nodes): float64 values and best
    responses, and float32 exploitability."""
    game = load_game(str(ROOT / "spots" / "turn.toml"))
    assert game.n_hands == (1128, 1128)
    plan = build_plan(game)
    profile = random_profile(game, 7)
    row = root_row(game)
    responses = []
    for player in (0, 1):
        for mode in (MODE_VALUES, MODE_RESPOND):
            _, values = numpy_values(game, profile, player, respond=mode == MODE_RESPOND)
            _, root, _ = compiled_values(game, profile, player, mode)
            ref = values[row, : game.n_hands[player]]
            np.testing.assert_allclose(root, ref, rtol=0, atol=1e-10)
            if mode == MODE_RESPOND:
                responses.append(ref.sum())
    strategy = {**plan.strategy_dict(0, profile[0]), **plan.strategy_dict(1, profile[1])}
    report = exploitability(game, strategy)
    assert report.nash_conv == pytest.approx(sum(responses), rel=1e-5)


# --- 7. suit isomorphism ------------------------------------------------------------------------

SYMMETRIC_FLOP = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA,KK,QQ,AKs,AKo,JTs,T9s,76s",'
    'ip_range="AA,KK,JJ,AQs,KQo,T9s,98s,65s",flop_oop_bet="a",flop_ip_bet="a",'
    'turn_oop_bet="75%",turn_ip_bet="75%",river_oop_bet="75%",river_ip_bet="75%")'
)


def test_a_spot_has_a_suit_swap_only_when_board_and_ranges_allow_it():
    assert load_game(SYMMETRIC_FLOP).suit_swap().suits == (0, 1)  # clubs and diamonds
    assert load_game(SYMMETRIC_FLOP.replace("AA,KK,QQ", "AcAh,KK,QQ")).suit_swap() is None
    assert load_game(SYMMETRIC_FLOP.replace("Qs Jh 2h", "Qs Jh 2c")).suit_swap() is None


def symmetric(game, cp, player, rng):
    """Random weights on the walked edges of ``player``, equal for a hand and its suit image
    wherever the board cannot tell the two suits apart (a symmetric profile)."""
    swap = game.suit_swap()
    plan = build_plan(game)
    weights = rng.random((cp.n_edges[player], game.n_hands[player]))
    image = swap.hands[player]
    for row in np.flatnonzero((cp.kind == player) & (cp.decision_slot >= 0)):
        if swap.fixes(game.nodes[plan.node_of_row[row]].board):
            first = cp.first_edge[row]
            block = weights[first : first + cp.child_start[row + 1] - cp.child_start[row]]
            block[:] = (block + block[:, image]) / 2
    return weights


@pytest.mark.parametrize("mode", [MODE_VALUES, MODE_RESPOND], ids=["values", "respond"])
def test_the_isomorphic_walk_equals_the_full_walk_on_symmetric_strategies(mode):
    """A random strategy on the walked edges, spread over the twins by ``full_edges`` (so it
    is suit-symmetric), gives the same root values on the isomorphic and the full walk."""
    game = load_game(SYMMETRIC_FLOP)
    iso = compiled_walk(game, np.float64, isomorphic=True)
    full = compiled_walk(game, np.float64)
    assert iso.plan.n_inner < 0.8 * full.plan.n_inner  # 37 of 49 turn cards are walked
    rng = np.random.default_rng(7)
    compact = [symmetric(game, iso.plan, p, rng) for p in (0, 1)]
    spread = [iso.plan.full_edges(p, compact[p]) for p in (0, 1)]
    for player in (0, 1):
        iso.reach_down([Source(x) for x in compact])
        a = iso.values_up(player, [Source(x) for x in compact], mode).copy()
        full.reach_down([Source(x) for x in spread])
        b = full.values_up(player, [Source(x) for x in spread], mode).copy()
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-11)
        assert np.abs(b).max() > 0.1


def test_an_isomorphic_solve_reaches_the_same_game_value_and_its_file_measures_the_same():
    game = load_game(SYMMETRIC_FLOP)
    runs = {}
    for iso in (True, False):
        solver = make_solver(game, "dcfr", isomorphism=iso, precision="float64")
        solver.run(iterations=60)
        runs[iso] = (solver.metrics(), exploitability(game, solver.average_strategy()))
    (iso_progress, iso_full), (_, plain_full) = runs[True], runs[False]
    assert iso_full.pot_percent < 0.2 and plain_full.pot_percent < 0.2
    # the progress figure (isomorphic walk) is the full tree's figure up to rounding noise
    assert iso_progress.exploitability == pytest.approx(iso_full.exploitability, rel=1e-3)
    # both solves reach the same game value within their exploitability
    gap = iso_full.exploitability + plain_full.exploitability
    assert abs(iso_full.game_value - plain_full.game_value) <= 2 * gap


def test_an_isomorphic_solve_writes_every_twin_and_its_header_is_the_full_tree(tmp_path, capsys):
    """``pokertui solve`` on a suit-symmetric flop: the file spells out the twin subtrees (each
    the suit image of the walked one) and ``exploit`` (full tree) gives the header's figure."""
    import json  # noqa: PLC0415

    from pokertui.cli import main  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415

    spot = tmp_path / "flop.toml"
    spot.write_text(
        'board = "Qs Jh 2h"\npot = 100\nstack = 100\n'
        'oop_range = "AA,KK,QQ,AKs,AKo,JTs,T9s,76s"\nip_range = "AA,KK,JJ,AQs,KQo,T9s,98s,65s"\n'
        '[flop]\noop_bet = "a"\nip_bet = "a"\n[turn]\noop_bet = "75%"\nip_bet = "75%"\n'
        '[river]\noop_bet = "75%"\nip_bet = "75%"\n'
    )
    out = tmp_path / "flop.json.gz"
    assert main(["solve", str(spot), "--algo", "dcfr", "--iterations", "40", "--out", str(out),
                 "--json"]) == 0  # fmt: skip
    done = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert main(["exploit", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["exploitability_pot_percent"] == pytest.approx(
        done["exploitability_pot_percent"], rel=1e-9
    )
    loaded = load_strategy(out)
    game = loaded.game
    swap = game.suit_swap()
    for walked, twin in [
        ("x/x/5c", "x/x/5d"),
        ("x/x/5c/x", "x/x/5d/x"),
        ("x/x/5s/x/x/7c", "x/x/5s/x/x/7d"),
    ]:
        a, b = game.node_by_key(walked), game.node_by_key(twin)
        image = swap.hands[a.player]
        np.testing.assert_array_equal(loaded.strategy[b.id], loaded.strategy[a.id][image])
