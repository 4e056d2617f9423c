"""The maxmargin gadget maximises the smallest margin of the opponent's hands over their
alternatives, checked against an independent computation.

With two opponent hands ``a`` and ``b``, the largest worst-hand gain the re-solver can hold
them to is ``max over p of min over x of p g_a(x) + (1 - p) g_b(x)`` (minimax; ``g`` a
hand's best-response value less its alternative). For a fixed ``p`` the inner minimum is a
range-only solve whose opponent holds ``a`` with weight ``p / c_a`` and ``b`` with
``(1 - p) / c_b`` (``c``: the re-solver's weight each can meet), so the reference is a search
over ``p`` of ordinary spot solves, measured by exact best response. The alternatives are
chosen so that the answer lies strictly inside ``(0, 1)``: neither hand alone decides it.
"""

import numpy as np
import pytest

from solvers.agents.compiled_gadget import CompiledMaxmarginCFR
from solvers.agents.registry import make_agent, resolve_options
from solvers.agents.resolving import ResolvingAgent
from solvers.agents.safe_resolve import blueprint_strategy, opponent_values, safe_resolve
from solvers.agents.subgame import bayes_ranges, build_subgame
from solvers.algorithms.base import make_solver
from solvers.cards.deck import parse_cards
from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig, replay
from tests.resolve_fixtures import Fixed, street

RIVER = np.array(parse_cards("Ks 7h 2d 9c 4s"))
ME, OPPONENT, OPPONENT_SEAT = 1, 1, 0  # the big blind re-solves against the button
HANDS = (1072, 372)
SIZES = {"river": street("50%, a", "a", 1)}
ITERATIONS = 400


@pytest.fixture(scope="module")
def spot():
    state = replay("r250c/cr400c/cc/", HunlConfig(100))
    ranges = bayes_ranges(state, RIVER, (Fixed(3), Fixed(3)))

    def sub_with(a: float, b: float):
        held = ranges.copy()
        held[OPPONENT_SEAT] = 0.0
        held[OPPONENT_SEAT, HANDS[0]], held[OPPONENT_SEAT, HANDS[1]] = a, b
        return build_subgame(state, RIVER, held, SIZES)

    sub = sub_with(1.0, 1.0)
    rows = [list(sub.game.hand_combos[OPPONENT]).index(c) for c in HANDS]
    return sub, sub_with, rows


def best_responses(sub, strategy, rows) -> np.ndarray:
    return opponent_values(sub, strategy, OPPONENT)[rows]


def range_only(sub_with, a: float, b: float):
    solver = make_solver(sub_with(a, b).game, "dcfr")
    solver.run(iterations=ITERATIONS)
    return solver.average_strategy()


def test_maxmargin_holds_the_worst_hand_to_the_minimax_bound(spot):
    sub, sub_with, rows = spot
    game = sub.game
    # the best responses when the re-solver plays against either hand alone
    alone_a = best_responses(sub, range_only(sub_with, 1.0, 1e-6), rows)
    alone_b = best_responses(sub, range_only(sub_with, 1e-6, 1.0), rows)
    # alternatives that make either hand alone the wrong answer: b gains more against the
    # play that is best against a, a more against the play that is best against b
    gap_a, gap_b = alone_a[1] - alone_a[0], alone_b[1] - alone_b[0]
    assert gap_a - gap_b > 0.05 * game.pot  # the two plays differ: the case is not degenerate
    values = np.zeros(game.n_hands[OPPONENT])
    values[rows[1]] = (gap_a + gap_b) / 2

    compatible = game.strengths.compatible_sums(OPPONENT, game.strengths.hand_weights[ME - 1])
    weight = compatible[rows]

    def mixed(p: float) -> float:  # the inner minimum of the minimax, from a range-only solve
        gains = best_responses(sub, range_only(sub_with, p / weight[0], (1 - p) / weight[1]),
                               rows) - values[rows]  # fmt: skip
        return p * gains[0] + (1 - p) * gains[1]

    low, high = 0.0, 1.0  # the minimum over x of a mix is concave in p: ternary search
    for _ in range(14):
        left, right = low + (high - low) / 3, high - (high - low) / 3
        if mixed(left) < mixed(right):
            low = left
        else:
            high = right
    bound = mixed((low + high) / 2)
    # inside (0, 1): either hand alone allows less than the bound
    assert bound > max(mixed(0.0), mixed(1.0)) + 0.02 * game.pot

    maxmargin, _ = safe_resolve(sub, ME, values, ITERATIONS, gadget="maxmargin")
    worst = (best_responses(sub, maxmargin, rows) - values[rows]).max()
    tolerance = 0.002 * game.pot  # 0.2% of the pot
    assert worst == pytest.approx(bound, abs=tolerance)
    # the gadget's own upper bound on the smallest margin, which ends the bot's solves: never
    # below the optimum (-bound), and near it once solved
    solver = CompiledMaxmarginCFR(game, OPPONENT, values)
    solver.run(iterations=ITERATIONS)
    upper = solver.margin_bound()
    assert -bound - tolerance <= upper <= -bound + 0.01 * game.pot
    resolve, _ = safe_resolve(sub, ME, values, ITERATIONS)
    # the resolve gadget minimises the gains' sum, not the worst: here it leaves more (13%)
    assert (best_responses(sub, resolve, rows) - values[rows]).max() > bound + 0.05 * game.pot


def test_the_safe_bot_plays_through_maxmargin_by_default():
    """``resolve-safe:BOT`` (``gadget=maxmargin`` unless named otherwise): the river re-solved
    behind the maxmargin gadget keeps every opponent hand within the 1% target of its value
    against the base bot's play, and is the gadget's own solve."""
    config = HunlConfig(100)
    assert make_agent("resolve-safe(gadget=maxmargin):call", config).gadget == "maxmargin"
    options = resolve_options("gadget=maxmargin, iterations=300")
    bot = ResolvingAgent(Fixed(3), safe=True, **options)  # a base whose play depends on cards
    state = replay("r250c/cr400c/cc/", config)
    solution = bot.solution(state, RIVER)
    sub = solution.subgame
    alternatives = opponent_values(sub, blueprint_strategy(sub, Fixed(3)), OPPONENT)
    gains = opponent_values(sub, solution.strategy, OPPONENT) - alternatives
    live = sub.game.hand_weights(OPPONENT) > 0
    assert bot.fallbacks == 0 and gains[live].max() <= 0.01 * sub.game.pot
    # the bot's solve is the maxmargin gadget's, not the resolve gadget's, iterate for iterate
    root = sub.game.root.id
    for gadget, same in (("maxmargin", True), ("resolve", False)):
        direct, _ = safe_resolve(sub, ME, alternatives, solution.iterations, gadget=gadget)
        assert np.allclose(direct[root], solution.strategy[root], atol=1e-6) == same
    assert make_agent("resolve-safe:call", config).gadget == "maxmargin"  # the safe default
    assert make_agent("resolve-safe(gadget=resolve):call", config).gadget == "resolve"
    assert make_agent("resolve:call", config).gadget == "resolve"
    for bad in ("gadget=minmax", "gadget=", "gadget=1"):
        with pytest.raises(InputError, match="gadget"):
            make_agent(f"resolve-safe({bad}):call", config)
