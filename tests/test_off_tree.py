"""Off-tree bets mapped onto the tree: against the formula, on a hold'em spot, and the exact cost
of translation on the clairvoyance river game."""

import json

import numpy as np
import pytest

from pokertui.cli import main
from pokertui.session import Session
from solvers.errors import InputError
from solvers.exact.evaluation import best_response
from solvers.games import load_game
from solvers.games.holdem.off_tree import answer_rows, real_amount, translate_bet, tree_sizes
from solvers.strategy_file import load_strategy, save_strategy
from tests.conftest import ROOT

SPOT = (
    'nlhe(board="Qs Jh 2h 8d 3c",pot=100,stack=300,oop_range="QQ+,AKs",ip_range="JJ+,AQs",'
    'river_oop_bet="50%,a",river_ip_bet="50%,a",river_ip_raise="100%,a")'
)


def _harmonic(a, b, x):
    """The Ganzfried-Sandholm formula, written out independently of the code."""
    return (b - x) * (1 + a) / ((b - a) * (1 + x))


def test_river_toy_bet_between_sizes_follows_the_formula():
    game = load_game("river_toy(pot=4,bets=[1,2,4])")  # 0.25, 0.5 and 1 pot
    result = translate_bet(game, "", 3.0)  # 0.75 pot
    assert result.fraction == pytest.approx(0.75)
    assert [m.label for m in result.mapped] == ["bet 2", "bet 4"]
    assert [m.child_key for m in result.mapped] == ["b2", "b4"]
    assert result.mapped[0].probability == pytest.approx(3 / 7, abs=1e-12)
    assert result.mapped[0].probability == pytest.approx(_harmonic(0.5, 1.0, 0.75), abs=1e-12)
    assert sum(m.probability for m in result.mapped) == pytest.approx(1.0)
    on_tree = translate_bet(game, "", 2.0)
    assert on_tree.on_tree and on_tree.mapped[0].label == "bet 2"
    assert translate_bet(game, "", 9.0).mapped[0].label == "bet 4"  # above the largest
    assert translate_bet(game, "", 0.5).mapped[0].label == "bet 1"  # below the smallest


def test_holdem_bet_raise_and_all_in():
    game = load_game(SPOT)
    root = game.node("")
    assert [round(f, 6) for _, f in tree_sizes(root)] == [0.5, 3.0]  # 50 and all-in 300
    bet = translate_bet(game, "", 80)  # 0.8 pot: between 0.5 and 3
    assert [m.child_key for m in bet.mapped] == ["b50", "b300"]
    assert bet.mapped[0].probability == pytest.approx(_harmonic(0.5, 3.0, 0.8), abs=1e-12)
    shove = translate_bet(game, "", 300).mapped
    assert len(shove) == 1 and shove[0].label.startswith("all-in") and shove[0].probability == 1
    # IP faces a bet of 50 (pot 150, 50 to call); adding 150 raises 100 into 200: 0.5 pot
    node = game.node("b50")
    raise_ = translate_bet(game, node, 150)
    assert raise_.fraction == pytest.approx(100 / 200)
    with pytest.raises(InputError, match="more than the 50 to call"):
        translate_bet(game, node, 40)
    with pytest.raises(InputError, match="chips behind"):
        translate_bet(game, "", 301)


def test_real_amounts_keep_the_pot_fraction():
    game = load_game(SPOT)
    root = game.node("")
    bet50 = root.actions.index("bet 50")
    # the real pot is 160 (a real off-tree line): half pot is 80 chips
    assert real_amount(game, root, bet50, (80.0, 80.0)) == 80.0
    allin = next(i for i, a in enumerate(root.actions) if a.startswith("all-in"))
    assert real_amount(game, root, allin, (80.0, 80.0)) == 300 + 50 - 80
    facing = game.node("b50")
    call = facing.actions.index("call")
    assert real_amount(game, facing, call, (130.0, 50.0)) == 80.0


CALLER_PARAMS = {"pot": 4.0, "nuts": 0.3}


def _clairvoyant_caller(game):
    """The closed-form caller: call a bet s into pot P with probability P / (P + s)."""
    pot = game.params.pot
    strategy = {}
    for node in game.decision_nodes():
        if node.player == 1:
            size = node.contributions[0] - node.contributions[1]
            call = pot / (pot + size)
            strategy[node.id] = np.array([[1 - call, call]])
    return strategy


