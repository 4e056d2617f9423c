"""Terminal values of every hand at once: card-removal folds and a sorted showdown sweep.

For player ``p`` at terminal ``t`` the value of hand ``h`` is ``w_p(h) / Z * sum_h' payoff(h, h')
* r(t, h')``, where ``r = opp_reach * w_q`` (chance factors already in ``opp_reach``) and the sum
runs over the opponent hands that share no card with ``h``.

- **Fold**: the payoff is the same for every pair, so the sum is the opponent's total minus the
  hands that hold either of ``h``'s cards, plus the identical combo, which was taken away twice
  (inclusion-exclusion over the 52 cards): ``[T, n] @ [n, 52]`` and two gathers.
- **Showdown**: per 5-card board the opponent hands are sorted by strength once; a cumulative
  sum gives the reach of all weaker and all stronger hands, and the same sums restricted to the
  hands holding each card (at most 51 per card) remove the blocked ones. Ties count neither
  way, and so does the identical combo. ``O(T * n)`` per batch, never ``n x n``.

A showdown terminal reached by an all-in before the river carries ``runout``: its value is the
average over every remaining board, each weighted ``1 / C(D, k)`` for ``k`` cards dealt from the
``D`` unseen ones, with both players' hands masked by the board. These (terminal, board) pairs are
*jobs*; a plain river showdown is one job.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import COMBO_CARDS, N_CARDS, N_COMBOS
from solvers.cards.evaluator import evaluate

_JOB_CHUNK_CELLS = 1 << 22
"""Largest ``jobs x hands`` block computed at once (bounds the temporary memory)."""


def combo_strengths(boards: np.ndarray) -> np.ndarray:
    """``[n_boards, 1326]`` hand strength on each 5-card board; -1 where a combo hits the board."""
    boards = np.asarray(boards, dtype=np.intp)
    n_boards = len(boards)
    cards = np.empty((n_boards, N_COMBOS, 7), dtype=np.intp)
    cards[:, :, :5] = boards[:, None, :]
    cards[:, :, 5:] = COMBO_CARDS[None, :, :]
    blocked = (boards[:, None, :, None] == COMBO_CARDS[None, :, None, :]).any(axis=(2, 3))
    strength = evaluate(cards).astype(np.int64)
    return np.where(blocked, -1, strength)


@dataclass(frozen=True)
class _SideTables:
    """Per-board lookup tables of one (own player, opponent) pairing."""

    order: np.ndarray
    """``[B, n_q]`` opponent hands by increasing strength."""
    lo: np.ndarray
    """``[B, n_p]`` number of opponent hands strictly weaker than each own hand."""
    hi: np.ndarray
    """``[B, n_p]`` number of opponent hands weaker or equal."""
    card_order: np.ndarray
    """``[B, 52, K]`` per card, the opponent hands holding it by strength (pad: ``n_q``)."""
    card_lo: np.ndarray
    """``[B, n_p, 2]`` flat index ``card * (K + 1) + weaker count`` for the hand's two cards."""
    card_hi: np.ndarray


