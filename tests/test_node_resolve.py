"""The full-game bot facing an off-tree raise after its own bet re-solves from that node: the
subgame starts at the real chips with the bot's bet kept (its range is its reach there), the
opponent's range is its reach before the raise behind the resolve gadget, and the gadget's
alternatives are the opponent's best responses against the street's solution from the node
before the raise. Checked against hand-computed chips and ranges, against an independent
best-response method (per-action values at the node), and for safety: the raise gains the
opponent about nothing, where a plain re-solve of the same subgame gives it over 10% of the
pot."""

import numpy as np
import pytest

from solvers.agents import resolving
from solvers.agents.resolving import NODE_KEEP, ResolvingAgent
from solvers.agents.safe_resolve import opponent_values
from solvers.agents.spot_lines import alternatives, response_profile
from solvers.agents.subgame import bayes_ranges
from solvers.algorithms.base import make_solver
from solvers.cards.deck import dead_mask, parse_cards
from solvers.exact.evaluation import action_values
from solvers.games.hunl.rules import CALL, RAISE, Action, HunlConfig, replay
from tests.resolve_fixtures import Fixed, street

CONFIG = HunlConfig(100)
RIVER = np.array(parse_cards("Ks 7h 2d 9c 4s"))
LIVE = ~dead_mask([int(c) for c in RIVER])
SIZES = {3: {"river": street("75%", "60%, a")}}  # a bet of 600 into 800; raises to 2,200 or all-in


@pytest.fixture(scope="module")
def raised():
    """The big blind (the bot) bets 600 into 800 on the river; the button raises to 2,600."""
    bot = ResolvingAgent(Fixed(3), sizes=SIZES, streets=(3,), seconds={3: np.inf},
                         max_iterations=400, target_pct=0.1, range_floor=0.0)  # fmt: skip
    root = replay("r250c/cr400c/cc/", CONFIG)
    opening = bot.policy(root, RIVER)
    bet = root.apply(Action(RAISE, 1000))
    assert Action(RAISE, 1000) in opening.actions and bot.solves == 1
    state = bet.apply(Action(RAISE, 2600))
    policy = bot.policy(state, RIVER)
    return bot, root, opening, bet, state, policy


def test_the_node_subgame_starts_at_the_real_chips_with_the_bots_bet_kept(raised):
    bot, root, opening, bet, state, policy = raised
    assert bot.solves == 2
    solution = bot.solution(state, RIVER)
    sub, game = solution.subgame, solution.subgame.game
    assert sub.root == state and sub.params.pot == 800 and sub.params.stack == 9600
    start = sub.start
    assert start is not None
    # spot player 0 is the big blind (1,000 in), player 1 the button (2,600 in)
    assert start.contributions == (1000.0, 2600.0) and start.actor == 0
    assert start.street_start == 400 and start.raises == 1 and start.last_increment == 1600
    # fold, call 1,600 more, raise 60% of the 5,200 pot after the call (to 5,720), all-in
    assert game.root.tokens == ("f", "c", "b5320", "b9600")
    assert game.root.amounts == (0.0, 1600.0, 4720.0, 9000.0)
    assert policy.actions == (Action("f"), Action(CALL), Action(RAISE, 5720), Action(RAISE, 10_000))
    np.testing.assert_array_equal(
        policy.probabilities[game.hand_combos[0]], solution.strategy[game.root.id]
    )
    # ranges: the bot's is its reach of the street's start times its own bet's probability
    # (the bet it made, not solved again); the opponent's its reach before the raise
    before = bayes_ranges(root, RIVER, (Fixed(3), Fixed(3)))
    column = opening.actions.index(Action(RAISE, 1000))
    np.testing.assert_allclose(sub.ranges[1], before[1] * opening.probabilities[:, column] * LIVE)
    np.testing.assert_allclose(sub.ranges[0], before[0] * LIVE)


def test_the_street_solution_is_kept_for_lines_it_holds_and_others_are_not_its_nodes(raised):
    bot, root, _, bet, state, _ = raised
    street_solution = bot.solution(root, RIVER)
    assert street_solution.subgame.start is None and street_solution.subgame.node_of(state) is None
    node_solution = bot.solution(state, RIVER)
    assert node_solution.subgame.node_of(root) is None
    other = root.apply(Action(RAISE, 1100)).apply(Action(RAISE, 2600))  # same length, not its line
    assert node_solution.subgame.node_of(other) is None
    assert bot.solves == 2


