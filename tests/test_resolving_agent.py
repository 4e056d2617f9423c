"""The re-solving bot: its policy is its own row of the street's solve, legal in the full game;
a street is solved once and kept while the hand stays on its tree; an off-tree bet is solved
again with that bet in the tree; the river's ranges follow the turn's re-solved policy; the
registry builds it; its river solution is as unexploitable as it claims (exact best response on
the subgame, from the spot engine's evaluation, a separate pass from the solver); the safe bot
plays the gadget's solution and falls back to the base agent's play when a solve is worse."""

import time
from collections import OrderedDict
from dataclasses import replace

import numpy as np
import pytest

from pokertui.widgets.hunl_view import render_thinking
from solvers.agents import resolving
from solvers.agents.registry import make_agent
from solvers.agents.resolve_values import resolved_values
from solvers.agents.resolving import ResolvingAgent
from solvers.agents.safe_resolve import blueprint_strategy, opponent_values
from solvers.agents.subgame import bayes_ranges
from solvers.cards.deck import COMBO_CARDS, N_COMBOS, dead_mask, parse_cards
from solvers.errors import InputError
from solvers.exact.evaluation import exploitability
from solvers.games.hunl.agent import Policy
from solvers.games.hunl.rules import CALL, RAISE, Action, HunlConfig, HunlState, replay
from tests.resolve_fixtures import Fixed, Narrow, street

CONFIG = HunlConfig(100)
TURN = np.array(parse_cards("Ks 7h 2d 9c"))
RIVER = np.array(parse_cards("Ks 7h 2d 9c 4s"))


def check_iterations(seen: list) -> list[int]:
    """The iterations after which a solve checked its exploitability, from its progress reports
    (each carries the last check's value)."""
    known = [t for t in seen if np.isfinite(t.exploitability_pct)]
    return [b.iterations for a, b in zip([None, *known], known, strict=False)
            if a is None or a.exploitability_pct != b.exploitability_pct]  # fmt: skip


def river_bot(**kwargs) -> ResolvingAgent:
    options = {"streets": (3,), "seconds": {3: 30.0}, "target_pct": 1.0, "max_iterations": None}
    return ResolvingAgent(Fixed(3), **{**options, **kwargs})


def test_the_river_policy_is_the_bots_row_of_its_solve_and_legal():
    bot = river_bot()
    state = replay("r250c/cr400c/cc/", CONFIG)  # the big blind (OOP) opens the river
    policy = bot.policy(state, RIVER)
    assert policy.probabilities.shape == (N_COMBOS, len(policy.actions))
    np.testing.assert_allclose(policy.probabilities.sum(axis=1), 1.0, atol=1e-6)
    for action in policy.actions:
        state.apply(action)
    solution = bot.solution(state, RIVER)
    game, root = solution.subgame.game, solution.subgame.game.root
    assert root.player == 0  # OOP in the spot is the big blind, the seat to act
    rows = solution.strategy[root.id]
    np.testing.assert_array_equal(policy.probabilities[game.hand_combos[0]], rows)
    # the claimed exploitability is the spot engine's exact best responses, and on target
    measured = exploitability(game, solution.strategy).pot_percent
    assert solution.exploitability_pct == pytest.approx(measured, rel=1e-6)
    assert measured <= 1.0
    assert bot.solves == 1


def test_a_street_is_solved_once_and_an_off_tree_bet_is_solved_with_that_bet():
    bot = river_bot()
    facing = replay("r250c/cr400c/cc/r1000", CONFIG)  # BB bets 600 into 800: the tree's 75%
    policy = bot.policy(facing, RIVER)
    assert bot.solves == 1 and policy.actions[:2] == (Action("f"), Action(CALL))
    bot.act(facing, RIVER, 0, np.random.default_rng(0))
    assert bot.solves == 1  # act() reuses the street's solution
    off = replay("r250c/cr400c/cc/r1440", CONFIG)  # 130% of the pot: not in the tree
    policy = bot.policy(off, RIVER)
    assert bot.solves == 2
    sizes = [s.value for s in bot.solution(off, RIVER).subgame.params.river.oop_bet]
    assert 130.0 in sizes and policy.actions[:2] == (Action("f"), Action(CALL))
    raised = off.apply(Action(RAISE, 10_000))  # the bot's seat may be asked again later
    assert raised.to_act == 1
    bot.policy(raised, RIVER)  # the big blind facing the all-in: a new seat, a new solve
    assert bot.solves == 3


