"""Hand ranges: parse and print range strings, count combos against dead cards.

A range is a plain numpy float64 array of ``N_COMBOS`` (1326) weights in [0, 1], one per combo
in the order of :mod:`solvers.cards.deck`.
Solvers carry these arrays as reach vectors, so the parser
and printer here are the only place that knows the text form people type and read, such as
``QQ+, A2s+, KQo:0.5, T9s-76s, AsKd``.

Grammar (items separated by commas, whitespace around items ignored, letters in any case):

* ``AA``, ``AKs``, ``AKo``, ``AK`` (suited and offsuit); ``KA`` reads as ``AK``;
* a single combo ``AsKd`` (``As Kd`` also works);
* plus: ``QQ+`` (QQ, KK, AA), ``A2s+`` (A2s..AKs: the kicker climbs up to one below the top
  card), ``K9o+``, ``K9+``;
* dash, both ends inclusive and in either order: ``22-55``, ``A2s-A5s`` (same top card),
  ``T9s-76s`` (same gap: T9s, 98s, 87s, 76s); both ends must have the same shape (``T9s-76o``
  and ``AKs-22`` are errors);
* ``random`` or ``any``: every combo;
* a ``:weight`` suffix on any item, a number in [0, 1] (``AQo:0.5``, ``QQ+:0.25``).

Items apply left to right and a later item overrides an earlier one for the same combo, so
``AA, AsAh:0`` is AA without one combo. :func:`format_range` prints weights with 6 significant
digits, so ``parse_range(format_range(r))`` reproduces ``r`` exactly whenever its weights are
round at 6 significant digits (and otherwise rounds them there).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import (
    CLASS_COMBOS,
    COMBO_CLASS,
    COMBO_INDEX,
    COMBO_LABELS,
    N_CLASSES,
    N_COMBOS,
    RANKS,
    SUITS,
    dead_mask,
    parse_cards,
)
from solvers.errors import InputError

__all__ = [
    "RangeError",
    "class_combo_counts",
    "combo_count",
    "format_range",
    "normalise",
    "parse_range",
    "range_from_classes",
]

_SEPARATORS_WS = " \t\r\n"
_RANK = "[2-9TJQKAtjqka]"
_SUIT = "[cdhsCDHS]"
_CLASS_RE = re.compile(f"({_RANK})({_RANK})([sSoO]?)")
_COMBO_RE = re.compile(f"({_RANK})({_SUIT})[ \t]*({_RANK})({_SUIT})")
_NUMBER_RE = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_EVERYTHING = ("random", "any")
_DIGITS = 6  # significant digits of printed weights


class RangeError(InputError):
    """A range string could not be read.

    ``text`` is the whole input, ``token`` the offending item and ``position`` the index of its
    first character in ``text`` (-1 when the error is not about one place in a string).
    """

    def __init__(self, message: str, text: str = "", position: int = -1, token: str = "") -> None:
        self.text = text
        self.position = position
        self.token = token
        if position >= 0:
            message = f"{message}: {token!r} at position {position}"
            if text:
                message = f"{message}\n  {text}\n  {' ' * position}^"
        super().__init__(message)


# --------------------------------------------------------------------------- class geometry
# A non-pair class is (hi, lo, shape) with ranks 0..12 (2..A), hi > lo and shape "s" or "o";
# a pair is (r, r, "").


def _class_id(hi: int, lo: int, shape: str) -> int:
    """Index into the 169 classes (see the layout in :mod:`solvers.cards.deck`)."""
    top, bottom = 12 - hi, 12 - lo
    if hi == lo:
        return top * 14
    if shape == "s":
        return top * 13 + bottom
    return bottom * 13 + top


def _class_label(hi: int, lo: int, shape: str) -> str:
    return RANKS[hi] + RANKS[lo] + shape


def _classes_combos(class_ids: Iterable[int]) -> np.ndarray:
    return np.concatenate([CLASS_COMBOS[c] for c in class_ids])


# --------------------------------------------------------------------------------- parsing


class _ItemError(Exception):
    """Raised inside one item; :func:`parse_range` adds the item and its position."""


def _rank(char: str) -> int:
    return RANKS.index(char.upper())


@dataclass(frozen=True)
class _Hand:
    """One end of a class item: ``AKs`` is (12, 11, "s"), ``AK`` is (12, 11, "")."""

    hi: int
    lo: int
    shape: str  # "s", "o" or "" (both for non-pairs; always "" for pairs)

    @property
    def pair(self) -> bool:
        return self.hi == self.lo


def _parse_hand(text: str) -> _Hand:
    match = _CLASS_RE.fullmatch(text)
    if match is None:
        raise _ItemError(f"cannot read {text!r} as a hand such as AA, AKs, AKo or AK")
    first, second = _rank(match[1]), _rank(match[2])
    shape = match[3].lower()
    if first == second and shape:
        kind = "suited" if shape == "s" else "offsuit"
        raise _ItemError(f"a pair cannot be {kind}")
    return _Hand(max(first, second), min(first, second), shape)


def _shape_classes(hi: int, lo: int, shape: str) -> list[int]:
    if hi == lo:
        return [_class_id(hi, lo, "")]
    shapes = [shape] if shape else ["s", "o"]
    return [_class_id(hi, lo, s) for s in shapes]


def _plus_classes(hand: _Hand) -> list[int]:
    if hand.pair:
        return [_class_id(r, r, "") for r in range(hand.hi, 13)]
    return [c for lo in range(hand.lo, hand.hi) for c in _shape_classes(hand.hi, lo, hand.shape)]


def _dash_classes(first: _Hand, last: _Hand) -> list[int]:
    if first.pair != last.pair or first.shape != last.shape:
        raise _ItemError(
            "both ends of a dash range must have the same shape (as in 22-55, A2s-A5s or T9s-76s)"
        )
    if first.pair:
        low, high = sorted((first.hi, last.hi))
        return [_class_id(r, r, "") for r in range(low, high + 1)]
    if first.hi == last.hi:
        low, high = sorted((first.lo, last.lo))
        return [c for lo in range(low, high + 1) for c in _shape_classes(first.hi, lo, first.shape)]
    gap = first.hi - first.lo
    if gap != last.hi - last.lo:
        suggestion = _class_label(last.hi, max(last.hi - gap, 0), first.shape)
        raise _ItemError(
            "the ends of a dash range must share the top card (A2s-A5s) or the gap between "
            f"the ranks (T9s-76s); here the gaps are {gap} and {last.hi - last.lo} "
            f"(did you mean {_class_label(first.hi, first.lo, first.shape)}-{suggestion}?)"
        )
    low, high = sorted((first.hi, last.hi))
    return [c for hi in range(low, high + 1) for c in _shape_classes(hi, hi - gap, first.shape)]


def _parse_weight(text: str) -> float:
    text = text.strip(_SEPARATORS_WS)
    if not text:
        raise _ItemError("missing weight after ':'")
    if _NUMBER_RE.fullmatch(text) is None:
        raise _ItemError(f"weight {text!r} is not a number")
    weight = float(text)
    if not 0.0 <= weight <= 1.0:
        raise _ItemError(f"weight {text} is outside [0, 1]")
    return weight


def _parse_hands(text: str) -> np.ndarray:
    """Combo indices named by one item without its weight."""
    text = text.strip(_SEPARATORS_WS)
    exact = _EXACT_COMBOS.get(text)
    if exact is not None:  # a combo as ``range_text`` writes it: a re-solve's ranges are ~1,000
        return exact
    if text.lower() in _EVERYTHING:
        return np.arange(N_COMBOS)
    combo = _COMBO_RE.fullmatch(text)
    if combo is not None:
        cards = [_rank(combo[i]) * 4 + SUITS.index(combo[i + 1].lower()) for i in (1, 3)]
        if cards[0] == cards[1]:
            raise _ItemError("the same card appears twice")
        return np.array([COMBO_INDEX[cards[0], cards[1]]])
    if not text:
        raise _ItemError("missing hand before ':'")
    if text.endswith("+"):
        return _classes_combos(_plus_classes(_parse_hand(text[:-1])))
    if "-" in text:
        first, _, last = text.partition("-")
        hands = _parse_hand(first.strip(_SEPARATORS_WS)), _parse_hand(last.strip(_SEPARATORS_WS))
        return _classes_combos(_dash_classes(*hands))
    hand = _parse_hand(text)
    return _classes_combos(_shape_classes(hand.hi, hand.lo, hand.shape))


_EXACT_COMBOS = {
    text: np.array([index]) for index, label in enumerate(COMBO_LABELS)
    for text in (label, label[2:] + label[:2])
}
"""Each combo's two spellings (``AhKh``, ``KhAh``) to its index, read without the regex."""


