"""Range-lab computations: top-x% presets, made-hand categories, per-class equity and chunked
Monte Carlo equity with progress.

Ranges are 1326-vectors of combo weights as in :mod:`solvers.cards.ranges`; classes are the 169 grid
cells of :mod:`solvers.cards.deck`. Nothing here imports the UI: the range lab screen calls these
functions from a worker thread.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from solvers.cards import evaluator
from solvers.cards.deck import CLASS_SIZES, COMBO_CARDS, COMBO_CLASS, N_CLASSES, N_COMBOS, dead_mask
from solvers.cards.equity import EquityResult, equity
from solvers.cards.preflop_tables import preflop_allin_table
from solvers.errors import InputError

__all__ = [
    "PRESET_PERCENTS",
    "category_counts",
    "class_equity",
    "monte_carlo_chunks",
    "top_percent_range",
]

PRESET_PERCENTS = (5, 10, 15, 20, 30, 50, 100)
"""The top-x% presets the range lab offers."""


def top_percent_range(percent: float, equity_vs_random: np.ndarray | None = None) -> np.ndarray:
    """The strongest classes by preflop equity against a random hand, about ``percent`` % of
    the 1326 combos.

    Classes are added best first while the running count stays within half a class of the
    target, so the result is the class set closest to the target. ``equity_vs_random`` is the
    169-vector to rank by (default: the shipped preflop all-in table).
    """
    if not 0 <= percent <= 100:
        raise InputError(f"a top-x% preset needs x in 0..100, got {percent}")
    if equity_vs_random is None:
        equity_vs_random = preflop_allin_table().equity_vs_random()
    order = np.argsort(-np.asarray(equity_vs_random, dtype=float), kind="stable")
    target = N_COMBOS * percent / 100
    chosen = np.zeros(N_CLASSES, dtype=bool)
    count = 0.0
    for class_id in order:
        size = float(CLASS_SIZES[class_id])
        if count + size / 2 > target:
            break
        chosen[class_id] = True
        count += size
    return chosen[COMBO_CLASS].astype(float)


def category_counts(
    weights: np.ndarray, board: Sequence[int], dead: Sequence[int] = ()
) -> np.ndarray:
    """Weighted combos of the range making each category (``evaluator.CATEGORY_NAMES`` order)
    on a 3- to 5-card board; combos holding a board or dead card are removed."""
    board = [int(c) for c in board]
    if not 3 <= len(board) <= 5:
        raise InputError(f"hand categories need a board of 3 to 5 cards, got {len(board)}")
    weights = np.asarray(weights, dtype=float)
    live = np.flatnonzero((weights > 0) & ~dead_mask(board + [int(c) for c in dead]))
    counts = np.zeros(evaluator.N_CATEGORIES)
    if live.size == 0:
        return counts
    hands = np.concatenate(
        [COMBO_CARDS[live].astype(np.int64), np.tile(np.asarray(board), (live.size, 1))], axis=1
    )
    categories = evaluator.category(evaluator.evaluate(hands))
    np.add.at(counts, categories, weights[live])
    return counts


def class_equity(hand_equity: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per-class equity: the range-weighted mean of ``hand_equity`` over the class's combos.

    Combos with no weight or no equity (NaN: blocked, or absent from the range) are left out;
    a class with none left is NaN.
    """
    hand_equity = np.asarray(hand_equity, dtype=float)
    weights = np.where(np.isnan(hand_equity), 0.0, np.asarray(weights, dtype=float))
    values = np.nan_to_num(hand_equity) * weights
    mass = np.bincount(COMBO_CLASS, weights=weights, minlength=N_CLASSES)
    total = np.bincount(COMBO_CLASS, weights=values, minlength=N_CLASSES)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(mass > 0, total / mass, np.nan)


def _combined(parts: list[EquityResult]) -> EquityResult:
    """Pool Monte Carlo results drawn with different seeds into one estimate."""
    samples = sum(p.samples for p in parts)
    p_win = sum(p.win[0] * p.samples for p in parts) / samples
    p_tie = sum(p.tie * p.samples for p in parts) / samples
    p_lose = max(0.0, 1.0 - p_win - p_tie)
    mean = p_win + p_tie / 2
    std_error = float(np.sqrt(max(p_win + p_tie / 4 - mean * mean, 0.0) / samples))
    hand_samples = [p.hand_samples for p in parts if p.hand_samples is not None]
    hand_equity_parts = [p.hand_equity for p in parts if p.hand_equity is not None]
    if len(hand_samples) != len(parts) or len(hand_equity_parts) != len(parts):
        raise InputError("every Monte Carlo chunk must carry per-combo estimates")
    counts = np.sum(hand_samples, axis=0)
    scores = np.sum(
        [np.nan_to_num(e) * n for e, n in zip(hand_equity_parts, hand_samples, strict=True)], axis=0
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        hand_equity = np.where(counts > 0, scores / counts, np.nan)
    return EquityResult(
        equity=(mean, p_lose + p_tie / 2),
        win=(p_win, p_lose),
        tie=p_tie,
        method="mc",
        boards=samples,
        samples=samples,
        std_error=std_error,
        pairs=parts[0].pairs,
        hand_equity=hand_equity,
        hand_samples=counts,
    )


def monte_carlo_chunks(
    range1,
    range2,
    board: Sequence[int] = (),
    dead: Sequence[int] = (),
    *,
    samples: int,
    chunks: int = 10,
    seed: int = 0,
) -> Iterator[EquityResult]:
    """Monte Carlo equity in ``chunks`` pieces; yields the pooled estimate after each one.

    Chunk ``i`` is ``equity(..., method="mc", seed=seed + i)``, so a caller can report progress
    (``result.samples / samples``) and stop early; the last yield uses all ``samples``.
    """
    if samples < chunks or chunks < 1:
        raise InputError(f"need at least one sample per chunk, got {samples} for {chunks}")
    sizes = [samples // chunks + (1 if i < samples % chunks else 0) for i in range(chunks)]
    parts: list[EquityResult] = []
    for index, size in enumerate(sizes):
        part = equity(range1, range2, board, dead, method="mc", samples=size, seed=seed + index)
        parts.append(part)
        yield _combined(parts)
