"""Strategy-file commands: validate, schema, exploit, convert, show and export-openspiel."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pokertui.commands.arguments import bounded_float
from pokertui.commands.output import (
    add_json_flag,
    deal_progress,
    gap_text,
    is_noise,
    print_json,
)
from solvers.atomic import write_error
from solvers.errors import InputError

if TYPE_CHECKING:
    import numpy as np

    from solvers.games.base import Strategy

    PerEdgeChange = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
    """A transform of a binary strategy's per-edge array (``first``, ``actions``, array)."""
    WholeChange = Callable[[Mapping[int, np.ndarray]], Strategy]
    """A transform of a whole strategy (node id to its rows)."""


def register(subparsers: Any) -> None:
    validate = subparsers.add_parser(
        "validate", help="check a strategy file, listing every problem"
    )
    validate.add_argument("file")
    add_json_flag(validate)
    validate.set_defaults(handler=run_validate)

    schema = subparsers.add_parser("schema", help="print the JSON Schema of strategy files")
    schema.set_defaults(handler=run_schema)

    exploit = subparsers.add_parser(
        "exploit", help="exact best responses and exploitability of a strategy file"
    )
    exploit.add_argument("file")
    exploit.add_argument(
        "--threshold",
        type=bounded_float(0, 1),
        default=0.15,
        help="also price dropping actions below this frequency (default 0.15)",
    )
    add_json_flag(exploit)
    exploit.set_defaults(handler=run_exploit)

    convert = subparsers.add_parser("convert", help="rewrite a strategy file in the other form")
    convert.add_argument("file")
    convert.add_argument("--to", choices=("readable", "compact", "binary"), required=True)
    convert.add_argument("--out", help="output path (default: print to stdout; binary: required)")
    convert.add_argument(
        "--bits", type=int, choices=(8, 16), default=8, help="binary: bits per probability"
    )
    convert.set_defaults(handler=run_convert)

    show = subparsers.add_parser("show", help="per-hand action frequencies of a strategy file")
    show.add_argument("file")
    show.add_argument("--node", help="node key (default: a summary of every decision node)")
    show.add_argument("--board", help="blueprint: the board of a flop, turn or river --node")
    show.add_argument(
        "--by-card",
        action="store_true",
        help="hold'em: each action's frequency and EV after every card --node (a deal, or a "
        "key with * for the card, e.g. x/b75/c/*/x) can deal",
    )
    add_json_flag(show)
    show.set_defaults(handler=run_show)

    export = subparsers.add_parser(
        "export-openspiel", help="write a Kuhn or Leduc strategy as an OpenSpiel policy (JSON)"
    )
    export.add_argument("file")
    export.add_argument("--out", required=True)
    export.set_defaults(handler=run_export)


def run_validate(args: argparse.Namespace) -> int:
    from solvers.strategy_file import StrategyFileError, load_strategy  # noqa: PLC0415

    try:
        loaded = load_strategy(args.file)
    except StrategyFileError as exc:
        if args.json:
            print_json(
                {
                    "valid": False,
                    "file": args.file,
                    "problems": [p.as_dict() for p in exc.problems],
                    "problem_count": len(exc.problems) + exc.omitted,
                }
            )
        else:
            sys.stderr.write(f"{exc}\n")
        return 2
    summary = {
        "valid": True,
        "file": args.file,
        "game": loaded.game.spec_string(),
        "decision_nodes": len(loaded.strategy),
        "filled_by_defaults": loaded.filled_nodes,
        "recorded_exploitability": loaded.measured.exploitability if loaded.measured else None,
    }
    if args.json:
        print_json(summary)
    else:
        print(f"{args.file}: valid strategy for {summary['game']} ({len(loaded.strategy)} nodes)")
        if loaded.filled_nodes:
            print(f"  {len(loaded.filled_nodes)} nodes filled by defaults={loaded.defaults}")
    return 0


def run_schema(args: argparse.Namespace) -> int:
    from solvers.strategy_file import StrategyFileModel  # noqa: PLC0415

    print(json.dumps(StrategyFileModel.model_json_schema(), indent=2))
    return 0


