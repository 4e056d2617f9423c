"""``convert`` streams a strategy file's text node by node: the bytes are the document writer's.

Expected values come from the writer that builds the whole document (``to_document`` with
``format_range`` for every range, then ``dumps_document``), run at test time on the same
strategy, and from Python's own ``format(v, ".6g")``.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokertui.cli import main
from pokertui.commands import strategy as strategy_commands
from solvers.cards.deck import CLASS_COMBOS, COMBO_CLASS, N_CLASSES, N_COMBOS
from solvers.cards.ranges import RangeError, format_range
from solvers.runs.request import RunRequest
from solvers.runs.solve_run import execute
from solvers.strategy_file import dumps_document, load_strategy, to_document
from solvers.strategy_file import readable_stream as stream
from solvers.strategy_file.readable_stream import DocumentWriter, _ComboView, _piece_bytes

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "strategies"
TURN = (
    'nlhe(board="Qs Jh 2h 7s",pot=100,stack=100,oop_range="AA,KK,AKs,QQ,T9s,76s,A5s",'
    'ip_range="AA,JJ,AQs,AQo,98s,65s,KQs",turn_oop_bet="75%",turn_ip_bet="75%",'
    'river_oop_bet="50%, a",river_ip_bet="75%")'
)
"""A turn with a suit swap (no club, no diamond): river clubs are stored, diamonds read as
their suit-swapped twins."""


@pytest.fixture(scope="module")
def turn_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("convert") / "turn.ptsb"
    execute(RunRequest(game=TURN, algo="dcfr", out=out, iterations=12), lambda e: None,
            lambda: False)  # fmt: skip
    return out


def old_text(path: Path, form: str) -> str:
    loaded = load_strategy(path)
    document = to_document(loaded.game, loaded.strategy, form=form, solver=loaded.solver,
                           measured=loaded.measured, lbr=loaded.lbr)  # fmt: skip
    return dumps_document(document)


def convert(capsys, path: Path, form: str, out: Path) -> str:
    assert main(["convert", str(path), "--to", form, "--out", str(out)]) == 0
    capsys.readouterr()
    return out.read_text()


@pytest.mark.parametrize(
    "name",
    ["kuhn.json", "leduc.json", "push_fold_10bb.json", "river_toy.json", "srp_dry_river.json.gz"],
)
@pytest.mark.parametrize("form", ["readable", "compact"])
def test_convert_writes_the_old_writers_bytes(name, form, tmp_path, capsys):
    """Per-hand (Kuhn, Leduc, the river toy), class (push/fold) and spot (a river's
    combos) readable forms, and the compact form, byte for byte."""
    path = SHIPPED / name
    expected = old_text(path, form)
    text = convert(capsys, path, form, tmp_path / "out.json")
    assert text == expected
    assert json.loads(text) == json.loads(expected)


@pytest.mark.parametrize("form", ["readable", "compact"])
def test_a_binary_turn_converts_as_the_old_writer_did(turn_file, form, tmp_path, capsys):
    """The profile decoded whole and cut node by node, twins read through their image."""
    expected = old_text(turn_file, form)
    assert convert(capsys, turn_file, form, tmp_path / "turn.json") == expected
    gz = tmp_path / "turn.json.gz"
    assert main(["convert", str(turn_file), "--to", form, "--out", str(gz)]) == 0
    assert gzip.decompress(gz.read_bytes()).decode() == expected
    assert main(["convert", str(turn_file), "--to", form]) == 0
    assert capsys.readouterr().out == expected


def digits_text(value: float) -> str:
    return "AsKs" if format(value, ".6g") == "1" else f"AsKs:{format(value, '.6g')}"


TIES = [
    0.5, 1.0, 0.9999995, 0.99999949999, 0.9999994999999999, 0.1234565, 0.12345650000000001,
    1.234565e-3, 9.9999951e-5, 9.999994e-5, 1e-4, 1e-5, 1.5e-5, 3.3e-7, 2.5e-100, 1e-300,
    5e-324, 0.0001234565, 0.000999999501, 0.001, 0.30000000000000004, 1 / 3, 2 / 3,
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0, exclude_min=True), min_size=1))
def test_weights_print_as_format_6g(values):
    values = np.array(values + TIES)
    m, e = stream.six_digits(values)
    labels = np.tile(np.frombuffer(b"AsKs", np.uint8), (len(values), 1))
    text, lengths = _piece_bytes(labels, m, e)
    expected = "".join(digits_text(v) + ", " for v in values.tolist())
    assert text.decode() == expected
    assert lengths.tolist() == [len(digits_text(v)) + 2 for v in values.tolist()]


POOL = [1.0, 0.5, 0.25, 3e-6, 0.123456789, 1 - 1e-9]


def range_rows(seed: int, count: int) -> np.ndarray:
    """Weights over all 1326 combos built class by class: zero, one weight shared by the
    class's combos (from a small pool, so runs of classes form), or each combo its own."""
    rng = np.random.default_rng(seed)
    own = np.array([0.0, *POOL, 0.7071])
    weights = np.zeros((count, N_COMBOS))
    for row in weights:
        dense = rng.random() < 0.5  # long runs ("22+", "A2s+", "JTs-54s") of one or two weights
        pool = [1.0, 0.5] if dense else POOL
        kinds = ["zero", "shared", "shared", "own"] + ["shared"] * (8 if dense else 0)
        kinds = rng.choice(kinds, size=N_CLASSES)
        for c in range(N_CLASSES):
            combos = CLASS_COMBOS[c]
            if kinds[c] == "shared":
                row[combos] = rng.choice(pool)
            elif kinds[c] == "own":
                row[combos] = rng.choice(own, size=len(combos))
        if rng.random() < 0.5:  # a spot: some combos are not hands
            row[rng.integers(0, N_COMBOS, size=400)] = 0.0
    return weights


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.booleans())
def test_ranges_print_as_format_range(seed, count, spot):
    """Class runs (pairs, suited, offsuit, both), diagonals, single combos and "random"."""
    weights = range_rows(seed, count)
    combos = np.arange(N_COMBOS)
    if spot:  # a spot's hands: a quarter of the classes whole, a few combos of the others
        whole = np.isin(COMBO_CLASS, np.arange(seed % 4, N_CLASSES, 4))
        combos = np.flatnonzero(whole | (combos % 9 == 0))
        weights[:, np.setdiff1d(np.arange(N_COMBOS), combos)] = 0.0
    view = _ComboView(combos[::-1].copy())
    expected = [format_range(view.spread(w[view.combos])) for w in weights]
    got = view.ranges(weights[:, view.combos])
    assert [g.decode() for g in got] == expected


