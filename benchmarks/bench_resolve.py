"""The re-solving bot's decision time per street, beside the blueprint it re-solves over.

First, fixed single-raised and 3-bet pots at 100 bb at the start of the flop, the turn and the
river (the blueprint's ranges; ``--repeats`` solves each, the bots of a spot interleaved so that
the machine's load falls on them alike; medians): wall and CPU seconds against the issue's
budgets (flop 15 s, turn 5 s, river 0.5 s), iterations, the exploitability reached in % of the
street's starting pot against the target (``--flop-target``, ``--target``), the exploitability
known at a third and two thirds of the budget, and memory (the tree's estimate, the process's
peak, the strategy a solution keeps). Compared: the flop's two trees (``FLOP_TREES``; on the
clock, or to ``--flop-iterations`` with no clock, which compares them by CPU time under any
load), the turn before (two-street tree, checks every 10 iterations), then with spaced checks
over the small river and an all-in raise only, and the default (the same with a pot raise too),
and with ``--safe`` the resolve and maxmargin gadgets on turn and river. For turn
and river the opponent's exact best response against each solve is compared with its best
response against the blueprint's play of the same subgame: its total gain and its best hand's
gain, in % of the pot (the safe solve's bound is 0 for both; "fallbacks" counts safe solves
replaced by the blueprint's play).

Then hands are dealt with a fixed seed and played to the end: the re-solving bot
(``resolve:FILE``, ``--flop`` to re-solve the flop too) against the blueprint (``FILE``), seats
alternating. Each of the re-solving bot's decisions is timed (``policy`` then the sampled
action: ranges, subgame, solve), grouped by street and by pot type (single-raised or 3-bet+,
from the preflop raises); a decision that reuses the street's solution is a cache hit and is
timed too; "with earlier" counts decisions that also had to solve an earlier street of the hand
(its ranges need the bot's policy there). For each solve the iterations and the exploitability
reached are listed; a safe solve lists instead the opponent's best-response gain over the
blueprint. The blueprint's own decision time is in the same table.

Run: ``.venv/bin/python benchmarks/bench_resolve.py [--bot strategies/hunl_100bb.npz]
[--hands N] [--streets 1,2,3] [--repeats 3] [--target PCT] [--flop-target PCT]
[--flop-iterations N] [--flop-trees checkdown,allin,bet-allin] [--flop-sample K] [--safe]
[--flop]``.
"""

from __future__ import annotations

import argparse
import math
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from solvers.agents.registry import make_agent  # noqa: E402
from solvers.agents.resolving import FLOP_TREES, TURN_TREES, ResolvingAgent  # noqa: E402
from solvers.agents.safe_resolve import blueprint_strategy, opponent_values  # noqa: E402
from solvers.agents.subgame import SPOT_PLAYER_OF_SEAT  # noqa: E402
from solvers.cards.deck import COMBO_INDEX, parse_cards  # noqa: E402
from solvers.games.hunl.rules import (  # noqa: E402
    BOARD_CARDS,
    STREET_NAMES,
    HunlConfig,
    HunlState,
    replay,
)


def play(bot: ResolvingAgent, blueprint, hands: int, seed: int) -> tuple[list, list]:
    rng = np.random.default_rng(seed)
    config = HunlConfig(100)
    rows, solves = [], []
    for hand in range(hands):
        cards = rng.permutation(52)[:9]
        combos = (COMBO_INDEX[cards[0], cards[1]], COMBO_INDEX[cards[2], cards[3]])
        board_all = cards[4:9]
        bot_seat = hand % 2
        state = HunlState.initial(config)
        while not state.is_over and state.street < 4:
            board = board_all[: BOARD_CARDS[state.street]]
            seat = state.to_act
            agent = bot if seat == bot_seat else blueprint
            before = bot.solves
            started = time.perf_counter()
            action = agent.act(state, board, int(combos[seat]), rng)
            took = time.perf_counter() - started
            pot_type = "3bet+" if state.history[0].count("r") >= 2 else "srp"
            who = "resolve" if agent is bot else "blueprint"
            rows.append((who, state.street, pot_type, took, bot.solves - before))
            if agent is bot and bot.solves == before + 1:
                solution = bot.solution(state, board)
                solves.append((state.street, pot_type, solution))
            state = state.apply(action)
    return rows, solves


