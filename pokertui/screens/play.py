"""The play screen: the table, the action bar, the hand log and the live panel.

The ``Session`` owns every poker fact; this screen turns keys into ``Session.act`` calls and
re-renders. The live numbers (``current_spot``) take up to tens of milliseconds, so a thread
worker computes them on a snapshot of the session and posts ``SpotReady``; the handler drops a
result whose decision has already passed. The session is saved after every hand.
"""

from __future__ import annotations

import copy
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header

from pokertui.screens.amount import AmountDialog
from pokertui.screens.review import ReviewScreen
from pokertui.screens.table_screen import TableScreen, table_bindings
from pokertui.session import IllegalActionError, Session, current_spot
from pokertui.session.saves import save_session
from pokertui.widgets.action_bar import ActionBar, option_for_key
from pokertui.widgets.format import chips
from pokertui.widgets.hand_log import HandLog, history_text
from pokertui.widgets.live_panel import LivePanel
from pokertui.widgets.messages import SpotFailed, SpotReady
from pokertui.widgets.table_view import TableView


def snapshot(session: Session) -> Session:
    """A shallow copy that keeps the current node and hand even if the player acts meanwhile
    (``act`` replaces ``node`` and ``new_hand`` appends to ``hands``; neither is mutated in
    place), so a worker can read it safely."""
    frozen = copy.copy(session)
    frozen.hands = session.hands[-1:]
    return frozen


