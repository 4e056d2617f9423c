"""``pokertui lbr``: agreement with ``pokertui exploit``, worker-count independence, the header
record, and a clear exit 2 for every bad input."""

from __future__ import annotations

import json

import pytest

from pokertui.cli import main
from solvers.strategy_file import load_strategy, save_strategy
from tests.conftest import STRATEGIES
from tests.lbr_fixtures import river_game, solved

PUSH_FOLD_10 = STRATEGIES / "push_fold_10bb.json"


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def leaky_push_fold(path, shove=1.0, call=0.3):
    """A hand-written push/fold bot: every class shoves and calls with the same frequency."""
    nodes = {
        "": {"actions": ["fold", "shove"], "probs": [[1 - shove, shove]] * 169},
        "shove": {"actions": ["fold", "call"], "probs": [[1 - call, call]] * 169},
    }
    path.write_text(json.dumps({"game": "push_fold(stack_bb=10)", "nodes": nodes}))
    return path


@pytest.fixture(scope="module")
def river_file(tmp_path_factory):
    game = river_game()
    path = tmp_path_factory.mktemp("lbr") / "river.json"
    save_strategy(path, game, solved(game))
    return path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((STRATEGIES / "kuhn.json",), "hold'em"),
        ((PUSH_FOLD_10, "--action-set", "pot"), "unknown action set"),
        ((PUSH_FOLD_10, "--hands", "0"), "--hands"),
        ((PUSH_FOLD_10, "--hands", "-5", "--json"), "--hands"),
        ((PUSH_FOLD_10, "--streets", "river"), "preflop"),
        ((PUSH_FOLD_10, "--streets", "moon"), "--streets"),
        ((PUSH_FOLD_10, "--workers", "0", "--json"), "--workers"),
        ((PUSH_FOLD_10, "--workers", "-1", "--exact"), "--workers"),
        ((PUSH_FOLD_10, "--workers", "5000", "--exact"), "from 1 to 1024"),
        ((PUSH_FOLD_10, "--workers", "5000", "--hands", "4"), "from 1 to 1024"),
        (("no/such/file.json",), "cannot read"),
        ((PUSH_FOLD_10, "--no-resolve", "--record", "--exact"), "--no-resolve"),
        (("hunl(100)", "--bot", "call", "--no-resolve"), "--no-resolve"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, argv, message):
    code, out, err = run_cli(capsys, "lbr", *argv)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert out == ""


def test_push_fold_lbr_agrees_with_exploit_within_the_interval(capsys, tmp_path):
    path = leaky_push_fold(tmp_path / "leaky.json")
    code, out, _ = run_cli(capsys, "exploit", path, "--json")
    assert code == 0
    exploit = json.loads(out)
    code, out, _ = run_cli(capsys, "lbr", path, "--hands", 20_000, "--seed", 5, "--json")
    assert code == 0 and out.count("\n") == 1  # one JSON object
    lbr = json.loads(out)
    assert lbr["unit"] == "mbb_per_hand"
    assert abs(lbr["value"] - exploit["mbb_per_hand"]) <= lbr["ci95"]
    assert lbr["ci95"] < exploit["mbb_per_hand"] / 10
    code, out, _ = run_cli(capsys, "lbr", path, "--exact", "--json")
    exact = json.loads(out)
    for seat in (0, 1):
        best = 1000 * exploit["best_response_values"][seat]
        assert exact["seat_values"][seat] == pytest.approx(best, abs=1e-6)


def test_the_result_does_not_depend_on_the_number_of_workers(capsys):
    results = []
    for workers in (1, 2):
        argv = ("lbr", PUSH_FOLD_10, "--hands", 1700, "--seed", 11, "--workers", workers)
        code, out, _ = run_cli(capsys, *argv, "--json")
        assert code == 0
        results.append(json.loads(out))
    assert results[0]["seat_values"] == results[1]["seat_values"]
    assert results[0]["ci95"] == results[1]["ci95"]


def test_people_get_a_progress_bar_and_a_table(capsys):
    code, out, err = run_cli(capsys, "lbr", PUSH_FOLD_10, "--hands", 600, "--workers", 1)
    assert code == 0
    assert "deals" in err  # the progress bar
    assert "both seats" in out and "mbb/hand" in out


def test_river_spot_tree_lbr_stays_below_exploit(capsys, river_file):
    code, out, _ = run_cli(capsys, "exploit", river_file, "--json")
    exploit = json.loads(out)
    code, out, _ = run_cli(
        capsys, "lbr", river_file, "--action-set", "tree", "--hands", 20_000, "--json"
    )
    assert code == 0
    lbr = json.loads(out)
    assert lbr["unit"] == "pot_percent" and lbr["streets"] == ["river"]
    assert lbr["value"] <= exploit["pot_percent"] + lbr["ci95"]
    code, out, _ = run_cli(capsys, "lbr", river_file, "--action-set", "tree", "--exact", "--json")
    exact = json.loads(out)
    for seat in (0, 1):
        best = 100 * exploit["best_response_values"][seat] / 100  # pot 100: chips = % of pot
        assert exact["seat_values"][seat] <= best + 1e-7


def test_record_stores_figures_in_the_header_and_convert_keeps_them(capsys, tmp_path):
    path = leaky_push_fold(tmp_path / "bot.json")
    for action_set in ("tree", "56"):
        code, out, _ = run_cli(capsys, "lbr", path, "--action-set", action_set, "--exact",
                               "--record")  # fmt: skip
        assert code == 0
    assert "translation price" in out
    loaded = load_strategy(path)
    assert [f.action_set for f in loaded.lbr] == ["tree", "56"]
    assert loaded.lbr[0].value == pytest.approx(loaded.lbr[1].value)  # push/fold: one size
    code, _, _ = run_cli(capsys, "convert", path, "--to", "readable", "--out", tmp_path / "r.json")
    assert code == 0
    assert len(load_strategy(tmp_path / "r.json").lbr) == 2


def test_a_malformed_lbr_header_is_reported(capsys, tmp_path):
    path = leaky_push_fold(tmp_path / "bot.json")
    data = json.loads(path.read_text())
    data["lbr"] = [{"action_set": "fc", "value": "lots"}]
    path.write_text(json.dumps(data))
    code, _, err = run_cli(capsys, "validate", path)
    assert code == 2 and "lbr.0" in err
