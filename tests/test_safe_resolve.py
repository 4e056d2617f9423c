"""Safe re-solving with the resolve gadget on a river subgame.

The gadget's leaf is checked against closed sums (an opponent that always terminates gets the
prior-weighted mean of its alternatives; one that always follows gets the subgame's value).
The safety property is checked with exact best responses of the spot engine, a separate pass
from the solver: against the safe re-solve no opponent hand wins more than against the
blueprint, and in total the opponent wins no more; the range-only re-solve of the same spot
breaks the per-hand bound, which is what the gadget is for.
"""

import numpy as np
import pytest

from solvers.agents.safe_resolve import (
    GADGET_OFFSET,
    GadgetGame,
    blueprint_strategy,
    opponent_values,
    safe_resolve,
)
from solvers.agents.subgame import bayes_ranges, build_subgame
from solvers.algorithms.base import make_solver
from solvers.cards.deck import parse_cards
from solvers.exact.evaluation import expected_values
from solvers.games.hunl.rules import HunlConfig, replay
from tests.resolve_fixtures import Fixed, street

RIVER = np.array(parse_cards("Ks 7h 2d 9c 4s"))
BASE = Fixed(3)
ME, OPPONENT = 1, 1  # the big blind re-solves; the button is the spot's player 1


@pytest.fixture(scope="module")
def river():
    state = replay("r250c/cr400c/cc/", HunlConfig(100))
    ranges = bayes_ranges(state, RIVER, (BASE, BASE))
    sub = build_subgame(state, RIVER, ranges, {"river": street("50%, a", "a", 1)})
    blueprint = blueprint_strategy(sub, BASE)
    return sub, blueprint, opponent_values(sub, blueprint, OPPONENT)


def uniform(game):
    return {n.id: np.full((game.n_hands[n.player], len(n.tokens)), 1 / len(n.tokens))
            for n in game.nodes if n.is_decision}  # fmt: skip


def test_the_blueprint_in_the_spot_is_the_base_agents_policy(river):
    sub, blueprint, _ = river
    game = sub.game
    root = game.root  # the big blind checks with chance p(combo), else bets (pot -> nearest)
    np.testing.assert_allclose(blueprint[root.id][:, 0], BASE.p[game.hand_combos[0]])
    assert root.tokens == ("x", "b400", "b9600")
    np.testing.assert_allclose(blueprint[root.id][:, 2], 0.0)  # a pot bet is nearer 50%


def test_the_gadget_leaf_pays_the_alternatives_and_follow_is_the_subgame(river):
    sub, blueprint, values = river
    game = sub.game
    gadget = GadgetGame.around(game, OPPONENT, values)
    weights = game.hand_weights(OPPONENT)
    terminate = uniform(gadget)
    terminate[0] = np.tile([1.0, 0.0], (gadget.n_hands[OPPONENT], 1))
    got = expected_values(gadget, terminate).totals[OPPONENT]
    assert got == pytest.approx(float(weights @ values), rel=1e-9)
    follow = {k + GADGET_OFFSET: v for k, v in blueprint.items()}
    follow[0] = np.tile([0.0, 1.0], (gadget.n_hands[OPPONENT], 1))
    expected = expected_values(game, blueprint).totals[0]
    assert expected_values(gadget, follow).totals[0] == pytest.approx(expected, rel=1e-9)


def test_the_safe_re_solve_is_no_more_exploitable_than_the_blueprint_hand_by_hand(river):
    sub, blueprint, values = river
    game = sub.game
    weights = game.hand_weights(OPPONENT)
    safe, _ = safe_resolve(sub, ME, values, iterations=300)
    against_safe = opponent_values(sub, safe, OPPONENT)
    tolerance = 0.001 * game.pot  # 0.1% of the pot per hand
    assert (against_safe <= values + tolerance).all()
    assert weights @ against_safe <= weights @ values
    solver = make_solver(game, "dcfr")
    solver.run(iterations=300)
    against_unsafe = opponent_values(sub, solver.average_strategy(), OPPONENT)
    assert (against_unsafe - values).max() > 10 * tolerance  # ranges alone break the bound
