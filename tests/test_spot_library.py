"""The shipped spot library: every file loads, names itself, and says its ranges are
illustrative; ``name``/``description`` label a spot without changing the game."""

from pathlib import Path

import pytest

from solvers.games import load_game
from solvers.games.base import GameParamError
from solvers.games.holdem.spot import load_spot_params, spot_meta

SPOTS = Path(__file__).resolve().parent.parent / "spots"
LIBRARY = sorted(p for p in SPOTS.glob("*.toml") if p.stem not in ("river", "turn", "flop"))


def test_the_library_covers_the_issue():
    names = {p.stem for p in LIBRARY}
    for texture in ("dry", "wet", "paired"):
        for street in ("flop", "turn", "river"):
            assert f"srp_{texture}_{street}" in names
    assert "3bet_turn" in names and "20bb_flop" in names


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_every_spot_parses_and_is_labelled(path):
    params = load_spot_params(path)
    meta = spot_meta(path)
    assert meta["name"] and "illustrative" in meta["description"]
    street = {3: "flop", 4: "turn", 5: "river"}[len(params.board.split())]
    assert path.stem.endswith(street)


def test_name_and_description_do_not_change_the_game(tmp_path):
    body = 'board = "Qs Jh 2h 8d 3c"\npot = 100\nstack = 300\noop_range = "AA"\nip_range = "KK"\n'
    plain, named = tmp_path / "plain.toml", tmp_path / "named.toml"
    plain.write_text(body)
    named.write_text('name = "AA v KK"\ndescription = "two pairs"\n' + body)
    assert load_game(str(named)).spec_string() == load_game(str(plain)).spec_string()
    assert spot_meta(named) == {"name": "AA v KK", "description": "two pairs"}
    assert spot_meta(plain) == {"name": "", "description": ""}
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 3\n" + body)
    with pytest.raises(GameParamError, match=r"name \(line 1\) must be a string"):
        load_game(str(bad))
