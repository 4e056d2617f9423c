"""Quantising a spot's per-edge probabilities to a binary file's sections, and back.

Per player the sections follow a ``Layout``: the decisions of the suit-isomorphic compiled plan
(``compiled_plan(game, isomorphic=True)``) in its compact order, with their widths. At each
decision only the hands that can be there (``live``) are stored, and of each such hand's row
every action but the first (check or fold, usually the most frequent), which takes what the
others leave, and with it their rounding. A stored probability ``p`` of an edge whose largest
live probability is ``s`` is ``q = round(sqrt(p / s) * (2**bits - 1))``: square-root companding
gives small frequencies (a 2% bluff) fine steps; decoding squares back, multiplies by ``s``,
gives the first action ``max(0, 1 - the others)`` and renormalises the row.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from solvers.errors import InputError
from solvers.exact.compiled_plan import CompiledPlan, compiled_plan
from solvers.exact.compiled_walk import SCRATCHES_PER_THREAD, CompiledWalk, Source
from solvers.exact.walk import build_plan
from solvers.games.base import TreeGame
from solvers.strategy_file.model import Problem, StrategyFileError

PROBS_DTYPES = {8: "u1", 16: "<u2"}
PARALLEL_SLOTS = 256
"""Decisions from which decoding runs on every core."""
CHUNK_CELLS = 1 << 23
"""Edge-hand cells decoded at once (32 MB of float32)."""
QUANTISE_CELLS = 1 << 21
"""Edge-hand cells quantised at once (a few float32 temporaries of 8 MB each)."""


@dataclass(frozen=True)
class Layout:
    """One player's decisions in file order: node ids, widths, first edges, hands."""

    nodes: np.ndarray
    actions: np.ndarray
    first: np.ndarray
    hands: int

    @property
    def n_edges(self) -> int:
        return int(self.actions.sum())

    @classmethod
    def of(cls, nodes: np.ndarray, actions: np.ndarray, hands: int) -> Layout:
        actions = np.asarray(actions, dtype=np.int64)
        first = np.zeros(len(actions), dtype=np.int64)
        np.cumsum(actions[:-1], out=first[1:])
        return cls(np.asarray(nodes, dtype=np.int64), actions, first, hands)


def canonical_plan(game: TreeGame) -> CompiledPlan:
    """The plan whose decisions and edges a binary file follows (suit twins left out)."""
    if not callable(getattr(game, "combo_terminals", None)):
        raise InputError(f"{game.name}: binary strategy files are for hold'em spots; use JSON")
    return compiled_plan(game, isomorphic=True)


def plan_rows(plan: CompiledPlan, player: int) -> np.ndarray:
    """The rows of ``player``'s walked decisions in compact (file) order."""
    rows = np.flatnonzero((plan.kind == player) & (plan.decision_slot >= 0))
    return rows[np.argsort(plan.decision_slot[rows])]


def plan_layout(game: TreeGame, player: int) -> Layout:
    plan = canonical_plan(game)
    nodes = build_plan(game).node_of_row[plan_rows(plan, player)]
    return Layout.of(nodes, plan.slot_actions[player], plan.n_hands[player])