FIXED_SPOTS = (
    ("srp", "r250c/", "Ks 7h 2d"),
    ("3bet", "r250r750c/", "Ks 7h 2d"),
    ("srp", "r250c/cc/", "Ks 7h 2d 9c"),
    ("3bet", "r250r750c/cc/", "Ks 7h 2d 9c"),
    ("srp", "r250c/cc/cc/", "Ks 7h 2d 9c 4s"),
    ("3bet", "r250r750c/cc/cc/", "Ks 7h 2d 9c 4s"),
)
"""Single-raised and 3-bet pots at 100 bb, checked to the flop, turn or river on one board: the
blueprint's ranges there, the street solved alone (earlier streets by the blueprint)."""
BUDGETS = {1: 15.0, 2: 5.0, 3: 0.5}
"""The issue's budgets per street, seconds."""


def variants(street: int, safe: bool, flop_iterations: int | None,
             flop_trees: tuple[str, ...] = tuple(FLOP_TREES), flop_sample: int = 0
             ) -> list[tuple[str, dict]]:  # fmt: skip
    """The bots compared on a street: (label, ResolvingAgent keywords), the default last."""
    if street == 1:  # the flop trees, on the clock or to an iteration count
        cap = {"max_iterations": flop_iterations, "seconds": {1: math.inf}}
        found = [(f"tree {name}", {"sizes": {1: FLOP_TREES[name]}}) for name in flop_trees]
        if flop_sample:
            found.append((f"tree turn, {flop_sample} of 49 cards sampled",
                          {"sizes": {1: FLOP_TREES["turn"]}, "flop_sample": flop_sample}))
        return [(label, {**options, **(cap if flop_iterations else {})})
                for label, options in found]  # fmt: skip
    if street == 2:
        two = {"sizes": {2: TURN_TREES["two-street"]}}
        allin = {"sizes": {2: TURN_TREES["small-river"]}}
        found = [("before: two-street, checks every 10", {**two, "check_growth": 0.0}),
                 ("small river, all-in raise only", allin),
                 ("default (small river, pot and all-in raises)", {})]  # fmt: skip
    else:
        found = [("default", {})]
    gadgets = [("safe, resolve gadget", {"safe": True, "gadget": "resolve"}),
               ("safe, maxmargin (resolve-safe:)", {"safe": True, "gadget": "maxmargin"})]
    return found + (gadgets if safe else [])


def against_blueprint(solution, blueprint, me: int) -> tuple[float | None, float | None]:
    """What the opponent's exact best response wins against the solution less what it wins
    against the blueprint's play of the same subgame, in % of the pot: in total over its range,
    and for its hand that gains most (the first repeat's solve; turn and river only)."""
    sub = solution.subgame
    if sub.root.street == 1:
        return None, None
    opponent = SPOT_PLAYER_OF_SEAT[1 - me]
    values = opponent_values(sub, blueprint_strategy(sub, blueprint), opponent)
    diff = opponent_values(sub, solution.strategy, opponent) - values
    weights = sub.game.hand_weights(opponent)
    pot = sub.game.pot
    return 100.0 * float(weights @ diff) / pot, 100.0 * float(diff[weights > 0].max()) / pot


