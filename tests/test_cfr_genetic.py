"""Goykhman's genetic algorithm (seed 000, §3 and §6): ``solvers/algorithms/genetic.py``.

The von Neumann run: (a, B) = (1, 2) on 30 bins, default preset (sampled fitness, N = 300,
R = 200 games per generation, alpha = 0.1, mutation 1e-3), seed 0, 300 generations. The
continuous admissible equilibrium is x1 = 0.111, x2 = 0.778, c = 0.222, y0 = 0.556. Measured at
generation 300: x1 = 0.103, x2 = 0.766, c = 0.240, y0 = 0.526, value 0.1035, exploitability
0.0130 (uniform play: 0.333; the admissible strategy sampled on 30 bins: 0.0072). Seeds 1-4
gave x1 in [0.07, 0.18], x2 in [0.67, 0.74], y0 in [0.44, 0.56] and exploitability 0.019-0.057.
With exact fitness the populations chase each other's best responses and cycle (exploitability
0.04-0.13 at every size we tried), which is why the default uses the paper's sampled pairings.
"""

import numpy as np
import pytest

from solvers.algorithms import make_solver
from solvers.algorithms.base import SolverError
from solvers.algorithms.genetic import GeneticAlgorithm
from solvers.exact.evaluation import expected_values, exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.theory.thresholds import measured_thresholds
from tests.equilibrium_checks import assert_near_equilibrium

SMALL = {"population": 40, "games": 20}


def _uniform(game):
    return {n.id: np.full((game.n_hands[n.player], 2), 0.5) for n in game.decision_nodes()}


def test_ga_on_von_neumann_approaches_the_admissible_equilibrium():
    game = load_game("von_neumann(ante=1,bet=2,bins=30)")
    form = game.closed_form()
    solver = make_solver(game, "ga", seed=0).run(iterations=300)
    strategy = solver.average_strategy()
    measured = measured_thresholds(game, strategy)
    # Seeded, so the run is fixed: its thresholds sit within a bin (1/30) of the continuous ones
    # (measured 0.23 bins for x1, 0.36 for x2, 0.9 for y0), as the LP's on 30 bins do.
    assert measured.x1 == pytest.approx(form.x1, abs=1 / 30)
    assert measured.x2 == pytest.approx(form.x2, abs=1 / 30)
    assert measured.y0 == pytest.approx(form.y0, abs=1.5 / 30)
    assert exploitability(game, _uniform(game)).exploitability > 0.3
    # measured 0.0130; the admissible strategy sampled on 30 bins has 0.0072. The 30-bin value
    # comes from the LP, and the closed form's 1/9 is within 2/30^2 of it (test_games_von_neumann)
    lp_value = solve_lp(game).value
    assert lp_value == pytest.approx(form.value, abs=2 / 30**2)
    assert_near_equilibrium(game, strategy, value=lp_value, max_exploitability=0.02)


def test_exact_fitness_is_the_ev_against_every_opponent_averaged():
    """Bilinearity: EV against the mean realization plan = mean EV over the opponents."""
    game = load_game("kuhn")
    solver = GeneticAlgorithm(game, fitness="exact", population=8, seed=3)
    ev = solver._exact_expected_values()
    pops = solver.populations
    for i in (0, 5):
        pairs = [
            expected_values(
                game, {**solver._to_strategy(0, pops[0][i]), **solver._to_strategy(1, pops[1][j])}
            ).totals[0]
            for j in range(8)
        ]
        assert ev[0][i] == pytest.approx(np.mean(pairs), abs=1e-12)
        pairs = [
            expected_values(
                game, {**solver._to_strategy(0, pops[0][j]), **solver._to_strategy(1, pops[1][i])}
            ).totals[1]
            for j in range(8)
        ]
        assert ev[1][i] == pytest.approx(np.mean(pairs), abs=1e-12)


