"""How much memory a spot's solve needs, and refusing one that does not fit.

A spot is solved on the compiled walk (``solvers/exact/compiled_walk.py``), which keeps regrets
and strategy sums per edge and hand (8 bytes a pair in float32, 4 at ``precision=16``, 16 in
float64; predictive variants one more float array), and reaches of both players plus the
walking player's values (float32, or float64 at ``precision=64``) per hand only for the
non-terminal nodes above the first chance nodes and the subtrees' heads
(``games/chance_subtrees.py``); each subtree below is walked in a scratch of its size, one per
thread. No per-edge strategy and nothing per terminal, except that a board whose showdowns run
over many runouts (a flop's) keeps one runout matrix per player (8 bytes a pair of hands, up to
14 MB). On top come the public tree and its tables (about 1.4 KB a node: Python nodes with
their keys, uint8 deal masks, int32 showdown tables) and the interpreter, numpy, scipy and
numba with its kernels (about 206 MB).
Calibrated on the benchmark spots (``benchmarks/bench_holdem.py``, peak RSS with the exact
exploitability checks): flop 1,089 MB estimated against 1,086 MB measured in float32, 750 MB
against 759 MB at 16 bits; turn 305 MB against 305 MB in float32, 265 MB against 277 MB at 16 bits.

The tree is refused when it is built only if even the leanest storage cannot hold it; the
solver checks its own precision (``SolveSize.check``) and names the leaner one in its message.
"""

from __future__ import annotations

import ctypes
import gc
import os
from dataclasses import dataclass
from math import comb

import numpy as np

from solvers.games.base import GameParamError
from solvers.games.chance_subtrees import subtree_heads
from solvers.games.holdem.symmetry import walked_nodes

DENSE_RUNOUTS = 200
"""Showdowns over at least this many runouts (a flop's: 1,176) are valued as one product with a
matrix of summed signs per board (``HoldemGame._dense_runouts``: float32, and its negated
transpose for the other player); a turn's 48 rivers keep the sweep."""
DENSE_BYTES_PER_PAIR = 8
BASE_BYTES = 206 << 20
NODE_BYTES = 1400
EDGE_BYTES_PER_HAND = {"float64": 16, "float32": 8, "int16": 4}
"""Regrets and strategy sums per edge and hand, by ``CFRConfig.precision``."""
INNER_BYTES_PER_HAND = {"float64": 24, "float32": 12, "int16": 12}
"""Reach of both players and values per kept node and hand (float32 under 16 bits)."""
SCRATCHES = os.cpu_count() or 1
"""Subtree scratches alive at once (``compiled_walk.SCRATCHES_PER_THREAD`` per thread, numba
runs a thread per core)."""
LEANEST = "int16"
DEFAULT_PRECISION = "float32"
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


def _set_limit() -> int | None:
    """The cap set by ``--max-memory`` or ``POKERTUI_MAX_MEMORY_MB``, if any."""
    if _limit_bytes is not None:
        return _limit_bytes
    env = os.environ.get("POKERTUI_MAX_MEMORY_MB")
    if env and env.isdigit():
        return int(env) << 20
    return None


def memory_limit() -> int:
    found = _set_limit()
    return available_bytes() if found is None else found


def resident_bytes() -> int:
    """This process's resident set now (0 where ``/proc`` cannot tell)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def give_back() -> None:
    """Collect garbage and return the C heap's free pages to the system (glibc's
    ``malloc_trim``; elsewhere only the collection). The arrays of a dropped solve are freed
    into the heap, not unmapped, so without it a process that dropped them stays as large."""
    gc.collect()
    trim_heap()


_FROZEN = False


def give_back_and_freeze() -> None:
    """``give_back``, and the first time in a process also ``gc.freeze`` what survived: the
    long-lived objects (the blueprint's tables, the trees, numba's dispatchers; about 130,000)
    leave the collector's sight, so each later collection scans only what was made since: a
    millisecond a hand instead of 40. Called between hands once the bots are warm, when
    nothing of a hand is alive: an object frozen is never collected, so a cycle alive then and
    dropped later would stay."""
    global _FROZEN
    give_back()
    if not _FROZEN:
        gc.freeze()
        _FROZEN = True


def trim_heap() -> None:
    """Return the C heap's free pages to the system (``malloc_trim``; a millisecond): the
    compiled passes' per-call scratches leave some behind in the threads' arenas."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def wanted_bytes(need: int) -> int:
    """What a solve of ``need`` bytes in all asks of the limit. A set cap bounds the whole
    process, so it is ``need``; the machine's spare memory is what comes on top of what the
    process already holds, so the part of the fixed base (interpreter, libraries, kernels) that
    is resident already is not asked again: a bot's re-solve, or LBR's, inside a running
    process asks only for its arrays, and a moment of memory pressure on the machine does not
    refuse a river of a few MB."""
    if _set_limit() is not None:
        return need
    return need - min(BASE_BYTES, resident_bytes())