def test_the_rivers_ranges_follow_the_turns_re_solved_policy():
    sizes = {2: {"turn": street("a"), "river": street("a")}, 3: {"river": street("a")}}
    bot = ResolvingAgent(Fixed(3), sizes=sizes, seconds={2: 1.0, 3: 1.0}, target_pct=5.0,
                         range_floor=0.0, streets=(2, 3))  # Bayes ranges as they are  # fmt: skip
    turn = replay("r250c/cr400c/", CONFIG)
    turn_policy = bot.policy(turn, TURN)
    check = turn_policy.actions.index(Action(CALL))
    river = turn.apply(Action(CALL)).apply(Action(CALL))
    bot.policy(river, RIVER)
    ranges = bot.solution(river, RIVER).subgame.ranges
    before = bayes_ranges(turn, TURN, (Fixed(3), Fixed(3)))
    live = ~dead_mask([int(c) for c in RIVER])
    np.testing.assert_allclose(ranges[1], before[1] * turn_policy.probabilities[:, check] * live)
    # the opponent's range is the base agent's (check back with chance p) from the turn on
    np.testing.assert_allclose(ranges[0], before[0] * Fixed(3).p * live)


def test_the_registry_builds_the_re_solving_bot_over_any_bot():
    bot = make_agent("resolve:call", CONFIG)
    assert isinstance(bot, ResolvingAgent) and bot.base.name == "always-call"
    for bad in ("resolve:", "resolve:resolve:call", "resolve:no-such-bot"):
        with pytest.raises(InputError):
            make_agent(bad, CONFIG)


def test_the_safe_bot_plays_the_gadgets_river_solution():
    bot = river_bot(safe=True, seconds={3: 5.0}, target_pct=0.1)
    state = replay("r250c/cr400c/cc/", CONFIG)
    policy = bot.policy(state, RIVER)
    np.testing.assert_allclose(policy.probabilities.sum(axis=1), 1.0, atol=1e-6)
    solution = bot.solution(state, RIVER)
    sub = solution.subgame
    rows = solution.strategy[sub.game.root.id]
    np.testing.assert_array_equal(policy.probabilities[sub.game.hand_combos[0]], rows)
    blueprint = blueprint_strategy(sub, bot.base)
    bound = opponent_values(sub, blueprint, 1)
    got = opponent_values(sub, solution.strategy, 1)
    assert (got <= bound + 0.001 * sub.game.pot).all()
    assert 0 < solution.iterations <= 1_000
    assert solution.opponent_gain_pct <= 0.0 and np.isnan(solution.exploitability_pct)
    assert isinstance(make_agent("resolve-safe:call", CONFIG), ResolvingAgent)
    assert make_agent("resolve-safe:call", CONFIG).safe
    assert not make_agent("resolve:call", CONFIG).safe
    with pytest.raises(InputError):
        make_agent("resolve-safe:", CONFIG)


def test_a_safe_solve_stops_once_no_opponent_hand_gains_more_than_the_target(monkeypatch):
    """The gadget's solve ends at the first check where no opponent hand's best response wins
    more than the target (1% of the pot) over its alternative, its value against the base
    agent's play; a target no strategy meets runs to the iteration cap."""
    seen = []
    bot = river_bot(safe=True, seconds={3: np.inf}, max_iterations=200, progress=seen.append)
    state = replay("r250c/cr400c/cc/", CONFIG)
    solution = bot.solution(state, RIVER)
    sub = solution.subgame
    alternatives = opponent_values(sub, blueprint_strategy(sub, bot.base), 1)
    gains = opponent_values(sub, solution.strategy, 1) - alternatives
    live = sub.game.hand_weights(1) > 0
    assert gains[live].max() <= 0.01 * sub.game.pot
    assert solution.iterations < 200  # stopped by the check, not the cap
    # the progress line shows the last check's largest gain (the first check: 10 iterations)
    assert all(np.isnan(t.gain_pct) == (t.iterations < 10) for t in seen)
    line = render_thinking(seen[-1], "The bot is thinking").plain
    assert f"your best hand gains {max(seen[-1].gain_pct, 0):.1f}% of the pot" in line
    unmet = river_bot(safe=True, seconds={3: np.inf}, max_iterations=200, target_pct=-50.0)
    assert unmet.solution(state, RIVER).iterations == 200  # every hand 50% of the pot below
    import solvers.agents.resolving as resolving  # noqa: PLC0415

    measure = resolving.opponent_values

    def slow(*args):  # checks far dearer than iterations: without a clock, the same schedule
        time.sleep(0.02)
        return measure(*args)

    monkeypatch.setattr(resolving, "opponent_values", slow)
    again = river_bot(safe=True, seconds={3: np.inf}, max_iterations=200)
    assert again.solution(state, RIVER).iterations == solution.iterations