def fixed_spots(blueprint, streets: set[int], targets: dict[int, float], safe: bool,
                repeats: int, flop_iterations: int | None = None,
                board_text: str | None = None,
                flop_trees: tuple[str, ...] = tuple(FLOP_TREES),
                flop_sample: int = 0) -> list[dict]:  # fmt: skip
    """Each spot's bots solved ``repeats`` times, interleaved (repeat by repeat, every bot once)
    so that the machine's load falls on all of them alike; medians."""
    config = HunlConfig(100)
    rows = []
    for pot_type, betting, fixed in FIXED_SPOTS:
        if betting.count("/") not in streets:
            continue
        state = replay(betting, config)
        cards = fixed.split() if board_text is None else board_text.split()
        board = np.array(parse_cards(" ".join(cards[: len(fixed.split())])))
        street = state.street
        bots = variants(street, safe, flop_iterations, flop_trees, flop_sample)
        took: dict[str, list[float]] = {label: [] for label, _ in bots}
        solutions: dict[str, list] = {label: [] for label, _ in bots}
        cpus: dict[str, list[float]] = {label: [] for label, _ in bots}
        trace: dict[str, str] = {}
        fallbacks = dict.fromkeys(took, 0)
        peak = {}
        marks = (BUDGETS[street] / 3, 2 * BUDGETS[street] / 3)
        early: dict[str, list[list[float]]] = {label: [[], []] for label, _ in bots}
        for _ in range(repeats):
            for label, options in bots:
                seen: list = []
                bot = ResolvingAgent(blueprint, target_pct=targets[street], streets=(street,),
                                     progress=seen.append,
                                     **{"max_iterations": None, **options})  # fmt: skip
                started, cpu = time.perf_counter(), time.process_time()
                bot.policy(state, board)
                took[label].append(time.perf_counter() - started)
                cpus[label].append(time.process_time() - cpu)
                solutions[label].append(bot.solution(state, board))
                fallbacks[label] += bot.fallbacks
                peak[label] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                if street == 1 and label not in trace:  # the flop's checks, first repeat
                    checks = [t for k, t in enumerate(seen) if math.isfinite(t.exploitability_pct)
                              and (k == 0 or t.exploitability_pct != seen[k - 1]
                                   .exploitability_pct)]  # fmt: skip
                    trace[label] = " ".join(f"{t.iterations}:{t.exploitability_pct:.3g}"
                                            for t in checks)  # fmt: skip
                for k, mark in enumerate(marks):  # the last check before a third of the budget
                    known = [t.exploitability_pct for t in seen if t.seconds <= mark
                             and math.isfinite(t.exploitability_pct)]  # fmt: skip
                    early[label][k].append(known[-1] if known else math.nan)
        for label, _ in bots:
            mine = solutions[label]
            game = mine[0].subgame.game
            gain, excess = against_blueprint(mine[0], blueprint, state.to_act)
            rows.append({
                "street": STREET_NAMES[street], "pot": pot_type, "bot": label,
                "median s": statistics.median(took[label]), "budget s": BUDGETS[street],
                "median cpu s": statistics.median(cpus[label]),
                "median iterations": statistics.median(s.iterations for s in mine),
                "median expl %pot": statistics.median(s.exploitability_pct for s in mine),
                "expl at 1/3": statistics.median(early[label][0]),
                "expl at 2/3": statistics.median(early[label][1]),
                "target %pot": targets[street],
                "opp gain %pot": gain, "max hand excess %pot": excess,
                "fallbacks": fallbacks[label],
                "nodes": len(game.nodes), "estimate MB": round(game.memory_estimate_mb),
                "peak RSS MB": round(peak[label]),
                "kept MB": round(sum(a.nbytes for a in mine[0].strategy.values()) / 2**20),
                "checks it:expl": trace.get(label, ""),
            })  # fmt: skip
            print_rows("", rows[-1:])  # progress: one row as it is measured
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="strategies/hunl_100bb.npz")
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=float, default=1.0, help="turn and river, %% of the pot")
    parser.add_argument("--flop-target", type=float, default=5.0, help="%% of the pot")
    parser.add_argument("--flop-iterations", type=int, help="flop solves to this many iterations"
                        " (no clock: compares the trees by CPU time under any load)")
    parser.add_argument("--streets", default="1,2,3", help="fixed spots of these streets")
    parser.add_argument("--flop-trees", default=",".join(FLOP_TREES),
                        help="the flop trees compared (FLOP_TREES)")  # fmt: skip
    parser.add_argument("--flop-sample", type=int, default=0, help="adds the flop tree that "
                        "plays the turn with this many of its 49 turn cards drawn an iteration")
    parser.add_argument("--safe", action="store_true", help="turn and river through the gadget")
    parser.add_argument("--flop", action="store_true", help="the played hands re-solve the flop")
    parser.add_argument("--repeats", type=int, default=3, help="solves per fixed spot")
    parser.add_argument("--board", help="five cards for the fixed spots instead of "
                        "Ks 7h 2d 9c 4s (the flop, turn and river spots take 3, 4 and 5)")
    args = parser.parse_args()
    config = HunlConfig(100)
    blueprint = make_agent(args.bot, config)
    targets = {1: args.flop_target, 2: args.target, 3: args.target}
    wanted = {int(s) for s in args.streets.split(",") if s}
    if args.board is not None and len(set(args.board.split())) != 5:
        parser.error("--board takes five different cards, such as 'Ah 8d 5c 5s Jd'")
    flop_trees = tuple(args.flop_trees.split(","))
    if not set(flop_trees) <= set(FLOP_TREES):
        parser.error(f"--flop-trees: choose among {', '.join(FLOP_TREES)}")
    spots = fixed_spots(blueprint, wanted, targets, args.safe, args.repeats, args.flop_iterations,
                        args.board, flop_trees, args.flop_sample)  # fmt: skip
    print_rows("fixed spots: one decision at the street's start, solved alone, medians", spots)
    streets = (1, 2, 3) if args.flop else (2, 3)
    gadget = {"gadget": "maxmargin"} if args.safe else {}  # the registry's resolve-safe: bot
    bot = ResolvingAgent(blueprint, target_pct=args.target, safe=args.safe, streets=streets,
                         max_iterations=None, **gadget)  # fmt: skip
    rows, solves = play(bot, blueprint, args.hands, args.seed)
    table = []
    for who in ("blueprint", "resolve"):
        for street in range(4):
            for pot_type in ("srp", "3bet+"):
                times = [r[3] for r in rows if r[:3] == (who, street, pot_type)]
                if not times:
                    continue
                fresh = [r[3] for r in rows if r[:3] == (who, street, pot_type) and r[4] == 1]
                nested = sum(1 for r in rows if r[:3] == (who, street, pot_type) and r[4] > 1)
                table.append({
                    "bot": who, "street": STREET_NAMES[street], "pot": pot_type,
                    "decisions": len(times), "median s": statistics.median(times),
                    "max s": max(times), "solves": len(fresh), "with earlier": nested,
                    "median s/solve": statistics.median(fresh) if fresh else None,
                })  # fmt: skip
    kind = "safe turn and river" if args.safe else "range-only"
    title = f"decision time, {args.hands} hands, target {args.target:g}% of the pot, {kind}"
    print_rows(title, table)
    solved = []
    for street in (1, 2, 3):
        for pot_type in ("srp", "3bet+"):
            mine = [s for st, pt, s in solves if (st, pt) == (street, pot_type)]
            if not mine:
                continue
            solved.append({
                "street": STREET_NAMES[street], "pot": pot_type, "solves": len(mine),
                "median iterations": statistics.median(s.iterations for s in mine),
                "median solve s": statistics.median(s.seconds for s in mine),
                "median expl %pot": statistics.median(s.exploitability_pct for s in mine),
                "max expl %pot": max(s.exploitability_pct for s in mine),
                "max opp gain %pot": max((s.opponent_gain_pct for s in mine
                                          if s.opponent_gain_pct is not None), default=None),
                "median nodes": statistics.median(len(s.subgame.game.nodes) for s in mine),
            })  # fmt: skip
    print_rows("re-solves (build + solve, exploitability reached)", solved)
    if args.safe:
        print(f"safe solves replaced by the blueprint's play: {bot.fallbacks}")


if __name__ == "__main__":
    main()
