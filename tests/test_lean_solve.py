"""The lean path of a spot's solve to a binary file: the state chosen when no option says
otherwise, a player's live hands from a lean reach pass, the profile read back from the
checkpoint one player at a time, and the warning before a flop is solved to JSON.

Expected values come from independent routes: the two-pass walk's full reach arrays for the
live hands, the solver's own arrays for what the checkpoint gives back, the exact best response
of the written file (``exploitability`` on the numpy walk) for the file's header."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokertui.cli import main
from solvers.algorithms.base import make_solver
from solvers.exact import executor
from solvers.exact.compiled_walk import Source, compiled_walk
from solvers.exact.evaluation import exploitability
from solvers.exact.executor import evaluation_dtype
from solvers.games import load_game
from solvers.runs import solve_run
from solvers.runs.request import RunRequest, Target
from solvers.strategy_file import load_strategy
from solvers.strategy_file.binary_codec import live_hands, plan_rows

FLOP = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA,KK,AKs,T9s,76s",'
    'ip_range="AA,JJ,AQs,98s,65s",flop_oop_bet="a",flop_ip_bet="a",'
    'turn_oop_bet="75%",turn_ip_bet="75%",river_oop_bet="75%",river_ip_bet="75%")'
)
"""A small flop with a suit swap (no club or diamond on the board or in a range's suits)."""
TURN = (
    'nlhe(board="Qs Jh 2h 8d",pot=100,stack=200,oop_range="QQ, JJ, AKs, T9s, 87o, A5s",'
    'ip_range="QQ, JJ, AKs, T9s, 87o, A5s",turn_oop_bet="50%",turn_ip_bet="75%",'
    'river_oop_bet="60%",river_ip_bet="a",river_ip_raise="a")'
)
RIVER = (
    'nlhe(board="Qs Jh 2h 8d 3c",pot=100,stack=200,oop_range="QQ, JJ, AKs, T9s",'
    'ip_range="QQ, JJ, AKs, 87o",river_oop_bet="60%",river_ip_bet="a")'
)


@pytest.mark.parametrize(("floor", "dtype"), [(0.0, None), (1e-3, None), (0.0, np.float32)])
def test_live_hands_are_the_two_pass_walks_reach_above_the_floor(floor, dtype):
    """The lean reach pass (top rows, then one subtree at a time) marks the same hands as the
    two-pass walk's ``[inner rows, hands]`` reach, for both players, on a partly solved flop
    (some hands have stopped reaching some decisions), in the evaluation dtype (float64 here)
    and in a big tree's float32."""
    game = load_game(FLOP)
    solver = make_solver(game, "dcfr")
    solver.run(iterations=30)
    compact = solver.compiled_output()
    walk = compiled_walk(game, dtype or evaluation_dtype(game), isomorphic=True)
    lean = live_hands(walk, compact, floor)
    walk.reach_down([Source(compact[0]), Source(compact[1])])
    plan = walk.plan
    for p in (0, 1):
        want = walk.reach[p][plan.inner_index[plan_rows(plan, p)]] > floor
        np.testing.assert_array_equal(lean[p], want)
        assert want.any() and not want.all()  # the test can tell a wrong row or player
    walk.release()
    alone = live_hands(walk, [None, compact[1]], floor, players=(1,))
    assert alone[0] is None
    np.testing.assert_array_equal(alone[1], lean[1])


@pytest.mark.parametrize("precision", ["16", "32"])
@pytest.mark.parametrize("output", ["average", "current"])
def test_the_checkpoint_gives_back_the_solves_own_output(tmp_path, precision, output):
    """What the finer try of a binary file reads back from the checkpoint, one player at a
    time, is the solver's output to the bit; another run's checkpoint is refused."""
    game = load_game(TURN)
    solver = make_solver(game, "dcfr", precision=precision, output=output)
    solver.run(iterations=7)
    path = tmp_path / "run.ckpt.npz"
    solver.save_checkpoint(path)
    want = solver.compiled_output()
    got = list(solver.checkpoint_outputs(path))
    for p in (0, 1):
        np.testing.assert_array_equal(got[p], want[p])
    solver.run(iterations=1)
    with pytest.raises(Exception, match="not this run's checkpoint"):
        list(solver.checkpoint_outputs(path))


def _request(game: str, out, **fields) -> RunRequest:
    return RunRequest(game=game, algo="dcfr", out=out, **fields)


def test_the_lean_state_is_chosen_only_where_no_option_says_otherwise(tmp_path, monkeypatch):
    """16 bits where the file's measure runs in float32 (a big tree: the measure's profiles
    take 4 bytes a probability, float32 regrets and sums 8); float32 on a smaller tree, whose
    measure runs in float64. Only a flop or turn spot's binary file with no precision given."""
    turn = load_game(TURN)
    ptsb = tmp_path / "t.ptsb"
    plain = _request(TURN, ptsb, iterations=1)
    assert solve_run.chooses_form(plain, turn)
    assert solve_run.lean_options(plain, turn) == {}  # measured in float64: float32 state
    monkeypatch.setattr(executor, "EXACT_CELLS", 0)  # as big as a flop: measured in float32
    assert solve_run.lean_options(plain, turn) == {"precision": "16"}
    for options in ({"precision": "32"}, {"precision": "64"}, {"walk": "numpy"}):
        request = _request(TURN, ptsb, iterations=1, options=options)
        assert not solve_run.chooses_form(request, turn)
        assert solve_run.lean_options(request, turn) == options  # explicit options win
    json_out = _request(TURN, tmp_path / "t.json.gz", iterations=1)
    assert solve_run.lean_options(json_out, turn) == {}
    river = load_game(RIVER)
    assert not solve_run.chooses_form(_request(RIVER, ptsb, iterations=1), river)
    make_solver(turn, "dcfr", precision="32").save_checkpoint(plain.checkpoint_path)
    assert solve_run.lean_options(plain, turn, resume=True) == {"precision": "32"}  # as saved


def test_a_lean_solve_stops_below_the_target_and_its_file_meets_it(tmp_path, monkeypatch):
    """The chosen state is 16 bits (the checkpoint says so), the solve stops once the float
    exploitability is ``QUANTISE_MARGIN`` below the target, and the 8-bit file's header is its
    exact exploitability (float32 rounding of values of the pot's size), within the target."""
    monkeypatch.setattr(executor, "EXACT_CELLS", 0)
    out = tmp_path / "turn.ptsb"
    request = _request(TURN, out, target=Target(1.0, pot_percent=True), report_seconds=0.0)
    events: list[dict] = []
    final = solve_run.execute(request, events.append, lambda: False)
    assert events[0]["event"] == "started" and events[0]["precision"] == "16"
    with np.load(request.checkpoint_path) as saved:
        assert str(saved["precision"]) == "16"
    progress = [e["exploitability"] for e in events if e["event"] == "progress"]
    stop_at = 1.0 * (1 - solve_run.QUANTISE_MARGIN)  # chips: the pot is 100
    assert progress[-1] <= stop_at < min(progress[:-1])
    assert final["bits"] == 8 and final["exploitability"] <= 1.0
    loaded = load_strategy(out)
    exact = exploitability(loaded.game, loaded.strategy).exploitability
    assert final["exploitability"] == pytest.approx(exact, abs=2e-6 * 100)


def _solve(game: str, out) -> int:
    return main(["solve", game, "--algo", "dcfr", "--iterations", "2", "--json", "--out", str(out)])


def test_a_flop_solved_to_json_is_warned_about_before_the_solve(tmp_path, capsys):
    out = tmp_path / "flop.json"
    assert _solve(FLOP, out) == 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if "warning" in line]
    assert len(lines) == 1
    line = lines[0]
    assert str(out) in line and " MB" in line and "flop.ptsb" in line and "pokertui solve" in line
    assert json.loads(captured.out.splitlines()[-1])["event"] == "done"  # then it solved
    estimate = solve_run.json_file_bytes(load_game(FLOP), ".json")
    assert 0.5 < estimate / out.stat().st_size < 2.0  # the size said is the file's
    for game, quiet in ((FLOP, tmp_path / "flop.ptsb"), (RIVER, tmp_path / "river.json")):
        assert _solve(game, quiet) == 0
        assert "warning" not in capsys.readouterr().err


