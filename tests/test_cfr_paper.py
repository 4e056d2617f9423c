"""Goykhman's self-play CFR (``paper-cfr``) on von Neumann and flop poker (seed 000, §4.1, §7).

The paper ran 10^10 rounds on 100 bins and reports, for (a, B) = (1, 2), thresholds x1 = 11 and
x2 = 78 bins and a middle call mass c of about 22.9 bins (continuous c = 2/9, i.e. 22.2 bins).
Tests run 10^6 rounds (about 3 s), so their tolerances are loose. Measured with seed 0 (bins):

| (a, B) | rounds | x1 | x2 | c | exploitability | paper's c (10^10) | continuous x1 / x2 / c |
|---|---|---|---|---|---|---|---|
| (1, 2) | 10^6 | 11.26 | 75.98 | 21.64 | 0.0087 | 22.9 | 11.1 / 77.8 / 22.2 |
| (1, 2) | 10^7 | 11.32 | 76.82 | 21.93 | 0.0031 | | |
| (1, 2) | 10^8 | 11.15 | 77.52 | 22.59 | 0.0010 | | |
| (1, 4) | 10^8 | 9.93 | 84.78 | 15.23 | 0.0016 | 15.3 | 10.0 / 85.0 / 15.0 |
| (8, 1) | 10^7 | 3.31 | 52.51 | 44.70 | 0.0047 | 46.2 | 2.7 / 54.2 / 45.8 |
| (8, 1) | 10^8 | 2.90 | 53.43 | 44.81 | 0.0015 | | |

c drifts towards the paper's figures as runs grow (``benchmarks/bench_sampling.py``); in the
middle region any call mass near c is an equilibrium, so the exact figure is run-dependent.
"""

import numpy as np
import pytest

from solvers.algorithms import (
    ALGORITHMS,
    SolverError,
    make_solver,
    paper_cfr,  # noqa: F401 - registers the algorithm
)
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.games.von_neumann import closed_form
from solvers.theory.thresholds import measured_thresholds
from tests.equilibrium_checks import assert_near_equilibrium

ROUNDS = 1_000_000
FLOP_POKER_LP_VALUE = 0.14862
"""Exact LP value of flop poker (1, 2) for the player (``tests/test_games_flop_poker.py``)."""


@pytest.fixture(scope="module")
def von_neumann_run():
    game = load_game("von_neumann(ante=1,bet=2,bins=100)")
    return game, make_solver(game, "paper-cfr", seed=0).run(iterations=ROUNDS)


def test_registered():
    assert "paper-cfr" in ALGORITHMS


def test_von_neumann_player_thresholds(von_neumann_run):
    game, solver = von_neumann_run
    form = closed_form(1.0, 2.0)
    measured = measured_thresholds(game, solver.average_strategy())
    bins = game.n_hands[0]
    assert measured.x1 * bins == pytest.approx(form.x1 * bins, abs=1.5)  # 11.1 bins
    assert measured.x2 * bins == pytest.approx(form.x2 * bins, abs=2.5)  # 77.8 bins, measured 76.0
    bet = solver.average_strategy()[game.root.id][:, 1]
    # The average still carries the early uniform play (measured at 10^6: 0.83-0.92 on the
    # lowest 8 bins, at most 0.11 on bins 20-69, at least 0.91 from bin 82).
    assert bet[:8].mean() > 0.8  # bluffs below x1
    assert bet[20:70].max() < 0.2  # checks in between
    assert bet[82:].min() > 0.85  # value bets above x2


def test_von_neumann_dealer_middle_call_mass(von_neumann_run):
    game, solver = von_neumann_run
    measured = measured_thresholds(game, solver.average_strategy())
    bins = game.n_hands[0]
    # The continuous c = 2/9 is 22.2 bins (the paper's 22.9 come from 10^10 rounds, the LP on
    # 100 bins has 22.75); measured 21.64 at 10^6 rounds, seeded.
    assert measured.c * bins == pytest.approx(closed_form(1.0, 2.0).c * bins, abs=1.5)
    call = solver.average_strategy()[game.node_by_key("b").id][:, 1]
    assert call[:6].max() < 0.1  # does not call below x1 (measured at most 0.03)
    assert call[85:].min() > 0.9  # calls above x2 (measured at least 0.97)


def test_von_neumann_value_and_exploitability(von_neumann_run):
    game, solver = von_neumann_run
    # measured 0.0087 (uniform play: 0.333); the 100-bin LP value, within 2/100^2 of 1/9
    lp_value = solve_lp(game).value
    assert lp_value == pytest.approx(closed_form(1.0, 2.0).value, abs=2 / 100**2)
    assert_near_equilibrium(
        game, solver.strategy(), value=lp_value, max_exploitability=0.012, reported=solver.metrics()
    )