def _parse_item(text: str) -> tuple[np.ndarray, float]:
    hands, colon, weight = text.partition(":")
    return _parse_hands(hands), (_parse_weight(weight) if colon else 1.0)


def _split_items(text: str) -> Iterable[tuple[str, int]]:
    """Yield (item, position of its first character) for each comma-separated item."""
    start = 0
    for chunk in text.split(","):
        stripped = chunk.lstrip(_SEPARATORS_WS)
        yield stripped.rstrip(_SEPARATORS_WS), start + len(chunk) - len(stripped)
        start += len(chunk) + 1


def parse_range(text: str) -> np.ndarray:
    """Read a range string into 1326 combo weights; later items override earlier ones.

    >>> int(parse_range("QQ+, AKs").sum())
    22
    >>> float(parse_range("AA:0.5, AsAh")[1325])
    1.0
    """
    return _parse_range(text).copy()


@functools.lru_cache(maxsize=16)
def _parse_range(text: str) -> np.ndarray:
    """``parse_range``, kept for the last texts read: a spot's parameters are checked, then
    built, each reading both ranges (a re-solve's run to a thousand combos)."""
    weights = np.zeros(N_COMBOS)
    if not text.strip(_SEPARATORS_WS):
        return weights
    for item, position in _split_items(text):
        if not item:
            raise RangeError(
                "empty item (two commas in a row, or a stray comma)", text, position, item
            )
        try:
            combos, weight = _parse_item(item)
        except _ItemError as exc:
            raise RangeError(str(exc), text, position, item) from None
        weights[combos] = weight
    return weights