def test_a_maxmargin_solve_goes_on_past_safety_to_its_margin_bound():
    """Every hand within the target of its alternative does not end a maxmargin solve (its
    objective, the smallest margin, is still growing): it ends once the smallest margin is
    within the target of the gadget's bound on the widest, and the progress line shows how far
    it still is."""
    seen = []
    bot = river_bot(safe=True, gadget="maxmargin", seconds={3: np.inf}, max_iterations=2_000,
                    progress=seen.append)  # fmt: skip
    state = replay("r250c/cr400c/cc/", CONFIG)
    solution = bot.solution(state, RIVER)
    checked = [t for t in seen if not np.isnan(t.gap_pct)]
    assert checked and all(not np.isnan(t.gain_pct) for t in checked)
    safe_at = min(t.iterations for t in checked if t.gain_pct <= 1.0)
    # on past safety, ended by the bound (no clock, the cap not reached)
    assert safe_at < checked[-1].iterations < solution.iterations < 2_000
    assert checked[-1].gap_pct > 1.0  # the last check before the one that ended it
    sub = solution.subgame
    alternatives = opponent_values(sub, blueprint_strategy(sub, bot.base), 1)
    live = sub.game.hand_weights(1) > 0
    margins = (alternatives - opponent_values(sub, solution.strategy, 1))[live]
    assert margins.min() >= -0.01 * sub.game.pot  # and safe: the bound is at least 0 here
    line = render_thinking(checked[-1], "The bot is thinking").plain
    assert f"{checked[-1].gap_pct:.1f}% from the best margin (target 1%)" in line


class GiveUp:
    """Checks when it can and folds to any bet: the base whose play the bad solve is compared to."""

    name = "give-up"

    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        kind = "f" if state.legal().can_fold else CALL
        return Policy((Action(kind),), np.ones((N_COMBOS, 1)))

    def act(self, state, board, combo, rng):
        return self.policy(state, board).sample(combo, rng)


def test_a_safe_solve_worse_than_the_blueprint_falls_back_to_the_blueprints_play(monkeypatch):
    import solvers.agents.resolving as resolving

    def call_everything(sub, me, values, iterations, seconds=None, progress=None, settled=None,
                        gadget="resolve", minimum=1):  # fmt: skip
        """A re-solve gone wrong: every hand checks and calls every bet, all-ins included."""
        game = sub.game
        bad = {}
        for node in game.nodes:
            if node.is_decision:
                rows = np.zeros((game.n_hands[node.player], len(node.tokens)))
                rows[:, node.tokens.index("c" if "c" in node.tokens else "x")] = 1.0
                bad[node.id] = rows
        return bad, 1

    monkeypatch.setattr(resolving, "safe_resolve", call_everything)
    bot = ResolvingAgent(GiveUp(), streets=(3,), safe=True)
    state = replay("cc/cc/cc/", CONFIG)  # a limp GiveUp never makes: ranges fall back to all
    bot.policy(state, RIVER)
    solution = bot.solution(state, RIVER)
    sub = solution.subgame
    assert np.array_equal(sub.ranges[0] > 0, ~dead_mask([int(c) for c in RIVER]))
    blueprint = blueprint_strategy(sub, bot.base)
    bad, _ = call_everything(sub, 1, None, 1)
    weights = sub.game.hand_weights(1)
    premise = weights @ (opponent_values(sub, bad, 1) - opponent_values(sub, blueprint, 1))
    assert premise > 0  # calling every all-in loses more than giving up every pot
    assert bot.fallbacks == 1 and solution.opponent_gain_pct == 0.0
    root = sub.game.root.id
    np.testing.assert_array_equal(solution.strategy[root], blueprint[root])


def test_the_registry_reads_budgets_and_an_iteration_cap_switches_the_clock_off():
    bot = make_agent("resolve(turn=2, target=0.5):call", CONFIG)
    assert bot.seconds == {1: 15.0, 2: 2.0, 3: 0.5} and bot.target_pct == 0.5
    assert bot.max_iterations == 100 and bot.streets == (1, 2, 3)  # the flop too
    assert bot.flop_iterations is None  # the flop's cap is the others'
    capped = make_agent("resolve(iterations=40):call", CONFIG)
    assert capped.max_iterations == 40 and capped.seconds == {1: np.inf, 2: np.inf, 3: np.inf}
    flop = make_agent("resolve(flop=12):call", CONFIG)
    assert flop.streets == (1, 2, 3) and flop.seconds == {1: 12.0, 2: 5.0, 3: 0.5}
    assert make_agent("resolve-safe(river=0.3):call", CONFIG).safe
    assert make_agent("resolve(from=river):call", CONFIG).streets == (3,)
    assert make_agent("resolve(from=flop):call", CONFIG).streets == (1, 2, 3)
    assert make_agent("resolve(from=turn):call", CONFIG).streets == (2, 3)
    assert make_agent("resolve-safe:call", CONFIG).streets == (2, 3)  # safe where it solves
    assert make_agent("resolve-safe(from=flop):call", CONFIG).streets == (1, 2, 3)
    bad = ("resolve(x=1):call", "resolve(turn=0):call", "resolve(turn=1e9):call",
           "resolve(iterations=2.5):call", "resolve(iterations=1e400):call",
           "resolve(target=nan):call",
           "resolve(turn):call", "resolve(flop=-1):call")  # fmt: skip
    for text in bad:
        with pytest.raises(InputError):
            make_agent(text, CONFIG)
    for text in ("resolve((turn=1)):call", "resolve(turn=1:call", "resolve-safe((x)):call"):
        with pytest.raises(InputError, match="malformed re-solving bot"):
            make_agent(text, CONFIG)


