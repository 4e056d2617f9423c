"""``pokertui add-digest FILE...``: give a bot or spot file written before body digests one.

Blueprints (``.npz``) and binary spots (``.ptsb``) carry the SHA-256 of their strategy body in
their header, and loading refuses a file without it, since damage to its body could not be
found. A file that took hours to solve need not be solved again: this command checks all that
can be checked without the digest (a blueprint's header against its abstraction and every row
summing to 255; every row of a spot decoded) and then writes the digest into the header, the
body copied byte for byte.
"""

from __future__ import annotations

import argparse
from typing import Any

from pokertui.commands.output import add_json_flag, print_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "add-digest",
        help="check a bot or spot file written before body digests and add its digest",
        description="Checks each blueprint (.npz) or binary spot (.ptsb) file written before "
        "their headers carried the SHA-256 of their strategy body, then writes the digest into "
        "the header (the body unchanged). A file that has a digest is checked and left alone.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help=".npz or .ptsb files")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from solvers.strategy_file.binary import add_digest as add_binary  # noqa: PLC0415
    from solvers.strategy_file.binary_layout import is_binary  # noqa: PLC0415
    from solvers.strategy_file.blueprint_file import add_digest as add_blueprint  # noqa: PLC0415
    from solvers.user_files import check_regular_file  # noqa: PLC0415

    done = {}
    for name in args.files:
        check_regular_file(name, "bot file")
        if is_binary(name):
            done[name] = add_binary(name)
            continue

        def checked(loaded, name: str = name) -> None:
            check_rows(name, loaded)

        done[name] = add_blueprint(name, checked)
    if args.json:
        print_json({"added": [n for n, added in done.items() if added],
                    "had_one": [n for n, added in done.items() if not added]})  # fmt: skip
        return 0
    for name, added in done.items():
        print(f"{name}: {'digest added' if added else 'has a digest already, checked'}")
    return 0


def check_rows(path: str, loaded) -> None:
    """The blueprint's header rebuilds its abstraction, the strategy has its slots, and every
    row (a decision's bucket) sums to 255, as ``quantise_rows`` writes it."""
    import numpy as np  # noqa: PLC0415

    from solvers.abstraction.betting_tree import DECISION  # noqa: PLC0415
    from solvers.agents.blueprint import BlueprintAgent  # noqa: PLC0415
    from solvers.strategy_file.blueprint_file import BlueprintFileError  # noqa: PLC0415

    try:
        agent = BlueprintAgent(loaded, name="check")
    except BlueprintFileError as exc:
        raise BlueprintFileError(f"{path}: {exc}") from None
    tree = agent.tree
    decisions = np.flatnonzero(tree.kind == DECISION)
    buckets = np.asarray(agent.cards.n_buckets, dtype=np.int64)[tree.street[decisions]]
    lengths = np.repeat(tree.n_actions[decisions].astype(np.int64), buckets)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    sums = np.add.reduceat(loaded.strategy.astype(np.int64), starts)
    bad = np.flatnonzero(sums != 255)
    if bad.size:
        raise BlueprintFileError(f"{path}: {bad.size:,} of {sums.size:,} rows of the blueprint "
                                 "do not sum to 255: the file is damaged")  # fmt: skip