def test_the_alternatives_are_the_opponents_best_actions_at_the_node_before_the_raise(raised):
    bot, root, _, bet, state, _ = raised
    known = bot.solution(root, RIVER)
    game = known.subgame.game
    entry = game.nodes[known.subgame.node_of(bet)]
    target = bot.solution(state, RIVER).subgame.game
    profile = response_profile(game, known.strategy)
    compiled = alternatives(game, known.strategy, entry, 1, target, profile)
    numpy_walk = alternatives(game, known.strategy, entry, 1, target)
    np.testing.assert_allclose(compiled, numpy_walk, atol=1e-6 * game.pot)
    # independent: the best of the per-action values (fold, call, all-in) for each hand
    per_action = action_values(game, known.strategy, entry.id, continuation="best_response")
    best = np.nanmax(per_action, axis=1)
    index = {int(c): i for i, c in enumerate(game.hand_combos[1])}
    mapped = best[[index[int(c)] for c in target.hand_combos[1]]]
    np.testing.assert_allclose(compiled, mapped, atol=1e-6 * game.pot)


def test_the_raise_gains_the_opponent_nothing_where_a_plain_re_solve_gives_it_a_quarter_pot(
    raised,
):
    """What an opponent who raises to 2,600 with exactly the hands that gain by it (over their
    best action in the street's tree) wins, in % of the pot: about 0 against the bot's answer,
    over 10% against a re-solve of the same subgame from ranges alone."""
    bot, root, _, bet, state, _ = raised
    known = bot.solution(root, RIVER)
    game = known.subgame.game
    entry = game.nodes[known.subgame.node_of(bet)]
    solution = bot.solution(state, RIVER)
    sub = solution.subgame
    values = alternatives(game, known.strategy, entry, 1, sub.game)
    weights = sub.game.hand_weights(1) / sub.game.hand_weights(1).sum()

    def raise_gains(strategy) -> float:
        gain = opponent_values(sub, strategy, 1) - values
        return 100.0 * float(weights @ np.maximum(gain, 0.0)) / sub.game.pot

    assert raise_gains(solution.strategy) <= 0.05
    # the solve's last check measured the same total for the strategy it kept
    assert solution.checks[-1][0] == solution.iterations
    assert solution.checks[-1][2] == pytest.approx(raise_gains(solution.strategy), abs=1e-6)
    assert solution.opponent_gain_pct <= 0.0 and np.isnan(solution.exploitability_pct)
    plain = make_solver(sub.game, "dcfr")
    plain.run(iterations=400)
    assert raise_gains(plain.average_strategy()) > 10.0


def test_an_off_tree_lead_is_re_solved_from_the_node_off_the_streets_own_solve():
    """The opponent opens the river with a bet the tree lacks before the bot has acted: the bot
    solves the street on its own tree once (kept for its later decisions and every size
    asked), then the node facing the bet through the gadget; an on-tree lead is answered from
    the street's solve alone."""
    bot = ResolvingAgent(Fixed(3), sizes=SIZES, streets=(3,), seconds={3: np.inf},
                         max_iterations=200, target_pct=0.1, range_floor=0.0)  # fmt: skip
    root = replay("r250c/cr400c/cc/", CONFIG)
    on_tree = root.apply(Action(RAISE, 1000))  # the big blind leads 75%: the tree's size
    assert bot.solution(on_tree, RIVER).subgame.start is None and bot.solves == 1
    off = root.apply(Action(RAISE, 1440))  # 130% of the pot
    solution = bot.solution(off, RIVER)
    assert bot.solves == 2  # the street's solve is the one the on-tree lead used
    assert solution.subgame.root == off and solution.subgame.start.contributions == (1440, 400)
    # both ranges are the street's start's: the bettor's before its bet (behind the gadget)
    np.testing.assert_allclose(
        solution.subgame.ranges, bayes_ranges(root, RIVER, (Fixed(3), Fixed(3))) * LIVE
    )
    fresh = ResolvingAgent(Fixed(3), sizes=SIZES, streets=(3,), seconds={3: np.inf},
                           max_iterations=200, target_pct=0.1)  # fmt: skip
    fresh.policy(off, RIVER)
    assert fresh.solves == 2  # no solve of the street yet: it is made first, then the node
    street = fresh.solution(on_tree, RIVER)
    assert street.subgame.start is None and fresh.solves == 2


