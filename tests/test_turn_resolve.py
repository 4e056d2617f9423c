"""The spot bot's turn re-solve after an off-tree turn bet (``solvers/agents/turn_resolve.py``):
the subgame it builds (root, chips, raises, both ranges) against values computed by hand, the
resolve gadget's safety property, and what it does to LBR and practice play."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from pokertui.session import Session
from solvers.agents.beliefs import after_bot, after_lbr, observations, start
from solvers.agents.river_resolve import RiverResolver
from solvers.agents.turn_resolve import TurnResolver, street_raises
from solvers.algorithms import make_solver
from solvers.cards.deck import N_COMBOS
from solvers.cards.ranges import parse_range
from solvers.exact.decision_values import path_reach
from solvers.exact.evaluation import best_response, counterfactual_values
from solvers.games import load_game
from solvers.reports.lbr.spot import LocalBestResponse
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


def test_the_alternatives_are_the_best_response_given_the_hand_and_the_bots_range(solved):
    """At the root they are the exact best response's per-hand values; facing the bot's bet
    (an inner node) they are the numpy walk's counterfactual best-response values divided by
    the bot's reach-weighted mass each hand can meet."""
    game, strategy = solved
    resolver = TurnResolver(game, strategy)
    root = start(game, game.range_weights[1].copy())
    expected = np.nan_to_num(best_response(game, strategy, 0).per_hand)
    np.testing.assert_allclose(resolver.alternatives(0, root, game), expected, atol=1e-9)
    sizer = RiverResolver(game, strategy, turn_iterations=0).sizer
    belief = after_lbr(game, root, 0, "p", None)
    seen = [o for o in observations(sizer, belief) if o[0] == "b"][0]
    belief = after_bot(game, strategy, belief, seen, observations(sizer, belief)[seen])
    node = belief.node
    values, _ = counterfactual_values(game, strategy, 0, respond=True)
    bot = path_reach(game, strategy, node, 1) * game.range_weights[1]
    mass = game.range_weights[0] * ((game.prior > 0) @ bot)
    expected = np.where(mass > 0, values[node.id] * game.normaliser / np.maximum(mass, 1e-300), 0)
    np.testing.assert_allclose(resolver.alternatives(0, belief, game), expected, atol=1e-9)


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


def _bot_answer(loaded, forced: str):
    """The bot's answer to the human's (OOP) bet of 60 into 100 on seed 1's deal when its
    turn re-solve's rows at the root are ``forced`` for every hand (``f`` fold, ``c`` call)."""
    session = Session(loaded, human_seat=0, seed=1, review=False)
    turn = session.river_bot.turn
    belief = start(turn.game, turn.game.range_weights[1].copy())
    solved = turn.solve(0, belief, 110.0)  # what the session will find in the cache
    rows = solved.rows[solved.game.root.id]
    rows[:] = 0.0
    rows[:, solved.game.root.tokens.index(forced)] = 1.0
    session.new_hand()
    session.act_amount(60.0)
    assert turn.solves == 1  # the session's re-solve is LBR's for the same public line
    return session


def test_practice_play_answers_an_off_tree_turn_bet_from_the_re_solve(turn_file):
    folds = _bot_answer(turn_file, "f")
    assert folds.hand_over and folds.hand.result == pytest.approx(50.0)  # the bot's half pot
    calls = _bot_answer(turn_file, "c")
    assert not calls.hand_over and calls.human_to_act  # OOP acts first on the river
    assert calls.real_put == pytest.approx((110.0, 110.0))
    assert calls.events[:2] == [("L", "b", 110.0), ("B", "p")]
    assert calls.river is not None and len(calls.river.solved.game.root.board) == 5


