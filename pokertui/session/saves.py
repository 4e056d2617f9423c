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
import shutil
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pokertui.session.deal import Deal
from pokertui.session.session import HandRecord, Session, Step
from solvers.atomic import atomic_write_text
from solvers.errors import InputError
from solvers.strategy_file import load_strategy

SAVE_VERSION = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class SaveError(InputError):
    """A save that cannot be read or written; the message says what to do."""


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


def _hand_from_dict(data: dict[str, Any]) -> HandRecord:
    deal_data = data["deal"]
    hole = deal_data.get("hole_cards")
    deal = Deal(
        hands=tuple(deal_data["hands"]),  # type: ignore[arg-type]
        hole_cards=tuple(tuple(h) for h in hole) if hole else None,  # type: ignore[arg-type]
        board=list(deal_data.get("board", [])),
    )
    steps = [Step(**step) for step in data["steps"]]
    return HandRecord(
        number=data["number"],
        human_seat=data["human_seat"],
        deal=deal,
        steps=steps,
        result=data["result"],
        ev_adjusted=data["ev_adjusted"],
        showdown=data.get("showdown", False),
    )


def session_document(session: Session) -> dict[str, Any]:
    finished = [h for h in session.hands if h.result is not None]
    return {
        "format_version": SAVE_VERSION,
        "kind": "pokertui-session",
        "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "strategy_file": session.file.source,
        "game": session.game.spec_string(),
        "seat_mode": session.seat_mode,
        "seed": session.seed,
        "bot_mode": session.bot_mode,
        "threshold": session.threshold_cutoff,
        "rng_state": session.rng.bit_generator.state if session.hand_over else session.rng_at_deal,
        "hands": [_hand_to_dict(h) for h in finished],
    }


def save_session(session: Session, path: Path) -> Path:
    """Write the session's finished hands; the previous save becomes ``.bak``."""
    path = Path(path)
    text = json.dumps(session_document(session), indent=1) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            shutil.copy2(path, path.with_suffix(".json.bak"))
        atomic_write_text(path, text)
    except OSError as exc:
        raise SaveError(f"cannot save to {path}: {exc.strerror}") from None
    return path


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveError(f"{path} is corrupt ({exc})") from None
    if not isinstance(data, dict) or data.get("kind") != "pokertui-session":
        raise SaveError(f"{path} is not a pokertui save")
    version = data.get("format_version")
    if not isinstance(version, int) or version > SAVE_VERSION:
        raise SaveError(
            f"{path} was written by a newer pokertui (save version {version}); upgrade to open it"
        )
    return data


def _restore(data: dict[str, Any], path: Path) -> Session:
    try:
        strategy = load_strategy(data["strategy_file"])
        session = Session(
            strategy,
            human_seat=data["seat_mode"],
            seed=data["seed"],
            bot_mode=data["bot_mode"],
            threshold_cutoff=data["threshold"],
        )
        if strategy.game.spec_string() != data["game"]:
            raise SaveError(f"{path}: its strategy file now holds a different game")
        session.rng.bit_generator.state = data["rng_state"]
        for hand_data in data["hands"]:
            hand = _hand_from_dict(hand_data)
            session.hands.append(hand)
            session.score.add(hand.result, hand.ev_adjusted, hand.ev_lost)
    except InputError as exc:
        raise SaveError(f"cannot resume {path}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
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


def list_saves(saves_dir: Path) -> list[Path]:
    return sorted(p for p in Path(saves_dir).glob("*.json") if p.is_file())