def test_node_re_solves_kept_per_street_are_bounded_and_the_street_solve_stays():
    """LBR asks dozens of sizes at one node: the bot keeps the ``NODE_KEEP`` node re-solves of
    a street and seat used last, and the street's own solve."""
    bot = ResolvingAgent(Fixed(3), sizes=SIZES, streets=(3,), seconds={3: np.inf},
                         max_iterations=20, target_pct=0.1)  # fmt: skip
    root = replay("r250c/cr400c/cc/", CONFIG)
    bot.policy(root.apply(Action(RAISE, 1000)), RIVER)  # the street's solve (the bot is IP)
    leads = [1100 + 40 * i for i in range(NODE_KEEP + 4)]  # off the tree's 75% and all-in
    for to in leads:
        bot.policy(root.apply(Action(RAISE, to)), RIVER)
    assert bot.solves == 1 + len(leads)
    (kept,) = bot._cache.values()
    assert sum(k.subgame.start is None for k in kept) == 1
    assert [k.subgame.root.committed[1] for k in kept if k.subgame.start is not None] == leads[
        -NODE_KEEP:
    ]
    bot.policy(root.apply(Action(RAISE, leads[-1])), RIVER)  # still kept: no new solve
    assert bot.solves == 1 + len(leads)
    first = leads[-NODE_KEEP]  # the oldest kept, asked again between new sizes, stays
    for to in range(3000, 3000 + 40 * NODE_KEEP, 40):
        bot.policy(root.apply(Action(RAISE, first)), RIVER)
        bot.policy(root.apply(Action(RAISE, to)), RIVER)
    assert bot.solves == 1 + len(leads) + NODE_KEEP


class _Game:
    """What ``GainCheck`` reads of a subgame: the opponent's range weights and the pot."""

    pot = 100.0

    def __init__(self, hands: int) -> None:
        self.weights = np.ones(hands)

    def hand_weights(self, player: int) -> np.ndarray:
        return self.weights


class _Sub:
    def __init__(self, hands: int) -> None:
        self.game = _Game(hands)


def _checks(monkeypatch, gains: list[float], hands: int = 10, widen: bool = False):
    """A ``GainCheck`` fed one opponent best response per check: hand 0 gains ``gains[k]``
    chips over its alternative at the k-th check, the others nothing (the target is 1 chip,
    1% of the pot; the floor 40). Returns the iterations of the checks made and whether the
    last one ended the solve."""
    responses = iter(np.array([g] + [0.0] * (hands - 1)) for g in gains)
    monkeypatch.setattr(resolving, "opponent_values", lambda *_: next(responses))
    check = resolving.GainCheck(_Sub(hands), 1, np.zeros(hands), 1.0, np.inf, 0.25,
                                widen=widen, floor=40)  # fmt: skip
    made, iterations = [], 1
    for _ in gains:
        while iterations < check.at:
            assert not check(iterations, lambda: None)
            iterations += 1
        made.append(iterations)
        if check(iterations, lambda: None):
            return made, True, check
        iterations += 1
    return made, False, check


def test_a_node_re_solve_also_stops_once_the_gaining_hands_total_stops_falling(monkeypatch):
    """The largest hand's gain within the target ends a node's solve at any check. From twice
    the floor (40) on it also ends once the total the gaining hands win over the whole range
    fell by less than a fifth since the check at half the iterations. A street's solve
    (``widen``) ends only on the largest gain."""
    # one hand of ten gains 30, 20, 12, 11.6, then 11.5 chips: flat from 40 on, stopped at 96
    flat = [30.0, 20.0, 12.0, 11.6, 11.5, 11.5, 11.5, 11.5, 11.5]
    made, stopped, check = _checks(monkeypatch, flat)
    assert made == [10, 20, 30, 40, 50, 62, 77, 96] and stopped
    assert check.checks[-1] == (96, 11.5, pytest.approx(1.15))  # % of the pot
    assert check.checks[3] == (40, 11.6, pytest.approx(1.16))  # the check it was held to
    # falling by 15% a check (over a third a doubling) goes on
    falling = [30.0 * 0.85**k for k in range(10)]
    made, stopped, _ = _checks(monkeypatch, falling)
    assert made == [10, 20, 30, 40, 50, 62, 77, 96, 120, 150] and not stopped
    # rising before twice the floor goes on, then falls to within the target
    made, stopped, _ = _checks(monkeypatch, [30.0, 8.0, 9.0, 13.0, 13.0, 10.0, 6.0, 0.8])
    assert made == [10, 20, 30, 40, 50, 62, 77, 96] and stopped
    # the largest gain within the target ends it before the floor, as a street's
    made, stopped, _ = _checks(monkeypatch, [5.0, 0.9])
    assert made == [10, 20] and stopped
    made, stopped, _ = _checks(monkeypatch, [*flat, 11.5, 0.5], widen=True)
    assert made == [10, 20, 30, 40, 50, 62, 77, 96, 120, 150, 187] and stopped
