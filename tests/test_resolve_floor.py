"""Every solve the re-solving bot plays runs a floor of iterations and is replaced by the base
agent's play when its own check finds it worse; the bot's warm-up loads every kernel that its
solves and the live panel's values use.

The hand: the first of a session, the bot in the big blind with Kd6c. The button raised to 3 bb
and the bot called; on Qh 5d 8h the bot checked, the button bet 3 bb, the bot called; on the
Ks the bot checked and the button bet 1 bb into 12 bb, a size off the bot's turn tree, which a
node re-solve answers. With a short budget, or with the first solve after an install compiling
its kernels for tens of seconds, that re-solve ran one iteration and its answer was played:
fold, call, raise, all-in, a quarter each for every hand. Converged (no clock, each solve to its
target: ``resolve(iterations=300):`` over the shipped blueprint) the bot folds 0.87% of its
range there and calls 88.5%.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pokertui.paths import DEFAULT_RESOLVE
from solvers.agents.registry import make_agent
from solvers.agents.resolve_values import bot_solution, off_tree_values, resolved_values
from solvers.agents.resolving import DEFAULT_SECONDS, ResolvingAgent
from solvers.agents.safe_resolve import blueprint_strategy, opponent_values, safe_resolve
from solvers.agents.spot_lines import alternatives
from solvers.agents.subgame import SPOT_PLAYER_OF_SEAT, bayes_ranges, line
from solvers.algorithms.base import make_solver
from solvers.cards.deck import COMBO_INDEX, parse_cards
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlConfig, replay

ROOT = Path(__file__).resolve().parents[1]
BLUEPRINT = "strategies/hunl_100bb.npz"
CONFIG = HunlConfig()
BOARD = np.array(parse_cards("Qh 5d 8h Ks"), dtype=np.int64)
TURN = "r300c/cr600c/"
FACING = "r300c/cr600c/cr700"
"""The bot (the big blind, seat 1) faces the button's 1 bb turn bet."""
BOT = 1
KD6C = int(COMBO_INDEX[parse_cards("Kd")[0], parse_cards("6c")[0]])
THINK = 0.1
"""The bot's turn budget in seconds, as ``--think 0.1`` sets it (the flop three times it, the
river a tenth): shorter than the iterations a sound answer needs."""
CONVERGED_CALL = 0.885
"""The bot's range-weighted call share facing the bet, every solve run to its target."""
CONVERGED_CALL_SEEING_THE_TURN = 0.857
"""The same for the app's default bot, whose flop solve sees the turn
(``resolve(flop-tree=turn,flop-sample=10,iterations=300,flop-iterations=1000):``: it folds
1.29% and calls 85.7%; its flop play, and so its range on the turn, differ)."""


def thinking_bot(think: float = THINK, name: str = f"resolve:{BLUEPRINT}") -> ResolvingAgent:
    """The default bot with its budgets scaled as ``--think`` scales them."""
    agent = make_agent(name, CONFIG)
    assert isinstance(agent, ResolvingAgent)
    scale = think / DEFAULT_SECONDS[2]
    agent.seconds = {street: budget * scale for street, budget in agent.seconds.items()}
    return agent


def shares(rows: np.ndarray, actions, kind: str) -> np.ndarray:
    """Per combo, the probability of the actions of ``kind`` (raises summed over sizes)."""
    return rows[:, [i for i, a in enumerate(actions) if a.kind == kind]].sum(axis=1)


def play_to(agent: ResolvingAgent, betting: str):
    """The state after ``betting``, the bot asked for its policy at each of its decisions on
    the way, in order, as a session asks it (each street's solve made where it acts first)."""
    state = replay(betting, CONFIG)
    for before, _ in line(state):
        if before.to_act == BOT:
            agent.policy(before, BOARD[: before.board_cards_needed])
    return state