def _translation_gain(sizes, off_size, mapping=None):
    """Exact extra value of the bettor who may also bet ``off_size`` while the caller answers
    through the mapping, over the value of the bettor restricted to the tree."""
    pot, nuts = CALLER_PARAMS["pot"], CALLER_PARAMS["nuts"]
    tree = load_game(f"river_toy(pot={pot:g},bets={list(sizes)},nuts={nuts})")
    wide = load_game(f"river_toy(pot={pot:g},bets={sorted([*sizes, off_size])},nuts={nuts})")
    tree_caller = _clairvoyant_caller(tree)
    on_tree = best_response(tree, tree_caller, 0).value
    caller = {}
    for node in wide.decision_nodes():
        if node.player != 1:
            continue
        size = node.contributions[0] - node.contributions[1]
        if size != off_size:
            caller[node.id] = tree_caller[tree.node(node.key).id]
            continue
        if mapping is not None:
            caller[node.id] = sum(m.probability * tree_caller[m.child] for m in mapping(tree))
            continue
        bet = translate_bet(tree, "", off_size)
        caller[node.id] = sum(
            m.probability * answer_rows(tree_caller[m.child], tree.nodes[m.child], bet.fold_to_call)
            for m in bet.mapped
        )
    return best_response(wide, caller, 0).value - on_tree


@pytest.mark.parametrize("off_size", [1.5, 2.5, 3.0, 5.0, 7.9])
def test_pseudo_harmonic_translation_costs_nothing_between_sizes(off_size):
    assert _translation_gain([1.0, 8.0], off_size) == pytest.approx(0.0, abs=1e-12)
    assert _translation_gain([1.0, 2.0, 4.0, 8.0], off_size) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("off_size", [0.5, 1.0, 1.5])
def test_a_bet_below_the_smallest_size_costs_nothing_through_its_fold_to_call(off_size):
    """Answered as the smallest size B alone, a small bet x would be folded to as often as B and
    air would bluff it for ``(1 - nuts) P (B - x) / (P + B)``; with ``fold_to_call`` the caller
    calls it ``1 / (1 + x)`` of the time and it gains nothing."""
    assert _translation_gain([2.0, 8.0], off_size) == pytest.approx(0.0, abs=1e-12)
    tree = load_game("river_toy(pot=4,bets=[2,8],nuts=0.3)")
    x, b = off_size / 4.0, 2.0 / 4.0
    bet = translate_bet(tree, "", off_size)
    assert [m.label for m in bet.mapped] == ["bet 2"] and bet.mapped[0].probability == 1.0
    assert bet.fold_to_call == pytest.approx((b - x) / (b * (1 + x)), abs=1e-15)
    pot, nuts = CALLER_PARAMS["pot"], CALLER_PARAMS["nuts"]

    def to_smallest(tree):
        return translate_bet(tree, "", 2.0).mapped

    gain = _translation_gain([2.0, 8.0], off_size, mapping=to_smallest)
    assert gain == pytest.approx((1 - nuts) * pot * (2.0 - off_size) / (pot + 2.0), abs=1e-12)
    assert translate_bet(tree, "", 2.0).fold_to_call == 0.0  # on the tree
    assert translate_bet(tree, "", 3.0).fold_to_call == 0.0  # between two sizes


def test_the_bot_calls_a_small_off_tree_bet_with_the_fold_to_call_odds(tmp_path):
    """A bot that folds every hand to a bet calls a bet of a tenth of the pot (below its
    half-pot size) with probability (0.5 - 0.1) / (0.5 * 1.1), in the play session."""
    game = load_game(SPOT)
    strategy = {}
    for node in game.decision_nodes():
        rows = np.zeros((game.n_hands[node.player], len(node.actions)))
        rows[:, node.actions.index("fold" if "fold" in node.actions else "check")] = 1.0
        strategy[node.id] = rows
    path = tmp_path / "folder.json"
    save_strategy(path, game, strategy)
    session = Session(load_strategy(path), human_seat=0, seed=3, review=False)
    calls = hands = 0
    while hands < 600:
        session.new_hand()
        if session.human_to_act and session.node.key == "":
            session.act_amount(10)
            answers = [s.action for s in session.hand.steps if s.seat == 1]
            calls += answers[0] == "call"
            hands += 1
        while session.hands and session.human_to_act:
            session.act(session.legal_options()[0].label)
    keep = (0.5 - 0.1) / (0.5 * 1.1)
    assert abs(calls / hands - keep) < 4 * np.sqrt(keep * (1 - keep) / hands)


