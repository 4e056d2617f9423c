"""Any line of the full game, at any postflop decision, has a place in the bot's re-solve trees.

Hypothesis plays random legal lines (calls, checks and raises of any legal size: minimum
raises, all-ins, bets below the big blind, re-raise wars) to a decision on the flop, turn or
river, then builds the street's subgame with the bot's default trees (``DEFAULT_SIZES``) and
the node subgame rooted at the decision. Whatever sizes the line used, the subgame holds the
pot and stacks of the street's start, the decision is a node of its tree with the line's real
chips and actor, and every answer the tree offers there is a legal action of the full game.
The expected chips are read off the full game's state, not the spot's code.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solvers.agents.resolving import DEFAULT_SIZES
from solvers.agents.subgame import (
    SPOT_PLAYER_OF_SEAT,
    build_node_subgame,
    build_subgame,
    street_root,
)
from solvers.cards.deck import N_COMBOS, dead_mask, parse_cards
from solvers.games.hunl.rules import CALL, RAISE, Action, HunlConfig, HunlState

CONFIG = HunlConfig(100)
BOARD = np.array(parse_cards("Ks 7h 2d 9c 4s"))
BOARD_CARDS = {1: 3, 2: 4, 3: 5}


def ranges(board: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(0)
    weights = rng.random((2, N_COMBOS)) * (rng.random((2, N_COMBOS)) < 0.05)
    return weights * ~dead_mask([int(c) for c in board])


@st.composite
def decisions(draw) -> HunlState:
    """A state where a player is to act on the street drawn, reached by random legal play."""
    street = draw(st.integers(1, 3))
    stop_after = draw(st.integers(0, 5))  # actions on the target street before the decision
    state = HunlState.initial(CONFIG)
    for _ in range(40):
        assume(not state.is_over and state.street <= street)
        if state.street == street and state.street_actions >= stop_after:
            break
        legal = state.legal()
        # a call or check (more often before the decision's street), a raise up to twice the pot
        # (kind 6 to 8), or any raise to all-in (9)
        kind = draw(st.integers(0 if state.street < street else 3, 9))
        if legal.min_raise_to is None or kind < 6:
            state = state.apply(Action(CALL))
            continue
        low, high = legal.min_raise_to, legal.max_raise_to
        assert high is not None
        to = draw(st.integers(low, high if kind == 9 else min(high, low + 2 * state.pot)))
        state = state.apply(Action(RAISE, to))
    assume(not state.is_over and state.street == street)
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(decisions())
def test_every_line_is_a_node_of_its_street_with_its_chips_and_legal_answers(state):
    board = BOARD[: BOARD_CARDS[state.street]]
    sub = build_subgame(state, board, ranges(board), DEFAULT_SIZES[state.street])
    root = street_root(state)
    assert sub.params.pot == root.pot
    assert sub.params.stack == CONFIG.stack - root.committed[0]
    node_id = sub.node_of(state)
    assert node_id is not None, state.history
    node = sub.game.nodes[node_id]
    # the big blind (seat 1) is out of position after the flop: spot player 0
    assert node.contributions == (float(state.committed[1]), float(state.committed[0]))
    assert node.player == SPOT_PLAYER_OF_SEAT[state.to_act]
    answers = [sub.real_action(node_id, i, state) for i in range(len(node.tokens))]
    assert Action(CALL) in answers
    for answer in answers:
        state.apply(answer)  # raises IllegalAction if the tree offered an illegal size

    node_sub = build_node_subgame(state, board, ranges(board), DEFAULT_SIZES[state.street])
    start = node_sub.game.root
    assert start.is_decision and start.player == node.player
    assert start.contributions == node.contributions
    assert node_sub.node_of(state) == start.id
    for i in range(len(start.tokens)):
        state.apply(node_sub.real_action(start.id, i, state))
