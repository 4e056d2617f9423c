"""The resolve gadget's iterations from Python against its compiled loop
(``compiled_kernels.gadget_iterations``), side by side, on a river of the kind LBR makes a turn
spot's bot re-solve (about a thousand of them for one exact ``56`` figure).

The line is ``bench_river_resolve.py``'s (OOP bets 70% of the pot on the turn, IP calls, the
first river card), solved as its ``safe`` row: the file's river sizes, and as alternatives what
the LBR side's best response wins against the safe turn re-solve the 70% bet leads to. Each row
solves the same gadget for 300 iterations (the river re-solve's count) once one ``_step`` at a
time and once through ``run``, which hands chunks to the compiled loop, and checks that both
end with the same strategy sums, to the bit.

Run: ``python benchmarks/bench_gadget_loop.py [--repeats 5] [--files 3bet_turn,...]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import median_seconds, print_rows  # noqa: E402
from bench_river_resolve import FILES, SHIPPED, history  # noqa: E402

from solvers.agents.compiled_gadget import CompiledGadgetCFR  # noqa: E402
from solvers.agents.river_resolve import RIVER_ITERATIONS, RiverResolver, river_params  # noqa: E402
from solvers.agents.spot_lines import public_ranges, replay  # noqa: E402
from solvers.games.holdem.game import HoldemGame  # noqa: E402
from solvers.strategy_file import load_strategy  # noqa: E402


def gadget(name: str) -> tuple[HoldemGame, int, np.ndarray]:
    """The river game, the LBR side (the gadget's opponent) and its alternatives: what its
    best response wins against the safe turn re-solve the line went through."""
    loaded = load_strategy(ROOT / "strategies" / SHIPPED[name])
    resolver = RiverResolver(loaded.game, loaded.strategy, safe=True)
    seat, line = 0, history(resolver)
    belief = replay(resolver.game, resolver.strategy, resolver.sizer, seat, line, resolver.turn)
    ranges = public_ranges(resolver.game, resolver.strategy, belief, seat)
    params = river_params(resolver.game.params, belief.node.board, belief.real.put[0], ranges)
    river = HoldemGame.from_params(params)
    return river, seat, resolver._turn_values(belief, river, seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--files", default=",".join(FILES))
    args = parser.parse_args()
    rows = []
    for name in args.files.split(","):
        river, seat, values = gadget(name)

        def stepped(river=river, seat=seat, values=values):
            solver = CompiledGadgetCFR(river, seat, values)
            for _ in range(RIVER_ITERATIONS):
                solver._step()
            return solver

        def looped(river=river, seat=seat, values=values):
            return CompiledGadgetCFR(river, seat, values).run(iterations=RIVER_ITERATIONS)

        python, one = median_seconds(stepped, args.repeats)
        compiled, other = median_seconds(looped, args.repeats)
        same = all(np.array_equal(a, b) for a, b in
                   zip(one.strategy_sums, other.strategy_sums, strict=True))  # fmt: skip
        rows.append({"file": name, "nodes": len(river.nodes),
                     "hands": "/".join(map(str, river.n_hands)),
                     "python steps s": python, "compiled loop s": compiled,
                     "ratio": python / compiled, "same sums": same})  # fmt: skip
    title = f"river gadget, {RIVER_ITERATIONS} iterations, {args.repeats} repeats (median)"
    print_rows(title, rows)


if __name__ == "__main__":
    main()
