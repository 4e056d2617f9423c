"""One dealt combo in a spot: its checkdown odds against a range and a pair's terminal payoffs.

The play session asks these for the hand being played, so they must be fast for one combo
(or one pair) without the dense ``n x n`` terminal matrices: each enumerates the remaining
runouts of the board once (cards in the given hands removed) and evaluates every 7-card hand of
the batch in one call.

- ``checkdown_odds``: the chance that ``hand`` wins or ties against a range if the hand were
  checked down from a node, with the cards still to come dealt at random from the unseen deck,
  so opponent hands that share a card with the hand or with the runout take no part.
- ``pair_payoffs``: seat 0's payoff at every terminal for one pair of combos (fold terminals
  pay the folder's opponent; a showdown on a short board averages over the runouts).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from solvers.cards.board_strengths import board_strengths
from solvers.cards.deck import COMBO_CARDS


def runouts(board: tuple[int, ...], dead: set[int]) -> np.ndarray:
    """``[n, 5]`` every completion of ``board`` to five cards avoiding ``dead``."""
    if len(board) == 5:
        return np.array([board], dtype=np.intp)
    left = [c for c in range(52) if c not in dead and c not in board]
    extra = np.array(list(combinations(left, 5 - len(board))), dtype=np.intp)
    base = np.broadcast_to(np.array(board, dtype=np.intp), (len(extra), len(board)))
    return np.concatenate([base, extra], axis=1)


def _strengths(boards: np.ndarray, combos: np.ndarray) -> np.ndarray:
    """``[n_boards, n_combos]`` strength; -1 where a combo holds a board card."""
    return board_strengths(boards, COMBO_CARDS[combos])


def checkdown_odds(
    game, board: tuple[int, ...], seat: int, hand: int, opp_range: np.ndarray
) -> tuple[float, float]:
    """``(win, tie)`` of ``seat``'s ``hand`` against ``opp_range`` (over the opponent's hands,
    not necessarily normalised) on ``board`` plus random runouts; NaN if no hand can meet."""
    own_combo = int(game.hand_combos[seat][hand])
    own_cards = {int(c) for c in COMBO_CARDS[own_combo]}
    opp_combos = game.hand_combos[1 - seat]
    boards = runouts(tuple(board), own_cards)
    own = _strengths(boards, np.array([own_combo]))[:, 0]
    opp = _strengths(boards, opp_combos)
    shares = np.isin(COMBO_CARDS[opp_combos], list(own_cards)).any(axis=1)
    weight = np.where(shares, 0.0, np.asarray(opp_range, dtype=float))[None, :] * (opp >= 0)
    mass = weight.sum()
    if not mass > 0:
        return float("nan"), float("nan")
    win = (weight * (own[:, None] > opp)).sum() / mass
    tie = (weight * (own[:, None] == opp)).sum() / mass
    return float(win), float(tie)


def pair_payoffs(game, hand0: int, hand1: int) -> np.ndarray:
    """Seat 0's payoff at each terminal (``game.terminal_ids`` order) for one pair of hands;
    0 at showdowns whose board holds one of their cards (the pair cannot reach them; the walk's
    chance weights zero those paths anyway)."""
    combos = np.array([game.hand_combos[0][hand0], game.hand_combos[1][hand1]])
    dead = {int(c) for c in COMBO_CARDS[combos].ravel()}
    terminals = [game.nodes[int(t)] for t in game.terminal_ids]
    short_boards = sorted({tuple(n.board) for n in terminals if n.terminal == "showdown"})
    signs: dict[tuple[int, ...], float] = {}
    if short_boards:
        blocks = [runouts(board, dead) for board in short_boards]
        strengths = _strengths(np.concatenate(blocks), combos)
        sign = np.sign(strengths[:, 0] - strengths[:, 1]).astype(float)
        starts = np.cumsum([0, *(len(b) for b in blocks)])[:-1]
        means = np.add.reduceat(sign, starts) / np.array([len(b) for b in blocks])
        signs = dict(zip(short_boards, means.tolist(), strict=True))
    payoff = np.empty(len(terminals))
    for row, node in enumerate(terminals):  # terminals of the public tree, not hands
        put0, put1 = node.contributions
        if node.terminal == "fold":
            payoff[row] = -put0 if node.folder == 0 else put1
        elif dead & set(node.board):  # a card the pair holds was dealt: unreachable
            payoff[row] = 0.0
        else:
            payoff[row] = put0 * signs[tuple(node.board)]
    return payoff
