"""Practice on a turn spot: the bot's reply plus the live panel's numbers, per human decision.

One timed step is what the play screen does after a key press: ``Session.act`` (the review of
the decision, the bot's reply, chance cards) followed by ``current_spot`` (pot odds, Bayes
ranges of both players, the EV of each action, checkdown equity) at the next decision. The
session's one-off walks of the fixed profiles are made before timing (the play screen's worker
makes them on the first decision); the quality bar is a median under 100 ms.

Run: ``python benchmarks/bench_spot_play.py [--file F.json.gz] [--hands 40] [--json]``.
The default file is the shipped ``strategies/srp_dry_turn.json.gz``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from pokertui.session import Session, current_spot
from solvers.strategy_file import load_strategy

DEFAULT = Path(__file__).resolve().parent.parent / "strategies" / "srp_dry_turn.json.gz"


def measure(path: Path, hands: int, seed: int = 0) -> dict:
    started = time.perf_counter()
    session = Session(load_strategy(path), human_seat=None, seed=seed)
    setup = time.perf_counter() - started
    for seat in (0, 1):  # the one-off walks
        session.profile_walk(seat), session.response_values(seat)
    session.equilibrium_walk()
    warm = time.perf_counter() - started - setup
    steps, first_spots = [], []
    for _ in range(hands):
        session.new_hand()
        if session.human_to_act:
            t = time.perf_counter()
            current_spot(session)
            first_spots.append(time.perf_counter() - t)
        while session.human_to_act:
            options = session.legal_options()
            choice = options[min(1, len(options) - 1)].label  # call/check-behind or a bet
            t = time.perf_counter()
            session.act(choice)
            if session.human_to_act:
                current_spot(session)
            steps.append(time.perf_counter() - t)
    return {
        "file": str(path),
        "hands": hands,
        "decisions_timed": len(steps),
        "setup_seconds": setup,
        "one_off_walks_seconds": warm,
        "median_ms": 1000 * statistics.median(steps),
        "p90_ms": 1000 * statistics.quantiles(steps, n=10)[-1],
        "max_ms": 1000 * max(steps),
        "first_panel_median_ms": 1000 * statistics.median(first_spots),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=DEFAULT)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.file, args.hands)
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:>24}: {value:.3f}" if isinstance(value, float) else f"{key:>24}: {value}")


if __name__ == "__main__":
    main()
