"""Off-tree bets: the human bets 1.3x the pot on the river, between the blueprint's 100% and
all-in. The re-solving bot answers from a solve whose tree holds that bet; the blueprint alone
answers by translating it to one of its sizes. Exact best response in the river subgame (the
spot engine, a separate pass from the solver) measures each answer: what the human's
best-responding hands win by making that bet, and what a best response wins in the whole
subgame. The re-solve must be the less exploitable answer, by a margin."""

import numpy as np
import pytest

from solvers.agents.registry import make_agent
from solvers.agents.resolving import ResolvingAgent
from solvers.agents.safe_resolve import blueprint_strategy
from solvers.cards.deck import parse_cards
from solvers.exact.evaluation import action_values, best_response
from solvers.games.hunl.rules import HunlConfig, replay

CONFIG = HunlConfig(100)
CASES = [  # (betting to the 1.3x pot bet, board): the human leads, or bets after a check
    ("r250c/cr400c/cc/r1440", "Ks 7h 2d 9c 4s"),  # 1,040 into 800, big blind leads
    ("r250c/cc/cc/r900", "Ah 8d 5c 5s Jd"),  # 650 into 500
    ("r250c/cr400c/cc/cr1440", "Qs Td 6h 3c 2s"),  # the button bets 1,040 into 800
]


@pytest.fixture(scope="module")
def blueprint():
    return make_agent("strategies/hunl_100bb.npz", CONFIG)


@pytest.mark.parametrize(("betting", "board"), CASES)
def test_the_re_solved_answer_to_a_1_3x_pot_bet_is_less_exploitable_than_translation(
    blueprint, betting, board
):
    river = np.array(parse_cards(board))
    bot = ResolvingAgent(blueprint, streets=(3,), max_iterations=400,
                         seconds={3: np.inf}, target_pct=0.3)  # fmt: skip
    state = replay(betting, CONFIG)
    facing = replay(betting.rsplit("r", 1)[0], CONFIG)  # the state where the human bets
    solution = bot.solution(state, river)
    sub = solution.subgame
    game = sub.game
    node = game.nodes[sub.node_of(state)]
    before = game.nodes[node.parent]
    human = before.player
    column = list(before.children).index(node.id)
    assert sub.real_action(before.id, column, facing).to == int(betting.rsplit("r", 1)[1])
    weights = game.hand_weights(human) / game.hand_weights(human).sum()
    translated = blueprint_strategy(sub, blueprint)
    measured = {}  # % of the pot: the bet's best-response value, the whole subgame's
    for name, strategy in (("re-solve", solution.strategy), ("blueprint", translated)):
        bet_values = action_values(game, strategy, before.id, continuation="best_response")
        whole = best_response(game, strategy, human).per_hand
        measured[name] = (
            100 * float(weights @ np.nan_to_num(bet_values[:, column])) / game.pot,
            100 * float(game.hand_weights(human) @ np.nan_to_num(whole)) / game.pot,
        )
    resolved, blue = measured["re-solve"], measured["blueprint"]
    assert resolved[0] < blue[0] - 3.0, measured  # the bet wins 3% of the pot less, at least
    assert resolved[1] < blue[1] - 5.0, measured  # and the whole river subgame
    assert solution.exploitability_pct <= 0.3
