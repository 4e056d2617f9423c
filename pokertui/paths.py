"""Where pokertui finds its shipped strategies and keeps saves and settings."""

from __future__ import annotations

import os
from pathlib import Path

from solvers.shipped import DEFAULT_BOT

_REPO = Path(__file__).resolve().parent.parent


def strategies_dir() -> Path:
    """Shipped strategies: ``$POKERTUI_STRATEGIES`` or the repository's ``strategies/``."""
    return Path(os.environ.get("POKERTUI_STRATEGIES", _REPO / "strategies"))


def saves_dir() -> Path:
    """Saved sessions: ``$POKERTUI_SAVES`` or the repository's ``saves/``."""
    return Path(os.environ.get("POKERTUI_SAVES", _REPO / "saves"))


def default_strategy_path() -> Path:
    return strategies_dir() / DEFAULT_BOT
