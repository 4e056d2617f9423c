"""Saved full-game sessions: the same atomic, backed-up JSON saves as ``saves.py``, another kind.

A save holds the game spec, the bot (a chump's name or a file's absolute path, ``resolve:`` and
its options kept before it), the re-solving bot's think time, the seat mode, the seed, the
generator's state, every finished hand (cards, the ACPC betting string, result and score) and,
from version 2, the unfinished hand (cards and the actions so far). Loading checks all of it:
types and ranges by the pydantic model, then each hand is replayed by the rules and its result
recomputed from the cards, so a corrupt or hand-edited save is a ``SaveError`` (and the backup
is tried) rather than a wrong score or a crash later.

An unfinished hand resumes at the decision where it was left, with its cards and betting. A
save between hands (and any version 1 save, which stored the generator as it was before an
unfinished hand's deal) resumes with a freshly seeded generator: the last save may predate a
hand that was dealt and seen but not saved, and dealing it again would let a player peek at
the cards and replay the hand.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pokertui.session.hunl_hand import HunlHand, HunlStep
from pokertui.session.hunl_session import THINK_LIMITS, HunlSession
from pokertui.session.save_format import RngState
from pokertui.session.saves import KIND_VERSIONS, SaveError, read_document, write_document
from solvers.agents.registry import RESOLVE_NAME, make_agent
from solvers.cards import evaluator
from solvers.errors import InputError
from solvers.games.hunl.rules import BOARD_CARDS, replay
from solvers.games.hunl.spec import hunl_spec_string, parse_hunl_spec

KIND = "pokertui-hunl-session"
SAVE_VERSION = KIND_VERSIONS[KIND]
"""2 saves the unfinished hand; version 1 saves still load."""
MAX_HANDS = 1_000_000
Card = Annotated[int, Field(ge=0, le=51)]
Text = Annotated[str, Field(max_length=10_000)]
Chips = Annotated[float, Field(ge=-1e9, le=1e9, allow_inf_nan=False)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class StepData(_Strict):
    seat: Literal[0, 1]
    action: Annotated[str, Field(max_length=16)]
    street: int = Field(ge=0, le=3)
    pot: int = Field(ge=0, le=10**9)
    to_call: int = Field(ge=0, le=10**9)
    evs: list[tuple[Annotated[str, Field(max_length=16)], Chips | None]] | None = Field(
        None, max_length=32
    )
    equity: float | None = Field(None, ge=0, le=1)


class InPlayData(_Strict):
    """The unfinished hand: its cards and the actions played so far."""

    number: int = Field(ge=1, le=10**9)
    human_seat: Literal[0, 1]
    hole: tuple[tuple[Card, Card], tuple[Card, Card]]
    board: tuple[Card, Card, Card, Card, Card]
    betting: Text
    steps: list[StepData] = Field(default_factory=list, max_length=1_000)


class HandData(InPlayData):
    """A finished hand: the same, and how it ended."""

    result: Chips
    adjusted: Chips
    showdown: bool


class Document(BaseModel):
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    format_version: int = Field(ge=1)
    kind: Literal["pokertui-hunl-session"]
    saved_at: Text = ""
    game: Text
    bot: Text = Field(min_length=1)
    think: float | None = Field(None, ge=THINK_LIMITS[0], le=THINK_LIMITS[1])
    seat_mode: Literal[0, 1] | None
    seed: int = Field(ge=0, lt=2**64)
    rng_state: RngState
    hands: list[HandData] = Field(default_factory=list, max_length=MAX_HANDS)
    in_play: InPlayData | None = None


def hunl_document(session: HunlSession) -> dict[str, Any]:
    finished = [h for h in session.hands if h.result is not None]
    return {
        "format_version": SAVE_VERSION,
        "kind": KIND,
        "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "game": hunl_spec_string(session.config),
        "bot": _resolved(session.bot_name),
        "think": session.think,
        "seat_mode": session.seat_mode,
        "seed": session.seed,
        "rng_state": session.rng.bit_generator.state,
        "hands": [_hand_dict(h) for h in finished],
        "in_play": None if session.hand_over else _in_play_dict(session),
    }


def _in_play_dict(session: HunlSession) -> dict[str, Any]:
    hand = session.hand
    return {**_dealt(hand, session.state.betting), "steps": [vars(s) for s in hand.steps]}


def _dealt(hand: HunlHand, betting: str) -> dict[str, Any]:
    """A hand's number, seat, cards and betting as a save holds them."""
    return {
        "number": hand.number,
        "human_seat": hand.human_seat,
        "hole": [list(hand.hole[0]), list(hand.hole[1])],
        "board": list(hand.board),
        "betting": betting,
    }


