"""The theory lab's math, without the UI: Kuhn's alpha family, the river toy game and von
Neumann poker, each against closed forms."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.theory.kuhn_family import KUHN_VALUE, kuhn_deviations, kuhn_family, kuhn_profile
from solvers.theory.river_theory import river_figures
from solvers.theory.von_neumann_theory import BEST_RESPONSE_ROW, von_neumann_figures
from tests.equilibrium_checks import best_response_interval


@pytest.mark.parametrize("alpha", [0.0, 1 / 30, 1 / 6, 0.25, 1 / 3])
def test_kuhn_family_is_an_equilibrium_worth_minus_one_eighteenth(alpha):
    value, deviations = kuhn_deviations(alpha)
    assert value == pytest.approx(-1 / 18, abs=1e-12) and KUHN_VALUE == -1 / 18
    game, strategy = kuhn_profile(alpha)
    assert exploitability(game, strategy).exploitability == pytest.approx(0.0, abs=1e-12)
    assert len(deviations) == 12
    for row in deviations:
        assert max(row.pure_evs) == pytest.approx(row.equilibrium_ev, abs=1e-12)
        if 0 < row.frequency < 1:  # mixed: both pure actions tie
            assert row.pure_evs[0] == pytest.approx(row.pure_evs[1], abs=1e-12)


def test_kuhn_family_frequencies_and_a_losing_deviation():
    family = kuhn_family(0.2)
    assert (family.bet_jack, family.bet_king) == pytest.approx((0.2, 0.6))
    assert family.call_queen_after_check_bet == pytest.approx(0.2 + 1 / 3)
    with pytest.raises(ValueError, match=r"\[0, 1/3\]"):
        kuhn_family(0.5)
    # player 2 folding K to a bet, by hand: P1 bets with J (alpha) and K (3 alpha, but P2 holds
    # it); P2's K faces a bet only from P1's J (prob 1/2 * alpha): folding loses 1 instead of
    # winning 2, so P2's value drops by 1/3 (P2 holds K) * 1/2 * alpha * 3 = alpha / 2.
    alpha = 0.2
    _, deviations = kuhn_deviations(alpha)
    fold_king = next(d for d in deviations if d.node == "b" and d.card == "K")
    assert fold_king.equilibrium_ev - fold_king.pure_evs[0] == pytest.approx(alpha / 2)


def test_river_toy_figures_match_the_closed_form():
    pot, bet, nuts = 4.0, 1.0, 0.2
    f = river_figures(pot, bet, nuts)
    assert f.alpha == pytest.approx(bet / (pot + bet))
    assert f.mdf == pytest.approx(pot / (pot + bet))
    assert f.bluff_share == pytest.approx(bet / (pot + 2 * bet))
    assert f.bluff_of_all == pytest.approx(nuts * bet / (pot + bet))  # 0.04
    assert f.air_bluff_frequency == pytest.approx(0.04 / 0.8)
    assert f.call_probability == pytest.approx(0.8)
    x = bet / pot
    assert f.clairvoyance_bluffs_per_value_bet == pytest.approx(x / (1 + x))
    assert f.clairvoyance_call == pytest.approx(1 / (1 + x))
    # EVs in chips: the bettor's equilibrium value is nuts * (pot + call * bet) = 0.96
    assert f.vs_best_response == pytest.approx(
        {"equilibrium": 0.96, "never bluff": 0.8, "always bet": 0.2}
    )
    assert f.equilibrium_vs == pytest.approx({"always call": 0.96, "always fold": 0.96})
    with pytest.raises(ValueError, match="too little air"):
        river_figures(1.0, 10.0, 0.6)


@pytest.mark.parametrize(
    ("ante", "bet", "row"),
    [
        (1, 2, ("1/9", "7/9", "2/9", "5/9", "1/9")),
        (1, 4, ("1/10", "17/20", "3/20", "7/10", "1/10")),
        (8, 1, ("8/297", "161/297", "136/297", "25/297", "64/297")),
    ],
)
def test_von_neumann_figures_against_the_closed_form(ante, bet, row):
    f = von_neumann_figures(ante, bet, 50)
    form = f.form
    got = (form.x1, form.x2, form.c, form.y0, form.value)
    assert got == pytest.approx([float(Fraction(v)) for v in row])
    # the LP on 50 bins lands within a bin or two of the thresholds and near the value
    assert f.measured.x1 == pytest.approx(form.x1, abs=2 / 50)
    assert f.measured.x2 == pytest.approx(form.x2, abs=2 / 50)
    # the figure is the 50-bin LP's value; the binned value is stationary at the equilibrium, so
    # it is within O(1/bins^2) of the continuous one (measured 7.4e-4 for (8, 1), 1.1e-4 for
    # (1, 2)), and like any game value it lies in the admissible strategy's best-response interval
    game = load_game(f"von_neumann(ante={ante},bet={bet},bins=50)")
    assert f.lp_value == pytest.approx(solve_lp(game).value, abs=1e-9)
    assert f.lp_value == pytest.approx(form.value, abs=2 / 50**2)
    low, high = best_response_interval(exploitability(game, game.admissible_strategy()))
    assert low - 1e-12 <= f.lp_value <= high + 1e-12
    evs = {name: evs for name, *evs in f.rows}
    admissible_eq, _, lp_eq = evs["equilibrium"]
    for name, (admissible, _, lp) in evs.items():
        if name != BEST_RESPONSE_ROW:
            assert admissible <= admissible_eq + 1e-3 and lp <= f.lp_value + 1e-9
    # the best response against the LP dealer gains nothing over the LP value
    assert evs[BEST_RESPONSE_ROW][2] == pytest.approx(f.lp_value, abs=1e-8)


def test_the_flat_dealer_is_not_an_equilibrium_for_one_two():
    f = von_neumann_figures(1, 2, 100)
    best = dict(zip(("admissible", "flat", "LP"), f.rows[-1][1:], strict=True))
    # on 100 bins the admissible dealer concedes about 1e-4 to discretisation...
    assert best["admissible"] == pytest.approx(f.form.value, abs=2e-4)
    # ...while the flat dealer concedes over 20 times that: it is not an equilibrium
    assert best["flat"] > f.form.value + 4e-3


def test_theory_math_does_not_import_the_ui():
    code = (
        "import sys, solvers.theory.kuhn_family, solvers.theory.river_theory, "
        "solvers.theory.von_neumann_theory\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'pokertui')]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert np.isfinite(KUHN_VALUE)
