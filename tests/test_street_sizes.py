"""Typed bet sizes: a spot's size lists are parsed once into ``StreetSizes``, and the spec string
and the spot file are their spelling, read back exactly (shipped strategy files included)."""

import gzip
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.games import load_game
from solvers.games.base import GameParamError
from solvers.games.holdem.bet_sizes import (
    Size,
    SizeError,
    StreetSizes,
    format_sizes,
    parse_sizes,
)
from solvers.games.holdem.spot import SpotParams, load_spot_params, spot_spec
from solvers.games.spec import parse_spec
from solvers.strategy_file.binary_layout import read_frame

ROOT = Path(__file__).resolve().parent.parent
POSITIVE = st.floats(0, 1e300, exclude_min=True, allow_nan=False)
PCT = st.builds(Size, st.just("pct"), POSITIVE)
BETS = st.lists(st.one_of(st.just(Size("allin")), st.just(Size("geo")), PCT), max_size=5).map(tuple)
RAISES = st.lists(
    st.one_of(
        BETS.map(lambda sizes: sizes[0] if sizes else Size("allin")),
        st.builds(Size, st.just("mult"), st.floats(1, 1e300, exclude_min=True)),
    ),
    max_size=5,
).map(tuple)
STREETS = st.builds(
    StreetSizes,
    oop_bet=BETS,
    ip_bet=BETS,
    oop_raise=RAISES,
    ip_raise=RAISES,
    donk=st.none() | BETS,
    raise_cap=st.none() | st.integers(0, 10),
)
SPOT = dict(board="Qs Jh 2h 8d 3c", pot=100, stack=300, oop_range="AA, KK", ip_range="QQ, AK")


@settings(max_examples=300, deadline=None)
@given(sizes=RAISES)
def test_a_size_list_reads_back_from_its_spelling(sizes):
    assert parse_sizes(format_sizes(sizes), raise_sizes=True) == sizes


@settings(max_examples=200, deadline=None)
@given(street=STREETS)
def test_a_street_reads_back_from_its_texts(street):
    assert StreetSizes.parse(street.texts(), "river") == street


@settings(max_examples=40, deadline=None)
@given(flop=STREETS.map(lambda s: replace(s, donk=None)), turn=STREETS, river=STREETS)
def test_spot_parameters_read_back_from_their_spec_string(flop, turn, river):
    params = SpotParams(**SPOT, flop=flop, turn=turn, river=river)
    spec = spot_spec(params)
    name, again = parse_spec(spec)
    assert name == "nlhe" and again == params and spot_spec(again) == spec


TOKENS = st.sampled_from(["a", "A", "allin", "All-In", "e", "E", "33%", "33.0%", "075%", ".5%",
                          "2.5x", "2.50X", "3x"])  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(tokens=st.lists(TOKENS, max_size=5), spaces=st.lists(st.sampled_from(["", " ", "  "])))
def test_any_spelling_has_one_canonical_form(tokens, spaces):
    pad = (spaces or [""]) * (len(tokens) + 1)
    text = ",".join(f"{pad[i]}{t}{pad[i + 1]}" for i, t in enumerate(tokens))
    parsed = parse_sizes(text, raise_sizes=True)
    canonical = format_sizes(parsed)
    assert parse_sizes(canonical, raise_sizes=True) == parsed
    assert format_sizes(parse_sizes(canonical, raise_sizes=True)) == canonical


def test_canonical_spelling_by_hand():
    sizes = parse_sizes(" 33.0%,2.50X , E,all-in,.5%, 0.00001% ", raise_sizes=True)
    assert sizes == (Size("pct", 33.0), Size("mult", 2.5), Size("geo"), Size("allin"),
                     Size("pct", 0.5), Size("pct", 1e-5))  # fmt: skip
    assert format_sizes(sizes) == "33%, 2.5x, e, a, 0.5%, 0.00001%"
    assert format_sizes(()) == ""


def test_a_spot_file_is_parsed_into_streets():
    params = load_spot_params(ROOT / "spots" / "srp_dry_river.toml")
    bets = (*(Size("pct", p) for p in (10.0, 20.0, 33.0, 50.0, 75.0, 100.0, 150.0, 250.0)),
            Size("allin"))  # fmt: skip
    raises = (Size("pct", 33.0), Size("pct", 66.0), Size("pct", 100.0), Size("allin"))
    assert params.river == StreetSizes(
        oop_bet=bets, ip_bet=bets, oop_raise=raises, ip_raise=raises, raise_cap=2
    )
    assert params.flop == params.turn == StreetSizes()  # a river spot: no earlier streets


SHIPPED = sorted(
    p for p in (ROOT / "strategies").iterdir() if p.name.endswith((".json.gz", ".ptsb"))
)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_strategy_files_name_their_spot_exactly(path):
    if path.suffix == ".ptsb":
        game = read_frame(path)[0]["game"]
    else:
        game = json.loads(gzip.decompress(path.read_bytes()))["game"]
    name, params = parse_spec(game)
    assert name == "nlhe" and spot_spec(params) == game


@pytest.mark.parametrize("path", sorted((ROOT / "spots").glob("*.toml")), ids=lambda p: p.name)
def test_every_spot_file_reads_back_from_its_spec(path):
    params = load_spot_params(path)
    assert parse_spec(spot_spec(params))[1] == params


def test_an_empty_donk_list_is_no_lead_and_absent_is_the_bet_sizes():
    base = ('nlhe(board="Qs Jh 2h 8d",pot=100,stack=300,oop_range="AA",ip_range="KK",'
            'turn_ip_bet="50%",river_oop_bet="100%",river_ip_bet="50%"{})')  # fmt: skip
    assert load_game(base.format("")).node_by_key("x/b50/c/4c").tokens == ("x", "b200")
    no_lead = load_game(base.format(',river_donk=""'))
    assert no_lead.node_by_key("x/b50/c/4c").tokens == ("x",)  # OOP only checks
    assert no_lead.node_by_key("x/x/4c").tokens == ("x", "b100")  # its bet is unchanged
    assert no_lead.params.river.donk == () and 'river_donk=""' in no_lead.spec_string()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (',river_oop_bet="50%, 7q"', "river.oop_bet: bad size '7q' at position 5"),
        (',turn_ip_bet="2x"', "turn.ip_bet: '2x' at position 0: Nx sizes are for raises only"),
        (",river_raise_cap=-1", "river.raise_cap"),
        (",river_raise_cap=1.5", "river.raise_cap"),
        (',flop_donk="50%"', "flop_donk"),
        (",river=3", "river_oop_bet"),
        (",river_oop_bet=5", 'a string such as "33%, 75%, a"'),
    ],
)
def test_bad_sizes_say_where(extra, message):
    spec = 'nlhe(board="Qs Jh 2h 8d",pot=100,stack=300,oop_range="AA",ip_range="KK"{})'
    with pytest.raises(GameParamError, match=message.replace("(", r"\(")):
        load_game(spec.format(extra))
    with pytest.raises(SizeError):
        StreetSizes.parse({"oop_bet": "50%, 7q"}, "river")
