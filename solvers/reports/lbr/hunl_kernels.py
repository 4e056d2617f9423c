"""numba loops of full-game LBR's ``WpRollout``: every combo's strength on every completion of a
board, and one combo's equity against all 1,326 from those strengths.

The strength is the evaluator's (``cards/evaluator.py``): the additive key's rank-table entry,
raised to the flush table's when a suit holds five cards. A flop has 1,176 completions, so the
first loop evaluates 1.56 million seven-card hands per flop (shared by both seats of a deal).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from solvers.cards import evaluator
from solvers.cards.deck import COMBO_CARDS


@njit(cache=True, nogil=True)
def _strengths(
    board_key, board_mask, board_ids, extra, card_key, card_bit, combo_cards,
    rank_table, flush_suit_table, flush_table, rank_mask, suit_shift, out,
):  # fmt: skip
    for r in range(extra.shape[0]):
        key = board_key
        mask = board_mask
        ids = board_ids
        for j in range(extra.shape[1]):
            c = extra[r, j]
            key += card_key[c]
            mask |= card_bit[c]
            ids |= np.uint64(1) << np.uint64(c)
        for h in range(combo_cards.shape[0]):
            a = combo_cards[h, 0]
            b = combo_cards[h, 1]
            if (ids >> np.uint64(a)) & np.uint64(1) or (ids >> np.uint64(b)) & np.uint64(1):
                out[r, h] = -1
                continue
            k = key + card_key[a] + card_key[b]
            s = rank_table[k & rank_mask]
            suit = flush_suit_table[k >> suit_shift]
            if suit >= 0:
                m = mask | card_bit[a] | card_bit[b]
                f = flush_table[(m >> np.uint64(16 * suit)) & np.uint64(0x1FFF)]
                if f > s:
                    s = f
            out[r, h] = s


@njit(cache=True, nogil=True)
def _shares(strength, extra, own, own_a, own_b, by_card, score, count):
    """Sum ``own``'s showdown share against each combo over the completions it does not block,
    into row 0 of ``score`` and ``count``, or by card into the row of each completion card."""
    n_combos = strength.shape[1]
    for r in range(strength.shape[0]):
        blocked = False
        for j in range(extra.shape[1]):
            if extra[r, j] == own_a or extra[r, j] == own_b:
                blocked = True
        if blocked:
            continue
        mine = strength[r, own]
        for h in range(n_combos):
            s = strength[r, h]
            if s < 0:
                continue
            share = 1.0 if mine > s else (0.5 if mine == s else 0.0)
            if by_card:
                for j in range(extra.shape[1]):
                    score[extra[r, j], h] += share
                    count[extra[r, j], h] += 1.0
            else:
                score[0, h] += share
                count[0, h] += 1.0


_COMBOS = COMBO_CARDS.astype(np.int64)


@cache
def _tables() -> tuple[np.ndarray, ...]:
    """The evaluator's tables in the dtypes the loops take."""
    return (
        evaluator.CARD_KEY.astype(np.int64),
        evaluator.CARD_BIT.astype(np.uint64),
        evaluator._rank_table(7).astype(np.int16),
        evaluator._flush_suit_table(),
        evaluator._flush_table().astype(np.int16),
    )


def completion_strengths(board: tuple[int, ...], extra: np.ndarray) -> np.ndarray:
    """``int16 [len(extra), 1326]``: each combo's strength on ``board`` plus each row of
    ``extra`` (-1 where the combo touches those cards)."""
    cards = np.asarray(board, dtype=np.int64)
    key = int(evaluator.CARD_KEY[cards].sum()) if cards.size else 0
    mask = np.bitwise_or.reduce(evaluator.CARD_BIT[cards]) if cards.size else np.uint64(0)
    ids = np.uint64(sum(1 << int(c) for c in board))
    out = np.empty((len(extra), len(_COMBOS)), dtype=np.int16)
    card_key, card_bit, rank_table, flush_suit, flush_table = _tables()
    _strengths(
        np.int64(key), np.uint64(mask), ids, np.ascontiguousarray(extra, dtype=np.int64),
        card_key, card_bit, _COMBOS, rank_table, flush_suit, flush_table,
        np.int64(evaluator._RANK_MASK), np.int64(evaluator._SUIT_SHIFT), out,
    )  # fmt: skip
    return out


def _mean_shares(strength: np.ndarray, extra: np.ndarray, combo: int, rows: int) -> np.ndarray:
    score = np.zeros((rows, strength.shape[1]))
    count = np.zeros_like(score)
    a, b = int(_COMBOS[combo, 0]), int(_COMBOS[combo, 1])
    extra = np.ascontiguousarray(extra, dtype=np.int64)
    _shares(strength, extra, combo, a, b, rows > 1, score, count)
    return np.divide(score, count, out=np.zeros_like(score), where=count > 0)


def combo_equity(strength: np.ndarray, extra: np.ndarray, combo: int) -> np.ndarray:
    """``[1326]``: ``combo``'s share against each combo over the completions it does not block
    (0 for combos with no completion left)."""
    return _mean_shares(strength, extra, combo, 1)[0]


def equity_by_next_card(strength: np.ndarray, extra: np.ndarray, combo: int) -> np.ndarray:
    """``[52, 1326]``: row ``c`` is ``combo_equity`` on the board with ``c`` dealt next, from the
    completions that hold ``c`` (0 where no completion is left: ``c`` on the board, in ``combo``
    or in the bot combo)."""
    return _mean_shares(strength, extra, combo, 52)
