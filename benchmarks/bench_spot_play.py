"""Practice and explore a spot: a turn and a flop side by side, each in a fresh process.

Practice. One timed step is what the play screen does after a key press: ``Session.act`` (the
review of the decision, the bot's reply, chance cards) followed by ``current_spot`` (pot odds,
Bayes ranges of both players, the EV of each action, checkdown equity) at the next decision.
Timed apart: opening the file and the session, and the first walk (what the play screen's
worker makes before the first live panel: ``Session.prepare`` for both seats, since seats
alternate). Quality bar: steps with a median under 100 ms; the first walk at most 5 s.

Explore. What the explorer's workers compute: the spot view of the first decision
(``spot_node_view``: frequencies, EVs and equities of every hand) on a fresh process, then of a
second decision, and the by-card report of the first deal.

Each file runs in its own child process so that its peak resident set (``os.wait4``) is its own.
The flop is the benchmark flop (``spots/flop.toml``) solved once outside this script (about 10
minutes and 1.8 GB): ``pokertui solve spots/flop.toml --algo dcfr --iterations 75 --out
DIR/flop.ptsb``.

Run: ``python benchmarks/bench_spot_play.py --flop DIR/flop.ptsb [--turn F] [--hands 30]
[--json]``. The default turn is the shipped ``strategies/srp_dry_turn.ptsb``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
DEFAULT_TURN = HERE / "strategies" / "srp_dry_turn.ptsb"


def practice(path: Path, hands: int, seed: int = 0) -> dict:
    from pokertui.session import Session, current_spot
    from solvers.strategy_file import load_strategy
    from solvers.strategy_file.binary_layout import is_binary

    started = time.perf_counter()
    session = Session(load_strategy(path, lazy=is_binary(path)), human_seat=None, seed=seed)
    opened = time.perf_counter() - started
    started = time.perf_counter()
    session.new_hand()
    session.prepare()  # the first live panel's walk (seat of hand 1)
    first_walk = time.perf_counter() - started
    started = time.perf_counter()
    for seat in (0, 1):  # the other seat's, made when its first hand comes
        session.response_values(seat)
    other_seat = time.perf_counter() - started
    steps, panels, deals = [], [], []
    for hand in range(hands):
        if hand:
            t = time.perf_counter()
            session.new_hand()
            deals.append(time.perf_counter() - t)
        if session.human_to_act:
            t = time.perf_counter()
            current_spot(session)
            panels.append(time.perf_counter() - t)
        while session.human_to_act:
            options = session.legal_options()
            choice = options[min(1, len(options) - 1)].label  # call/check-behind or a bet
            t = time.perf_counter()
            session.act(choice)
            if session.human_to_act:
                current_spot(session)
            steps.append(time.perf_counter() - t)
    return {
        "open s": opened,
        "first walk s": first_walk,
        "other seat s": other_seat,
        "decisions": len(steps),
        "step median ms": 1000 * statistics.median(steps),
        "step p90 ms": 1000 * statistics.quantiles(steps, n=10)[-1],
        "step max ms": 1000 * max(steps),
        "first panel median ms": 1000 * statistics.median(panels),
        "deal median ms": 1000 * statistics.median(deals),
    }


def explore(path: Path) -> dict:
    from solvers.reports.by_card import by_next_card
    from solvers.reports.spot_report import spot_node_view
    from solvers.strategy_file import load_strategy
    from solvers.strategy_file.binary import as_played
    from solvers.strategy_file.binary_layout import is_binary

    started = time.perf_counter()
    loaded = load_strategy(path, lazy=is_binary(path))
    game, strategy = loaded.game, as_played(loaded.strategy)
    opened = time.perf_counter() - started
    out = {"open s": opened}
    for label, key in (("first node view s", ""), ("second node view s", "x")):
        started = time.perf_counter()
        view = spot_node_view(game, strategy, game.node_by_key(key))
        out[label] = time.perf_counter() - started
        assert view.report.probs.shape[0] == game.n_hands[view.report.player]
    started = time.perf_counter()
    by_next_card(game, strategy, "x/x")
    out["by card s"] = time.perf_counter() - started
    return out


def child(path: Path, what: str, hands: int) -> None:
    result = practice(path, hands) if what == "practice" else explore(path)
    print("RESULT " + json.dumps(result))


def _run(argv: list[str]) -> tuple[str, float]:
    """Stdout and the child's own peak RSS in MB."""
    process = subprocess.Popen(argv, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = process.stdout.read()  # type: ignore[union-attr]
    err = process.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise RuntimeError(err.decode()[-2000:])
    return out.decode(), usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turn", type=Path, default=DEFAULT_TURN)
    parser.add_argument("--flop", type=Path)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=("practice", "explore"), help=argparse.SUPPRESS)
    parser.add_argument("--file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.file, args.child, args.hands)
        return
    files = {"turn": args.turn, **({"flop": args.flop} if args.flop else {})}
    table: dict[str, dict] = {}
    for what in ("practice", "explore"):
        for name, path in files.items():
            argv = [sys.executable, __file__, "--child", what, "--file", str(path), "--hands",
                    str(args.hands)]  # fmt: skip
            out, peak = _run(argv)
            line = next(x for x in out.splitlines() if x.startswith("RESULT "))
            result = json.loads(line[len("RESULT ") :])
            result["peak MB"] = peak
            table[f"{what} {name}"] = result
    if args.json:
        print(json.dumps(table))
        return
    for what, result in table.items():
        print(what)
        for key, value in result.items():
            shown = f"{value:.3f}" if isinstance(value, float) else str(value)
            print(f"  {key:>22}: {shown}")


if __name__ == "__main__":
    main()