def _report_row(name: str, game, strategy, change=None) -> dict[str, Any]:
    from solvers.exact.evaluation import exploitability  # noqa: PLC0415
    from solvers.strategy_file.binary import BinaryStrategy  # noqa: PLC0415
    from solvers.strategy_file.binary_eval import binary_exploitability  # noqa: PLC0415

    if isinstance(strategy, BinaryStrategy):  # a flop's: on the compact per-edge profile
        report = binary_exploitability(strategy, change)
    else:
        report = exploitability(game, strategy if change is None else change(strategy))
    return {
        "strategy": name,
        "best_response_values": [r.value for r in report.best_responses],
        "exploitability": report.exploitability,
        "nash_conv": report.nash_conv,
        "mbb_per_hand": report.mbb_per_hand,
        "pot_percent": report.pot_percent,
        "game_value": report.game_value,
    }


def run_exploit(args: argparse.Namespace) -> int:
    from solvers.runs.solve_run import pot_fields  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415
    from solvers.strategy_file.binary import BinaryStrategy  # noqa: PLC0415
    from solvers.strategy_file.transforms import (  # noqa: PLC0415
        purify,
        purify_per_edge,
        threshold,
        threshold_per_edge,
    )

    loaded = load_strategy(args.file, lazy=True)  # every row is decoded, and so checked, below
    game = loaded.game
    cut = args.threshold
    changes: tuple[PerEdgeChange, PerEdgeChange] | tuple[WholeChange, WholeChange]
    if isinstance(loaded.strategy, BinaryStrategy):
        changes = (purify_per_edge, lambda f, a, x: threshold_per_edge(f, a, x, cut))
    else:
        changes = (purify, lambda strategy: threshold(strategy, cut))
    rows = [
        _report_row("as saved", game, loaded.strategy),
        _report_row("purified", game, loaded.strategy, changes[0]),
        _report_row(f"threshold {cut:g}", game, loaded.strategy, changes[1]),
    ]
    base = rows[0]["exploitability"]
    for row in rows:
        row["cost"] = row["exploitability"] - base
    payload = {
        "file": args.file,
        "game": game.spec_string(),
        "unit": "chips",
        "recorded_exploitability": loaded.measured.exploitability if loaded.measured else None,
        **{k: v for k, v in rows[0].items() if k != "strategy"},
        **pot_fields(game, rows[0]["exploitability"], rows[0]["game_value"]),
        "transformations": rows[1:],
    }
    if args.json:
        print_json(payload)
        return 0
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"Exploitability of {args.file}", caption=f"game {payload['game']}")
    table.add_column("chips unless stated")
    for row in rows:
        table.add_column(row["strategy"], justify="right")
    lines = (
        ("best response, seat 1", lambda r: f"{r['best_response_values'][0]:+.6f}"),
        ("best response, seat 2", lambda r: f"{r['best_response_values'][1]:+.6f}"),
        ("exploitability", lambda r: gap_text(r["exploitability"], _noise(r), ".4g")),
        ("  in mbb/hand", lambda r: gap_text(r["mbb_per_hand"], _noise(r), ".4g")),
        ("  in % of the pot", lambda r: _pct(r["pot_percent"], _noise(r))),
        ("game value, seat 1", lambda r: f"{r['game_value']:+.6f}"),
        ("cost of the change", lambda r: f"{r['cost']:+.4g}"),
    )
    for label, cell in lines:
        table.add_row(label, *(cell(row) for row in rows))
    Console().print(table)
    if payload["recorded_exploitability"] is not None:
        print(f"recorded in the file: {payload['recorded_exploitability']:.3g} chips")
    return 0


def _noise(row: dict[str, Any]) -> bool:
    """Rounding noise: under 1e-9 of the pot, or of one chip in a game without a pot."""
    percent = row["pot_percent"]
    if percent is None or not math.isfinite(percent):
        return is_noise(row["exploitability"])
    return is_noise(percent, 100)


def _pct(value: float | None, noise: bool = False) -> str:
    if value is None or not math.isfinite(value):
        return ""
    return f"{gap_text(value, noise)}%"


BIG_OUTPUT = 100e6
"""Bytes of JSON over which ``convert`` says how big its output will be before writing it."""
PROGRESS_AFTER = 2.0
"""Seconds after which ``convert`` draws its progress bar (on a terminal)."""


