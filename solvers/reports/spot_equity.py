"""Each combo's equity against a weighted range on a hold'em board, over every runout.

Equity is ``(wins + ties / 2) / total`` over the opponent's combos and the remaining cards,
with card removal: an opponent combo that shares a card with the hand, or a runout card with
either, does not count. Per 5-card board it is a sort and a running sum, not a hands-by-hands
matrix: with the opponent's live combos sorted by strength, ``searchsorted`` gives each hand
the weight below and equal to its strength; the combos holding one of the hand's two cards are
then taken out the same way from per-card lists (at most 51 combos hold a card). Every pair of
compatible hands sees the same number of runouts, so summing over runouts weights them right.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

from solvers.cards.board_strengths import board_strengths
from solvers.cards.deck import COMBO_CARDS

_BOARD_BATCH = 64
"""Runout boards evaluated per ``evaluate`` call (bounds the temporary memory)."""


def runouts(board: tuple[int, ...]) -> np.ndarray:
    """``[n_boards, 5]``: every completion of ``board`` to five cards (one row on the river)."""
    deck = [c for c in range(52) if c not in board]
    extra = list(combinations(deck, 5 - len(board)))
    return np.array([(*board, *cards) for cards in extra], dtype=np.intp).reshape(len(extra), 5)


def spot_equity(game, board: tuple[int, ...], player: int, opp_weights: np.ndarray):
    """``equity_vs_range`` of ``player``'s hands in a hold'em spot against ``opp_weights`` over
    the opponent's hands, from the spot's own showdown tables (strengths already sorted per
    board, the terminal kernels' sweep): a flop's 1,176 runouts in milliseconds, not seconds.
    None when the game has no such tables or they do not hold every runout of ``board``."""
    from solvers.games.holdem import terminal_kernels  # noqa: PLC0415 - numba on use

    if not callable(getattr(game, "combo_terminals", None)):
        return None
    boards = game.strengths.boards
    index = np.flatnonzero(np.isin(boards, board).sum(axis=1) == len(board))
    if len(index) != comb(52 - len(board), 5 - len(board)):
        return None
    hands = game.combo_terminals().hands
    won = np.zeros(game.n_hands[player])
    seen = np.zeros(game.n_hands[player])
    weights = np.ascontiguousarray(opp_weights, dtype=np.float64)
    terminal_kernels.runout_sums(
        index.astype(np.int64), weights, won, seen, hands[player], hands[1 - player]
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(seen > 0, (seen + won) / (2 * seen), np.nan)


def _strengths(boards: np.ndarray, combos: np.ndarray) -> np.ndarray:
    """``[n_boards, len(combos)]`` strengths; -1 where a combo shares a card with the board."""
    return board_strengths(boards, COMBO_CARDS[combos])


def _per_card_lists(opp_combos: np.ndarray) -> tuple[np.ndarray, int]:
    """``[52, width]`` opponent hand indices holding each card (padded with -1)."""
    holders = [np.flatnonzero((COMBO_CARDS[opp_combos] == c).any(axis=1)) for c in range(52)]
    width = max(1, max(len(h) for h in holders))
    table = np.full((52, width), -1, dtype=np.intp)
    for card, hands in enumerate(holders):
        table[card, : len(hands)] = hands
    return table, width


def equity_vs_range(
    board: tuple[int, ...],
    own_combos: np.ndarray,
    opp_combos: np.ndarray,
    opp_weights: np.ndarray,
) -> np.ndarray:
    """``[len(own_combos)]`` equity of each own combo against ``opp_weights`` (NaN where the
    hand is blocked by the board or no opponent weight is compatible with it)."""
    return equity_on_boards(runouts(tuple(board)), own_combos, opp_combos, opp_weights)


def _boards(own, opp, weights, own_cards, holders, same):
    """Compatible opponent weight below, equal to, and in all, for every own hand, summed over
    a batch of boards (``own`` ``[B, n_own]``, ``opp`` ``[B, n_opp]`` strengths)."""
    n_boards, n_opp = opp.shape
    w = np.where(opp >= 0, weights[None, :], 0.0)
    # one flat sort for the batch: board b's strengths are shifted into their own band
    band = (int(max(opp.max(), own.max())) + 3) * np.arange(n_boards)[:, None]
    keys = (opp + 1 + band).ravel()
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    cum = np.concatenate(([0.0], np.cumsum(w.ravel()[order])))
    base = cum[np.arange(n_boards) * n_opp][:, None]
    own_keys = own + 1 + band
    below = cum[np.searchsorted(sorted_keys, own_keys, "left")] - base
    upto = cum[np.searchsorted(sorted_keys, own_keys, "right")] - base
    everything = w.sum(axis=1, keepdims=True) * np.ones_like(below)
    # take out the opponent combos holding either of the hand's cards
    for k in (0, 1):
        members = holders[own_cards[:, k]]  # [n_own, width]
        valid = members >= 0
        safe = np.maximum(members, 0)
        their_s = np.where(valid[None], opp[:, safe], -2)  # [B, n_own, width]
        their_w = np.where(valid[None], w[:, safe], 0.0)
        everything -= their_w.sum(axis=2)
        below -= (their_w * (their_s < own[:, :, None])).sum(axis=2)
        upto -= (their_w * (their_s <= own[:, :, None])).sum(axis=2)
    # the same combo holds both cards: it was taken out twice
    twice = np.where(same[None, :] >= 0, w[:, np.maximum(same, 0)], 0.0)
    everything += twice
    upto += twice
    keep = own >= 0
    return (
        np.where(keep, below, 0.0).sum(axis=0),
        np.where(keep, upto - below, 0.0).sum(axis=0),
        np.where(keep, everything, 0.0).sum(axis=0),
    )


def sampled_runouts(
    board: tuple[int, ...], dead: tuple[int, ...], count: int, rng: np.random.Generator
) -> np.ndarray:
    """``[count, 5]`` completions of ``board`` drawn uniformly from the cards not in ``board``
    or ``dead`` (for a preflop equity, where every runout would be 1.7 million boards)."""
    deck = np.array([c for c in range(52) if c not in board and c not in dead], dtype=np.intp)
    need = 5 - len(board)
    keys = rng.random((count, len(deck)))
    extra = deck[np.argpartition(keys, need, axis=1)[:, :need]]
    fixed = np.broadcast_to(np.asarray(board, dtype=np.intp), (count, len(board)))
    return np.concatenate([fixed, extra], axis=1)


def equity_on_boards(
    boards: np.ndarray, own_combos: np.ndarray, opp_combos: np.ndarray, opp_weights: np.ndarray
) -> np.ndarray:
    """As ``equity_vs_range``, over the given five-card boards (every runout, or a sample of
    them drawn without the own hand's cards, which estimates the same equity). ``opp_weights``
    may be ``[k, n_opp]``, k ranges of the same combos: the strengths, most of the work, are
    then evaluated once for all of them and the answer is ``[k, len(own_combos)]``."""
    weights = np.atleast_2d(opp_weights)
    own_cards = COMBO_CARDS[own_combos]
    holders, _ = _per_card_lists(opp_combos)
    where = {int(c): i for i, c in enumerate(opp_combos)}
    same = np.array([where.get(int(c), -1) for c in own_combos], dtype=np.intp)
    union, inverse = np.unique(np.concatenate([own_combos, opp_combos]), return_inverse=True)
    own_at, opp_at = inverse[: len(own_combos)], inverse[len(own_combos) :]
    share = np.zeros((len(weights), len(own_combos)))
    total = np.zeros((len(weights), len(own_combos)))
    for start in range(0, len(boards), _BOARD_BATCH):
        union_s = _strengths(boards[start : start + _BOARD_BATCH], union)
        own_s, opp_s = union_s[:, own_at], union_s[:, opp_at]
        for k, row in enumerate(weights):
            won, tied, seen = _boards(own_s, opp_s, row, own_cards, holders, same)
            share[k] += won + 0.5 * tied
            total[k] += seen
    with np.errstate(invalid="ignore", divide="ignore"):
        equity = np.where(total > 0, share / total, np.nan)
    return equity if np.ndim(opp_weights) == 2 else equity[0]