def test_the_iteration_cap_stops_the_solve_and_progress_reports_every_iteration():
    seen = []
    bot = river_bot(max_iterations=7, target_pct=1e-9, seconds={3: np.inf}, progress=seen.append)
    solution = bot.solution(replay("r250c/cr400c/cc/", CONFIG), RIVER)
    assert solution.iterations == 7
    assert [t.iterations for t in seen] == list(range(1, 7))  # the 7th ends the solve
    assert all(t.street == 3 and 0 < t.fraction < 1 for t in seen)
    assert seen[-1].fraction == pytest.approx(6 / 7)
    measured = exploitability(solution.subgame.game, solution.strategy).pot_percent
    assert solution.exploitability_pct == pytest.approx(measured, rel=1e-6)


def reference_exploitability_pct(game, strategy) -> float:
    """(BR_0 + BR_1) / 2 in percent of the pot from the node-by-node reference recursion."""
    from tests import reference_walk

    total = 0.0
    for player in (0, 1):
        opp_reach = reference_walk.reaches(game, strategy, 1 - player)
        values, _ = reference_walk.counterfactual_values(game, strategy, player, opp_reach,
                                                         respond=True)  # fmt: skip
        total += float(values[0].sum())
    return 100.0 * total / 2 / game.pot


def test_the_flop_re_solve_claims_the_exploitability_of_an_independent_best_response():
    bot = ResolvingAgent(Narrow(3), streets=(1,), max_iterations=25, seconds={1: np.inf},
                         range_floor=0.0)  # narrow ranges: small enough for the reference walk
    state = replay("r250c/", CONFIG)
    flop = np.array(parse_cards("Ks 7h 2d"))
    policy = bot.policy(state, flop)
    solution = bot.solution(state, flop)
    game = solution.subgame.game
    # the default flop tree: 8 decisions, 6 folds, 4 called all-ins and 3 calls or checks after
    # which nobody can bet: each a showdown over every runout, like the called all-ins
    assert len(game.nodes) == 8 + 6 + 4 + 3 == 21
    assert not any(n.is_chance for n in game.nodes)
    assert game.root.tokens == ("x", "b330", "b9750") and max(game.n_hands) < 80
    assert solution.iterations == 25 and bot.solves == 1
    np.testing.assert_array_equal(policy.probabilities[game.hand_combos[0]],
                                  solution.strategy[game.root.id])  # fmt: skip
    measured = reference_exploitability_pct(game, solution.strategy)
    assert solution.exploitability_pct == pytest.approx(measured, rel=1e-6)
    assert measured < 5.0  # 25 iterations on small ranges: a few % of the pot
    uniform = {n.id: np.full((game.n_hands[n.player], len(n.tokens)), 1 / len(n.tokens))
               for n in game.nodes if n.is_decision}  # fmt: skip
    assert reference_exploitability_pct(game, uniform) > 10 * measured


def test_the_deeper_flop_tree_bets_the_turn_and_claims_an_independent_exploitability():
    bot = make_agent("resolve(flop-tree=turn, iterations=12):call", CONFIG)
    assert bot.sizes[1]["turn"].oop_bet and not bot.sizes[1]["river"].oop_bet
    bot = replace(bot, base=Narrow(3), streets=(1,), range_floor=0.0)
    state = replay("r250c/", CONFIG)
    flop = np.array(parse_cards("Ks 7h 2d"))
    solution = bot.solution(state, flop)
    game = solution.subgame.game
    # the flop lines that see a turn card with chips behind: checked, or a 66% bet called
    turns = {n.key: len(n.children) for n in game.nodes if n.is_chance}
    assert turns == {"x/x": 49, "x/b330/c": 49, "b330/c": 49}
    # on each turn a 66% bet of the 500 pot, or all-in; no decision on the river
    assert game.node("x/x/2c").tokens == ("x", "b330", "b9750")
    assert not any(n.is_decision and len(n.board) == 5 for n in game.nodes)
    assert solution.iterations == 12
    measured = reference_exploitability_pct(game, solution.strategy)
    assert solution.exploitability_pct == pytest.approx(measured, rel=1e-6)
    # the live panel's heading says the tree bets the turn (the default tree's does not)
    combo = int(game.hand_combos[1][0])  # a hand of the button's, after the big blind checks
    hole = tuple(int(c) for c in COMBO_CARDS[combo])
    assert resolved_values(solution, replay("r250c/c", CONFIG), hole).bets_later
    quick = replace(bot, sizes=resolving.DEFAULT_SIZES, _cache=OrderedDict()).solution(state, flop)
    assert not resolved_values(quick, replay("r250c/c", CONFIG), hole).bets_later
    for text in ("resolve(flop-tree=river):call", "resolve(flop-tree=turn, from=turn):call"):
        with pytest.raises(InputError, match="flop-tree"):
            make_agent(text, CONFIG)


