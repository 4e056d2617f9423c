"""The full-game bot facing an off-tree bet or raise: re-solved from the node (both bots'
answer now) against the street solved again from its start with the bet added (before).

Two lines, at 100 bb on ``Ks 7h 2d 9c (4s)``, earlier streets played by the blueprint:

- ``bot bets``: the big blind (the bot) opens the turn or river with its re-solve's smallest
  bet and the button raises to ``--raises`` times it, a size the tree may lack (the turn's
  default tree raises pot or all-in, the one before it all-in only; the river's 60% or
  all-in; a raise the tree holds is listed as such and not measured);
- ``lead``: the big blind (the opponent) opens with ``--leads`` times the pot, which the tree
  lacks, before the button (the bot) has acted.

Answers compared:

- ``node``: the rest of the hand from the node facing the bet, the bot's play kept (its range
  is its reach there), the opponent's whole range before the bet behind the resolve gadget,
  alternatives its best response against the street's solution from the node before the bet
  (``ResolvingAgent._solve_node``; for a lead, the street's own solve is made first and each
  gets half the budget);
- ``street``: the street solved again from its start with the bet in the tree (through the
  gadget with blueprint alternatives for the safe bot, from ranges alone for the range-only
  one), the bot's own earlier action solved again too, then read at the node.
- ``translated``: the blueprint alone, its answer to the nearest tree size played in the node's
  subgame (``safe_resolve.blueprint_strategy``), what the bot plays without re-solving.

Each answer is measured in the node's subgame with the bot's real range there against the
opponent's whole range before the bet: per opponent hand, what its best response wins after
the bet beyond its alternative. ``gains`` is what an opponent who makes the bet with exactly
the hands that gain by it wins by it, over its whole range; ``worst hand`` is the largest single
gain; both in % of the street's starting pot. A bound the gadget can meet is 0 for both; an
off-tree size can make it unattainable (a raise smaller than the tree's all-in lets bluffs risk
less while value hands are called wider).

On the turn each line is measured with each of ``--trees`` (``TURN_TREES``: by default the
tree before the pot raise and the default tree), which changes both the street's solve the bot
bets from and the alternatives its node re-solve keeps.

Run: ``python benchmarks/bench_node_resolve.py [--streets 2,3] [--raises 2,3] [--leads 1.3]
[--trees small-river,pot-raise] [--gadgets resolve,maxmargin] [--iterations N]``.
``--gadgets``: the node re-solve's gadget (``safe_resolve.GADGETS``); resolve minimises the
raise's gains summed over the opponent's hands, maxmargin its worst hand. ``--iterations``:
no clock, every solve stops at its target or after N iterations.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from solvers.agents.registry import make_agent, resolve_options  # noqa: E402
from solvers.agents.resolving import (  # noqa: E402
    DEFAULT_SIZES,
    TURN_TREES,
    ResolvingAgent,
    Solution,
)
from solvers.agents.safe_resolve import (  # noqa: E402
    GADGETS,
    blueprint_strategy,
    opponent_values,
)
from solvers.agents.spot_lines import alternatives, positions  # noqa: E402
from solvers.agents.subgame import SPOT_PLAYER_OF_SEAT  # noqa: E402
from solvers.cards.deck import parse_cards  # noqa: E402
from solvers.errors import InputError  # noqa: E402
from solvers.games.base import Strategy  # noqa: E402
from solvers.games.hunl.rules import CALL, RAISE, Action, HunlConfig, replay  # noqa: E402

SPOTS = (
    ("srp", "r250c/cr400c/", "Ks 7h 2d 9c"),
    ("3bet", "r250r750c/cc/", "Ks 7h 2d 9c"),
    ("srp", "r250c/cr400c/cc/", "Ks 7h 2d 9c 4s"),
    ("3bet", "r250r750c/cc/cc/", "Ks 7h 2d 9c 4s"),
)


def in_node_game(street: Solution, node: Solution, state) -> Strategy:
    """``street``'s rows (a street-start solve) for the bot below ``state``, on ``node``'s tree
    (the same sizes from there on), the opponent's rows left as ``node``'s."""
    old, new = street.subgame.game, node.subgame.game
    prefix = old.nodes[street.subgame.node_of(state)].key
    keys = {n.key: n for n in old.nodes}
    bot = new.root.player
    index = positions(old, bot, new.hand_combos[bot])
    assert (index >= 0).all()
    strategy = dict(node.strategy)
    for n in new.nodes:
        if n.is_decision and n.player == bot:
            match = keys[f"{prefix}/{n.key}" if n.key else prefix]
            assert match.tokens == n.tokens, (match.tokens, n.tokens)
            strategy[n.id] = street.strategy[match.id][index]
    return strategy


def measure(node: Solution, strategy: Strategy, values: np.ndarray) -> tuple[float, float]:
    """(raise gains, worst hand) in % of the street's starting pot."""
    sub = node.subgame
    player = 1 - sub.game.root.player
    gain = opponent_values(sub, strategy, player) - values
    weights = sub.game.hand_weights(player)
    pot = sub.game.pot
    live = weights > 0
    total = float(weights @ np.maximum(gain, 0.0)) / float(weights.sum())
    return 100.0 * total / pot, 100.0 * float(gain[live].max()) / pot


