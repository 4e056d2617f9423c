"""The full game's table: a hand of heads-up no-limit hold'em against an agent, preflop to river.

``HunlSession`` owns every poker fact; this screen turns keys into its actions and re-renders.
The live numbers (equity over every runout, the shove's EV) take up to a second preflop, so a
thread worker computes them from a job holding copies of the decision's inputs and posts
``LiveReady``; a result whose decision has passed is dropped. The session is saved after every
hand, and ``w`` writes the session's hands in PHH.

The bot answers in a thread worker too (``bot_think``: the session's ``bot_job``, then
``BotActed`` plays it on the event loop), because the re-solving bot thinks for seconds on the
flop, turn and river. Its ``progress`` hook runs in the solving thread (the bot's think, or the live
numbers' solve of a street the human opens) and posts ``ThinkingUpdate`` at most ten times a
second; the line under the actions shows the street, the time spent against the budget and the
exploitability reached. ``post_message`` rather than ``call_from_thread``: the solver never
waits for the event loop, so a quit mid-think cannot leave it blocked. The screen stays live
meanwhile (help, scrolling, review, quitting). A closed screen cancels its workers and the hook
then stops the solve (``ThinkingStopped``); the session is only changed on the event loop, so
leaving or quitting mid-hand saves the hand as it stands (``save_on_close``) and a resume
continues it at the same decision.
"""

from __future__ import annotations

import time
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Header, Input, Static
from textual.worker import NoActiveWorker, get_current_worker

from pokertui.screens.message import MessageDialog
from pokertui.screens.table_screen import TableScreen, table_bindings
from pokertui.session.hunl_hand import HunlActionError
from pokertui.session.hunl_saves import save_hunl_session
from pokertui.session.hunl_session import HunlSession, ThinkingStopped, warm_up
from pokertui.session.phh import session_phhs
from pokertui.widgets.hunl_view import (
    SIZE_OF_KEY,
    hand_lines,
    render_live,
    render_options,
    render_table,
    render_thinking,
)
from solvers.errors import InputError


class LiveReady(Message):
    def __init__(self, numbers, key, final: bool = True) -> None:
        super().__init__()
        self.numbers = numbers
        self.key = key
        self.final = final
        """False while sizes off the re-solve's tree are still being valued."""


class BotActed(Message):
    def __init__(self, action, key) -> None:
        super().__init__()
        self.action = action
        self.key = key


class BotFailed(Message):
    def __init__(self, error: str, key) -> None:
        super().__init__()
        self.error = error
        self.key = key


class ThinkingUpdate(Message):
    def __init__(self, thinking) -> None:
        super().__init__()
        self.thinking = thinking


PROGRESS_EVERY = 0.1
"""Seconds between two progress updates posted by a solve (the hook runs every iteration)."""
WARMING = "Getting the bot ready: the solver compiles on its first use after an install…"
WARMING_AFTER = 0.5
"""Seconds of warm-up (``warm_up``) before the line says so: a compiled engine takes 0.1 s,
a fresh install's first compile 10 to 20 s, while the bot's first answer and the panel wait."""


class LiveFailed(Message):
    def __init__(self, error: str, key) -> None:
        super().__init__()
        self.error = error
        self.key = key


