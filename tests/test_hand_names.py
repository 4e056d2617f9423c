"""Hand names, checked against hands named by hand, and used at the table's showdowns."""

from __future__ import annotations

import numpy as np
import pytest

from pokertui.session import Session
from pokertui.widgets.hand_log import result_line
from solvers.cards import evaluator
from solvers.cards.deck import parse_card
from solvers.cards.hand_names import hand_name
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES


def cards(text: str) -> list[int]:
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


KNOWN = [
    ("KhKd9s9c2h", "two pair, kings and nines"),
    ("KhKd9s9c2h2d7c", "two pair, kings and nines"),  # the best two of three pairs
    ("AsKsQsJsTs", "royal flush"),
    ("9h8h7h6h5h2c2d", "straight flush, nine high"),
    ("5c4d3h2sAh", "straight, five high"),  # the wheel
    ("AhKdQcJsTh", "straight, ace high"),
    ("AhAdAcAs2d", "four of a kind, aces"),
    ("9h9d9s2c2d7h8h", "full house, nines full of twos"),
    ("6h6d6sKcKd", "full house, sixes full of kings"),
    ("KhQh2h9h4h7c", "flush, king high"),
    ("9s9d9c5h2d", "three of a kind, nines"),
    ("QsQd7c5h2d", "pair of queens"),
    ("Ah9d7c5h2d3s", "ace high"),
    ("KhKd", "pair of kings"),  # Leduc: card and board
    ("Kh9d", "king high"),
    ("Js", "jack high"),
]


@pytest.mark.parametrize(("hand", "name"), KNOWN)
def test_known_hands(hand, name):
    assert hand_name(cards(hand)) == name


def test_names_agree_with_the_evaluators_category():
    words = {
        "high card": " high",
        "pair": "pair of",
        "two pair": "two pair",
        "trips": "three of a kind",
        "straight": "straight,",
        "flush": "flush,",
        "full house": "full house",
        "quads": "four of a kind",
        "straight flush": ("straight flush", "royal flush"),
    }
    rng = np.random.default_rng(0)
    for _ in range(3000):
        hand = rng.permutation(52)[:7]
        name = hand_name(hand)
        category = evaluator.category_name(evaluator.evaluate_hand(list(hand)))
        expected = words[category]
        assert name.startswith(expected) or (
            category == "high card" and name.endswith(" high") and "," not in name
        ), (hand, name, category)


def test_bad_hands_are_refused():
    with pytest.raises(ValueError, match="1 to 7"):
        hand_name([])
    with pytest.raises(ValueError, match="distinct"):
        hand_name(cards("AsAs"))


def test_hole_cards_show_high_card_first_and_showdowns_name_hands():
    session = Session(load_strategy(STRATEGIES / "push_fold_10bb.json"), seed=2, review=False)
    named = 0
    for _ in range(40):
        session.new_hand()
        while session.human_to_act:
            session.act(session.node.actions[-1])  # shove or call
        hand = session.hand
        for seat in (0, 1):
            shown = cards(session.hand_text(seat))
            assert shown[0] >> 2 >= shown[1] >> 2  # high rank first
        if hand.showdown:
            line = result_line(session, hand)
            human = hand_name([*hand.deal.hole_cards[hand.human_seat], *hand.deal.board])
            bot = hand_name([*hand.deal.hole_cards[1 - hand.human_seat], *hand.deal.board])
            assert f": {bot}; you have {human}." in line
            named += 1
    assert named > 10
