"""Where pokertui finds its shipped strategies and keeps saves and settings."""

from __future__ import annotations

import os
import re
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def strategies_dir() -> Path:
    """Shipped strategies: ``$POKERTUI_STRATEGIES`` or the repository's ``strategies/``."""
    return Path(os.environ.get("POKERTUI_STRATEGIES", _REPO / "strategies"))


def saves_dir() -> Path:
    """Saved sessions: ``$POKERTUI_SAVES`` or the repository's ``saves/``."""
    return Path(os.environ.get("POKERTUI_SAVES", _REPO / "saves"))


def default_strategy_path() -> Path:
    from solvers.runs.shipped import DEFAULT_BOT  # noqa: PLC0415 - loads every game; only when needed

    return strategies_dir() / DEFAULT_BOT


def shipped_bot_names(shipped_dir: Path) -> list[str]:
    """The shipped bots' short names (``leduc``, ``kuhn``…): their file names without ``.json``."""
    return sorted(p.stem for p in Path(shipped_dir).glob("*.json") if p.is_file())


def resolve_bot(text: str, shipped_dir: Path) -> str:
    """A strategy path for what the user typed: an existing path as it is, else a shipped bot's
    name with or without ``.json`` (``leduc``); anything else unchanged, for the loader to
    report."""
    text = text.strip()
    if not text or Path(text).exists():
        return text
    for candidate in (text, f"{text}.json"):
        shipped = Path(shipped_dir) / candidate
        if "/" not in candidate and shipped.is_file():
            return str(shipped)
    return text


def shipped_hunl_bots(shipped_dir: Path) -> list[Path]:
    """The shipped full-game bots: ``hunl_*`` files (``hunl_100bb.*``) in the strategies folder."""
    return sorted(p for p in Path(shipped_dir).glob("hunl_*") if p.is_file())


RESOLVE_PREFIX = re.compile(r"^(resolve(?:-safe)?\s*(?:\([^()]*\))?\s*:)(.*)$", re.I | re.S)
"""``resolve:`` and its options before a bot (``solvers.agents.registry.RESOLVE_NAME``'s
grammar, repeated so that the app starts without the solvers)."""


DEFAULT_RESOLVE = "resolve(flop-tree=turn,flop-sample=10):"
"""The default bot's re-solving options: its flop solve plays the turn's bets too, 10 of the 49
turn cards drawn an iteration, so its flop play costs about a fifth of what the checked-down
flop's does (``docs/resolve.md``, "Sampled turn cards"), in up to the flop's 15 s."""


ANALYSIS_RESOLVE = "resolve:"
"""The analyzer's model of the opponent: the re-solving bot with the quick flop (turn and river
checked down in the flop's tree), a fifth of a second a flop decision. With ``DEFAULT_RESOLVE``
a flop decision took 17.7 s (median of 10) and 200 hands about 27 minutes on two cores shared
with another job (``bench_analyze.py --hands 16``), against 1.70 s and 10.9 minutes idle."""


def default_hunl_bot(shipped_dir: Path, stack_bb: float, resolve: str = DEFAULT_RESOLVE) -> str:
    """The full game's default bot: the re-solving bot (``resolve``, the app's by default) over
    the shipped blueprint of this depth (``strategies/hunl_100bb.npz``), or ``call`` while there
    is none."""
    for path in shipped_hunl_bots(shipped_dir):
        if path.name.split(".")[0] == f"hunl_{stack_bb:g}bb":
            return f"{resolve}{path}"
    return "call"


def think_options(think: float) -> str:
    """The re-solving options of a think time: ``think`` seconds on the turn, three times that
    on the flop, a tenth on the river (the app's scaling, ``hunl_session.set_think``)."""
    return f"flop={3 * think:g},turn={think:g},river={think / 10:g}"


def with_resolve_options(name: str, options: str) -> str:
    """``name`` (a ``resolve(...):BOT``) with ``options`` added to its own (which win)."""
    prefixed = RESOLVE_PREFIX.match(name)
    if prefixed is None:
        return name
    head, base = prefixed.group(1), prefixed.group(2)
    kind, _, rest = head.partition("(")
    kind = kind.rstrip(":").strip()
    own = rest.rpartition(")")[0].strip() if rest else ""
    return f"{kind}({', '.join(filter(None, (options, own)))}):{base}"


def resolve_hunl_bot(
    text: str | None, shipped_dir: Path, stack_bb: float, resolve: str = DEFAULT_RESOLVE
) -> str:
    """The full game's bot for what the user typed: an existing path or a chump's name as it is,
    a shipped bot by its name without the ending (``hunl_100bb``: the blueprint alone), the same
    after ``resolve:``, and ``resolve(...):`` with no bot after it over the shipped blueprint of
    this depth; nothing typed means ``default_hunl_bot`` (with ``resolve``)."""
    if text is None or not text.strip():
        return default_hunl_bot(shipped_dir, stack_bb, resolve)
    text = text.strip()
    prefixed = RESOLVE_PREFIX.match(text)
    if prefixed is not None:
        base = prefixed.group(2).strip()
        if not base:
            default = default_hunl_bot(shipped_dir, stack_bb)
            matched = RESOLVE_PREFIX.match(default)
            base = default if matched is None else matched.group(2)
        return prefixed.group(1) + resolve_hunl_bot(base, shipped_dir, stack_bb)
    if Path(text).exists():
        return text
    for path in shipped_hunl_bots(shipped_dir):
        if path.name.split(".")[0] == text:
            return str(path)
    return text
