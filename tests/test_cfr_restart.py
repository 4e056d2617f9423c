"""DCFR's average started again at powers of a base (``restart``): the schedule, and sums that
hold exactly the iterates since the last restart, on the numpy walk and the compiled one."""

import numpy as np
import pytest

from solvers.algorithms import make_solver
from solvers.algorithms.base import SolverError
from solvers.algorithms.cfr_update import UpdateRule
from solvers.games import load_game
from tests.test_compiled_walk import RIVER


def test_the_average_starts_again_at_each_power_of_the_base():
    rule = UpdateRule(alpha=1.5, beta=0.0, gamma=2.0, restart=4)
    assert [t for t in range(1, 300) if rule.restarts(t)] == [4, 16, 64, 256]
    assert [rule.last_restart(t) for t in (1, 3, 4, 15, 16, 63, 64, 255)] == [
        0, 0, 4, 4, 16, 16, 64, 64]  # fmt: skip
    # the first iterate after a restart weighs 1, the next 2^2, ...; none before the first
    assert [rule.sum_weight(t) for t in (3, 4, 5, 16, 17, 20)] == [9.0, 1.0, 4.0, 1.0, 4.0, 25.0]
    plain = UpdateRule(alpha=1.5, beta=0.0, gamma=2.0)
    assert not any(plain.restarts(t) for t in range(1, 300))
    assert plain.sum_weight(20) == 400.0


@pytest.mark.parametrize(("spec", "walk"), [("kuhn", "numpy"), ("leduc", "numpy"),
                                            (RIVER, "compiled")])  # fmt: skip
def test_restarted_sums_are_the_iterates_since_the_last_restart(spec, walk):
    # The average's weights do not change the iterates (regrets), so a solver with a uniform
    # average (gamma 0) gives each iteration's own contribution as the step of its sums. After
    # 20 iterations with restarts at 4 and 16 (gamma 2) the sums must be those of iterations
    # 16 to 20 weighted 1, 4, 9, 16 and 25, written out here, not read from the rule.
    game = load_game(spec)
    options = {"walk": walk, "precision": "float64"} if walk == "compiled" else {}
    steps = make_solver(game, "dcfr", gamma=0.0, restart=0, **options)
    restarted = make_solver(game, "dcfr", restart=4, **options)
    expected = [np.zeros_like(s) for s in steps.strategy_sums]
    for t in range(1, 21):
        before = [s.copy() for s in steps.strategy_sums]
        steps.run(iterations=1)
        restarted.run(iterations=1)
        if t >= 16:
            for p in (0, 1):
                expected[p] += (t - 15) ** 2 * (steps.strategy_sums[p] - before[p])
    for p in (0, 1):
        np.testing.assert_array_equal(restarted.regrets[p], steps.regrets[p])
        scale = np.abs(expected[p]).max()
        assert scale > 0
        np.testing.assert_allclose(restarted.strategy_sums[p], expected[p], rtol=1e-9,
                                   atol=1e-12 * scale)  # fmt: skip
    whole = make_solver(game, "dcfr", restart=0, **options).run(iterations=20)
    assert max(np.abs(a / max(np.abs(a).max(), 1e-300) - b / max(np.abs(b).max(), 1e-300)).max()
               for a, b in zip(whole.strategy_sums, restarted.strategy_sums, strict=True)) > 1e-3


def test_a_base_of_one_is_refused():
    with pytest.raises(SolverError, match="restart"):
        make_solver(load_game("kuhn"), "dcfr", restart=1)
