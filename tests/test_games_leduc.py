"""Leduc hold'em: the LP value, and exploitability agreeing with OpenSpiel's to 1e-9."""

import numpy as np
import pytest

from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game, random_strategy, uniform_strategy

LEDUC_VALUE = -0.0856064240780006  # about -0.0856 (published); pinned from the LP


@pytest.fixture(scope="module")
def leduc():
    game = load_game("leduc")
    return game, solve_lp(game)


def test_lp_value(leduc):
    game, solution = leduc
    assert solution.value == pytest.approx(LEDUC_VALUE, abs=1e-9)
    measured = exploitability(game, solution.strategy)
    assert measured.exploitability < 1e-9
    assert measured.game_value == pytest.approx(LEDUC_VALUE, abs=1e-9)


def test_uniform_exploitability_matches_openspiel_figure():
    game = load_game("leduc")
    # OpenSpiel 2.0.2 gives 2.373611111111111 for its uniform TabularPolicy.
    assert exploitability(game, uniform_strategy(game)).exploitability == pytest.approx(
        2.373611111111111, abs=1e-12
    )


@pytest.mark.parametrize("which", ["lp", "random"])
def test_exploitability_matches_openspiel(leduc, which):
    import pyspiel  # noqa: F401 - the test extra installs it: fail, not skip

    from solvers.strategy_file.openspiel import openspiel_exploitability

    game, solution = leduc
    strategy = (
        solution.strategy if which == "lp" else random_strategy(game, np.random.default_rng(7))
    )
    ours = exploitability(game, strategy).exploitability
    assert openspiel_exploitability(game, strategy) == pytest.approx(ours, abs=1e-9)
    assert openspiel_exploitability(game, strategy, cpp=True) == pytest.approx(ours, abs=1e-9)


def test_showdown_rules():
    game = load_game("leduc")
    node = game.node_by_key("c/c/Qs/c/c")  # board Qs; hands Js Jh Qs Qh Ks Kh
    sign = game.showdown_sign(node)
    assert sign[3, 5] == 1  # pair of queens beats a king
    assert sign[5, 0] == 1  # king high beats jack high
    assert sign[0, 1] == 0  # jacks split
    assert sign[4, 3] == -1
