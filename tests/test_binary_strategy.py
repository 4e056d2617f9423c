"""Binary strategy files (``.ptsb``): what they store, how close they decode, and that every
broken file is a clear error.

Expected values are independent of the code under test: the node-by-node reference recursion
(``tests/reference_walk.py``) for reach and exact best responses, the float strategy the same
solve writes as JSON, and the layout's sizes in closed form.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.exact.compiled_plan import image_node
from solvers.games import load_game
from solvers.runs.request import RunRequest
from solvers.runs.solve_run import execute
from solvers.strategy_file import StrategyFileError, load_strategy
from solvers.strategy_file.binary import BinaryStrategy, write_binary
from tests import reference_walk

SPOT = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA,KK,AKs,T9s,76s",'
    'ip_range="AA,JJ,AQs,98s,65s",flop_oop_bet="a",flop_ip_bet="a",'
    'turn_oop_bet="75%",turn_ip_bet="75%",river_oop_bet="75%",river_ip_bet="75%")'
)
"""A flop with a suit swap (clubs and diamonds absent): 37 of 49 turn cards are walked."""
ITERATIONS = 60
QUANTISATION_BOUND = 0.05
"""Stated bound: the decoded file's exploitability is within this % of the pot of the float
strategy's (measured 0.005% on the benchmark flop)."""


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """The same deterministic solve written as JSON (floats to 6 decimals) and as binary."""
    folder = tmp_path_factory.mktemp("binary")
    paths = {}
    for suffix in (".json", ".ptsb"):
        out = folder / f"spot{suffix}"
        request = RunRequest(game=SPOT, algo="dcfr", out=out, iterations=ITERATIONS)
        execute(request, lambda event: None, lambda: False)
        paths[suffix] = out
    return paths


def as_dict(loaded) -> dict[int, np.ndarray]:
    return {n.id: np.asarray(loaded.strategy[n.id]) for n in loaded.game.decision_nodes()}


def test_decoded_rows_are_the_float_rows_within_the_quantisation_step(solved):
    floats, binary = load_strategy(solved[".json"]), load_strategy(solved[".ptsb"])
    assert isinstance(binary.strategy, BinaryStrategy)
    game = binary.game
    reach = [reference_walk.reaches(game, floats.strategy, p) for p in (0, 1)]
    worst = 0.0
    twins = 0
    swap = game.suit_swap()
    for node in game.decision_nodes():
        p, width = node.player, len(node.actions)
        got, want = binary.strategy[node.id], np.asarray(floats.strategy[node.id])
        if image_node(game, swap, node.id) == node.id:  # written suit-symmetric
            want = 0.5 * (want + want[swap.hands[p]])
        live = reach[p][node.id] > 0
        # one step of sqrt(p) near 1 is 2/255 of p; the first action takes the others' steps
        step = 2.0 * (width - 1) / 255 + 1e-6
        np.testing.assert_allclose(got[live], want[live], atol=step, err_msg=node.key)
        # a hand the rounded JSON never brings here: stored (the solver's own reach was
        # above 0) or never there, then uniform
        near = np.abs(got[~live] - want[~live]).max(axis=1, initial=0) <= step
        assert (near | np.all(np.abs(got[~live] - 1.0 / width) < 1e-6, axis=1)).all()
        np.testing.assert_allclose(got.sum(axis=1), 1.0, atol=1e-6)
        worst = max(worst, float(np.abs(got[live] - want[live]).max(initial=0)))
        twins += node.id not in binary.strategy._slot[p]
    assert twins > 0  # twin nodes were read through their image
    assert 0 < worst < 0.01  # far finer than the bound: a wrong swap or a uniform row fails


