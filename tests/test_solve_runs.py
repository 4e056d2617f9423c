"""``pokertui solve`` and the background-run API: results, resume, cancel and crashes."""

import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from pokertui.cli import main
from pokertui.runs import RunRequest, start_run
from solvers.strategy_file import load_strategy


def _final(capsys):
    lines = capsys.readouterr().out.strip().splitlines()
    return json.loads(lines[-1]), [json.loads(line) for line in lines]


def test_json_lines_end_with_the_result(tmp_path, capsys):
    out = tmp_path / "kuhn.json"
    code = main(["solve", "kuhn", "--algo", "cfr+", "--iterations", "500", "--out", str(out),
                 "--json", "--every", "0.01"])  # fmt: skip
    assert code == 0
    final, events = _final(capsys)
    assert final["event"] == "done" and final["iterations"] == 500
    for key in ("iterations", "seconds", "ms_per_iteration", "exploitability", "game_value"):
        assert key in final
    assert any(e["event"] == "progress" for e in events)
    loaded = load_strategy(out)
    assert loaded.solver.algorithm == "cfr+" and loaded.solver.iterations == 500
    assert loaded.measured.exploitability == pytest.approx(final["exploitability"])


def test_target_stops_the_run(tmp_path, capsys):
    out = tmp_path / "leduc.json"
    assert main(["solve", "leduc", "--algo", "dcfr", "--target", "0.01", "--out", str(out),
                 "--json"]) == 0  # fmt: skip
    final, _ = _final(capsys)
    assert final["stopped_by"] == "target" and final["exploitability"] <= 0.011


def test_resumed_run_equals_an_uninterrupted_one(tmp_path, capsys):
    whole, split = tmp_path / "whole.json", tmp_path / "split.json"
    base = ["solve", "leduc", "--algo", "cfr+", "--json"]
    assert main([*base, "--iterations", "60", "--out", str(whole)]) == 0
    assert main([*base, "--iterations", "25", "--out", str(split)]) == 0
    assert main([*base, "--iterations", "60", "--out", str(split), "--resume"]) == 0
    capsys.readouterr()
    with np.load(f"{whole}.ckpt.npz") as a, np.load(f"{split}.ckpt.npz") as b:
        for key in a.files:
            if key != "elapsed_seconds":
                assert np.array_equal(a[key], b[key]), key
    assert whole.read_text().split('"nodes"')[1] == split.read_text().split('"nodes"')[1]


def test_lp_algorithm_writes_an_exact_file(tmp_path, capsys):
    out = tmp_path / "river.json"
    assert main(["solve", "river_toy", "--algo", "lp", "--out", str(out), "--json"]) == 0
    final, _ = _final(capsys)
    assert final["exploitability"] < 1e-6


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["solve", "leduc", "--algo", "nope", "--iterations", "3"], "unknown algorithm"),
        (["solve", "poker9", "--algo", "cfr", "--iterations", "3"], "unknown game"),
        (["solve", "leduc", "--algo", "cfr"], "stopping rule"),
        (["solve", "leduc", "--algo", "cfr", "--iterations", "0"], "positive"),
        (["solve", "leduc", "--algo", "cfr", "--iterations", "5", "--resume"], "nothing to resume"),
        (["solve", "leduc", "--algo", "cfr", "--iterations", "5", "--opt", "x"], "key=value"),
    ],
)
def test_bad_input_exits_2(tmp_path, capsys, argv, needle):
    assert main([*argv, "--out", str(tmp_path / "x.json")]) == 2
    assert needle in capsys.readouterr().err


def test_unwritable_output_exits_2(capsys):
    assert main(["solve", "kuhn", "--algo", "cfr", "--iterations", "3", "--out",
                 "/no/such/folder/x.json"]) == 2  # fmt: skip
    assert "does not exist" in capsys.readouterr().err


def _wait_for_progress(run, count=2):
    seen = 0
    for event in run.events():
        if event["event"] == "progress":
            seen += 1
            if seen >= count:
                return event
    raise AssertionError("the run ended before reporting progress")


def test_cancel_writes_a_checkpoint_and_resume_continues(tmp_path):
    out = tmp_path / "leduc.json"
    request = RunRequest("leduc", "cfr", out, iterations=10**7, report_seconds=0.05)
    run = start_run(request)
    _wait_for_progress(run)
    run.cancel()
    final = run.wait(timeout=60)
    assert final["event"] == "interrupted"
    assert Path(final["checkpoint"]).exists() and not out.exists()
    done_before = final["iterations"]
    request = replace(request, iterations=done_before + 50)
    resumed = start_run(request, resume=True).wait(timeout=120)
    assert resumed["event"] == "done" and resumed["iterations"] == done_before + 50
    assert out.exists()


def test_a_killed_run_leaves_the_old_output_untouched(tmp_path):
    out = tmp_path / "kuhn.json"
    assert main(["solve", "kuhn", "--algo", "lp", "--out", str(out)]) == 0
    before = out.read_bytes()
    run = start_run(RunRequest("leduc", "cfr", out, iterations=10**7, report_seconds=0.05))
    _wait_for_progress(run)
    run.kill()
    run.process.wait(timeout=30)
    time.sleep(0.1)
    assert out.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_errors_from_a_background_run_are_reported(tmp_path):
    result = start_run(RunRequest("poker9", "cfr", tmp_path / "x.json", iterations=3)).wait(60)
    assert result["event"] == "error" and "unknown game 'poker9'" in result["message"]


def test_double_oracle_reports_support_sizes(tmp_path, capsys):
    out = tmp_path / "do.json"
    assert main(["solve", "kuhn", "--algo", "double-oracle", "--target", "1e-9", "--out",
                 str(out), "--json", "--every", "0"]) == 0  # fmt: skip
    final, events = _final(capsys)
    supports = [e["support"] for e in events if e["event"] == "progress"]
    assert supports and supports[-1] == [3, 3]
    assert final["game_value"] == pytest.approx(-1 / 18, abs=1e-9)
