"""A strategy file's text written as a stream, node by node, its ranges formatted in numpy.

``dumps_document(to_document(...))`` builds every range of the readable form with
``format_range`` (Python over each range's classes and weights) and the whole text in memory: a
turn spot's 134 MB took five minutes. Here a window of nodes' ranges is formatted at once:
weights are rounded to 6 significant digits as integers, the single combos' text is laid out
as bytes in a fixed-width matrix and compacted, and the classes whose combos share a weight are
found with array reductions and printed as ``format_range`` prints them, the runs of each set
of classes worked out once. The bytes are those of ``dumps_document``
(``tests/test_convert_stream.py``)."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, cast

import numpy as np

from solvers.atomic import atomic_write
from solvers.cards.deck import CLASS_COMBOS, COMBO_LABELS, N_CLASSES, N_COMBOS
from solvers.cards.ranges import _weight_suffix, class_items, format_range
from solvers.exact.compiled_plan import image_node
from solvers.games.base import TreeGame
from solvers.games.holdem.game import HoldemGame
from solvers.games.holdem.symmetry import SuitSwap
from solvers.strategy_file.binary import BinaryStrategy
from solvers.strategy_file.binary_codec import decode
from solvers.strategy_file.read import _holdem_view
from solvers.strategy_file.write import (
    _implied_action,
    _node_text,
    document_chunks,
    node_entry,
)

WINDOW_NODES = 512
"""Nodes formatted at once: enough to amortise numpy's per-call cost, small enough to keep a
window's weights (hands x ranges) a few MB."""
SAMPLE_NODES = 256
"""Nodes formatted to estimate a file's size (spread evenly over the tree)."""

_LABEL_BYTES = np.frombuffer("".join(COMBO_LABELS).encode("ascii"), np.uint8).reshape(-1, 4)
_POW10 = np.array([float(f"1e{k}") for k in range(340)])  # inf past 308: those go exactly
_TIE = 1e-6
"""Distance from a rounding tie (in units of the last digit) under which a value is rounded by
``format`` itself; the vectorised product errs by under 1e-9 of a unit."""
_KEY_BASE = 10**7


