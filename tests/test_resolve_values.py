"""The human's action values against the re-solving bot's solved river: equal to a brute force
over the bot's hands (phevaluator ranks, the bot's range times its solved action probabilities
along the line, the human's best reply found by enumerating its choices), for a hand inside the
bot's model of the human's range and one outside it; and the bot's solution of a street the
human opens is the one the bot then plays from (solved once)."""

import time

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.agents.resolve_values import bot_solution, resolved_values
from solvers.agents.resolving import ResolvingAgent, Solution
from solvers.agents.subgame import build_subgame
from solvers.cards.deck import COMBO_CARDS, COMBO_INDEX, N_COMBOS, card_str, parse_cards
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlConfig, replay
from tests.resolve_fixtures import Fixed, Narrow, street

CONFIG = HunlConfig(100)
RIVER = np.array(parse_cards("Ks 7h 2d 9c 4s"))
BB_HANDS = ["AsAh", "Kd7d", "6h5h", "QcJc", "8s8d", "Ac2c"]
SB_HANDS = ["KhQh", "9h9d", "3c3h", "Ad7c", "JhTh", "5d3d"]


def combo(text: str) -> int:
    a, b = parse_cards(text)
    return int(COMBO_INDEX[a, b])


def small_river():
    """Pot 500 checked to the river; each side bets half pot or all-in and may raise all-in."""
    state = replay("r250c/cc/cc/", CONFIG)
    ranges = np.zeros((2, N_COMBOS))
    for seat, hands in ((1, BB_HANDS), (0, SB_HANDS)):
        for k, hand in enumerate(hands):
            ranges[seat, combo(hand)] = 0.2 + 0.13 * k
    sub = build_subgame(state, RIVER, ranges, {"river": street("50%, a", "a", 1)})
    rng = np.random.default_rng(5)
    strategy = {}
    for node in sub.game.nodes:
        if node.is_decision:
            rows = rng.random((sub.game.n_hands[node.player], len(node.children))) + 0.05
            strategy[node.id] = rows / rows.sum(axis=1, keepdims=True)
    return Solution(sub, strategy, 1, 0.0, float("nan")), state


def rank(hand: int) -> int:  # phevaluator: lower is better
    return evaluate_cards(*[card_str(int(c)) for c in (*COMBO_CARDS[hand], *RIVER)])


def brute_force(solution: Solution, path: list[int], hole: int) -> list[float]:
    """Chips won from the node at the end of ``path`` (child indices from the spot's root) with
    each action, the human best-replying per node to the bot's solved rows, hand by hand."""
    game = solution.subgame.game
    node = game.nodes[0]
    for index in path:
        node = game.nodes[node.children[index]]
    human = node.player
    hands, weights = bot_weights(solution, 1 - human, hole)
    walker = game.nodes[0]
    for index in path:  # the bot's probability of its own actions along the line
        if walker.player != human:
            weights = weights * solution.strategy[walker.id][:, index]
        walker = game.nodes[walker.children[index]]
    total = weights.sum()
    own = node.contributions[human]
    return [brute_value(solution, human, hole, hands, game.nodes[c], weights) / total + own
            for c in node.children]  # fmt: skip


def bot_weights(solution: Solution, bot: int, hole: int) -> tuple[list[int], np.ndarray]:
    """The bot's hands in the spot and their weights at its root, without those that share a
    card with the human's ``hole``."""
    sub = solution.subgame
    bot_seat = 1 if bot == 0 else 0
    hands = [int(c) for c in sub.game.hand_combos[bot]]
    weights = np.array([sub.ranges[bot_seat, c] for c in hands])
    weights *= [not set(COMBO_CARDS[c]) & set(COMBO_CARDS[hole]) for c in hands]
    return hands, weights


