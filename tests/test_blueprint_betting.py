"""The betting abstraction: its spec grammar and the abstract tree it builds under the rules.

Expected amounts are worked out by hand from the sizes' definitions (a raise of ``Nx`` is N times
the opponent's total on this street preflop; ``P%`` of the pot after the call) and from the
no-limit rules (a bet is at least a big blind, a raise at least the last raise).
"""

import subprocess
import sys

import numpy as np
import pytest

from solvers.abstraction.betting import parse_betting
from solvers.abstraction.betting_tree import (
    DECISION,
    FOLD_END,
    SHOWDOWN_END,
    build_tree,
    root_state,
)
from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig, replay

LADDER = "pre=2.5x,a|3x,a|2.2x,a|a; flop=33%,75%,a|a; turn=a; river=a"


def _child(tree, node, token):
    for action, edge in zip(tree.actions(node), range(tree.edge_start[node], 10**9), strict=False):
        if str(action) == token:
            return int(tree.edge_child[edge])
    raise AssertionError(f"{token} not at node {node}: {[str(a) for a in tree.actions(node)]}")


def _walk(tree, line):
    node = 0
    for token in line:
        node = _child(tree, node, token)
    return node


def test_preflop_ladder_amounts():
    tree = build_tree(parse_betting(LADDER), root_state(HunlConfig(100)))
    assert [str(a) for a in tree.actions(0)] == ["f", "c", "r250", "r10000"]
    three = _walk(tree, ["r250"])
    assert [str(a) for a in tree.actions(three)] == ["f", "c", "r750", "r10000"]
    four = _walk(tree, ["r250", "r750"])
    assert [str(a) for a in tree.actions(four)] == ["f", "c", "r1650", "r10000"]
    five = _walk(tree, ["r250", "r750", "r1650"])
    assert [str(a) for a in tree.actions(five)] == ["f", "c", "r10000"]
    capped = _walk(tree, ["r250", "r750", "r1650", "r10000"])
    assert [str(a) for a in tree.actions(capped)] == ["f", "c"]
    # after a limp the big blind checks or raises (no fold when checking is free)
    assert [str(a) for a in tree.actions(_walk(tree, ["c"]))] == ["c", "r250", "r10000"]


def test_postflop_sizes_min_bet_and_terminals():
    tree = build_tree(parse_betting(LADDER), root_state(HunlConfig(100)))
    flop = _walk(tree, ["r250", "c"])  # pot 500: 33% is 165, 75% is 375
    assert tree.street[flop] == 1 and tree.player[flop] == 1
    assert [str(a) for a in tree.actions(flop)] == ["c", "r415", "r625", "r10000"]
    limped = _walk(tree, ["c", "c"])  # pot 200: 33% is 66 chips, below the 100 minimum bet
    assert [str(a) for a in tree.actions(limped)] == ["c", "r200", "r250", "r10000"]
    facing = _walk(tree, ["r250", "c", "r625"])  # level 2 of the flop: only all-in
    assert [str(a) for a in tree.actions(facing)] == ["f", "c", "r10000"]
    folded = _walk(tree, ["r250", "f"])
    assert tree.kind[folded] == FOLD_END and tree.player[folded] == 1
    assert tree.amount[folded] == 100  # the big blind loses its blind
    allin = _walk(tree, ["r10000", "c"])
    assert tree.kind[allin] == SHOWDOWN_END and tree.amount[allin] == 10000
    river_end = _walk(tree, ["r250", "c", "c", "c", "c", "c", "c", "c"])
    assert tree.kind[river_end] == SHOWDOWN_END and tree.amount[river_end] == 250


def test_every_tree_line_is_legal_under_the_rules():
    tree = build_tree(parse_betting(LADDER), root_state(HunlConfig(37)))
    rng = np.random.default_rng(0)
    for _ in range(300):
        node, betting = 0, ""
        while tree.kind[node] == DECISION:
            actions = tree.actions(node)
            pick = int(rng.integers(len(actions)))
            state = replay(betting, HunlConfig(37))
            assert state.to_act == tree.player[node] and state.street == tree.street[node]
            state = state.apply(actions[pick])  # raises IllegalAction if the tree is wrong
            betting = state.betting
            node = int(tree.edge_child[tree.edge_start[node] + pick])
            assert tuple(tree.committed[node]) == state.committed
        assert replay(betting, HunlConfig(37)).is_over


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "betting spec"),
        ("pre=2.5x; flop=33%; turn=a", "no sizes for river"),
        ("pre=2.5x; flop=33%; turn=a; river=a; river=a", "given twice"),
        ("pre=2.5x; flop=33%; turn=a; rivr=a", "street one of"),
        ("pre=2.5x|; flop=33%; turn=a; river=a", "no sizes"),
        ("pre=0.5x; flop=33%; turn=a; river=a", "more than 1x"),
        ("pre=2.5x; flop=-3%; turn=a; river=a", "bad size"),
        ("pre=e; flop=33%; turn=a; river=a", "geometric"),
        ("pre=" + "|".join(["a"] * 9) + "; flop=a; turn=a; river=a", "more than 8 levels"),
    ],
)
def test_bad_betting_specs_say_what_is_wrong(text, message):
    with pytest.raises(InputError, match=message):
        parse_betting(text)


def test_spec_round_trips():
    spec = parse_betting(" PRE=2.5x , a|3x; flop=33%,75%,a ; turn=50%;river=150%,a").spec
    assert spec == "pre=2.5x,a|3x; flop=33%,75%,a; turn=50%; river=150%,a"
    assert parse_betting(spec).spec == spec


def test_subgame_roots_are_checked():
    with pytest.raises(InputError, match="subgame root"):
        root_state(HunlConfig(10), street=3, committed=5_000)


def test_solve_command_refuses_bad_full_game_input(tmp_path):
    base = [sys.executable, "-m", "pokertui", "solve", "hunl(stack_bb=20)"]
    out = ["--out", str(tmp_path / "bp.npz")]
    cases = [
        (["--algo", "cfr", "--iterations", "5", *out], "--algo mccfr"),
        (["--algo", "mccfr", "--opt", "betting=pre=zz", "--iterations", "5", *out], "bad size"),
        (["--algo", "mccfr", "--opt", "cards=hs2(flop=0)", "--iterations", "5", *out], "flop"),
        (["--algo", "mccfr", "--opt", "speed=3", "--iterations", "5", *out], "unknown option"),
        (["--algo", "mccfr", "--target", "1", *out], "cannot be measured"),
        (["--algo", "mccfr", "--iterations", "5", "--resume", *out], "no checkpoint"),
        (["--algo", "mccfr", "--opt", "batch=0", "--iterations", "5", *out], "batch"),
    ]
    for extra, message in cases:
        done = subprocess.run([*base, *extra], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, (extra, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr
