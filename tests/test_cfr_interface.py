"""The common solver interface: run in chunks, solve() to a target, checkpoints, bad input."""

import numpy as np
import pytest

from solvers.algorithms import ALGORITHMS, SolverError, make_solver, solve
from solvers.games import load_game

CHECKPOINT_CASES = [
    ("kuhn", "cfr", {}),
    ("leduc", "cfr+", {}),
    ("leduc", "dcfr", {"alternating": False}),
    ("leduc", "lcfr", {"output": "current"}),
    ("kuhn", "fp", {}),
    ("matrix(rps)", "rm", {"seed": 1}),
    ("matrix(rps)", "rm+", {"opponent": [0.4, 0.3, 0.3]}),
]


def test_every_algorithm_is_registered():
    assert {"cfr", "cfr+", "lcfr", "dcfr", "fp", "rm", "rm+"} <= set(ALGORITHMS)


@pytest.mark.parametrize(("spec", "algo", "options"), CHECKPOINT_CASES)
def test_resumed_run_equals_uninterrupted_run(tmp_path, spec, algo, options):
    game = load_game(spec)
    straight = make_solver(game, algo, **options).run(iterations=100)

    first = make_solver(game, algo, **options).run(iterations=50)
    path = first.save_checkpoint(tmp_path / "run.npz")
    resumed = make_solver(load_game(spec), algo, **options)
    resumed.load_checkpoint(path)
    assert resumed.iterations == 50
    resumed.run(iterations=50)

    assert resumed.iterations == straight.iterations == 100
    expected, got = straight.state_dict(), resumed.state_dict()
    assert expected.keys() == got.keys()
    for key in expected:
        if key != "elapsed_seconds":
            np.testing.assert_array_equal(got[key], expected[key], err_msg=key)
    for node_id, probs in straight.strategy().items():
        np.testing.assert_array_equal(resumed.strategy()[node_id], probs)
        np.testing.assert_array_equal(
            resumed.current_strategy()[node_id], straight.current_strategy()[node_id]
        )


def test_checkpoint_is_plain_npz_without_pickle(tmp_path):
    solver = make_solver(load_game("kuhn"), "cfr+").run(iterations=3)
    path = solver.save_checkpoint(tmp_path / "c.npz")
    with np.load(path, allow_pickle=False) as data:
        assert int(data["iterations"]) == 3
        assert all(data[key].dtype != object for key in data.files)
    assert not list(tmp_path.glob("*.tmp*"))


def test_checkpoint_of_another_game_or_setting_is_refused(tmp_path):
    path = (
        make_solver(load_game("kuhn"), "cfr+").run(iterations=3).save_checkpoint(tmp_path / "c.npz")
    )
    with pytest.raises(SolverError, match="kuhn"):
        make_solver(load_game("kuhn(cards=4)"), "cfr+").load_checkpoint(path)
    with pytest.raises(SolverError, match="settings"):
        make_solver(load_game("kuhn"), "dcfr").load_checkpoint(path)


def test_run_in_chunks_equals_one_run():
    game = load_game("leduc")
    whole = make_solver(game, "dcfr").run(iterations=60)
    pieces = make_solver(game, "dcfr")
    for size in (1, 7, 25, 27):
        pieces.run(iterations=size)
    for p in (0, 1):
        np.testing.assert_array_equal(pieces.regrets[p], whole.regrets[p])
        np.testing.assert_array_equal(pieces.strategy_sums[p], whole.strategy_sums[p])


def test_run_for_seconds_stops():
    solver = make_solver(load_game("leduc"), "cfr+")
    solver.run(seconds=0.2)
    assert solver.iterations > 0
    assert solver.iterations % solver.chunk == 0
    assert 0.2 <= solver.elapsed_seconds < 2.0
    metrics = solver.metrics()
    assert metrics.iterations == solver.iterations
    assert metrics.ms_per_iteration > 0
    assert set(metrics.as_dict()) == {
        "iterations",
        "seconds",
        "ms_per_iteration",
        "exploitability",
        "game_value",
    }


def test_solve_stops_at_the_target():
    solver, metrics = solve(load_game("kuhn"), "cfr+", target_exploitability=1e-4, check_every=50)
    assert metrics.exploitability <= 1e-4
    assert metrics.iterations % 50 == 0
    assert 50 <= metrics.iterations <= 2000  # measured 900
    assert solver.metrics() == metrics


def test_solve_stops_at_the_budget():
    _, metrics = solve(
        load_game("leduc"), "cfr", target_exploitability=1e-9, max_iterations=120, check_every=50
    )
    assert metrics.iterations == 120
    _, timed = solve(load_game("kuhn"), "dcfr", seconds=0.1)
    assert timed.iterations > 0


def test_bad_input_is_reported():
    kuhn, rps = load_game("kuhn"), load_game("matrix(rps)")
    with pytest.raises(SolverError, match="unknown algorithm"):
        make_solver(kuhn, "nope")
    with pytest.raises(SolverError, match="bad options"):
        make_solver(kuhn, "cfr", colour="red")
    with pytest.raises(SolverError, match="matrix game"):
        make_solver(rps, "cfr+")
    with pytest.raises(SolverError, match="matrix game"):
        make_solver(kuhn, "rm")
    with pytest.raises(SolverError, match="alpha"):
        make_solver(kuhn, "cfr", alpha=1.0)
    with pytest.raises(SolverError, match="output"):
        make_solver(kuhn, "cfr", output="best")
    with pytest.raises(SolverError, match="give a target"):
        solve(kuhn, "cfr")
    with pytest.raises(SolverError, match="opponent"):
        make_solver(rps, "rm", opponent=[0.5, 0.5])
