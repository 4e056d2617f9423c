"""The spot bot's turn re-solve after an off-tree turn bet (``solvers/agents/turn_resolve.py``):
the subgame it builds (root, chips, raises, both ranges) against values computed by hand, the
resolve gadget's safety property, and what it does to LBR and practice play."""

from __future__ import annotations

import numpy as np
import pytest

from pokertui.session import Session
from solvers.agents.river_resolve import RiverResolver
from solvers.agents.turn_resolve import TurnResolver, street_raises
from solvers.algorithms import make_solver
from solvers.cards.deck import N_COMBOS
from solvers.cards.ranges import parse_range
from solvers.exact.evaluation import best_response
from solvers.games import load_game
from solvers.reports.lbr import LocalBestResponse
from solvers.reports.lbr_belief import after_bot, after_lbr, observations, start
from solvers.strategy_file import load_strategy, save_strategy
from tests.test_river_resolve import P_LOW, SPOT, random_strategy

LOW, HIGH = "b33", "b100"
"""OOP's turn bets in ``SPOT``: a third of the pot and the pot (and no all-in)."""


@pytest.fixture(scope="module")
def spot():
    game = load_game(SPOT)
    return game, random_strategy(game, 5)


@pytest.fixture(scope="module")
def solved():
    game = load_game(SPOT)
    solver = make_solver(game, "dcfr")
    solver.run(iterations=300)
    return game, solver.average_strategy()


def combo_weights(game, player: int, values: np.ndarray) -> np.ndarray:
    out = np.zeros(N_COMBOS)
    out[game.hand_combos[player]] = values
    return out


def normalised(w: np.ndarray) -> np.ndarray:
    return w / w.max()


def test_street_raises_count_the_bets_since_the_last_card():
    assert street_raises((("L", "b", 110.0),)) == 0
    assert street_raises((("L", "p"), ("B", "b", 125.0), ("L", "b", 300.0))) == 1
    assert street_raises((("L", "b", 80.0), ("B", "p"), ("C", "3c"), ("L", "b", 150.0))) == 0


@pytest.mark.parametrize("safe", [True, False])
def test_the_subgame_faces_the_real_bet_with_the_hands_ranges(spot, safe):
    """OOP (the opponent, seat 0) bets 60 into 100, between the tree's 33 and 100: the bot's
    subgame starts facing exactly that bet with the real chips; the bot's range is its prior;
    the opponent's is its whole range (safe: the gadget picks which hands follow) or the mix of
    the file's two translated bets with the pseudo-harmonic odds (unsafe)."""
    game, strategy = spot
    resolver = TurnResolver(game, strategy, iterations=20, safe=safe)
    belief = start(game, game.range_weights[1].copy())
    assert resolver.applies(belief, 0, 110.0)
    assert not resolver.applies(belief, 0, 50.0 + 33.0)  # a tree size stays on the tree
    sub = resolver.solve(0, belief, 110.0).game
    root = sub.root
    assert (root.player, root.contributions) == (1, (110.0, 50.0))
    assert root.tokens == ("f", "c", "b600")  # IP's turn raise is all-in only
    assert (sub.params.pot, sub.params.stack) == (100.0, 600.0)
    np.testing.assert_allclose(parse_range(sub.params.ip_range),
                               normalised(combo_weights(game, 1, game.range_weights[1])),
                               rtol=1e-9, atol=1e-12)  # fmt: skip
    oop = game.range_weights[0]
    if not safe:
        bets = strategy[game.root.id]
        low = game.root.children.index(game.node_by_key(LOW).id)
        high = game.root.children.index(game.node_by_key(HIGH).id)
        oop = oop * (P_LOW * bets[:, low] + (1.0 - P_LOW) * bets[:, high])
    np.testing.assert_allclose(parse_range(sub.params.oop_range),
                               normalised(combo_weights(game, 0, oop)), rtol=1e-9,
                               atol=1e-12)  # fmt: skip


