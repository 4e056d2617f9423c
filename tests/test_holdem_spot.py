"""Spot files and nlhe specs: PioSolver's size grammar, tree shape, and errors with positions."""

import numpy as np
import pytest

from solvers.games import load_game
from solvers.games.base import GameParamError
from solvers.games.holdem.bet_sizes import SizeError, geometric_ratio, parse_sizes

RIVER = 'nlhe(board="Qs Jh 2h 8d 3c",pot=100,stack=300,oop_range="AA",ip_range="KK"{extra})'


def _root_tokens(extra: str, key: str = ""):
    game = load_game(RIVER.format(extra=extra))
    return game.node_by_key(key).tokens


def test_percent_bets_and_all_in():
    tokens = _root_tokens(',river_oop_bet="33%, 75%, 150%, a"')
    assert tokens == ("x", "b33", "b75", "b150", "b300")


def test_percent_raise_is_the_call_plus_a_share_of_the_pot_after_the_call():
    # IP faces 75 into 100: calling makes the pot 250, so 50% raises by 75 + 125 to 200.
    tokens = _root_tokens(',river_oop_bet="75%",river_ip_raise="50%, 3x"', key="b75")
    assert tokens == ("f", "c", "b200", "b225")  # 3x: three times the 75 bet


def test_sizes_over_the_stack_collapse_into_one_all_in():
    assert _root_tokens(',river_oop_bet="400%, 500%, a"') == ("x", "b300")


def test_force_all_in_threshold():
    # 150% leaves 150 behind with 400 in the pot after a call: 0.375 of the pot.
    assert _root_tokens(',river_oop_bet="150%",force_allin_threshold=0.4') == ("x", "b300")
    assert _root_tokens(',river_oop_bet="150%",force_allin_threshold=0.3') == ("x", "b150")


def test_add_all_in_threshold():
    assert _root_tokens(',river_oop_bet="50%",add_allin_threshold=3') == ("x", "b50", "b300")
    assert _root_tokens(',river_oop_bet="50%",add_allin_threshold=2.9') == ("x", "b50")


def test_merging_drops_the_smaller_of_two_close_sizes():
    # (100 + 40) / (100 + 33) = 1.053 < 1.1: 33% goes; 75% vs 40%: 1.25, both stay.
    assert _root_tokens(',river_oop_bet="33%, 40%, 75%",merging_threshold=0.1') == (
        "x",
        "b40",
        "b75",
    )


def test_geometric_size_gets_the_stacks_in_by_the_river():
    assert geometric_ratio(300, 100, 2) == pytest.approx((7**0.5 - 1) / 2)
    game = load_game(
        'nlhe(board="Qs Jh 2h 8d",pot=100,stack=300,oop_range="AA",ip_range="KK",'
        'turn_oop_bet="e",river_oop_bet="e")'
    )
    bet = round((7**0.5 - 1) / 2 * 100)  # 82 of 100 on the turn
    assert game.root.tokens == ("x", f"b{bet}")
    river = game.node_by_key(f"b{bet}/c/4c")
    assert river.tokens == ("x", f"b{300 - bet}")  # the rest of the stack, as a pot fraction


def test_donk_sizes_apply_after_oop_called_the_previous_street():
    game = load_game(
        'nlhe(board="Qs Jh 2h 8d",pot=100,stack=300,oop_range="AA",ip_range="KK",'
        'turn_ip_bet="50%",river_oop_bet="100%",river_donk="10%")'
    )
    assert game.node_by_key("x/b50/c/4c").tokens == ("x", "b20")  # pot 200: a 10% lead
    assert game.node_by_key("x/x/4c").tokens == ("x", "b100")


def test_raise_cap_limits_raises_per_street():
    extra = ',river_oop_bet="50%",river_ip_raise="50%",river_oop_raise="50%"'
    capped = load_game(RIVER.format(extra=extra + ",river_raise_cap=1"))
    facing_raise = capped.node_by_key("b50/b150")
    assert facing_raise.tokens == ("f", "c")
    uncapped = load_game(RIVER.format(extra=extra))
    assert len(uncapped.node_by_key("b50/b150").tokens) == 3