class TerminalEvaluator:
    """Fold and showdown values for a hold'em subgame's terminals, batched over terminals."""

    def __init__(
        self,
        hand_combos: tuple[np.ndarray, np.ndarray],
        hand_weights: tuple[np.ndarray, np.ndarray],
        normaliser: float,
        boards: np.ndarray,
    ) -> None:
        self.hand_combos = tuple(np.asarray(c, dtype=np.intp) for c in hand_combos)
        self.hand_weights = tuple(np.asarray(w, dtype=float) for w in hand_weights)
        self.normaliser = normaliser
        self.boards = np.asarray(boards, dtype=np.intp).reshape(-1, 5)
        self.cards = tuple(COMBO_CARDS[c].astype(np.intp) for c in self.hand_combos)
        self._holders = tuple(self._card_holders(cards) for cards in self.cards)
        strengths = combo_strengths(self.boards)
        self.strength = tuple(strengths[:, c] for c in self.hand_combos)
        self.board_mask = tuple((s >= 0).astype(float) for s in self.strength)
        self._same = tuple(self._identical(p) for p in (0, 1))
        self._tables = tuple(self._side_tables(p) for p in (0, 1))

    # --- precomputation -------------------------------------------------------------------
    @staticmethod
    def _card_holders(cards: np.ndarray) -> np.ndarray:
        """``[52, K]``: the hands holding each card, padded with ``len(cards)`` (a zero column)."""
        holders = [np.flatnonzero((cards == c).any(axis=1)) for c in range(N_CARDS)]
        width = max(1, max(len(h) for h in holders))
        padded = np.full((N_CARDS, width), len(cards), dtype=np.intp)
        for c, h in enumerate(holders):
            padded[c, : len(h)] = h
        return padded

    def _identical(self, player: int) -> np.ndarray:
        """For each hand of ``player``, the opponent's index of the same combo (or ``n_q``)."""
        own, opp = self.hand_combos[player], self.hand_combos[1 - player]
        where = np.full(N_COMBOS, len(opp), dtype=np.intp)
        where[opp] = np.arange(len(opp))
        return where[own]

    def _side_tables(self, player: int) -> _SideTables:
        q = 1 - player
        s_own, s_opp = self.strength[player], self.strength[q]
        order = np.argsort(s_opp, axis=1, kind="stable")
        sorted_opp = np.take_along_axis(s_opp, order, axis=1)
        pairs = list(zip(sorted_opp, s_own, strict=True))
        lo = np.stack([np.searchsorted(a, b, "left") for a, b in pairs])
        hi = np.stack([np.searchsorted(a, b, "right") for a, b in pairs])
        padded = self._holders[q]
        width = padded.shape[1]
        big = np.iinfo(np.int64).max // 4
        s_pad = np.concatenate([s_opp, np.full((len(s_opp), 1), big)], axis=1)
        pad_strength = s_pad[:, padded]  # [B, 52, K]
        card_sort = np.argsort(pad_strength, axis=2, kind="stable")
        card_order = np.take_along_axis(np.broadcast_to(padded, pad_strength.shape), card_sort, 2)
        card_sorted = np.take_along_axis(pad_strength, card_sort, axis=2)
        own_cards = self.cards[player]  # [n_p, 2]
        card_lo = np.empty((len(s_opp), len(own_cards), 2), dtype=np.intp)
        card_hi = np.empty_like(card_lo)
        for b in range(len(s_opp)):
            # Search each own hand's strength in the sorted strengths of its cards' holders.
            for slot in (0, 1):
                rows = card_sorted[b][own_cards[:, slot]]  # [n_p, K]
                target = s_own[b][:, None]
                card_lo[b, :, slot] = (rows < target).sum(axis=1)
                card_hi[b, :, slot] = (rows <= target).sum(axis=1)
        base = own_cards * (width + 1)
        return _SideTables(
            order=order,
            lo=lo,
            hi=hi,
            card_order=card_order,
            card_lo=card_lo + base[None],
            card_hi=card_hi + base[None],
        )

    # --- values ---------------------------------------------------------------------------
    def fold_sums(self, player: int, r: np.ndarray) -> np.ndarray:
        """``[T, n_p]``: opponent weight ``r`` over the hands compatible with each own hand."""
        q = 1 - player
        r_pad = np.concatenate([r, np.zeros((len(r), 1))], axis=1)
        # A gather and sum, not ``r @ onehot``: BLAS threads thrash on a busy 2-core machine.
        card_sums = r_pad[:, self._holders[q]].sum(axis=2)  # [T, 52]
        cards = self.cards[player]
        total = r.sum(axis=1, keepdims=True)
        blocked = card_sums[:, cards[:, 0]] + card_sums[:, cards[:, 1]]
        return total - blocked + r_pad[:, self._same[player]]

    def showdown_net(self, player: int, r: np.ndarray, board_ids: np.ndarray) -> np.ndarray:
        """``[J, n_p]``: compatible opponent weight that loses minus weight that wins, per job.

        Row ``j`` of ``r`` must already be masked by board ``board_ids[j]``.
        """
        tables = self._tables[player]
        n_jobs, n_q = r.shape
        order = tables.order[board_ids]
        cum = np.zeros((n_jobs, n_q + 1))
        np.cumsum(np.take_along_axis(r, order, axis=1), axis=1, out=cum[:, 1:])
        weaker = np.take_along_axis(cum, tables.lo[board_ids], axis=1)
        stronger = cum[:, -1:] - np.take_along_axis(cum, tables.hi[board_ids], axis=1)
        r_pad = np.concatenate([r, np.zeros((n_jobs, 1))], axis=1)
        card_order = tables.card_order[board_ids]  # [J, 52, K]
        width = card_order.shape[2]
        per_card = np.zeros((n_jobs, N_CARDS, width + 1))
        gathered = np.take_along_axis(r_pad, card_order.reshape(n_jobs, -1), axis=1)
        np.cumsum(gathered.reshape(n_jobs, N_CARDS, width), axis=2, out=per_card[:, :, 1:])
        flat = per_card.reshape(n_jobs, -1)
        n_p = tables.lo.shape[1]
        lo_idx = tables.card_lo[board_ids].reshape(n_jobs, -1)
        hi_idx = tables.card_hi[board_ids].reshape(n_jobs, -1)
        blocked_weaker = np.take_along_axis(flat, lo_idx, axis=1).reshape(n_jobs, n_p, 2).sum(2)
        card_totals = per_card[:, :, -1]
        own_cards = self.cards[player]
        blocked_stronger = (
            card_totals[:, own_cards[:, 0]]
            + card_totals[:, own_cards[:, 1]]
            - np.take_along_axis(flat, hi_idx, axis=1).reshape(n_jobs, n_p, 2).sum(2)
        )
        return (weaker - blocked_weaker) - (stronger - blocked_stronger)