def test_the_recorded_exploitability_is_the_decoded_files_and_near_the_float_one(solved):
    floats, binary = load_strategy(solved[".json"]), load_strategy(solved[".ptsb"])
    game = binary.game
    decoded = reference_walk.exploitability(game, as_dict(binary))
    float_one = reference_walk.exploitability(game, as_dict(floats))
    # measured on the suit-isomorphic walk, exact: the rows are written suit-symmetric
    assert binary.measured.exploitability == pytest.approx(decoded, rel=1e-9)
    assert 100 * abs(decoded - float_one) / game.pot <= QUANTISATION_BOUND
    uniform = {n.id: np.full((game.n_hands[n.player], len(n.actions)), 1 / len(n.actions))
               for n in game.decision_nodes()}  # fmt: skip
    assert reference_walk.exploitability(game, uniform) > 20 * decoded  # the test can tell


def test_the_file_size_is_the_layouts_closed_form(solved):
    """16 bytes, the header, then ten aligned sections per the docs: node ids, live bits,
    offsets, scales and one byte per live hand and action but the first. The live hands are
    every hand the float profile brings to the decision (the JSON's reach, by the reference
    recursion), and a few more whose reach the 6-decimal rounding took to 0."""
    from solvers.strategy_file.binary_codec import unpack

    floats, binary = load_strategy(solved[".json"]), load_strategy(solved[".ptsb"])
    game = binary.game
    header = int.from_bytes(solved[".ptsb"].read_bytes()[8:16], "little")
    reach = [reference_walk.reaches(game, floats.strategy, p) for p in (0, 1)]
    size = -(-(16 + header) // 64) * 64
    for p in (0, 1):
        nodes = [game.nodes[n] for n in binary.strategy.layouts[p].nodes]
        slots, hands = len(nodes), game.n_hands[p]
        live = unpack(np.asarray(binary.strategy.sections[p]["live"]), hands)
        assert set(binary.strategy.layouts[p].nodes) == set(binary.strategy._slot[p])
        for k, node in enumerate(nodes):
            assert not (reach[p][node.id] > 0)[~live[k]].any(), node.key
        assert live.sum() <= 1.05 * sum(int((reach[p][n.id] > 0).sum()) for n in nodes)
        edges = sum(len(n.actions) for n in nodes)
        values = sum(int(live[k].sum()) * (len(n.actions) - 1) for k, n in enumerate(nodes))
        for nbytes in (4 * slots, slots * -(-hands // 8), 8 * (slots + 1), 4 * edges, values):
            size += -(-nbytes // 64) * 64
    assert os.path.getsize(solved[".ptsb"]) == size - (-values % 64)  # no padding at the end


def test_show_and_exploit_read_the_binary_file(solved):
    env = {**os.environ, "COLUMNS": "120"}
    run = [sys.executable, "-m", "pokertui.cli"]
    shown = subprocess.run([*run, "show", str(solved[".ptsb"]), "--node", ""], env=env,
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert "OOP to act" in shown.stdout
    exploit = subprocess.run([*run, "exploit", str(solved[".ptsb"]), "--json"], env=env,
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert exploit.returncode == 0, exploit.stderr
    import json

    payload = json.loads(exploit.stdout)
    recorded = load_strategy(solved[".ptsb"]).measured.exploitability
    assert payload["exploitability"] == pytest.approx(recorded, rel=1e-6)


def test_a_failed_write_keeps_the_old_file(solved, tmp_path, monkeypatch):
    """A write that dies half way (as a kill would) leaves the old file whole and no
    temporary behind."""
    target = tmp_path / "keep.ptsb"
    target.write_bytes(solved[".ptsb"].read_bytes())
    before = target.read_bytes()
    loaded = load_strategy(target)
    sections = [{k: np.array(v) for k, v in part.items()} for part in loaded.strategy.sections]

    class Killed(Exception):
        pass

    real = os.fdopen

    class Dying:
        def __init__(self, handle):
            self.handle, self.written = handle, 0

        def write(self, data):
            self.written += len(data)
            if self.written > len(before) // 2:
                raise Killed
            return self.handle.write(data)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

    monkeypatch.setattr("solvers.atomic.os.fdopen", lambda *a, **k: Dying(real(*a, **k)))
    with pytest.raises(Killed):
        write_binary(target, loaded.game, sections, 8)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.ptsb"]


@pytest.mark.parametrize(
    "damage",
    ["empty", "magic", "truncated", "header", "section", "live", "scale", "garbage"],
)
def test_broken_files_are_clear_errors(solved, tmp_path, damage):
    data = bytearray(solved[".ptsb"].read_bytes())
    header = int.from_bytes(data[8:16], "little")
    if damage == "empty":
        data = bytearray()
    elif damage == "magic":
        data[0:4] = b"XXXX"
    elif damage == "truncated":
        data = data[: len(data) - 100]
    elif damage == "header":
        data[20:30] = b"}}}}}}}}}}"
    elif damage == "section":
        data = data.replace(b'"offset": ', b'"offset": 1', 1)
        data[8:16] = (header + 1).to_bytes(8, "little")
    elif damage == "live":  # one hand more or less at the first decision: offsets disagree
        loaded = load_strategy(solved[".ptsb"])
        data[loaded.strategy.sections[0]["live"].offset] ^= 0x01
    elif damage == "scale":  # an edge whose largest probability is 2
        loaded = load_strategy(solved[".ptsb"])
        offset = loaded.strategy.sections[1]["scale"].offset
        data[offset : offset + 4] = np.float32(2.0).tobytes()
    elif damage == "garbage":
        data = bytearray(np.random.default_rng(3).bytes(5000))
        data[0:8] = b"PTSB\r\n\x1a\x01"
    path = tmp_path / "broken.ptsb"
    path.write_bytes(bytes(data))
    with pytest.raises(StrategyFileError):
        load_strategy(path)
    done = subprocess.run([sys.executable, "-m", "pokertui.cli", "validate", str(path)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "invalid strategy file" in done.stderr or "not a" in done.stderr


def test_special_files_are_refused(tmp_path):
    fifo = tmp_path / "pipe.ptsb"
    os.mkfifo(fifo)
    with pytest.raises(StrategyFileError, match="regular file|not a"):
        load_strategy(fifo)
    with pytest.raises(StrategyFileError):
        load_strategy(tmp_path)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_damage_loads_or_is_a_strategy_file_error(solved, tmp_path, data):
    """Random truncations and byte changes: a valid strategy, or a clear error, never a crash."""
    raw = bytearray(solved[".ptsb"].read_bytes())
    cut = data.draw(st.integers(0, len(raw)))
    raw = raw[:cut] if data.draw(st.booleans()) else raw
    for _ in range(data.draw(st.integers(0, 4))):
        if raw:
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = tmp_path / "fuzz.ptsb"
    path.write_bytes(bytes(raw))
    try:
        loaded = load_strategy(path)
    except StrategyFileError:
        return
    for node in loaded.game.decision_nodes()[:50]:
        rows = loaded.strategy[node.id]
        assert np.isfinite(rows).all() and np.allclose(rows.sum(axis=1), 1.0, atol=1e-5)


def test_binary_output_is_refused_where_it_does_not_apply(tmp_path):
    from solvers.errors import InputError

    for game, algo in (("kuhn", "cfr+"), (SPOT, "lp")):
        request = RunRequest(game=game, algo=algo, out=tmp_path / "x.ptsb", iterations=5)
        with pytest.raises(InputError, match="binary"):
            execute(request, lambda event: None, lambda: False)


def test_path_reach_is_the_reference_reach():
    """Node reports read reach along the path (``path_reach``); the recursion agrees."""
    from solvers.exact.evaluation import path_reach

    game = load_game("leduc")
    rng = np.random.default_rng(5)
    strategy = {}
    for node in game.decision_nodes():
        rows = rng.random((game.n_hands[node.player], len(node.actions)))
        strategy[node.id] = rows / rows.sum(axis=1, keepdims=True)
    for p in (0, 1):
        want = reference_walk.reaches(game, strategy, p)
        for node in game.nodes:
            np.testing.assert_allclose(path_reach(game, strategy, node, p), want[node.id])


@pytest.mark.slow
def test_convert_writes_8_and_16_bit_files_measured_again(solved, tmp_path):
    """``convert --to binary``: 16 bits decode closer to the float file than 8 bits do; both
    headers record the decoded profile's exact exploitability (reference recursion)."""
    floats = load_strategy(solved[".json"])
    game = floats.game
    float_one = reference_walk.exploitability(game, as_dict(floats))
    gaps = {}
    for bits in (8, 16):
        out = tmp_path / f"spot{bits}.ptsb"
        done = subprocess.run(
            [sys.executable, "-m", "pokertui.cli", "convert", str(solved[".json"]), "--to",
             "binary", "--out", str(out), "--bits", str(bits)],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        loaded = load_strategy(out)
        decoded = reference_walk.exploitability(game, as_dict(loaded))
        assert loaded.measured.exploitability == pytest.approx(decoded, rel=1e-4)
        gaps[bits] = abs(decoded - float_one)
    assert 100 * gaps[8] / game.pot <= QUANTISATION_BOUND
    assert gaps[16] <= gaps[8] and 100 * gaps[16] / game.pot <= 0.005
    refused = subprocess.run(
        [sys.executable, "-m", "pokertui.cli", "convert", "strategies/kuhn.json", "--to",
         "binary", "--out", str(tmp_path / "k.ptsb")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode == 2 and "hold'em spots" in refused.stderr


def test_a_summary_of_a_big_binary_tree_is_refused(solved, monkeypatch, capsys):
    """``show`` without ``--node`` lists every node; on a flop's binary file (57,000 of them)
    it is a clear refusal, not GBs of reach tables."""
    from pokertui.cli import main
    from solvers.reports import strategy_report

    monkeypatch.setattr(strategy_report, "WHOLE_TREE_NODES", 10)
    assert main(["show", str(solved[".ptsb"])]) == 2
    assert "give --node" in capsys.readouterr().err
    monkeypatch.setattr(strategy_report, "WHOLE_TREE_NODES", 10**6)
    assert main(["show", str(solved[".ptsb"]), "--json"]) == 0


@pytest.mark.parametrize("change", ["purify", "threshold"])
def test_per_edge_transforms_are_the_per_node_ones(change):
    """``exploit`` on a binary file transforms per-edge arrays in place; the per-node
    transforms of the JSON path are the reference."""
    from solvers.strategy_file import transforms

    rng = np.random.default_rng(4)
    widths = rng.integers(2, 5, size=40)
    first = np.concatenate([[0], np.cumsum(widths)[:-1]])
    hands = 7
    rows = {k: rng.dirichlet(np.ones(w) * 0.4, size=hands) for k, w in enumerate(widths)}
    rows[3][2] = np.full(widths[3], 1 / widths[3])  # every action below the cutoff
    per_edge = np.concatenate([rows[k].T for k in range(len(widths))]).astype(np.float32)
    if change == "purify":
        want = transforms.purify(rows)
        got = transforms.purify_per_edge(first, widths, per_edge)
    else:
        want = transforms.threshold(rows, 0.4)
        got = transforms.threshold_per_edge(first, widths, per_edge, 0.4)
    for k, w in enumerate(widths):
        np.testing.assert_allclose(got[first[k] : first[k] + w].T, want[k], atol=1e-6)


def lbr_result(action_set: str, value: float) -> dict:
    """An exact LBR result as ``lbr.spot_run.evaluate_exact`` returns it (the fields recorded)."""
    return {"action_set": action_set, "streets": ["flop", "turn", "river"], "exact": True,
            "unit": "pot_percent", "value": value, "ci95": 0.0,
            "seat_values": [value + 1.0, value - 1.0], "river_resolve": None}  # fmt: skip


def test_recording_lbr_rewrites_the_header_and_keeps_every_row(solved, tmp_path):
    """A binary file's header grows with each figure, which moves its sections: the rewrite
    copies them, so every decoded row and the measured figures stay as they were."""
    from solvers.reports.lbr.record import record_lbr  # noqa: PLC0415

    path = tmp_path / "recorded.ptsb"
    path.write_bytes(solved[".ptsb"].read_bytes())
    before = load_strategy(path)
    for action_set, value in (("fc", -3.0), ("tree", 0.25), ("fc", -2.5)):  # fc twice: replaced
        record_lbr(path, lbr_result(action_set, value))
    after = load_strategy(path)
    assert [(f.action_set, f.value, f.seat_values) for f in after.lbr] == [
        ("tree", 0.25, (1.25, -0.75)),
        ("fc", -2.5, (-1.5, -3.5)),
    ]
    assert path.stat().st_size > solved[".ptsb"].stat().st_size  # the sections moved
    assert after.measured == before.measured and after.solver == before.solver
    rows_before, rows_after = as_dict(before), as_dict(after)
    assert all(np.array_equal(rows_before[n], rows_after[n]) for n in rows_before)


def test_a_spot_without_a_suit_swap_reads_as_played(tmp_path):
    """All four suits on the board: no decision has a suit twin, so the profile a report or a
    bot reads (``as_played``) is the file's rows as stored."""
    from solvers.strategy_file.binary import as_played  # noqa: PLC0415

    spot = ('nlhe(board="Ad Kc 5h 7s 2d",pot=100,stack=100,oop_range="AA,KQs,76s",'
            'ip_range="KK,QJs,65s",river_oop_bet="75%, a",river_ip_bet="75%, a")')  # fmt: skip
    out = tmp_path / "four_suits.ptsb"
    execute(RunRequest(game=spot, algo="dcfr", out=out, iterations=20), lambda e: None,
            lambda: False)  # fmt: skip
    loaded = load_strategy(out)
    assert loaded.game.suit_swap() is None
    played = as_played(loaded.strategy)
    for p in (0, 1):
        np.testing.assert_array_equal(
            played.compact_per_edge(p), loaded.strategy.compact_per_edge(p)
        )
    node = next(n for n in loaded.game.decision_nodes() if n.player == 1)
    np.testing.assert_array_equal(played[node.id], loaded.strategy[node.id])


def test_a_binary_solve_says_it_quantised_not_rounded(tmp_path, capfd):
    """The end of a solve to ``.ptsb`` names the 8-bit quantisation and what it added; the
    JSON path's "rounded to N decimals" is not said of it."""
    from pokertui.cli import main  # noqa: PLC0415
    from tests.test_holdem_solve import SMALL_RIVER  # noqa: PLC0415

    out = tmp_path / "river.ptsb"
    argv = ["solve", SMALL_RIVER, "--algo", "dcfr", "--iterations", "30", "--out", str(out)]
    assert main(argv) == 0
    said = "".join(capfd.readouterr())
    assert "quantised to 8 bits a probability, which added" in said
    assert "decimals" not in said
    assert main([*argv[:-1], str(tmp_path / "river.json")]) == 0
    assert "quantised" not in "".join(capfd.readouterr())


def test_rows_are_decoded_once_and_each_read_is_a_copy(solved, monkeypatch):
    """A node's rows are decoded on its first read and kept (``MEMO_BYTES``); every read
    returns a copy, so a caller that scales its rows in place does not change the file's."""
    from solvers.strategy_file import binary as binary_module

    decoded = []
    real = binary_module.decode_slots
    monkeypatch.setattr(
        binary_module, "decode_slots", lambda *a, **k: decoded.append(a[3]) or real(*a, **k)
    )
    played = load_strategy(solved[".ptsb"]).strategy.symmetrised()
    nodes = [n.id for n in played.game.decision_nodes()][:50]
    first = {node: played[node] for node in nodes}
    assert len(decoded) == len(nodes)
    for node in nodes:
        want = first[node].copy()
        first[node] *= 0.0
        np.testing.assert_array_equal(played[node], want)
    assert len(decoded) == len(nodes)  # read again from the memo
    monkeypatch.setattr(binary_module, "MEMO_BYTES", 0)
    unkept = load_strategy(solved[".ptsb"]).strategy.symmetrised()
    for node in nodes[:5]:
        np.testing.assert_array_equal(unkept[node], played[node])
        np.testing.assert_array_equal(unkept[node], played[node])
    assert len(decoded) == len(nodes) + 10  # nothing kept: each read decodes
