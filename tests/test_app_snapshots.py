"""Rendered-text snapshots of the main screens at 100x30.

Each screen is rendered exactly as Textual's own screenshot does, but exported as plain text,
and compared with ``tests/snapshots/NAME.txt``. Paths that depend on where the repository lives
are replaced by ``<repo>`` and ``<saves>``, and runs of spaces on those lines are collapsed.
After an intended change of layout, regenerate with
``POKERTUI_UPDATE_SNAPSHOTS=1 pytest tests/test_app_snapshots.py`` and review the diff.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from rich.console import Console

from pokertui.app import make_app
from pokertui.screens.study import StudyScreen, study_screen

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ROOT / "strategies"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
SIZE = (100, 30)


def screen_text(app, saves_dir: Path) -> str:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      color_system=None, legacy_windows=False, safe_box=False)  # fmt: skip
    console.print(app.screen._compositor.render_update(full=True))
    text = console.export_text(styles=False)
    text = text.replace(str(saves_dir), "<saves>").replace(str(ROOT), "<repo>")
    lines = []
    for line in text.splitlines():
        if "<repo>" in line or "<saves>" in line:  # centring depends on the path's length
            line = re.sub(" +", " ", line)
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def check(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("POKERTUI_UPDATE_SNAPSHOTS"):
        path.write_text(text)
    assert path.exists(), f"no snapshot {path.name}; run with POKERTUI_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(), f"{name} changed; diff it against {path}"


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def test_home_and_study_menus(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        check("home", screen_text(app, tmp_path))
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, StudyScreen)
        check("study", screen_text(app, tmp_path))


@pytest.mark.parametrize("choice", ["lab", "theory"])
async def test_study_screens(tmp_path, choice):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.push_screen(study_screen(choice, app))
        await settle(pilot)
        check(choice, screen_text(app, tmp_path))


async def test_play_screen_first_decision(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "kuhn.json"), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        check("play_kuhn", screen_text(app, tmp_path))


async def test_help_screen(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        check("help", screen_text(app, tmp_path))
