"""The flop yardstick (``solvers/agents/locked_value.py``): a first-street strategy carried into a
richer tree, and the bracketed value of the game solved around it, checked against independent
trees (a pure lock is the spot without the locked-out actions) and against the unlocked value."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.agents.locked_value import first_street_locks, locked_values
from solvers.algorithms.full_width import FullWidthCFR
from solvers.errors import InputError
from solvers.games import load_game

SPOT = (
    'nlhe(board="Ks 7h 2d",pot=100,stack=150,oop_range="AA,KQs,77,A5s,T9s",'
    'ip_range="KK,AK,22,98s,QJs",flop_oop_bet="{oop}",flop_ip_bet="a",flop_oop_raise="a",'
    'flop_ip_raise="a",turn_oop_bet="a")'
)
"""A small flop spot; ``{oop}`` is OOP's flop bets. No two suits are alike on this board."""


def _game(oop: str):
    return load_game(SPOT.format(oop=oop))


def test_first_street_rows_carry_over_by_key_and_label():
    small, rich = _game("a"), _game("50%, a")
    solver = FullWidthCFR(small, variant="dcfr")
    solver.run(iterations=20)
    strategy = solver.average_strategy()
    locks = first_street_locks(small, strategy, rich, 0)
    root = rich.nodes[0]
    assert root.actions == ("check", "bet 50", "all-in 150")
    assert small.nodes[0].actions == ("check", "all-in 150")
    rows = locks[0].probs
    assert np.allclose(rows[:, [0, 2]], np.asarray(strategy[0]), atol=1e-6)
    assert not rows[:, 1].any()
    keys = {rich.nodes[n].key for n in locks}
    assert "" in keys and all(rich.nodes[n].player == 0 for n in locks)
    # OOP facing a raise after its own 50% bet exists only in the rich tree: left free
    assert not any(k.startswith("b50") for k in keys)
    # IP's rows go to IP's nodes, including those after OOP's bet that only the rich tree has
    ip = first_street_locks(small, strategy, rich, 1)
    assert {rich.nodes[n].key for n in ip} == {"x", "b150"}


def test_carrying_into_a_tree_without_an_action_or_over_other_ranges_is_refused():
    small, rich = _game("a"), _game("50%, a")
    solver = FullWidthCFR(rich, variant="dcfr")
    solver.run(iterations=2)
    with pytest.raises(InputError, match="not in the common tree"):
        first_street_locks(rich, solver.average_strategy(), small, 0)
    other = load_game(SPOT.format(oop="a").replace("AA,", "QQ,"))
    with pytest.raises(InputError, match="ranges differ"):
        first_street_locks(other, FullWidthCFR(other, variant="dcfr").average_strategy(), small, 0)


@pytest.fixture(scope="module")
def reference():
    rich = _game("50%, a")
    return rich, locked_values(rich, {}, (0, 1), 0.05, 2000)


def test_the_unlocked_brackets_are_the_game_value_seen_from_each_side(reference):
    rich, values = reference
    zero, one = values[0], values[1]
    assert zero.low == pytest.approx(-one.high) and zero.high == pytest.approx(-one.low)
    assert zero.high - zero.low <= 0.05  # chips; pot 100
    assert zero.low <= zero.middle <= zero.high


def test_a_pure_lock_is_worth_the_spot_without_those_actions(reference):
    """OOP never betting its flop is worth what the spot with no OOP flop bet is worth: an
    independent tree, solved without locks; and it costs OOP against the free game."""
    rich, values = reference
    root = rich.nodes[0]
    checks = np.zeros((rich.n_hands[0], len(root.actions)))
    checks[:, 0] = 1.0
    never = _game("")
    assert never.nodes[0].actions == ("check",)
    carried = first_street_locks(never, FullWidthCFR(never, variant="dcfr").average_strategy(),
                                 rich, 0)  # fmt: skip
    assert np.array_equal(carried[0].probs, checks)
    locked = locked_values(rich, {0: carried[0]}, (0,), 0.05, 2000)[0]  # the root only
    free = locked_values(never, {}, (0,), 0.05, 2000)[0]
    assert locked.low <= free.high + 1e-9 and free.low <= locked.high + 1e-9
    assert abs(locked.middle - free.middle) < 0.05
    assert values[0].middle - locked.middle > 0.3  # betting the flop is worth over 0.3 chips


def test_locking_the_solved_flop_costs_nothing_and_a_shove_costs_much(reference):
    rich, values = reference
    solver = FullWidthCFR(rich, variant="dcfr")
    solver.run(iterations=300)
    solved = solver.average_strategy()
    own = locked_values(rich, first_street_locks(rich, solved, rich, 0), (0,), 0.1, 2000)[0]
    assert abs(own.middle - values[0].middle) < 0.15  # chips; pot 100
    root = rich.nodes[0]
    assert root.actions[2].startswith("all-in")
    shove = {**solved, 0: np.tile(np.eye(len(root.actions))[2], (rich.n_hands[0], 1))}
    bad = locked_values(rich, first_street_locks(rich, shove, rich, 0), (0,), 0.1, 2000)[0]
    assert values[0].low - bad.high > 5.0  # chips: shoving every hand is a big mistake
