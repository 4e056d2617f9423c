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
from solvers.errors import InputError
from solvers.user_files import load_user_json

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


MAX_SETTINGS_BYTES = 1 << 20
MAX_SEED = 2**63 - 1


def load_settings(saves_dir: Path) -> Settings:
    """The saved settings; any field that is missing or wrong takes its default, and a file
    that cannot be read at all (special, huge, deep, not JSON) gives all the defaults."""
    path = Path(saves_dir) / SETTINGS_FILE
    try:
        data = load_user_json(path, MAX_SETTINGS_BYTES, "settings")
    except Exception:  # noqa: BLE001 - settings must never stop the app from starting
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    settings = Settings()
    for item in fields(Settings):
        if item.name not in data:
            continue
        value, default = data[item.name], getattr(settings, item.name)
        check = _CHECKS.get(item.name, lambda v, d=default: type(v) is type(d))
        if check(value):
            setattr(settings, item.name, value)
    settings.custom_strategies = [
        p for p in settings.custom_strategies if isinstance(p, str) and 0 < len(p) <= 4096
    ][:20]
    return settings


def _path_or_none(value) -> bool:
    return value is None or (isinstance(value, str) and 0 < len(value) <= 4096)


_CHECKS = {
    "last_bot": _path_or_none,
    "seat": lambda v: isinstance(v, str) and v in SEAT_CHOICES,
    "bot_mode": lambda v: isinstance(v, str) and v in BOT_MODES,
    "seed": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SEED,
    "hints": lambda v: isinstance(v, bool),
    "custom_strategies": lambda v: isinstance(v, list),
}
"""Per field, whether a loaded value may be used (else the default stays)."""


def save_settings(saves_dir: Path, settings: Settings) -> None:
    """Write atomically; a failure to save settings is ignored (the app keeps running)."""
    path = Path(saves_dir) / SETTINGS_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(asdict(settings), indent=1) + "\n")
    except (OSError, InputError):
        pass
