"""Safe re-solving with the resolve gadget on a river subgame and on a turn over every river.

The gadget's leaf is checked against closed sums (an opponent that always terminates gets the
prior-weighted mean of its alternatives; one that always follows gets the subgame's value).
The safety property is checked with exact best responses of the spot engine, a separate pass
from the solver: against the safe re-solve no opponent hand wins more than against the
blueprint, and in total the opponent wins no more; the range-only re-solve of the same spot
breaks the per-hand bound, which is what the gadget is for. On the turn the best responses are
the node-by-node reference recursion's (``tests/reference_walk.py``), not the engine's.
"""

import numpy as np
import pytest

from solvers.agents.compiled_gadget import CompiledGadgetCFR
from solvers.agents.resolving import TURN_TREES
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
from tests.resolve_fixtures import Fixed, Narrow, street

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


TURN = np.array(parse_cards("Ks 7h 2d 9c"))
NARROW = Narrow(3)


def reference_best_response(game, strategy, player) -> np.ndarray:
    """Per-hand best-response values of ``player`` from the node-by-node reference recursion."""
    from tests import reference_walk

    opp_reach = reference_walk.reaches(game, strategy, 1 - player)
    values, _ = reference_walk.counterfactual_values(game, strategy, player, opp_reach,
                                                     respond=True)  # fmt: skip
    return values[0]


def test_on_the_turn_the_safe_re_solve_is_no_more_exploitable_than_the_blueprint():
    # A turn over every river card: the blueprint is the base agent's policy at each decision
    # of each river, and the gadget's opponent values are its best responses to that play.
    state = replay("r250c/cc/", HunlConfig(100))
    ranges = bayes_ranges(state, TURN, (NARROW, NARROW))
    sub = build_subgame(state, TURN, ranges, TURN_TREES["small-river"])
    game = sub.game
    assert any(n.is_chance for n in game.nodes) and max(game.n_hands) < 80
    blueprint = blueprint_strategy(sub, NARROW)
    river = [n for n in game.nodes if n.is_decision and len(n.board) == 5][0]
    np.testing.assert_allclose(blueprint[river.id][:, 0], NARROW.p[game.hand_combos[0]])
    values = opponent_values(sub, blueprint, OPPONENT)
    weights = game.hand_weights(OPPONENT)
    # the alternatives are exact best responses (the reference recursion: cfv per hand)
    reference = reference_best_response(game, blueprint, OPPONENT)
    np.testing.assert_allclose(values * weights, reference, rtol=1e-9, atol=1e-9)
    safe, _ = safe_resolve(sub, ME, values, iterations=150)
    against_safe = reference_best_response(game, safe, OPPONENT)
    tolerance = 0.001 * game.pot  # 0.1% of the pot per hand
    assert (against_safe <= (values + tolerance) * weights).all()
    assert against_safe.sum() <= reference.sum()  # the opponent's total: no more than before
    solver = make_solver(game, "dcfr")
    solver.run(iterations=150)
    against_unsafe = reference_best_response(game, solver.average_strategy(), OPPONENT)
    excess = (against_unsafe - reference) / np.where(weights > 0, weights, 1.0)
    assert excess.max() > 10 * tolerance  # ranges alone break the bound


@pytest.mark.parametrize("iterations", [1, 2, 40])
def test_the_compiled_gadget_runs_the_numpy_gadgets_iterates(river, iterations):
    # the opponent's follow probability as a root reach on the compiled walk against the
    # gadget game's own root decision on the numpy walk: the same DCFR iterates
    sub, _, values = river
    compiled, _ = safe_resolve(sub, ME, values, iterations)
    reference, _ = safe_resolve(sub, ME, values, iterations, walk="numpy")
    for node_id, rows in reference.items():
        np.testing.assert_allclose(compiled[node_id], rows, atol=2e-5)
    if iterations > 1:  # the first iterate is uniform; later ones are not
        assert any(np.ptp(rows, axis=0).max() > 0.1 for rows in reference.values())


def test_the_gadgets_compiled_loop_runs_its_python_steps_iterates_to_the_bit(river):
    # run() hands chunks of iterations to one compiled loop (compiled_kernels'
    # gadget_iterations); _step() is one iteration from Python. 60 iterations: two full
    # chunks of 25 and a part, DCFR's discounts changing every iteration. The alternatives are
    # a fifth of the pot under the blueprint's best responses, so that some hands follow and
    # others terminate.
    sub, _, values = river
    game = sub.game
    values = values - 0.2 * game.pot
    stepped = CompiledGadgetCFR(game, OPPONENT, values)
    looped = CompiledGadgetCFR(game, OPPONENT, values)
    for _ in range(60):
        stepped._step()
    looped.run(iterations=60)
    assert looped.iterations == stepped.iterations == 60
    pairs = [
        *zip(stepped.regrets, looped.regrets, strict=True),
        *zip(stepped.strategy_sums, looped.strategy_sums, strict=True),
        (stepped.gadget_regrets, looped.gadget_regrets),
        (stepped.follow, looped.follow),
    ]
    for a, b in pairs:
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert 0.1 < (stepped.follow > 0.5).mean() < 0.9
    assert np.abs(stepped.gadget_regrets).max() > 0
