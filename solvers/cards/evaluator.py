"""Vectorised 5-, 6- and 7-card hand evaluation with numpy.

A hand's strength is a ``uint16`` from 1 (7-5-4-3-2 offsuit) to 7462 (a royal flush): higher is
better, equal strengths tie, and the 7,462 values are exactly the distinct 5-card hand ranks.

How it works, per hand and without branches:

* Every card carries a 64-bit key: an additive *rank key* in the low 23 bits and a suit counter
  (3 bits per suit) above them. Summing the keys of a hand's cards gives both at once.
* The rank keys are chosen so that every multiset of n ranks (n <= 7, at most 4 of a kind) has
  a unique sum, so the sum indexes a table of the best non-flush hand for those ranks (one
  table per hand size, built from the 5-card table by "best of removing one card").
* The suit counter says whether some suit has five or more cards. Only for those hands (about
  3 % of random 7-card hands) the suit's rank bits index a 8,192-entry flush table.

Tables are built at first use in well under a second and take about 15 MB per hand size.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from solvers.cards.deck import N_CARDS

# Additive rank keys: sums of up to 7 ranks (at most 4 equal) are unique for each hand size.
# The values are the published SKPokerEval keys; `_build_rank_table` re-checks uniqueness.
RANK_KEYS = np.array(
    [0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181], dtype=np.int64
)
_SUIT_SHIFT = 23
_RANK_MASK = (1 << _SUIT_SHIFT) - 1

CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "trips",
    "straight",
    "flush",
    "full house",
    "quads",
    "straight flush",
)
N_CATEGORIES = len(CATEGORY_NAMES)
N_STRENGTHS = 7462

_cards = np.arange(N_CARDS)
# Per-card key: rank key plus a 1 in the card's 3-bit suit counter.
CARD_KEY = RANK_KEYS[_cards >> 2] + (np.int64(1) << (_SUIT_SHIFT + 3 * (_cards & 3)))
# Per-card bit in a 64-bit mask laid out as 16 bits per suit, so a suit's ranks are one shift away.
CARD_BIT = (np.uint64(1) << (16 * (_cards & 3) + (_cards >> 2)).astype(np.uint64)).astype(np.uint64)
for _a in (CARD_KEY, CARD_BIT):
    _a.setflags(write=False)


def _score5(ranks: tuple[int, ...], flush: bool) -> tuple[int, ...]:
    """A comparable tuple for a 5-card hand: (category, tie-breaking ranks...)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    distinct = sorted(counts, reverse=True)
    straight_high = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_high = 3
    shape = [c for _, c in groups]
    tops = [r for r, _ in groups]
    if straight_high >= 0 and flush:
        return (8, straight_high)
    if shape[0] == 4:
        return (7, *tops)
    if shape[:2] == [3, 2]:
        return (6, *tops)
    if flush:
        return (5, *distinct)
    if straight_high >= 0:
        return (4, straight_high)
    if shape[0] == 3:
        return (3, *tops)
    if shape[:2] == [2, 2]:
        return (2, *tops)
    if shape[0] == 2:
        return (1, *tops)
    return (0, *distinct)


def _rank_multisets(n: int) -> np.ndarray:
    """All multisets of n ranks with at most 4 of each, as a count matrix [M, 13].

    Built rank by rank with numpy (every partial count vector times 0..4 copies of the next
    rank, keeping totals <= n), so a fresh process builds the tables in milliseconds.
    """
    counts = np.zeros((1, 0), dtype=np.int64)
    totals = np.zeros(1, dtype=np.int64)
    for _ in range(13):
        copies = np.arange(5, dtype=np.int64)
        new_totals = (totals[:, None] + copies[None, :]).ravel()
        keep = new_totals <= n
        rows = np.repeat(counts, 5, axis=0)[keep]
        column = np.tile(copies, len(counts))[keep]
        counts, totals = np.column_stack([rows, column]), new_totals[keep]
    return counts[totals == n]


@cache
def _five_card_scores() -> tuple[dict[tuple[int, ...], int], list[tuple[int, ...]]]:
    """Dense strengths 1..7462 for every distinct 5-card hand, and the sorted score tuples."""
    scores = set()
    for counts in _rank_multisets(5):
        ranks = tuple(np.repeat(np.arange(13), counts).tolist())
        scores.add(_score5(ranks, flush=False))
        if counts.max() == 1:
            scores.add(_score5(ranks, flush=True))
    ordered = sorted(scores)
    return {s: i + 1 for i, s in enumerate(ordered)}, ordered


