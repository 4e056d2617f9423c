"""What the two tables share: the session keys, the autosave, hints, review and the export.

``PlayScreen`` (a solved game or spot) and ``HunlPlayScreen`` (the full game) differ in their
sessions, their action keys and their live panels; the rest of a table is here once. Each
binding carries its help line as its tooltip, so the help screen lists what a table really
binds (``key_lines``) rather than a copy that can drift.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from textual.binding import Binding, BindingType
from textual.keys import key_to_character
from textual.screen import Screen

from pokertui.screens.history_export import write_history
from pokertui.session.saves import SaveError, save_path
from pokertui.widgets.format import plural


def table_bindings(
    actions: Iterable[Binding], panel: Iterable[Binding], *, amount: str, export: str, history: str
) -> list[BindingType]:
    """A table's keys: its own ``actions`` and live ``panel`` keys among the shared ones;
    ``amount`` says what ``x`` takes, ``export`` labels ``w``, which writes ``history``."""
    return [
        *actions,
        Binding("x,dollar_sign", "custom_amount", "Amount", tooltip=amount),
        Binding("n", "next_hand", "Next", tooltip="next hand"),
        Binding("h", "toggle_hints", "Hints", tooltip="hide or show all hints (practice mode)"),
        *panel,
        Binding("s", "review", "Review", tooltip="review the finished hands and the session"),
        Binding("w", "export", export, show=False, tooltip=f"write {history}"),
        Binding("question_mark", "app.show_help", "Help", key_display="?", tooltip="this help"),
        Binding("escape", "leave", "Home", tooltip="back home (the session is saved)"),
    ]


def key_name(key: str) -> str:
    """A key as it is typed: ``$`` for ``dollar_sign``, ``escape`` as it is."""
    character = key_to_character(key)
    return character if character is not None and character.isprintable() else key


def key_lines(bindings: Iterable[BindingType]) -> list[tuple[str, str]]:
    """``(keys, what they do)`` for the help: one line a binding, its keys ``b / r``, and
    neighbours with the same help line joined (``1 2 3 4``)."""
    lines: list[tuple[str, str]] = []
    for binding in bindings:
        if not isinstance(binding, Binding):  # a table lists Binding objects only
            continue
        keys = binding.key_display or " / ".join(key_name(k) for k in binding.key.split(","))
        what = binding.tooltip or binding.description
        if lines and lines[-1][1] == what:
            lines[-1] = (f"{lines[-1][0]} {keys}", what)
        else:
            lines.append((keys, what))
    return lines


def finished_hands(session: Any) -> int:
    return sum(1 for h in session.hands if h.result is not None)


class TableScreen(Screen[None]):
    """A table over a session (``hands``, ``hand_over``, ``summary()``) saved as it goes."""

    HISTORY_SUFFIX = "-history.txt"
    """The export's file: ``saves_dir/NAME`` and this."""
    HISTORY_KIND = "Hand history"
    """How the export's notice names what it wrote."""
    PANEL = "#live"
    """The live panel, hidden in practice mode."""

    def __init__(self, session: Any, save_name: str, saves_dir: Path, hints: bool = True):
        super().__init__()
        self.session = session
        self.save_name = save_name
        """Autosave name: ``saves_dir/NAME.json``."""
        self.saves_dir = Path(saves_dir)
        self.hints = hints
        self.saved_hands = finished_hands(session)
        """Finished hands already on disk (a hand is saved once, when it ends)."""

    # --- what each table supplies -------------------------------------------------------------
    def refresh_all(self) -> None:
        raise NotImplementedError

    def deal_next_hand(self) -> None:
        """Deal the next hand (the last one is over) and show it."""
        raise NotImplementedError

    def review_screen(self) -> Screen[None]:
        raise NotImplementedError

    def history_text(self) -> str:
        raise NotImplementedError

    def save(self, path: Path) -> None:
        """Write the session to ``path`` (``SaveError`` if it cannot)."""
        raise NotImplementedError

    def score_tail(self, summary: dict[str, Any]) -> str:
        """What follows the hand count in the sub-title (``net 3``)."""
        raise NotImplementedError

    # --- shared -------------------------------------------------------------------------------
    def score_line(self) -> str:
        summary = self.session.summary()
        if not summary["hands"]:
            return "no hands yet"
        return f"{plural(summary['hands'], 'hand')} · {self.score_tail(summary)}"

    def action_next_hand(self) -> None:
        if not self.session.hand_over:
            self.notify("Finish this hand first.", timeout=2)
            return
        self.deal_next_hand()

    def action_toggle_hints(self) -> None:
        self.hints = not self.hints
        self.query_one(self.PANEL).display = self.hints
        self.notify("Hints on" if self.hints else "Hints off: practice mode", timeout=2)

    def action_review(self) -> None:
        if not finished_hands(self.session):
            self.notify("No finished hand to review yet.", timeout=2)
            return
        self.app.push_screen(self.review_screen())

    def history_path(self) -> Path:
        return self.saves_dir / f"{self.save_name}{self.HISTORY_SUFFIX}"

    def action_export(self) -> None:
        write_history(self, self.history_path(), self.history_text(), self.HISTORY_KIND)

    def action_leave(self) -> None:
        self.save_on_close()
        self.dismiss(None)

    def save_on_close(self) -> None:
        """The table closes (home, or the app quits): what is not on disk yet is saved."""
        self.autosave()

    def autosave(self, force: bool = False) -> None:
        """Save when a hand has finished since the last save, or always with ``force``."""
        finished = finished_hands(self.session)
        if finished == self.saved_hands and not force:
            return
        try:
            self.save(save_path(self.saves_dir, self.save_name))
        except SaveError as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=8)
            return
        self.saved_hands = finished
