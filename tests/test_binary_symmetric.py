"""The writer symmetrises: a binary file's rows are the rows played, and every reader (the app,
the bots, ``exploit``, ``lbr``) measures those rows, in new files and in files written before.

Expected values are independent of the code under test: exact symmetry checked row by row
against the suit swap's image, and exploitability by the node-by-node reference recursion on
the full tree (``tests/reference_walk.py``), not the suit-isomorphic walk ``exploit`` runs on.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokertui.cli import main
from solvers.exact.compiled_plan import image_node
from solvers.runs.request import RunRequest
from solvers.runs.solve_run import execute
from solvers.strategy_file import load_strategy
from solvers.strategy_file.binary import BinaryStrategy, as_played
from solvers.strategy_file.binary_eval import binary_exploitability
from solvers.strategy_file.binary_layout import read_frame
from tests import reference_walk
from tests.old_binary_files import drifted, write_unsymmetrised
from tests.test_binary_strategy import SPOT  # a flop whose swap fixes many decisions


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A solve written by the writer, and the same profile drifted and written the old way."""
    folder = tmp_path_factory.mktemp("symmetric")
    new = folder / "new.ptsb"
    execute(RunRequest(game=SPOT, algo="dcfr", out=new, iterations=40), lambda e: None,
            lambda: False)  # fmt: skip
    loaded = load_strategy(new)
    old = folder / "old.ptsb"
    write_unsymmetrised(old, loaded.game, drifted(loaded.strategy))
    return new, old


def rows_of(game, strategy) -> dict[int, np.ndarray]:
    return {n.id: np.asarray(strategy[n.id]) for n in game.decision_nodes()}


def twin_gap(game, strategy) -> float:
    """The largest difference between a hand's row and its suit twin's at decisions that are
    their own suit image."""
    swap = game.suit_swap()
    gap = 0.0
    for node in game.decision_nodes():
        if image_node(game, swap, node.id) == node.id:
            rows = np.asarray(strategy[node.id])
            gap = max(gap, float(np.abs(rows - rows[swap.hands[node.player]]).max()))
    return gap


def test_a_written_file_is_exactly_suit_symmetric_and_says_so(files):
    new, _ = files
    head, _ = read_frame(new)
    assert head["symmetric"] is True
    loaded = load_strategy(new)
    strategy = loaded.strategy
    assert isinstance(strategy, BinaryStrategy) and strategy.symmetric
    assert strategy.symmetrised() is strategy and not strategy.averaging  # nothing to average
    game = loaded.game
    assert twin_gap(game, strategy) == 0.0  # to the bit, node by node
    swap = game.suit_swap()
    checked = 0
    for p in (0, 1):  # and in the whole-profile layout the walks read
        compact = strategy.compact_per_edge(p)
        lay = strategy.layouts[p]
        for slot, node_id in enumerate(lay.nodes):
            if image_node(game, swap, int(node_id)) == int(node_id):
                block = compact[lay.first[slot] : lay.first[slot] + lay.actions[slot]]
                np.testing.assert_array_equal(block, block[:, swap.hands[p]])
                checked += 1
    assert checked > 100


def test_exploit_on_a_written_file_equals_its_header_and_the_reference(files, capsys):
    new, _ = files
    loaded = load_strategy(new)
    recorded = loaded.measured.exploitability
    assert main(["exploit", str(new), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["exploitability"] == pytest.approx(recorded, rel=1e-12)
    reference = reference_walk.exploitability(loaded.game, rows_of(loaded.game, loaded.strategy))
    assert recorded == pytest.approx(reference, rel=1e-9)  # exact: the rows are symmetric


def test_an_old_file_is_read_symmetrised_by_exploit(files, capsys):
    """A file without the flag, whose twins differ: ``exploit`` measures the symmetrised
    profile (the one the bot plays), not the file's raw rows."""
    _, old = files
    head, _ = read_frame(old)
    assert "symmetric" not in head
    loaded = load_strategy(old)
    game, raw = loaded.game, loaded.strategy
    assert not raw.symmetric and twin_gap(game, raw) > 0.3  # the drift is there
    played = as_played(raw)
    assert twin_gap(game, played) < 1e-6
    want = reference_walk.exploitability(game, rows_of(game, played))
    unplayed = reference_walk.exploitability(game, rows_of(game, raw))
    assert abs(unplayed - want) > 1e-3 * want  # the two readings differ visibly
    got = binary_exploitability(raw).exploitability
    assert got == pytest.approx(want, rel=1e-6)
    assert main(["exploit", str(old), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exploitability"] == pytest.approx(got, rel=1e-12)


def test_lbr_reads_a_file_as_played(files):
    from solvers.reports.lbr.spot_run import LbrJob, build

    _, old = files
    engine = build(LbrJob(str(old), "tree", None))
    assert engine.strategy.symmetric and engine.strategy.averaging


def test_a_spot_without_a_suit_swap_is_written_as_solved(tmp_path):
    """Four suits on the board: no decision has a twin, nothing is averaged."""
    spot = (
        'nlhe(board="Qs Jh 2c 8d",pot=100,stack=100,oop_range="AA,KK,AKs,T9s",'
        'ip_range="AA,JJ,AQs,98s",turn_oop_bet="75%",turn_ip_bet="75%",'
        'river_oop_bet="75%",river_ip_bet="75%")'
    )
    out = tmp_path / "turn.ptsb"
    execute(RunRequest(game=spot, algo="dcfr", out=out, iterations=30), lambda e: None,
            lambda: False)  # fmt: skip
    loaded = load_strategy(out)
    assert loaded.game.suit_swap() is None and loaded.strategy.symmetric
    reference = reference_walk.exploitability(loaded.game, rows_of(loaded.game, loaded.strategy))
    assert loaded.measured.exploitability == pytest.approx(reference, rel=1e-9)
    assert reference > 0.01  # a 30-iteration solve is measurably off
