"""Von Neumann poker on 100 bins against Goykhman's continuous closed form (seed 000, §2).

Size of the gap. The binned game is a discretisation with bin width 1/M. Thresholds can only be
resolved to about one bin, so x1, x2, c and y0 differ from the continuous ones by O(1/M) (the LP
may also mix in a boundary bin, and its dealer need not be the admissible one: only the call
mass c on (x1, x2) is pinned, and we compare y0 = x2 - c). The value gap is smaller: the
value is stationary at the equilibrium, so first-order threshold errors cancel and the gap
shrinks like O(1/M^2) (measured: 1.7e-4 at M = 100 and 9.2e-6 at M = 400 for (8, 1); about
1e-5 and 2e-6 for (1, 2); zero for (1, 4), whose thresholds fall on bin edges).
"""

import pytest

from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.games.von_neumann import closed_form
from solvers.theory.thresholds import measured_thresholds

BINS = 100
CASES = [(1, 2), (1, 4), (8, 1)]


def test_closed_form_matches_the_table():
    table = {
        (1, 2): (1 / 9, 7 / 9, 2 / 9, 5 / 9, 1 / 9),
        (1, 4): (1 / 10, 17 / 20, 3 / 20, 7 / 10, 0.1),
        (8, 1): (8 / 297, 161 / 297, 136 / 297, 25 / 297, 64 / 297),
    }
    for (ante, bet), expected in table.items():
        form = closed_form(ante, bet)
        assert (form.x1, form.x2, form.c, form.y0, form.value) == pytest.approx(expected)


@pytest.mark.parametrize(("ante", "bet"), CASES)
def test_lp_on_bins_approaches_the_continuous_solution(ante, bet):
    game = load_game(f"von_neumann(ante={ante},bet={bet},bins={BINS})")
    solution = solve_lp(game)
    form = game.closed_form()
    assert exploitability(game, solution.strategy).exploitability < 1e-9
    assert solution.value == pytest.approx(form.value, abs=2 / BINS**2)
    measured = measured_thresholds(game, solution.strategy)
    assert measured.value == pytest.approx(solution.value, abs=1e-9)
    assert measured.x1 == pytest.approx(form.x1, abs=1 / BINS)
    assert measured.x2 == pytest.approx(form.x2, abs=1 / BINS)
    assert measured.c == pytest.approx(form.c, abs=1 / BINS)
    assert measured.y0 == pytest.approx(form.y0, abs=1 / BINS)
    # The player's strategy is pure outside the boundary bins: bluff low, value-bet high.
    bet_prob = solution.strategy[game.node_by_key("").id][:, 1]
    assert bet_prob[0] == pytest.approx(1) and bet_prob[-1] == pytest.approx(1)


@pytest.mark.parametrize(("ante", "bet"), CASES)
def test_sampled_admissible_strategy_is_nearly_unexploitable(ante, bet):
    game = load_game(f"von_neumann(ante={ante},bet={bet},bins={BINS})")
    assert exploitability(game, game.admissible_strategy()).exploitability < 2 / BINS
