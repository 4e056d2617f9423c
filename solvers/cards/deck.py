"""Cards, two-card combos and the 169 starting-hand classes.

Layouts (used everywhere in the project):

* A card id is ``4 * rank + suit`` with rank 0..12 for ``2..A`` and suit 0..3 for ``c, d, h, s``.
  ``2c`` is 0 and ``As`` is 51; this is also phevaluator's numbering.
* A combo is one of the 1326 unordered pairs of distinct cards. ``COMBO_CARDS[i]`` holds its two
  card ids, higher card first, and ``COMBO_INDEX[a, b]`` maps a pair back (either order).
  Combos are ordered by (high card, low card) so that ``AsAh`` is the last one.
* A class is one of 169 cells of the usual 13x13 grid, index ``row * 13 + col`` where row and
  col count ranks from ``A`` (0) down to ``2`` (12). The diagonal holds pairs, the upper right
  (col > row) suited hands and the lower left offsuit hands, so ``AKs`` is 1 and ``AKo`` is 13.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from solvers.errors import InputError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
N_CARDS = 52
N_COMBOS = 1326
N_CLASSES = 169


class CardError(InputError):
    """A card string could not be read; ``position`` is the offending character index."""

    def __init__(self, message: str, text: str = "", position: int = -1) -> None:
        self.text = text
        self.position = position
        if position >= 0 and text:
            message = f"{message}\n  {text}\n  {' ' * position}^"
        super().__init__(message)


def make_card(rank: int, suit: int) -> int:
    return 4 * rank + suit


def parse_card(text: str) -> int:
    """Parse one card such as ``As``, ``td`` or ``2C``."""
    if len(text) != 2:
        raise CardError(f"a card is a rank and a suit, such as 'As'; got {text!r}", text, 0)
    rank = RANKS.find(text[0].upper())
    if rank < 0:
        raise CardError(f"unknown rank {text[0]!r} (ranks are {RANKS})", text, 0)
    suit = SUITS.find(text[1].lower())
    if suit < 0:
        raise CardError(f"unknown suit {text[1]!r} (suits are {SUITS})", text, 1)
    return make_card(rank, suit)


def card_str(card: int) -> str:
    if not 0 <= card < N_CARDS:
        raise CardError(f"card id {card} is outside 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


def parse_cards(text: str, *, max_cards: int | None = None) -> list[int]:
    """Parse a run of cards such as ``Ts9s2d`` or ``Ts 9s,2d``; duplicates are an error."""
    cards: list[int] = []
    seen: dict[int, int] = {}
    i = 0
    while i < len(text):
        if text[i] in " ,\t":
            i += 1
            continue
        chunk = text[i : i + 2]
        try:
            card = parse_card(chunk)
        except CardError as exc:
            bad = i + max(exc.position, 0)
            reason = str(exc).splitlines()[0]
            raise CardError(f"{reason} at position {bad}", text, bad) from None
        if card in seen:
            raise CardError(
                f"card {card_str(card)} appears twice (positions {seen[card]} and {i})", text, i
            )
        seen[card] = i
        cards.append(card)
        i += 2
    if max_cards is not None and len(cards) > max_cards:
        raise CardError(f"at most {max_cards} cards allowed here, got {len(cards)}", text, 0)
    return cards


def cards_str(cards: Iterable[int], sep: str = "") -> str:
    return sep.join(card_str(int(c)) for c in cards)


def _build_combos() -> tuple[np.ndarray, np.ndarray]:
    pairs = [(hi, lo) for hi in range(N_CARDS) for lo in range(hi)]
    combo_cards = np.array(pairs, dtype=np.int8)
    combo_index = np.full((N_CARDS, N_CARDS), -1, dtype=np.int16)
    idx = np.arange(N_COMBOS, dtype=np.int16)
    combo_index[combo_cards[:, 0], combo_cards[:, 1]] = idx
    combo_index[combo_cards[:, 1], combo_cards[:, 0]] = idx
    return combo_cards, combo_index


COMBO_CARDS, COMBO_INDEX = _build_combos()
COMBO_CARDS.setflags(write=False)
COMBO_INDEX.setflags(write=False)


def combo_index(card_a: int, card_b: int) -> int:
    if card_a == card_b:
        raise CardError(f"a combo needs two different cards, got {card_str(card_a)} twice")
    return int(COMBO_INDEX[card_a, card_b])


def combo_str(combo: int) -> str:
    hi, lo = COMBO_CARDS[combo]
    return card_str(int(hi)) + card_str(int(lo))


def parse_combo(text: str) -> int:
    cards = parse_cards(text)
    if len(cards) != 2:
        raise CardError(f"a combo is exactly two cards, such as 'AsKd'; got {text!r}", text, 0)
    return combo_index(cards[0], cards[1])


COMBO_LABELS: tuple[str, ...] = tuple(combo_str(i) for i in range(N_COMBOS))


def class_label(row: int, col: int) -> str:
    hi, lo = RANKS[12 - min(row, col)], RANKS[12 - max(row, col)]
    if row == col:
        return hi + lo
    return hi + lo + ("s" if col > row else "o")


CLASS_LABELS: tuple[str, ...] = tuple(class_label(i // 13, i % 13) for i in range(N_CLASSES))
_CLASS_BY_LABEL = {label: i for i, label in enumerate(CLASS_LABELS)}


def _build_combo_class() -> np.ndarray:
    ranks = COMBO_CARDS >> 2
    suited = (COMBO_CARDS[:, 0] & 3) == (COMBO_CARDS[:, 1] & 3)
    row_hi = 12 - ranks[:, 0].astype(np.int16)
    row_lo = 12 - ranks[:, 1].astype(np.int16)
    # suited: row = high rank, col = low rank (upper right); offsuit: the transpose.
    row = np.where(suited, row_hi, row_lo)
    col = np.where(suited, row_lo, row_hi)
    return (row * 13 + col).astype(np.int16)


COMBO_CLASS = _build_combo_class()
COMBO_CLASS.setflags(write=False)
CLASS_COMBOS: tuple[np.ndarray, ...] = tuple(
    np.flatnonzero(COMBO_CLASS == c) for c in range(N_CLASSES)
)
CLASS_SIZES = np.bincount(COMBO_CLASS, minlength=N_CLASSES)


def class_index(label: str) -> int:
    """Index of a class label such as ``AKs``, ``AKo`` or ``TT`` (case of ranks ignored)."""
    norm = label[:2].upper() + label[2:].lower()
    if norm not in _CLASS_BY_LABEL:
        raise CardError(f"unknown hand class {label!r}; use forms like AA, AKs, AKo", label, 0)
    return _CLASS_BY_LABEL[norm]


def class_matrix(values_by_class: np.ndarray) -> np.ndarray:
    """Reshape a 169-vector to the 13x13 grid (row A..2, col A..2)."""
    return np.asarray(values_by_class).reshape(13, 13)


def combos_to_classes(weights: np.ndarray, reduce: str = "mean") -> np.ndarray:
    """Collapse a 1326-vector of combo values onto the 169 classes (mean or sum)."""
    sums = np.bincount(COMBO_CLASS, weights=np.asarray(weights, float), minlength=N_CLASSES)
    if reduce == "sum":
        return sums
    if reduce == "mean":
        return sums / CLASS_SIZES
    raise ValueError(f"reduce must be 'mean' or 'sum', not {reduce!r}")


def classes_to_combos(values_by_class: np.ndarray) -> np.ndarray:
    """Spread a 169-vector onto the 1326 combos (each combo takes its class value)."""
    return np.asarray(values_by_class, float)[COMBO_CLASS]


def dead_mask(dead_cards: Iterable[int]) -> np.ndarray:
    """Boolean 1326-mask of combos that hold at least one of ``dead_cards``."""
    dead = np.zeros(N_CARDS, dtype=bool)
    dead[list(dead_cards)] = True
    return dead[COMBO_CARDS[:, 0]] | dead[COMBO_CARDS[:, 1]]


COMBO_BITS = (np.uint64(1) << COMBO_CARDS.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
"""Each combo's two cards as bits of a 52-bit mask: two combos share a card when their masks
meet (one AND where comparing four card pairs took twenty times as long)."""


def combos_conflict(combo_a: np.ndarray, combo_b: np.ndarray) -> np.ndarray:
    """Elementwise: do two (broadcastable) arrays of combo ids share a card?"""
    return (COMBO_BITS[combo_a] & COMBO_BITS[combo_b]) != 0
