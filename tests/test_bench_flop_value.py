"""The bookkeeping of ``benchmarks/bench_flop_value.py``'s long runs: a results file read back by
its keys (so a second run measures only what is missing), and the table over the boards, which
adds a board's seats only once all of them are in."""

import importlib.util
import json

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def bench():
    path = ROOT / "benchmarks" / "bench_flop_value.py"
    spec = importlib.util.spec_from_file_location("bench_flop_value", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(board, pot, tree, iterations, player, cost):
    return {"board": board, "pot": pot, "flop tree": tree, "iterations": iterations,
            "player": player, "cost %pot": cost}  # fmt: skip


def test_a_results_file_reads_back_by_board_pot_tree_iterations_and_seat(bench, tmp_path):
    rows = [_row("As 9h 9d", "srp", bench.REFERENCE, "-", 0, 0.0),
            _row("As 9h 9d", "srp", "turn, 10 cards sampled", 300, 1, 1.9)]  # fmt: skip
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "\n")
    read = bench._read_results(path)
    assert set(read) == {("As 9h 9d", "srp", bench.REFERENCE, "-", 0),
                         ("As 9h 9d", "srp", "turn, 10 cards sampled", 300, 1)}  # fmt: skip
    assert bench._read_results(tmp_path / "none.jsonl") == {}
    assert bench._label("turn", 10) == "turn, 10 cards sampled"
    assert bench._label("turn", 0) == "turn"


def test_the_table_over_the_boards_adds_both_seats_of_complete_boards_only(bench):
    tree = "turn, 10 cards sampled"
    rows = [_row("As 9h 9d", "srp", bench.REFERENCE, "-", 0, 0.0),
            _row("As 9h 9d", "srp", tree, 300, 0, 1.7), _row("As 9h 9d", "srp", tree, 300, 1, 1.9),
            _row("Ts Th 4s", "srp", tree, 300, 0, 1.4), _row("Ts Th 4s", "srp", tree, 300, 1, 0.5),
            _row("Ks 7h 2d", "srp", tree, 300, 0, 9.0)]  # fmt: skip
    (table,) = bench._over_boards(rows)
    assert table["boards"] == 2 and table["at most 2%"] == 1
    assert table["mean cost %pot"] == pytest.approx((3.6 + 1.9) / 2)
    assert table["largest"] == pytest.approx(3.6)
    assert bench._over_boards(rows[-1:]) == []  # one seat of one board: nothing yet