def brute_value(solution: Solution, human: int, hole: int, hands: list[int], node, w,
                results: np.ndarray | None = None) -> float:  # fmt: skip
    """Sum over the bot's ``hands`` of weight ``w`` times the human's payoff from ``node``, the
    human best-replying at each of its nodes (it knows only its own hand). A showdown is the
    river's by phevaluator's ranks, or each hand's mean sign ``results`` (a flop's runouts)."""
    game = solution.subgame.game
    bot = 1 - human
    if node.is_terminal:
        parent = game.nodes[node.parent]
        token = parent.tokens[parent.children.index(node.id)]
        if token == "f":
            folder = parent.player
            sign = -1.0 if folder == human else 1.0
            return float(w.sum()) * sign * node.contributions[folder]
        if results is None:
            own_rank = rank(hole)
            results = np.array([np.sign(rank(c) - own_rank) for c in hands])  # +1: human wins
        return float(np.dot(w, results)) * node.contributions[bot]
    children = [game.nodes[c] for c in node.children]
    if node.player == human:
        return max(brute_value(solution, human, hole, hands, child, w, results)
                   for child in children)  # fmt: skip
    rows = solution.strategy[node.id]
    return sum(brute_value(solution, human, hole, hands, child, w * rows[:, k], results)
               for k, child in enumerate(children))  # fmt: skip


@pytest.mark.parametrize("hole", ["QcJc", "8h8c"])  # 8h8c: outside the model's range
def test_values_where_the_human_opens_the_river_equal_a_brute_force(hole):
    solution, state = small_river()
    game = solution.subgame.game
    assert game.root.player == 0  # the big blind (seat 1) opens
    cards = tuple(parse_cards(hole))
    assert (game.hand_combos[0] == combo(hole)).any() == (hole in BB_HANDS)
    found = resolved_values(solution, state, cards)
    expected = brute_force(solution, [], combo(hole))
    assert found.actions[0] == Action(CALL) and all(a.kind == RAISE for a in found.actions[1:])
    assert len(found.actions) == len(expected) == 3  # check, half pot, all-in
    np.testing.assert_allclose(found.values, expected, rtol=1e-9, atol=1e-9)
    assert found.actions[1] == Action(RAISE, 500)  # half of 500 on top of 250 each


def test_values_facing_a_bet_equal_a_brute_force_and_fold_is_zero():
    solution, _ = small_river()
    game = solution.subgame.game
    facing = replay("r250c/cc/cc/r500", CONFIG)  # the big blind bet half pot; SB decides
    node = game.nodes[game.root.children[1]]
    assert solution.subgame.node_of(facing) == node.id
    hole = tuple(parse_cards("AhQs"))
    found = resolved_values(solution, facing, hole)
    expected = brute_force(solution, [1], combo("AhQs"))
    assert found.actions == (Action(FOLD), Action(CALL), Action(RAISE, 10_000))
    assert found.values[0] == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(found.values, expected, rtol=1e-9, atol=1e-9)
    # not the values of a uniform bot: the solved rows matter
    uniform = {k: np.full_like(v, 1.0 / v.shape[1]) for k, v in solution.strategy.items()}
    other = Solution(solution.subgame, uniform, 1, 0.0, float("nan"))
    assert not np.allclose(resolved_values(other, facing, hole).values, expected, atol=1.0)


def test_the_bots_solution_of_a_street_the_human_opens_is_the_one_it_plays():
    bot = ResolvingAgent(Fixed(3), streets=(3,), seconds={3: np.inf}, max_iterations=30)
    opening = replay("r250c/cr400c/cc/", CONFIG)  # the big blind (human) opens the river
    solution = bot_solution(bot, opening, RIVER)
    assert solution is not None and bot.solves == 1
    assert solution.subgame.node_of(opening) == solution.subgame.game.root.id
    checked = opening.apply(Action(CALL))
    bot.policy(checked, RIVER)
    assert bot.solves == 1  # the bot plays the solve the panel used
    assert bot_solution(bot, replay("r250c/cr400c/cc/", CONFIG), RIVER) is solution
    assert bot_solution(bot, replay("r250c/cr400c/", CONFIG), RIVER[:4]) is None  # the turn


