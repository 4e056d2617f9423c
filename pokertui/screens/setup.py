"""The new-game dialog: strategy file, seat, bot mode, seed and an optional save name.

The bot is picked from the shipped and recently played bots by name, or typed as a shipped
bot's name (``leduc``) or a path. The seed is blank by default, so every new session deals new
cards; a number replays the same deck (drills). The path is validated by loading the file
here: a broken file shows its full validation report inside the dialog, and the dialog stays
open so the user can fix the path. On Start it returns a ``PlaySetup`` holding the loaded
strategy, so the play screen never loads it twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.validation import Integer
from textual.widgets import Button, Input, Label, Select, Static

from pokertui.paths import resolve_bot, shipped_bot_names
from pokertui.settings import BOT_MODES, SEAT_CHOICES


@dataclass
class PlaySetup:
    path: str
    strategy: Any
    """The loaded ``StrategyFile``."""
    seat: str
    bot_mode: str
    seed: int | None
    """None: a fresh seed from the OS, so the session deals new cards."""
    name: str | None


SEAT_LABELS = {"alternate": "alternate each hand", "1": "seat 1 (acts first)", "2": "seat 2"}


class SetupDialog(ModalScreen[PlaySetup | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        path: str,
        seat: str,
        bot_mode: str,
        seed: int | None,
        shipped_dir: Path | None = None,
        recent: list[str] | None = None,
    ) -> None:
        super().__init__()
        self.initial = (path, seat, bot_mode, seed)
        self.shipped_dir = Path(shipped_dir) if shipped_dir is not None else Path(path).parent
        self.recent = [p for p in (recent or []) if Path(p).is_file()]

    def bot_choices(self) -> list[tuple[str, str]]:
        """``(label, path)`` for every shipped bot by name, then recently played files."""
        shipped = [
            (f"{name} (shipped)", str(self.shipped_dir / f"{name}.json"))
            for name in shipped_bot_names(self.shipped_dir)
        ]
        recent = [(f"{Path(p).name} (recent: {Path(p).parent})", p) for p in self.recent]
        return shipped + recent

    def compose(self) -> ComposeResult:
        path, seat, bot_mode, seed = self.initial
        with Vertical(id="setup-box"):
            yield Static("New game", id="setup-title")
            yield Label("Bot: pick one, or type a shipped bot's name or a strategy file's path")
            choices = self.bot_choices()
            known = {value for _, value in choices}
            yield Select(
                choices,
                value=path if path in known else Select.NULL,
                prompt="shipped and recent bots",
                id="setup-bot",
                compact=True,
            )
            yield Input(
                path,
                id="setup-path",
                select_on_focus=False,
                suggester=SuggestFromList(
                    shipped_bot_names(self.shipped_dir) + self.recent, case_sensitive=False
                ),
            )
            with Horizontal(classes="setup-row"):
                yield Select(
                    [(SEAT_LABELS[key], key) for key in SEAT_CHOICES],
                    value=seat,
                    allow_blank=False,
                    id="setup-seat",
                    compact=True,
                )
                yield Select(
                    [(f"bot: {mode}", mode) for mode in BOT_MODES],
                    value=bot_mode,
                    allow_blank=False,
                    id="setup-mode",
                    compact=True,
                )
            with Horizontal(classes="setup-row"):
                yield Label("Seed", classes="setup-label")
                yield Input(
                    "" if seed is None else str(seed),
                    id="setup-seed",
                    validators=[Integer()],
                    placeholder="blank: new cards",
                    tooltip="Leave blank for new cards; a number replays the same deck (drills)",
                )
                yield Label("Save as", classes="setup-label")
                yield Input(id="setup-name", placeholder="optional")
            with VerticalScroll(id="setup-report"):
                yield Static("", id="setup-problems", markup=False)
            with Horizontal(id="setup-buttons"):
                yield Button("Hold'em (full game)…", id="setup-hunl")
                yield Button("Start", id="setup-start", variant="primary")
                yield Button("Cancel", id="setup-cancel")

    def on_mount(self) -> None:
        self.query_one("#setup-report").display = False
        self.query_one("#setup-start", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "setup-bot" and event.value is not Select.NULL:
            event.stop()
            self.query_one("#setup-path", Input).value = str(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "setup-start":
            self.start()
        elif event.button.id == "setup-hunl":  # heads-up no-limit hold'em against an agent
            self.dismiss(None)
            self.app.home_choice("hunl")  # type: ignore[attr-defined]
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.start()

    def show_problem(self, message: str) -> None:
        self.query_one("#setup-problems", Static).update(message)
        self.query_one("#setup-report").display = True

    def start(self) -> None:
        from solvers.errors import InputError  # noqa: PLC0415 - solvers load after the home screen
        from solvers.strategy_file import load_strategy  # noqa: PLC0415

        path = resolve_bot(self.query_one("#setup-path", Input).value, self.shipped_dir)
        seed_text = self.query_one("#setup-seed", Input).value.strip()
        name = self.query_one("#setup-name", Input).value.strip() or None
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self.show_problem(
                f"the seed must be a whole number (or blank for new cards), not {seed_text!r}"
            )
            return
        if name is not None:
            from pokertui.session.saves import SaveError, save_path  # noqa: PLC0415

            try:
                save_path(self.app.saves_dir, name)  # type: ignore[attr-defined]
            except SaveError as exc:
                self.show_problem(str(exc))
                return
        if not path:
            self.show_problem("choose a bot: " + ", ".join(shipped_bot_names(self.shipped_dir)))
            return
        try:
            strategy = load_strategy(path)
        except InputError as exc:
            names = ", ".join(shipped_bot_names(self.shipped_dir))
            self.show_problem(f"{exc}\n(shipped bots by name: {names})")
            return
        except OSError as exc:
            self.show_problem(f"cannot read {path}: {exc.strerror or exc}")
            return
        seat = str(self.query_one("#setup-seat", Select).value)
        mode = str(self.query_one("#setup-mode", Select).value)
        self.dismiss(PlaySetup(path, strategy, seat, mode, seed, name))

    def action_cancel(self) -> None:
        self.dismiss(None)
