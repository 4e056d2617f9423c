"""Full-game LBR speed (issue 18): the flop rollout, numpy against the compiled loop, side by side;
then hands per second of ``pokertui lbr 'hunl(200)'`` rows on one process, plain, with
``--control-variates`` and with ``--control-variates bets`` on the same deals.

The flop rollout is every combo's strength on all 1,176 completions of a flop (1.56 M seven-card
hands). The numpy column evaluates them with the evaluator's vectorised keys (the first version
of ``lbr.hunl_cards.board_strengths``); the compiled column is ``lbr.hunl_kernels``. Both give
the same array (checked here). Hands per second count both seats of every duplicate deal.

Run: ``python benchmarks/bench_lbr_hunl.py [--repeats 5] [--deals 100] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import median_seconds, print_rows  # noqa: E402

from solvers.agents.registry import make_agent  # noqa: E402
from solvers.cards import evaluator  # noqa: E402
from solvers.cards.deck import COMBO_CARDS, N_COMBOS  # noqa: E402
from solvers.games.hunl.rules import HunlConfig  # noqa: E402
from solvers.reports.lbr.hunl import HunlLocalBestResponse  # noqa: E402
from solvers.reports.lbr.hunl_cards import board_strengths  # noqa: E402

FLOPS = [(0, 17, 33), (51, 47, 22), (12, 13, 14), (4, 30, 44)]
ROWS = [
    ("call", "fc", None),
    ("call", "fcpa", None),
    ("call", "fcpa", ("turn", "river")),
    ("random", "fc", None),
    ("random", "fcpa", ("turn", "river")),
    ("call", "56", ("turn", "river")),
]


def numpy_strengths(board: tuple[int, ...]) -> np.ndarray:
    left = [c for c in range(52) if c not in board]
    extra = np.array(list(combinations(left, 5 - len(board))))
    full = np.concatenate([np.tile(board, (len(extra), 1)), extra], axis=1)
    board_keys, board_masks = evaluator.key_sum(full), evaluator.bit_mask(full)
    keys = board_keys[:, None] + evaluator.key_sum(COMBO_CARDS)[None, :]
    combo_masks = evaluator.bit_mask(COMBO_CARDS)
    clash = (board_masks[:, None] & combo_masks[None, :]) != 0
    keys[clash] = 0

    def masks_of(rows):
        return board_masks[rows // N_COMBOS] | combo_masks[rows % N_COMBOS]

    strength = evaluator.evaluate_keys(keys, 7, masks_of).astype(np.int16)
    strength[clash] = -1
    return strength


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rollout = []
    for flop in FLOPS:
        slow, reference = median_seconds(lambda f=flop: numpy_strengths(f), args.repeats)
        fast, (_, compiled) = median_seconds(lambda f=flop: board_strengths(f), args.repeats)
        assert (reference == compiled).all()
        rollout.append({"flop": str(flop), "numpy_ms": 1000 * slow, "compiled_ms": 1000 * fast,
                        "ratio": slow / fast})  # fmt: skip
    config = HunlConfig(200)
    speed = []
    for bot, action_set, streets in ROWS:
        rates = {}
        for estimate in (None, "checkdown", "bets"):
            agent = make_agent(bot, config)
            control = estimate is not None
            engine = HunlLocalBestResponse(config, agent, action_set, streets, control,
                                           estimate or "checkdown")  # fmt: skip
            engine.run_chunk(99, 0, 5)  # warm: tables, compiled loops
            started = time.perf_counter()
            engine.run_chunk(7, 0, args.deals)
            rates[estimate] = 2 * args.deals / (time.perf_counter() - started)
        speed.append({"bot": bot, "action_set": action_set,
                      "streets": "1-4" if streets is None else "3-4",
                      "hands_per_s": rates[None], "with_control_variates": rates["checkdown"],
                      "ratio": rates[None] / rates["checkdown"],
                      "with_bets_estimate": rates["bets"],
                      "bets_ratio": rates[None] / rates["bets"]})  # fmt: skip
    if args.json:
        print(json.dumps({"rollout": rollout, "lbr": speed}))
        return
    print_rows("flop rollout (1,176 completions x 1,326 combos), median ms", rollout)
    print_rows(f"LBR on hunl(200), one process, {args.deals} duplicate deals", speed)


if __name__ == "__main__":
    main()
