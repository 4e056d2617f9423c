"""Strategy files: round trips, both forms, validation reports, fuzzing, OpenSpiel export."""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokertui.cli import main
from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.strategy_file import (
    MAX_FILE_BYTES,
    SolverInfo,
    StrategyFile,
    StrategyFileError,
    dumps_document,
    load_strategy,
    loads_strategy,
    save_strategy,
    to_document,
)
from solvers.strategy_file.transforms import purify, threshold
from tests.conftest import STRATEGIES


@pytest.fixture(scope="module")
def leduc_lp():
    game = load_game("leduc")
    return game, solve_lp(game).strategy


def test_solver_to_file_to_loader_round_trip(tmp_path, leduc_lp):
    game, strategy = leduc_lp
    path = tmp_path / "leduc.json"
    save_strategy(path, game, strategy, solver=SolverInfo(algorithm="lp", seed=3))
    loaded = load_strategy(path)
    assert loaded.game is game
    for node_id, rows in strategy.items():
        assert np.abs(loaded.strategy[node_id] - rows).max() <= 1e-6 + 1e-12
        assert np.allclose(loaded.strategy[node_id].sum(axis=1), 1.0, atol=1e-12)
    assert loaded.solver.algorithm == "lp" and loaded.solver.seed == 3
    recomputed = exploitability(game, loaded.strategy).exploitability
    assert loaded.measured.exploitability == pytest.approx(recomputed, abs=1e-12)
    assert path.stat().st_size < 1_000_000


def test_readable_and_compact_forms_load_equal(leduc_lp):
    game, strategy = leduc_lp
    compact = loads_strategy(dumps_document(to_document(game, strategy, form="compact")))
    readable = loads_strategy(dumps_document(to_document(game, strategy, form="readable")))
    for node_id in compact.strategy:
        assert np.array_equal(compact.strategy[node_id], readable.strategy[node_id])


KUHN_BROKEN = """{
 "format_version": 1,
 "game": "kuhn(cards=3)",
 "form": "readable",
 "nodes": {
  "": {"J": {"check": 1}, "Q": {"check": 0.5, "bet": 0.6}, "K": {"bet": 1}},
  "c": {"J": {"check": -0.2, "bet": 1.2}, "Q": {"check": 1}, "K": {"raise": 1}},
  "c/b": {"J": {"fold": 1}, "Q": {"fold": NaN, "call": 0.5}},
  "x/y": {"J": {"fold": 1}}
 }
}"""


def test_validation_lists_every_planted_error():
    with pytest.raises(StrategyFileError) as info:
        loads_strategy(KUHN_BROKEN, "broken.json")
    problems = info.value.problems
    text = [str(p) for p in problems]
    expected = [
        ("", "Q", None, "sum to 1.1"),
        ("c", "J", "check", "below 0"),
        ("c", "J", "bet", "above 1"),
        ("c", "K", "raise", "illegal action"),
        ("c/b", "Q", "fold", "NaN"),
        ("c/b", "K", None, "missing hand"),
        ("b", None, None, "missing node"),
        ("x/y", None, None, "extra node"),
    ]
    for node, hand, action, needle in expected:
        assert any(
            p.node == node and p.hand == hand and p.action == action and needle in p.message
            for p in problems
        ), (node, hand, action, needle, text)
    assert len(problems) == len(expected)
    line_of = {p.node: p.line for p in problems if p.node is not None}
    assert line_of["c"] == 7 and line_of["x/y"] == 9


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "invalid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"game": "kuhn(cards=2)", "nodes": {}}', "unknown game or parameter"),
        ('{"game": "poker9000", "nodes": {}}', "unknown game"),
        ('{"game": "kuhn", "format_version": 99, "nodes": {}}', "newer"),
        ('{"game": "kuhn", "nodes": {}, "colour": "red"}', "unknown field"),
        ('{"game": "kuhn", "nodes": {"": {"shove": "22+"}}}', "hold'em"),
    ],
)
def test_bad_files_get_one_clear_report(text, needle):
    with pytest.raises(StrategyFileError) as info:
        loads_strategy(text)
    assert needle in str(info.value)


def test_defaults_fill_missing_nodes_only_when_asked():
    text = '{"game": "kuhn", "defaults": "check_fold", "nodes": {}}'
    loaded = loads_strategy(text)
    assert sorted(loaded.filled_nodes) == ["", "b", "c", "c/b"]
    game = loaded.game
    assert np.all(loaded.strategy[game.node_by_key("b").id][:, 0] == 1)  # fold
    assert np.all(loaded.strategy[game.node_by_key("").id][:, 0] == 1)  # check
    with pytest.raises(StrategyFileError, match="missing node"):
        loads_strategy('{"game": "kuhn", "nodes": {}}')


def test_size_limit(tmp_path, monkeypatch):
    import solvers.strategy_file.model as sf_model
    from solvers.strategy_file import load_strategy as load

    path = tmp_path / "big.json"
    path.write_text('{"game": "kuhn", "nodes": {}}' + " " * 100)
    monkeypatch.setattr(sf_model, "MAX_FILE_BYTES", 50)
    with pytest.raises(StrategyFileError, match="limit"):
        load(path)
    assert MAX_FILE_BYTES == 200 * 1024 * 1024


