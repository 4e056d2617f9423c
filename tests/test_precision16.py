"""Regrets and strategy sums in 16 bits with one scale per decision (``--opt precision=16``).

- A block's codes and scale against hand-computed numbers, and the dithered rounding's mean.
- The fused update of one decision when a regret grows past the old scale: the new scale and
  every decoded value against arithmetic done by hand.
- Whole solves on a river and a turn spot: the exploitability reached in 16 bits equals
  float32's within a stated tolerance, measured by best responses on the numpy walk (the
  independent executor), and the solver's own measurement agrees with them.
- The memory estimate at each precision against the arrays a solve really allocates.
- Checkpoints: 16 bits resume bit for bit; another precision is refused by name.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from solvers.algorithms import make_solver
from solvers.algorithms.base import SolverError
from solvers.exact import compiled_kernels
from solvers.exact.kernel_inputs import FusedUpdate
from solvers.exact.quantised_rows import SIGNED_LIMIT, UNSIGNED_LIMIT, store_block
from solvers.games import load_game
from solvers.games.base import GameParamError
from solvers.games.holdem import memory
from tests.test_compiled_walk import TURN, numpy_values, root_row
from tests.test_holdem_solve import SMALL_RIVER


def test_a_signed_block_rounds_to_the_nearest_code_of_its_largest_magnitude():
    block = np.array([[3.0, -1.2, 0.75], [0.0, 1e-6, -3.0]])
    out = np.zeros((4, 3), dtype=np.int16)
    scale = store_block(block, 2, 3, out, 1, True, 0)
    assert scale == np.float32(3.0 / 32767)
    # 3 / scale = 32767; -1.2 / scale = -13106.8 -> -13107; 0.75 -> 8191.75 -> 8192;
    # 1e-6 / scale = 0.0109 -> 0
    np.testing.assert_array_equal(out, [[0, 0, 0], [32767, -13107, 8192], [0, 0, -32767], [0] * 3])
    decoded = out[1:3].astype(np.float64) * np.float64(scale)
    assert np.abs(decoded - block).max() <= np.float64(scale) / 2 * (1 + 1e-9)


def test_an_unsigned_block_clips_at_zero_and_an_empty_one_has_scale_zero():
    out = np.full((1, 3), 7, dtype=np.uint16)
    scale = store_block(np.array([[2.0, 0.5, -1e-9]]), 1, 3, out, 0, False, 0)
    assert scale == np.float32(2.0 / 65535)
    np.testing.assert_array_equal(out, [[65535, 16384, 0]])  # 0.5 / scale = 16383.75
    assert store_block(np.zeros((1, 3)), 1, 3, out, 0, False, 0) == 0.0
    np.testing.assert_array_equal(out, [[0, 0, 0]])


def test_dithered_rounding_keeps_a_fraction_of_a_code_on_average():
    """Rounding to nearest loses 0.3 of a code every time; dithered codes average 0.3 (their
    standard error over 20,000 seeds is 0.0032), 1/8 of a code rounds up one time in eight."""
    top = SIGNED_LIMIT * 1.0
    block = np.array([[top, 0.3, 0.125]])
    out = np.zeros((1, 3), dtype=np.int16)
    codes = []
    for seed in range(1, 20001):
        assert store_block(block, 1, 3, out, 0, True, seed) == 1.0
        codes.append(out[0].copy())
    codes = np.array(codes, dtype=np.float64)
    assert codes[:, 0].min() == codes[:, 0].max() == SIGNED_LIMIT  # whole codes stay whole
    assert set(np.unique(codes[:, 1])) == {0.0, 1.0}
    assert codes[:, 1].mean() == pytest.approx(0.3, abs=0.015)
    assert codes[:, 2].mean() == pytest.approx(0.125, abs=0.012)
    store_block(block, 1, 3, out, 0, True, 0)
    assert out[0, 1] == 0  # nearest: lost


def _update(sums, sum_scales, weight=1.0):
    return FusedUpdate(
        strategy_sums=sums,
        sum_scales=sum_scales,
        dither_seed=0,
        sum_weight=weight,
        floor=False,
        discount=False,
        positive=1.0,
        negative=1.0,
    )


def test_a_regret_past_the_scale_moves_the_scale_and_nothing_overflows():
    """One decision (slot 1, edges 2-3), three hands. Regrets at scale 1e-3 are at the limit;
    an instant regret of 100 on action 0 for hand 0 takes the block to 132.767."""
    regrets = np.zeros((5, 3), dtype=np.int16)
    regrets[2:4] = [[32767, -32767, 0], [0, 16384, 32767]]
    scales = np.array([5.0, 1e-3, 7.0], dtype=np.float32)
    before = regrets[2:4] * np.float64(scales[1])
    child_values = np.array([[100.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    node_values = np.zeros(3)
    sums = np.zeros((5, 3), dtype=np.uint16)
    sum_scales = np.zeros(3, dtype=np.float32)
    sigma = np.array([[0.25, 1.0, 0.5], [0.75, 0.0, 0.5], [0.0, 0.0, 0.0]])
    reach = np.array([1.0, 0.5, 0.0])
    compiled_kernels._cfr_update(
        2, 1, 2, child_values, node_values, reach, sigma, regrets, scales,
        np.zeros((0, 0), np.float32), _update(sums, sum_scales, weight=4.0),
    )  # fmt: skip
    expected = before + np.array([[100.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    assert expected[0, 0] == pytest.approx(132.767, rel=1e-6)
    new_scale = np.float64(scales[1])
    assert new_scale == pytest.approx(expected[0, 0] / SIGNED_LIMIT, rel=1e-7)
    assert scales[0] == 5.0 and scales[2] == 7.0  # other decisions untouched
    decoded = regrets[2:4] * new_scale
    assert np.abs(decoded - expected).max() <= new_scale / 2 * (1 + 1e-6)
    assert regrets[2, 0] == SIGNED_LIMIT and regrets[2, 1] == -8087  # -32.767 / 0.0040518
    assert not regrets[[0, 1, 4]].any()
    # sums: 4 * reach * sigma = [[1, 2, 0], [3, 0, 0]]; largest 3 -> scale 3 / 65535
    expected_sums = np.array([[1.0, 2.0, 0.0], [3.0, 0.0, 0.0]])
    assert sum_scales[1] == np.float32(3.0 / UNSIGNED_LIMIT)
    np.testing.assert_array_equal(sums[2:4], [[21845, 43690, 0], [65535, 0, 0]])
    assert np.abs(sums[2:4] * np.float64(sum_scales[1]) - expected_sums).max() < 3.0 / 65535


def _exact_exploitability(game, strategy) -> float:
    """(BR_0 + BR_1) / 2 from best responses on the numpy walk (not the compiled one)."""
    from solvers.exact.walk import build_plan  # noqa: PLC0415

    plan = build_plan(game)
    profile = [plan.per_edge(p, strategy) for p in (0, 1)]
    row = root_row(game)
    total = 0.0
    for p in (0, 1):
        _, values = numpy_values(game, profile, p, respond=True)
        total += values[row, : game.n_hands[p]].sum()
    return total / 2


@pytest.mark.parametrize(
    ("spec", "iterations", "rel"),
    [(SMALL_RIVER, 300, 0.02), (TURN, 500, 0.05)],
    ids=["river", "turn"],
)
def test_sixteen_bits_reach_float32s_exploitability(spec, iterations, rel):
    """DCFR after N iterations: 16 bits within 2% (river), 5% (turn: DCFR oscillates there
    early, so the trajectories part for a while) of float32's exploitability (both far below
    the uniform start's), each measured by the numpy walk's best responses in float64; the
    solver's own measurement (float32 walk, 16-bit sums read as they are) agrees to 2e-6 of the
    pot (float32 rounding of values of the pot's size)."""
    game = load_game(spec)
    pot = float(sum(game.root.contributions))
    reached = {}
    for bits in ("32", "16"):
        solver = make_solver(game, "dcfr", precision=bits).run(iterations=iterations)
        exact = _exact_exploitability(game, solver.average_strategy())
        assert solver.metrics().exploitability == pytest.approx(exact, abs=2e-6 * pot)
        reached[bits] = exact
    assert solver.regrets[0].dtype == np.int16 and solver.strategy_sums[0].dtype == np.uint16
    start = _exact_exploitability(game, make_solver(game, "dcfr").average_strategy())
    assert reached["32"] < start / 20
    assert reached["16"] == pytest.approx(reached["32"], rel=rel)
    assert 100 * reached["16"] / pot < 1.0


EVEN_TURN = (
    'nlhe(board="Qs Jh 2h 8d",pot=100,stack=200,oop_range="QQ, JJ, AKs, T9s, 87o, A5s",'
    'ip_range="QQ, JJ, AKs, T9s, 87o, A5s",turn_oop_bet="50%",turn_ip_bet="75%",'
    'river_oop_bet="60%",river_ip_bet="a",river_ip_raise="a")'
)
"""Both players hold the same range, so the estimate's hands a player are both players'."""


def test_the_memory_estimate_counts_the_arrays_a_solve_allocates():
    game = load_game(EVEN_TURN)
    size = game.solve_size
    assert game.n_hands[0] == game.n_hands[1] == size.max_hands  # so bytes per hand are exact
    hands = size.max_hands
    for bits, edge_bytes in (("16", 4), ("32", 8), ("64", 16)):
        solver = make_solver(game, "dcfr", precision=bits)
        solver.run(iterations=1)
        per_edge = sum(a.nbytes for a in (*solver.regrets, *solver.strategy_sums))
        assert per_edge == size.n_edges * hands * edge_bytes
        walk = solver.compiled
        assert (walk.plan.n_top, walk.longest_subtree) == (size.n_top, size.max_subtree)
        assert 0 < size.n_top < walk.plan.n_inner  # the walk keeps rows above the cut only
        assert len(walk.values) == 0  # and never the two-pass arrays of every row
        per_top = sum(r.nbytes for r in walk.top_reach) + walk.top_values.nbytes
        inner_bytes = 24 if bits == "64" else 12
        assert per_top == size.n_top * hands * inner_bytes
        scratch = memory.SCRATCHES * size.max_subtree * hands * inner_bytes
        precision = {"16": "int16", "32": "float32", "64": "float64"}[bits]
        assert solver.memory_estimate_mb * 2**20 == size.bytes(precision)
        expected = (
            memory.BASE_BYTES + size.n_nodes * memory.NODE_BYTES + per_edge + per_top + scratch
        )  # the estimate is the fixed part plus exactly these arrays and the scratches
        assert size.bytes(precision) == expected


FLOP_SHOVES = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA, KQs, 87s, T9s",'
    'ip_range="AA, KQs, 87s, T9s",flop_oop_bet="a",flop_ip_bet="a")'
)
"""Flop all-ins between identical ranges: showdowns over the runouts, one runout matrix."""


