"""Binary strategy files (``.ptsb``): a hold'em spot's strategy quantised, memory-mapped.

The frame (magic, JSON header, aligned sections) is ``binary_layout.py``; what the sections
hold and how probabilities are quantised is ``binary_codec.py``; ``docs/strategy_files.md``
describes both. Stored are the walked decisions of the suit-isomorphic plan (a left-out twin
reads its image with every hand's suits swapped) and at each only the hands that can be there.

Reading maps the file (``np.memmap``) and needs the game's tree, not its compiled plan: a node's
rows are decoded on access (``BinaryStrategy[node_id]``), the whole profile only on request,
per player, in the compiled walk's compact layout (``compact_per_edge``), which is what exact
evaluation reads (``binary_eval.py``).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from solvers.atomic import atomic_write
from solvers.errors import InputError
from solvers.exact.compiled_plan import image_node
from solvers.file_reading import check_digest
from solvers.games import load_game
from solvers.games.base import TreeGame
from solvers.games.holdem.symmetry import walked_nodes
from solvers.strategy_file import binary_layout as frame
from solvers.strategy_file.binary_codec import Layout, decode, decode_slots, plan_layout
from solvers.strategy_file.model import (
    FORMAT_VERSION,
    LbrFigure,
    Measured,
    Problem,
    SolverInfo,
    StrategyFile,
    StrategyFileError,
)
from solvers.user_files import UserFileError

DEFAULT_BITS = 8
"""Quantisation of solver output: on the benchmark flop the decoded profile's exploitability is
within 0.01% of the pot of the float one (``docs/strategy_files.md``)."""
TARGET_BITS = (DEFAULT_BITS, 16)
"""Bits a probability tried in turn until a solve's file meets its ``--target``."""
SYMMETRISE_CELLS = 1 << 20
"""Edge-hand cells averaged with their twins at once (``symmetrise_compact``)."""
MEMO_BYTES = 64 << 20
"""Decoded rows a strategy keeps (``BinaryStrategy.__getitem__``): a turn file's whole
profile (3bet_turn's is 7 MB); a flop's first reads only."""


def write_binary(
    path: str | os.PathLike,
    game: TreeGame,
    sections: list[dict[str, np.ndarray]],
    bits: int,
    *,
    solver: SolverInfo | None = None,
    measured: Measured | None = None,
    float_exploitability: float | None = None,
    lbr: list[LbrFigure] | None = None,
    symmetric: bool = True,
) -> Path:
    """Write a binary strategy file atomically (never half a file). ``sections`` are
    ``binary_codec.quantise``'s, per player, in ``plan_layout`` order; ``symmetric``: their
    rows are suit-symmetric (``encode_profile``'s always are), so readers need not average
    twins (the header's ``symmetric``)."""
    layouts = [plan_layout(game, p) for p in (0, 1)]
    head: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "layout": frame.LAYOUT_VERSION,
        "form": "binary",
        "game": game.spec_string(),
        "bits": bits,
        "players": [_counts(lay) for lay in layouts],
    }
    if solver is not None:
        head["solver"] = solver.model_dump()
    if measured is not None:
        head["measured"] = measured.model_dump()
    if float_exploitability is not None:
        head["float_exploitability"] = float_exploitability
    if lbr:
        head["lbr"] = [figure.model_dump() for figure in lbr]
    if symmetric:
        head["symmetric"] = True
    named = {}
    for name in frame.section_names():
        p, kind = int(name[-1]), name[:-1]
        array = layouts[p].nodes.astype(np.int32) if kind == "nodes" else sections[p][kind]
        named[name] = np.ascontiguousarray(array, dtype=np.dtype(array.dtype).newbyteorder("<"))
    return _write_frame(path, named, head)


def replace_lbr(path: str | os.PathLike, figures: list[LbrFigure]) -> Path:
    """Rewrite the binary file at ``path`` with ``figures`` as its header's ``lbr`` list and
    every section copied unchanged (the header's length moves the sections, so the whole file
    is written again, atomically)."""
    load_binary(path, check=False)  # a whole, valid file before it is rewritten
    head, _ = frame.read_frame(path)
    head["lbr"] = [figure.model_dump() for figure in figures]
    return _rewrite(path, head)


def _rewrite(path: str | os.PathLike, head: dict[str, Any]) -> Path:
    """The file at ``path`` written again with header ``head`` (its ``sections`` are where
    the sections are read from), every section copied byte for byte."""
    named = {
        name: np.memmap(path, dtype=np.dtype(where["dtype"]), mode="r",
                        offset=where["offset"], shape=tuple(where["shape"]))
        if int(np.prod(where["shape"], dtype=np.int64)) else
        np.zeros(tuple(where["shape"]), dtype=np.dtype(where["dtype"]))
        for name, where in head.pop("sections").items()
    }  # fmt: skip
    return _write_frame(path, named, head)


