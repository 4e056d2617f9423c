"""What the app remembers between runs: the last bot and table setup, and custom strategy files.

Stored as ``settings.json`` in the saves directory so tests that point ``saves_dir`` at a
temporary folder never read or write the user's settings. A missing or unreadable file gives
the defaults: settings are a convenience and must never stop the app from starting.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from solvers.atomic import atomic_write_text

SETTINGS_FILE = "settings.json"
SEAT_CHOICES = {"alternate": None, "1": 0, "2": 1}
"""Seat choice shown to the user (seats are 1 and 2 on screen) to the session's ``human_seat``."""
BOT_MODES = ("mixed", "purified", "thresholded")


@dataclass
class Settings:
    last_bot: str | None = None
    """Path of the strategy file played last; None means the shipped default bot."""
    seat: str = "alternate"
    bot_mode: str = "mixed"
    seed: int = 0
    hints: bool = True
    """Whether the live panel is shown."""
    custom_strategies: list[str] = field(default_factory=list)
    """Strategy files outside the shipped folder that the user has played, newest first."""

    def remember_bot(self, path: str, shipped_dir: Path) -> None:
        self.last_bot = path
        resolved = Path(path).resolve()
        if resolved.parent != Path(shipped_dir).resolve():
            self.custom_strategies = [path] + [p for p in self.custom_strategies if p != path]
            del self.custom_strategies[20:]


def load_settings(saves_dir: Path) -> Settings:
    path = Path(saves_dir) / SETTINGS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    known = {f.name for f in fields(Settings)}
    settings = Settings(**{k: v for k, v in data.items() if k in known})
    if settings.seat not in SEAT_CHOICES:
        settings.seat = "alternate"
    if settings.bot_mode not in BOT_MODES:
        settings.bot_mode = "mixed"
    if not isinstance(settings.seed, int):
        settings.seed = 0
    if not isinstance(settings.custom_strategies, list):
        settings.custom_strategies = []
    return settings


def save_settings(saves_dir: Path, settings: Settings) -> None:
    """Write atomically; a failure to save settings is ignored (the app keeps running)."""
    path = Path(saves_dir) / SETTINGS_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(asdict(settings), indent=1) + "\n")
    except OSError:
        pass