def _sampled_solution(monkeypatch, name: str, street: int, line: str, board: str):
    """The bot ``name``'s solve of ``street`` (on narrow ranges) and the keywords it gave
    ``make_solver``."""
    made = []
    real = resolving.make_solver
    monkeypatch.setattr(resolving, "make_solver",
                        lambda game, algo, **kw: made.append(kw) or real(game, algo, **kw))
    bot = replace(make_agent(name, CONFIG), base=Narrow(3), streets=(street,), range_floor=0.0)
    return bot, bot.solution(replay(line, CONFIG), np.array(parse_cards(board))), made


def test_the_deeper_flop_tree_can_sample_its_turn_cards(monkeypatch):
    bot, solution, made = _sampled_solution(
        monkeypatch, "resolve(flop-tree=turn, flop-sample=7, iterations=300):call", 1,
        "r250c/", "Ks 7h 2d")  # fmt: skip
    assert bot.flop_sample == 7
    assert made == [{"sample": 7}] and solution.iterations == 300
    # its claim holds by an independent check: 3.3% of the pot after 300 draws of 7 of the 49
    # turn cards (107% after 30: each turn card's play then had about 4 updates)
    game = solution.subgame.game
    measured = reference_exploitability_pct(game, solution.strategy)
    assert solution.exploitability_pct == pytest.approx(measured, rel=1e-6)
    assert measured < 5.0
    for text, words in (("resolve(flop-sample=7):call", "flop-tree=turn"),
                        ("resolve(flop-tree=turn, flop-sample=50):call", "0 to 49"),
                        ("resolve(flop-tree=turn, flop-sample=2.5):call", "whole number")):
        with pytest.raises(InputError, match=words):
            make_agent(text, CONFIG)


def test_the_default_cap_ends_a_solve_with_its_budget_left():
    """Every solve stops at 100 iterations by default, the evaluation's cap, however much clock
    is left and however far the target: a node re-solve after an off-tree bet too."""
    bot = replace(make_agent("resolve(from=river, river=60, target=0.0001):call", CONFIG),
                  base=Fixed(3), range_floor=0.0)  # fmt: skip
    state = replay("r250c/cr400c/cc/", CONFIG)
    street_solve = bot.solution(state, RIVER)
    assert street_solve.iterations == 100 and street_solve.seconds < 30
    node = bot.solution(state.apply(Action(RAISE, 1100)), RIVER)  # a lead the tree lacks
    assert node is not street_solve and node.subgame.start is not None
    assert node.iterations == 100 and node.seconds < 30


def test_a_sampled_flop_checks_late_and_sparse_and_flop_iterations_caps_the_flop_alone():
    bot = make_agent("resolve(flop-tree=turn, flop-sample=5, flop-iterations=460):call", CONFIG)
    assert bot.flop_iterations == 460 and bot.max_iterations == 100
    assert bot.seconds == {1: np.inf, 2: 5.0, 3: 0.5}  # no clock on the flop alone
    app = make_agent("resolve(flop-tree=turn, flop-sample=10):call", CONFIG)
    assert (app.max_iterations, app.flop_iterations) == (100, 500)  # as the app's bot is measured
    assert app.seconds == {1: 15.0, 2: 5.0, 3: 0.5}  # the default caps keep the clock
    named = make_agent("resolve(flop-tree=turn, flop-sample=10, iterations=300):call", CONFIG)
    assert named.flop_iterations is None and named._cap(1) == 300  # a named cap holds for all
    both = make_agent("resolve(iterations=100, flop-iterations=300):call", CONFIG)
    assert (both.max_iterations, both.flop_iterations) == (100, 300)
    assert both.seconds == {1: np.inf, 2: np.inf, 3: np.inf}
    safe = make_agent("resolve-safe(from=flop, flop-iterations=300):call", CONFIG)
    assert safe.streets == (1, 2, 3) and safe.flop_iterations == 300
    seen = []
    bot = replace(bot, base=Narrow(3), streets=(1,), range_floor=0.0, target_pct=1e-9,
                  progress=seen.append)  # fmt: skip
    solution = bot.solution(replay("r250c/", CONFIG), np.array(parse_cards("Ks 7h 2d")))
    assert solution.iterations == 460 and seen[-1].max_iterations == 460
    known = [t for t in seen if np.isfinite(t.exploitability_pct)]
    assert check_iterations(seen) == [200, 300, 450]  # half as many again; the cap at 460
    assert known[0].exploitability_pct > known[-1].exploitability_pct > 0
    # a target the first check meets ends the solve there
    easy = replace(bot, target_pct=known[0].exploitability_pct + 0.01, progress=None,
                   _cache=OrderedDict())
    stopped = easy.solution(replay("r250c/", CONFIG), np.array(parse_cards("Ks 7h 2d")))
    assert stopped.iterations == 200
    for text, words in (("resolve(flop-iterations=0):call", "1 to"),
                        ("resolve(flop-iterations=nan):call", "1 to"),
                        ("resolve(from=turn, flop-iterations=300):call", "base bot's flop"),
                        ("resolve-safe(flop-iterations=300):call", "base bot's flop"),
                        ("resolve-safe(flop=3):call", "base bot's flop")):
        with pytest.raises(InputError, match=words):
            make_agent(text, CONFIG)


