"""Terminal values of every hand at once: card-removal folds and a sorted showdown sweep.

For player ``p`` at terminal ``t`` the value of hand ``h`` is ``w_p(h) / Z * sum_h' payoff(h, h')
* r(t, h')``, where ``r = opp_reach * w_q`` (chance factors already in ``opp_reach``) and the sum
runs over the opponent hands that share no card with ``h``.

- **Fold**: the payoff is the same for every pair, so the sum is the opponent's total minus the
  hands that hold either of ``h``'s cards, plus the identical combo, which was taken away twice
  (inclusion-exclusion over the 52 cards): card sums ``[T, n] @ [n, 52]``, then back to hands.
- **Showdown**: per 5-card board the opponent's live hands are sorted by strength once; a
  running sum gives the reach of all weaker and all stronger hands, and the same sums over the
  hands holding each card remove the blocked ones (``_BoardSweep``). Ties count neither way,
  and so does the identical combo. ``O(T * n)`` per board, never ``n x n``.

A showdown terminal whose board has fewer than 5 cards (an all-in before the river) is valued
over every remaining board, each weighted ``1 / C(D, k)`` for ``k`` cards dealt from the ``D``
unseen ones; hands that a board blocks take no part. These (terminal, board) pairs are *jobs*; a
river showdown is one job.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from solvers.cards.board_strengths import board_strengths
from solvers.cards.deck import COMBO_CARDS, N_CARDS, N_COMBOS

JOB_CHUNK_CELLS = 1 << 22
_DENSE_FOLD_ROWS = 256
"""From this many fold terminals on, card sums use a dense BLAS product."""
"""Largest ``jobs x hands`` block swept at once (bounds the temporary memory)."""


def combo_strengths(boards: np.ndarray) -> np.ndarray:
    """``[n_boards, 1326]`` hand strength on each 5-card board; -1 where a combo hits the board."""
    return board_strengths(boards, COMBO_CARDS)


@dataclass(frozen=True)
class _BoardSweep:
    """One board, one (own player, opponent) pairing: the sweep as a gather, a cumsum and a
    sparse sum.

    ``select`` lists the opponent's live hands by strength, then for every card the live hands
    holding it by strength. With ``C`` the running sum of ``r[:, select]`` (a leading zero),
    ``net(h) = C[lo] + C[hi] - C[total] + sum over h's two cards of (C[start] + C[end]
    - C[start + lo_c] - C[start + hi_c])``: weaker minus stronger, less the hands that share a
    card. ``combine`` holds those signs, ``[n_own, len(select) + 1]`` with 11 entries a row.
    """

    select: np.ndarray
    combine: sp.csr_matrix


class TerminalEvaluator:
    """Fold and showdown values for a hold'em subgame's terminals, batched over terminals."""

    def __init__(
        self,
        hand_combos: tuple[np.ndarray, np.ndarray],
        hand_weights: tuple[np.ndarray, np.ndarray],
        boards: np.ndarray,
    ) -> None:
        self.hand_combos = tuple(np.asarray(c, dtype=np.intp) for c in hand_combos)
        self.hand_weights = tuple(np.asarray(w, dtype=float) for w in hand_weights)
        self.boards = np.asarray(boards, dtype=np.intp).reshape(-1, 5)
        self.cards = tuple(COMBO_CARDS[c].astype(np.intp) for c in self.hand_combos)
        self._card_holders_t = tuple(self._holding(cards) for cards in self.cards)
        self.holding_dense = tuple(h.T.toarray() for h in self._card_holders_t)
        self.hand_cards_dense = tuple(h.toarray() for h in self._card_holders_t)
        strengths = combo_strengths(self.boards)
        self.strength = tuple(strengths[:, c] for c in self.hand_combos)
        self._same = tuple(self._identical(p) for p in (0, 1))
        self._same_is_identity = tuple(
            np.array_equal(same, np.arange(len(same))) and len(same) == len(self.hand_combos[1 - p])
            for p, same in enumerate(self._same)
        )
        self._cast_cache: dict[tuple[str, str], tuple] = {}

    @functools.cached_property
    def _sweeps(self) -> tuple[list[_BoardSweep], list[_BoardSweep]]:
        """Per player and board, the numpy sweep (built on first use: the compiled walk
        sweeps the sorted hands itself)."""
        return tuple(  # type: ignore[return-value]
            [self._board_sweep(p, b) for b in range(len(self.boards))] for p in (0, 1)
        )

    # --- precomputation -------------------------------------------------------------------
    @staticmethod
    def _holding(cards: np.ndarray) -> sp.csr_matrix:
        """``[52, n]`` sparse 0/1: which hands hold each card."""
        n = len(cards)
        rows = cards.T.reshape(-1)
        columns = np.tile(np.arange(n), 2)
        return sp.csr_matrix((np.ones(2 * n), (rows, columns)), shape=(N_CARDS, n))

    def _identical(self, player: int) -> np.ndarray:
        """For each hand of ``player``, the opponent's index of the same combo (or ``n_q``)."""
        own, opp = self.hand_combos[player], self.hand_combos[1 - player]
        where = np.full(N_COMBOS, len(opp), dtype=np.intp)
        where[opp] = np.arange(len(opp))
        return where[own]

    def _board_sweep(self, player: int, board: int) -> _BoardSweep:
        q = 1 - player
        s_own, s_opp = self.strength[player][board], self.strength[q][board]
        live = np.flatnonzero(s_opp >= 0)
        order = live[np.argsort(s_opp[live], kind="stable")]
        n_live = len(order)
        sorted_strength = s_opp[order]
        # Per card, the live hands holding it by strength: keys card * BIG + strength sort them.
        big = np.int64(1) << 40
        opp_cards = self.cards[q][order]  # [n_live, 2], rows already by strength
        holder_card = opp_cards.T.reshape(-1)
        holder_hand = np.tile(order, 2)
        holder_key = holder_card * big + np.tile(sorted_strength, 2)
        by_card = np.argsort(holder_key, kind="stable")
        holder_key, holder_hand = holder_key[by_card], holder_hand[by_card]
        first = np.searchsorted(holder_key, np.arange(N_CARDS + 1) * big, "left")
        select = np.concatenate([order, holder_hand])
        base = n_live  # index in C of the first per-card prefix
        own_live = np.flatnonzero(s_own >= 0)
        strength = s_own[own_live]
        lo = np.searchsorted(sorted_strength, strength, "left")
        hi = np.searchsorted(sorted_strength, strength, "right")
        columns = [lo, hi, np.full_like(lo, n_live)]
        signs = [1.0, 1.0, -1.0]
        for slot in (0, 1):
            card = self.cards[player][own_live, slot]
            key = card * big + strength
            columns += [
                base + first[card],
                base + first[card + 1],
                base + np.searchsorted(holder_key, key, "left"),
                base + np.searchsorted(holder_key, key, "right"),
            ]
            signs += [1.0, 1.0, -1.0, -1.0]
        n_cols = len(select) + 1
        rows = np.repeat(own_live[None, :], len(columns), axis=0).reshape(-1)
        data = np.repeat(np.array(signs)[:, None], len(own_live), axis=1).reshape(-1)
        combine = sp.csr_matrix((data, (rows, np.concatenate(columns))), shape=(len(s_own), n_cols))
        return _BoardSweep(select=select, combine=combine)

    def cast(self, name: str, dtype) -> tuple:
        """A per-player pair of arrays or matrices (``hand_weights``...) in ``dtype``, cached."""
        key = (name, np.dtype(dtype).str)
        cached = self._cast_cache.get(key)
        if cached is None:
            cached = tuple(x.astype(dtype) for x in getattr(self, name))
            self._cast_cache[key] = cached
        return cached

    # --- values ---------------------------------------------------------------------------
    def fold_sums(self, player: int, r: np.ndarray) -> np.ndarray:
        """``[T, n_p]``: opponent weight ``r`` over the hands compatible with each own hand."""
        q = 1 - player
        if len(r) >= _DENSE_FOLD_ROWS:
            card_sums = r @ self.cast("holding_dense", r.dtype)[q]  # [T, 52]
        else:  # few rows: BLAS thread start-up costs more than it saves on a busy machine
            card_sums = (self.cast("_card_holders_t", r.dtype)[q] @ r.T).T
        if len(r) >= _DENSE_FOLD_ROWS:
            out = card_sums @ self.cast("hand_cards_dense", r.dtype)[player]
        else:
            cards = self.cards[player]
            out = card_sums[:, cards[:, 0]]
            out += card_sums[:, cards[:, 1]]
        np.subtract(r.sum(axis=1, keepdims=True), out, out=out)
        same = self._same[player]
        if self._same_is_identity[player]:  # both players hold the same combos: no gather
            out += r
            return out
        present = same < r.shape[1]
        out[:, present] += r[:, same[present]]
        return out

    def showdown_net(self, player: int, r: np.ndarray, board: int) -> np.ndarray:
        """``[J, n_p]``: compatible opponent weight that loses minus weight that wins, for jobs
        on one board (the opponent's hands that the board blocks are ignored)."""
        sweep = self._sweeps[player][board]
        running = np.zeros((len(r), len(sweep.select) + 1), dtype=r.dtype)
        np.cumsum(r[:, sweep.select], axis=1, out=running[:, 1:])
        combine = sweep.combine if r.dtype == np.float64 else self._combine32(player, board)
        return (combine @ running.T).T

    def _combine32(self, player: int, board: int) -> sp.csr_matrix:
        key = ("combine32", f"{player}/{board}")
        cached = self._cast_cache.get(key)
        if cached is None:
            cached = self._sweeps[player][board].combine.astype(np.float32)
            self._cast_cache[key] = cached
        return cached
