"""Writing a session's hand history to a file, for the play, hold'em and review screens.

The screens offer the export; it lives here, below them, so that none imports another for it
(play opens review; review must not reach back into play).
"""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from pokertui.session import Session
from pokertui.widgets.hand_log import history_text
from solvers.atomic import atomic_write_text


def write_history(screen: Screen, path: Path, text: str, kind: str = "Hand history") -> None:
    """Write ``text`` atomically and tell the player where it went, or why it could not."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
    except OSError as exc:
        screen.notify(f"Cannot write {path}: {exc.strerror or exc}", severity="error")
        return
    screen.notify(f"{kind} written to {path}", timeout=4)


def export_history(screen: Screen, session: Session, path: Path) -> None:
    """A solved game's session as readable text (``history_text``)."""
    write_history(screen, path, history_text(session) + "\n")
