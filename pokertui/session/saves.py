"""Saved sessions: versioned JSON in ``saves/``, written atomically with a backup.

A save holds the session's settings, the strategy file it plays, every finished hand and the
random generator's state, so a resumed session deals exactly the cards the original would have.
Writing goes to a temporary file that is fsynced and renamed over the save, after the previous
save has been copied to ``NAME.json.bak``; a crash at any moment leaves a good save or a good
backup. Loading a save that is corrupt or from a newer pokertui falls back to the backup and
says so.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from pokertui.session.deal import Deal, has_hole_cards
from pokertui.session.save_format import HandData, check_against_game, parse_document
from pokertui.session.session import HandRecord, Session, Step
from solvers.atomic import atomic_write, atomic_write_text, check_output_path, clean_stale_temps
from solvers.errors import InputError
from solvers.strategy_file import load_strategy
from solvers.user_files import load_user_json

SAVE_VERSION = 1
KIND_VERSIONS = {"pokertui-session": SAVE_VERSION, "pokertui-hunl-session": 2}
"""The newest save version of each kind (a full-game save holds its unfinished hand from 2)."""
MAX_SAVE_BYTES = 64 * 2**20
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class SaveError(InputError):
    """A save that cannot be read or written; the message says what to do."""

    newer = False
    """Whether the save came from a newer pokertui (it must then never be overwritten)."""


def save_path(saves_dir: Path, name: str) -> Path:
    if not _NAME.match(name) or name.endswith((".bak", ".tmp")):
        raise SaveError(
            f"save names use letters, digits, '_', '-' and '.', up to 64 characters: {name!r}"
        )
    return Path(saves_dir) / f"{name.removesuffix('.json')}.json"


def _hand_to_dict(hand: HandRecord) -> dict[str, Any]:
    data = asdict(hand)
    data["deal"] = asdict(hand.deal)
    return data


def _hand_from_data(data: HandData) -> HandRecord:
    deal_data = data.deal
    hole = deal_data.hole_cards
    deal = Deal(
        hands=(deal_data.hands[0], deal_data.hands[1]),
        hole_cards=(tuple(hole[0]), tuple(hole[1])) if hole else None,
        board=list(deal_data.board),
    )
    steps = []
    for step in data.steps:
        fields = step.model_dump()
        if fields["mapped"] is not None:  # stored as pairs; the session keeps lists
            fields["mapped"] = [list(pair) for pair in fields["mapped"]]
        steps.append(Step(**fields))
    return HandRecord(
        number=data.number,
        human_seat=data.human_seat,
        deal=deal,
        steps=steps,
        result=data.result,
        ev_adjusted=data.ev_adjusted,
        showdown=data.showdown,
    )


def session_document(session: Session) -> dict[str, Any]:
    finished = [h for h in session.hands if h.result is not None]
    return {
        "format_version": SAVE_VERSION,
        "kind": "pokertui-session",
        "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "strategy_file": _resolved(session.file.source),
        "game": session.game.spec_string(),
        "seat_mode": session.seat_mode,
        "seed": session.seed,
        "bot_mode": session.bot_mode,
        "threshold": session.threshold_cutoff,
        "rng_state": session.rng.bit_generator.state if session.hand_over else session.rng_at_deal,
        "hands": [_hand_to_dict(h) for h in finished],
    }


def _resolved(source: str) -> str:
    """The strategy path made absolute, so a save resumes from any working folder."""
    try:
        return str(Path(source).resolve())
    except (OSError, RuntimeError, ValueError):
        return source


def save_session(session: Session, path: Path) -> Path:
    """Write the session's finished hands; the previous good save becomes ``.bak``.

    A save written by a newer pokertui is never overwritten, and a corrupt save never
    replaces a good backup.
    """
    return write_document(Path(path), session_document(session))


def write_document(path: Path, document: dict[str, Any]) -> Path:
    """Write a save document atomically; the previous good save becomes ``.bak``."""
    text = json.dumps(document, indent=1) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        check_output_path(path, "save")
        if path.exists():
            previous = _previous_save(path)
            if previous == "newer":
                raise SaveError(
                    f"{path} was written by a newer pokertui; not overwriting it "
                    "(save under another name, or upgrade)"
                )
            if previous == "good":

                def copy(out: BinaryIO) -> None:
                    out.write(path.read_bytes())

                atomic_write(path.with_suffix(".json.bak"), copy)
        atomic_write_text(path, text)
        for leftover in (path, path.with_suffix(".json.bak")):
            clean_stale_temps(leftover)  # from a process killed mid-write
    except SaveError:
        raise
    except (OSError, InputError) as exc:
        raise SaveError(f"cannot save to {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return path


SAVE_KINDS = ("pokertui-session", "pokertui-hunl-session")
"""A session against a strategy file, and a full-game session against an agent."""


def _previous_save(path: Path) -> str:
    """``good``, ``newer`` (from a later pokertui) or ``bad`` for the save at ``path``."""
    try:
        return "good" if read_document(path, SAVE_KINDS) else "bad"
    except SaveError as exc:
        return "newer" if getattr(exc, "newer", False) else "bad"


def save_kind(path: Path) -> str | None:
    """The kind of session a save holds, or None when it cannot be read as a save."""
    try:
        return str(read_document(Path(path), SAVE_KINDS)["kind"])
    except SaveError:
        return None


def _read(path: Path) -> dict[str, Any]:
    return read_document(path, ("pokertui-session",))


def read_document(path: Path, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The JSON of a save of one of ``kinds``; ``SaveError`` if it is not one or is newer."""
    try:
        data = load_user_json(path, MAX_SAVE_BYTES, "save")
    except InputError as exc:
        raise SaveError(f"{path} is corrupt or unreadable ({exc})") from None
    if not isinstance(data, dict) or data.get("kind") not in kinds:
        raise SaveError(f"{path} is not a pokertui save of this kind")
    version = data.get("format_version")
    newest = KIND_VERSIONS.get(data["kind"], SAVE_VERSION)
    if isinstance(version, int) and not isinstance(version, bool) and version > newest:
        error = SaveError(
            f"{path} was written by a newer pokertui (save version {version}); upgrade to open it"
        )
        error.newer = True
        raise error
    return data