def _write_frame(path: str | os.PathLike, named: dict[str, np.ndarray],
                 head: dict[str, Any]) -> Path:  # fmt: skip
    head = {**head, frame.DIGEST_KEY: frame.body_hash(named)}
    prefix, offsets = frame.frame(named, head)

    def write(out) -> None:
        out.write(prefix)
        at = len(prefix)
        for offset, array in zip(offsets, named.values(), strict=True):
            out.write(b"\0" * (offset - at))
            out.write(np.asarray(array).tobytes())
            at = offset + array.nbytes

    return atomic_write(path, write)


def _counts(lay: Layout) -> dict[str, int]:
    return {"slots": len(lay.nodes), "edges": lay.n_edges, "hands": lay.hands}


class BinaryStrategy(Mapping[int, np.ndarray]):
    """``{node_id: [hands, actions]}`` of a binary file, each node decoded on access and its
    float32 rows renormalised in float64, as the compiled walk reads them, so that a node's
    path reach and the walk's values are of one profile."""

    def __init__(self, game: TreeGame, layouts: list[Layout], sections: list[dict], bits: int):
        self.game = game
        self.layouts = layouts
        self.sections = sections
        self.bits = bits
        self.source = ""
        self._slot = [{int(n): k for k, n in enumerate(lay.nodes)} for lay in layouts]
        self._decisions = [n.id for n in game.nodes if n.is_decision]
        self.symmetric = False
        """The rows read are suit-symmetric: the file's own (written so, the header's
        ``symmetric``) or ``symmetrised()``'s."""
        self.averaging = False
        """Rows are averaged with their twin hands' on read (``symmetrised()`` of a file
        written before the writer symmetrised)."""
        self._symmetric_view: BinaryStrategy | None = None
        self._image: list[np.ndarray | None] = [None, None]
        self._memo: dict[int, np.ndarray] = {}
        self._memo_bytes = 0

    def symmetrised(self) -> BinaryStrategy:
        """The file's profile made exactly suit-symmetric: at a decision that is its own suit
        image, each hand's row is averaged with its suit-swapped twin's. The isomorphic walk
        (which ``exploit`` and the node reports run on) is exact only for such a profile, and
        a solve's rows there drift apart where a hand is indifferent (by up to 0.2 on a small
        flop); every reader reads this view (``as_played``) so that the values are those of
        the rows played. A file written symmetric is its own view: nothing is averaged."""
        if self.symmetric:
            return self
        if self._symmetric_view is None:
            view = copy.copy(self)
            view.symmetric = view.averaging = True
            view._memo, view._memo_bytes = {}, 0
            self._symmetric_view = view
        return self._symmetric_view

    def _self_image(self, player: int) -> np.ndarray:
        """``self_image`` of the file's slots (in the file's order, which ``__getitem__``
        reads)."""
        if self._image[player] is None:
            self._image[player] = self_image(self.game, self.layouts[player].nodes)
        return self._image[player]  # type: ignore[return-value]

    def __getitem__(self, node_id: int) -> np.ndarray:
        """A copy of the node's rows. Decoded once while they fit ``MEMO_BYTES``: a decode is
        about 70 us however small the node, and LBR reads a turn file's few thousand decisions
        once a deal (400,000 reads in its exact pass)."""
        kept = self._memo.get(node_id)
        if kept is not None:
            return kept.copy()
        rows = self._decode(node_id)
        if self._memo_bytes + rows.nbytes <= MEMO_BYTES:
            self._memo[node_id] = rows.copy()
            self._memo_bytes += rows.nbytes
        return rows

    def _decode(self, node_id: int) -> np.ndarray:
        node = self.game.nodes[node_id]
        if not node.is_decision:
            raise KeyError(node_id)
        p = node.player
        found = self._slot[p].get(node_id)
        flip = found is None  # under a left-out suit twin: its image, hands swapped
        slot = self._slot[p][_twin(self.game, node_id)] if found is None else found
        lay = self.layouts[p]
        rows = decode_slots(lay, self.sections[p], self.bits, slot, slot + 1, self.source)
        if self.averaging and not flip and self._self_image(p)[slot]:
            rows = average_twins(self.game, p, rows)
        rows = rows.T.astype(np.float64)
        rows /= rows.sum(axis=1, keepdims=True)  # as the walks read the float32 rows: exactly
        return rows[self.game.suit_swap().hands[p]] if flip else rows  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[int]:
        return iter(self._decisions)

    def __len__(self) -> int:
        return len(self._decisions)

    def compact_per_edge(self, player: int) -> np.ndarray:
        """The player's whole profile ``[compact edges, hands]`` (float32) in the compiled
        walk's layout on the canonical plan."""
        lay = self.layouts[player]
        if not np.array_equal(lay.nodes, plan_layout(self.game, player).nodes):
            message = "the file's decision order is not this tree's compiled plan"
            raise StrategyFileError(self.source, [Problem(message)])
        out = decode(lay, self.sections[player], self.bits, source=self.source)
        return symmetrise_compact(self.game, player, out) if self.averaging else out


