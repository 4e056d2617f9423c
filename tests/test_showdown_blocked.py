"""Showdown strengths on boards where blocked combos would repeat a card four times over: the
evaluator never sees an impossible hand (five aces), and every live combo is ranked as
phevaluator ranks it (an independent evaluator)."""

from __future__ import annotations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.cards.deck import COMBO_CARDS, parse_cards
from solvers.games.holdem.showdown import combo_strengths


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