def test_the_turn_solve_can_sample_its_rivers(monkeypatch):
    bot, solution, made = _sampled_solution(
        monkeypatch, "resolve(turn-sample=8, iterations=200):call", 2, "r250c/cc/",
        "Ks 7h 2d 9c")  # fmt: skip
    assert bot.turn_sample == 8 and bot.flop_sample == 0
    assert made == [{"sample": 8}] and solution.iterations <= 200
    game = solution.subgame.game
    measured = reference_exploitability_pct(game, solution.strategy)
    assert solution.exploitability_pct == pytest.approx(measured, rel=1e-6)
    assert measured <= bot.target_pct or solution.iterations == 200
    uniform = {n.id: np.full((game.n_hands[n.player], len(n.tokens)), 1 / len(n.tokens))
               for n in game.nodes if n.is_decision}  # fmt: skip
    assert reference_exploitability_pct(game, uniform) > 10 * measured
    for text, words in (("resolve(turn-sample=49):call", "0 to 48"),
                        ("resolve-safe(turn-sample=8):call", "gadget")):
        with pytest.raises(InputError, match=words):
            make_agent(text, CONFIG)


def test_an_off_tree_flop_bet_re_solves_the_flop_with_that_bet_in_the_default_tree():
    # preflop: SB raises to 250, BB calls (pot 500, 9,750 behind each). The bot is the big blind
    # (OOP): it checks from the default flop tree (66% or all-in, an all-in raise, then a
    # check-down), then the button bets 650 = 130% of the pot (to 900), which the tree lacks.
    bot = ResolvingAgent(Narrow(3), streets=(1,), max_iterations=5, seconds={1: np.inf},
                         range_floor=0.0)  # fmt: skip
    flop = np.array(parse_cards("Ks 7h 2d"))
    bot.policy(replay("r250c/", CONFIG), flop)
    assert bot.solves == 1
    facing = replay("r250c/cr900", CONFIG)
    policy = bot.policy(facing, flop)
    assert bot.solves == 2
    sub = bot.solution(facing, flop).subgame
    assert (sub.params.pot, sub.params.stack) == (500.0, 9750.0)
    sizes = [s.value for s in sub.params.flop.ip_bet]
    assert 130.0 in sizes and sub.params.flop.oop_bet == bot.sizes[1]["flop"].oop_bet
    game = sub.game
    # 21 nodes of the default tree, and the new bet's 6: the button's decision, fold, call, the
    # all-in raise, and the button's fold or call facing it
    assert len(game.nodes) == 21 + 6 and not any(n.is_chance for n in game.nodes)
    node = game.nodes[sub.node_of(facing)]
    assert node.player == 0 and node.contributions == (250.0, 900.0)
    actions = [sub.real_action(node.id, i, facing) for i in range(len(node.tokens))]
    assert actions == [Action("f"), Action(CALL), Action(RAISE, 10_000)]
    assert policy.actions == tuple(actions)
    called = game.nodes[node.children[1]]  # nobody can bet after the call: every runout's showdown
    assert called.terminal == "showdown" and len(called.board) == 3
    assert called.contributions == (900.0, 900.0)


