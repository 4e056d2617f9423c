"""The Textual app: the home screen first, then play, review, strategies and help.

``make_app`` takes the strategies and saves folders so tests run against temporary ones and
never touch the user's saves or settings. The app imports no poker engine code before the home
screen is up; a worker imports it in the background while the user reads the menu.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from textual import work
from textual.app import App
from textual.binding import Binding

from pokertui.screens.home import HomeScreen
from pokertui.screens.message import MessageDialog
from pokertui.settings import SEAT_CHOICES, load_settings, save_settings

DEFAULT_BOT_FILE = "leduc.json"
"""``solvers.runs.shipped.DEFAULT_BOT``, repeated so startup does not import the solvers (a test
checks that the two agree)."""


class PokerApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "pokertui"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(
        self,
        strategies_dir: Path,
        saves_dir: Path,
        bot: str | None,
        resume: str | None,
        seed: int | None,
        game: str | None = None,
        think: float | None = None,
    ) -> None:
        super().__init__()
        self.strategies_dir = Path(strategies_dir)
        self.saves_dir = Path(saves_dir)
        self.settings = load_settings(self.saves_dir)
        self.start_bot = bot
        self.start_resume = resume
        self.start_game = game
        """``--game hunl(...)``: open the full-game table against ``bot`` at start."""
        self.start_think = think
        """``--think``: the re-solving bot's seconds on a turn."""
        self.seed = seed
        """``--seed`` for drills; None deals fresh cards in every new session."""

    async def action_quit(self) -> None:
        """Quit; a table on screen saves what is not on disk yet (an unfinished hold'em hand)."""
        save_on_close = getattr(self.screen, "save_on_close", None)
        if save_on_close is not None:
            save_on_close()
        self.exit()

    def on_mount(self) -> None:
        self.push_screen(HomeScreen())
        # after the first frame: an import in a thread still holds the GIL while it runs
        self.set_timer(0.5, self.warm_up)
        if self.start_resume:
            self.resume(self.start_resume)
        elif self.start_game:
            self.play_game(self.start_game, self.start_bot or "call", self.start_think)
        elif self.start_bot:
            self.play_file(self.start_bot)

    @work(thread=True, exclusive=True, exit_on_error=False, group="warm-up")
    def warm_up(self) -> None:
        """Import the engine off the event loop so the first Play is instant."""
        import pokertui.screens.play  # noqa: F401, PLC0415

    def current_bot_path(self) -> str:
        last = self.settings.last_bot
        if last and Path(last).exists():
            return last
        return str(self.strategies_dir / DEFAULT_BOT_FILE)

    def show_error(self, title: str, body: str) -> None:
        self.push_screen(MessageDialog(title, body))

    # --- home menu --------------------------------------------------------------------------
    def home_choice(self, choice: str) -> None:
        if choice == "play":
            self.open_setup(self.current_bot_path())
        elif choice == "hunl":
            from pokertui.screens.hunl_setup import HunlSetupDialog  # noqa: PLC0415

            dialog = HunlSetupDialog(self.strategies_dir, self.saves_dir, self.seed)
            self.push_screen(dialog, self.start_hunl)
        elif choice == "resume":
            from pokertui.screens.resume import ResumeDialog  # noqa: PLC0415

            saves = [p for p in sorted(self.saves_dir.glob("*.json")) if p.name != "settings.json"]
            self.push_screen(ResumeDialog(saves), self.resume_chosen)
        elif choice == "strategies":
            from pokertui.screens.strategies import StrategiesScreen  # noqa: PLC0415

            screen = StrategiesScreen(
                self.strategies_dir, self.settings.custom_strategies, self.current_bot_path()
            )
            self.push_screen(screen, self.bot_chosen)
        elif choice == "spots":
            from pokertui.screens.spots import SpotsScreen  # noqa: PLC0415

            self.push_screen(SpotsScreen(self.strategies_dir, self.saves_dir))
        elif choice == "study":
            from pokertui.screens.study import StudyScreen  # noqa: PLC0415

            self.push_screen(StudyScreen())
        elif choice == "solve":
            from pokertui.screens.solve import SolveScreen  # noqa: PLC0415

            self.push_screen(SolveScreen(self.saves_dir / "runs"))
        elif choice == "help":
            self.action_show_help()
        elif choice == "quit":
            self.exit(0)
        else:
            self.notify(f"{choice.title()} arrives in a later release.", timeout=3)

    def action_show_help(self) -> None:
        from pokertui.screens.help import HelpScreen  # noqa: PLC0415

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def open_setup(self, path: str) -> None:
        from pokertui.screens.setup import SetupDialog  # noqa: PLC0415

        settings = self.settings
        dialog = SetupDialog(
            path,
            settings.seat,
            settings.bot_mode,
            self.seed,
            shipped_dir=self.strategies_dir,
            recent=settings.custom_strategies,
        )
        self.push_screen(dialog, self.start_play)

    def bot_chosen(self, path: str | None) -> None:
        if path:
            self.open_setup(path)

    def resume_chosen(self, name: str | None) -> None:
        if name:
            self.resume(name)

    # --- starting play ----------------------------------------------------------------------
    def play_file(self, path: str) -> None:
        """``pokertui play --bot FILE``: straight to the table with the remembered settings."""
        from pokertui.paths import resolve_bot  # noqa: PLC0415
        from pokertui.screens.setup import PlaySetup  # noqa: PLC0415
        from solvers.errors import InputError  # noqa: PLC0415
        from solvers.strategy_file import load_strategy  # noqa: PLC0415
        from solvers.strategy_file.binary_layout import is_binary  # noqa: PLC0415

        path = resolve_bot(path, self.strategies_dir)
        try:  # a flop's binary file: its rows are checked as they are read, not all first
            strategy = load_strategy(path, lazy=is_binary(path))
        except InputError as exc:
            self.show_error("This strategy file cannot be played", str(exc))
            return
        s = self.settings
        self.start_play(PlaySetup(path, strategy, s.seat, s.bot_mode, self.seed, None))

    def start_play(self, setup) -> None:
        if setup is None:
            return
        from pokertui.screens.play import PlayScreen  # noqa: PLC0415
        from pokertui.session import Session  # noqa: PLC0415
        from solvers.errors import InputError  # noqa: PLC0415

        try:
            session = Session(
                setup.strategy,
                human_seat=SEAT_CHOICES[setup.seat],
                seed=setup.seed,
                bot_mode=setup.bot_mode,
            )
        except InputError as exc:
            self.show_error("This strategy cannot be played", str(exc))
            return
        s = self.settings
        s.remember_bot(setup.path, self.strategies_dir)
        s.seat, s.bot_mode = setup.seat, setup.bot_mode
        save_settings(self.saves_dir, s)
        name = setup.name or self.fresh_save_name()
        self.push_screen(PlayScreen(session, name, self.saves_dir, hints=s.hints))

    def start_hunl(self, setup) -> None:
        """A full-game table from the new-game dialog's ``HunlSetup``."""
        if setup is None:
            return
        from pokertui.screens.hunl_play import HunlPlayScreen  # noqa: PLC0415
        from pokertui.session.hunl_session import HunlSession  # noqa: PLC0415

        session = HunlSession(setup.config, setup.agent, bot_name=setup.bot, human_seat=setup.seat,
                              seed=setup.seed, think=setup.think)  # fmt: skip
        name = setup.name or self.fresh_save_name()
        self.push_screen(HunlPlayScreen(session, name, self.saves_dir, hints=self.settings.hints))

    def play_game(self, game: str, bot: str, think: float | None = None) -> None:
        """``pokertui play --game hunl(...) --bot B [--think S]``: straight to the table."""
        from pokertui.screens.hunl_setup import HunlSetup  # noqa: PLC0415
        from solvers.agents.registry import make_agent  # noqa: PLC0415
        from solvers.errors import InputError  # noqa: PLC0415
        from solvers.games.hunl.spec import parse_hunl_spec  # noqa: PLC0415

        try:
            config = parse_hunl_spec(game)
            agent = make_agent(bot, config)
        except InputError as exc:
            self.show_error("This game cannot be played", str(exc))
            return
        self.start_hunl(HunlSetup(config, agent, bot, None, self.seed, None, think))

    def fresh_save_name(self) -> str:
        """``session-DATE-TIME``, with a suffix if a session started in the same second."""
        base = f"session-{datetime.now():%Y%m%d-%H%M%S}"
        name, number = base, 1
        while (self.saves_dir / f"{name}.json").exists():
            number += 1
            name = f"{base}-{number}"
        return name

    def resume(self, name: str) -> None:
        from pokertui.screens.play import PlayScreen  # noqa: PLC0415
        from pokertui.session.saves import (  # noqa: PLC0415
            SaveError,
            load_session,
            save_kind,
            save_path,
        )

        try:
            path = save_path(self.saves_dir, name)
            if save_kind(path) == "pokertui-hunl-session":
                self.resume_hunl(path)
                return
            session, warning = load_session(path)
        except SaveError as exc:
            self.show_error("Cannot resume this session", str(exc))
            return
        name = path.stem
        self.push_screen(PlayScreen(session, name, self.saves_dir, hints=self.settings.hints))
        if warning:
            self.push_screen(MessageDialog("Resumed from the backup", warning))

    def resume_hunl(self, path: Path) -> None:
        from pokertui.screens.hunl_play import HunlPlayScreen  # noqa: PLC0415
        from pokertui.session.hunl_saves import load_hunl_session  # noqa: PLC0415

        session, warning = load_hunl_session(path)  # SaveError: the caller shows it
        hints = self.settings.hints
        self.push_screen(HunlPlayScreen(session, path.stem, self.saves_dir, hints=hints))
        if warning:
            self.push_screen(MessageDialog("Resumed from the backup", warning))

    def remember_hints(self, shown: bool) -> None:
        self.settings.hints = shown
        save_settings(self.saves_dir, self.settings)


def make_app(
    strategies_dir: Path | str | None = None,
    saves_dir: Path | str | None = None,
    bot: str | None = None,
    resume: str | None = None,
    seed: int | None = None,
    game: str | None = None,
    think: float | None = None,
) -> PokerApp:
    """The app with its folders injected (defaults: ``pokertui.paths``)."""
    if strategies_dir is None or saves_dir is None:
        from pokertui import paths  # noqa: PLC0415 - it imports the solvers (see bench_app)

        strategies_dir = strategies_dir if strategies_dir is not None else paths.strategies_dir()
        saves_dir = saves_dir if saves_dir is not None else paths.saves_dir()
    return PokerApp(
        Path(strategies_dir),
        Path(saves_dir),
        bot,
        resume,
        seed,
        game,
        think,
    )


def run_app(
    bot: str | None = None,
    resume: str | None = None,
    seed: int | None = None,
    game: str | None = None,
    think: float | None = None,
) -> int:
    """Run the TUI until the user quits; the exit code for the CLI."""
    app = make_app(bot=bot, resume=resume, seed=seed, game=game, think=think)
    app.run()
    return app.return_code or 0
