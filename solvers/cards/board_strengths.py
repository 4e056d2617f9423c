"""Strengths of many two-card hands on many 5-card boards, -1 where a hand hits the board.

A hand that shares a card with the board is not a hand: evaluated as is it repeats a card, and
a rank that then appears five times (five aces on ``As Kh 3d Ac Ah`` with ``AdAs``) lies outside
the evaluator's tables. Such hands get the board's two lowest free cards before evaluating, and
are masked out after.
"""

from __future__ import annotations

import numpy as np

from solvers.cards.evaluator import evaluate


def board_strengths(boards: np.ndarray, hole: np.ndarray) -> np.ndarray:
    """``[n_boards, n_hands]`` strengths of the hole cards ``[n_hands, 2]`` on each board."""
    boards = np.asarray(boards, dtype=np.intp)
    hole = np.asarray(hole, dtype=np.intp)
    n_boards = len(boards)
    cards = np.empty((n_boards, len(hole), 7), dtype=np.intp)
    cards[:, :, :5] = boards[:, None, :]
    cards[:, :, 5:] = hole[None, :, :]
    blocked = (boards[:, None, :, None] == hole[None, :, None, :]).any(axis=(2, 3))
    free = np.ones((n_boards, 7), dtype=bool)  # five board cards leave two of the ids 0..6
    for j in range(5):
        low = boards[:, j] < 7
        free[np.flatnonzero(low), boards[low, j]] = False
    spare = np.argsort(~free, axis=1, kind="stable")[:, :2]
    rows, hands = np.nonzero(blocked)
    cards[rows, hands, 5:] = spare[rows]
    return np.where(blocked, -1, evaluate(cards).astype(np.int64))