def estimate_bytes(
    n_nodes: int, n_edges: int, n_kept: int, max_hands: int, precision: str = DEFAULT_PRECISION
) -> int:
    """Bytes to solve a tree of ``n_nodes`` nodes and ``n_edges`` decision edges whose walk
    keeps reach and values for ``n_kept`` rows (``SolveSize.n_kept``), over at most
    ``max_hands`` hands a player, at ``precision``."""
    return (
        BASE_BYTES
        + n_nodes * NODE_BYTES
        + n_edges * max_hands * EDGE_BYTES_PER_HAND[precision]
        + n_kept * max_hands * INNER_BYTES_PER_HAND[precision]
    )


@dataclass(frozen=True)
class SolveSize:
    """What a spot's solve holds, counted once when the tree is built."""

    n_nodes: int
    n_edges: int
    """Decision edges that are walked (both players)."""
    n_top: int
    """Walked non-terminal nodes above the first chance nodes, and the subtrees' heads."""
    max_subtree: int
    """Walked non-terminal nodes of the largest group of subtrees below the cut (those whose
    heads deal the same card walk together, in one scratch)."""
    max_hands: int
    dense_boards: int = 0
    """Boards whose showdowns are valued through a runout matrix (``DENSE_RUNOUTS``)."""

    @property
    def n_kept(self) -> int:
        """Rows of reach and values a pass holds at once: the top ones and the scratches."""
        return self.n_top + SCRATCHES * self.max_subtree

    def bytes(self, precision: str = DEFAULT_PRECISION) -> int:
        dense = self.dense_boards * self.max_hands**2 * DENSE_BYTES_PER_PAIR
        sizes = (self.n_nodes, self.n_edges, self.n_kept, self.max_hands, precision)
        return estimate_bytes(*sizes) + dense

    def check(self, precision: str = DEFAULT_PRECISION) -> int:
        """The estimate in bytes at ``precision``; a ``GameParamError`` over the limit."""
        need = self.bytes(precision)
        limit = memory_limit()
        if wanted_bytes(need) > limit:
            leaner = self.bytes(LEANEST)
            hint = (
                f"; --opt precision=16 needs about {leaner / 2**20:,.0f} MB"
                if precision != LEANEST and wanted_bytes(leaner) <= limit
                else ""
            )
            where = (
                "the limit is"
                if _set_limit() is not None
                else "the machine can spare (half its available memory) only"
            )
            raise GameParamError(
                f"nlhe: this tree needs about {need / 2**20:,.0f} MB to solve "
                f"({self.n_nodes:,} nodes x {self.max_hands} hands) but {where} "
                f"{limit / 2**20:,.0f} MB{hint}; use fewer bet sizes, narrower ranges, or raise "
                "--max-memory"
            )
        return need


def check_memory(nodes, max_hands: int, swap=None) -> SolveSize:
    """The sizes of the tree ``nodes`` (walked with suit swap ``swap``, if any); a
    ``GameParamError`` if even the leanest storage is over the limit."""
    walked, _ = walked_nodes(nodes, swap)
    n_edges = sum(len(n.children) for n in nodes if n.is_decision and walked[n.id])
    inner = np.array([not n.is_terminal for n in nodes], dtype=np.bool_) & walked
    parent = np.array([n.parent for n in nodes], dtype=np.int64)
    head = subtree_heads(parent, np.array([n.is_chance for n in nodes], dtype=np.bool_))
    ids = np.arange(len(nodes))
    n_top = int((inner & ((head < 0) | (head == ids))).sum())
    rows = np.bincount(head[inner & (head >= 0)], minlength=len(nodes))
    heads = np.flatnonzero(rows)
    # the subtrees whose heads deal the same card walk as one group, one scratch
    # (``exact/showdown_batches.py``): a board's group, one per head
    boards = np.array([sorted(nodes[h].board) for h in heads], dtype=np.int64)
    max_subtree = 0
    if len(heads):
        _, group = np.unique(boards, axis=0, return_inverse=True)
        max_subtree = int(np.bincount(group.ravel(), weights=rows[heads]).max())
    size = SolveSize(
        n_nodes=len(nodes),
        n_edges=n_edges,
        n_top=n_top,
        max_subtree=max_subtree,
        max_hands=max_hands,
        dense_boards=len(dense_boards(nodes)),
    )
    size.check(LEANEST)
    return size


def dense_boards(nodes) -> set[tuple[int, ...]]:
    """The boards of showdowns over at least ``DENSE_RUNOUTS`` runouts (an upper bound on the
    runout matrices: a board whose terminals scale their runouts unevenly keeps the sweep)."""
    wide = {dealt for dealt in range(6) if comb(52 - dealt, 5 - dealt) >= DENSE_RUNOUTS}
    return {
        tuple(sorted(n.board))
        for n in nodes
        if n.is_terminal and n.terminal == "showdown" and len(n.board) in wide
    }