def compare(bot: ResolvingAgent, root, board: np.ndarray, factor: float, pot: str) -> list[dict]:
    """The bot bets at ``root``, is raised to ``factor`` times its bet: its node re-solve and
    its street re-solve, measured against the alternatives of the street solve it bet from."""
    bets = [a for a in bot.policy(root, board).actions if a.kind == RAISE]
    bet = root.apply(bets[0])
    state = bet.apply(Action(RAISE, int(factor * bet.committed[1])))
    row = {"pot": pot, "street": "turn" if root.street == 2 else "river", "line": "bot bets",
           "bet to": bets[0].to, "off-tree to": state.committed[0]}  # fmt: skip
    return answers(bot, bet, state, board, root, row)


def compare_lead(bot: ResolvingAgent, root, board: np.ndarray, factor: float,
                 pot: str) -> list[dict]:  # fmt: skip
    """The opponent opens the street at ``root`` with ``factor`` times the pot, the bot not
    having acted: the street's own solve then the node's, against the street re-solved with
    the bet added."""
    state = root.apply(Action(RAISE, int(root.committed[0] + factor * root.pot)))
    row = {"pot": pot, "street": "turn" if root.street == 2 else "river", "line": "lead",
           "bet to": None, "off-tree to": state.committed[root.to_act]}  # fmt: skip
    return answers(bot, root, state, board, root.apply(Action(CALL)), row)


def answers(bot: ResolvingAgent, before, state, board: np.ndarray, probe, row: dict) -> list[dict]:
    """The bot's node answer at ``state`` (the opponent's off-tree action at ``before``) and
    the street re-solve with that action added; ``probe``: a decision of the bot's on the
    street's own solve, which gives the alternatives."""
    started = time.perf_counter()
    node = bot.solution(state, board)
    seconds = {"node": time.perf_counter() - started}
    if node.subgame.start is None:  # the tree holds the size: the street's solve answers
        return [{**row, "bot": "safe" if bot.safe else "range-only", "answer": "in the tree"}]
    known = bot.solution(probe, board)
    game = known.subgame.game
    entry = game.nodes[known.subgame.node_of(before)]
    player = SPOT_PLAYER_OF_SEAT[before.to_act]
    values = alternatives(game, known.strategy, entry, player, node.subgame.game)
    started = time.perf_counter()
    budget = bot.seconds[state.street]
    street = bot._solve(state, board, state.to_act, budget)  # noqa: SLF001 - the old answer
    seconds["street"] = time.perf_counter() - started
    rows = []
    found = {"node": (node, node.strategy), "street": (street, in_node_game(street, node, state)),
             "translated": (None, blueprint_strategy(node.subgame, bot.base))}  # fmt: skip
    for label, (solved, strategy) in found.items():
        gains, worst = measure(node, strategy, values)
        rows.append({**row, "bot": "safe" if bot.safe else "range-only", "answer": label,
                     "seconds": seconds.get(label),
                     "iterations": getattr(solved, "iterations", None),
                     "gains % pot": gains, "worst hand % pot": worst})  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot", default="strategies/hunl_100bb.npz")
    parser.add_argument("--streets", default="2,3")
    parser.add_argument("--raises", default="2,3", help="raise to this many times the bet")
    parser.add_argument("--leads", default="1.3", help="the opponent leads this many pots")
    parser.add_argument("--trees", default="small-river,pot-raise",
                        help=f"turn trees to compare, of {', '.join(TURN_TREES)}")  # fmt: skip
    parser.add_argument("--gadgets", default="resolve",
                        help=f"the node re-solve's gadgets to compare, of {', '.join(GADGETS)}")
    parser.add_argument("--iterations", type=int,
                        help="solves stop at this many iterations or their target, no clock "
                        "(the evaluation runs' bot: the same answers under any load)")
    args = parser.parse_args()
    try:
        capped = (resolve_options(f"iterations={args.iterations}") if args.iterations
                  else {"max_iterations": None})  # the clock alone  # fmt: skip
    except InputError as error:
        parser.error(str(error))
    config = HunlConfig(100)
    blueprint = make_agent(args.bot, config)
    streets = {int(s) for s in args.streets.split(",")}
    trees = [t for t in args.trees.split(",") if t]
    unknown = [t for t in trees if t not in TURN_TREES]
    if unknown:
        parser.error(f"--trees: no tree {unknown[0]!r} (use {', '.join(TURN_TREES)})")
    gadgets = [g for g in args.gadgets.split(",") if g]
    if not gadgets or any(g not in GADGETS for g in gadgets):
        parser.error(f"--gadgets: choose from {', '.join(GADGETS)}")
    rows = []
    for pot_type, betting, board_text in SPOTS:
        board = np.array(parse_cards(board_text))
        street = len(board) - 2
        if street not in streets:
            continue
        for tree in trees if street == 2 else ["default"]:
            sizes = {**DEFAULT_SIZES, **({2: TURN_TREES[tree]} if street == 2 else {})}

            for gadget in gadgets:

                def bot(safe: bool, street=street, sizes=sizes, gadget=gadget) -> ResolvingAgent:
                    return ResolvingAgent(blueprint, streets=(street,), safe=safe, sizes=sizes,
                                          gadget=gadget, **capped)  # fmt: skip

                found = []
                for factor in [float(f) for f in args.raises.split(",") if f]:
                    for safe in (True, False):
                        found += compare(bot(safe), replay(betting, config), board, factor,
                                         pot_type)  # fmt: skip
                for factor in [float(f) for f in args.leads.split(",") if f]:
                    for safe in (True, False):
                        found += compare_lead(bot(safe), replay(betting, config), board, factor,
                                              pot_type)  # fmt: skip
                rows += [{"tree": tree, "gadget": gadget, **r} for r in found]
    budgets = f"{args.iterations} iterations" if args.iterations else "default budgets"
    print_rows(f"facing an off-tree bet or raise ({budgets})", rows)


if __name__ == "__main__":
    main()
