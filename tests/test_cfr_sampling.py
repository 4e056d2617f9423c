"""Sampling CFR (cs-cfr, es-mccfr, os-mccfr): convergence on Kuhn and Leduc, seeded resumes.

Thresholds come from measured runs (seeds 0-5, see the module docstrings and the issue's closing
note) with about a factor of two of margin. Cross-check with OpenSpiel 2.0.2's Python MCCFR
(seed 1 here, ``np.random.seed(1)`` there; both sample, so only the scale should agree), NashConv/2:

| | Kuhn ES 1e3 / 1e4 | Kuhn OS 1e3 / 1e4 | Leduc ES 1e3 / 1e4 | Leduc OS 1e3 / 1e4 |
|---|---|---|---|---|
| ours | 0.0114 / 0.0085 | 0.094 / 0.016 | 1.31 / 0.29 | 2.24 / 1.19 |
| OpenSpiel | 0.0124 / 0.0072 | 0.053 / 0.020 | 1.31 / 0.28 | 2.66 / 1.25 |
"""

import numpy as np
import pytest

from solvers.algorithms import (
    ALGORITHMS,
    SolverError,
    make_solver,
    sampling,  # noqa: F401 - registers the algorithms
)
from solvers.algorithms.sampled_tree import RandomStream
from solvers.games import load_game
from tests.equilibrium_checks import assert_near_equilibrium

VARIANTS = ("cs-cfr", "es-mccfr", "os-mccfr")
KUHN_VALUE = -1.0 / 18.0
LEDUC_VALUE = -0.085606424078001  # sequence-form LP (tests/test_lp.py)


def test_variants_are_registered():
    assert set(VARIANTS) <= set(ALGORITHMS)


# Kuhn, 20,000 iterations: measured max over seeds 0-5 of 0.0067 (cs), 0.0119 (es), 0.0237 (os).
@pytest.mark.parametrize(
    ("algo", "threshold"), [("cs-cfr", 0.015), ("es-mccfr", 0.025), ("os-mccfr", 0.045)]
)
def test_kuhn_converges(algo, threshold):
    game = load_game("kuhn")
    solver = make_solver(game, algo, seed=0).run(iterations=20_000)
    # |value + 1/18| <= NashConv < 2 * threshold: a value for the wrong seat (+1/18) fails
    metrics = solver.metrics()
    assert_near_equilibrium(
        game, solver.strategy(), value=KUHN_VALUE, max_exploitability=threshold, reported=metrics
    )
    assert metrics.game_value == pytest.approx(KUHN_VALUE, abs=3e-3)  # measured 3.3e-4 at most


# Leduc, 30,000 iterations (seed 1): measured 0.094 (cs), 0.151 (es), 0.89 (os; outcome sampling
# with epsilon = 0.6 is slow on Leduc, as OpenSpiel's is). The seed is fixed, so the bounds keep
# about 1.5x over the measured figures. Uniform play has 2.37, so every bound
# fails it; the value is checked by the best-response interval (tests/equilibrium_checks.py), as
# a fixed value tolerance would pass uniform play's -0.078.
@pytest.mark.slow
@pytest.mark.parametrize(("algo", "threshold"), [("cs-cfr", 0.15), ("es-mccfr", 0.25),
                                                  ("os-mccfr", 1.2)])  # fmt: skip
def test_leduc_converges(algo, threshold):
    game = load_game("leduc")
    solver = make_solver(game, algo, seed=1).run(iterations=30_000)
    assert_near_equilibrium(
        game, solver.strategy(), value=LEDUC_VALUE, max_exploitability=threshold,
        reported=solver.metrics(),
    )  # fmt: skip


@pytest.mark.parametrize("algo", VARIANTS)
def test_same_seed_gives_identical_arrays_and_another_seed_does_not(algo):
    game = load_game("leduc")
    first = make_solver(game, algo, seed=7).run(iterations=40).state_dict()
    again = make_solver(game, algo, seed=7).run(iterations=40).state_dict()
    other = make_solver(game, algo, seed=8).run(iterations=40).state_dict()
    for key in first:
        if key != "elapsed_seconds":
            np.testing.assert_array_equal(again[key], first[key], err_msg=key)
    assert not np.array_equal(other["state/regrets_0"], first["state/regrets_0"])