def test_hands_without_a_whole_class():
    view = _ComboView(np.arange(0, N_COMBOS, 2))  # every class misses a combo
    weights = np.random.default_rng(1).random((3, len(view.combos)))
    weights[0] = 1.0
    expected = [format_range(view.spread(w)) for w in weights]
    assert [t.decode() for t in view.ranges(weights)] == expected


def test_random_and_out_of_range_rows():
    view = _ComboView(np.arange(N_COMBOS))
    weights = np.array([np.full(N_COMBOS, 0.3), np.ones(N_COMBOS), np.zeros(N_COMBOS)])
    assert [t.decode() for t in view.ranges(weights)] == ["random:0.3", "random", ""]
    with pytest.raises(RangeError, match="must lie in"):
        view.ranges(np.array([np.full(N_COMBOS, 1.5)]))


def test_a_killed_convert_leaves_the_previous_file(turn_file, tmp_path, monkeypatch, capsys):
    out = tmp_path / "turn.json"
    out.write_text("previous")
    monkeypatch.setattr(stream, "WINDOW_NODES", 50)
    texts = DocumentWriter._texts
    calls = []

    def interrupted(self, nodes):
        calls.append(len(nodes))
        if len(calls) == 3:  # killed mid-write: the handler turns SIGTERM into Ctrl-C
            os.kill(os.getpid(), signal.SIGTERM)
        return texts(self, nodes)

    monkeypatch.setattr(DocumentWriter, "_texts", interrupted)
    assert main(["convert", str(turn_file), "--to", "readable", "--out", str(out)]) == 130
    assert "interrupted" in capsys.readouterr().err
    assert out.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn.json"]


def test_the_size_is_estimated_within_a_fifth(turn_file):
    for path in (turn_file, SHIPPED / "srp_dry_river.json.gz", SHIPPED / "leduc.json"):
        loaded = load_strategy(path)
        writer = DocumentWriter(loaded.game, loaded.strategy, "readable")
        actual = len(old_text(path, "readable").encode())
        assert abs(writer.estimate({}) - actual) <= 0.2 * actual


def test_a_big_output_is_announced(turn_file, tmp_path, monkeypatch, capsys):
    out = tmp_path / "turn.json"
    assert main(["convert", str(turn_file), "--to", "readable", "--out", str(out)]) == 0
    assert capsys.readouterr().err == ""  # small, and stderr is not a terminal: no bar
    monkeypatch.setattr(strategy_commands, "BIG_OUTPUT", 1000)
    assert main(["convert", str(turn_file), "--to", "readable", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("writing about ") and f"MB of JSON to {out}" in err


def test_the_progress_bar_counts_nodes_on_a_terminal_after_a_delay(
    turn_file, tmp_path, monkeypatch, capsys
):
    seen: list[tuple[str, int, str, list[int]]] = []

    @contextmanager
    def bar(label, total, unit="deals"):
        done: list[int] = []
        seen.append((label, total, unit, done))
        yield done.append

    monkeypatch.setattr(strategy_commands, "deal_progress", bar)
    monkeypatch.setattr(strategy_commands.sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(stream, "WINDOW_NODES", 100)
    out = tmp_path / "turn.json"
    nodes = len(list(load_strategy(turn_file).game.decision_nodes()))
    monkeypatch.setattr(strategy_commands, "PROGRESS_AFTER", 0.0)
    assert main(["convert", str(turn_file), "--to", "readable", "--out", str(out)]) == 0
    assert seen[-1][:3] == ("convert", nodes, "nodes")
    assert seen[-1][3][-1] == nodes and len(seen[-1][3]) == -(-nodes // 100)
    monkeypatch.setattr(strategy_commands, "PROGRESS_AFTER", 3600.0)
    assert main(["convert", str(turn_file), "--to", "readable", "--out", str(out)]) == 0
    assert seen[-1][3] == []  # a short convert draws no bar