def _restore(data: dict[str, Any], path: Path) -> Session:
    try:
        document = parse_document(data)
        strategy = load_strategy(document.strategy_file)
        if strategy.game.spec_string() != document.game:
            raise SaveError(f"{path}: its strategy file now holds a different game")
        check_against_game(document, strategy.game, has_hole_cards(strategy.game))
        session = Session(
            strategy,
            human_seat=document.seat_mode,
            seed=document.seed,
            bot_mode=document.bot_mode,
            threshold_cutoff=document.threshold,
        )
        session.rng.bit_generator.state = document.rng_state.model_dump()
        for hand_data in document.hands:
            hand = _hand_from_data(hand_data)
            assert hand.result is not None and hand.ev_adjusted is not None  # saved hands: both
            session.hands.append(hand)
            session.score.add(hand.result, hand.ev_adjusted, hand.ev_lost)
    except SaveError:
        raise
    except InputError as exc:
        raise SaveError(f"cannot resume {path}: {exc}") from None
    except (KeyError, TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise SaveError(f"{path} is corrupt ({type(exc).__name__}: {exc})") from None
    return session


def load_session(path: Path) -> tuple[Session, str | None]:
    """The saved session and a warning if it came from the backup; ``SaveError`` if neither
    the save nor its backup can be used."""
    path = Path(path)
    backup = path.with_suffix(".json.bak")
    try:
        return _restore(_read(path), path), None
    except SaveError as problem:
        if not backup.exists():
            raise
        try:
            session = _restore(_read(backup), backup)
        except SaveError as backup_problem:
            raise SaveError(f"{problem}; the backup failed too: {backup_problem}") from None
        return session, f"{problem}; resumed from the backup {backup.name} instead"