# Kuhn at 1500 + 1500 crosses the 4096-uniform block boundary; Leduc exercises chance nodes.
@pytest.mark.parametrize(
    ("spec", "algo", "half"),
    [(spec, algo, half) for algo in VARIANTS for spec, half in (("leduc", 30), ("kuhn", 1500))],
)
def test_checkpoint_resume_equals_uninterrupted_run(tmp_path, spec, algo, half):
    straight = make_solver(load_game(spec), algo, seed=3).run(iterations=2 * half)
    first = make_solver(load_game(spec), algo, seed=3).run(iterations=half)
    path = first.save_checkpoint(tmp_path / "run.npz")
    resumed = make_solver(load_game(spec), algo, seed=3)
    resumed.load_checkpoint(path)
    resumed.run(iterations=half)
    expected, got = straight.state_dict(), resumed.state_dict()
    assert expected.keys() == got.keys()
    for key in expected:
        if key != "elapsed_seconds":
            np.testing.assert_array_equal(got[key], expected[key], err_msg=key)
    for node_id, probs in straight.average_strategy().items():
        np.testing.assert_array_equal(resumed.average_strategy()[node_id], probs)


def test_run_in_chunks_equals_one_run():
    game = load_game("leduc")
    whole = make_solver(game, "es-mccfr", seed=2).run(iterations=60)
    pieces = make_solver(game, "es-mccfr", seed=2)
    for size in (1, 9, 50):
        pieces.run(iterations=size)
    np.testing.assert_array_equal(
        pieces.state_dict()["state/regrets_1"], whole.state_dict()["state/regrets_1"]
    )


def test_strategies_are_in_the_common_format():
    game = load_game("leduc")
    solver = make_solver(game, "cs-cfr", seed=0).run(iterations=50)
    for strategy in (solver.average_strategy(), solver.current_strategy(), solver.strategy()):
        assert set(strategy) == {n.id for n in game.decision_nodes()}
        for node_id, probs in strategy.items():
            node = game.nodes[node_id]
            assert probs.shape == (game.n_hands[node.player], len(node.actions))
            np.testing.assert_allclose(probs.sum(axis=1), 1.0)


def test_settings_hold_seed_and_options_and_guard_checkpoints(tmp_path):
    kuhn = load_game("kuhn")
    solver = make_solver(kuhn, "os-mccfr", seed=5, epsilon=0.4)
    assert solver.settings()["seed"] == 5
    assert solver.settings()["epsilon"] == 0.4
    assert solver.settings()["algorithm"] == "os-mccfr"
    path = solver.run(iterations=5).save_checkpoint(tmp_path / "c.npz")
    with pytest.raises(SolverError, match="settings"):
        make_solver(kuhn, "os-mccfr", seed=6, epsilon=0.4).load_checkpoint(path)


def test_bad_options_are_refused():
    kuhn = load_game("kuhn")
    with pytest.raises(SolverError, match="epsilon"):
        make_solver(kuhn, "os-mccfr", epsilon=0.0)
    with pytest.raises(SolverError, match="seed"):
        make_solver(kuhn, "cs-cfr", seed=-1)
    with pytest.raises(SolverError, match="matrix game"):
        make_solver(load_game("matrix(rps)"), "es-mccfr")
    with pytest.raises(SolverError, match="bad options"):
        make_solver(kuhn, "es-mccfr", epsilon=0.5)


def test_random_stream_state_round_trips_exactly():
    stream = RandomStream(11, block=8)
    for _ in range(13):
        stream.next()
    saved = stream.arrays()
    expected = [stream.next() for _ in range(20)]
    restored = RandomStream(0, block=8)
    restored.load(saved)
    assert [restored.next() for _ in range(20)] == expected


def test_deals_follow_the_prior():
    game = load_game("leduc")
    solver = make_solver(game, "cs-cfr", seed=0)
    stream = RandomStream(4)
    counts = np.zeros(game.n_hands)
    for _ in range(30_000):
        counts[solver.tree.sample_deal(stream.next())] += 1
    assert np.all(counts[np.eye(6, dtype=bool)] == 0)  # a card cannot be dealt twice
    np.testing.assert_allclose(counts / counts.sum(), game.prior, atol=0.004)
