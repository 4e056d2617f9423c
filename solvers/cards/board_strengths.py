"""Strengths of many two-card hands on many 5-card boards, -1 where a hand hits the board.

A hand that shares a card with the board is not a hand: evaluated as is it repeats a card, and
a rank that then appears five times (five aces on ``As Kh 3d Ac Ah`` with ``AdAs``) lies outside
the evaluator's tables. Such hands get the board's two lowest free cards before evaluating, and
are masked out after.
"""

from __future__ import annotations

import numpy as np

from solvers.cards.evaluator import CARD_BIT, CARD_KEY, evaluate_keys


def board_strengths(boards: np.ndarray, hole: np.ndarray) -> np.ndarray:
    """``[n_boards, n_hands]`` strengths of the hole cards ``[n_hands, 2]`` on each board.

    The evaluator's additive keys are summed once per board and once per hand and added, so no
    ``[boards, hands, 7]`` card array is formed (a flop spot's 1,176 runouts by 1,326 combos
    would be 77 MB)."""
    boards = np.asarray(boards, dtype=np.intp)
    hole = np.asarray(hole, dtype=np.intp)
    n_boards = len(boards)
    blocked = (boards[:, None, :, None] == hole[None, :, None, :]).any(axis=(2, 3))
    free = np.ones((n_boards, 7), dtype=bool)  # five board cards leave two of the ids 0..6
    for j in range(5):
        low = boards[:, j] < 7
        free[np.flatnonzero(low), boards[low, j]] = False
    spare = np.argsort(~free, axis=1, kind="stable")[:, :2]
    board_key = CARD_KEY[boards].sum(axis=1)
    board_bit = np.bitwise_or.reduce(CARD_BIT[boards], axis=1)
    keys = board_key[:, None] + (CARD_KEY[hole[:, 0]] + CARD_KEY[hole[:, 1]])[None, :]
    bits = board_bit[:, None] | (CARD_BIT[hole[:, 0]] | CARD_BIT[hole[:, 1]])[None, :]
    rows, hands = np.nonzero(blocked)
    keys[rows, hands] = board_key[rows] + CARD_KEY[spare[rows, 0]] + CARD_KEY[spare[rows, 1]]
    bits[rows, hands] = board_bit[rows] | CARD_BIT[spare[rows, 0]] | CARD_BIT[spare[rows, 1]]
    flat_bits = bits.reshape(-1)
    strength = evaluate_keys(keys, 7, lambda at: flat_bits[at])
    return np.where(blocked, -1, strength.astype(np.int64))