def self_image_slots(game: TreeGame, player: int) -> np.ndarray:
    """Per decision slot of ``player`` in the canonical layout: whether the decision is its own
    suit image (the swap fixes every card dealt on its path; otherwise its image is a left-out
    twin, which reads its rows swapped)."""

    def build() -> np.ndarray:
        return self_image(game, plan_layout(game, player).nodes)

    return game.derived.get("self_image_slots", player, build)


def self_image(game: TreeGame, nodes: np.ndarray) -> np.ndarray:
    """Whether each of ``nodes`` is its own suit image."""
    swap = game.suit_swap()  # type: ignore[attr-defined]
    if swap is None:
        return np.zeros(len(nodes), dtype=np.bool_)
    fixed = swap.card == np.arange(len(swap.card))
    return np.array([fixed[list(game.nodes[int(n)].board)].all() for n in nodes], dtype=np.bool_)


def average_twins(game: TreeGame, player: int, block: np.ndarray) -> np.ndarray:
    """``[edges, hands]`` float32 rows averaged with their twin hands' (in float32, the same
    operations for one node, for the whole profile read and for the profile written)."""
    swap = game.suit_swap().hands[player]  # type: ignore[attr-defined]
    return (block + block[:, swap]) * np.float32(0.5)


def symmetrise_compact(game: TreeGame, player: int, per_edge: np.ndarray) -> np.ndarray:
    """``per_edge`` (``[compact edges, hands]`` float32, canonical layout) with the rows of
    every self-image decision averaged with their twins' (``average_twins``), in place."""
    lay = plan_layout(game, player)
    slots = np.flatnonzero(self_image_slots(game, player))
    if not len(slots):  # no suit swap: nothing to average
        return per_edge
    edges = np.repeat(lay.first[slots], lay.actions[slots]) + (
        np.arange(int(lay.actions[slots].sum()))
        - np.repeat(np.cumsum(lay.actions[slots]) - lay.actions[slots], lay.actions[slots])
    )
    step = max(1, SYMMETRISE_CELLS // max(1, per_edge.shape[1]))  # a few MB of temporaries
    for at in range(0, len(edges), step):
        chunk = edges[at : at + step]
        per_edge[chunk] = average_twins(game, player, per_edge[chunk])
    return per_edge


def as_played(strategy: Mapping[int, np.ndarray]) -> Mapping[int, np.ndarray]:
    """The profile reports and bots read: a binary file's ``symmetrised()`` view, any other
    strategy as it is."""
    return strategy.symmetrised() if isinstance(strategy, BinaryStrategy) else strategy


class EditedBinary(Mapping[int, np.ndarray]):
    """A binary file's strategy with some nodes' rows replaced (the explorer's edits before a
    lock). The walk reads the file's suit-isomorphic layout, so an edit holds at the node and,
    suits swapped, at its twin: the profile stays suit-symmetric."""

    def __init__(self, base: BinaryStrategy, edits: Mapping[int, np.ndarray]):
        self.base = base
        self.game = base.game
        self.edits: dict[int, np.ndarray] = {}
        for node_id, rows in edits.items():
            p = self.game.nodes[node_id].player
            if node_id in base._slot[p]:
                self.edits[node_id] = np.asarray(rows, dtype=np.float64)
            else:  # kept at the walked twin, hands swapped back
                swap = self.game.suit_swap().hands[p]  # type: ignore[attr-defined]
                self.edits[_twin(self.game, node_id)] = np.asarray(rows)[np.argsort(swap)]

    def __getitem__(self, node_id: int) -> np.ndarray:
        found = self.edits.get(node_id)
        if found is not None:
            return found
        node = self.game.nodes[node_id]
        if node.is_decision and node_id not in self.base._slot[node.player]:
            twin = self.edits.get(_twin(self.game, node_id))
            if twin is not None:
                return twin[self.game.suit_swap().hands[node.player]]  # type: ignore[attr-defined]
        return self.base[node_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self.base)

    def __len__(self) -> int:
        return len(self.base)

    def compact_per_edge(self, player: int) -> np.ndarray:
        out = self.base.compact_per_edge(player)
        lay = self.base.layouts[player]
        for node_id, rows in self.edits.items():
            if self.game.nodes[node_id].player == player:
                slot = self.base._slot[player][node_id]
                first = int(lay.first[slot])
                out[first : first + int(lay.actions[slot])] = rows.T
        return out


def _twin(game: TreeGame, node_id: int) -> int:
    """The node whose key is ``node_id``'s with the suit swap applied to every dealt card."""
    return image_node(game, game.suit_swap(), node_id)  # type: ignore[attr-defined]


REBUILD = ("solve it again with `pokertui solve SPOT --out FILE.ptsb` (the shipped spots: "
           "`pokertui build-bots --part spots`, strategies/README.md), or check it and add the "
           "digest with `pokertui add-digest {path}`")  # fmt: skip


def load_binary(path: str | os.PathLike, check: bool = True, *,
                require_digest: bool = True) -> StrategyFile:  # fmt: skip
    """Open a binary strategy file (memory-mapped) and check it; ``StrategyFileError`` with
    every problem found. ``check`` decodes every row once (what ``validate`` does); without it
    the frame, the header, the decisions and the offsets are checked, and a row when read.
    The body's SHA-256 is checked either way (10.7 MB take 24-31 ms here); ``require_digest=False``
    reads a file written before it (``add_digest``)."""
    source = str(path)
    head, size = frame.read_frame(path)

    def fail(message: str) -> StrategyFileError:
        return StrategyFileError(source, [Problem(message)])

    extra = sorted(set(head) - frame.BINARY_KEYS)
    if extra:
        raise fail(f"unknown header fields: {', '.join(extra)}")
    if head.get("layout") != frame.LAYOUT_VERSION:
        raise fail(f"layout {head.get('layout')!r} is not {frame.LAYOUT_VERSION}: newer pokertui?")
    bits = head.get("bits")
    if bits not in frame.PROBS_DTYPES or isinstance(bits, bool):
        raise fail(f"bits must be 8 or 16, not {bits!r}")
    spec = head.get("game")
    if not isinstance(spec, str):
        raise fail("'game' must be a game spec string")
    try:
        game = load_game(spec)
    except InputError as exc:
        raise fail(f"unknown game or parameter: {exc}") from None
    if not callable(getattr(game, "suit_swap", None)):
        raise fail(f"{game.name}: binary strategy files are for hold'em spots")
    if not isinstance(head.get("symmetric", False), bool):
        raise fail(f"'symmetric' must be true or false, not {head['symmetric']!r}")
    players = head.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(
        isinstance(x, dict) and set(x) == {"slots", "edges", "hands"}
        and all(isinstance(v, int) and v >= 0 for v in x.values()) for x in players
    ):  # fmt: skip
        raise fail("'players' must give slots, edges and hands of both players")
    headers = _headers(source, head)
    totals = [_declared_length(head, f"probs{p}") for p in (0, 1)]
    where = frame.check_sections(
        source, head, size, frame.expected_shapes(players, (totals[0], totals[1])), bits
    )
    sections: list[dict[str, np.ndarray]] = [{}, {}]
    for name, (offset, dtype, shape) in where.items():
        if int(np.prod(shape, dtype=np.int64)) == 0:
            array = np.zeros(shape, dtype=dtype)
        else:
            array = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape)
        sections[int(name[-1])][name[:-1]] = array
    layouts = _layouts(source, game, players, sections)
    for p in (0, 1):
        _check_counts(source, layouts[p], p, sections[p])
        if check:
            decode(layouts[p], sections[p], bits, source=source, store=False)
    if require_digest or frame.DIGEST_KEY in head:
        _check_digest(path, head, min(offset for offset, _, _ in where.values()))
    strategy = BinaryStrategy(game, layouts, sections, bits)
    strategy.source = source
    strategy.symmetric = head.get("symmetric", False)
    # a read-only Mapping decoded on demand: readers only index and iterate it
    loaded = StrategyFile(game, strategy, headers["solver"], headers["measured"],  # type: ignore[arg-type]
                          source)  # fmt: skip
    loaded.lbr = headers["lbr"]
    return loaded


