"""Where local best response wins against a full-game bot: LBR's hands sorted by their line
(LBR's first bet or raise on the streets it plays greedily, and how the hand ended), with each
line's share of the hands and of LBR's value.

The hands are exactly those of ``pokertui lbr`` with the same seed and chunk size (the same
chunks, ``HunlLocalBestResponse.chunk_hands``); each hand is scored as there (imaginary
observations over the bot's range). A line's "contribution" is its hands' chips summed over all
hands, in mbb per hand: the contributions add up to LBR's value.

Run: ``python benchmarks/bench_lbr_lines.py [--bot SPEC] [--action-set fcpa] [--streets 3-4]
[--deals 20] [--seed 3101] [--chunk-deals 5] [--workers 1]``: the chunks run on the same
process pool as ``pokertui lbr`` (the figures do not depend on ``--workers``).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from pokertui.commands.lbr import parse_streets  # noqa: E402
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.agents.subgame import line  # noqa: E402
from solvers.errors import InputError  # noqa: E402
from solvers.games.hunl.rules import RAISE, STREET_NAMES, HunlConfig, HunlState  # noqa: E402
from solvers.reports.lbr.hunl import HunlLocalBestResponse  # noqa: E402
from solvers.reports.lbr.spot_run import run_chunks  # noqa: E402

FIRSTS = ("no bet", *(f"{street} {size}" for street in STREET_NAMES for size in ("bet", "all-in")))
ENDS = (*(f"{who} folds on the {street}" for who in ("LBR", "bot") for street in STREET_NAMES),
        "showdown")  # fmt: skip
LINES = [f"{first}, {end}" for first in FIRSTS for end in ENDS]
"""Every line a hand can take, by index: the chunks carry each hand's line as its index."""


def classify(state: HunlState, seat: int, greedy: set[int]) -> int:
    """The index in ``LINES`` of ``turn all-in, bot folds on the turn``: LBR's first bet or
    raise where it plays greedily (or ``no bet``), then the hand's end."""
    first = "no bet"
    for before, action in line(state):
        if before.to_act == seat and action.kind == RAISE and before.street in greedy:
            size = "all-in" if action.to == before.legal().max_raise_to else "bet"
            first = f"{STREET_NAMES[before.street]} {size}"
            break
    if state.folded >= 0:
        who = "LBR" if state.folded == seat else "bot"
        end = f"{who} folds on the {STREET_NAMES[state.street]}"
    else:
        end = "showdown"
    return LINES.index(f"{first}, {end}")


@dataclass(frozen=True)
class LinesJob:
    """What a pool worker needs to build its engine (pickled by name)."""

    bot: str
    action_set: str
    streets: tuple[str, ...] | None


class LinesEngine:
    """``HunlLocalBestResponse`` whose chunks carry each hand's line beside its chips."""

    def __init__(self, job: LinesJob) -> None:
        config = HunlConfig(100)
        self.lbr = HunlLocalBestResponse(config, make_agent(job.bot, config), job.action_set,
                                         job.streets)  # fmt: skip
        self.greedy = {STREET_NAMES.index(s) for s in self.lbr.streets}

    def run_chunk(self, seed: int, index: int, deals: int) -> np.ndarray:
        """``[deals, 4]``: LBR's chips from seat 0 and 1, then the index of each hand's line."""
        out = np.empty((deals, 4))
        for i, seat, hand in self.lbr.chunk_hands(seed, index, deals):
            out[i, seat] = hand.value
            out[i, 2 + seat] = classify(hand.state, seat, self.greedy)
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="resolve(iterations=100):strategies/hunl_100bb.npz")
    parser.add_argument("--action-set", default="fcpa")
    parser.add_argument("--streets", default="3-4")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3101)
    parser.add_argument("--chunk-deals", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1, help="processes of the chunk pool")
    args = parser.parse_args()
    if not 1 <= args.chunk_deals <= args.deals or args.workers < 1 or args.seed < 0:
        parser.error("--chunk-deals must be between 1 and --deals, --workers at least 1, "
                     "--seed at least 0")  # fmt: skip
    try:
        job = LinesJob(args.bot, args.action_set, parse_streets(args.streets))
        engine = LinesEngine(job)
    except InputError as error:
        parser.error(str(error))
    started = time.perf_counter()
    played = run_chunks(engine, LinesEngine, job, args.deals, args.seed, args.workers,
                        chunk_deals=args.chunk_deals)  # fmt: skip
    values = played[:, :2].ravel()
    lines = played[:, 2:].ravel().astype(int)
    hands = len(values)
    scale = 1000.0 / engine.lbr.config.big_blind
    rows = []
    for index in np.unique(lines):
        chips = values[lines == index]
        rows.append({"line": LINES[index], "hands": len(chips),
                     "share %": 100 * len(chips) / hands,
                     "contribution mbb/hand": scale * chips.sum() / hands,
                     "mean mbb/hand of the line": scale * chips.mean()})  # fmt: skip
    rows.sort(key=lambda r: -abs(r["contribution mbb/hand"]))
    total = scale * values.mean()
    print_rows(f"LBR {args.action_set} {args.streets} against {args.bot}: {hands} hands, "
               f"{total:+.0f} mbb a hand, {time.perf_counter() - started:.0f} s", rows)  # fmt: skip


if __name__ == "__main__":
    main()