def chunks(lay: Layout, cells: int = CHUNK_CELLS) -> Iterator[tuple[int, int]]:
    """Decision ranges ``[a, b)`` of about ``cells`` edge-hands each."""
    widest = max(1, int(lay.actions.max(initial=1)))
    per = max(1, cells // max(1, lay.hands * widest))
    for a in range(0, len(lay.actions), per):
        yield a, min(a + per, len(lay.actions))


def unpack(live: np.ndarray, hands: int) -> np.ndarray:
    return np.unpackbits(live, axis=1, count=hands, bitorder="little").astype(np.bool_)


def live_hands(
    walk: CompiledWalk,
    per_edge: list[np.ndarray | None],
    floor: float = 0.0,
    players: tuple[int, ...] = (0, 1),
) -> list[np.ndarray | None]:
    """Per player in ``players`` (None for the others), ``[decisions, hands]``: whether the
    hand's own reach at the decision (the product of its own action probabilities and the card
    masks on the way) is above ``floor`` under ``per_edge`` (canonical layout; only the asked
    players' arrays are read). A player's own reach depends on its own strategy alone, so each
    is one lean reach pass (``binary_kernels.own_live``): the rows above the first chance nodes
    and one subtree's scratch per thread, not the ``[inner rows, hands]`` arrays of a two-pass
    walk (a flop's take 160 MB a player)."""
    from solvers.strategy_file import binary_kernels  # noqa: PLC0415 - numba on use

    plan = walk.plan
    if plan is not canonical_plan(walk.game):
        raise ValueError("the walk must be on the canonical (suit-isomorphic) plan")
    out: list[np.ndarray | None] = [None, None]
    root = plan.schedule.top_index[0]
    for p in players:
        weights = per_edge[p]
        assert weights is not None, f"player {p}'s profile is needed for its live hands"
        n = plan.n_hands[p]
        live = np.zeros((len(plan.slot_first[p]), n), dtype=np.bool_)
        with walk.lock:
            walk.kernels.set_threads(walk.threads)
            top = np.zeros((plan.n_top, n), dtype=walk.dtype)
            top[root] = 1.0
            binary_kernels.own_live(
                walk.arrays, plan.schedule, Source(weights).kernel_input(walk.dtype), p, top,
                np.zeros((0, plan.n_hands[1 - p]), dtype=walk.dtype), floor, live,
                SCRATCHES_PER_THREAD * walk.threads,
            )  # fmt: skip
        out[p] = live
    return out


def _edges(lay: Layout, a: int, b: int) -> tuple[int, int, np.ndarray]:
    """Edges ``[e0, e1)`` of decisions ``[a, b)`` and which are stored (not a first action)."""
    e0, e1 = int(lay.first[a]), int(lay.first[b - 1] + lay.actions[b - 1])
    stored = np.ones(e1 - e0, dtype=np.bool_)
    stored[lay.first[a:b] - e0] = False
    return e0, e1, stored


def quantise(lay: Layout, per_edge: np.ndarray, live: np.ndarray, bits: int) -> dict:
    """One player's sections (``live``, ``start``, ``scale``, ``probs``) of probabilities
    ``[edges, hands]``."""
    top = (1 << bits) - 1
    counts = live.sum(axis=1).astype(np.uint64) * (lay.actions - 1).astype(np.uint64)
    start = np.zeros(len(lay.actions) + 1, dtype=np.uint64)
    np.cumsum(counts, out=start[1:])
    scale = np.zeros(lay.n_edges, dtype=np.float32)
    values = np.empty(int(start[-1]), dtype=PROBS_DTYPES[bits])
    for a, b in chunks(lay, QUANTISE_CELLS):
        e0, e1, stored = _edges(lay, a, b)
        mask = np.repeat(live[a:b], lay.actions[a:b], axis=0)
        block = np.where(mask, np.clip(per_edge[e0:e1], 0.0, 1.0), 0.0)
        largest = block.max(axis=1)
        scale[e0:e1] = largest
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(largest[:, None] > 0, block / largest[:, None], 0.0)
        mask[~stored] = False
        values[int(start[a]) : int(start[b])] = np.rint(np.sqrt(ratio[mask]) * top)
    packed = np.packbits(live, axis=1, bitorder="little")
    return {"live": packed, "start": start, "scale": scale, "probs": values}


def decode_slots(lay: Layout, sections: dict, bits: int, a: int, b: int, source: str = ""):
    """Probabilities ``[edges, hands]`` (float32) of decisions ``[a, b)``, every row a
    distribution (uniform for a hand that cannot be there). ``StrategyFileError`` if a hand's
    stored actions add up to clearly more than 1 (rounding allows one step per action)."""
    e0 = int(lay.first[a])
    e1 = int(lay.first[b - 1] + lay.actions[b - 1]) if b > a else e0
    out = np.empty((e1 - e0, lay.hands), dtype=np.float32)
    return _decode_into(lay, sections, bits, a, b, out, source)


def _decode_into(lay: Layout, sections: dict, bits: int, a: int, b: int, out, source: str):
    """Decisions ``[a, b)`` decoded into ``out`` (their edges' rows) by the compiled loop
    (``binary_kernels.decode_rows``)."""
    from solvers.strategy_file import binary_kernels  # noqa: PLC0415 - numba on use

    decode_rows = binary_kernels.decode_rows
    if b - a < PARALLEL_SLOTS:
        decode_rows = binary_kernels.decode_rows_serial
    over = np.zeros(b - a, dtype=np.bool_)
    start = np.asarray(sections["start"][a : b + 1], dtype=np.int64)
    e0 = int(lay.first[a]) if b > a else 0
    decode_rows(
        np.ascontiguousarray(sections["live"][a:b]),
        start,
        sections["probs"][int(start[0]) : int(start[-1])] if b > a else sections["probs"][:0],
        np.ascontiguousarray(sections["scale"][e0 : e0 + len(out)], dtype=np.float32),
        lay.actions[a:b],
        lay.first[a:b] - e0,
        float((1 << bits) - 1),
        out,
        over,
    )
    if over.any():
        bad = int(np.flatnonzero(over)[0]) + a
        node = int(lay.nodes[bad])
        problem = Problem(f"decision {bad} (node {node}): a hand's actions add up past 1")
        raise StrategyFileError(source, [problem])
    return out


def decode(lay: Layout, sections: dict, bits: int, out=None, source: str = "", store=True):
    """A player's whole profile ``[edges, hands]`` (float32) into ``out``; with ``store=False``
    only checked (a chunk at a time)."""
    if store:
        if out is None:
            out = np.empty((lay.n_edges, lay.hands), dtype=np.float32)
        return _decode_into(lay, sections, bits, 0, len(lay.actions), out, source)
    for a, b in chunks(lay):
        decode_slots(lay, sections, bits, a, b, source)
    return np.empty((0, lay.hands), dtype=np.float32)