def six_digits(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each value (0 < v <= 1) as ``format(v, ".6g")`` rounds it: ``m * 10**(e - 5)`` with
    ``m`` in [1e5, 1e6). Values too close to a tie to call in floats go through ``format``."""
    values = np.asarray(values, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        e = np.floor(np.log10(values))
        k = np.clip(5 - np.nan_to_num(e, nan=0.0, posinf=0.0, neginf=400.0), 0, len(_POW10) - 1)
        scaled = values * _POW10[k.astype(np.int64)]
        fraction = scaled - np.floor(scaled)
    unsure = ~(np.abs(fraction - 0.5) > _TIE) | ~(scaled >= 1e5) | ~(scaled < 1e6 + 0.5)
    m = np.rint(np.where(unsure, 1e5, scaled))
    top = m == 1e6  # rounds up into the next decade
    m[top] = 1e5
    e = np.where(unsure, 0.0, e) + top
    m, e = m.astype(np.int64), e.astype(np.int64)
    for i in np.flatnonzero(unsure):
        digits, exponent = f"{float(format(float(values[i]), '.6g')):.5e}".split("e")
        m[i], e[i] = int(digits.replace(".", "")), int(exponent)
    return m, e


def _piece_bytes(labels: np.ndarray, m: np.ndarray, e: np.ndarray) -> tuple[bytes, np.ndarray]:
    """``LABEL[:weight], `` per combo (``format_range``'s single combos), concatenated, and each
    piece's length. Columns of a fixed-width byte matrix are filled, then the unused dropped."""
    n = len(m)
    one = (e == 0) & (m == 100_000)
    fixed = ~one & (e >= -4)
    sci = ~one & (e < -4)
    chars = np.zeros((n, 24), dtype=np.uint8)
    used = np.zeros((n, 24), dtype=np.bool_)
    chars[:, :4] = labels
    used[:, :4] = True
    chars[:, 4] = ord(":")
    used[:, 4] = ~one
    chars[:, 5], chars[:, 6] = ord("0"), ord(".")
    used[:, 5] = used[:, 6] = fixed
    zeros = -e - 1
    for j in range(3):
        chars[:, 7 + j] = ord("0")
        used[:, 7 + j] = fixed & (zeros > j)
    significant = np.full(n, 6, dtype=np.int64)
    for j in range(1, 6):  # trailing zeros are not printed
        significant[m % 10**j == 0] = 6 - j
    chars[:, 10] = m // 100_000 + 48
    used[:, 10] = ~one
    chars[:, 11] = ord(".")
    used[:, 11] = sci & (significant > 1)
    for j in range(1, 6):
        chars[:, 11 + j] = (m // 10 ** (5 - j)) % 10 + 48
        used[:, 11 + j] = ~one & (significant > j)
    chars[:, 17], chars[:, 18] = ord("e"), ord("-")
    used[:, 17] = used[:, 18] = sci
    power = -e
    chars[:, 19] = (power // 100) % 10 + 48
    used[:, 19] = sci & (power >= 100)
    chars[:, 20] = (power // 10) % 10 + 48
    chars[:, 21] = power % 10 + 48
    used[:, 20] = used[:, 21] = sci
    chars[:, 22], chars[:, 23] = ord(","), ord(" ")
    used[:, 22:] = True
    return chars[used].tobytes(), used.sum(axis=1)


class _ComboView:
    """One player's hands as combos (a spot's live combos, or all 1326): the column order that
    prints combos highest first, and the classes whose every combo is a hand (only those can
    print as a class)."""

    def __init__(self, combos: np.ndarray):
        combos = np.asarray(combos, dtype=np.int64)
        self.order = np.argsort(-combos, kind="stable")
        self.combos = combos[self.order]
        self.labels = _LABEL_BYTES[self.combos]
        column = np.full(N_COMBOS, -1, dtype=np.int64)
        column[self.combos] = np.arange(len(self.combos))
        full = [c for c in range(N_CLASSES) if (column[CLASS_COMBOS[c]] >= 0).all()]
        self.class_columns = np.concatenate(
            [column[CLASS_COMBOS[c]] for c in full] or [np.zeros(0, dtype=np.int64)]
        )
        sizes = np.array([len(CLASS_COMBOS[c]) for c in full], dtype=np.int64)
        self.class_starts = np.cumsum(sizes) - sizes
        self.classes = np.array(full, dtype=np.int64)
        self.class_of_column = np.full(len(self.combos), -1, dtype=np.int64)
        for i, c in enumerate(full):
            self.class_of_column[column[CLASS_COMBOS[c]]] = i
        self.groups: dict[tuple[int, ...], list[tuple[tuple[int, int, int], str]]] = {}
        self.members: dict[int, tuple[int, ...]] = {}

    def spread(self, weights: np.ndarray) -> np.ndarray:
        full = np.zeros(N_COMBOS)
        full[self.combos] = weights
        return full

    def ranges(self, weights: np.ndarray) -> list[bytes]:
        """``format_range`` of each row of ``weights`` ``[ranges, hands]`` (columns in
        ``order``), as ASCII bytes."""
        inside = (weights >= 0.0) & (weights <= 1.0)
        if not inside.all():  # format_range's own error
            format_range(self.spread(weights[int(np.flatnonzero(~inside.all(axis=1))[0])]))
        rows, cols = np.nonzero(weights > 0.0)
        m, e = six_digits(weights[rows, cols])
        keep = np.ones(len(rows), dtype=np.bool_)
        heads: dict[int, str] = {}  # a range's classes, or the whole range
        if len(self.class_starts) or len(self.combos) == N_COMBOS:
            keys = np.zeros(weights.shape, dtype=np.int64)
            keys[rows, cols] = (e + 400) * _KEY_BASE + m
            whole: list[int] = []
            if len(self.combos) == N_COMBOS:  # "random": every combo one weight
                same = (keys.min(axis=1) == keys.max(axis=1)) & (keys[:, 0] > 0)
                whole = np.flatnonzero(same).tolist()
                heads.update((r, format_range(self.spread(weights[r]))) for r in whole)
            if len(self.class_starts):
                keep = self._classes(weights, keys, rows, cols, heads)
            if whole:
                keep &= ~np.isin(rows, whole)
        rows, cols, m, e = rows[keep], cols[keep], m[keep], e[keep]
        text, lengths = _piece_bytes(self.labels[cols], m, e)
        ends = np.zeros(len(weights) + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, weights=lengths, minlength=len(weights)), out=ends[1:])
        bounds = ends.tolist()
        pairs = zip(bounds[:-1], bounds[1:], strict=True)
        out = [text[a : b - 2] if b > a else b"" for a, b in pairs]
        for r, head in heads.items():
            if head:
                out[r] = head.encode("ascii") + (b", " + out[r] if out[r] else b"")
        return out

    def _classes(self, weights, keys, rows, cols, heads: dict[int, str]) -> np.ndarray:
        """Print the classes whose combos share a weight (into ``heads``, per range); which
        single combos are left to print. Classes of one weight print as runs
        (``class_items``, kept per set of classes), each run with its weight."""
        grouped = keys[:, self.class_columns]
        top = np.maximum.reduceat(grouped, self.class_starts, axis=1)
        low = np.minimum.reduceat(grouped, self.class_starts, axis=1)
        shared = (top == low) & (top > 0)
        found: dict[int, list[tuple[tuple[int, int, int], str]]] = {}
        for r, members in self._weight_groups(shared, top, set(heads)):
            items = self.groups.get(members)
            if items is None:
                items = self.groups[members] = class_items([int(self.classes[i]) for i in members])
            value = weights[r, self.class_columns[self.class_starts[members[0]]]]
            suffix = _weight_suffix(float(format(value, ".6g")))
            found.setdefault(r, []).extend((key, label + suffix) for key, label in items)
        for r, items in found.items():
            items.sort()
            heads[r] = ", ".join(text for _, text in items)
        owner = self.class_of_column[cols]
        return ~((owner >= 0) & shared[rows, np.maximum(owner, 0)])

    def _weight_groups(self, shared, top, skip: set[int]) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Per range, the classes (indices into ``classes``) of each weight they share."""
        count = len(self.classes)
        if count > 62:  # too many for bit masks (all 169 classes of a preflop game): per range
            for r in np.flatnonzero(shared.any(axis=1)).tolist():
                if r not in skip:
                    by_weight: dict[int, list[int]] = {}
                    for c in np.flatnonzero(shared[r]).tolist():
                        by_weight.setdefault(int(top[r, c]), []).append(c)
                    yield from ((r, tuple(members)) for members in by_weight.values())
            return
        bits = np.left_shift(1, np.arange(count, dtype=np.int64))
        same = (top[:, :, None] == top[:, None, :]) & shared[:, None, :]
        group = (same * bits).sum(axis=2)  # the classes of each class's weight, as bits
        lead = shared & ((group & (bits - 1)) == 0)  # the first class of its weight
        lead[list(skip)] = False
        members = self.members
        for r, mask in zip(np.nonzero(lead)[0].tolist(), group[lead].tolist(), strict=True):
            found = members.get(mask)
            if found is None:
                found = members[mask] = tuple(i for i in range(count) if mask >> i & 1)
            yield r, found


def class_text(shared: np.ndarray) -> str:
    """``format_range``'s classes given each class's shared rounded weight (0: none)."""
    items: list[tuple[tuple[int, int, int], str]] = []
    for weight in set(shared[shared > 0.0].tolist()):
        suffix = _weight_suffix(weight)
        members = np.flatnonzero(shared == weight).tolist()
        items.extend((key, label + suffix) for key, label in class_items(members))
    items.sort()
    return ", ".join(text for _, text in items)


class NodeRows:
    """Each decision's rows ``[hands, actions]`` as ``strategy[node_id]`` gives them; a binary
    file's whole profile is decoded once per player (one compiled loop) instead of node by
    node, and each node's rows are cut from it as ``BinaryStrategy`` cuts them."""

    def __init__(self, game: TreeGame, strategy: Mapping[int, np.ndarray]):
        self.game = game
        self.strategy = strategy
        self._binary: list[tuple[np.ndarray, Any, dict[int, int]]] | None = None
        if isinstance(strategy, BinaryStrategy) and not strategy.averaging:
            self._binary = []
            for lay, sections in zip(strategy.layouts, strategy.sections, strict=True):
                per_edge = decode(lay, sections, strategy.bits, source=strategy.source)
                slots = {int(n): k for k, n in enumerate(lay.nodes)}
                self._binary.append((per_edge, lay, slots))

    def _swap(self) -> SuitSwap:
        """The suit twin a written-symmetric file left out (a binary file of a hold'em spot)."""
        swap = cast(HoldemGame, self.game).suit_swap()
        if swap is None:
            raise ValueError("a binary file left out a suit twin of a game without one")
        return swap

    def __call__(self, node) -> np.ndarray:
        if self._binary is None:
            return np.asarray(self.strategy[node.id])
        per_edge, lay, slots = self._binary[node.player]
        slot = slots.get(node.id)
        flip = slot is None  # under a left-out suit twin: its image, hands swapped
        if flip:
            slot = slots[image_node(self.game, self._swap(), node.id)]
        first = int(lay.first[slot])
        rows = per_edge[first : first + int(lay.actions[slot])].T.astype(np.float64)
        rows /= rows.sum(axis=1, keepdims=True)
        return rows[self._swap().hands[node.player]] if flip else rows


class DocumentWriter:
    """The text of a strategy file in ``form``, as bytes in pieces (``document_chunks``'s)."""

    def __init__(self, game: TreeGame, strategy: Mapping[int, np.ndarray], form: str):
        self.game = game
        self.form = form
        self.rows = NodeRows(game, strategy)
        self.nodes = list(game.decision_nodes())
        self._keys: dict[str, bytes] = {}  # an action's JSON key, with the value's quote
        self.views: list[_ComboView | None] = [None, None]
        if form == "readable":
            for p in (0, 1):
                view = _holdem_view(game, p)
                if view == "spot":
                    self.views[p] = _ComboView(game.hand_combos[p])  # type: ignore[attr-defined]
                elif view == "combos":
                    self.views[p] = _ComboView(np.arange(N_COMBOS))

    def chunks(self, head: dict[str, Any], progress: Callable[[int], None] | None = None):
        """The file's bytes: the header, then about ``WINDOW_NODES`` nodes a piece."""
        start, end = (text.encode("utf-8") for text in document_chunks(head, ()))
        yield start
        for a in range(0, len(self.nodes), WINDOW_NODES):
            texts = self._texts(self.nodes[a : a + WINDOW_NODES])
            yield (b",\n" if a else b"") + b",\n".join(texts)
            if progress is not None:
                progress(min(a + WINDOW_NODES, len(self.nodes)))
        yield end

    def estimate(self, head: dict[str, Any]) -> int:
        """The file's size in bytes from ``SAMPLE_NODES`` nodes formatted, scaled by each
        node's hands times the actions it prints."""
        if not self.nodes:
            return sum(len(t.encode()) for t in document_chunks(head, ()))
        hands = [len(self.game.hand_labels[p]) for p in (0, 1)]
        weight = np.array([hands[n.player] * len(n.actions) for n in self.nodes], dtype=float)
        picks = np.unique(np.linspace(0, len(self.nodes) - 1, SAMPLE_NODES).astype(np.int64))
        sample = sum(len(t) + 2 for t in self._texts([self.nodes[i] for i in picks]))
        body = sample * weight.sum() / max(weight[picks].sum(), 1.0)
        return int(body) + sum(len(t.encode()) for t in document_chunks(head, ()))

    def _texts(self, nodes: list) -> list[bytes]:
        """Each node's text, as ``document_chunks`` writes it."""
        out: list[bytes | None] = [None] * len(nodes)
        batches: list[list[tuple[int, Any, list[str], np.ndarray]]] = [[], []]
        for i, node in enumerate(nodes):
            rows = self.rows(node)
            view = self.views[node.player]
            if view is None:
                entry = node_entry(self.game, node, rows, self.form, arrays=True)
                out[i] = _node_text(node.key, entry, self.form == "compact").encode("utf-8")
                continue
            implied = _implied_action(node.actions)
            shown = [a for a, action in enumerate(node.actions) if action != implied]
            names = [node.actions[a] for a in shown]
            batches[node.player].append((i, node, names, rows[view.order][:, shown].T))
        for p, batch in enumerate(batches):
            if not batch:
                continue
            view = self.views[p]
            assert view is not None
            ranges = view.ranges(np.concatenate([b[3] for b in batch]))
            at = 0
            for i, node, names, _ in batch:
                parts = [b"  ", json.dumps(node.key).encode(), b": {\n   "]
                for k, name in enumerate(names):
                    key = self._keys.get(name)
                    if key is None:
                        key = self._keys[name] = json.dumps(name).encode() + b': "'
                    parts += (b'",\n   ' if k else b"", key, ranges[at + k])
                parts.append(b'"}' if names else b"}")
                at += len(names)
                out[i] = b"".join(parts)
        return out  # type: ignore[return-value]


def write_chunks(path: str | os.PathLike, chunks: Iterable[bytes]) -> Path:
    """Write the pieces to ``path`` atomically as they come (gzip level 1 for ``.gz``, as
    ``atomic_write_chunks``): a killed convert leaves the previous file, never half of one."""

    def write(out: BinaryIO) -> None:
        if str(path).endswith(".gz"):
            with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=1, mtime=0) as zipped:
                for chunk in chunks:
                    zipped.write(chunk)
        else:
            for chunk in chunks:
                out.write(chunk)

    return atomic_write(path, write)
