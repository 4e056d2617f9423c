"""Where local best response wins against a full-game bot: LBR's hands sorted by their line
(LBR's first bet or raise on the streets it plays greedily, and how the hand ended), with each
line's share of the hands and of LBR's value.

The hands are exactly those of ``pokertui lbr`` with the same seed and chunk size (the same
chunks, ``HunlLocalBestResponse.chunk_hands``), played in this process, one chunk after another;
each hand is scored as there (imaginary observations over the bot's range). A line's
"contribution" is its hands' chips summed over all hands, in mbb per hand: the contributions
add up to LBR's value.

Run: ``python benchmarks/bench_lbr_lines.py [--bot SPEC] [--action-set fcpa] [--streets 3-4]
[--deals 20] [--seed 3101] [--chunk-deals 5]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from pokertui.commands.lbr import parse_streets  # noqa: E402
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.agents.subgame import line  # noqa: E402
from solvers.games.hunl.rules import RAISE, STREET_NAMES, HunlConfig, HunlState  # noqa: E402
from solvers.reports.lbr_hunl import HunlLocalBestResponse  # noqa: E402


def classify(state: HunlState, seat: int, greedy: set[int]) -> str:
    """``turn all-in, bot folds``: LBR's first bet or raise where it plays greedily (or
    ``no bet``), then the hand's end."""
    first = "no bet"
    for before, action in line(state):
        if before.to_act == seat and action.kind == RAISE and before.street in greedy:
            top = before.legal().max_raise_to
            size = "all-in" if action.to == top else "bet"
            first = f"{STREET_NAMES[before.street]} {size}"
            break
    if state.folded == seat:
        end = f"LBR folds on the {STREET_NAMES[state.street]}"
    elif state.folded >= 0:
        end = f"bot folds on the {STREET_NAMES[state.street]}"
    else:
        end = "showdown"
    return f"{first}, {end}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="resolve(iterations=100):strategies/hunl_100bb.npz")
    parser.add_argument("--action-set", default="fcpa")
    parser.add_argument("--streets", default="3-4")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3101)
    parser.add_argument("--chunk-deals", type=int, default=5)
    args = parser.parse_args()
    if not 1 <= args.chunk_deals <= args.deals:
        parser.error("--chunk-deals must be between 1 and --deals")
    config = HunlConfig(100)
    engine = HunlLocalBestResponse(config, make_agent(args.bot, config), args.action_set,
                                   parse_streets(args.streets))  # fmt: skip
    greedy = {STREET_NAMES.index(s) for s in engine.streets}
    chips: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    chunks = -(-args.deals // args.chunk_deals)
    for index in range(chunks):
        deals = min(args.chunk_deals, args.deals - index * args.chunk_deals)
        for _, seat, value, state in engine.chunk_hands(args.seed, index, deals):
            chips[classify(state, seat, greedy)].append(value)
    hands = sum(len(v) for v in chips.values())
    scale = 1000.0 / config.big_blind
    rows = [{"line": name, "hands": len(v), "share %": 100 * len(v) / hands,
             "contribution mbb/hand": scale * sum(v) / hands,
             "mean mbb/hand of the line": scale * sum(v) / len(v)}
            for name, v in chips.items()]  # fmt: skip
    rows.sort(key=lambda r: -abs(r["contribution mbb/hand"]))
    total = scale * sum(sum(v) for v in chips.values()) / hands
    print_rows(f"LBR {args.action_set} {args.streets} against {args.bot}: {hands} hands, "
               f"{total:+.0f} mbb a hand, {time.perf_counter() - started:.0f} s", rows)  # fmt: skip


if __name__ == "__main__":
    main()