def test_sampled_games_pay_the_exact_expected_value_on_average():
    game = load_game("von_neumann(bins=10)")
    solver = GeneticAlgorithm(game, seed=1, **SMALL)
    n = 200_000
    payoff = solver._play(np.zeros(n, dtype=np.intp), np.full(n, 3, dtype=np.intp))
    pops = solver.populations
    profile = {**solver._to_strategy(0, pops[0][0]), **solver._to_strategy(1, pops[1][3])}
    exact = expected_values(game, profile).totals[0]
    assert payoff.mean() == pytest.approx(exact, abs=5 * payoff.std() / np.sqrt(n))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"fitness": "exact"},
        {"scheme": "participant"},
        {"scheme": "participant", "fitness": "exact"},
    ],
)
def test_seeded_runs_repeat_and_resume_bit_for_bit(tmp_path, options):
    game = load_game("von_neumann(bins=12)")
    straight = make_solver(game, "ga", seed=7, **SMALL, **options).run(iterations=6)
    again = make_solver(game, "ga", seed=7, **SMALL, **options).run(iterations=6)
    first = make_solver(game, "ga", seed=7, **SMALL, **options).run(iterations=3)
    path = first.save_checkpoint(tmp_path / "ga.npz")
    resumed = make_solver(game, "ga", seed=7, **SMALL, **options)
    resumed.load_checkpoint(path)
    resumed.run(iterations=3)
    for other in (again, resumed):
        assert other.iterations == 6
        for p in (0, 1):
            np.testing.assert_array_equal(other.populations[p], straight.populations[p])
            np.testing.assert_array_equal(other.elites[p], straight.elites[p])
        for nid, probs in straight.average_strategy().items():
            np.testing.assert_array_equal(other.average_strategy()[nid], probs)
    different = make_solver(game, "ga", seed=8, **SMALL, **options).run(iterations=6)
    assert not np.array_equal(different.populations[0], straight.populations[0])


def test_crossover_mutates_only_where_parents_agree():
    game = load_game("von_neumann(bins=50)")
    solver = GeneticAlgorithm(game, population=1000, elite_fraction=0.002, seed=0)
    parents = np.zeros((2, 50), dtype=np.int8)
    parents[1, 25:] = 1  # the parents agree on genes 0-24 and disagree on 25-49
    fitness = np.array([1.0, 3.0])
    solver.mutation = 0.0
    (children,) = solver._breed([parents], fitness)
    assert (children[:, :25] == 0).all()
    # Father (fitness 3) chosen with 3/4 per parent slot; a mixed pair passes his gene with 3/4.
    expected = (3 / 4) ** 2 + 2 * (1 / 4) * (3 / 4) * (3 / 4)
    assert children[:, 25:].mean() == pytest.approx(expected, abs=0.02)
    solver.mutation = 1.0
    (children,) = solver._breed([parents], fitness)
    assert (children[:, :25] == 1).all()  # every agreeing gene flips
    # A disagreeing gene never mutates: in a mixed pair it is one parent's, never flipped, so
    # the share of ones is the father's share again, plus the flipped mother-mother pairs.
    flipped = (1 / 4) ** 2  # mother x mother: her 0s flip to 1; father x father: 1s flip to 0
    mixed = 2 * (1 / 4) * (3 / 4) * (3 / 4)
    assert children[:, 25:].mean() == pytest.approx(flipped + mixed, abs=0.02)


def test_participant_scheme_on_flop_poker_approaches_the_lp_solution():
    """Loss-minimising Participants with exact fitness (measured: 0.268 -> 0.0029, value 0.1481)."""
    game = load_game("flop_poker")
    solver = make_solver(game, "ga", seed=0)
    assert solver.settings()["scheme"] == "participant"
    start = exploitability(game, solver.average_strategy()).exploitability
    assert start > 0.2
    solver.run(iterations=150)
    # measured 0.0029; the LP value must lie in the best-response interval [0.1453, 0.1510]
    assert_near_equilibrium(
        game, solver.average_strategy(), value=solve_lp(game).value, max_exploitability=0.005
    )


def test_presets_and_bad_options():
    game = load_game("von_neumann")
    paper = GeneticAlgorithm(game, preset="paper").settings()
    assert (paper["population"], paper["elite_fraction"], paper["mutation"]) == (5000, 0.1, 1e-6)
    assert (paper["games"], paper["bankroll"], paper["fitness"]) == (10_000, 10_000.0, "sampled")
    flop = GeneticAlgorithm(load_game("flop_poker"), preset="paper", population=4).settings()
    assert (flop["scheme"], flop["elite_fraction"], flop["mutation"]) == ("participant", 0.3, 1e-4)
    assert GeneticAlgorithm(game, preset="paper", mutation=0.01).mutation == 0.01
    with pytest.raises(SolverError, match="two actions"):
        make_solver(load_game("leduc"), "ga")
    for bad in ({"preset": "huge"}, {"fitness": "guess"}, {"elite_fraction": 1.5}):
        with pytest.raises(SolverError):
            make_solver(game, "ga", **bad)
