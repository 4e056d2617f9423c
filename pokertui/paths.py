"""Where pokertui finds its shipped strategies and keeps saves and settings."""

from __future__ import annotations

import os
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def strategies_dir() -> Path:
    """Shipped strategies: ``$POKERTUI_STRATEGIES`` or the repository's ``strategies/``."""
    return Path(os.environ.get("POKERTUI_STRATEGIES", _REPO / "strategies"))


def saves_dir() -> Path:
    """Saved sessions: ``$POKERTUI_SAVES`` or the repository's ``saves/``."""
    return Path(os.environ.get("POKERTUI_SAVES", _REPO / "saves"))


def default_strategy_path() -> Path:
    from solvers.runs.shipped import DEFAULT_BOT  # noqa: PLC0415 - loads every game; only when needed

    return strategies_dir() / DEFAULT_BOT