def test_the_memory_estimate_counts_the_runout_matrices():
    game = load_game(FLOP_SHOVES)
    size = game.solve_size
    assert game.n_hands[0] == game.n_hands[1] == size.max_hands
    assert size.dense_boards == 1
    signs, flipped = game.combo_terminals().dense
    held = signs.nbytes + flipped.nbytes
    assert held == size.max_hands**2 * 8
    without = dataclasses.replace(size, dense_boards=0)
    for precision in ("int16", "float32", "float64"):
        assert size.bytes(precision) - without.bytes(precision) == held
    assert load_game(EVEN_TURN).solve_size.dense_boards == 0  # 48 rivers keep the sweep


def test_a_tree_that_fits_only_in_16_bits_is_refused_at_32_with_the_way_out():
    game = load_game(TURN)
    size = game.solve_size
    limit = (size.bytes("int16") + size.bytes("float32")) // 2
    memory.set_memory_limit(limit)
    try:
        with pytest.raises(GameParamError, match="--opt precision=16 needs about"):
            make_solver(game, "dcfr", precision="32")
        assert make_solver(game, "dcfr", precision="16").memory_estimate_mb * 2**20 <= limit
    finally:
        memory.set_memory_limit(None)


def test_checkpoints_resume_bit_for_bit_and_refuse_another_precision(tmp_path):
    game = load_game(SMALL_RIVER)
    straight = make_solver(game, "dcfr", precision="16").run(iterations=40)
    first = make_solver(game, "dcfr", precision="16").run(iterations=25)
    path = first.save_checkpoint(tmp_path / "run.npz")
    resumed = make_solver(game, "dcfr", precision="16")
    resumed.load_checkpoint(path)
    resumed.run(iterations=15)
    for name in ("regrets", "strategy_sums", "regret_scales", "sum_scales"):
        for p in (0, 1):
            np.testing.assert_array_equal(getattr(resumed, name)[p], getattr(straight, name)[p])
    with pytest.raises(SolverError, match="precision=16 but this run asks precision=32"):
        make_solver(game, "dcfr", precision="32").load_checkpoint(path)
    thirty_two = make_solver(game, "dcfr").run(iterations=5).save_checkpoint(tmp_path / "f.npz")
    with pytest.raises(SolverError, match="--opt precision=32"):
        make_solver(game, "dcfr", precision="16").load_checkpoint(thirty_two)


