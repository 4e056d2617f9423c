"""Writing a session's hand history to a text file, for the play and review screens.

Both screens offer the export; it lives here, below both, so that neither imports the other
for it (play opens review; review must not reach back into play).
"""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from pokertui.session import Session
from pokertui.widgets.hand_log import history_text
from solvers.atomic import atomic_write_text


def export_history(screen: Screen, session: Session, path: Path) -> None:
    """Write the history atomically and tell the player where it went, or why it could not."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, history_text(session) + "\n")
    except OSError as exc:
        screen.notify(f"Cannot write {path}: {exc.strerror or exc}", severity="error")
        return
    screen.notify(f"Hand history written to {path}", timeout=4)
