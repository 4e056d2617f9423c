"""A binary file meets ``--target`` too: when quantising to 8 bits a probability pushes the
file's exact exploitability above the target the float solve met, the file is written with 16
bits, from the solve's own profile again (the checkpoint). A first run gives, at 60 iterations,
the float exploitability and the 8-bit file's; a target halfway between stops a second run at
the same iteration, where 8 bits miss it; the written file is measured again by exact best
response."""

import json

from pokertui.cli import main
from solvers.exact.evaluation import exploitability
from solvers.strategy_file import load_strategy
from tests.conftest import ROOT

SPOT = str(ROOT / "spots" / "srp_dry_river.toml")


def solve(out, capsys, *options) -> list[dict]:
    code = main(["solve", SPOT, "--algo", "dcfr", "--every", "0", "--out", str(out), "--json",
                 *options])  # fmt: skip
    assert code == 0
    return [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]


def test_a_binary_file_that_8_bits_would_push_over_the_target_is_written_with_16(
    tmp_path, capsys
):
    events = solve(tmp_path / "first.ptsb", capsys, "--iterations", "60")
    first = events[-1]
    assert first["bits"] == 8  # no target: the usual quantisation
    raw = [e["exploitability"] for e in events if e["event"] == "progress"]
    assert raw[-1] == first["exploitability_unrounded"] < min(raw[:-1])  # the 60th: a new low
    target = (first["exploitability_unrounded"] + first["exploitability"]) / 2
    final = solve(tmp_path / "s.ptsb", capsys, "--target", repr(target))[-1]
    assert final["stopped_by"] == "target" and final["iterations"] == 60
    assert final["bits"] == 16 and "target_missed_by_rounding" not in final
    loaded = load_strategy(tmp_path / "s.ptsb")
    measured = exploitability(loaded.game, loaded.strategy).exploitability
    assert measured <= target < first["exploitability"]
    assert abs(final["exploitability"] - measured) < 1e-9
