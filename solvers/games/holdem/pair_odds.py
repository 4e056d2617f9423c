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
    every, table = game.derived.get(  # a flop's 1,081 runouts x 1,176 combos: once per board
        "runout_strengths",
        (tuple(board), seat),
        lambda: _runout_table(tuple(board), opp_combos),
    )
    keep = ~np.isin(every[:, len(board) :], list(own_cards)).any(axis=1)
    boards, opp = every[keep], table[keep]
    own = _strengths(boards, np.array([own_combo]))[:, 0]
    shares = np.isin(COMBO_CARDS[opp_combos], list(own_cards)).any(axis=1)
    weight = np.where(shares, 0.0, np.asarray(opp_range, dtype=float))[None, :] * (opp >= 0)
    mass = weight.sum()
    if not mass > 0:
        return float("nan"), float("nan")
    win = (weight * (own[:, None] > opp)).sum() / mass
    tie = (weight * (own[:, None] == opp)).sum() / mass
    return float(win), float(tie)


def _runout_table(board: tuple[int, ...], combos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every runout of ``board`` (no dead cards) and each combo's strength on it."""
    boards = runouts(board, set())
    return boards, _strengths(boards, combos)


def pair_payoffs(game, hand0: int, hand1: int) -> np.ndarray:
    """Seat 0's payoff at each terminal (``game.terminal_ids`` order) for one pair of hands;
    0 at showdowns whose board holds one of their cards (the pair cannot reach them; the walk's
    chance weights zero those paths anyway). Vectorised over terminals: a flop has 78,000."""
    combos = np.array([game.hand_combos[0][hand0], game.hand_combos[1][hand1]])
    dead = {int(c) for c in COMBO_CARDS[combos].ravel()}
    table = game.derived.get("pair_terminals", None, lambda: _terminal_table(game))
    signs = np.zeros(len(table.boards))
    if len(table.boards):
        river = table.board_cards[:, 4] >= 0  # complete boards: one runout each, no loop
        short = np.flatnonzero(~river)
        blocks = [table.board_cards[river]] + [runouts(table.boards[k], dead) for k in short]
        strengths = _strengths(np.concatenate(blocks), combos)
        sign = np.sign(strengths[:, 0] - strengths[:, 1]).astype(float)
        signs[river] = sign[: int(river.sum())]
        if len(short):
            sizes = np.array([len(b) for b in blocks[1:]])
            starts = int(river.sum()) + np.cumsum(sizes) - sizes
            signs[short] = np.add.reduceat(sign, starts)[: len(short)] / sizes
        blocked = np.isin(table.board_cards, list(dead)).any(axis=1)
        signs[blocked] = 0.0  # a card the pair holds was dealt: unreachable
    showdown = np.where(table.board >= 0, table.put0 * signs[np.maximum(table.board, 0)], 0.0)
    return np.where(table.fold, table.fold_pay, showdown)


class _TerminalTable:
    """Per terminal: fold or showdown, the fold's payoff to seat 0, seat 0's stake, and the
    index of its (short) board among the distinct showdown boards."""

    def __init__(self, fold, fold_pay, put0, board, boards, board_cards):
        self.fold, self.fold_pay, self.put0, self.board = fold, fold_pay, put0, board
        self.boards, self.board_cards = boards, board_cards


def _terminal_table(game) -> _TerminalTable:
    terminals = [game.nodes[int(t)] for t in game.terminal_ids]
    boards = sorted({tuple(n.board) for n in terminals if n.terminal == "showdown"})
    index = {board: k for k, board in enumerate(boards)}
    fold = np.array([n.terminal == "fold" for n in terminals], dtype=np.bool_)
    put = np.array([n.contributions for n in terminals], dtype=float).reshape(-1, 2)
    folder = np.array([n.folder if n.terminal == "fold" else 0 for n in terminals])
    fold_pay = np.where(folder == 0, -put[:, 0], put[:, 1])
    board = np.array([-1 if n.terminal == "fold" else index[tuple(n.board)] for n in terminals])
    cards = np.full((len(boards), 5), -1, dtype=np.intp)
    for k, cards_of in enumerate(boards):
        cards[k, : len(cards_of)] = cards_of
    return _TerminalTable(fold, fold_pay, put[:, 0], board, boards, cards)