def test_an_off_tree_bet_is_valued_against_the_bots_node_re_solve_facing_it():
    """A bet of 130% of the pot, between the tree's half pot and all-in, is worth what a brute
    force over the bot's node re-solve facing it gives (the bot's range at the node, its solved
    rows, the human best-replying); the bot then answers the bet from that same re-solve."""
    from solvers.agents.resolve_values import off_tree_values  # noqa: PLC0415

    bot = ResolvingAgent(Fixed(3), streets=(3,), seconds={3: np.inf}, max_iterations=40,
                         sizes={3: {"river": street("50%, a", "a", 1)}})  # fmt: skip
    opening = replay("r250c/cr400c/cc/", CONFIG)  # the big blind (human) opens, pot 800
    hole = tuple(parse_cards("QcJc"))
    solution = bot_solution(bot, opening, RIVER)
    found = resolved_values(solution, opening, hole)
    bet = Action(RAISE, 400 + 1_040)
    assert found.value_of(bet) is None and len(found.actions) == 3  # check, half pot, all-in
    valued = off_tree_values(bot, found, opening, RIVER, hole, (Action(CALL), bet))
    assert valued.actions == (*found.actions, bet) and valued.values[:3] == found.values
    assert valued.answered == (bet,) and found.answered == ()
    node = bot.solution(opening.apply(bet), RIVER)
    assert node.subgame.start is not None and bot.solves == 2  # the node re-solve, kept
    sub = node.subgame
    human = 1 - sub.game.root.player
    hands, weights = bot_weights(node, sub.game.root.player, combo("QcJc"))
    expected = brute_value(node, human, combo("QcJc"), hands, sub.game.root, weights)
    expected = expected / weights.sum() + 400  # chips won from the decision on
    assert valued.value_of(bet) == pytest.approx(expected, rel=1e-6)  # float32 rows
    assert not np.isclose(expected, found.values[0], atol=1.0)  # not the check's value
    bot.policy(opening.apply(bet), RIVER)
    assert bot.solves == 2  # the bot answers from the re-solve the panel valued


def test_the_live_panel_values_every_river_size_with_the_bots_own_answer():
    """At a river decision against the re-solving bot, every size key has an EV: the tree's
    sizes from the street's solve, the others from the bot's node re-solve facing each; betting
    one of those, the bot answers from the re-solve the panel valued (no new solve)."""
    from pokertui.session.hunl_session import HunlSession  # noqa: PLC0415
    from solvers.agents.registry import make_agent  # noqa: PLC0415

    agent = make_agent("resolve(iterations=12):call", CONFIG)
    session = HunlSession(CONFIG, agent, bot_name="resolve", human_seat=1, seed=3)
    session.new_hand()
    while session.state.street < 3:  # the bot checks and calls: check it down to the river
        session.act(Action(CALL))
    assert session.human_to_act and session.state.betting.endswith("/")  # the human opens
    numbers = session.live()
    raises = [e for e in numbers.evs if e.action.kind == RAISE]
    assert len(raises) >= 5 and all(e.ev is not None for e in raises)  # min ... all-in
    assert "sizes off its tree: its re-solve facing each" in numbers.ev_method
    solution = bot_solution(agent, session.state, np.array(session.board))
    in_tree = resolved_values(solution, session.state, session.hand.hole[1])
    off = [e for e in raises if in_tree.value_of(e.action) is None]
    assert off, "every size in the tree: nothing off it to value"
    solves = agent.solves
    session.act(off[0].action)
    assert agent.solves == solves  # the bot played the node re-solve the panel valued


