"""The cards side of LBR on the full game: deals, and LBR's equity against every bot combo.

``WpRollout`` in Lisý and Bowling deals every remaining board card exhaustively. Here:

- **postflop** (3 or 4 board cards, or 5): every completion of the board is enumerated once per
  board (1,176 on a flop, 48 on a turn) and all 1,326 combos are evaluated on each by a numba
  loop over the evaluator's tables (``lbr.hunl_kernels``; a flop's 1.56 M hands are shared by
  both seats of a duplicate deal); LBR's equity against each bot combo averages the completions
  that neither hand blocks.
- **preflop**: the exact class-against-class all-in table (``cards/preflop_tables``, every
  compatible combo pair and every five-card board). For a fixed combo ``h`` the average of its
  equity over the combos of a class that do not clash with it is the same for every ``h`` of
  its class (suit symmetry), so the class value is exact for any range that weights the combos
  of a class alike, as every preflop range of a class-based bot and of the chumps does; a range
  that splits a class by suits is valued at the class average.

Deals are drawn for a whole chunk at once: two hole cards per seat and the five board cards,
nine distinct cards per deal.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import cache
from itertools import combinations

import numpy as np

from solvers.cards.deck import COMBO_CARDS, COMBO_CLASS, COMBO_INDEX, N_COMBOS
from solvers.cards.preflop_tables import preflop_allin_table
from solvers.reports.lbr.hunl_kernels import (
    combo_equity,
    completion_strengths,
    equity_by_next_card,
)

BOARDS_KEPT = 8
"""Boards whose completions stay evaluated (a chunk plays each board from both seats in turn)."""
EQUITIES_KEPT = 4
"""(combo, board) equity vectors kept: within a street LBR's decisions, the control variates and
the hand's end all ask for the same one."""


@cache
def _preflop_equity() -> np.ndarray:
    """``[169, 169]`` class-against-class all-in equity (win + tie / 2)."""
    return preflop_allin_table().equity


@cache
def clash_matrix() -> np.ndarray:
    """``[1326, 1326]`` True where two combos share a card."""
    cards = COMBO_CARDS.astype(np.intp)
    hits = np.zeros((N_COMBOS, 52), dtype=bool)
    hits[np.arange(N_COMBOS)[:, None], cards] = True
    shared = hits.astype(np.int16) @ hits.T.astype(np.int16)
    return np.asarray(shared > 0, dtype=bool)


def combos_touching(cards: np.ndarray) -> np.ndarray:
    """``[1326]`` True for combos holding any of ``cards``."""
    cards = np.asarray(cards, dtype=np.intp)
    return np.asarray(np.isin(COMBO_CARDS, cards).any(axis=1), dtype=bool)


def board_strengths(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every completion of ``board`` to five cards (``[n, 5 - len(board)]``) and the strength of
    each combo on each (``int16 [n, 1326]``, -1 where the combo touches the full board)."""
    left = [c for c in range(52) if c not in board]
    extra = np.array(list(combinations(left, 5 - len(board))), dtype=np.int64)
    extra = extra.reshape(len(extra), 5 - len(board))
    return extra, completion_strengths(board, extra)


class HunlEquity:
    """LBR's showdown share against every bot combo, per (LBR combo, board)."""

    def __init__(self) -> None:
        self._boards: OrderedDict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._equities: OrderedDict[tuple[int, tuple[int, ...]], np.ndarray] = OrderedDict()

    def _completions(self, board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        cached = self._boards.get(board)
        if cached is None:
            cached = board_strengths(board)
            self._boards[board] = cached
            if len(self._boards) > BOARDS_KEPT:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(board)
        return cached

    def equity(self, combo: int, board: tuple[int, ...]) -> np.ndarray:
        """``[1326]``: LBR's expected share of the pot at showdown holding ``combo`` against each
        bot combo, the rest of the board dealt exhaustively (0 where the hands or board clash).
        Read-only: the last few are shared between callers."""
        key = (combo, board)
        kept = self._equities.get(key)
        if kept is not None:
            self._equities.move_to_end(key)
            return kept
        dead = clash_matrix()[combo] | combos_touching(np.asarray(board, dtype=np.intp))
        if not board:
            eq = _preflop_equity()[COMBO_CLASS[combo], COMBO_CLASS].astype(np.float64)
        else:
            extra, strength = self._completions(board)
            eq = combo_equity(strength, extra, combo)
        eq = np.where(dead, 0.0, eq)
        eq.flags.writeable = False
        self._equities[key] = eq
        if len(self._equities) > EQUITIES_KEPT:
            self._equities.popitem(last=False)
        return eq

    def next_card_equity(self, combo: int, board: tuple[int, ...]) -> np.ndarray:
        """``[52, 1326]``: row ``c`` is ``equity(combo, board + (c,))`` for a turn or river card
        ``c`` (zeros for a card on ``board`` or in ``combo``), from ``board``'s completions."""
        if len(board) not in (3, 4):
            raise ValueError(f"a next card follows a flop or a turn, not {len(board)} cards")
        extra, strength = self._completions(board)
        eq = equity_by_next_card(strength, extra, combo)
        eq[:, clash_matrix()[combo] | combos_touching(np.asarray(board, dtype=np.intp))] = 0.0
        return eq


def deal(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` deals: seat 0's combos, seat 1's combos and ``[n, 5]`` board cards."""
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :9]
    c0 = COMBO_INDEX[cards[:, 0], cards[:, 1]].astype(np.intp)
    c1 = COMBO_INDEX[cards[:, 2], cards[:, 3]].astype(np.intp)
    return c0, c1, cards[:, 4:9].astype(np.intp)