def facing_the_bet(agent: ResolvingAgent) -> dict:
    """The bot's answer to the 1 bb bet: the fold and call shares of its range (each combo
    weighted by its Bayes reach of the state), how many of its rows are uniform, Kd6c's row."""
    state = play_to(agent, FACING)
    policy = agent.policy(state, BOARD)
    reach = bayes_ranges(state, BOARD, (agent, agent))[BOT]
    weights = reach / reach.sum()
    rows = policy.probabilities
    held = reach > 0
    uniform = np.abs(rows[held] - 1.0 / rows.shape[1]).max(axis=1) < 1e-9
    return {
        "actions": [str(a) for a in policy.actions],
        "fold": float(weights @ shares(rows, policy.actions, FOLD)),
        "call": float(weights @ shares(rows, policy.actions, CALL)),
        "uniform_rows": int(uniform.sum()),
        "rows": int(held.sum()),
        "kd6c": rows[KD6C].tolist(),
        "node": agent.solution(state, BOARD).subgame.start is not None,
    }


def assert_sound(found: dict, converged: float = CONVERGED_CALL) -> None:
    """At most 3% of the range folds (uniform rows fold 25%, the converged solve 0.87%), the
    call share within 5 points of the converged one, no row uniform."""
    assert found["node"] and found["actions"][:2] == ["f", "c"], found
    assert found["uniform_rows"] == 0, found
    assert found["fold"] <= 0.03, found
    assert abs(found["call"] - converged) <= 0.05, found
    assert max(found["kd6c"]) > 0.5, found  # top pair, not a quarter on each action


@pytest.mark.parametrize("options, converged", [("resolve:", CONVERGED_CALL),
                                                (DEFAULT_RESOLVE, CONVERGED_CALL_SEEING_THE_TURN)])
def test_a_short_budget_still_answers_the_off_tree_bet_with_a_sound_strategy(options, converged):
    """The library's ``resolve:`` and the app's default, whose flop solve sees the turn."""
    assert_sound(facing_the_bet(thinking_bot(name=f"{options}{BLUEPRINT}")), converged)


def run_child(code: str, cache: Path | None = None, timeout: float = 1500.0) -> dict:
    """``code`` (which prints one JSON line last) in a fresh interpreter; with ``cache`` (an
    empty folder) as its numba cache, every kernel compiles on its first use, as after an
    install."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_first_answer_after_an_install_is_sound_while_its_kernels_compile(tmp_path):
    """The compile takes tens of seconds of the solves' budgets: the floor still runs."""
    found = run_child(
        "import json\n"
        "from tests.test_resolve_floor import facing_the_bet, thinking_bot\n"
        "print(json.dumps(facing_the_bet(thinking_bot())))\n",
        tmp_path / "numba",
    )
    assert_sound(found)