def test_the_live_panel_values_the_turns_off_tree_sizes_one_at_a_time():
    """On the turn the off-tree sizes cost a node re-solve each (seconds with the real budget),
    so the live job reports the numbers it has before each: the tree's values first, then one
    size more each time, the rest ``pending``; the final numbers value every size, and betting
    one of them, the bot answers from the re-solve the panel valued."""
    from pokertui.session.hunl_session import HunlSession  # noqa: PLC0415
    from solvers.agents.registry import make_agent  # noqa: PLC0415

    agent = make_agent("resolve(iterations=12):call", CONFIG)
    session = HunlSession(CONFIG, agent, bot_name="resolve", human_seat=1, seed=3)
    session.new_hand()
    while session.state.street < 2:
        session.act(Action(CALL))
    assert session.human_to_act and session.state.betting.endswith("/")  # the human opens
    reports = []
    numbers = session.live_job()(reports.append)
    raises = [e for e in numbers.evs if e.action.kind == RAISE]
    # min, the tree's 66% (the 2/3 key's 233 chips is its 232: one row), pot, all-in
    assert len(raises) >= 4 and all(e.ev is not None for e in raises)
    assert numbers.pending == () and "its re-solve facing each" in numbers.ev_method
    assert reports, "no size off the turn's tree: nothing valued one at a time"
    pending = [r.pending for r in reports]
    assert all(len(p) == len(pending[0]) - k for k, p in enumerate(pending))  # one at a time
    assert pending[-1] and set(pending[0]) <= {e.action for e in raises}
    for report, waiting in zip(reports, pending, strict=True):
        unvalued = {e.action for e in report.evs if e.ev is None}
        assert set(waiting) == unvalued  # every size still unvalued is being solved
        assert report.equity == numbers.equity  # the closed forms are computed once
    final = {e.action: e.ev for e in numbers.evs}
    for report in reports:  # a value, once shown, stays
        assert all(final[e.action] == e.ev for e in report.evs if e.ev is not None)
    solves = agent.solves
    session.act(pending[0][0])
    assert agent.solves == solves  # the bot played the node re-solve the panel valued


def test_the_turns_off_tree_sizes_share_one_think_time(monkeypatch):
    """Each off-tree size's node re-solve gets what is left of the street's think time divided
    by the sizes still to value, so the panel fills within one think time after the street's
    own solve (each solve still runs its floor of iterations)."""
    from pokertui.session.hunl_session import HunlSession  # noqa: PLC0415
    from solvers.agents.registry import make_agent  # noqa: PLC0415
    from solvers.analysis import live_values  # noqa: PLC0415

    agent = make_agent("resolve(turn=1):call", CONFIG)
    session = HunlSession(CONFIG, agent, bot_name="resolve", human_seat=1, seed=3)
    session.new_hand()
    while session.state.street < 2:
        session.act(Action(CALL))
    budgets: list[float] = []
    calls: list[float] = []
    ends: list[float] = []
    value = live_values.off_tree_values

    def recorded(agent, found, state, board, hole, actions, budget=None):
        budgets.append(budget)
        calls.append(time.perf_counter())
        try:
            return value(agent, found, state, board, hole, actions, budget)
        finally:
            ends.append(time.perf_counter())

    monkeypatch.setattr(live_values, "off_tree_values", recorded)
    session.live_job()()
    sizes = len(budgets)
    assert sizes >= 2 and all(b is not None for b in budgets)
    assert 0 < budgets[0] <= 1.0 / sizes + 1e-9
    # each share is what was left of the one think time over the sizes left: at most the think
    # time less what the sizes before it took, over the sizes left (a size whose solve stops
    # early leaves its rest to the next, so the shares may add up to more than one think)
    for k in range(1, sizes):
        left = 1.0 - (ends[k - 1] - calls[0])
        assert budgets[k] * (sizes - k) <= max(left, 0.0) + 1e-9