def _resolved(bot: str) -> str:
    """A bot file's absolute path (so a save resumes from any folder), after ``resolve:`` and
    its options for the re-solving bot; a chump's name as is."""
    matched = RESOLVE_NAME.match(bot)
    if matched is not None:
        options = f"({matched.group(2)})" if matched.group(2) is not None else ""
        return f"{matched.group(1)}{options}:{_resolved(matched.group(3).strip())}"
    path = Path(bot)
    return str(path.resolve()) if path.is_file() else bot


def _hand_dict(hand: HunlHand) -> dict[str, Any]:
    return {
        **_dealt(hand, hand.betting),
        "result": hand.result,
        "adjusted": hand.adjusted,
        "showdown": hand.showdown,
        "steps": [vars(step) for step in hand.steps],
    }


def save_hunl_session(session: HunlSession, path: Path) -> Path:
    return write_document(Path(path), hunl_document(session))


def load_hunl_session(path: Path) -> tuple[HunlSession, str | None]:
    """The saved session and a warning if it came from the backup."""
    path = Path(path)
    try:
        return _restore(read_document(path, (KIND,)), path), None
    except SaveError as problem:
        backup = path.with_suffix(".json.bak")
        if not backup.exists():
            raise
        try:
            session = _restore(read_document(backup, (KIND,)), backup)
        except SaveError as backup_problem:
            raise SaveError(f"{problem}; the backup failed too: {backup_problem}") from None
        return session, f"{problem}; resumed from the backup {backup.name} instead"


def _restore(data: dict[str, Any], path: Path) -> HunlSession:
    try:
        document = Document.model_validate(data)
    except ValidationError as exc:
        where = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'document'}: {e['msg']}"
            for e in exc.errors()[:5]
        )
        raise SaveError(f"{path} is corrupt: {where}") from None
    try:
        config = parse_hunl_spec(document.game)
        agent = make_agent(document.bot, config)
        session = HunlSession(config, agent, bot_name=document.bot, human_seat=document.seat_mode,
                              seed=document.seed, think=document.think)  # fmt: skip
        for data_hand in document.hands:
            hand = _checked_hand(data_hand, config)
            session.hands.append(hand)
            session.score.add(hand.result, hand.adjusted, hand.ev_lost())  # type: ignore[arg-type]
        if document.in_play is None:  # the next deal may have been seen: deal afresh
            session.rng = np.random.default_rng()
        else:
            _restore_in_play(session, document.in_play)
            session.rng.bit_generator.state = document.rng_state.model_dump()
    except SaveError:
        raise
    except InputError as exc:
        raise SaveError(f"cannot resume {path}: {exc}") from None
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise SaveError(f"{path} is corrupt ({type(exc).__name__}: {exc})") from None
    return session


def _step(data: StepData) -> HunlStep:
    fields = data.model_dump()
    if fields["evs"] is not None:  # stored as pairs; the session keeps lists
        fields["evs"] = [list(pair) for pair in fields["evs"]]
    return HunlStep(**fields)


def _checked_hand(data: HandData, config) -> HunlHand:
    where = f"hand {data.number}"
    cards = [*data.hole[0], *data.hole[1], *data.board]
    if len(set(cards)) != len(cards):
        raise SaveError(f"{where}: a card is dealt twice")
    state = replay(data.betting, config)
    if not state.is_over:
        raise SaveError(f"{where}: the betting {data.betting[:40]!r} does not finish the hand")
    winner = None
    if state.folded < 0:
        strengths = [evaluator.evaluate_hand([*data.hole[s], *data.board]) for s in (0, 1)]
        winner = None if strengths[0] == strengths[1] else int(strengths[1] > strengths[0])
    result = float(state.payoff(winner)[data.human_seat])
    if result != data.result:
        raise SaveError(f"{where}: the result {data.result:g} does not follow from the cards")
    hand = HunlHand(
        data.number,
        data.human_seat,
        (tuple(data.hole[0]), tuple(data.hole[1])),  # type: ignore[arg-type]
        tuple(data.board),
        steps=[_step(step) for step in data.steps],
        result=result,
        adjusted=data.adjusted,
        showdown=state.folded < 0,
        betting=data.betting,
        board_reached=5 if state.folded < 0 else BOARD_CARDS[state.street],
    )
    return hand


def _restore_in_play(session: HunlSession, data: InPlayData) -> None:
    """The unfinished hand, replayed by the session up to the decision where it was left."""
    where = f"the unfinished hand {data.number}"
    if len({*data.hole[0], *data.hole[1], *data.board}) != 9:
        raise SaveError(f"{where}: a card is dealt twice")
    hand = HunlHand(
        data.number,
        data.human_seat,
        (tuple(data.hole[0]), tuple(data.hole[1])),  # type: ignore[arg-type]
        tuple(data.board),
    )
    try:
        session.restore_hand(hand, [_step(step) for step in data.steps])
    except InputError as exc:
        raise SaveError(f"{where} cannot be resumed: {exc}") from None
    if session.state.betting != data.betting:
        raise SaveError(f"{where}: its actions do not give the betting {data.betting[:40]!r}")
