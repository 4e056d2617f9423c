"""The full game's rules: blinds, the button, min-raises and all-ins, worked out by hand from the
no-limit rules the ACPC plays (blinds 50/100, stacks reset every hand, raise-to totals)."""

from __future__ import annotations

import pytest

from solvers.errors import InputError
from solvers.games.hunl.rules import (
    SHOWDOWN,
    Action,
    HunlConfig,
    HunlState,
    IllegalAction,
    replay,
)
from solvers.games.hunl.spec import hunl_spec_string, parse_hunl_spec

CALL = Action("c")
FOLD = Action("f")


def r(to: int) -> Action:
    return Action("r", to)


def test_blinds_and_stacks():
    state = HunlState.initial(HunlConfig(100))
    assert state.committed == (50, 100) and state.pot == 150
    assert state.config.stack == 10_000
    assert HunlConfig(200).stack == 20_000  # the ACPC game
    assert HunlConfig(10).stack == 1_000
    assert (state.stack_left(0), state.stack_left(1)) == (9_950, 9_900)


def test_button_acts_first_preflop_and_last_after():
    state = HunlState.initial(HunlConfig(100))
    assert state.to_act == 0  # the small blind is the button
    state = state.apply(CALL)  # the button limps
    assert state.to_act == 1 and state.street == 0  # the big blind has the option
    legal = state.legal()
    assert legal.call_amount == 0 and not legal.can_fold and legal.min_raise_to == 200
    state = state.apply(CALL)  # checks: the flop
    assert state.street == 1 and state.to_act == 1  # the big blind acts first after the flop
    state = state.apply(CALL)
    assert state.to_act == 0 and state.street == 1
    state = state.apply(CALL)
    assert state.street == 2 and state.to_act == 1
    assert state.betting == "cc/cc/"


def test_min_raise_is_the_last_bet_or_raise():
    state = HunlState.initial(HunlConfig(100))
    assert state.legal().min_raise_to == 200  # a raise of one big blind
    state = state.apply(r(300))  # a raise of 200
    assert state.legal().min_raise_to == 500  # at least 200 more
    state = state.apply(r(900))  # a raise of 600
    assert state.legal().min_raise_to == 1_500
    with pytest.raises(IllegalAction, match="between 1500 and 10000"):
        state.apply(r(1_400))
    state = replay("r300c", HunlConfig(100))
    assert state.street == 1 and state.legal().min_raise_to == 400  # a bet of one big blind
    state = state.apply(r(700))  # bet 400
    assert state.legal().min_raise_to == 1_100  # raise at least 400 more
    state = state.apply(r(1_500))  # raise by 800
    assert state.legal().min_raise_to == 2_300


def test_any_amount_between_min_raise_and_all_in():
    state = replay("r300c", HunlConfig(100))
    for to in (400, 401, 777, 9_999, 10_000):
        assert state.apply(r(to)).committed[1] == to
    with pytest.raises(IllegalAction):
        state.apply(r(399))
    with pytest.raises(IllegalAction):
        state.apply(r(10_001))


def test_short_all_in_is_allowed_and_ends_the_raising():
    config = HunlConfig(10)  # 1,000 chips each
    state = HunlState.initial(config).apply(r(600))  # raise of 500
    legal = state.legal()
    assert legal.min_raise_to == 1_000 and legal.max_raise_to == 1_000  # a full raise is 1,100
    state = state.apply(r(1_000))  # all-in for less than a full raise
    legal = state.legal()
    assert legal.call_amount == 400 and legal.can_fold
    assert legal.min_raise_to is None and legal.max_raise_to is None
    with pytest.raises(IllegalAction, match="no raise"):
        state.apply(r(1_000))
    state = state.apply(CALL)
    assert state.is_over and state.street == SHOWDOWN and state.all_in
    assert state.board_cards_needed == 5
    assert state.payoff(0) == (1_000, -1_000) and state.payoff(None) == (0, 0)


def test_all_in_called_on_the_flop_skips_to_showdown():
    state = replay("r300c/r10000c", HunlConfig(100))
    assert state.is_over and state.street == SHOWDOWN and state.pot == 20_000


def test_fold_payoffs_and_illegal_actions():
    state = HunlState.initial(HunlConfig(100)).apply(FOLD)
    assert state.is_over and state.payoff(None) == (-50, 50)
    with pytest.raises(IllegalAction, match="over"):
        state.apply(CALL)
    checked = replay("cc", HunlConfig(100))
    with pytest.raises(IllegalAction, match="checking is free"):
        checked.apply(FOLD)
    raised = replay("r250f", HunlConfig(100))
    assert raised.payoff(None) == (100, -100)
    with pytest.raises(IllegalAction):
        replay("r250c/cc/cc/cc/cc", HunlConfig(100))


def test_river_check_back_is_a_showdown():
    state = replay("cc/cc/cc/cc", HunlConfig(100))
    assert state.is_over and state.street == SHOWDOWN and state.pot == 200
    assert state.payoff(1) == (-100, 100)
    bet_called = replay("r250c/r500c/cr1000c/r2000c", HunlConfig(100))
    assert bet_called.is_over and bet_called.payoff(0) == (2_000, -2_000)


def test_spec_strings():
    assert parse_hunl_spec("hunl(stack_bb=100)") == HunlConfig(100)
    assert parse_hunl_spec("hunl(200)") == HunlConfig(200)
    assert parse_hunl_spec("hunl") == HunlConfig(100)
    config = HunlConfig(37.5)
    assert parse_hunl_spec(hunl_spec_string(config)) == config
    for bad in (
        "hunl(stack_bb=5)",
        "hunl(stack_bb=251)",
        "hunl(stack_bb=nan)",
        "hunl(small_blind=200)",
        "hunl(big_blind=0)",
        "hunl(depth=100)",
        "hunl(100, 200)",
        "hunl(stack_bb=1e999)",
        "hunl(",
        "leduc",
        "",
    ):
        with pytest.raises(InputError):
            parse_hunl_spec(bad)
