"""A few nodes of a big compact strategy file, read without loading the rest.

A flop spot's file holds tens of thousands of nodes and loads in tens of seconds; an aggregate
report needs two of them (the root and the node after a check). ``load_nodes`` streams the
file in ``document_chunks``' layout, validates each wanted node as ``load_strategy`` would and
stops once it has them all.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterable

import numpy as np

from solvers.games.base import TreeGame
from solvers.strategy_file.model import Problem, StrategyFileError
from solvers.strategy_file.read import _NODES_LINE, _Locator, _Reader, _stream_lines


def load_nodes(
    path: str | os.PathLike, game: TreeGame, keys: Iterable[str]
) -> dict[str, np.ndarray]:
    """``{key: rows}`` for the wanted decision nodes of ``game`` in the compact file at
    ``path``; ``StrategyFileError`` if one is missing or invalid."""
    source = str(path)
    wanted = {key: game.node_by_key(key) for key in keys}
    reader = _Reader({}, game, _Locator(""))
    found: dict[str, np.ndarray] = {}
    lines = _stream_lines(path)
    block: list[str] = []
    try:
        for line in lines:
            if line.rstrip("\n") == _NODES_LINE:
                break
        for line in lines:
            if not block and not line.startswith('  "'):
                continue
            block.append(line)
            if not line.rstrip().rstrip(",").endswith("]}"):
                continue
            text = "".join(block).strip().rstrip(",")
            block = []
            key = json.loads(text[: text.index(":")])
            if key not in wanted:
                continue
            ((_, body),) = json.loads("{" + text + "}").items()
            rows = reader.read_node(key, wanted[key], body)
            if rows is not None:
                found[key] = rows
            if len(found) == len(wanted):
                break
    except (OSError, EOFError, zlib.error, ValueError) as exc:
        raise StrategyFileError(source, [Problem(f"unreadable node data: {exc}")]) from None
    missing = [key for key in wanted if key not in found]
    if missing or reader.problems:
        problems = reader.problems or [Problem(f"missing node {missing[0]!r}")]
        raise StrategyFileError(source, problems)
    return found
