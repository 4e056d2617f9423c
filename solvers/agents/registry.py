"""Which bot plays: ``make_agent`` turns a name (``call``, ``random``), a file or
``resolve:`` before either (the re-solving bot over it) into an Agent.

Every front end (the app's new-game dialog, ``pokertui play --game hunl(...)``, LBR) asks this
one function, so a new kind of bot (the blueprint file) is added here once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from solvers.agents.blueprint import blueprint_file_loader
from solvers.agents.chumps import AlwaysCall, CallRaiseHalf, RandomActionAgent, RandomAgent
from solvers.agents.resolving import ResolvingAgent
from solvers.errors import InputError
from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import HunlConfig

CHUMPS: dict[str, Callable[[], Agent]] = {
    "call": AlwaysCall,
    "always-call": AlwaysCall,
    "random": RandomAgent,
    "call-raise": CallRaiseHalf,
    "random-action": RandomActionAgent,
}
"""Bots that ignore their cards, by the names the command line and the app accept."""

FILE_LOADERS: list[Callable[[str, HunlConfig], Agent | None]] = [blueprint_file_loader]
"""Loaders of bot files, tried in order: each returns an Agent, None when the file is not its
kind, or raises ``InputError`` for a file of its kind that is broken or for another game."""


RESOLVE_PREFIX = "resolve:"
"""``resolve:BOT`` re-solves the turn and river over ``BOT`` (a blueprint file or a chump)."""
SAFE_RESOLVE_PREFIX = "resolve-safe:"
"""The same with the river re-solved through the resolve gadget (``agents/safe_resolve.py``)."""


def agent_names() -> list[str]:
    return sorted(CHUMPS)


def make_agent(name_or_path: str, config: HunlConfig) -> Agent:
    """The bot called ``name_or_path`` (a chump's name, or a bot file) for the game ``config``."""
    text = str(name_or_path).strip()
    for prefix, safe in ((RESOLVE_PREFIX, False), (SAFE_RESOLVE_PREFIX, True)):
        if text.lower().startswith(prefix):
            base = text[len(prefix) :].strip()
            if not base or base.lower().startswith((RESOLVE_PREFIX, SAFE_RESOLVE_PREFIX)):
                raise InputError(f"{prefix} name the bot it re-solves over, e.g. "
                                 f"{prefix}BLUEPRINT_FILE")  # fmt: skip
            return ResolvingAgent(make_agent(base, config), safe=safe)
    factory = CHUMPS.get(text.lower())
    if factory is not None:
        return factory()
    if not text:
        raise InputError(f"choose a bot: {', '.join(agent_names())} or a bot file")
    path = Path(text)
    if not path.is_file():
        raise InputError(
            f"no bot {text!r}: not a file, and the built-in bots are {', '.join(agent_names())}"
        )
    for loader in FILE_LOADERS:
        agent = loader(str(path), config)
        if agent is not None:
            return agent
    raise InputError(f"{text} is not a bot file for heads-up no-limit hold'em")