def _check_digest(path: str | os.PathLike, head: dict[str, Any], start: int) -> None:
    """The body (from the first section to the end) against the header's SHA-256, after the
    other checks, which name a problem more precisely when the digest would fail too."""
    try:
        actual = frame.file_body_hash(path, start)
        check_digest(path, "binary strategy", head.get(frame.DIGEST_KEY), actual, REBUILD)
    except UserFileError as exc:
        raise StrategyFileError(str(path), [Problem(exc.reason)]) from None
    except OSError as exc:
        raise StrategyFileError(str(path), [Problem(f"cannot read: {exc.strerror}")]) from None


def add_digest(path: str | os.PathLike) -> bool:
    """Write the body digest into the header of a binary file written before it, after every
    row has been decoded and checked (the digest vouches for the body from then on), every
    section copied unchanged; False when the file has a digest already (checked on reading)."""
    load_binary(path, check=True, require_digest=False)
    head, _ = frame.read_frame(path)
    if frame.DIGEST_KEY in head:
        return False
    return _rewrite(path, head) is not None


def _declared_length(head: dict[str, Any], name: str) -> int:
    declared = head.get("sections")
    entry = declared.get(name) if isinstance(declared, dict) else None
    shape = entry.get("shape") if isinstance(entry, dict) else None
    if isinstance(shape, list) and len(shape) == 1 and isinstance(shape[0], int):
        return shape[0] if shape[0] >= 0 else -1
    return -1


