"""Which flop re-solve plays better per second: the flop's trees compared by the value of the flop
play each gives, with the turn and river played well (``solvers/agents/locked_value.py``).

For a single-raised and a 3-bet pot at 100 bb on the flop ``Ks 7h 2d`` (the blueprint's ranges
there), each flop tree of the re-solving bot (``FLOP_TREES``: ``checkdown``, a 66% bet and
all-in then checked down, the default; ``allin``, check or all-in on every street; ``turn``,
the default's flop and the turn's 66% and all-in, the river checked down) is solved
for a number of iterations (CPU seconds are printed). One
player's flop strategy from that solve is locked into a common tree (the same flop sizes, then
66% or all-in with an all-in raise on the turn and a 66% river bet, as the turn re-solve's
tree), the rest is solved, and the player's value is bracketed by exact best responses. The
common tree solved with no lock gives the reference value; "cost" is the reference less the
locked value, in % of the flop's pot (the bracket's middles; "± " is half the two brackets'
widths added). The bot's own seat is either player.

``--trees blueprint`` adds the blueprint's own flop play (its policy at every flop decision of
a tree with its flop grammar, ``blueprint_strategy``); its sizes need a common tree holding both
flops' (``--common union``, 1.6M nodes single-raised, about an hour a locked solve here by estimate;
``union-river-checked``, 20k nodes with the river checked down, about 4 minutes).

``--flops 25 --take 10`` measures ten boards of the 25-flop subset stratified by texture
(``pokertui batch flops``' subsets), evenly spaced, each with its own blueprint ranges, and adds
a table over the boards (both seats' costs added per board: mean, largest, how many at most
2%). ``--results F`` appends each finished row to the JSON-lines file ``F``; the same command
again measures only the rows ``F`` lacks, so a long run continues where it stopped, and
``--report`` prints what ``F`` holds.

Run: ``.venv/bin/python benchmarks/bench_flop_value.py [--pots srp,3bet] [--iterations 10,30]
[--trees checkdown,allin,blueprint] [--common resolve] [--seats 0,1] [--target 0.5]
[--max-iterations 80] [--sample 0,5,10] [--flops 25 --take 10] [--results F]``.
``--pots srp --trees checkdown,turn --iterations 30,100`` took 75 minutes on two cores shared
with another job (the reference 19 minutes, each locked solve 7); ``--trees blueprint,checkdown
--iterations 30,100 --common union-river-checked`` takes 80 minutes for both pots.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from solvers.agents.locked_value import (  # noqa: E402
    LockedValue,
    first_street_locks,
    locked_values,
)
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.agents.resolving import FLOP_TREES, TURN_TREES, _street  # noqa: E402
from solvers.agents.safe_resolve import blueprint_strategy  # noqa: E402
from solvers.agents.subgame import bayes_ranges, build_subgame, street_root  # noqa: E402
from solvers.algorithms.base import make_solver  # noqa: E402
from solvers.cards.deck import card_str, parse_cards  # noqa: E402
from solvers.cards.flops import parse_flop_choice  # noqa: E402
from solvers.games.hunl.rules import HunlConfig, replay  # noqa: E402

POTS = {"srp": "r250c/", "3bet": "r250r750c/", "srp-bet40": "r250c/r450",
        "3bet-bet40": "r250r750c/r1350"}  # fmt: skip
"""The lines before the flop's solve: a single-raised and a 3-bet pot, and each with the big
blind's first flop bet of 40% of the pot, a size off every flop tree, added to each tree as the
bot adds a bet it faces (the ranges are those at the flop's start, the bot's root ranges)."""
BOARD = "Ks 7h 2d"
BLUEPRINT_FLOP = {"flop": _street("33%, 75%, a", "75%, a", 2)}
"""The blueprint's flop grammar (``abstraction/betting.py``: 33%, 75% or all-in, then 75% or
all-in, then all-in): its flop play is read at these nodes (``blueprint_strategy``)."""
UNION_FLOP = _street("33%, 66%, 75%, a", "75%, a", 2)
"""A flop holding the re-solve's sizes and the blueprint's."""
COMMONS = {
    "resolve": {"flop": FLOP_TREES["checkdown"]["flop"], **TURN_TREES["pot-raise"]},
    "union": {"flop": UNION_FLOP, **TURN_TREES["pot-raise"]},
    "union-shove": {"flop": UNION_FLOP, "turn": _street("a", "", 0), "river": _street("a", "", 0)},
    "union-river-checked": {"flop": UNION_FLOP, "turn": _street("66%, a", "a", 1),
                            "river": _street("", "", 0)},  # fmt: skip
}
"""Common trees: the default flop's sizes, then the turn re-solve's turn and river (the default,
for the re-solve's trees); for the blueprint's flop beside them, both flops' sizes, then the
turn re-solve's streets (1.6M nodes single-raised), or check or all-in on the turn and river
(411k), or the turn's 66% and all-in with the river checked down (20k)."""
SEATS = {0: "OOP (big blind)", 1: "IP (button)"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="strategies/hunl_100bb.npz")
    parser.add_argument("--pots", default="srp,3bet")
    parser.add_argument("--iterations", default="10,30")
    parser.add_argument("--trees", default=",".join(FLOP_TREES),
                        help="flop trees, and 'blueprint' for the blueprint's own flop play")
    parser.add_argument("--common", default="resolve", choices=sorted(COMMONS))
    parser.add_argument("--seats", default="0,1", help="the bot's spot players: 0 OOP, 1 IP")
    parser.add_argument("--target", type=float, default=0.5, help="bracket width, %% of the pot")
    parser.add_argument("--max-iterations", type=int, default=80)
    parser.add_argument("--sample", default="0",
                        help="turn cards the trees' solves walk an iteration (0: all), one "
                        "solve of each tree per number: 0,5,10")
    parser.add_argument("--flops", default=None,
                        help="boards from a flop subset (25, 49, ...: stratified by texture, "
                        "as 'pokertui batch flops --flops') instead of the one benchmark flop")
    parser.add_argument("--take", type=int, default=None,
                        help="with --flops: this many of its boards, evenly spaced")
    parser.add_argument("--results", type=Path, default=None,
                        help="keep every finished row in this JSON-lines file; run again, the "
                        "rows it holds are not measured again")
    parser.add_argument("--report", action="store_true",
                        help="with --results: print its tables and measure nothing")
    args = parser.parse_args()
    config = HunlConfig(100)
    blueprint = make_agent(args.bot, config)
    budgets = [int(x) for x in args.iterations.split(",")]
    seats = tuple(int(x) for x in args.seats.split(","))
    boards = [BOARD]
    if args.flops:
        flops = parse_flop_choice(args.flops)
        if args.take:
            flops = tuple(flops[i] for i in np.linspace(0, len(flops) - 1, args.take).astype(int))
        boards = [" ".join(card_str(c) for c in flop.cards) for flop in flops]
    done_rows = _read_results(args.results)
    rows = list(done_rows.values())

    def keep(row: dict) -> None:
        done_rows[_key(row)] = row
        rows.append(row)
        print_rows("", [row])
        if args.results is not None:
            with args.results.open("a") as out:
                out.write(json.dumps(row) + "\n")

    for board_text in [] if args.report else boards:
        for pot_name in args.pots.split(","):
            _measure_board(board_text, pot_name, args, blueprint, config, budgets, seats,
                           done_rows, keep)  # fmt: skip
    print_rows("Flop trees by the value of their flop play (cost: % of the flop's pot)", rows)
    if len(boards) > 1 or args.report:
        print_rows("Over the boards (cost: % of the flop's pot, both seats added)",
                   _over_boards(rows, seats))  # fmt: skip


def _measure_board(board_text, pot_name, args, blueprint, config, budgets, seats, done, keep):
    """The reference and every tree's rows of one board and pot not in ``done``."""
    key = (board_text, pot_name)

    def missing(label: str, budget, players=seats) -> tuple[int, ...]:
        return tuple(p for p in players if (*key, label, budget, p) not in done)

    def budgets_of(name: str) -> list:
        return ["-"] if name == "blueprint" else budgets

    if not any(missing(_label(name, sample), budget)
               for name in args.trees.split(",") for sample in _samples(name, args)
               for budget in budgets_of(name)):  # fmt: skip
        return
    state = replay(POTS[pot_name], config)
    board = np.array(parse_cards(board_text))
    ranges = bayes_ranges(street_root(state), board, (blueprint, blueprint))
    common = build_subgame(state, board, ranges, COMMONS[args.common]).game
    pot = float(common.pot)
    print(f"{board_text} {pot_name}: common tree {len(common.nodes):,} nodes, pot {pot:g}",
          flush=True)  # fmt: skip
    reference = {}
    if not missing(REFERENCE, "-", (0, 1)):
        for p in (0, 1):
            row = done[(*key, REFERENCE, "-", p)]
            reference[p] = LockedValue(p, row["low"], row["high"], row["locked iterations"],
                                       row["locked s"])  # fmt: skip
    else:
        reference = locked_values(common, {}, (0, 1), args.target, 4 * args.max_iterations)
        for p, ref in reference.items():
            keep(_row(board_text, pot_name, REFERENCE, "-", p, None, ref, ref, pot))
    for name in args.trees.split(","):
        if name == "blueprint":
            todo = missing(name, "-")
            if not todo:
                continue
            sub = build_subgame(state, board, ranges, BLUEPRINT_FLOP)
            strategy = blueprint_strategy(sub, blueprint)
            for p, got in _locked(sub.game, strategy, common, todo, args):
                keep(_row(board_text, pot_name, name, "-", p, None, got, reference[p], pot))
            continue
        sub = build_subgame(state, board, ranges, FLOP_TREES[name]).game
        for sample in _samples(name, args):
            label = _label(name, sample)
            if not any(missing(label, budget) for budget in budgets):
                continue
            solver = make_solver(sub, "dcfr", sample=sample)
            ran, spent = 0, 0.0
            for budget in budgets:
                cpu = time.process_time()
                solver.run(iterations=budget - ran)
                spent += time.process_time() - cpu  # the solve alone, not the locked ones
                ran = budget
                strategy = solver.average_strategy()
                for p, got in _locked(sub, strategy, common, missing(label, budget), args):
                    keep(_row(board_text, pot_name, label, budget, p, spent, got,
                              reference[p], pot))  # fmt: skip
            sub.derived.clear()


REFERENCE = "none (reference)"
SAMPLED_TREES = ("turn",)
"""Flop trees with chance below their flop (the others' solves have nothing to sample)."""


def _samples(name: str, args) -> list[int]:
    if name not in SAMPLED_TREES:
        return [0]
    return [int(x) for x in args.sample.split(",")]


def _label(name: str, sample: int) -> str:
    return f"{name}, {sample} cards sampled" if sample else name


def _key(row: dict) -> tuple:
    return (row["board"], row["pot"], row["flop tree"], row["iterations"], row["player"])


def _read_results(path: Path | None) -> dict[tuple, dict]:
    """The rows a ``--results`` file holds, by board, pot, tree, iterations and seat."""
    if path is None or not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {_key(row): row for row in rows}


def _over_boards(rows: list[dict], seats: tuple[int, ...] = (0, 1)) -> list[dict]:
    """Per pot, tree and iterations: the ``seats``' costs added on each board that has them
    all, then their mean, the largest, and the boards measured."""
    by_seat: dict[tuple, dict[int, float]] = {}
    for row in rows:
        if row["flop tree"] != REFERENCE and row["player"] in seats:
            group = (row["pot"], row["flop tree"], row["iterations"], row["board"])
            by_seat.setdefault(group, {})[row["player"]] = row["cost %pot"]
    boards: dict[tuple, list[float]] = {}
    for (*group, _), costs in by_seat.items():
        if set(costs) == set(seats):  # else a seat is still to come
            boards.setdefault(tuple(group), []).append(sum(costs.values()))
    return [
        {"pot": pot, "flop tree": tree, "iterations": budget, "boards": len(costs),
         "mean cost %pot": float(np.mean(costs)), "largest": max(costs),
         "at most 2%": sum(cost <= 2.0 for cost in costs)}
        for (pot, tree, budget), costs in boards.items()
    ]  # fmt: skip


def _locked(source, strategy, common, seats, args):
    """``(seat, value)`` as each seat's locked solve ends: its flop play of ``strategy`` (a
    profile of ``source``) locked into the common tree and the rest solved."""
    for p in seats:
        locks = first_street_locks(source, strategy, common, p)
        yield p, locked_values(common, locks, (p,), args.target, args.max_iterations)[p]


def _row(board, pot_name, tree, budget, player, cpu, got, ref, pot) -> dict:
    cost = 100.0 * (ref.middle - got.middle) / pot
    spread = 100.0 * ((ref.high - ref.low) + (got.high - got.low)) / 2 / pot
    return {
        "board": board, "pot": pot_name, "flop tree": tree, "iterations": budget,
        "solve cpu s": cpu, "bot seat": SEATS[player], "value low %pot": 100.0 * got.low / pot,
        "value high %pot": 100.0 * got.high / pot, "cost %pot": cost, "±": spread,
        "locked iterations": got.iterations, "locked s": got.seconds,
        "player": player, "low": got.low, "high": got.high,
    }  # fmt: skip


if __name__ == "__main__":
    main()
