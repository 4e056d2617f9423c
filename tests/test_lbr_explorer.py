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
        status = plain_text(screen.query_one("#explorer-status", Static), 160)
    assert "LBR " in status and "tree +" in status and "56 +" in status and "translation" in status
    assert f"{figures[1]['value']:+.3g} mbb" in status
    assert "translation" in status