async def test_the_play_screen_stays_live_while_the_bot_re_solves(tmp_path, turn_file,
                                                                monkeypatch):  # fmt: skip
    """An off-tree turn bet typed in the play screen is played by a worker: the live panel
    says the bot is thinking and the hand's keys wait (a key pressed meanwhile does nothing);
    then the bot's answer comes from the same re-solve LBR meets."""
    from textual.widgets import Input, Static  # noqa: PLC0415

    from pokertui.app import make_app  # noqa: PLC0415
    from pokertui.screens.play import PlayScreen  # noqa: PLC0415
    from tests.conftest import plain_text, wait_until  # noqa: PLC0415

    solve = TurnResolver._solve
    reached, opened = threading.Event(), threading.Event()

    def thinking_until_opened(self, *args):  # the re-solve waits for the test's checks
        reached.set()
        opened.wait(timeout=120)
        return solve(self, *args)

    monkeypatch.setattr(TurnResolver, "_solve", thinking_until_opened)
    bot = tmp_path / "turn.json"
    bot.write_bytes(Path(turn_file.source).read_bytes())
    app = make_app(tmp_path, tmp_path / "saves", bot=str(bot), seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        session = screen.session
        for _ in range(20):  # a hand where the human (OOP) opens the turn
            if session.human_to_act and session.node.key == "":
                break
            while not session.hand_over:
                session.act(session.legal_options()[0].label)
            session.new_hand()
            screen.refresh_all()
            await pilot.app.workers.wait_for_complete()
        assert session.human_seat == 0 and session.node.key == ""
        await pilot.press("x")
        await pilot.pause()
        app.screen.query_one("#amount-input", Input).value = "60"
        await pilot.press("enter")
        await wait_until(pilot, reached.is_set)
        assert screen.thinking
        assert "thinking" in plain_text(screen.query_one("#live-odds", Static), 120)
        assert screen.check_action("next_hand", ()) is False  # the hand's keys wait
        assert screen.check_action("act", ("f",)) is False
        assert screen.check_action("toggle_hints", ()) is True  # the rest of the UI does not
        opened.set()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert not screen.thinking
        assert session.hand.steps[0].amount == pytest.approx(60.0)
        assert session.hand.steps[1].seat == 1  # the bot answered
        assert session.river_bot.turn.solves == 1


def test_the_river_after_a_safe_turn_re_solve_is_safe_too(solved):
    """After the bot calls an off-tree turn bet in its safe re-solve, the river is re-solved
    through the gadget with the opponent's best-response values in the turn's re-solve as
    alternatives: no opponent hand's best response wins more in the river (0.3% of the pot
    slack for 300 iterations), while a re-solve from the ranges alone gives some hand far more.
    The opponent's range is its whole pre-bet range times its play in the re-solve: the gadget,
    not a guess at which hands bet, keeps the bot safe."""
    from solvers.agents.river_resolve import solve_river  # noqa: PLC0415

    game, strategy = solved
    resolver = RiverResolver(game, strategy)
    belief = resolver.turn.enter(start(game, game.range_weights[1].copy()), 0, 110.0)
    tree = belief.tree
    assert tree is not None and tree.safe
    called = observations(resolver.sizer, belief)[("p",)]
    belief = after_bot(tree.game, tree.strategy, belief, ("p",), called)
    from solvers.agents.beliefs import after_card  # noqa: PLC0415

    belief = after_card(game, belief, 0, "3c")
    assert resolver.applies(belief)
    river = resolver.river(0, belief.history)
    values = resolver._turn_values(belief, river.game, 0)  # noqa: SLF001
    weights = river.game.hand_weights(0)
    live = weights > 0
    safe = np.nan_to_num(best_response(river.game, river.strategy, 0).per_hand)
    unsafe_rows = solve_river(river.game, 300)
    unsafe = np.nan_to_num(best_response(river.game, unsafe_rows, 0).per_hand)
    pot = game.pot
    assert np.max((safe - values)[live]) < 0.003 * pot
    assert np.max((unsafe - values)[live]) > 0.05 * pot
    # the whole pre-bet range (OOP's prior: nothing it did in the re-solve before the river),
    # less the hands holding the river card
    from tests.test_river_resolve import RIVER, river_mask  # noqa: PLC0415

    assert RIVER == "3c"
    oop = combo_weights(game, 0, game.range_weights[0] * river_mask(game, 0))
    np.testing.assert_allclose(parse_range(river.game.params.oop_range), normalised(oop),
                               rtol=1e-9, atol=1e-12)  # fmt: skip


def test_one_re_solve_serves_every_hand_the_opponent_holds(spot):
    """LBR's belief of the bot has LBR's own cards removed; the re-solve is of the public line
    (the bot's public range), whichever hand asks first."""
    game, strategy = spot
    lbr = LocalBestResponse(game, strategy, "56")
    public = start(game, game.range_weights[1].copy())
    asked = start(game, lbr.cards.prior_row(0, 0))  # OOP's first hand: its cards removed
    assert not np.allclose(asked.weights, public.weights)
    first = TurnResolver(game, strategy, iterations=20).solve(0, asked, 110.0).game.params
    again = TurnResolver(game, strategy, iterations=20).solve(0, public, 110.0).game.params
    assert (first.oop_range, first.ip_range) == (again.oop_range, again.ip_range)