class HunlAmountDialog(ModalScreen[str | None]):
    """The typed bet: this street's total in chips or big blinds (``7.5bb``)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, hint: str) -> None:
        super().__init__()
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(id="amount-box"):
            yield Static("Bet or raise to (this street's total)", id="amount-title")
            yield Static(self.hint, id="amount-sizes")
            yield Input(placeholder="e.g. 750 chips or 7.5bb", id="hunl-amount-input")
            yield Static("Enter to bet, Escape to cancel", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HunlPlayScreen(TableScreen):
    HISTORY_SUFFIX = "-history.phhs"
    HISTORY_KIND = "Hand history (PHH)"
    PANEL = "#hunl-live"
    BINDINGS = table_bindings(
        [
            Binding("f", "act('f')", "Fold", tooltip="fold"),
            Binding("c,k", "act('c')", "Check/Call", tooltip="check or call"),
            Binding("m", "act('m')", "Min", tooltip="the minimum raise"),
            Binding("1", "act('1')", "⅓", show=False, tooltip="raise ⅓ of the pot after calling"),
            Binding("2", "act('2')", "½", show=False, tooltip="raise ½ of the pot after calling"),
            Binding("3", "act('3')", "⅔", show=False, tooltip="raise ⅔ of the pot after calling"),
            Binding("p", "act('p')", "Pot", tooltip="raise the pot after calling"),
            Binding("a", "act('a')", "All-in", tooltip="all-in"),
        ],
        [],
        amount="type any amount: this street's total in chips (750) or bb (7.5bb)",
        export="PHH",
        history=f"the session's hands as PHH to saves/NAME{HISTORY_SUFFIX}",
    )

    def __init__(self, session: HunlSession, save_name: str, saves_dir: Path, hints: bool = True):
        super().__init__(session, save_name, saves_dir, hints)
        self.thinking_key: tuple[int, int] | None = None
        """The decision the bot is thinking about (a worker runs), or None."""
        self.live_key: tuple[int, int] | None = None
        """The decision whose live numbers a worker computes (it may be solving), or None."""
        self.valuing_key: tuple[int, int] | None = None
        """The decision whose off-tree sizes a worker is valuing (node re-solves nobody else
        needs: stopped as soon as the human acts), or None."""
        self.last_progress = 0.0
        self.warming = False
        """The bot's warm-up still runs (its first answers wait for it)."""
        self.thinking_text = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="hunl-main"):
            with Vertical(id="hunl-left"):
                yield Static(id="hunl-table")
                yield Static(id="hunl-actions")
                yield Static("", id="hunl-thinking")
                with VerticalScroll(id="hunl-log"):
                    yield Static(id="hunl-log-text", markup=False)
            with VerticalScroll(id="hunl-live"):
                yield Static(id="hunl-live-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#hunl-live").display = self.hints
        if hasattr(self.session.agent, "progress"):  # the re-solving bot reports its solves
            self.session.agent.progress = self.thinking_hook
        self.warming = True
        self.set_timer(WARMING_AFTER, self.show_warming)
        self.warm_up_bot()
        if self.session.hand_over:
            self.deal_next_hand()
        else:
            self.refresh_all()

    # --- rendering --------------------------------------------------------------------------
    def refresh_all(self) -> None:
        session = self.session
        bot = Path(session.bot_name).name  # a bot file by its name, a chump as it is
        self.sub_title = f"{bot} · {session.config.stack_bb:g}bb · {self.score_line()}"
        self.query_one("#hunl-table", Static).update(render_table(session))
        self.query_one("#hunl-actions", Static).update(render_options(session))
        log = "\n".join(hand_lines(session, session.hand)) if session.hands else ""
        self.query_one("#hunl-log-text", Static).update(log)
        log_view = self.query_one("#hunl-log", VerticalScroll)
        self.call_after_refresh(log_view.scroll_end, animate=False)  # after the new lines
        live = self.query_one("#hunl-live-text", Static)
        if self.valuing_key is not None and not (
            session.human_to_act and session.decision_key() == self.valuing_key
        ):  # the human acted: the sizes it did not take are not worth the bot's wait
            self.valuing_key = None
            self.workers.cancel_group(self, "hunl-live")
        if session.human_to_act:
            live.update("computing…")
            key = session.decision_key()
            if self.hints and self.live_key != key:  # one job per decision: it may be solving
                self.live_key = key
                self.compute_live(session.live_job(), key)
        elif session.bot_to_act:
            live.update("The bot is to act.")
            key = session.decision_key()
            if self.thinking_key != key:
                self.thinking_key = key
                self.show_thinking("The bot is thinking…")
                self.bot_think(session.bot_job(), key)
        else:
            live.update("Hand over: n for the next hand, s to review.")
            self.autosave()

    def show_thinking(self, text) -> None:
        self.thinking_text = text
        self.query_one("#hunl-thinking", Static).update(text)

    def show_warming(self) -> None:
        if self.warming:
            self.show_thinking(WARMING)

    def warmed_up(self, seconds: float = 0.0) -> None:
        """The warm-up's notice gives way to what the line said before it; a long one (a
        fresh install's compile) says how long it took."""
        self.warming = False
        if seconds > WARMING_AFTER:
            self.notify(f"The bot is ready: getting it ready took {seconds:.0f} s (the solver "
                        "compiles once after an install).", timeout=6)  # fmt: skip
        if self.thinking_text == WARMING:
            self.show_thinking("The bot is thinking…" if self.thinking_key is not None else "")

    @work(thread=True, exit_on_error=False, group="hunl-warm-up")
    def warm_up_bot(self) -> None:
        """The bot's first answer on each street, asked off the event loop (see ``warm_up``)."""
        seconds = 0.0
        try:
            with self.session.agent_lock:
                seconds = warm_up(self.session.agent, self.session.config)
        finally:
            self.app.call_from_thread(self.warmed_up, seconds)

    @work(thread=True, exclusive=True, exit_on_error=False, group="hunl-bot")
    def bot_think(self, job, key) -> None:
        """The bot's decision (a re-solve takes seconds), played by ``BotActed`` on the loop."""
        try:
            action = job()
        except ThinkingStopped:
            return
        except Exception as exc:  # noqa: BLE001 - a broken bot file: say so, keep the app
            self.post_message(BotFailed(f"{type(exc).__name__}: {exc}", key))
            return
        self.post_message(BotActed(action, key))

    def thinking_hook(self, thinking) -> None:
        """The re-solving bot's progress, called in the solving thread after every iteration:
        stop a solve whose worker was cancelled, post the progress now and then."""
        try:
            worker = get_current_worker()
        except NoActiveWorker:  # a solve outside this screen's workers: nothing to show
            return
        if worker.is_cancelled:
            raise ThinkingStopped
        now = time.monotonic()
        if now - self.last_progress >= PROGRESS_EVERY:
            self.last_progress = now
            self.post_message(ThinkingUpdate(thinking))

    @on(ThinkingUpdate)
    def show_progress(self, message: ThinkingUpdate) -> None:
        session = self.session
        if session.hand_over:
            return
        who = "The bot is thinking" if session.bot_to_act else "Solving the bot's play for your EVs"
        self.show_thinking(render_thinking(message.thinking, who))

    @on(BotActed)
    def play_bot(self, message: BotActed) -> None:
        session = self.session
        if self.thinking_key != message.key:
            return
        self.thinking_key = None
        self.show_thinking("")
        if not (session.bot_to_act and session.decision_key() == message.key):
            return
        try:
            session.play_bot(message.action)
        except InputError as exc:  # the bot broke the rules: say so, keep the app running
            self.app.push_screen(MessageDialog("The bot failed", str(exc)))
            return
        self.refresh_all()

    @on(BotFailed)
    def bot_failed(self, message: BotFailed) -> None:
        if self.thinking_key == message.key:
            self.thinking_key = None
            self.show_thinking("")
            self.app.push_screen(MessageDialog("The bot failed", message.error))

    @work(thread=True, exclusive=True, exit_on_error=False, group="hunl-live")
    def compute_live(self, job, key) -> None:
        def report(numbers) -> None:
            self.post_message(LiveReady(numbers, key, final=False))

        try:
            numbers = job(report)
        except ThinkingStopped:
            return
        except Exception as exc:  # noqa: BLE001 - shown in the panel; the game goes on
            self.post_message(LiveFailed(f"{type(exc).__name__}: {exc}", key))
            return
        self.post_message(LiveReady(numbers, key))

    def is_live_decision(self, key) -> bool:
        return self.session.human_to_act and self.session.decision_key() == key

    @on(LiveReady)
    def show_live(self, message: LiveReady) -> None:
        if self.live_key == message.key and message.final:
            self.live_key = None
        if self.valuing_key == message.key and message.final:
            self.valuing_key = None
        if self.is_live_decision(message.key):
            if message.final:
                self.show_thinking("")
            else:
                self.valuing_key = message.key
            self.session.store_live(message.key, message.numbers)
            self.query_one("#hunl-actions", Static).update(render_options(self.session))
            width = self.query_one("#hunl-live").size.width
            cell = 4 if width >= 56 else 3
            text = render_live(self.session, message.numbers, cell)
            self.query_one("#hunl-live-text", Static).update(text)

    @on(LiveFailed)
    def show_failure(self, message: LiveFailed) -> None:
        if self.live_key == message.key:
            self.live_key = None
        if self.is_live_decision(message.key):
            self.show_thinking("")
            self.query_one("#hunl-live-text", Static).update(
                f"live numbers unavailable: {message.error}"
            )

    # --- the player's intents -----------------------------------------------------------------
    def action_act(self, key: str) -> None:
        session = self.session
        if session.bot_to_act:
            self.notify("The bot is thinking: wait for its action.", timeout=2)
            return
        if not session.human_to_act:
            self.notify("The hand is over: press n for the next one.", timeout=2)
            return
        try:
            session.act(SIZE_OF_KEY[key], advance=False)
        except HunlActionError as exc:
            self.notify(f"'{key}' is not available here: {exc}", severity="warning", timeout=3)
            return
        except InputError as exc:  # the bot broke the rules: say so, keep the app running
            self.app.push_screen(MessageDialog("The bot failed", str(exc)))
            return
        self.refresh_all()

    def action_custom_amount(self) -> None:
        session = self.session
        if session.bot_to_act:
            self.notify("The bot is thinking: wait for its action.", timeout=2)
            return
        if not session.human_to_act:
            return
        if session.state.legal().min_raise_to is None:
            self.notify("No raise is possible here.", severity="warning", timeout=2)
            return
        self.app.push_screen(HunlAmountDialog(session.amount_hint()), self.bet_amount)

    def bet_amount(self, text: str | None) -> None:
        if text is None or not self.session.human_to_act:
            return
        try:
            self.session.act_amount(text, advance=False)
        except HunlActionError as exc:
            self.notify(str(exc), severity="error", timeout=6)
            return
        except InputError as exc:
            self.app.push_screen(MessageDialog("The bot failed", str(exc)))
            return
        self.refresh_all()

    def deal_next_hand(self) -> None:
        try:
            self.session.new_hand(advance=False)
        except InputError as exc:
            self.app.push_screen(MessageDialog("The bot failed", str(exc)))
            return
        self.refresh_all()

    def action_toggle_hints(self) -> None:
        super().action_toggle_hints()
        if self.hints:
            self.refresh_all()

    def review_screen(self) -> Screen[None]:
        from pokertui.screens.hunl_review import HunlReviewScreen  # noqa: PLC0415

        return HunlReviewScreen(self.session)

    def history_text(self) -> str:
        return session_phhs(self.session.config, self.session.hands, "you", "bot")

    def save(self, path: Path) -> None:
        save_hunl_session(self.session, path)

    def save_on_close(self) -> None:
        """An unfinished hand is saved as it stands, so a resume continues it at this decision
        (its cards and betting) instead of dealing it again."""
        self.autosave(force=not self.session.hand_over)

    def score_tail(self, summary: dict) -> str:
        return f"{summary['mean']:+.0f} bb/100"