def test_solves_their_own_check_finds_worse_than_the_base_agent_are_replaced_by_its_play():
    """One iteration a solve (``iterations=1``, no clock): the turn's range-only solve and the
    node's re-solve facing the 1 bb bet are each worse than the blueprint's play by their own
    check, so the bot plays the blueprint's policy (its translation of the bet included)."""
    agent = make_agent(f"resolve(iterations=1):{BLUEPRINT}", CONFIG)
    assert isinstance(agent, ResolvingAgent) and agent.max_iterations == 1
    facing = play_to(agent, FACING)
    agent.policy(facing, BOARD)
    node = agent.solution(facing, BOARD)
    turn = agent.solution(replay(TURN, CONFIG), BOARD)
    assert node.subgame.start is not None and node.iterations == 1
    assert turn.subgame.start is None and turn.iterations == 1

    # the premise, from the pieces: the one-iteration gadget solve lets some opponent hand
    # gain more over its alternative (its best action in the turn's tree) than the
    # blueprint's answer does; on the turn the opponent's best response wins more in total
    # against the one-iteration solve than against the blueprint's play
    sub, opponent = node.subgame, SPOT_PLAYER_OF_SEAT[1 - BOT]
    before = line(facing)[-1][0]
    entry = turn.subgame.game.nodes[turn.subgame.node_of(before)]
    values = alternatives(turn.subgame.game, turn.strategy, entry, opponent, sub.game)
    one, _ = safe_resolve(sub, BOT, values, 1, gadget=agent.gadget)
    base = blueprint_strategy(sub, agent.base)
    live = sub.game.hand_weights(opponent) > 0
    worst = {name: float((opponent_values(sub, s, opponent) - values)[live].max())
             for name, s in (("solve", one), ("base", base))}  # fmt: skip
    assert worst["solve"] > worst["base"] + 0.01 * sub.game.pot, worst
    street = turn.subgame
    weights = street.game.hand_weights(opponent)
    solver = make_solver(street.game, "dcfr")
    solver.run(iterations=1)
    total = {name: float(weights @ opponent_values(street, s, opponent))
             for name, s in (("solve", solver.average_strategy()),
                             ("base", blueprint_strategy(street, agent.base)))}  # fmt: skip
    assert total["solve"] > total["base"] + 0.01 * street.game.pot, total

    assert node.fell_back and turn.fell_back and agent.fallbacks >= 2
    # what the bot plays is the blueprint's policy, action kind by action kind, for every
    # hand it can hold (its sizes mapped to the re-solve tree's)
    for state, solution in ((facing, node), (replay(TURN, CONFIG), turn)):
        own = agent.policy(state, BOARD[: state.board_cards_needed])
        theirs = agent.base.policy(state, BOARD[: state.board_cards_needed])
        combos = solution.subgame.game.hand_combos[SPOT_PLAYER_OF_SEAT[BOT]]
        for kind in (FOLD, CALL, RAISE):
            np.testing.assert_allclose(shares(own.probabilities[combos], own.actions, kind),
                                       shares(theirs.probabilities[combos], theirs.actions,
                                              kind), atol=1e-9)  # fmt: skip


WARM_UP_THEN_PLAY = """
import json, sys
from numba.core.registry import CPUDispatcher
from tests.test_resolve_floor import CONFIG, facing_the_bet, panel_values, thinking_bot

def signatures():
    return {f"{name}.{attr}": {str(s) for s in value.signatures}
            for name, module in list(sys.modules.items()) if name.startswith("solvers")
            for attr, value in list(vars(module).items()) if isinstance(value, CPUDispatcher)}

agent = thinking_bot(5.0)
seconds = agent.warm_up(CONFIG)
before = signatures()
panel_values(agent)
found = facing_the_bet(agent)
after = signatures()
missed = sorted(k for k in after if after[k] - before.get(k, set()))
print(json.dumps({"seconds": seconds, "missed": missed, "found": found}))
"""


def panel_values(agent: ResolvingAgent) -> None:
    """The live panel's values for the button (holding Ah Jh) on the flop after the bot's
    check, and on the turn after its check with the 1 bb bet valued off the tree."""
    hole = (parse_cards("Ah")[0], parse_cards("Jh")[0])
    for betting, cards in (("r300c/c", 3), ("r300c/cr600c/c", 4)):
        state = replay(betting, CONFIG)
        board = BOARD[:cards]
        found = resolved_values(bot_solution(agent, state, board), state, hole)
        assert found is not None
        bet = Action(RAISE, state.committed[0] + CONFIG.big_blind)
        off_tree_values(agent, found, state, board, hole, (bet,))


def test_the_warm_up_loads_every_kernel_the_hand_and_the_panel_use():
    """After ``warm_up`` in a fresh process, the hand (each street's solve, the flop solved
    again after an off-tree bet, the turn's node re-solve, their checks) and the panel's values
    add no kernel signature: none is compiled, or loaded from the numba cache, that the warm-up
    did not load (a signature counts either way, so the check holds on a cold or a warm cache;
    the cold compile is the test above); the warm-up says how long it took."""
    result = run_child(WARM_UP_THEN_PLAY)
    assert result["missed"] == [], result["missed"]
    assert result["seconds"] > 0
    assert_sound(result["found"])
