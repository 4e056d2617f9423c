"""The full-game bot against an opponent its range model is wrong about: what an exact best
response wins from any two cards (a calling station before the street, as LBR plays on the
streets it does not bet) and from exactly the modelled range (an opponent who played as the
model says), against each street re-solve and against the blueprint's own play.

The model is Bayes over the blueprint's play; it rules out every combo the blueprint never
plays that way. The bots compared:

- ``floor F``: re-solved from ranges alone, the opponent's modelled range floored at ``F`` of
  its heaviest combo (``resolve(floor=F)``; 0.05 is the default bot, 1 assumes any two cards);
- ``safe, resolve gadget`` and ``safe, maxmargin``: the safe bot's street solve (the floored
  range weighs the opponent's hands, the blueprint's best-response values bound each);
- ``blueprint``: the blueprint's play in the same subgame (``safe_resolve.blueprint_strategy``,
  raises moved to the nearest tree size), what the bot plays without re-solving.

Each is measured in the street's subgame with the bot's real range (Bayes over its own play)
against the opponent's range, all 1,326 combos, the bot's tree: the opponent's best response
value, over its range, in % of the street's starting pot (lower is better for the bot). The
solves run without a clock to an iteration cap, so the figures do not depend on the load.

Board ``Ks 7h 2d 9c (4s)``, 100 bb, every earlier street played by the blueprint.

Run: ``python benchmarks/bench_range_gap.py [--streets 2,3] [--iterations-turn 150]
[--iterations-river 300] [--target 0.1] [--floors 0,0.05,1]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from solvers.agents.registry import make_agent  # noqa: E402
from solvers.agents.resolving import DEFAULT_RANGE_FLOOR, ResolvingAgent  # noqa: E402
from solvers.agents.safe_resolve import blueprint_strategy, opponent_values  # noqa: E402
from solvers.agents.subgame import (  # noqa: E402
    SPOT_PLAYER_OF_SEAT,
    Subgame,
    bayes_ranges,
    build_subgame,
    street_root,
)
from solvers.cards.deck import dead_mask, parse_cards  # noqa: E402
from solvers.errors import InputError  # noqa: E402
from solvers.games.base import Strategy  # noqa: E402
from solvers.games.hunl.rules import HunlConfig, replay  # noqa: E402

BOARD = "Ks 7h 2d 9c 4s"
SPOTS = (  # (label, betting to the bot's first decision of the street)
    ("river, limp checked down (big blind)", "cc/cc/cc/"),
    ("river, flop bet called, turn checked (button)", "r250c/cr400c/cc/c"),
    ("river, raised pot checked down (button)", "r250c/cc/cc/c"),
    ("turn, limp, flop checked (big blind)", "cc/cc/"),
    ("turn, flop bet called (button)", "r250c/cr400c/c"),
    ("turn, raised pot, flop checked (big blind)", "r250c/cc/"),
)
SAFE_BOTS = (
    ("safe, resolve gadget", {"safe": True, "gadget": "resolve"}),
    ("safe, maxmargin", {"safe": True, "gadget": "maxmargin"}),
)


def bots(floors: list[float]) -> list[tuple[str, dict]]:
    """The range-only bots at ``floors`` (the default's keywords empty: its subgame is the safe
    bots'), then the safe ones."""
    found = [(f"floor {f:g}", {"range_floor": f}) for f in floors if f != DEFAULT_RANGE_FLOOR]
    found.append((f"floor {DEFAULT_RANGE_FLOOR:g} (default)", {}))
    return sorted(found, key=lambda b: float(b[0].split()[1])) + list(SAFE_BOTS)


def won_pct(measured: dict[str, Subgame], me: int, strategy: Strategy) -> dict[str, float]:
    """Per opponent range, what its best response wins against the bot's rows of ``strategy``
    (spot player ``me``), % of the street's starting pot."""
    won = {}
    for held_name, sub in measured.items():
        game = sub.game
        rows = {n: r for n, r in strategy.items() if game.nodes[n].player == me}
        values = opponent_values(sub, rows, 1 - me)
        weights = game.hand_weights(1 - me)
        won[held_name] = 100 * float(weights @ values) / float(weights.sum()) / game.pot
    return won


def measure(blueprint, label: str, betting: str, caps: dict[int, int], target: float,
            compared: list[tuple[str, dict]]) -> list:  # fmt: skip
    """One spot: the rows of every bot and the blueprint."""
    state = replay(betting, blueprint.config)
    street, seat = state.street, state.to_act
    me = SPOT_PLAYER_OF_SEAT[seat]
    board = np.array(parse_cards(BOARD)[: 3 + street - 1])
    live = ~dead_mask([int(c) for c in board])
    root = street_root(state)
    reach = bayes_ranges(root, board, (blueprint, blueprint))  # the bot's own range in every solve
    model = reach[1 - seat]
    sizes = ResolvingAgent(blueprint).sizes[street]
    measured = {}  # the opponent's two ranges against the bot's real one, the bot's tree
    for held_name, held in (("any two", live.astype(float)), ("model", model)):
        ranges = reach.copy()
        ranges[1 - seat] = held  # ranges by seat, the spot's players by position
        measured[held_name] = build_subgame(root, board, ranges, sizes)
    out = []
    for name, keywords in compared:
        bot = ResolvingAgent(blueprint, streets=(street,), seconds={street: np.inf},
                             max_iterations=caps[street], target_pct=target,
                             **keywords)  # fmt: skip
        started = time.perf_counter()
        solution = bot.solution(state, board)
        seconds = time.perf_counter() - started
        out.append({"spot": label, "answer": name, "s": seconds,
                    "iterations": solution.iterations,
                    **won_pct(measured, me, solution.strategy)})  # fmt: skip
    played = blueprint_strategy(measured["model"], blueprint)
    out.append({"spot": label, "answer": "blueprint", "s": 0.0, "iterations": 0,
                **won_pct(measured, me, played)})  # fmt: skip
    ruled_out = float((model[live] == 0).mean())
    for row in out:
        row["ruled out"] = f"{100 * ruled_out:.0f}%"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="strategies/hunl_100bb.npz", help="the blueprint")
    parser.add_argument("--streets", default="2,3", help="2 turn, 3 river")
    parser.add_argument("--iterations-turn", type=int, default=150)
    parser.add_argument("--iterations-river", type=int, default=300)
    parser.add_argument("--target", type=float, default=0.1,
                        help="a solve may stop once within this %% of the pot")  # fmt: skip
    parser.add_argument("--floors", default="0,0.05,1",
                        help="the range-only bots' range floors (the default's is always in)")
    args = parser.parse_args()
    try:
        floors = [float(f) for f in args.floors.split(",") if f.strip()]
    except ValueError:
        parser.error("--floors takes numbers between 0 and 1, such as 0,0.05,1")
    if not all(0.0 <= f <= 1.0 for f in floors):
        parser.error("--floors takes numbers between 0 and 1, such as 0,0.05,1")
    if min(args.iterations_turn, args.iterations_river) < 1 or not args.target > 0:
        parser.error("iterations must be at least 1 and the target above 0")
    streets = {int(s) for s in args.streets.split(",") if s.strip()}
    try:
        blueprint = make_agent(args.bot, HunlConfig(100))
    except InputError as error:
        parser.error(str(error))
    caps = {2: args.iterations_turn, 3: args.iterations_river}
    rows = []
    for label, betting in SPOTS:
        if replay(betting, blueprint.config).street in streets:
            rows += measure(blueprint, label, betting, caps, args.target, bots(floors))
    print_rows("opponent's best response, % of the street's pot (lower is better for the bot)",
               rows)  # fmt: skip


if __name__ == "__main__":
    main()