def test_mapped_caller_calls_one_over_one_plus_x():
    tree = load_game("river_toy(pot=4,bets=[1,8],nuts=0.3)")
    caller = _clairvoyant_caller(tree)
    mapped = translate_bet(tree, "", 3.0).mapped
    call = sum(m.probability * caller[m.child][0, 1] for m in mapped)
    assert call == pytest.approx(1 / (1 + 3.0 / 4.0), abs=1e-15)


def test_translation_cost_is_positive_where_the_formula_says():
    pot, nuts = CALLER_PARAMS["pot"], CALLER_PARAMS["nuts"]
    # above the largest size the caller answers as to B: the nuts gain P (x - B) / (P + B)
    gain = _translation_gain([1.0, 2.0], 6.0)
    assert gain == pytest.approx(nuts * pot * (6.0 - 2.0) / (pot + 2.0), abs=1e-12)

    # a mapping that always answers as the larger size under-calls: air bluffs x and gains
    # (1 - nuts) * P (B - x) / (P + B) over checking
    def to_larger(tree):
        return translate_bet(tree, "", 8.0).mapped  # the tree's 8: probability one

    gain = _translation_gain([1.0, 8.0], 3.0, mapping=to_larger)
    assert gain == pytest.approx((1 - nuts) * pot * (8.0 - 3.0) / (pot + 8.0), abs=1e-12)


def test_translate_command(tmp_path, capsys):
    from solvers.strategy_file.write import save_strategy  # noqa: PLC0415

    game = load_game("river_toy(pot=4,bets=[1,2,4])")
    strategy = {
        n.id: np.full((game.n_hands[n.player], len(n.actions)), 1 / len(n.actions))
        for n in game.decision_nodes()
    }
    path = tmp_path / "toy.json"
    save_strategy(path, game, strategy)
    assert main(["translate", str(path), "--bet", "3", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["fraction"] == pytest.approx(0.75)
    assert [m["node"] for m in payload["mapped"]] == ["b2", "b4"]
    assert payload["mapped"][0]["probability"] == pytest.approx(3 / 7)
    assert main(["translate", str(path), "--node", "b2", "--bet", "3"]) == 2
    assert "no bet or raise at node 'b2'" in capsys.readouterr().err
    assert main(["translate", str(path), "--node", "nope", "--bet", "3"]) == 2
    assert "no node 'nope'" in capsys.readouterr().err


def test_translate_reads_a_raise_as_the_shipped_blueprint_does(capsys):
    """``pokertui translate`` on the full-game blueprint: an open to 2 bb (half the pot after
    calling) is read as the tree's 2.5 bb open (3/4) with (3/4 - 1/2) / (3/4 x 3/2) = 2/9 of
    the folds calling; 7 bb is read as 2.5 bb alone; a flop bet of 60% between the tree's 33%
    and 75% by the pseudo-harmonic odds; a user's mistake is a message and exit 2."""
    bot = str(ROOT / "strategies" / "hunl_100bb.npz")

    def read(*argv: str) -> dict:
        assert main(["translate", bot, *argv, "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    small = read("--bet", "150")
    assert (small["to"], small["fraction"]) == (200, pytest.approx(0.5))
    assert small["fold_to_call"] == pytest.approx(2 / 9)
    assert [(m["to"], m["probability"]) for m in small["mapped"]] == [(250, 1.0)]
    large = read("--bet", "650")
    assert large["fold_to_call"] == 0 and [m["to"] for m in large["mapped"]] == [250]
    flop = read("--node", "r250c/", "--bet", "300")  # pot 500: 300 is 60% of it
    lower = (0.75 - 0.6) * 1.33 / ((0.75 - 0.33) * 1.6)
    assert [m["to"] for m in flop["mapped"]] == [415, 625]
    assert flop["mapped"][0]["probability"] == pytest.approx(lower)
    assert flop["fold_to_call"] == 0
    assert main(["translate", bot, "--bet", "150"]) == 0
    assert "calls instead with probability 0.2222" in capsys.readouterr().out
    mistakes = [(["--bet", "20"], "adds 150 to 9950 chips, not 20"),
                (["--bet", "150.5"], "whole chips"),
                (["--node", "r250f", "--bet", "100"], "the hand is over"),
                (["--node", "zz", "--bet", "100"], "cannot read the action")]  # fmt: skip
    for argv, message in mistakes:
        assert main(["translate", bot, *argv]) == 2
        assert message in capsys.readouterr().err