TABLE_FILE = Path(__file__).parent / "data" / "rank_tables.npz"
"""The non-zero entries of the rank tables and the flush table, built by ``write_tables``: a
fresh process loads them in milliseconds instead of building them in a quarter second (a
short ``pokertui equity`` is mostly start-up). ``tests/test_evaluator.py`` rebuilds and
compares them."""


def _from_store(name: str, size: int) -> np.ndarray | None:
    try:
        with np.load(TABLE_FILE, allow_pickle=False) as data:
            if not np.array_equal(data["rank_keys"], RANK_KEYS):
                return None
            index, value = data[f"{name}_index"], data[f"{name}_value"]
    except (OSError, KeyError, ValueError):
        return None
    table = np.zeros(size, dtype=np.uint16)
    table[index] = value
    return table


def write_tables(path: Path = TABLE_FILE) -> None:
    """Store the freshly built tables' non-zero entries (run after changing the evaluator)."""
    arrays: dict[str, np.ndarray] = {"rank_keys": RANK_KEYS}
    for name, table in [(f"rank{n}", build_rank_table(n)) for n in (5, 6, 7)] + [
        ("flush", build_flush_table())
    ]:
        index = np.flatnonzero(table)
        arrays[f"{name}_index"] = index.astype(np.int32)
        arrays[f"{name}_value"] = table[index]
    # numpy's stub lets **kwds fill its allow_pickle: bool, so a dict of arrays never matches
    np.savez(path, **arrays)  # type: ignore[arg-type]


def _table_size(n_cards: int) -> int:
    return int(RANK_KEYS[-1]) * min(n_cards, 4) + int(RANK_KEYS[-2]) * max(n_cards - 4, 0) + 1


@cache
def _rank_table(n_cards: int) -> np.ndarray:
    """Best non-flush strength indexed by the rank-key sum of an n-card hand (n = 5, 6, 7)."""
    if n_cards not in (5, 6, 7):
        raise ValueError(f"hands have 5, 6 or 7 cards, not {n_cards}")
    stored = _from_store(f"rank{n_cards}", _table_size(n_cards))
    return stored if stored is not None else build_rank_table(n_cards)


def build_rank_table(n_cards: int) -> np.ndarray:
    """``_rank_table`` computed from the 5-card scores."""
    counts = _rank_multisets(n_cards)
    keys = counts @ RANK_KEYS
    if np.unique(keys).size != keys.size:  # pragma: no cover - guards the published keys
        raise AssertionError(f"rank keys collide for {n_cards}-card hands")
    table = np.zeros(int(keys.max()) + 1, dtype=np.uint16)
    if n_cards == 5:
        strength, _ = _five_card_scores()
        for key, row in zip(keys.tolist(), counts, strict=True):
            ranks = tuple(np.repeat(np.arange(13), row).tolist())
            table[key] = strength[_score5(ranks, flush=False)]
        return table
    smaller = build_rank_table(n_cards - 1)
    best = np.zeros(len(keys), dtype=np.uint16)
    for r in range(13):
        has = counts[:, r] > 0
        best[has] = np.maximum(best[has], smaller[keys[has] - RANK_KEYS[r]])
    table[keys] = best
    return table


@cache
def _flush_table() -> np.ndarray:
    """Best flush or straight flush indexed by a 13-bit rank mask with 5 to 7 bits set."""
    stored = _from_store("flush", 1 << 13)
    return stored if stored is not None else build_flush_table()


def build_flush_table() -> np.ndarray:
    """``_flush_table`` computed from the 5-card scores."""
    strength, _ = _five_card_scores()
    table = np.zeros(1 << 13, dtype=np.uint16)
    popcount = np.array([bin(m).count("1") for m in range(1 << 13)])
    for mask in np.flatnonzero(popcount == 5).tolist():
        ranks = tuple(r for r in range(13) if mask >> r & 1)
        table[mask] = strength[_score5(ranks, flush=True)]
    for size in (6, 7):
        masks = np.flatnonzero(popcount == size)
        for r in range(13):
            bit = 1 << r
            has = (masks & bit) != 0
            table[masks[has]] = np.maximum(table[masks[has]], table[masks[has] ^ bit])
    return table