def test_the_next_check_falls_where_the_power_law_meets_the_target():
    """Halving from 10 to 20 iterations (e ~ 1/t) reaches a quarter at 40, and the check is
    put a tenth further on (at 42); a rise, a target met, or a single check predicts nothing."""
    assert solve_run._iterations_to([(10, 2.0), (20, 1.0)], 0.5) == 22
    assert solve_run._iterations_to([(10, 4.0), (20, 1.0)], 0.25) == 22  # e ~ 1/t^2
    assert solve_run._iterations_to([(10, 2.0), (20, 1.0)], 0.25) == 66  # 60 to 80, a tenth more
    assert solve_run._iterations_to([(10, 1.0), (20, 1.5)], 0.5) is None
    assert solve_run._iterations_to([(10, 2.0), (20, 1.0)], 1.0) is None
    assert solve_run._iterations_to([(20, 1.0)], 0.5) is None
    assert solve_run._iterations_to([(10, 2.0), (20, 1.0)], 0.999) == 1


def test_a_costly_check_is_not_repeated_while_the_chunks_grow(tmp_path):
    """A flop's first check (0.65 s against 0.5 s an iteration) puts the next one 20 iterations
    on (16 checks' time), not 4; a check that costs nothing still grows fourfold from one (1, 5,
    21: the first plot points), up to the report interval; ``--every 0`` checks every iteration."""
    request = _request(FLOP, tmp_path / "f.ptsb", iterations=100)  # reports every 0.5 s
    assert solve_run._next_chunk(1, 0.5, 0.65, request) == 20
    assert solve_run._next_chunk(20, 0.5, 0.65, request) == 20
    assert solve_run._next_chunk(1, 0.001, 0.0, request) == 4
    assert solve_run._next_chunk(4, 0.001, 0.0, request) == 16
    assert solve_run._next_chunk(256, 0.001, 0.0, request) == 500
    every = _request(FLOP, tmp_path / "f.ptsb", iterations=100, report_seconds=0.0)
    assert solve_run._next_chunk(16, 0.5, 0.65, every) == 1
