"""Strategy files over the size limit (a solved flop spot is a GB of JSON): a compact file that
pokertui wrote is read node by node, with the same validation; anything else is refused."""

import gzip

import numpy as np
import pytest

from pokertui.cli import main
from solvers.strategy_file import load_strategy, loads_strategy, model
from solvers.strategy_file.model import StrategyFileError

SPOT = """\
board = "Qs Jh 2h 8d"
pot = 100
stack = 100
oop_range = "AA, KK, QQ, AKs, JTs"
ip_range = "AA, JJ, AQs, T9s, 65s"

[turn]
oop_bet = "75%"
ip_bet = "75%"

[river]
oop_bet = "75%"
ip_bet = "75%"
"""


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("big")
    spot = folder / "turn.toml"
    spot.write_text(SPOT)
    out = folder / "turn.json.gz"
    assert (
        main(["solve", str(spot), "--algo", "dcfr", "--iterations", "20", "--out", str(out)]) == 0
    )
    text = gzip.decompress(out.read_bytes()).decode()
    return out, text, loads_strategy(text, str(out))


def test_a_file_over_the_limit_is_read_node_by_node_to_the_same_strategy(solved, monkeypatch):
    out, text, whole = solved
    monkeypatch.setattr(model, "MAX_FILE_BYTES", len(text) // 10)
    streamed = load_strategy(out)
    assert streamed.game.spec_string() == whole.game.spec_string()
    assert streamed.measured == whole.measured and streamed.solver == whole.solver
    assert set(streamed.strategy) == set(whole.strategy)
    for node, rows in whole.strategy.items():
        np.testing.assert_array_equal(streamed.strategy[node], rows)


def test_a_big_file_with_a_bad_node_is_refused_with_the_node_named(solved, monkeypatch, tmp_path):
    out, text, whole = solved
    node = next(n for n in whole.game.decision_nodes() if n.key)
    start = text.index(f'  "{node.key}": ')
    row = text.index("    [", start)
    broken = text[:row] + "    [0.7, 0.7]" + text[text.index("]", row) + 1 :]
    path = tmp_path / "broken.json.gz"
    path.write_bytes(gzip.compress(broken.encode()))
    monkeypatch.setattr(model, "MAX_FILE_BYTES", len(text) // 10)
    with pytest.raises(StrategyFileError) as info:
        load_strategy(path)
    assert any(p.node == node.key for p in info.value.problems)


def test_a_big_file_missing_a_node_or_not_in_the_layout_is_refused(solved, monkeypatch, tmp_path):
    out, text, whole = solved
    monkeypatch.setattr(model, "MAX_FILE_BYTES", len(text) // 10)
    node = next(n for n in whole.game.decision_nodes() if n.key)
    start = text.index(f'  "{node.key}": ')
    stop = text.index("]]}", start) + len("]]},\n")
    missing = tmp_path / "missing.json"
    missing.write_text(text[:start] + text[stop:])
    with pytest.raises(StrategyFileError) as info:
        load_strategy(missing)
    assert any(p.node == node.key and "missing" in p.message for p in info.value.problems)
    flat = tmp_path / "flat.json"  # the same JSON on one line: not pokertui's layout
    flat.write_text(text.replace("\n", " "))
    with pytest.raises(StrategyFileError, match="limit|MB"):
        load_strategy(flat)


def test_a_big_file_of_one_endless_line_is_refused_without_reading_it_whole(monkeypatch, tmp_path):
    from solvers.strategy_file import read  # noqa: PLC0415

    path = tmp_path / "line.json.gz"
    with gzip.open(path, "wb") as out:
        out.write(b'{"format_version": 1, "x": "' + b"a" * 3_000_000 + b'"}')
    monkeypatch.setattr(model, "MAX_FILE_BYTES", 100_000)
    monkeypatch.setattr(read, "STREAM_LINE_LIMIT", 1_000_000)
    with pytest.raises(StrategyFileError, match="a line over 1 MB"):
        load_strategy(path)