def test_a_flop_that_sees_the_turn_answers_an_off_tree_bet_from_the_quick_flop(monkeypatch):
    """The street solved again with a bet its tree lacks (each size the live panel values) is
    the checked-down flop with that bet added, walked whole; the bot's own line stays on the
    tree that sees the turn, sampled."""
    bot, first, made = _sampled_solution(
        monkeypatch, "resolve(flop-tree=turn, flop-sample=5, iterations=5):call", 1, "r250c/",
        "Ks 7h 2d")  # fmt: skip
    assert any(n.is_chance for n in first.subgame.game.nodes)  # the turn cards
    facing = replay("r250c/cr900", CONFIG)  # the button bets 130% of the pot after a check
    answer = bot.solution(facing, np.array(parse_cards("Ks 7h 2d")))
    assert made == [{"sample": 5}, {"sample": 0}] and bot.solves == 2
    game = answer.subgame.game
    assert len(game.nodes) == 21 + 6 and not any(n.is_chance for n in game.nodes)
    assert answer.subgame.node_of(facing) is not None
    on_tree = replay("r250c/cr580", CONFIG)  # the tree's 66% bet: both trees hold it
    assert answer.subgame.node_of(on_tree) is not None
    assert bot.solution(on_tree, np.array(parse_cards("Ks 7h 2d"))) is first


def test_a_bet_off_the_flop_tree_that_sees_the_turn_is_played_from_that_tree(monkeypatch):
    """Asked about (the live panel, LBR's look-ahead), an off-tree flop bet is answered from the
    quick flop; when it is bet, the bot acts from the tree that sees the turn with the bet
    added, sampled, and from then on its policy there is the one it played."""
    bot, first, made = _sampled_solution(
        monkeypatch, "resolve(flop-tree=turn, flop-sample=5, iterations=5):call", 1, "r250c/",
        "Ks 7h 2d")  # fmt: skip
    flop = np.array(parse_cards("Ks 7h 2d"))
    facing = replay("r250c/cr900", CONFIG)  # the button bets 130% of the pot after a check
    asked = bot.solution(facing, flop)
    assert asked.quick and not asked.bets_later and made[-1] == {"sample": 0}
    previewed = bot.policy(facing, flop)
    action = bot.act(facing, flop, 0, np.random.default_rng(0))
    assert made == [{"sample": 5}, {"sample": 0}, {"sample": 5}] and bot.solves == 3
    played = bot.solution(facing, flop, played=True)
    assert not played.quick and played.bets_later and played is not first
    node = played.subgame.game.nodes[played.subgame.node_of(facing)]
    assert node.contributions == (250.0, 900.0)  # the bet is in the tree that sees the turn
    assert bot.solution(facing, flop) is played  # the policy asked from now on: the one played
    after = bot.policy(facing, flop)
    assert action in after.actions and after.actions == previewed.actions
    assert not np.allclose(after.probabilities, previewed.probabilities)
    assert bot.solution(replay("r250c/", CONFIG), flop) is first  # its check: the first solve
    assert bot.act(facing, flop, 0, np.random.default_rng(0)) == action and bot.solves == 3


def test_a_checked_down_flop_plays_what_it_is_asked():
    """A bot whose flop tree is the quick one has no second answer: acting solves nothing more
    than asking did."""
    bot = ResolvingAgent(Narrow(3), streets=(1,), max_iterations=3, seconds={1: np.inf},
                         range_floor=0.0)  # fmt: skip
    flop = np.array(parse_cards("Ks 7h 2d"))
    facing = replay("r250c/cr900", CONFIG)
    asked = bot.solution(facing, flop)
    bot.act(facing, flop, 0, np.random.default_rng(0))
    assert bot.solves == 1 and not asked.quick
    assert bot.solution(facing, flop, played=True) is asked


def test_a_flop_keeps_its_first_solve_and_the_latest_sizes_each_in_single_precision():
    """The live panel solves the flop again with each size it values; a hand keeps the street's
    first solve and the ``FLOP_KEEP`` latest used, not every size of every decision."""
    bot = ResolvingAgent(Narrow(3), streets=(1,), max_iterations=3, seconds={1: np.inf},
                         range_floor=0.0)  # fmt: skip
    flop = np.array(parse_cards("Ks 7h 2d"))
    opened = replay("r250c/", CONFIG)  # the bot, the big blind, acts first on the flop
    first = bot.solution(opened, flop)
    bets = [360 + 40 * k for k in range(10)]  # after its check; none the tree's 66% (to 580)
    answers = [bot.solution(replay(f"r250c/cr{total}", CONFIG), flop) for total in bets]
    assert bot.solves == 11
    kept = bot._cache[resolving._cache_key(opened, flop)]
    assert len(kept) == resolving.FLOP_KEEP + 1 and kept[0] is first
    assert kept[1:] == answers[-resolving.FLOP_KEEP :]
    assert all(rows.dtype == np.float32 for k in kept for rows in k.strategy.values())
    again = bot.solution(replay(f"r250c/cr{bets[-2]}", CONFIG), flop)  # kept: no solve
    assert again is answers[-2] and bot.solves == 11
    assert bot.solution(opened, flop) is first  # the first made holds the street's start


