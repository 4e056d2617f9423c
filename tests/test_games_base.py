"""The game representation: spec strings, registry, tree API, strategies and bad input."""

import subprocess
import sys

import numpy as np
import pytest

from solvers.errors import InputError
from solvers.games import (
    GAMES,
    GameParamError,
    StrategyError,
    TreeError,
    load_game,
    parse_spec,
    uniform_strategy,
    validate_strategy,
)

SPECS = [
    "kuhn",
    "kuhn()",
    "kuhn(cards=8)",
    "leduc()",
    "von_neumann(ante=1,bet=2,bins=100)",
    "river_toy(pot=4,bets=1,nuts=0.2)",
    "river_toy(pot=4, bets=[0.5, 1, 2], nuts=0.25)",
    "matrix(rps)",
    "matrix([[0,-1,1],[1,0,-1],[-1,1,0]])",
    "matrix([[1.5e0, -2], [0, 3]])",
]


@pytest.mark.parametrize("spec", SPECS)
def test_spec_string_round_trips(spec):
    game = load_game(spec)
    again = load_game(game.spec_string())
    assert again.spec_string() == game.spec_string()
    assert again.params == game.params
    assert game.id == spec.split("(")[0]


def test_bare_name_means_defaults():
    assert parse_spec("kuhn")[1] == parse_spec("kuhn()")[1]
    assert load_game("kuhn").spec_string() == "kuhn(cards=3,ante=1,bet=1)"
    assert parse_spec("river_toy(bets=1)")[1].bets == [1.0]


def test_registry_lists_every_game():
    assert {"kuhn", "leduc", "von_neumann", "river_toy", "matrix"} <= set(GAMES)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("kuhn(cards=2)", "cards"),
        ("kuhn(ante=-1)", "ante"),
        ("von_neumann(ante=-1)", "ante"),
        ("von_neumann(bins=1)", "bins"),
        ("river_toy(nuts=1.5)", "nuts"),
        ("river_toy(bets=[1,-2])", "positive"),
        ("river_toy(bets=[])", "bets"),
        ("leduc(raises=[2,-4])", "positive"),
        ("poker", "unknown game"),
        ("", "empty"),
        ("kuhn(", "expected"),
        ("kuhn(cards=)", "expected a value"),
        ("kuhn(cards=3))", "end of spec"),
        ("kuhn(cards=3,cards=4)", "twice"),
        ("kuhn(foo=1)", "foo"),
        ("kuhn(3)", "bare values"),
        ("kuhn(cards=3;)", "unexpected"),
        ("matrix(rpsx)", "unknown matrix"),
        ("matrix([[1,2],[3]])", "same length"),
        ("matrix([])", "at least one"),
        ("matrix([[1,a]])", "finite numbers"),
        ("matrix(1)", "list of rows"),
        ("kuhn(cards=true)", "integer"),
        ("__import__('os')", "unexpected"),
    ],
)
def test_bad_specs_raise_clear_input_errors(spec, words):
    with pytest.raises(GameParamError) as info:
        load_game(spec)
    assert isinstance(info.value, InputError)
    assert words in str(info.value)


def test_tree_api_keys_and_actions():
    kuhn = load_game("kuhn")
    keys = ["", "c", "c/c", "c/b", "c/b/f", "c/b/c", "b", "b/f", "b/c"]
    assert [n.key for n in kuhn.nodes] == keys
    assert kuhn.legal_actions("") == ["check", "bet"]
    assert kuhn.legal_actions("b") == ["fold", "call"]
    assert kuhn.child("c", "bet").key == "c/b"
    assert kuhn.child("c", "b").key == "c/b"
    assert [n.key for n in kuhn.children("b")] == ["b/f", "b/c"]
    assert kuhn.node_by_key("c/b/c").contributions == (2.0, 2.0)
    for node in kuhn.nodes[1:]:  # parents come before children
        assert node.parent < node.id

    leduc = load_game("leduc")
    board = leduc.node_by_key("r/c/Ks")
    assert board.is_decision and board.player == 0 and board.board == (4,)  # K of spades
    assert leduc.legal_actions("r/c/Ks/r") == ["fold", "call", "raise"]
    assert leduc.legal_actions("r/c/Ks/r/r") == ["fold", "call"]
    assert leduc.node_by_key("r/r/c").is_chance
    assert leduc.hand_possible("r/c/Ks", 1).tolist() == [True] * 4 + [False, True]


@pytest.mark.parametrize(
    ("node", "action"), [("", "fold"), ("b", "bet"), ("b/c", "call"), ("", 7), ("", "raise")]
)
def test_illegal_actions_raise(node, action):
    with pytest.raises(TreeError, match="legal|terminal"):
        load_game("kuhn").child(node, action)


def test_unknown_nodes_raise():
    kuhn = load_game("kuhn")
    with pytest.raises(TreeError, match="no node"):
        kuhn.node_by_key("b/b")
    with pytest.raises(TreeError):
        kuhn.node(99)
    with pytest.raises(InputError):
        kuhn.legal_actions("x")


def test_sizes_and_info_sets():
    assert load_game("kuhn").n_info_sets == 12
    assert load_game("leduc").n_info_sets == 936  # as OpenSpiel's leduc_poker
    assert len(load_game("leduc").info_sets()) == 936
    assert load_game("kuhn(cards=8)").sizes() == {
        "hands": [8, 8],
        "public_nodes": 9,
        "decision_nodes": 4,
        "info_sets": 32,
    }


def test_prior_and_chance_weights_sum_to_one():
    for spec in ("kuhn", "leduc", "von_neumann(bins=10)", "river_toy"):
        game = load_game(spec)
        assert game.prior.sum() == pytest.approx(1.0)
        for node in game.nodes:
            if node.is_chance:
                weight = sum(
                    p * np.outer(m0, m1)
                    for p, m0, m1 in zip(node.outcome_probs, *node.outcome_masks, strict=True)
                )
                assert np.allclose(weight[game.prior > 0], 1.0)


def test_validate_strategy_reports_problems():
    kuhn = load_game("kuhn")
    strategy = uniform_strategy(kuhn)
    validate_strategy(kuhn, strategy)
    broken = dict(strategy)
    broken[0] = np.array([[0.5, 0.6], [1, 0], [np.nan, 1]])
    del broken[kuhn.node_by_key("b").id]
    with pytest.raises(StrategyError) as info:
        validate_strategy(kuhn, broken)
    message = str(info.value)
    assert "'b': missing" in message and "hand J" in message and "hand K" in message


def test_solvers_never_import_ui_packages():
    code = (
        "import sys, solvers.games, solvers.exact.evaluation, solvers.exact.lp;"
        "import solvers.strategy_file.openspiel;"
        "bad = [m for m in ('textual', 'rich', 'pokertui', 'pyspiel') if m in sys.modules];"
        "sys.exit(bool(bad))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