def test_flop_poker_approaches_the_lp_value():
    game = load_game("flop_poker(ante=1,bet=2)")
    solver = make_solver(game, "paper-cfr", seed=0).run(iterations=300_000)
    assert solve_lp(game).value == pytest.approx(FLOP_POKER_LP_VALUE, abs=1e-5)
    # measured 0.0109 (0.0067 at 10^6, 0.0042 at 3*10^6); value 0.1444
    assert_near_equilibrium(
        game,
        solver.strategy(),
        value=FLOP_POKER_LP_VALUE,
        max_exploitability=0.015,
        reported=solver.metrics(),
    )


def test_one_round_follows_the_papers_equations():
    """Equations (24)-(38) of §4.1 by hand for the first deal, from V_P = V_D = 0.5."""
    ante, bet_size = 1.0, 2.0
    game = load_game("von_neumann(ante=1,bet=2,bins=10)")
    solver = make_solver(game, "paper-cfr", seed=4)
    i, j = solver._player_hands[0], solver._dealer_hands[0]
    solver.run(iterations=1)
    v_p, v_d = 0.5, 0.5
    if i == j:
        e_bet, e_check = (1 - v_d) * ante, 0.0
        e_call, e_fold = 0.0, -ante
    elif i > j:
        e_bet, e_check = v_d * (ante + bet_size) + (1 - v_d) * ante, ante
        e_call, e_fold = -ante - bet_size, -ante
    else:
        e_bet, e_check = -v_d * (ante + bet_size) + (1 - v_d) * ante, -ante
        e_call, e_fold = ante + bet_size, -ante
    e_player = v_p * e_bet + (1 - v_p) * e_check
    e_dealer = v_d * e_call + (1 - v_d) * e_fold
    expected_player = [max(e_bet - e_player, 0.0), max(e_check - e_player, 0.0)]
    expected_dealer = [max(v_p * (e_call - e_dealer), 0.0), max(v_p * (e_fold - e_dealer), 0.0)]
    assert [solver.regret_bet[i], solver.regret_check[i]] == pytest.approx(expected_player)
    assert [solver.regret_call[j], solver.regret_fold[j]] == pytest.approx(expected_dealer)
    total = sum(expected_player)
    new_bet = expected_player[0] / total if total > 0 else 0.5
    assert solver.bet_probability[i] == pytest.approx(new_bet)
    assert solver.sum_bet[i] == pytest.approx(new_bet)  # the updated strategy is summed
    assert solver.sum_check[i] == pytest.approx(1 - new_bet)


def test_options_switch_the_paper_choices_off():
    game = load_game("von_neumann(ante=1,bet=2,bins=20)")
    floored = make_solver(game, "paper-cfr", seed=1).run(iterations=2000)
    plain = make_solver(game, "paper-cfr", seed=1, regret_floor=False).run(iterations=2000)
    assert min(floored.regret_bet + floored.regret_check) >= 0.0
    assert min(plain.regret_bet + plain.regret_check) < 0.0
    before = make_solver(game, "paper-cfr", seed=1, average_after_update=False).run(iterations=1)
    assert before.sum_bet == [0.5 if s else 0.0 for s in before.sum_check]


def test_seeded_reproducibility_and_resume(tmp_path):
    """30,000 + 30,000 rounds cross the 32,768-deal block boundary."""
    spec = "von_neumann(ante=1,bet=2,bins=100)"
    straight = make_solver(load_game(spec), "paper-cfr", seed=9).run(iterations=60_000)
    again = make_solver(load_game(spec), "paper-cfr", seed=9)
    for size in (1, 29_999, 30_000):
        again.run(iterations=size)
    first = make_solver(load_game(spec), "paper-cfr", seed=9).run(iterations=30_000)
    path = first.save_checkpoint(tmp_path / "paper.npz")
    resumed = make_solver(load_game(spec), "paper-cfr", seed=9)
    resumed.load_checkpoint(path)
    resumed.run(iterations=30_000)
    expected = straight.state_dict()
    for other in (again, resumed):
        got = other.state_dict()
        assert got.keys() == expected.keys()
        for key in expected:
            if key != "elapsed_seconds":
                np.testing.assert_array_equal(got[key], expected[key], err_msg=key)
    other_seed = make_solver(load_game(spec), "paper-cfr", seed=10).run(iterations=1000)
    assert (
        other_seed.regret_bet
        != make_solver(load_game(spec), "paper-cfr", seed=9).run(iterations=1000).regret_bet
    )
    assert straight.settings()["seed"] == 9


def test_strategy_format_and_bad_games():
    game = load_game("flop_poker(ante=1,bet=2)")
    solver = make_solver(game, "paper-cfr").run(iterations=100)
    for strategy in (solver.average_strategy(), solver.current_strategy()):
        assert set(strategy) == {n.id for n in game.decision_nodes()}
        for probs in strategy.values():
            assert probs.shape == (169, 2)
            np.testing.assert_allclose(probs.sum(axis=1), 1.0)
    with pytest.raises(SolverError, match="bet/check"):
        make_solver(load_game("kuhn"), "paper-cfr")
    with pytest.raises(SolverError, match="seed"):
        make_solver(game, "paper-cfr", seed=-3)
