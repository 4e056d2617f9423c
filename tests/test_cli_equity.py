import json
import subprocess
import sys

import pytest

from pokertui.cli import main


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_equity_json_holds_both_sides(capsys):
    out = run_json(capsys, "equity", "AhKd", "8c7s", "--board", "Ac5d6h2s")
    assert out["method"] == "exact"
    assert out["equity"] == pytest.approx([9 / 11, 2 / 11])
    assert out["boards"] == 44 and out["std_error"] == 0
    assert set(out) >= {"equity", "win", "tie", "method", "samples", "boards", "std_error"}


def test_equity_monte_carlo_is_seeded(capsys):
    a = run_json(capsys, "equity", "AhKh", "QQ+,AKs", "--mc", "20000", "--seed", "4")
    b = run_json(capsys, "equity", "AhKh", "QQ+,AKs", "--mc", "20000", "--seed", "4")
    assert a == b and a["method"] == "mc" and a["samples"] == 20000 and a["std_error"] > 0


def test_equity_table_for_people(capsys):
    assert main(["equity", "AhKh", "QQ+,AKs", "--board", "Ts9s2d"]) == 0
    out = capsys.readouterr().out
    assert "QQ+, AKs" in out and "20.83%" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["equity", "AKx", "QQ"], "AKx"),
        (["equity", "AA", "KK", "--board", "AsKsQsJs2d3d"], "at most 5"),
        (["equity", "AA", "KK", "--board", "AsAs"], "twice"),
        (["equity", "AA:1.5", "KK"], "1.5"),
        (["equity", "AA", "KK", "--mc", "0"], "positive"),
    ],
)
def test_user_mistakes_exit_2_with_a_message(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_no_traceback_in_a_real_process():
    result = subprocess.run(
        [sys.executable, "-m", "pokertui", "equity", "22++", "AA"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "22++" in result.stderr and "Traceback" not in result.stderr