def test_the_heading_says_where_the_values_come_from():
    """The live panel's heading names the re-solve, its quality, the off-tree sizes' source and,
    on the flop, that its tree checks the turn and river down (a depth limit, not the game)."""
    from pokertui.session.hunl_session import resolve_note  # noqa: PLC0415
    from solvers.agents.resolve_values import ResolvedValues  # noqa: PLC0415

    bet = Action(RAISE, 900)
    river = ResolvedValues((Action(CALL), bet), (0.0, 1.0), 3, 40, 0.84, answered=(bet,))
    assert resolve_note(river) == ("the bot's river re-solve (40 iterations, exploitable by 0.8% "
                                   "of the pot); sizes off its tree: its re-solve facing each; "
                                   "your best play after")  # fmt: skip
    flop = ResolvedValues((Action(CALL),), (0.0,), 1, 12, float("nan"))
    assert resolve_note(flop) == ("the bot's flop re-solve (12 iterations); its tree checks the "
                                  "turn and river down; your best play after")  # fmt: skip
    flop = ResolvedValues((Action(CALL), bet), (0.0, 1.0), 1, 12, float("nan"), answered=(bet,))
    assert resolve_note(flop) == ("the bot's flop re-solve (12 iterations); sizes off its tree: "
                                  "the flop solved again with each; its tree checks the turn and "
                                  "river down; your best play after")  # fmt: skip
    deeper = ResolvedValues((Action(CALL), bet), (0.0, 1.0), 1, 450, 1.2, answered=(bet,),
                            bets_later=True)  # the default bot's flop, which sees the turn
    assert resolve_note(deeper) == ("the bot's flop re-solve (450 iterations, exploitable by 1.2% "
                                    "of the pot); sizes off its tree: the flop solved again with "
                                    "each in the tree checked down (a size you bet: again in "
                                    "its own tree); its tree bets the turn and "
                                    "checks the river down; your best play after")  # fmt: skip


def test_the_review_values_decisions_played_without_hints_against_the_bots_own_solves():
    """Hints off, the review still has the re-solve's EVs of the turn and river decisions: the
    same as the live panel showed in the same hand with hints on, from the solves the bot made
    to answer them (the review solves nothing)."""
    from pokertui.session.hunl_session import HunlSession  # noqa: PLC0415
    from solvers.agents.registry import make_agent  # noqa: PLC0415

    def play(hints: bool):
        agent = make_agent("resolve(iterations=12):call", CONFIG)
        session = HunlSession(CONFIG, agent, bot_name="resolve", human_seat=1, seed=3)
        session.new_hand()
        shown = []
        while not session.hand_over:
            if hints and session.state.street >= 2:
                shown.append({e.action: e.ev for e in session.live_job()().evs})
            total = session.state.committed[1 - session.state.to_act] + session.state.pot // 2
            bet = session.state.street == 3 and session.state.legal().min_raise_to is not None
            session.act(Action(RAISE, total) if bet else Action(CALL))
        solves = agent.solves
        session.fill_review(session.hand)
        assert agent.solves == solves  # the review took the bot's solves, made none
        return session.hand, shown

    hand, _ = play(hints=False)
    later = [s for s in hand.steps if s.seat == 1 and s.street >= 2]
    assert len(later) >= 2 and all(s.evs for s in later)
    _, shown = play(hints=True)
    assert len(shown) == len(later)
    for step, live in zip(later, shown, strict=True):
        valued = dict(step.evs)
        for action, ev in live.items():
            if action.kind != RAISE or str(action) == step.action:  # sizes not taken may wait
                assert valued[str(action)] is not None, (step.action, str(action))
            if valued[str(action)] is not None:
                assert valued[str(action)] == pytest.approx(ev, rel=1e-9, abs=1e-6)


FLOP = np.array(parse_cards("Ks 7h 2d"))