def run_convert(args: argparse.Namespace) -> int:
    """Stream the file's text node by node (``readable_stream.py``), written atomically."""
    from pokertui.commands.interrupt import sigterm_as_interrupt  # noqa: PLC0415
    from solvers.atomic import check_output_path  # noqa: PLC0415
    from solvers.strategy_file import load_strategy, to_document  # noqa: PLC0415
    from solvers.strategy_file.readable_stream import (  # noqa: PLC0415
        DocumentWriter,
        write_chunks,
    )

    if args.to == "binary":
        return _convert_to_binary(args)
    if args.out:
        check_output_path(args.out)  # before the file is read, not after
    loaded = load_strategy(args.file, lazy=True)  # every row is decoded, and so checked, below
    head = to_document(loaded.game, loaded.strategy, form=args.to, solver=loaded.solver,
                       measured=loaded.measured, lbr=loaded.lbr, head_only=True)  # fmt: skip
    del head["nodes"]
    writer = DocumentWriter(loaded.game, loaded.strategy, args.to)
    size = writer.estimate(head)
    if size > BIG_OUTPUT:
        where = args.out or "stdout"
        sys.stderr.write(f"writing about {size / 1e6:,.0f} MB of JSON to {where}\n")
        sys.stderr.flush()
    with sigterm_as_interrupt(), _convert_progress(len(writer.nodes)) as progress:
        chunks = writer.chunks(head, progress)
        if not args.out:
            _write_stdout(chunks)
            return 0
        try:
            write_chunks(args.out, chunks)
        except OSError as exc:
            raise write_error(args.out, exc) from None
    return 0


def _write_stdout(chunks) -> None:
    stream = getattr(sys.stdout, "buffer", None)
    sys.stdout.flush()
    for chunk in chunks:
        if stream is None:
            sys.stdout.write(chunk.decode("utf-8"))
        else:
            stream.write(chunk)
    sys.stdout.flush()