def range_from_classes(weights_by_item: Mapping[str, float]) -> np.ndarray:
    """Build a range from ``{item: weight}`` such as ``{"AKs": 1.0, "QQ+": 0.5}``, in order."""
    weights = np.zeros(N_COMBOS)
    for item, weight in weights_by_item.items():
        try:
            combos = _parse_hands(item)
        except _ItemError as exc:
            raise RangeError(str(exc), item, 0, item) from None
        if not 0.0 <= weight <= 1.0:
            raise RangeError(f"weight {weight} of {item!r} is outside [0, 1]")
        weights[combos] = weight
    return weights


# ---------------------------------------------------------------------------------- counting


def _as_weights(weights: np.ndarray) -> np.ndarray:
    array = np.asarray(weights, dtype=np.float64)
    if array.shape != (N_COMBOS,):
        raise RangeError(f"a range has {N_COMBOS} combo weights, got shape {array.shape}")
    return array


def _dead_cards(dead_cards: Iterable[int] | str) -> list[int]:
    if isinstance(dead_cards, str):
        return parse_cards(dead_cards)
    return [int(card) for card in dead_cards]


def combo_count(weights: np.ndarray, dead_cards: Iterable[int] | str = ()) -> float:
    """Weighted number of combos that hold none of ``dead_cards`` (ids or a string "Jh9c3d")."""
    alive = ~dead_mask(_dead_cards(dead_cards))
    return float(_as_weights(weights)[alive].sum())


def class_combo_counts(weights: np.ndarray, dead_cards: Iterable[int] | str = ()) -> np.ndarray:
    """Weighted live combos per class, a 169-vector in class order."""
    live = np.where(dead_mask(_dead_cards(dead_cards)), 0.0, _as_weights(weights))
    return np.bincount(COMBO_CLASS, weights=live, minlength=N_CLASSES)