def test_sixteen_bits_need_the_compiled_walk():
    with pytest.raises(SolverError, match="precision=16 runs on the compiled walk"):
        make_solver(load_game("kuhn"), "cfr", precision="16")
    with pytest.raises(SolverError, match="precision=16"):
        make_solver(load_game(SMALL_RIVER), "dcfr", precision="16", walk="numpy")


def test_the_cli_resumes_at_its_precision_and_refuses_another(tmp_path, capsys):
    from pokertui.cli import main  # noqa: PLC0415

    out = str(tmp_path / "river.json")
    run = ["solve", SMALL_RIVER, "--algo", "dcfr", "--out", out]
    assert main([*run, "--opt", "precision=16", "--iterations", "20"]) == 0
    capsys.readouterr()
    assert main([*run, "--iterations", "30", "--resume"]) == 2
    err = capsys.readouterr().err
    assert "precision=16 but this run asks precision=32" in err and "Traceback" not in err
    assert main([*run, "--opt", "precision=16", "--iterations", "30", "--resume"]) == 0


def test_the_machine_limit_asks_only_what_comes_on_top_of_the_resident_base(monkeypatch):
    """A solve inside a running process (a bot's re-solve, LBR's) asks the machine's spare
    memory only for what the process does not hold yet; a set cap bounds the whole process."""
    size = load_game(SMALL_RIVER).solve_size
    need = size.bytes("int16")
    arrays = need - memory.BASE_BYTES
    monkeypatch.delenv("POKERTUI_MAX_MEMORY_MB", raising=False)
    monkeypatch.setattr(memory, "resident_bytes", lambda: 2 * memory.BASE_BYTES)
    monkeypatch.setattr(memory, "available_bytes", lambda: arrays + 1)
    assert size.check("int16") == need  # the base is resident: only the arrays are asked
    monkeypatch.setattr(memory, "available_bytes", lambda: arrays - 1)
    with pytest.raises(GameParamError, match="needs about .* but the machine can spare"):
        size.check("int16")  # said as the machine's, which --max-memory may raise
    monkeypatch.setattr(memory, "resident_bytes", lambda: memory.BASE_BYTES // 2)
    monkeypatch.setattr(memory, "available_bytes", lambda: need - memory.BASE_BYTES // 2)
    assert size.check("int16") == need  # half the base is loaded: the other half is asked
    monkeypatch.setattr(memory, "available_bytes", lambda: need - memory.BASE_BYTES // 2 - 1)
    with pytest.raises(GameParamError):
        size.check("int16")
    memory.set_memory_limit(arrays + 1)  # a set cap: the whole process, resident base included
    monkeypatch.setattr(memory, "resident_bytes", lambda: 2 * memory.BASE_BYTES)
    try:
        with pytest.raises(GameParamError, match="needs about .* but the limit is"):
            size.check("int16")
    finally:
        memory.set_memory_limit(None)


def test_resident_bytes_reads_this_process():
    """Against ``VmRSS`` of ``/proc/self/status`` (the same count in kB, read another way)."""
    with open("/proc/self/status", encoding="ascii") as status:
        line = next(x for x in status if x.startswith("VmRSS:"))
    shown = int(line.split()[1]) * 1024
    assert 20 << 20 < memory.resident_bytes()
    assert abs(memory.resident_bytes() - shown) < 16 << 20