@contextmanager
def _convert_progress(total: int) -> Iterator[Callable[[int], None] | None]:
    """``deal_progress`` counting nodes, drawn once a convert has run ``PROGRESS_AFTER``
    seconds; none when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    start = time.monotonic()
    with deal_progress("convert", total, unit="nodes") as bar:

        def report(done: int) -> None:
            if time.monotonic() - start > PROGRESS_AFTER:
                bar(done)

        yield report


def _convert_to_binary(args: argparse.Namespace) -> int:
    """A hold'em spot's file as a binary file (``docs/strategy_files.md``), measured again:
    the header records the decoded profile's exploitability, the source's beside it."""
    from solvers.strategy_file import load_strategy, measured_from  # noqa: PLC0415
    from solvers.strategy_file.binary import write_binary  # noqa: PLC0415
    from solvers.strategy_file.binary_codec import canonical_plan  # noqa: PLC0415
    from solvers.strategy_file.binary_eval import (  # noqa: PLC0415
        compact_from_strategy,
        encode_profile,
    )

    if not args.out:
        raise InputError("give --out F.ptsb: a binary file is not printed")
    loaded = load_strategy(args.file)
    game = loaded.game
    canonical_plan(game)  # InputError for a game that is not a hold'em spot
    compact = compact_from_strategy(game, loaded.strategy)
    sections, report = encode_profile(game, compact, args.bits)
    measured = measured_from(report)
    before = loaded.measured.exploitability if loaded.measured else None
    try:
        written = write_binary(
            args.out, game, sections, args.bits, solver=loaded.solver, measured=measured,
            float_exploitability=before,
        )  # fmt: skip
    except OSError as exc:
        raise write_error(args.out, exc) from None
    size = written.stat().st_size / 1e6
    was = "" if before is None else f" (the source records {before:.4g})"
    gap = measured.exploitability
    print(f"wrote {args.out}: {size:.2f} MB, exploitability {gap:.4g} chips{was}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from solvers.exact.evaluation import bayes_range  # noqa: PLC0415
    from solvers.reports.blueprint_report import is_blueprint_file  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415

    if is_blueprint_file(args.file):
        from pokertui.commands.blueprint_view import run_blueprint_show  # noqa: PLC0415

        return run_blueprint_show(args)
    if getattr(args, "board", None):
        raise InputError("--board is for a full-game blueprint's flop, turn or river nodes")
    loaded = load_strategy(args.file, lazy=True)  # a binary file's nodes decode when read
    game, strategy = loaded.game, loaded.strategy
    if getattr(args, "by_card", False):
        from pokertui.commands.by_card_view import run_by_card  # noqa: PLC0415

        return run_by_card(args, game, strategy)
    if args.node is None:
        return _show_summary(args, game, strategy)
    node = game.node_by_key(args.node)
    if not node.is_decision:
        raise InputError(f"node {args.node!r} is not a decision node")
    reach = bayes_range(game, strategy, node, node.player, normalise=False)
    rows = strategy[node.id]
    hands = game.hand_labels[node.player]
    if getattr(game, "hand_combos", None) is not None:  # a hold'em spot: grids, not rows
        from pokertui.commands.spot_view import print_spot_node, spot_payload  # noqa: PLC0415

        payload = spot_payload(game, node, reach, rows, _aggregate(reach, rows))
        if args.json:
            print_json(payload)
        else:
            print_spot_node(payload, game, node)
        return 0
    payload = {
        "node": node.key,
        "player": node.player,
        "actions": list(node.actions),
        "hands": list(hands),
        "probs": rows,
        "reach": reach,
        "aggregate": _aggregate(reach, rows),
    }
    if args.json:
        print_json(payload)
        return 0
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"node {node.key!r}: seat {node.player + 1} to act")
    table.add_column("hand")
    table.add_column("reach", justify="right")
    for action in node.actions:
        table.add_column(action, justify="right")
    for hand, weight, row in zip(hands, reach, rows, strict=True):
        table.add_row(hand, f"{weight:.4g}", *(f"{p:.1%}" for p in row))
    agg = payload["aggregate"]
    table.add_row("all", "", *("" if a is None else f"{a:.1%}" for a in agg), style="bold")
    Console().print(table)
    return 0


def _aggregate(reach, rows) -> list[float | None]:
    from solvers.reports.strategy_report import aggregate_frequencies  # noqa: PLC0415

    freqs = aggregate_frequencies(reach, rows)
    return [None] * rows.shape[1] if freqs is None else freqs.tolist()




def _show_summary(args, game, strategy) -> int:
    from solvers.exact.evaluation import reaches  # noqa: PLC0415
    from solvers.reports.strategy_report import WHOLE_TREE_NODES  # noqa: PLC0415
    from solvers.strategy_file.binary import BinaryStrategy  # noqa: PLC0415

    if isinstance(strategy, BinaryStrategy) and len(strategy) > WHOLE_TREE_NODES:
        raise InputError(
            f"{len(strategy):,} decision nodes are too many to list; give --node KEY "
            "(for example --node '' for the first decision)"
        )

    nodes = []
    own_reach = (reaches(game, strategy, 0), reaches(game, strategy, 1))  # one walk each
    for node in game.decision_nodes():
        p = node.player
        prior = game.prior if p == 0 else game.prior.T
        opp = prior @ own_reach[1 - p][node.id]
        reach = own_reach[p][node.id] * opp * game.path_chance[node.id]  # as bayes_range
        nodes.append(
            {
                "node": node.key,
                "player": node.player,
                "actions": list(node.actions),
                "aggregate": _aggregate(reach, strategy[node.id]),
            }
        )
    if args.json:
        print_json({"game": game.spec_string(), "nodes": nodes})
        return 0
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"{game.spec_string()}: how often each action is taken")
    for column in ("node", "seat", "actions (frequency over the reach range)"):
        table.add_column(column)
    for row in nodes:
        freqs = ", ".join(
            f"{a} {'-' if f is None else f'{f:.1%}'}"
            for a, f in zip(row["actions"], row["aggregate"], strict=True)
        )
        table.add_row(repr(row["node"]), str(row["player"] + 1), freqs)
    Console().print(table)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from solvers.atomic import atomic_write_text, check_output_path  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415
    from solvers.strategy_file.openspiel import export_policy  # noqa: PLC0415

    check_output_path(args.out)  # before the file is read, not after
    loaded = load_strategy(args.file)
    try:
        document = export_policy(loaded.game, loaded.strategy)
    except ImportError:
        raise InputError("export-openspiel needs open-spiel: pip install open-spiel") from None
    try:
        atomic_write_text(args.out, json.dumps(document, indent=1) + "\n")
    except OSError as exc:
        raise write_error(args.out, exc) from None
    print(f"wrote {len(document['policy'])} information states to {args.out}")
    return 0
