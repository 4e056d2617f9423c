"""Edit a spot as a new file: name, both ranges (typed, or on the range lab's 13x13 grids) and
the bet sizes as the spot file's own ``[flop]``/``[turn]``/``[river]`` text.

Nothing is written until the whole spot validates (the same checks as ``pokertui solve``); the
copy goes to the user's spots folder under a fresh name, so the original is never touched.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from solvers.atomic import atomic_write_text
from solvers.errors import InputError
from solvers.games.holdem.spot import MAX_SPOT_BYTES, STREETS, SpotParams, spot_values
from solvers.games.params import validate_params
from solvers.user_files import read_user_text


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    return json.dumps(str(value))  # a TOML basic string


def spot_text(top: dict[str, Any], streets: dict[str, dict[str, Any]]) -> str:
    lines = [f"{key} = {_toml_value(value)}" for key, value in top.items()]
    for street in STREETS:
        if streets.get(street):
            lines += ["", f"[{street}]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in streets[street].items()]
    return "\n".join(lines) + "\n"


def sizes_text(raw: dict[str, Any]) -> str:
    streets = {s: raw[s] for s in STREETS if isinstance(raw.get(s), dict)}
    return spot_text({}, streets).strip()


def edited_spot(original: Path, name: str, oop: str, ip: str, sizes: str) -> str:
    """The new spot file's text; ``InputError`` (with the reason) if it is not a valid spot."""
    raw = tomllib.loads(read_user_text(original, MAX_SPOT_BYTES, "spot file"))
    try:
        streets = tomllib.loads(sizes)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"sizes: not valid TOML: {exc}") from None
    stray = [key for key in streets if key not in STREETS or not isinstance(streets[key], dict)]
    if stray:
        raise InputError(f"sizes: only [flop], [turn] and [river] tables, not {stray[0]!r}")
    top = {k: v for k, v in raw.items() if k not in STREETS}
    top["name"] = name.strip() or f"{raw.get('name', original.stem)} (edited)"
    top["oop_range"], top["ip_range"] = oop.strip(), ip.strip()
    text = spot_text(top, streets)
    validate_params("spot", SpotParams, spot_values(text, "the edited spot"))
    return text


def fresh_path(folder: Path, name: str) -> Path:
    stem = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:48] or "spot"
    path, number = folder / f"{stem}.toml", 2
    while path.exists():
        path, number = folder / f"{stem}_{number}.toml", number + 1
    return path


class SpotEditDialog(ModalScreen[Path | None]):
    """Dismisses with the new spot file's path, or None."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+g", "grid", "Grids"),
        Binding("escape", "cancel", "Cancel"),
    ]
    DEFAULT_CSS = """
    SpotEditDialog { align: center middle; }
    SpotEditDialog #edit-box {
        width: 90%; max-width: 110; height: auto; max-height: 95%;
        border: round $primary; padding: 0 1; background: $surface;
    }
    SpotEditDialog Input { width: 1fr; }
    SpotEditDialog .edit-row { height: auto; }
    SpotEditDialog .edit-label { width: 10; padding: 1 0 0 0; }
    SpotEditDialog TextArea { height: 10; }
    SpotEditDialog #edit-error { color: $error; height: auto; }
    """

    def __init__(self, original: Path, user_dir: Path) -> None:
        super().__init__()
        self.original = Path(original)
        self.user_dir = Path(user_dir)
        self.raw = tomllib.loads(read_user_text(self.original, MAX_SPOT_BYTES, "spot file"))

    def compose(self) -> ComposeResult:
        raw = self.raw
        with Vertical(id="edit-box"):
            yield Static(f"Edit a copy of {self.original.name} (board {raw.get('board', '?')})")
            for key, label, value in (
                ("name", "Name", f"{raw.get('name', self.original.stem)} (edited)"),
                ("oop", "OOP range", raw.get("oop_range", "")),
                ("ip", "IP range", raw.get("ip_range", "")),
            ):
                with Horizontal(classes="edit-row"):
                    yield Label(label, classes="edit-label")
                    yield Input(str(value), id=f"edit-{key}")
            yield Label("Bet sizes (33%, 2.5x, e, a; see docs/holdem.md)")
            yield TextArea(sizes_text(raw), id="edit-sizes")
            yield Static("", id="edit-error")
            with Horizontal(classes="edit-row"):
                yield Button("Ranges on the grid (ctrl+g)", id="edit-grid")
                yield Button("Save copy (ctrl+s)", id="edit-save", variant="primary")
                yield Button("Cancel", id="edit-cancel")

    def value(self, key: str) -> str:
        return self.query_one(f"#edit-{key}", Input).value

    @on(Button.Pressed, "#edit-grid")
    def action_grid(self) -> None:
        from pokertui.screens.range_lab import RangeLabScreen  # noqa: PLC0415

        lab = RangeLabScreen(self.value("oop"), self.value("ip"), str(self.raw.get("board", "")))
        self.app.push_screen(lab, self.from_grid)

    def from_grid(self, ranges: tuple[str, str] | None) -> None:
        if ranges:
            self.query_one("#edit-oop", Input).value = ranges[0]
            self.query_one("#edit-ip", Input).value = ranges[1]

    @on(Button.Pressed, "#edit-save")
    def action_save(self) -> None:
        sizes = self.query_one("#edit-sizes", TextArea).text
        try:
            text = edited_spot(self.original, self.value("name"), self.value("oop"),
                               self.value("ip"), sizes)  # fmt: skip
            self.user_dir.mkdir(parents=True, exist_ok=True)
            path = fresh_path(self.user_dir, self.value("name") or self.original.stem)
            atomic_write_text(path, text)
        except InputError as exc:
            self.query_one("#edit-error", Static).update(str(exc))
            return
        except OSError as exc:
            self.query_one("#edit-error", Static).update(f"cannot save: {exc.strerror or exc}")
            return
        self.dismiss(path)

    @on(Button.Pressed, "#edit-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
