"""The ``games`` and ``value`` commands, in process and once as a real subprocess."""

import json
import subprocess
import sys

import pytest

from pokertui.cli import main


def test_value_kuhn_json(capsys):
    assert main(["value", "kuhn", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "kuhn(cards=3,ante=1,bet=1)"
    assert report["value"] == pytest.approx(-1 / 18, abs=1e-9)
    assert report["exploitability"] < 1e-9
    assert report["solve_seconds"] >= 0


def test_value_table_for_people(capsys):
    assert main(["value", "river_toy(pot=4,bets=1,nuts=0.2)"]) == 0
    out = capsys.readouterr().out
    assert "game value for player 1" in out and "0.96" in out and "solve time" in out


def test_games_lists_sizes(capsys):
    assert main(["games", "--json"]) == 0
    games = {row["name"]: row for row in json.loads(capsys.readouterr().out)["games"]}
    assert games["leduc"]["sizes"]["info_sets"] == 936
    assert games["kuhn"]["params"] == {"cards": 3, "ante": 1.0, "bet": 1.0}
    assert main(["games"]) == 0
    assert "von_neumann" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("spec", "words"),
    [("kuhn(cards=2)", "cards"), ("nosuchgame", "unknown game"), ("kuhn(cards=", "expected")],
)
def test_bad_spec_exits_2_without_traceback(capsys, spec, words):
    assert main(["value", spec]) == 2
    captured = capsys.readouterr()
    assert words in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_subprocess_value_and_bad_spec():
    ok = subprocess.run(
        [sys.executable, "-m", "pokertui", "value", "kuhn(cards=4)", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["value"] == pytest.approx(-1 / 24, abs=1e-9)
    bad = subprocess.run(
        [sys.executable, "-m", "pokertui", "value", "von_neumann(ante=-1)"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert bad.returncode == 2
    assert "ante" in bad.stderr and "Traceback" not in bad.stderr