def test_turn_spot_deals_every_river_with_card_removal():
    game = load_game('nlhe(board="Qs Jh 2h 8d",pot=100,stack=300,oop_range="AA",ip_range="KK,QQ",'
                     'river_oop_bet="50%")')  # fmt: skip
    chance = game.node_by_key("x/x")
    assert chance.is_chance and len(chance.children) == 48
    assert chance.outcome_probs[0] == pytest.approx(1 / 44)
    ace = chance.tokens.index("As")
    holds_ace = np.array(["As" in label for label in game.hand_labels[0]])
    assert (chance.outcome_masks[0][ace] == ~holds_ace).all()


def test_size_grammar_errors_name_the_token_and_its_position():
    with pytest.raises(SizeError, match=r"'7o%' at position 5"):
        parse_sizes("33%, 7o%", raise_sizes=False)
    with pytest.raises(SizeError, match="raises only"):
        parse_sizes("3x", raise_sizes=False)
    assert [s.kind for s in parse_sizes("33%, 2.5x, e, a", raise_sizes=True)] == [
        "pct",
        "mult",
        "geo",
        "allin",
    ]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ('board="Qs Qs 2h",pot=10,stack=10,oop_range="AA",ip_range="KK"', "appears twice"),
        ('board="Qs Jx 2h",pot=10,stack=10,oop_range="AA",ip_range="KK"', "unknown suit"),
        ('board="Qs Jh",pot=10,stack=10,oop_range="AA",ip_range="KK"', "3, 4 or 5 cards"),
        ('board="Qs Jh 2h",pot=0,stack=10,oop_range="AA",ip_range="KK"', "pot"),
        ('board="Qs Jh 2h",pot=10,stack=-1,oop_range="AA",ip_range="KK"', "stack"),
        ('board="Qs Jh 2h",pot=10,stack=10,oop_range="QsQh",ip_range="KK"', "no combo is left"),
        ('board="Qs Jh 2h",pot=10,stack=10,oop_range="AA",ip_range="KX"', "ip_range"),
        (
            'board="Qs Jh 2h",pot=10,stack=10,oop_range="AA",ip_range="KK",flop_oop_bet="3 3%"',
            "position 0",
        ),
    ],
)
def test_bad_spots_are_input_errors(spec, message):
    with pytest.raises(GameParamError, match=message):
        load_game(f"nlhe({spec})")


def test_spot_file_round_trips_to_the_same_game_as_its_spec(tmp_path):
    path = tmp_path / "spot.toml"
    path.write_text(
        'board = "Qs Jh 2h 8d 3c"\npot = 100\nstack = 300\noop_range = "AA, KK"\n'
        'ip_range = "QQ, AK"\n[river]\noop_bet = "50%, a"\nip_raise = "a"\n'
    )
    from_file = load_game(str(path))
    from_spec = load_game(from_file.spec_string())
    assert from_spec.spec_string() == from_file.spec_string()
    assert [n.key for n in from_spec.nodes] == [n.key for n in from_file.nodes]
    np.testing.assert_array_equal(from_spec.prior, from_file.prior)


def test_unknown_spot_file_keys_are_reported_with_their_line(tmp_path):
    path = tmp_path / "spot.toml"
    path.write_text('board = "Qs Jh 2h"\npot = 10\nstak = 10\n')
    with pytest.raises(GameParamError, match=r"unknown key 'stak' \(line 3\)"):
        load_game(str(path))
    path.write_text('board = "Qs Jh 2h"\n[river]\noop_bets = "50%"\n')
    with pytest.raises(GameParamError, match=r"unknown key 'oop_bets' in \[river\] \(line 3\)"):
        load_game(str(path))
    path.write_text("board = \n")
    with pytest.raises(GameParamError, match="not valid TOML"):
        load_game(str(path))
