"""How much memory a spot's solve needs, and refusing one that does not fit.

The level walk keeps, per public node, ``[2, hands]`` fixed factors (float64) and current
factors, ``[2, hands]`` reaches and ``[hands]`` values; the solver keeps regrets and strategy
sums per edge and hand (float32 for spots); the exact best response keeps float64 reaches and
values per node again. Calibrated on the turn benchmark spot (9,705 nodes x 1,128 hands: peak
1,371 MB, ``benchmarks/bench_holdem.py``): about 112 bytes per node and hand plus about 160 MB
for the interpreter, numpy, scipy and the hand tables.
"""

from __future__ import annotations

import os

from solvers.games.base import GameParamError

BYTES_PER_NODE_HAND = 112
BASE_BYTES = 160 << 20
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


def estimate_bytes(n_nodes: int, max_hands: int) -> int:
    return BASE_BYTES + n_nodes * max_hands * BYTES_PER_NODE_HAND


def check_memory(n_nodes: int, max_hands: int) -> int:
    """The estimate in bytes; a ``GameParamError`` if it exceeds the limit."""
    need = estimate_bytes(n_nodes, max_hands)
    limit = memory_limit()
    if need > limit:
        raise GameParamError(
            f"nlhe: this tree needs about {need / 2**20:,.0f} MB to solve ({n_nodes:,} nodes x "
            f"{max_hands} hands) but the limit is {limit / 2**20:,.0f} MB; use fewer bet sizes, "
            "narrower ranges, or raise --max-memory"
        )
    return need