class PlayScreen(TableScreen):
    HISTORY_SUFFIX = "-history.txt"
    BINDINGS = table_bindings(
        [
            Binding("f", "act('f')", "Fold", tooltip="fold"),
            Binding("c", "act('c')", "Check/Call", tooltip="check or call"),
            Binding("b,r", "act('b')", "Bet/Raise",
                    tooltip="bet or raise the first (smallest) size"),
            *(Binding(k, f"act('{k}')", f"Size {k}", show=False,
                      tooltip="bet or raise with size preset 1-4 (the sizes in order)")
              for k in "1234"),
            Binding("a", "act('a')", "Max", show=False,
                    tooltip="the largest bet or raise (all-in where stacks are set)"),
        ],
        [
            Binding("o", "toggle_part('odds')", "Odds", show=False,
                    tooltip="odds: pot odds, MDF, bluff share, alpha per size"),
            Binding("v", "toggle_part('evs')", "EVs", show=False,
                    tooltip="action EVs for your hand (best in green)"),
            Binding("g", "toggle_part('ranges')", "Ranges", show=False,
                    tooltip="ranges: the bot's and yours as the bot sees it"),
            Binding("e", "toggle_part('equity')", "Equity", show=False,
                    tooltip="equity against the bot's range"),
        ],
        amount="bet or raise a custom amount (checked by the session)",
        export="Export",
        history=f"the hand history as text to saves/NAME{HISTORY_SUFFIX}",
    )

    def __init__(self, session: Session, save_name: str, saves_dir: Path, hints: bool = True):
        super().__init__(session, save_name, saves_dir, hints)
        self.thinking = False
        """A worker is playing the human's bet (the bot re-solving the turn)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="play-main"):
            with Vertical(id="play-left"):
                yield TableView(id="table")
                yield ActionBar(id="actions")
                yield HandLog(id="log")
            yield LivePanel(id="live")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(LivePanel).display = self.hints
        if self.session.hand_over:
            self.session.new_hand()
        self.refresh_all()

    # --- rendering --------------------------------------------------------------------------
    def refresh_all(self) -> None:
        session = self.session
        self.sub_title = f"{Path(session.file.source).name} · {self.score_line()}"
        self.query_one(TableView).show(session)
        self.query_one(ActionBar).show(session.legal_options(), session.hand_over)
        self.query_one(HandLog).show(session)
        panel = self.query_one(LivePanel)
        if session.human_to_act:
            panel.show_note("computing…")
            self.compute_spot(snapshot(session), session.hand.number, session.node.key)
        else:
            panel.show_note("Hand over: n for the next hand, s to review it.")
            self.autosave()

    def score_tail(self, summary: dict) -> str:
        tail = f"net {chips(summary['net'])}"
        if summary["ev_lost_hands"]:
            tail += f" · EV lost {chips(round(summary['ev_lost_net'], 3))}"
        return tail

    @work(thread=True, exclusive=True, exit_on_error=False, group="spot")
    def compute_spot(self, frozen: Session, hand_number: int, node_key: str) -> None:
        try:
            spot = current_spot(frozen)
        except Exception as exc:  # noqa: BLE001 - shown in the panel; the game goes on
            self.post_message(SpotFailed(f"{type(exc).__name__}: {exc}", hand_number, node_key))
            return
        self.post_message(SpotReady(spot, hand_number, node_key))

    def is_live_decision(self, hand_number: int, node_key: str) -> bool:
        session = self.session
        return (
            session.human_to_act
            and session.hand.number == hand_number
            and session.node.key == node_key
        )

    @on(SpotReady)
    def show_spot(self, message: SpotReady) -> None:
        if self.is_live_decision(message.hand_number, message.node_key):
            game, seat = self.session.game, self.session.human_seat
            labels = game.hand_labels
            if message.spot.by_class:  # a postflop spot: 13x13 grids of the class mass
                from solvers.cards.deck import CLASS_LABELS  # noqa: PLC0415

                labels = (CLASS_LABELS, CLASS_LABELS)
            self.query_one(LivePanel).show_spot(message.spot, labels[1 - seat], labels[seat])

    @on(SpotFailed)
    def show_failure(self, message: SpotFailed) -> None:
        if self.is_live_decision(message.hand_number, message.node_key):
            self.query_one(LivePanel).show_note(f"live numbers unavailable: {message.error}")

    # --- the player's intents -----------------------------------------------------------------
    def action_act(self, key: str) -> None:
        session = self.session
        if not session.human_to_act:
            self.notify("The hand is over: press n for the next one.", timeout=2)
            return
        option = option_for_key(session.legal_options(), key)
        if option is None:
            self.notify(f"'{key}' is not available here.", severity="warning", timeout=2)
            return
        session.act(option.label)
        self.refresh_all()

    def action_custom_amount(self) -> None:
        if not self.session.human_to_act:
            return
        options = self.session.legal_options()
        sizes = [chips(o.amount) for o in options if o.kind == "aggressive"]
        self.app.push_screen(AmountDialog(sizes), self.bet_amount)

    def bet_amount(self, amount: float | None) -> None:
        if amount is None or not self.session.human_to_act or self.thinking:
            return
        if self.session.river_bot is None:  # no re-solve: the translation answers at once
            self.acted(self.act_amount(amount))
            return
        self.thinking = True  # a turn bet off the file's tree is re-solved: up to seconds
        self.query_one(LivePanel).show_note("the bot is thinking: re-solving the hand from "
                                            "your bet…")  # fmt: skip
        self.bet_in_background(amount)

    def act_amount(self, amount: float) -> str | None:
        """The session plays the human's bet; the refusal's message if it is not legal."""
        try:
            self.session.act_amount(amount)
        except IllegalActionError as exc:
            return str(exc)
        return None

    @work(thread=True, exclusive=True, exit_on_error=False, group="bot")
    def bet_in_background(self, amount: float) -> None:
        self.app.call_from_thread(self.acted, self.act_amount(amount))

    def acted(self, refused: str | None) -> None:
        self.thinking = False
        if refused is not None:
            self.notify(refused, severity="error", timeout=6)
        self.refresh_all()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the bot re-solves (the live panel says so), the hand waits: no action, amount,
        next hand or leaving."""
        return not (self.thinking and action in ("act", "custom_amount", "next_hand", "leave"))

    def deal_next_hand(self) -> None:
        self.session.new_hand()
        self.refresh_all()

    def action_toggle_hints(self) -> None:
        super().action_toggle_hints()
        self.app.remember_hints(self.hints)  # type: ignore[attr-defined]

    def action_toggle_part(self, part: str) -> None:
        panel = self.query_one(LivePanel)
        if not self.hints:
            self.action_toggle_hints()
        shown = panel.toggle_part(part)
        self.notify(f"{part}: {'shown' if shown else 'hidden'}", timeout=1.5)

    def review_screen(self) -> ReviewScreen:
        return ReviewScreen(self.session, self.history_path())

    def history_text(self) -> str:
        return history_text(self.session) + "\n"

    def save(self, path: Path) -> None:
        save_session(self.session, path)
