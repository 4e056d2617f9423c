"""The single-bet formulas against published reference figures."""

import pytest

from solvers.errors import InputError
from solvers.theory import poker_math as pm


@pytest.mark.parametrize(
    ("fraction", "equity"), [(0.5, 0.25), (0.75, 0.30), (1.0, 1 / 3), (2.0, 0.40)]
)
def test_required_equity_by_bet_size(fraction, equity):
    assert pm.required_equity(100, 100 * fraction) == pytest.approx(equity)


def test_mdf_alpha_and_bluffing():
    assert pm.minimum_defence_frequency(100, 50) == pytest.approx(2 / 3)
    assert pm.alpha(4, 1) == pytest.approx(0.2)
    assert pm.bluff_share(4, 1) == pytest.approx(1 / 6)
    assert pm.bluff_to_value_ratio(4, 1) == pytest.approx(0.2)
    # clairvoyance game with pot 1 and bet x: bluff x/(1+x) of losing hands, call 1/(1+x)
    for x in (0.5, 1.0, 2.0):
        assert pm.alpha(1, x) == pytest.approx(x / (1 + x))
        assert pm.minimum_defence_frequency(1, x) == pytest.approx(1 / (1 + x))


def test_shove_ev_and_implied_odds():
    # fold 40%: win the 1.5 bb pot; called 60%: 30% equity in a 20 bb pot risking 9.5 more
    assert pm.shove_ev(0.4, 1.5, 0.3, 9.5) == pytest.approx(0.4 * 1.5 + 0.6 * (0.3 * 20.5 - 9.5))
    assert pm.implied_odds_needed(100, 50, 0.25) == pytest.approx(0.0)
    assert pm.implied_odds_needed(100, 50, 0.2) == pytest.approx(50.0)
    with pytest.raises(InputError):
        pm.alpha(10, 0)
