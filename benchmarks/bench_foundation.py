"""Hand evaluation and equity: pokertui against eval7, treys and phevaluator, in one run.

Run ``.venv/bin/python benchmarks/bench_foundation.py [--repeats N] [--json]`` after
``pip install -e '.[bench]'``. Every figure is a median over repeats, and every ratio compares
measurements taken side by side in this run on the same data (the machine is noisy).

* 7-card evaluation: a batch of 1M random hands through ``solvers.cards.evaluator.evaluate``; the
  peers are called once per hand from Python (that is how they are used), on a slice of the
  same hands, and their rate is scaled to hands per second.
* Exact preflop hand-vs-hand equity (1,712,304 boards).
* Monte Carlo equity throughput against ``eval7.py_hand_vs_range_monte_carlo``, samples/s.
* Exhaustive enumeration of all 133,784,560 seven-card hands.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import median_seconds, print_rows  # noqa: E402

from solvers.cards import combinatorics, evaluator  # noqa: E402
from solvers.cards.deck import RANKS, SUITS, parse_cards  # noqa: E402
from solvers.cards.equity import equity  # noqa: E402
from solvers.cards.ranges import parse_range  # noqa: E402


def _label(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def bench_evaluation(repeats: int) -> dict:
    import eval7  # noqa: PLC0415 - peers are optional (the bench extra)
    import treys  # noqa: PLC0415

    rng = np.random.default_rng(0)
    hands = np.argsort(rng.random((1_000_000, 52)), axis=1)[:, :7].astype(np.int8)
    ours, _ = median_seconds(lambda: evaluator.evaluate(hands), repeats)
    sample = hands[:100_000].tolist()
    e7_hands = [[eval7.Card(_label(c)) for c in row] for row in sample]
    e7, _ = median_seconds(lambda: [eval7.evaluate(h) for h in e7_hands], repeats)
    tr_sample = sample[:20_000]
    tr_hands = [[treys.Card.new(_label(c)) for c in row] for row in tr_sample]
    tr_eval = treys.Evaluator()
    tr, _ = median_seconds(lambda: [tr_eval.evaluate(h[:2], h[2:]) for h in tr_hands], repeats)
    rates = {
        "pokertui": len(hands) / ours,
        "eval7": len(e7_hands) / e7,
        "treys": len(tr_hands) / tr,
    }
    return {
        "hands_per_second": rates,
        "vs_eval7": rates["pokertui"] / rates["eval7"],
        "vs_treys": rates["pokertui"] / rates["treys"],
    }


def bench_preflop_exact(repeats: int) -> dict:
    hero, villain = parse_range("AsAh"), parse_range("KdKc")
    seconds, result = median_seconds(lambda: equity(hero, villain, method="exact"), repeats)
    return {"seconds": seconds, "boards": result.boards, "equity": result.equity[0]}


def bench_monte_carlo(repeats: int) -> list[dict]:
    import eval7  # noqa: PLC0415

    rows = []
    samples = 1_000_000
    for hero, villain, board in (("AhKh", "QQ+,AKs", ""), ("AhKh", "22+,ATs+,KJo+", "Ts9s2d")):
        board_cards = [eval7.Card(board[i : i + 2]) for i in range(0, len(board), 2)]
        hero_cards = [eval7.Card(hero[:2]), eval7.Card(hero[2:])]
        villain_range = eval7.HandRange(villain)
        theirs, _ = median_seconds(
            lambda hc=hero_cards, vr=villain_range, bc=board_cards: (
                eval7.py_hand_vs_range_monte_carlo(hc, vr, bc, samples)
            ),
            repeats,
        )
        r1, r2, bc = parse_range(hero), parse_range(villain), parse_cards(board)
        ours, result = median_seconds(
            lambda r1=r1, r2=r2, bc=bc: equity(r1, r2, bc, method="mc", samples=samples, seed=1),
            repeats,
        )
        rows.append(
            {
                "matchup": f"{hero} vs {villain} on {board or 'preflop'}",
                "pokertui_samples_per_s": samples / ours,
                "eval7_samples_per_s": samples / theirs,
                "ratio": theirs / ours,
                "equity": result.equity[0],
            }
        )
    return rows


def bench_enumeration() -> dict:
    evaluator.warm_up()
    combinatorics.five_card_keys()
    started = time.perf_counter()
    histogram = combinatorics.seven_card_histogram()
    return {"seconds": time.perf_counter() - started, "hands": int(histogram.sum())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {
        "evaluation_7card_1M": bench_evaluation(args.repeats),
        "preflop_exact_hand_vs_hand": bench_preflop_exact(args.repeats),
        "monte_carlo": bench_monte_carlo(args.repeats),
        "enumerate_all_7card": bench_enumeration(),
    }
    if args.json:
        print(json.dumps(report))
        return 0
    ev = report["evaluation_7card_1M"]
    print_rows(
        "7-card evaluation (hands/s, median)",
        [{"engine": k, "hands_per_s": v} for k, v in ev["hands_per_second"].items()],
    )
    print(f"pokertui / eval7 = {ev['vs_eval7']:.1f}x   pokertui / treys = {ev['vs_treys']:.0f}x")
    pre = report["preflop_exact_hand_vs_hand"]
    print_rows("Exact preflop AsAh vs KdKc", [pre])
    print_rows("Monte Carlo equity (samples/s, median)", report["monte_carlo"])
    print_rows("All 133,784,560 seven-card hands", [report["enumerate_all_7card"]])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