def test_transformations():
    game = load_game("kuhn")
    strategy = solve_lp(game).strategy
    pure = purify(strategy)
    assert all(set(np.unique(rows)) <= {0.0, 1.0} for rows in pure.values())
    kept = threshold({0: np.array([[0.1, 0.9], [0.5, 0.5], [0.05, 0.05]])}, 0.15)
    assert np.allclose(kept[0], [[0, 1], [0.5, 0.5], [1, 0]])


# --- fuzzing: every outcome is a strategy or the typed error -----------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_random_json_never_crashes_the_loader(value):
    try:
        result = loads_strategy(json.dumps(value))
    except StrategyFileError:
        return
    assert isinstance(result, StrategyFile)


def _kuhn_document():
    game = load_game("kuhn")
    return to_document(game, solve_lp(game).strategy, form="compact")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_valid_files_give_a_strategy_or_the_typed_error(data):
    document = _kuhn_document()
    for _ in range(data.draw(st.integers(1, 3))):
        target = document
        path = []
        while isinstance(target, dict | list) and target and data.draw(st.booleans()):
            keys = list(target) if isinstance(target, dict) else list(range(len(target)))
            key = data.draw(st.sampled_from(keys))
            path.append(key)
            if not isinstance(target[key], dict | list):
                break
            target = target[key]
        if not path:
            document[data.draw(st.text(max_size=5))] = data.draw(json_values)
            continue
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()):
            parent[path[-1]] = data.draw(json_values)
        elif isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
    try:
        result = loads_strategy(json.dumps(document))
    except StrategyFileError:
        return
    assert isinstance(result, StrategyFile)


# --- command line ---------------------------------------------------------------------------


def test_validate_command(tmp_path, capsys):
    good = tmp_path / "good.json"
    save_strategy(good, load_game("kuhn"), solve_lp(load_game("kuhn")).strategy)
    assert main(["validate", str(good)]) == 0
    bad = tmp_path / "bad.json"
    bad.write_text(KUHN_BROKEN)
    capsys.readouterr()
    assert main(["validate", str(bad), "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is False and len(report["problems"]) == 8
    assert main(["validate", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_exploit_convert_show_schema(tmp_path, capsys):
    game = load_game("kuhn")
    path = tmp_path / "kuhn.json"
    save_strategy(path, game, solve_lp(game).strategy)
    capsys.readouterr()
    assert main(["exploit", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["exploitability"] < 1e-6
    assert report["game_value"] == pytest.approx(-1 / 18, abs=1e-5)
    assert [t["strategy"] for t in report["transformations"]] == ["purified", "threshold 0.15"]
    assert report["transformations"][0]["cost"] > 0.1
    readable = tmp_path / "kuhn_readable.json"
    assert main(["convert", str(path), "--to", "readable", "--out", str(readable)]) == 0
    assert json.loads(readable.read_text())["form"] == "readable"
    assert main(["show", str(readable), "--node", "c/b", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["actions"] == ["fold", "call"] and shown["hands"] == ["J", "Q", "K"]
    assert main(["show", str(path), "--node", "nowhere"]) == 2
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "nodes" in schema["properties"]


SHOVE_RANGE = "22+, A2s+, K2s+, Q2s+, J4s+, T6s+, 96s+, 86s+, 75s+, 65s, 54s, A2o+, K5o+, Q8o+"
HAND_WRITTEN_PUSH_FOLD = f"""{{
 "game": "push_fold(stack_bb=10)",
 "form": "readable",
 "solver": {{"algorithm": "hand-written"}},
 "nodes": {{
  "": {{"shove": "{SHOVE_RANGE}"}},
  "shove": {{"call": "22+, A2s+, K2s+, Q8s+, J9s+, T9s, A2o+, K9o+, QTo+, JTo:0.5"}}
 }}
}}"""


def test_hand_written_push_fold_file_with_ranges(tmp_path, capsys):
    path = tmp_path / "my_pushfold.json"
    path.write_text(HAND_WRITTEN_PUSH_FOLD)
    loaded = load_strategy(path)
    game = loaded.game
    root = game.root
    shove = loaded.strategy[root.id][:, root.actions.index("shove")]
    labels = list(game.hand_labels[0])
    assert shove[labels.index("AA")] == 1 and shove[labels.index("72o")] == 0
    call_node = game.node_by_key("shove")
    call = loaded.strategy[call_node.id][:, call_node.actions.index("call")]
    assert call[labels.index("JTo")] == 0.5
    assert main(["exploit", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert 0 < report["exploitability"] < 1.0
    # the readable form of a solved file round-trips through range strings
    solved = load_strategy(STRATEGIES / "push_fold_10bb.json")
    again = loads_strategy(
        dumps_document(to_document(solved.game, solved.strategy, form="readable"))
    )
    for node_id, rows in solved.strategy.items():
        assert np.abs(again.strategy[node_id] - rows).max() < 1e-6


def test_mixed_weights_inside_a_class_are_refused():
    text = '{"game": "push_fold", "nodes": {"": {"shove": "AsKs"}, "shove": {"call": "AA"}}}'
    with pytest.raises(StrategyFileError, match="per class"):
        loads_strategy(text)