@cache
def _flush_suit_table() -> np.ndarray:
    """Suit (0..3) holding five or more cards, or -1, indexed by the 12-bit suit counter."""
    counters = np.arange(1 << 12)
    per_suit = np.stack([(counters >> (3 * s)) & 7 for s in range(4)], axis=1)
    suit = np.argmax(per_suit >= 5, axis=1)
    return np.where(per_suit.max(axis=1) >= 5, suit, -1).astype(np.int8)


def key_sum(cards: np.ndarray) -> np.ndarray:
    """Sum of card keys along the last axis (the evaluator's additive hand key)."""
    cards = np.asarray(cards)
    total = CARD_KEY[cards[..., 0]].copy()
    for j in range(1, cards.shape[-1]):
        total += CARD_KEY[cards[..., j]]
    return total


def bit_mask(cards: np.ndarray) -> np.ndarray:
    """OR of card bits along the last axis (16 bits per suit)."""
    cards = np.asarray(cards)
    mask = CARD_BIT[cards[..., 0]].copy()
    for j in range(1, cards.shape[-1]):
        mask |= CARD_BIT[cards[..., j]]
    return mask


def evaluate_keys(keys: np.ndarray, n_cards: int, cards_for_flush) -> np.ndarray:
    """Strengths from precomputed key sums; ``cards_for_flush(idx)`` returns bit masks of rows idx.

    Callers that enumerate boards keep key sums and masks per board and add the hole cards, so
    they skip re-summing the board for every hand.
    """
    keys = np.asarray(keys)
    strength = _rank_table(n_cards)[keys & _RANK_MASK]
    flush_suit = _flush_suit_table()[keys >> _SUIT_SHIFT]
    rows = np.flatnonzero(flush_suit.ravel() >= 0)
    if rows.size:
        flat = strength.reshape(-1)
        masks = cards_for_flush(rows)
        shift = (16 * flush_suit.ravel()[rows]).astype(np.uint64)
        suited = ((masks >> shift) & np.uint64(0x1FFF)).astype(np.intp)
        flat[rows] = np.maximum(flat[rows], _flush_table()[suited])
    return strength


def evaluate(cards: np.ndarray) -> np.ndarray:
    """Strength of each hand in a batch: ``cards`` is ``[..., n]`` card ids with n in 5..7."""
    cards = np.asarray(cards)
    if cards.ndim == 0 or cards.shape[-1] not in (5, 6, 7):
        raise ValueError(f"hands have 5, 6 or 7 cards; got shape {cards.shape}")
    if cards.size and (cards.min() < 0 or cards.max() >= N_CARDS):
        raise ValueError("card ids must lie in 0..51")
    n_cards = cards.shape[-1]
    flat_cards = cards.reshape(-1, n_cards)
    keys = key_sum(flat_cards)
    strength = evaluate_keys(keys, n_cards, lambda rows: bit_mask(flat_cards[rows]))
    return strength.reshape(cards.shape[:-1])


def evaluate_hand(cards) -> int:
    """Strength of a single hand given as card ids."""
    return int(evaluate(np.asarray([list(cards)]))[0])


@cache
def _category_starts() -> np.ndarray:
    _, ordered = _five_card_scores()
    categories = np.array([s[0] for s in ordered])
    return np.searchsorted(categories, np.arange(N_CATEGORIES)) + 1


def category(strength: np.ndarray) -> np.ndarray:
    """Category index 0..8 (see ``CATEGORY_NAMES``) of each strength."""
    return np.searchsorted(_category_starts(), np.asarray(strength), side="right") - 1


def category_name(strength: int) -> str:
    return CATEGORY_NAMES[int(category(np.asarray([strength]))[0])]


def kernel_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tables the compiled evaluators take (``board_kernels.py``, the abstraction's
    strength kernels): card keys, the 7-card rank table, the flush-suit and flush tables."""
    return CARD_KEY, _rank_table(7), _flush_suit_table(), _flush_table()


def release_tables() -> None:
    """Drop the tables (15 MB with the 7-card one); the next evaluation loads them again, in
    milliseconds. A spot's solve evaluates no hand once its showdown tables are built, and its
    peak comes later, when the file's exact measure holds both decoded profiles."""
    for table in (_rank_table, _flush_table, _flush_suit_table):
        table.cache_clear()


def warm_up() -> None:
    """Build every table now (the first evaluation otherwise pays for it)."""
    for n_cards in (5, 6, 7):
        _rank_table(n_cards)
    _flush_table()
    _flush_suit_table()
