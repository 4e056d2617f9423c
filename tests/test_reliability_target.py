"""A target is a promise: the strategy file a solve writes meets ``--target``, rounding included.

Rounding to 6 decimals used to come after the target check, so a run stopped at 9.8e-7 wrote
a file measured at 1.5e-6. The test finds, with the solver itself, an iteration where the
6-decimal file would miss a target the unrounded strategy meets, runs the CLI to that target,
and measures the written file by exact best response.
"""

import json

import pytest

from pokertui.cli import main
from solvers.algorithms import make_solver
from solvers.exact.evaluation import exploitability
from solvers.games import load_game
from solvers.strategy_file import load_strategy, measure, rounded_strategy


def _target_that_rounding_would_miss(spec: str, algo: str, limit: int = 1000):
    """``(iterations, target)``: the run first meets ``target`` at ``iterations``, where the
    6-decimal rounding of its strategy exceeds it."""
    game = load_game(spec)
    solver = make_solver(game, algo)
    best = float("inf")
    for iteration in range(1, limit):
        solver.run(iterations=1)
        raw = solver.metrics().exploitability
        if raw < best:
            target = raw * (1 + 1e-9)
            rounded = measure(game, rounded_strategy(game, solver.strategy(), 6)).exploitability
            if target < best and rounded > target and iteration > 50:
                return iteration, target
            best = raw
    raise AssertionError("no iteration where rounding adds exploitability")


@pytest.mark.parametrize("spec", ["kuhn", "kuhn(cards=5)"])
def test_the_written_file_meets_the_target(tmp_path, capsys, spec):
    iterations, target = _target_that_rounding_would_miss(spec, "cfr+")
    out = tmp_path / "s.json"
    code = main(["solve", spec, "--algo", "cfr+", "--target", repr(target), "--every", "0",
                 "--out", str(out), "--json"])  # fmt: skip
    assert code == 0
    final = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert final["stopped_by"] == "target" and final["iterations"] == iterations
    loaded = load_strategy(out)
    measured = exploitability(loaded.game, loaded.strategy).exploitability
    assert measured <= target
    assert final["exploitability"] == pytest.approx(measured, rel=1e-9, abs=1e-15)
    assert final["precision"] > 6
    assert final["rounding_added"] == pytest.approx(measured - final["exploitability_unrounded"])


def test_without_a_target_the_usual_rounding_is_kept(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["solve", "kuhn", "--algo", "cfr+", "--iterations", "50", "--out", str(out),
                 "--json"]) == 0  # fmt: skip
    final = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert final["precision"] == 6
    assert "target_missed_by_rounding" not in final
