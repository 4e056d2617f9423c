"""How much memory a spot's solve needs, and refusing one that does not fit.

A spot is solved on the compiled walk (``solvers/exact/compiled_walk.py``), which keeps float32
regrets and strategy sums per edge and hand (predictive variants one more array), and
float32 reaches of both players plus the walking player's values per non-terminal node and
hand; no per-edge strategy and nothing per terminal. On top come the public tree itself (Python
nodes, about 3 KB each with their keys and tables) and the interpreter, numpy, scipy and numba
(about 200 MB). Calibrated on the benchmark spots (``benchmarks/bench_holdem.py``): turn
estimate 354 MB against 343 MB measured; flop (suit isomorphism: 73% of the tree walked)
1,730 MB against 1,750 MB.
"""

from __future__ import annotations

import os

from solvers.games.base import GameParamError
from solvers.games.holdem.symmetry import walked_nodes

BASE_BYTES = 200 << 20
NODE_BYTES = 2900
EDGE_BYTES_PER_HAND = 8
"""float32 regrets and strategy sums."""
INNER_BYTES_PER_HAND = 12
"""float32 reach of both players and values, per non-terminal node."""
SPARE_SHARE = 0.5
"""Share of the machine's available memory a solve may take by default."""
_limit_bytes: int | None = None


def available_bytes() -> int:
    """What the machine can spare now: half of MemAvailable on Linux, else 4 GiB."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(int(line.split()[1]) * 1024 * SPARE_SHARE)
    except OSError:
        pass
    return 4 << 30


def set_memory_limit(limit_bytes: int | None) -> None:
    """Cap for later builds (``--max-memory``); None means what the machine can spare."""
    global _limit_bytes
    _limit_bytes = limit_bytes


def memory_limit() -> int:
    if _limit_bytes is not None:
        return _limit_bytes
    env = os.environ.get("POKERTUI_MAX_MEMORY_MB")
    if env and env.isdigit():
        return int(env) << 20
    return available_bytes()


def estimate_bytes(n_nodes: int, n_edges: int, n_inner: int, max_hands: int) -> int:
    """Bytes to solve a tree of ``n_nodes`` nodes, ``n_edges`` decision edges and ``n_inner``
    non-terminal nodes over at most ``max_hands`` hands a player."""
    return (
        BASE_BYTES
        + n_nodes * NODE_BYTES
        + n_edges * max_hands * EDGE_BYTES_PER_HAND
        + n_inner * max_hands * INNER_BYTES_PER_HAND
    )


def check_memory(nodes, max_hands: int, swap=None) -> int:
    """The estimate in bytes for the tree ``nodes`` (walked with suit swap ``swap``, if any);
    a ``GameParamError`` over the limit."""
    walked, _ = walked_nodes(nodes, swap)
    n_edges = sum(len(n.children) for n in nodes if n.is_decision and walked[n.id])
    n_inner = sum(1 for n in nodes if not n.is_terminal and walked[n.id])
    need = estimate_bytes(len(nodes), n_edges, n_inner, max_hands)
    limit = memory_limit()
    if need > limit:
        raise GameParamError(
            f"nlhe: this tree needs about {need / 2**20:,.0f} MB to solve ({len(nodes):,} nodes x "
            f"{max_hands} hands) but the limit is {limit / 2**20:,.0f} MB; use fewer bet sizes, "
            "narrower ranges, or raise --max-memory"
        )
    return need
