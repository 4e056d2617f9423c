"""Input the CLI once answered wrongly or with a traceback: an incomplete spot file, chip amounts
too far apart for the LP, an LP that HiGHS cannot solve, and rounding noise printed as a gap."""

import json
import os
import subprocess
import sys

import pytest

from pokertui.cli import main
from pokertui.commands.output import gap_text, is_noise
from solvers.exact import lp
from solvers.exact.lp import solve_lp
from solvers.games import GameParamError, load_game
from solvers.games.params import MAX_CHIP_SPAN
from tests.conftest import ROOT

SPOT_KEYS = {
    "board": '"Qs Jh 2h 8d 3c"',
    "pot": "100",
    "stack": "300",
    "oop_range": '"TT+, AQs+, KQs, A5s"',
    "ip_range": '"99+, AJs+, KQs, QJs"',
}


def _spot(tmp_path, keys):
    path = tmp_path / "spot.toml"
    path.write_text("".join(f"{key} = {SPOT_KEYS[key]}\n" for key in keys))
    return path


@pytest.mark.parametrize(
    "missing",
    [tuple(SPOT_KEYS), ("board",), ("stack", "oop_range"), ("ip_range",), ("pot",)],
    ids=["empty", "board", "stack-and-oop-range", "ip-range", "pot"],
)
def test_a_spot_file_without_a_required_key_exits_2_naming_it(tmp_path, capsys, missing):
    """The model's defaults once filled an empty file in and solved a spot nobody asked for."""
    spot = _spot(tmp_path, [key for key in SPOT_KEYS if key not in missing])
    out = tmp_path / "out.json"
    argv = ["solve", str(spot), "--algo", "dcfr", "--iterations", "1", "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"missing {', '.join(missing)};" in err
    assert "Traceback" not in err and not out.exists()
    with pytest.raises(GameParamError, match="missing " + ", ".join(missing)):
        load_game(str(spot))


def test_a_complete_spot_file_still_solves(tmp_path, capsys):
    spot = _spot(tmp_path, SPOT_KEYS)
    out = tmp_path / "out.json"
    assert main(["solve", str(spot), "--algo", "dcfr", "--iterations", "1", "--out", str(out)]) == 0
    assert out.exists()


def test_chip_amounts_too_far_apart_exit_2_with_the_reason():
    """Leduc with a million-chip ante against a 0.5 raise once ended in HiGHS's "Not Set" and a
    traceback; a real process prints the reason and exits 2."""
    run = subprocess.run(
        [sys.executable, "-m", "pokertui", "value", "leduc(ante=1e6,raises=[0.5,100])"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "ante 1e+06 is more than 10000 times raises 0.5" in run.stderr
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr


@pytest.mark.parametrize(
    "spec",
    [
        "kuhn(ante=1e-6,bet=1e6)",
        "leduc(ante=1e-6,raises=[1e6,1e6])",
        "flop_poker(ante=1e6,bet=1e-6)",
        "von_neumann(ante=1e6,bet=1e-6,bins=20)",
        "river_toy(pot=1e-6,bets=[1e6])",
    ],
)
def test_every_toy_game_bounds_its_chip_span(spec):
    """At a span of 1e12 the LP's answer was off by the whole smallest amount (measured on each
    of these), with no error at all."""
    with pytest.raises(GameParamError, match="more than 10000 times"):
        load_game(spec)


def test_the_span_bound_is_inclusive_and_the_lp_is_scale_free():
    """A game and the same game with every amount times 1e5 have the same equilibrium, and the
    value scales by 1e5 (a payoff matrix times c has value times c). Leduc at a span of exactly
    ``MAX_CHIP_SPAN`` (ante 0.1, raises 1000) solves to the same value as ante 1 and raises 1e4
    divided by 10, to 1e-12 of the ante."""
    base = solve_lp(load_game("leduc(ante=1,raises=[2,4])"))
    big = solve_lp(load_game("leduc(ante=1e5,raises=[2e5,4e5])"))
    assert big.value == pytest.approx(1e5 * base.value, rel=1e-9)
    assert base.value == pytest.approx(-0.0856064240780, abs=1e-12)  # OpenSpiel's, published
    wide = solve_lp(load_game(f"leduc(ante=0.1,raises=[{0.1 * MAX_CHIP_SPAN:g},1000])"))
    unit = solve_lp(load_game(f"leduc(ante=1,raises=[{MAX_CHIP_SPAN:g},10000])"))
    assert wide.value == pytest.approx(unit.value / 10, abs=1e-13)


def test_an_lp_highs_cannot_solve_is_a_clear_exit_2(monkeypatch, capsys):
    """Whatever HiGHS stops on, the user reads why, not a traceback."""
    real = lp.linprog

    def failing(*args, **kwargs):
        result = real(*args, **kwargs)
        result.status, result.message = 4, "Solve error (HiGHS Status 4)"
        return result

    monkeypatch.setattr(lp, "linprog", failing)
    assert main(["value", "kuhn"]) == 2
    err = capsys.readouterr().err
    assert "the sequence-form LP failed: HiGHS could not solve it" in err
    assert "Solve error" in err and "internal error" not in err


def test_rounding_noise_prints_as_zero_but_a_real_gap_does_not():
    assert is_noise(-4.44e-16, 100) and gap_text(-4.44e-16, True) == "0"
    assert not is_noise(0.00677, 100) and gap_text(0.00677, False) == "0.00677"
    assert not is_noise(-1e-6, 100)  # a negative gap this big is a bug to show, not noise


def test_a_check_down_solve_prints_zero_exploitability(tmp_path, capsys):
    """The check-down spot measures -4.4e-16 (float64 rounding); the report printed it as
    ``exploitability -4.44e-16% of the pot``. The JSON keeps the measured float."""
    spot = _spot(tmp_path, SPOT_KEYS)
    out = tmp_path / "out.json"
    argv = ["solve", str(spot), "--algo", "dcfr", "--iterations", "1", "--out", str(out)]
    assert main([*argv, "--json"]) == 0
    done = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert is_noise(done["exploitability_pot_percent"], 100)  # measured -4.4e-16 when written
    assert main(argv) == 0
    text = " ".join(capsys.readouterr().err.split())
    assert "exploitability 0% of the pot" in text and "exploitability 0, game value" in text
    assert "e-1" not in text


def test_an_lp_solve_of_a_spot_reports_its_file(tmp_path, capsys):
    """The LP path's report lacked the file size the spot line prints (a KeyError)."""
    spec = (
        'nlhe(board="Qs Jh 2h 8d 3c",pot=100,stack=200,oop_range="AA,KK,76s",'
        'ip_range="QQ,JJ,AK",river_oop_bet="50%")'
    )
    out = tmp_path / "lp.json"
    assert main(["solve", spec, "--algo", "lp", "--out", str(out)]) == 0
    text = " ".join(capsys.readouterr().err.split())
    assert "exploitability 0% of the pot; EV OOP" in text and "; file 0.00 MB" in text


@pytest.mark.parametrize(("args", "code"), [
    (["pool", "docs/runs/fc_3-4/default_2201.json"], 141),
    (["--help"], 0),  # argparse drops what it cannot write
])  # fmt: skip
def test_a_reader_that_went_away_stops_the_command_quietly(args, code):
    """``pokertui ... | head`` closes the pipe before the output ends: the command stops with a
    shell's SIGPIPE code and says nothing (it reported an internal error)."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line is written
    try:
        run = subprocess.run([sys.executable, "-m", "pokertui", *args], stdout=write,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)  # fmt: skip
    finally:
        os.close(write)
    assert (run.returncode, run.stderr) == (code, "")