def test_a_solve_on_the_clock_keeps_room_for_its_comparison_with_the_base_agent(monkeypatch):
    """A solve that stops short of its target is compared with the base agent's play after its
    budget; the next solve of that street keeps the time the last comparison took. On a fake
    clock: an iteration takes 10 ms, a check 50 ms, the base agent's play of the subgame 1 s."""
    clock = [0.0]

    class FakeTime:
        @staticmethod
        def perf_counter() -> float:
            return clock[0]

    def ticking(method, seconds):
        def run(*args, **kwargs):
            clock[0] += seconds
            return method(*args, **kwargs)

        return run

    real_solver = resolving.make_solver

    def make_solver(game, algo, **kw):
        solver = real_solver(game, algo, **kw)
        solver.run = ticking(solver.run, 0.01)
        solver.metrics = ticking(solver.metrics, 0.05)
        return solver

    monkeypatch.setattr(resolving, "time", FakeTime)
    monkeypatch.setattr(resolving, "make_solver", make_solver)
    monkeypatch.setattr(ResolvingAgent, "_base_play",
                        ticking(ResolvingAgent._base_play, 1.0))  # fmt: skip
    bot = river_bot(seconds={3: 2.0}, target_pct=1e-9)  # never met: every solve stops on time
    first = bot.solution(replay("r250c/cr400c/cc/", CONFIG), RIVER)
    # 2 s of iterations and checks less two checks' time (its guess), then the comparison
    assert 2.8 <= first.seconds <= 3.0
    other_river = np.array(parse_cards("Ks 7h 2d 9c 5s"))
    second = bot.solution(replay("r250c/cr400c/cc/", CONFIG), other_river)
    assert 1.9 <= second.seconds <= 2.05  # inside the budget, but for a check
    assert second.iterations < 0.6 * first.iterations  # about a second of iterations fewer


def test_exploitability_checks_grow_apart_as_the_solve_goes():
    def checked(**options) -> list[int]:
        seen = []
        bot = river_bot(max_iterations=80, target_pct=1e-9, seconds={3: np.inf},
                        progress=seen.append, **options)  # fmt: skip
        bot.solution(replay("r250c/cr400c/cc/", CONFIG), RIVER)
        return check_iterations(seen)

    # the first at the floor of 40 iterations, then a quarter more iterations each time:
    # 50 + 12, 62 + 15; every 10 without growth
    assert checked() == [40, 50, 62, 77]
    assert checked(check_growth=0.0) == [40, 50, 60, 70]


def test_the_opponents_modelled_range_is_floored_and_the_bots_own_is_not():
    """The bot's own range is Bayes over its own play, exactly; the opponent's is Bayes over its
    model with every live combo raised to ``range_floor`` times the heaviest (the hands the
    model rules out: 21 of 22 combos fold preflop for ``Narrow``); the board's combos stay out;
    floor 0 leaves the model's range as it is. The option reads from the bot's name."""
    state = replay("cc/cc/", CONFIG)  # the button limped; the turn, the big blind (seat 1) first
    exact = bayes_ranges(state, TURN, (Narrow(3), Narrow(3)))
    live = ~dead_mask([int(c) for c in TURN])
    assert (exact[0][live] == 0).mean() > 0.9  # the model rules out most of the button's hands
    plain = ResolvingAgent(Narrow(3), range_floor=0.0, streets=(2, 3))._root_ranges(state, TURN, 1)
    np.testing.assert_array_equal(plain, exact)
    turn_bot = ResolvingAgent(Narrow(3), streets=(2, 3))  # the flop played by the base
    floored = turn_bot._root_ranges(state, TURN, 1)  # the default floor, 5%
    np.testing.assert_array_equal(floored[1], exact[1])  # the bot's own: untouched
    top = exact[0].max()
    expected = np.where(live, np.maximum(exact[0], 0.05 * top), 0.0)
    np.testing.assert_allclose(floored[0], expected, rtol=1e-12)
    assert floored[0][~live].sum() == 0 and (floored[0][live] >= 0.05 * top).all()
    as_seat_0 = turn_bot._root_ranges(state, TURN, 0)  # the bot on the button
    np.testing.assert_array_equal(as_seat_0[0], exact[0])
    assert (as_seat_0[1][live] > 0).all()
    assert make_agent("resolve(floor=0.2):call", CONFIG).range_floor == 0.2
    assert make_agent("resolve:call", CONFIG).range_floor == 0.05
    for bad in ("floor=1.5", "floor=-0.1", "floor=x"):
        with pytest.raises(InputError, match="floor"):
            make_agent(f"resolve({bad}):call", CONFIG)