def normalise(weights: np.ndarray, dead_cards: Iterable[int] | str = ()) -> np.ndarray:
    """Zero the combos blocked by ``dead_cards`` and scale the rest to sum to 1."""
    live = np.where(dead_mask(_dead_cards(dead_cards)), 0.0, _as_weights(weights))
    total = live.sum()
    if not total > 0.0:
        raise RangeError("impossible range: no combo is left once the dead cards are removed")
    return live / total


# -------------------------------------------------------------------------------- formatting
# format_range prints every class whose combos share one weight as part of a run: pairs as
# "QQ+" or "TT-66"; other classes as rows with a fixed top card ("A2s+", "A9o-A6o") or
# diagonals with a fixed gap ("T9s-76s"). "AK" covers AKs and AKo when both carry the weight.


def _rounded(weights: np.ndarray) -> np.ndarray:
    """Weights rounded to the printed precision (loops over distinct values only)."""
    values, inverse = np.unique(weights, return_inverse=True)
    rounded = np.array([float(format(v, f".{_DIGITS}g")) for v in values])
    return rounded[inverse.reshape(-1)]


def _weight_suffix(weight: float) -> str:
    return "" if weight == 1.0 else ":" + format(weight, f".{_DIGITS}g")


def _consecutive_runs(ranks: list[int]) -> list[tuple[int, int]]:
    """Split sorted ranks into maximal runs of consecutive ranks, as (low, high)."""
    runs: list[tuple[int, int]] = []
    for rank in ranks:
        if runs and runs[-1][1] == rank - 1:
            runs[-1] = (runs[-1][0], rank)
        else:
            runs.append((rank, rank))
    return runs


def _pair_label(low: int, high: int) -> str:
    if low == high:
        return RANKS[low] * 2
    if high == 12:
        return RANKS[low] * 2 + "+"
    return RANKS[high] * 2 + "-" + RANKS[low] * 2


def _row_label(hi: int, low: int, high: int, shape: str) -> str:
    """Label of the run hi+low .. hi+high (kickers low..high under the top card hi)."""
    if low == high:
        return _class_label(hi, low, shape)
    if high == hi - 1:
        return _class_label(hi, low, shape) + "+"
    return _class_label(hi, high, shape) + "-" + _class_label(hi, low, shape)


def _diagonal_label(gap: int, low: int, high: int, shape: str) -> str:
    """Label of the run of classes with top cards low..high and kicker top - gap."""
    if low == high:
        return _class_label(low, low - gap, shape)
    return _class_label(high, high - gap, shape) + "-" + _class_label(low, low - gap, shape)


def _cover_cells(
    cells: set[tuple[int, int]], must: set[tuple[int, int]], shape: str
) -> list[tuple[str, int, int]]:
    """Runs through ``cells`` (all of one weight) that cover every ``must`` cell.

    Cells are (hi, lo) rank pairs. Rows come first, as charts read ("K9s+", "A9o-A6o"); classes
    alone in their row then form diagonals of one gap ("JTs-54s") when three or more are needed.
    Runs may pass through cells outside ``must`` (same weight, printed elsewhere too): that keeps
    "A2s+, AK" short. Returns (label, hi, lo) with (hi, lo) the run's highest class.
    """
    runs: list[tuple[str, int, int]] = []
    alone: set[tuple[int, int]] = set()
    for hi in range(13):
        for low, high in _consecutive_runs(sorted(lo for h, lo in cells if h == hi)):
            if low == high:
                alone.add((hi, low))
                continue
            needed = [lo for lo in range(low, high + 1) if (hi, lo) in must]
            if not needed:
                continue
            trimmed = _row_label(hi, min(needed), max(needed), shape)
            full = _row_label(hi, low, high, shape)
            if len(trimmed) <= len(full):
                runs.append((trimmed, hi, max(needed)))
            else:
                runs.append((full, hi, high))
    for gap in range(1, 13):
        tops = sorted(hi for hi, lo in alone if hi - lo == gap)
        for low, high in _consecutive_runs(tops):
            needed = [hi for hi in range(low, high + 1) if (hi, hi - gap) in must]
            if len(needed) >= 3:
                label = _diagonal_label(gap, min(needed), max(needed), shape)
                runs.append((label, max(needed), max(needed) - gap))
            else:
                runs.extend((_class_label(hi, hi - gap, shape), hi, hi - gap) for hi in needed)
    return runs


