"""The equilibrium check rejects the wrong answers it is meant to catch, and accepts the LP's."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from solvers.exact.lp import solve_lp
from solvers.games import load_game
from tests.equilibrium_checks import assert_near_equilibrium

LEDUC_VALUE = -0.085606424078001
KUHN_VALUE = -1 / 18


def uniform(game):
    return {
        n.id: np.full((game.n_hands[n.player], len(n.actions)), 1 / len(n.actions))
        for n in game.decision_nodes()
    }


@pytest.fixture(scope="module")
def leduc_lp():
    game = load_game("leduc")
    return game, solve_lp(game).strategy


def test_the_lp_solution_passes(leduc_lp):
    game, strategy = leduc_lp
    report = assert_near_equilibrium(game, strategy, value=LEDUC_VALUE, max_exploitability=1e-9)
    assert report.game_value == pytest.approx(LEDUC_VALUE, abs=1e-9)


def test_uniform_leduc_fails_even_though_its_value_is_close(leduc_lp):
    game, _ = leduc_lp
    with pytest.raises(AssertionError, match="exploitability"):
        assert_near_equilibrium(game, uniform(game), value=LEDUC_VALUE, max_exploitability=0.2)
    # its value, -0.078, is within 0.008 of the game value, which old tolerances let through
    ev = assert_near_equilibrium(game, uniform(game), value=LEDUC_VALUE, max_exploitability=10)
    assert ev.nash_conv > 4.7 and abs(ev.game_value - LEDUC_VALUE) < 0.01


def test_a_value_reported_for_the_wrong_seat_fails(leduc_lp):
    game, strategy = leduc_lp
    swapped = SimpleNamespace(exploitability=0.0, game_value=-LEDUC_VALUE)
    with pytest.raises(AssertionError):
        assert_near_equilibrium(
            game, strategy, value=LEDUC_VALUE, max_exploitability=1e-3, reported=swapped
        )
    with pytest.raises(AssertionError, match="outside"):
        assert_near_equilibrium(game, strategy, value=-LEDUC_VALUE, max_exploitability=1e-3)


def test_seat_swapped_kuhn_profile_fails():
    """Each seat plays the other seat's equilibrium at the node with the same actions."""
    game = load_game("kuhn")
    strategy = solve_lp(game).strategy
    ids = {key: game.node_by_key(key).id for key in ("", "c", "c/b", "b")}
    swapped = {
        ids[""]: strategy[ids["c"]],
        ids["c"]: strategy[ids[""]],
        ids["c/b"]: strategy[ids["b"]],
        ids["b"]: strategy[ids["c/b"]],
    }
    with pytest.raises(AssertionError, match="exploitability"):
        assert_near_equilibrium(game, swapped, value=KUHN_VALUE, max_exploitability=0.01)