def _layouts(source: str, game: TreeGame, players, sections) -> list[Layout]:
    """Each player's decisions as the file lists them, checked against the tree: every walked
    decision of that player once (suit twins left out), with the header's counts."""
    walked, _ = walked_nodes(game.nodes, game.suit_swap())  # type: ignore[attr-defined]
    actor = np.array([n.player if n.is_decision else -1 for n in game.nodes], dtype=np.int64)
    widths = np.array([len(n.children) for n in game.nodes], dtype=np.int64)
    out = []
    for p in (0, 1):
        ids = np.asarray(sections[p]["nodes"], dtype=np.int64)
        want = np.flatnonzero((actor == p) & walked)
        ok = (ids >= 0).all() and (ids < len(actor)).all()
        if not ok or not np.array_equal(np.sort(ids), want):
            raise StrategyFileError(
                source, [Problem(f"player {p + 1}: the decisions listed are not this tree's")]
            )
        lay = Layout.of(ids, widths[ids], game.n_hands[p])
        if players[p] != _counts(lay):
            message = f"player {p + 1}: counts {players[p]} are not the tree's {_counts(lay)}"
            raise StrategyFileError(source, [Problem(message)])
        out.append(lay)
    return out


def _check_counts(source: str, lay: Layout, p: int, part: dict[str, np.ndarray]) -> None:
    """Padding bits, offsets and scales agree with the tree (no decoding needed)."""
    problems = []
    bits_all = np.unpackbits(np.asarray(part["live"]), axis=1, bitorder="little")
    if bits_all[:, lay.hands :].any():
        problems.append(Problem(f"player {p + 1}: padding bits of the live hands are set"))
    stored = (lay.actions - 1).astype(np.uint64)  # the first action is not stored
    counts = bits_all[:, : lay.hands].sum(axis=1, dtype=np.uint64) * stored
    start = np.asarray(part["start"])
    if start[0] != 0 or not np.array_equal(np.diff(start), counts):
        problems.append(Problem(f"player {p + 1}: offsets do not match the live hands"))
    elif int(start[-1]) != len(part["probs"]):
        problems.append(Problem(f"player {p + 1}: {len(part['probs'])} values, not {start[-1]}"))
    scale = np.asarray(part["scale"])
    if not (np.isfinite(scale).all() and (scale >= 0).all() and (scale <= 1 + 1e-6).all()):
        problems.append(Problem(f"player {p + 1}: edge scales must be in [0, 1]"))
    if problems:
        raise StrategyFileError(source, problems)


def _headers(source: str, head: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"lbr": []}
    problems = []
    for name, model in (("solver", SolverInfo), ("measured", Measured)):
        out[name] = None
        if head.get(name) is not None:
            try:
                out[name] = model.model_validate(head[name])
            except ValidationError as exc:
                problems.append(Problem(f"{name}: {exc.errors()[0]['msg']}"))
    loss = head.get("float_exploitability")
    if loss is not None and not (isinstance(loss, int | float) and np.isfinite(loss)):
        problems.append(Problem("float_exploitability must be a finite number"))
    figures = head.get("lbr") or []
    for figure in figures if isinstance(figures, list) else [None]:
        try:
            out["lbr"].append(LbrFigure.model_validate(figure))
        except ValidationError as exc:
            problems.append(Problem(f"lbr: {exc.errors()[0]['msg']}"))
    if problems:
        raise StrategyFileError(source, problems)
    return out