def _class_weights(rounded: np.ndarray) -> np.ndarray:
    """Per class: the shared weight of its combos, or NaN when they differ."""
    shared = np.full(N_CLASSES, np.nan)
    for class_id, combos in enumerate(CLASS_COMBOS):
        values = rounded[combos]
        if np.all(values == values[0]):
            shared[class_id] = values[0]
    return shared


def _class_cells() -> list[tuple[str, int, int]]:
    cells: list[tuple[str, int, int]] = [("", 0, 0)] * N_CLASSES
    for hi in range(13):
        cells[_class_id(hi, hi, "")] = ("", hi, hi)
        for lo in range(hi):
            for shape in "so":
                cells[_class_id(hi, lo, shape)] = (shape, hi, lo)
    return cells


_CLASS_CELLS = _class_cells()
"""Each class as (shape, higher rank, lower rank), ``_class_id``'s inverse."""


def class_items(classes: list[int]) -> list[tuple[tuple[int, int, int], str]]:
    """The items (sort key, text) that print ``classes``, all of one weight, the weight left
    out: pair runs, then suited and offsuit runs; ``format_range`` and the streamed JSON use it."""
    items: list[tuple[tuple[int, int, int], str]] = []
    cells: dict[str, set[tuple[int, int]]] = {"": set(), "s": set(), "o": set()}
    for c in classes:
        shape, hi, lo = _CLASS_CELLS[c]
        cells[shape].add((hi, lo))
    for low, high in _consecutive_runs(sorted(hi for hi, _ in cells[""])):
        items.append(((0, -high, 0), _pair_label(low, high)))
    both = cells["s"] & cells["o"]
    layers = (
        ("", 1, both, both),
        ("s", 2, cells["s"], cells["s"] - both),
        ("o", 3, cells["o"], cells["o"] - both),
    )
    for shape, group, allowed, must in layers:
        if allowed:
            items.extend(((group, -hi, -lo), label) for label, hi, lo in
                         _cover_cells(allowed, must, shape))  # fmt: skip
    return items


def format_range(weights: np.ndarray) -> str:
    """Print a range in the short usual form that :func:`parse_range` reads back.

    Weights print with 6 significant digits; zero-weight combos are left out.

    >>> format_range(parse_range("AA, KK, QQ, AKs, AQs:0.5, KQ, T9s, 98s, 87s, AsKd"))
    'QQ+, KQ, AKs, AQs:0.5, T9s-87s, AsKd'
    """
    array = _as_weights(weights)
    if not np.all((array >= 0.0) & (array <= 1.0)):
        raise RangeError("range weights must lie in [0, 1]")
    rounded = _rounded(array)
    if rounded[0] > 0.0 and np.all(rounded == rounded[0]):
        return "random" + _weight_suffix(float(rounded[0]))
    shared = _class_weights(rounded)

    # items as (sort key, text); groups: 0 pairs, 1 suited and offsuit, 2 suited, 3 offsuit,
    # 4 single combos; within a group the highest class first.
    items: list[tuple[tuple[int, int, int], str]] = []
    for weight in sorted(set(shared[shared > 0.0].tolist()), reverse=True):
        suffix = _weight_suffix(weight)
        classes = np.flatnonzero(shared == weight).tolist()
        items.extend((key, label + suffix) for key, label in class_items(classes))

    for class_id in np.flatnonzero(np.isnan(shared)):
        for combo in CLASS_COMBOS[class_id][::-1]:
            if rounded[combo] > 0.0:
                items.append(
                    (
                        (4, -int(combo), 0),
                        COMBO_LABELS[combo] + _weight_suffix(float(rounded[combo])),
                    )
                )
    items.sort()
    return ", ".join(text for _, text in items)
