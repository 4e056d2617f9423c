"""The shipped spot library: every file loads, names itself, and says its ranges are
illustrative; ``name``/``description`` label a spot without changing the game."""

import os
from pathlib import Path

import pytest

from solvers.errors import InputError
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


def test_the_spots_screen_finds_cached_runs(tmp_path):
    """A finished launcher run ``saves/runs/{stem}-*.json`` of the same game counts as solved;
    the least exploitable file wins and a file of another game is ignored."""
    import json  # noqa: PLC0415

    from pokertui.screens.spots import spot_rows  # noqa: PLC0415

    spots, strategies, runs = (tmp_path / d for d in ("spots", "strategies", "runs"))
    for folder in (spots, strategies, runs):
        folder.mkdir()
    body = (
        'name = "Mini"\nboard = "Qs Jh 2h 8d 3c"\npot = 100\nstack = 300\n'
        'oop_range = "AA, QQ"\nip_range = "KK, JJ"\n'
    )
    (spots / "mini.toml").write_text(body)
    spec = load_game(str(spots / "mini.toml")).spec_string()
    for name, game, percent in (
        ("mini-dcfr-1.json", spec, 0.2),
        ("mini-dcfr-2.json", spec, 0.05),
        ("mini-dcfr-3.json", spec.replace("AA", "KK"), 0.0),
    ):
        (runs / name).write_text(json.dumps({"game": game, "measured": {"pot_percent": percent}}))
    (row,) = spot_rows([spots], strategies, runs)
    assert row.name == "Mini" and row.street == "river" and row.spec == spec
    assert row.solved == runs / "mini-dcfr-2.json" and row.pot_percent == 0.05


def test_a_run_named_with_sizes_spelled_otherwise_is_the_same_spot(tmp_path):
    """Files written before sizes were spelled canonically (``50%,A``) still count as solved."""
    import json  # noqa: PLC0415

    from pokertui.screens.spots import spot_rows  # noqa: PLC0415

    spots, strategies, runs = (tmp_path / d for d in ("spots", "strategies", "runs"))
    for folder in (spots, strategies, runs):
        folder.mkdir()
    (spots / "mini.toml").write_text(
        'board = "Qs Jh 2h 8d 3c"\npot = 100\nstack = 300\noop_range = "AA, QQ"\n'
        'ip_range = "KK, JJ"\n[river]\noop_bet = "50%,A"\n'
    )
    spec = load_game(str(spots / "mini.toml")).spec_string()
    assert 'river_oop_bet="50%, a"' in spec
    old = spec.replace('"50%, a"', '"50.0%,allin"')
    other = spec.replace('"50%, a"', '"60%, a"')
    for name, game, percent in (("mini-1.json", old, 0.2), ("mini-2.json", other, 0.1)):
        (runs / name).write_text(json.dumps({"game": game, "measured": {"pot_percent": percent}}))
    (row,) = spot_rows([spots], strategies, runs)
    assert row.solved == runs / "mini-1.json" and row.pot_percent == 0.2


def test_a_binary_run_counts_as_solved_by_its_header(tmp_path):
    """A ``saves/runs/{stem}-*.ptsb`` (a flop's binary file) is found by its JSON header, and
    the Spots screen's Solve of a flop spot asks for one."""
    import json  # noqa: PLC0415

    from pokertui.screens.spots import spot_rows  # noqa: PLC0415
    from solvers.runs.request import RunRequest  # noqa: PLC0415
    from solvers.runs.solve_run import execute  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415

    spots, strategies, runs = (tmp_path / d for d in ("spots", "strategies", "runs"))
    for folder in (spots, strategies, runs):
        folder.mkdir()
    (spots / "mini.toml").write_text(
        'board = "Qs Jh 2h 8d 3c"\npot = 100\nstack = 300\noop_range = "AA, QQ, 76s"\n'
        'ip_range = "KK, JJ, 98s"\n'
    )
    spec = load_game(str(spots / "mini.toml")).spec_string()
    out = runs / "mini-dcfr-2.ptsb"
    execute(RunRequest(game=str(spots / "mini.toml"), algo="dcfr", out=out, iterations=300),
            lambda event: None, lambda: False)  # fmt: skip
    recorded = load_strategy(out).measured.pot_percent
    worse = recorded + 1.0
    (runs / "mini-dcfr-1.json").write_text(
        json.dumps({"game": spec, "measured": {"pot_percent": worse}})
    )
    (row,) = spot_rows([spots], strategies, runs)
    assert row.solved == out and row.pot_percent == pytest.approx(recorded)


def test_a_spot_file_not_text_or_not_a_file_is_refused_by_name(tmp_path, capsys):
    from pokertui.cli import main  # noqa: PLC0415

    latin = tmp_path / "latin.toml"
    latin.write_bytes((SPOTS / "river.toml").read_bytes().replace(b"Benchmark", b"Benchmark \xe9"))
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    for path, why in ((latin, "is not UTF-8 text"), (pipe, "is not a regular file")):
        for read in (load_spot_params, spot_meta):
            with pytest.raises(InputError, match=f"spot file .*{path.name}.*{why}"):
                read(path)
        out = str(tmp_path / "out.ptsb")
        assert main(["solve", str(path), "--algo", "dcfr", "--iterations", "1", "--out", out]) == 2
        err = capsys.readouterr().err
        assert path.name in err and why in err and "Traceback" not in err
