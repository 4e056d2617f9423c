"""The explorer's status line shows the LBR figures recorded in a strategy file's header."""

from __future__ import annotations

import json

from textual.widgets import Static

from pokertui.app import make_app
from pokertui.cli import main
from pokertui.screens.explorer import ExplorerScreen
from tests.conftest import STRATEGIES, plain_text


async def test_explorer_status_shows_recorded_lbr_and_translation_price(tmp_path, capsys):
    path = tmp_path / "pf10.json"
    path.write_text((STRATEGIES / "push_fold_10bb.json").read_text())
    for action_set in ("tree", "56"):
        assert main(["lbr", str(path), "--action-set", action_set, "--exact", "--record"]) == 0
    capsys.readouterr()
    figures = json.loads(path.read_text())["lbr"]
    app = make_app()
    async with app.run_test(size=(160, 30)) as pilot:
        screen = ExplorerScreen(str(path))
        await pilot.app.push_screen(screen)
        for _ in range(2):
            await pilot.pause()
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        status = " ".join(plain_text(screen.query_one("#explorer-status", Static), 160).split())
    by_set = {figure["action_set"]: figure["value"] for figure in figures}
    assert set(by_set) == {"fc", "fcpa", "tree", "56"}
    assert "LBR " in status
    for action_set, value in by_set.items():
        assert f"{action_set} {value:+.3g} mbb" in status
    # the price of translating off-tree bets: LBR with 56 sizes minus LBR with the tree's own
    assert f"translation {by_set['56'] - by_set['tree']:+.3g} mbb" in status
