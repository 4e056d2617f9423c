"""One row per bet size in the live panel: a size key within a percent of the pot of a size of
the bot's re-solve tree is that size (the key's 1/3 of the pot is the river tree's 33%, its 2/3
the turn tree's 66%), so the panel values it once and the key plays it. Totals are computed by
hand: a 3 bb raise called and checked down, 6 bb in the pot (600 chips), 300 chips each in."""

import numpy as np

from pokertui.session.hunl_hand import HunlHand, HunlStep, size_totals
from pokertui.session.hunl_session import HunlSession
from solvers.agents.resolve_values import on_tree, tree_size
from solvers.agents.resolving import ResolvingAgent
from solvers.cards.deck import parse_cards
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlConfig, replay
from tests.resolve_fixtures import Fixed

CONFIG = HunlConfig(100)


def r(total: int) -> Action:
    return Action(RAISE, total)


def test_the_turn_keys_two_thirds_is_the_trees_66_percent():
    state = replay("r300c/cc/", CONFIG)  # the turn: 600 in the pot, the big blind opens
    assert size_totals(state) == [("min", 400), ("1/3", 500), ("1/2", 600), ("2/3", 700),
                                  ("pot", 900), ("allin", 10000)]  # fmt: skip
    tree = (Action(CALL), r(696), r(10000))  # 66%: 300 + 0.66 * 600
    keys = tuple(r(total) for _, total in size_totals(state))
    assert on_tree(state, (Action(CALL), *keys), tree) == (
        Action(CALL),
        r(400),
        r(500),
        r(600),
        r(696),
        r(900),
        r(10000),
    )
    assert tree_size(state, r(706), tree) == r(706)  # 10 chips off: 1.7% of the pot


def test_a_size_near_all_in_stays_apart_from_it():
    state = replay("r300c/cc/", CONFIG)
    assert tree_size(state, r(9995), (r(10000),)) == r(9995)
    assert tree_size(state, r(10000), (r(9995),)) == r(10000)
    assert tree_size(state, Action(FOLD), (r(400),)) == Action(FOLD)


def river_session() -> HunlSession:
    """The human in the big blind opening the river of the hand above, against a bot that
    re-solves the river (its tree: 33%, 75%, 150% and all-in bets)."""
    agent = ResolvingAgent(Fixed(3), streets=(3,), max_iterations=20)
    session = HunlSession(CONFIG, agent, bot_name="resolve", human_seat=1, seed=4)
    hole = ((int(parse_cards("Qh")[0]), int(parse_cards("Jd")[0])),
            (int(parse_cards("Kc")[0]), int(parse_cards("Td")[0])))  # fmt: skip
    board = tuple(int(c) for c in parse_cards("Ks 7h 2d 9c 4s"))
    hand = HunlHand(1, 1, hole, board)
    line = [(0, "r300"), (1, "c"), (1, "c"), (0, "c"), (1, "c"), (0, "c")]
    session.restore_hand(hand, [HunlStep(seat, action, 0, 0, 0) for seat, action in line])
    return session


def test_the_panel_has_one_row_per_size_and_the_key_plays_the_trees_size():
    session = river_session()
    assert session.human_to_act and session.state.street == 3
    assert session.size_totals()[1] == ("1/3", 500)  # before the numbers: the pot's third
    numbers = session.live()
    raises = [e for e in numbers.evs if e.action.kind == RAISE]
    # the tree's 498 (33%), 750 (75%), 1200 (150%) and all-in; the keys' 400, 600, 700, 900
    assert [e.action.to for e in raises] == [400, 498, 600, 700, 750, 900, 1200, 10000]
    assert all(e.ev is not None and np.isfinite(e.ev) for e in raises)
    assert session.size_totals() == [("min", 400), ("1/3", 498), ("1/2", 600), ("2/3", 700),
                                     ("pot", 900), ("allin", 10000)]  # fmt: skip
    labels = [option.label for option in session.options()]
    assert "bet 1.98bb" in labels and "bet 2bb" not in labels  # this street's chips
    session.act("1/3", advance=False)
    assert session.hand.steps[-1].action == "r498"
    assert dict(session.hand.steps[-1].evs)["r498"] is not None  # its value, for the review