def flop_results(hole: int, hands: list[int]) -> np.ndarray:
    """Per bot hand, the human's mean showdown sign over every turn and river left (+1: the
    human wins), by phevaluator's ranks."""
    dead = {*map(int, FLOP), *map(int, COMBO_CARDS[hole])}
    results = np.zeros(len(hands))
    for k, other in enumerate(hands):
        left = [c for c in range(52) if c not in dead | set(map(int, COMBO_CARDS[other]))]
        signs = []
        for i, turn in enumerate(left):
            for river in left[i + 1 :]:
                board = [card_str(int(c)) for c in (*FLOP, turn, river)]
                mine = evaluate_cards(*board, *[card_str(int(c)) for c in COMBO_CARDS[hole]])
                theirs = evaluate_cards(*board, *[card_str(int(c)) for c in COMBO_CARDS[other]])
                signs.append(np.sign(mine - theirs) * -1.0)  # lower rank is better
        results[k] = np.mean(signs)
    return results


def test_an_off_tree_flop_bet_is_valued_against_the_street_solved_again_with_it():
    """On the flop the bot answers a bet its tree lacks by solving the street again with the bet
    added. The panel values 130% of the pot against that solve, made in its worker and kept,
    with the bot's check taken from the solve it played: equal to a brute force over the bot's hands
    (its range times the check it played, the new solve's answer, the human best-replying, every
    runout ranked by phevaluator). The bot keeps that solve and answers the bet from it, while
    the lines it played before (its check, the tree's own bet) stay the first solve's."""
    from solvers.agents.resolve_values import off_tree_values  # noqa: PLC0415

    bot = ResolvingAgent(Narrow(3), streets=(1,), seconds={1: np.inf}, max_iterations=20,
                         range_floor=0.0)  # fmt: skip
    state = replay("r250c/c", CONFIG)  # the bot (big blind) checked; the button decides
    hole = tuple(parse_cards("QcJc"))
    played = bot_solution(bot, state, FLOP)
    found = resolved_values(played, state, hole)
    bet = Action(RAISE, 250 + 650)
    assert found.value_of(bet) is None and bot.solves == 1
    valued = off_tree_values(bot, found, state, FLOP, hole, (bet,))
    assert valued.answered == (bet,) and valued.values[: len(found.values)] == found.values
    # the new solve holds every line of the street, but the lines the bot played from the first
    # stay that one's: the panel's question changes nothing the bot plays
    assert bot.solves == 2 and bot_solution(bot, state, FLOP) is played
    root = replay("r250c/", CONFIG)
    replayed = bot.policy(root, FLOP).probabilities  # what the bot's later ranges replay
    np.testing.assert_array_equal(replayed, played.policy(root).probabilities)
    on_tree = state.apply(found.actions[1])  # the tree's 66% bet: answered from the played solve
    assert bot.solution(on_tree, FLOP) is played
    answer = bot.solution(state.apply(bet), FLOP)  # facing the bet: the solve the panel used
    assert bot.solves == 2 and answer is not played and answer.subgame.start is None
    game, sub = answer.subgame.game, answer.subgame
    human, me = 1 - game.root.player, game.root.player  # the bot (big blind) is OOP, player 0
    hands, weights = bot_weights(answer, me, combo("QcJc"))
    check = played.subgame.game.root.tokens.index("x")
    weights = weights * played.strategy[played.subgame.game.root.id][:, check]
    node = game.nodes[sub.node_of(state)]
    after = game.nodes[node.children[node.tokens.index("b650")]]
    results = flop_results(combo("QcJc"), hands)
    expected = brute_value(answer, human, combo("QcJc"), hands, after, weights, results)
    expected = expected / weights.sum() + 250  # chips won from the decision on
    assert valued.value_of(bet) == pytest.approx(expected, rel=1e-6)  # float32 rows
    # the new solve's own check would give the bot another range there, and another value
    own = bot_weights(answer, me, combo("QcJc"))[1] * answer.strategy[game.root.id][:, check]
    other = brute_value(answer, human, combo("QcJc"), hands, after, own, results)
    other = other / own.sum() + 250
    assert abs(other - expected) > 1.0
