"""The new-game dialog of the full game: stack depth, the bot, its think time, the seat, a seed
and a save name.

The bot is by default the re-solving bot over the shipped blueprint of the chosen depth (a blank
bot field), which solves the flop (with the turn's bets in the flop's tree), turn and river; the
same bot with a quick flop (turn and river checked down in the flop's tree); the same bot
playing the blueprint's flop; else a shipped blueprint alone (``strategies/hunl_*``), the
re-solving bot over one, a chump (call, random, call-raise) or any bot name or file's path. The
think time (seconds on a turn, three times that on the flop, a tenth on the river) trades the
re-solving bot's accuracy for speed. Start builds the game and the agent here, so a bad depth,
time or file shows its message inside the dialog, which stays open to fix it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from pokertui.paths import resolve_hunl_bot, shipped_hunl_bots

DEFAULT_BOT = ""
"""A blank bot field: the re-solving bot over the shipped blueprint of the chosen depth."""
QUICK_FLOP_BOT = "resolve(flop-tree=checkdown):"
"""The re-solving bot whose flop solve checks the turn and river down: a fifth of a second a
flop instead of up to 15 s, its flop play about five times as costly (``docs/resolve.md``)."""
TURN_BOT = "resolve(from=turn):"
"""The re-solving bot that plays the blueprint's flop and solves the turn and river (the
earlier default), over the shipped blueprint of the chosen depth."""
SAFE_BOT = "resolve-safe:"
"""The re-solving bot whose turn and river solves go through the maxmargin gadget: none of the
human's hands does better than against the blueprint, over the shipped blueprint of the depth."""
DEFAULT_THINK = "5"
"""``hunl_session.THINK_DEFAULT``, as the field's text (the dialog opens without the solvers)."""

CHUMPS = (("always call", "call"), ("random actions", "random"), ("call or raise", "call-raise"))
SEATS = (("alternate each hand", "alternate"), ("button", "button"), ("big blind", "bb"))
SEAT_OF = {"alternate": None, "button": 0, "bb": 1}


@dataclass
class HunlSetup:
    config: Any
    """The ``HunlConfig``."""
    agent: Any
    bot: str
    seat: int | None
    seed: int | None
    name: str | None
    think: float | None = None
    """The re-solving bot's seconds on a turn; None for a bot that does not re-solve."""


def shipped_bots(strategies_dir: Path) -> list[tuple[str, str]]:
    """``(label, bot)``: the default, then per shipped full-game blueprint (``hunl_*`` files)
    the re-solving bot over it and the blueprint alone."""
    bots = [("re-solving bot over the shipped blueprint of this depth (default)", DEFAULT_BOT),
            ("the same, quick flop (its flop solve checks the turn and river down)",
             QUICK_FLOP_BOT),
            ("the same, playing the blueprint's flop (re-solves turn and river)", TURN_BOT),
            ("the same, safe: no hand of yours does better than against the blueprint", SAFE_BOT)]
    for path in shipped_hunl_bots(strategies_dir):
        bots.append((f"re-solving over {path.name}", f"resolve:{path}"))
        bots.append((f"{path.name} blueprint alone (shipped)", str(path)))
    return bots


