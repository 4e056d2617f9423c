"""Showdown strengths on boards where blocked combos would repeat a card four times over: the
evaluator never sees an impossible hand (five aces), and every live combo is ranked as
phevaluator ranks it (an independent evaluator)."""

from __future__ import annotations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.cards.board_strengths import board_strengths
from solvers.cards.deck import COMBO_CARDS, parse_cards
from solvers.cards.equity import equity
from solvers.cards.ranges import parse_range
from solvers.games.holdem.showdown import combo_strengths
from solvers.reports.spot_equity import equity_vs_range


@pytest.mark.parametrize("board", ["As Kh 3d Ac Ah", "Ks Kh Kd Ac Ah", "2c 3c 4c 5c 6c"])
def test_blocked_combos_are_masked_and_live_ones_ranked_as_phevaluator(board):
    cards = parse_cards(board)
    strengths = combo_strengths(np.array([cards]))[0]
    blocked = np.array([bool(set(pair.tolist()) & set(cards)) for pair in COMBO_CARDS])
    assert (strengths[blocked] == -1).all() and (strengths[~blocked] >= 0).all()
    live = np.flatnonzero(~blocked)
    reference = np.array([evaluate_cards(*cards, *map(int, COMBO_CARDS[i])) for i in live])
    # the same order and the same ties: phevaluator's ranks count down from the best hand
    ours = np.unique(strengths[live], return_inverse=True)[1]
    theirs = np.unique(-reference, return_inverse=True)[1]
    assert (ours == theirs).all()


def test_equity_on_a_board_whose_runouts_hold_three_aces():
    """The explorer's and the batch report's equity on AK3: exact, against the equity module."""
    board = tuple(parse_cards("As Kh 3d"))
    own, opp = parse_range("AA, KK, AKo, A3s"), parse_range("QQ+, AQs+")
    own_combos, opp_combos = np.flatnonzero(own > 0), np.flatnonzero(opp > 0)
    per_combo = equity_vs_range(board, own_combos, opp_combos, opp[opp_combos])
    live = np.isfinite(per_combo)
    assert live.any()
    for combo in own_combos[live][:3]:
        single = np.zeros(1326)
        single[combo] = 1.0
        expected = equity(single, opp, board, method="exact").equity[0]
        got = per_combo[list(own_combos).index(combo)]
        assert got == pytest.approx(expected, abs=1e-12)


def test_many_boards_at_once_rank_every_live_combo_as_phevaluator():
    """``board_strengths`` over a batch of boards (keys summed per board and per hand) ranks
    the live combos of each board as phevaluator does, and masks the blocked ones."""
    rng = np.random.default_rng(5)
    boards = np.array([rng.choice(52, 5, replace=False) for _ in range(12)])
    combos = rng.choice(len(COMBO_CARDS), 300, replace=False)
    strengths = board_strengths(boards, COMBO_CARDS[combos])
    for board, row in zip(boards.tolist(), strengths, strict=True):
        blocked = np.array([bool(set(COMBO_CARDS[c].tolist()) & set(board)) for c in combos])
        assert (row[blocked] == -1).all() and (row[~blocked] >= 0).all()
        live = np.flatnonzero(~blocked)
        reference = np.array([evaluate_cards(*board, *map(int, COMBO_CARDS[combos[i]]))
                              for i in live])  # fmt: skip
        ours = np.unique(row[live], return_inverse=True)[1]
        theirs = np.unique(-reference, return_inverse=True)[1]
        assert (ours == theirs).all()