def test_a_raise_of_a_tree_bet_keeps_the_streets_raise_count(spot):
    """The bot (IP) bets 75% after a check and OOP raises to 300, off the tree (its raise is
    all-in only): the re-solve starts at the bot facing the raise with the raise counted."""
    game, strategy = spot
    resolver = TurnResolver(game, strategy, iterations=20)
    sizer = RiverResolver(game, strategy, turn_iterations=0).sizer
    belief = after_lbr(game, start(game, game.range_weights[1].copy()), 0, "p", None)
    seen = [o for o in observations(sizer, belief) if o[0] == "b"][0]
    belief = after_bot(game, strategy, belief, seen, observations(sizer, belief)[seen])
    assert resolver.applies(belief, 0, 300.0)
    root = resolver.solve(0, belief, 300.0).game.root
    assert (root.player, root.contributions) == (1, (300.0, seen[1]))
    assert root.tokens[:2] == ("f", "c")


def test_the_safe_re_solve_gives_no_opponent_hand_more_than_the_tree_does(solved):
    """Through the resolve gadget, no opponent hand's best response in the subgame wins more
    than its best response against the file from the node before the bet (its alternative), up
    to the solve's convergence; the unsafe re-solve gives some hands far more."""
    game, strategy = solved
    belief = start(game, game.range_weights[1].copy())
    gaps = {}
    for safe in (True, False):
        resolver = TurnResolver(game, strategy, iterations=300, safe=safe)
        solve = resolver.solve(0, belief, 50.0 + 550.0)  # 550 into 100: the tree's max is 100
        sub = solve.game
        values = TurnResolver(game, strategy).alternatives(0, belief, sub)
        response = np.nan_to_num(best_response(sub, solve.strategy, 0).per_hand)
        weights = sub.hand_weights(0)
        gaps[safe] = np.max(np.where(weights > 0, response - values, -np.inf))
    pot = game.pot
    assert gaps[True] < 0.01 * pot, gaps
    assert gaps[False] > 0.2 * pot, gaps


def test_lbr_wins_far_less_from_the_turn_re_solve_than_from_the_translation(solved):
    """Exact LBR ``fcpa`` on a spot whose OOP tree has no all-in: the translated bot answers a
    shove as a pot bet and loses 33% of the pot (measured 32.6); against the safe turn re-solve
    LBR wins under 1% (measured 0.4), and ``tree`` (on the tree) is unchanged."""
    game, strategy = solved
    values = {}
    for turn in (0, 200):
        river = RiverResolver(game, strategy, iterations=100, turn_iterations=turn)
        for action_set in ("fcpa", "tree"):
            lbr = LocalBestResponse(game, strategy, action_set, river=river)
            chips = np.mean([lbr.expected_seat(seat) for seat in (0, 1)])
            values[turn, action_set] = 100.0 * chips / game.pot
    assert values[0, "fcpa"] > 25.0, values
    assert values[200, "fcpa"] < 1.0, values
    assert values[0, "tree"] == values[200, "tree"]


@pytest.fixture(scope="module")
def turn_file(tmp_path_factory, solved):
    game, strategy = solved
    out = tmp_path_factory.mktemp("turn") / "turn.json"
    save_strategy(out, game, strategy)
    return load_strategy(out)


def test_practice_play_re_solves_the_turn_after_an_off_tree_bet(turn_file):
    """The human (OOP) bets 60 into 100: the bot answers from its turn re-solve, the same one
    LBR meets after the same public line."""
    session = Session(turn_file, human_seat=0, seed=1, review=False)
    session.new_hand()
    session.act_amount(60.0)
    play = session.river_bot.turn_play(0, (("L", "b", 110.0),))
    assert play is not None
    assert session.hand.steps[1].seat == 1  # the bot answered
    turn = session.river_bot.turn
    belief = start(turn.game, turn.game.range_weights[1].copy())
    assert turn.solve(0, belief, 110.0) is play.solved
    assert turn.solves == 1