class HunlSetupDialog(ModalScreen[HunlSetup | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, strategies_dir: Path, saves_dir: Path, seed: int | None = None) -> None:
        super().__init__()
        self.strategies_dir = Path(strategies_dir)
        self.saves_dir = Path(saves_dir)
        self.seed = seed

    def compose(self) -> ComposeResult:
        bots = shipped_bots(self.strategies_dir) + list(CHUMPS)
        default = bots[0][1]
        with Vertical(id="hunl-setup-box"):
            yield Static("New game: heads-up no-limit hold'em", id="hunl-setup-title")
            with Horizontal(classes="setup-row"):
                yield Label("Stacks (bb)", classes="setup-label")
                yield Input("100", id="hunl-depth", tooltip="10 to 250 big blinds")
            yield Label("Bot: pick one, or type a bot file's path")
            yield Select(bots, value=default, id="hunl-bot-choice", compact=True)
            yield Input(default, id="hunl-bot", placeholder="blank: the default re-solving bot")
            with Horizontal(classes="setup-row"):
                yield Label("Think (s)", classes="setup-label")
                yield Input(DEFAULT_THINK, id="hunl-think", tooltip="the re-solving bot's "
                            "seconds on a turn (3x on the flop, a tenth on the river): less is "
                            "faster, weaker")
            yield Select(SEATS, value="alternate", allow_blank=False, id="hunl-seat", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Seed", classes="setup-label")
                yield Input(
                    "" if self.seed is None else str(self.seed),
                    id="hunl-seed",
                    placeholder="blank: new cards",
                )
                yield Label("Save as", classes="setup-label")
                yield Input(id="hunl-name", placeholder="optional")
            yield Static("", id="hunl-problem", markup=False)
            with Horizontal(id="hunl-setup-buttons"):
                yield Button("Start", id="hunl-start", variant="primary")
                yield Button("Cancel", id="hunl-cancel")

    def on_mount(self) -> None:
        """The depth first, its text selected: typing replaces it and Enter starts."""
        self.query_one("#hunl-depth", Input).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "hunl-bot-choice" and event.value is not Select.NULL:
            event.stop()
            self.query_one("#hunl-bot", Input).value = str(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "hunl-start":
            self.start()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.start()

    def problem(self, message: str) -> None:
        self.query_one("#hunl-problem", Static).update(message)

    def start(self) -> None:
        from pokertui.session.hunl_session import check_think  # noqa: PLC0415
        from pokertui.session.saves import SaveError, save_path  # noqa: PLC0415
        from solvers.agents.registry import make_agent  # noqa: PLC0415
        from solvers.agents.resolving import ResolvingAgent  # noqa: PLC0415
        from solvers.errors import InputError  # noqa: PLC0415
        from solvers.games.hunl.spec import parse_hunl_spec  # noqa: PLC0415

        depth = self.query_one("#hunl-depth", Input).value.strip()
        bot = self.query_one("#hunl-bot", Input).value.strip()
        think_text = self.query_one("#hunl-think", Input).value.strip()
        seed_text = self.query_one("#hunl-seed", Input).value.strip()
        name = self.query_one("#hunl-name", Input).value.strip() or None
        try:
            config = parse_hunl_spec(f"hunl(stack_bb={depth or 'x'})")
        except InputError as exc:
            self.problem(f"stack depth: {exc}")
            return
        bot = resolve_hunl_bot(bot, self.strategies_dir, config.stack_bb)
        try:
            think = check_think(think_text or DEFAULT_THINK)
        except InputError as exc:
            self.problem(str(exc))
            return
        if seed_text and not (seed_text.isdigit() and len(seed_text) < 20):
            self.problem(f"the seed is a whole number (or blank for new cards), not {seed_text!r}")
            return
        try:
            if name is not None:
                save_path(self.saves_dir, name)
            agent = make_agent(bot, config)
            re_solving = isinstance(agent, ResolvingAgent)  # the session applies the think time
        except (InputError, SaveError) as exc:
            self.problem(str(exc))
            return
        except OSError as exc:
            self.problem(f"cannot read {bot}: {exc.strerror or exc}")
            return
        except Exception as exc:  # noqa: BLE001 - a foreign file must not take the app down
            self.problem(f"{bot} cannot be loaded as a bot ({type(exc).__name__}: {exc})")
            return
        seat = SEAT_OF[str(self.query_one("#hunl-seat", Select).value)]
        seed = int(seed_text) if seed_text else None
        self.dismiss(HunlSetup(config, agent, bot, seat, seed, name, think if re_solving else None))

    def action_cancel(self) -> None:
        self.dismiss(None)
