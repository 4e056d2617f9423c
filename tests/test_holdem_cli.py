"""The hold'em spot workflow from the command line: solve, exploit, show, gzip, errors."""

import gzip
import json

import pytest

from pokertui.cli import main
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from tests.test_holdem_solve import SMALL_RIVER

SPOT = """\
board = "Qs Jh 2h 8d 3c"
pot = 100
stack = 200
oop_range = "99+, AQs+, KQs, T9s, 54s, A5s"
ip_range = "TT+, AJs+, KJs, QJs, 97s, 65s, A4s"

[river]
oop_bet = "50%, a"
ip_bet = "75%"
oop_raise = "a"
ip_raise = "a"
"""


@pytest.fixture
def spot(tmp_path):
    path = tmp_path / "river.toml"
    path.write_text(SPOT)
    return path


def _last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_solve_to_a_pot_percent_target_then_exploit_and_show(spot, tmp_path, capsys):
    out = tmp_path / "river.json"
    code = main(
        ["solve", str(spot), "--algo", "dcfr", "--target", "0.5%", "--out", str(out), "--json"]
    )
    assert code == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    started, done = lines[0], lines[-1]
    assert started["event"] == "started" and started["memory_mb"] > 0
    assert done["event"] == "done" and done["stopped_by"] == "target"
    assert 0 < done["exploitability_pot_percent"] <= 0.5
    # The sequence-form LP is the independent reference: a profile whose exploitability is e
    # chips has a value within 2e (the nash conv) of the game's. This is SMALL_RIVER of
    # test_holdem_solve, whose LP value is +4.4945 for OOP: an EV of 54.4945 of the 100 pot.
    game = load_game(str(spot))
    assert game.spec_string() == load_game(SMALL_RIVER).spec_string()
    lp_ev_oop = 50 + solve_lp(game).value
    assert lp_ev_oop == pytest.approx(54.4945, abs=1e-3)
    assert abs(done["ev_oop"] - lp_ev_oop) <= 2 * done["exploitability"] + 1e-9
    assert abs(done["ev_ip"] - (100 - lp_ev_oop)) <= 2 * done["exploitability"] + 1e-9

    assert main(["exploit", str(out), "--json"]) == 0
    report = _last_json(capsys.readouterr().out)
    assert report["exploitability_pot_percent"] == pytest.approx(
        done["exploitability_pot_percent"], rel=1e-9
    )
    assert report["ev_oop"] == pytest.approx(done["ev_oop"], abs=1e-9)
    assert report["ev_ip"] == pytest.approx(done["ev_ip"], abs=1e-9)

    assert main(["show", str(out), "--node", "x/b75", "--json"]) == 0
    node = json.loads(capsys.readouterr().out)
    assert node["seat"] == "OOP" and node["actions"] == ["fold", "call", "all-in 200"]
    assert sum(node["aggregate"]) == pytest.approx(1)
    assert set(node["classes"]) <= {
        "AA",
        "KK",
        "QQ",
        "JJ",
        "TT",
        "99",
        "AKs",
        "AQs",
        "KQs",
        "T9s",
        "54s",
        "A5s",
    }
    assert main(["show", str(out), "--node", "x/b75"]) == 0
    text = capsys.readouterr().out
    assert "OOP to act" in text and "per class" in text


def test_gzip_strategy_files_round_trip(spot, tmp_path, capsys):
    out = tmp_path / "river.json.gz"
    assert (
        main(
            [
                "solve",
                str(spot),
                "--algo",
                "cfr+",
                "--iterations",
                "30",
                "--out",
                str(out),
                "--json",
            ]
        )
        == 0
    )
    done = _last_json(capsys.readouterr().out)
    assert done["file_bytes"] == out.stat().st_size
    document = json.loads(gzip.decompress(out.read_bytes()))
    assert document["game"].startswith('nlhe(board="Qs Jh 2h 8d 3c"')
    assert "hands" not in document["nodes"][""]  # combos in the spot's fixed order
    assert main(["exploit", str(out), "--json"]) == 0
    assert _last_json(capsys.readouterr().out)["exploitability"] == pytest.approx(
        done["exploitability"], rel=1e-9
    )


def test_readable_form_writes_a_range_per_action_and_reads_back(spot, tmp_path, capsys):
    compact = tmp_path / "river.json"
    readable = tmp_path / "readable.json"
    assert (
        main(
            [
                "solve",
                str(spot),
                "--algo",
                "dcfr",
                "--iterations",
                "40",
                "--out",
                str(compact),
                "--json",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["convert", str(compact), "--to", "readable", "--out", str(readable)]) == 0
    document = json.loads(readable.read_text())
    root = document["nodes"][""]
    assert set(root) == {"bet 50", "all-in 200"}  # check takes the rest
    assert all(isinstance(text, str) for text in root.values())
    assert main(["validate", str(readable), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("Qs Jh 2h 8d 3c", "Qs Jh 2h 8d 8d"), "appears twice"),
        (('oop_bet = "50%, a"', 'oop_bet = "50%, 7q"'), "'7q' at position 5"),
        (("pot = 100", "pot = 0"), "pot"),
        (("stack = 200", "stak = 200"), "unknown key 'stak' (line 3)"),
        (('oop_range = "99+, AQs+, KQs, T9s, 54s, A5s"', 'oop_range = "QsQh"'), "no combo"),
    ],
)
def test_bad_spot_files_exit_2_with_the_place(spot, tmp_path, capsys, edit, message):
    spot.write_text(SPOT.replace(edit[0], edit[1]))
    code = main(
        [
            "solve",
            str(spot),
            "--algo",
            "dcfr",
            "--iterations",
            "5",
            "--out",
            str(tmp_path / "x.json"),
        ]
    )
    assert code == 2
    assert message_in(capsys.readouterr().err, message)


def message_in(err: str, message: str) -> bool:
    return message in err and "Traceback" not in err


def test_a_tree_over_max_memory_is_refused(spot, tmp_path, capsys):
    spot.write_text(SPOT.replace("stack = 200", "stack = 190"))  # not a cached game
    code = main(
        [
            "solve",
            str(spot),
            "--algo",
            "dcfr",
            "--iterations",
            "5",
            "--max-memory",
            "0.01",
            "--out",
            str(tmp_path / "x.json"),
        ]
    )
    assert code == 2
    assert "needs about" in capsys.readouterr().err


def test_target_must_be_chips_or_a_percentage(spot, tmp_path, capsys):
    code = main(
        [
            "solve",
            str(spot),
            "--algo",
            "dcfr",
            "--target",
            "abc%",
            "--out",
            str(tmp_path / "x.json"),
        ]
    )
    assert code == 2
    assert "percent of the pot" in capsys.readouterr().err
