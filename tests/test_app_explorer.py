"""Pilot tests of the strategy explorer: walking the tree by node keys, the hand filter, the
exploitability report, comparing files and broken files, at 100x30 and 80x24."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from textual.widgets import DataTable, Input, Select, Static

from pokertui.app import make_app
from pokertui.screens.explorer import ExplorerScreen
from pokertui.widgets.explorer import NodeView, StrategyTree
from pokertui.widgets.format import pct
from solvers.exact.evaluation import bayes_range, exploitability
from solvers.reports.strategy_report import best_response_gains, compare_strategies
from solvers.strategy_file import load_strategy, save_strategy
from tests.conftest import plain_text

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


def plain(widget: Static, width: int = 120) -> str:
    return plain_text(widget, width)


def cells(table: DataTable) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def settle(pilot) -> None:
    for _ in range(2):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def open_explorer(pilot, path: Path | str | None) -> ExplorerScreen:
    screen = ExplorerScreen(str(path) if path else None)
    await pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


async def type_into(pilot, selector: str, text: str) -> None:
    """Type ``text`` into an input and press Enter (short texts key by key, paths at once)."""
    field = pilot.app.screen.query_one(selector, Input)
    field.focus()
    field.value = ""
    if len(text) <= 6:
        await pilot.press(*text)
    else:
        field.value = text
    await pilot.press("enter")
    await settle(pilot)


def check_node(screen: ExplorerScreen, key: str, raw: dict) -> None:
    """The node pane shows the file's rows and the aggregate over the actor's reach range."""
    game, strategy = screen.loaded.game, screen.loaded.strategy
    node = game.node_by_key(key)
    assert game.nodes[screen.node_id].key == key
    view = screen.query_one(NodeView)
    assert f"node {key!r}" in plain(view.part("head"))
    rows = cells(view.part("hands"))
    body = raw["nodes"][key]
    hands = body.get("hands", list(game.hand_labels[node.player]))
    shown = {row[0]: row for row in rows}
    for hand, probs in zip(hands, body["probs"], strict=True):
        assert shown[hand][2 : 2 + len(probs)] == [pct(p) for p in probs]
    reach = bayes_range(game, strategy, node, node.player, normalise=False)
    aggregate = reach @ np.asarray(body["probs"]) / reach.sum()
    bars = plain(view.part("bars"))
    for action, share in zip(body["actions"], aggregate, strict=True):
        line = next(line for line in bars.splitlines() if line.startswith(action + " "))
        assert line.rstrip().endswith(pct(share))


async def test_walk_leduc_three_nodes_deep(tmp_path):
    raw = json.loads((STRATEGIES / "leduc.json").read_text())
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_explorer(pilot, STRATEGIES / "leduc.json")
        assert screen.loaded.game.name == "leduc"
        check_node(screen, "", raw)
        for key in ("c", "c/r", "c/r/r"):
            await type_into(pilot, "#explorer-goto", key)
            check_node(screen, key, raw)
        ranges = plain(screen.query_one(NodeView).part("ranges"))
        assert "seat 1 range at 'c/r/r'" in ranges and "seat 2 range" in ranges
        # arrow keys in the tree move to the next line: a chance node after check-raise-raise
        screen.query_one(StrategyTree).focus()
        await pilot.press("down")
        await settle(pilot)
        node = screen.loaded.game.nodes[screen.node_id]
        assert node.key != "c/r/r"
        assert f"node {node.key!r}" in plain(screen.query_one(NodeView).part("head"))
        # an unknown key is refused with a notice, and the node stays
        await type_into(pilot, "#explorer-goto", "x/y")
        assert screen.loaded.game.nodes[screen.node_id].key == node.key
        assert any("no node 'x/y'" in n.message for n in app._notifications)


async def test_exploitability_report_matches_engine(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_explorer(pilot, STRATEGIES / "leduc.json")
        game, strategy = screen.loaded.game, screen.loaded.strategy
        report = exploitability(game, strategy)
        summary = plain(screen.query_one("#explorer-exploit-summary", Static))
        for seat, response in enumerate(report.best_responses):
            assert f"seat {seat + 1}: best response {response.value:+.6f}" in summary
        assert f"exploitability {report.exploitability:.4g} chips" in summary
        assert f"{report.mbb_per_hand:.4g} mbb/hand" in summary
        assert f"{report.pot_percent:.3g}% of the pot" in summary
        top = max(
            (g for p in (0, 1) for g in best_response_gains(game, strategy, p)),
            key=lambda g: g.local_gain,
        )
        gains = screen.query_one("#explorer-gains", DataTable)
        first = cells(gains)[0]
        assert first[0] == (top.key or "(root)") and first[2] == f"{top.local_gain / 2:.4g}"
        # reach-weighted subtree shares never exceed the whole strategy's exploitability
        assert all(float(row[3]) <= report.exploitability * (1 + 1e-3) for row in cells(gains))
        # choosing a row goes to that node
        screen.query_one("#explorer-tabs").active = "tab-exploit"
        gains.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert game.nodes[screen.node_id].key == top.key


async def test_hand_filter_shows_the_path(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_explorer(pilot, None)
        select = screen.query_one("#explorer-shipped", Select)
        select.value = str(STRATEGIES / "kuhn.json")  # the shipped list opens a file
        await settle(pilot)
        game, strategy = screen.loaded.game, screen.loaded.strategy
        assert game.name == "kuhn"
        await type_into(pilot, "#explorer-hand", "K")
        path = plain(screen.query_one("#explorer-hand-path", Static))
        assert "K in seat 1" in path and "K in seat 2" in path
        root = strategy[0][game.hand_labels[0].index("K")]
        first = next(line for line in path.splitlines() if line.strip().startswith("(root)"))
        for action, share in zip(game.root.actions, root, strict=True):
            assert f"{action} {pct(share)}" in first
        # the node pane marks the filtered hand's row
        table = screen.query_one(NodeView).part("hands")
        row = table.get_row("K")
        assert "reverse" in str(row[0].style)
        assert "reverse" not in str(table.get_row("Q")[0].style)
        await type_into(pilot, "#explorer-hand", "AA")
        assert "not a hand of this game" in plain(screen.query_one("#explorer-hand-path", Static))


async def test_compare_two_files(tmp_path):
    kuhn = load_strategy(STRATEGIES / "kuhn.json")
    game = kuhn.game
    uniform = {n.id: np.full((3, 2), 0.5) for n in game.decision_nodes()}
    other = tmp_path / "kuhn_uniform.json"
    save_strategy(other, game, uniform)
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_explorer(pilot, STRATEGIES / "kuhn.json")
        await type_into(pilot, "#explorer-other", str(other))
        expected = compare_strategies(game, kuhn.strategy, game, uniform)
        summary = plain(screen.query_one("#explorer-compare-summary", Static), width=200)
        assert f"seat 1 EV, A vs B {expected.a_vs_b:+.6f}" in summary
        assert f"seat 1 EV, B vs A {expected.b_vs_a:+.6f}" in summary
        rows = {row[0]: row[2] for row in cells(screen.query_one("#explorer-diffs", DataTable))}
        for diff in expected.nodes:
            assert rows[diff.key or "(root)"].startswith(pct(diff.difference))
        await type_into(pilot, "#explorer-other", str(STRATEGIES / "leduc.json"))
        summary = plain(screen.query_one("#explorer-compare-summary", Static), width=200)
        assert "only strategies for the same game can be compared" in summary
        broken = tmp_path / "broken.json"
        broken.write_text("{not json")
        await type_into(pilot, "#explorer-other", str(broken))
        summary = plain(screen.query_one("#explorer-compare-summary", Static), width=200)
        assert "invalid JSON" in summary and app.is_running


async def test_broken_files_show_the_report(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "kuhn", "nodes": {"": {"actions": ["check"], "probs": [[1]]')
    wrong = tmp_path / "wrong_game.json"
    wrong.write_text(json.dumps({"game": "holdem_full(seats=9)", "nodes": {}}))
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_explorer(pilot, broken)
        problems = screen.query_one("#explorer-problems")
        assert problems.display
        assert "invalid JSON" in plain(screen.query_one("#explorer-problem-text", Static))
        await type_into(pilot, "#explorer-path", str(wrong))
        assert "invalid strategy file" in plain(screen.query_one("#explorer-problem-text", Static))
        await type_into(pilot, "#explorer-path", str(tmp_path / "missing.json"))
        assert problems.display
        # a good file afterwards clears the report
        await type_into(pilot, "#explorer-path", str(STRATEGIES / "kuhn.json"))
        assert not problems.display and screen.loaded.game.name == "kuhn"
        assert app.is_running


async def test_holdem_grids_at_80x24(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_explorer(pilot, STRATEGIES / "push_fold_10bb.json")
        view = screen.query_one(NodeView)
        grids = plain(view.part("grids"))
        assert grids.startswith("fold") and "AA" in grids and "72o" in grids
        assert len(cells(view.part("hands"))) == 169
        await type_into(pilot, "#explorer-goto", "shove")
        assert "call" in plain(view.part("grids"))
        await pilot.press("escape")
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ExplorerScreen)


def test_aggregates_agree_with_the_cli(capsys):
    """The explorer and ``pokertui show --json`` report the same aggregate frequencies."""
    from pokertui.cli import main  # noqa: PLC0415
    from solvers.reports.strategy_report import node_report  # noqa: PLC0415

    loaded = load_strategy(STRATEGIES / "leduc.json")
    for key in ("", "c/r", "r/c/Ks/r"):
        assert main(["show", str(STRATEGIES / "leduc.json"), "--node", key, "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        report = node_report(loaded.game, loaded.strategy, key)
        np.testing.assert_allclose(report.aggregate, shown["aggregate"])
