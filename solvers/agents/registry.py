"""Which bot plays: ``make_agent`` turns a name (``call``, ``random``), a file or
``resolve:`` before either (the re-solving bot over it) into an Agent.

Every front end (the app's new-game dialog, ``pokertui play --game hunl(...)``, LBR) asks this
one function, so a new kind of bot (the blueprint file) is added here once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

from solvers.agents.blueprint import blueprint_file_loader
from solvers.agents.chumps import AlwaysCall, CallRaiseHalf, RandomActionAgent, RandomAgent
from solvers.agents.exploiters import (
    CheckRaiser,
    FlopShover,
    MinBetter,
    Overbetter,
    ThreeBettor,
)
from solvers.agents.resolving import (
    DEFAULT_SECONDS,
    DEFAULT_SIZES,
    FLOP_TREES,
    SAFE_STREETS,
    SAMPLED_FLOP_ITERATIONS,
    ResolvingAgent,
)
from solvers.agents.safe_resolve import GADGETS
from solvers.errors import InputError
from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import HunlConfig
from solvers.user_files import unreadable_bot_file

CHUMPS: dict[str, Callable[[], Agent]] = {
    "call": AlwaysCall,
    "always-call": AlwaysCall,
    "random": RandomAgent,
    "call-raise": CallRaiseHalf,
    "random-action": RandomActionAgent,
    "min-bet": MinBetter,
    "overbet": Overbetter,
    "flop-shove": FlopShover,
    "check-raise": CheckRaiser,
    "3bet": ThreeBettor,
}
"""Bots that ignore their cards, by the names the command line and the app accept: the chumps
and the scripted opponents (``exploiters.py``)."""

FILE_LOADERS: list[Callable[[str, HunlConfig], Agent | None]] = [blueprint_file_loader]
"""Loaders of bot files, tried in order: each returns an Agent, None when the file is not its
kind, or raises ``InputError`` for a file of its kind that is broken or for another game."""


RESOLVE_PREFIX = "resolve"
"""``resolve:BOT`` re-solves the flop, turn and river over ``BOT`` (a blueprint file or a
chump); ``resolve(flop=15,turn=2,river=0.5,target=1,iterations=300):BOT`` sets the budgets
(``OPTIONS``); ``resolve(from=turn):BOT`` plays ``BOT``'s flop and re-solves turn and river."""
SAFE_RESOLVE_PREFIX = "resolve-safe"
"""The same with the turn and river re-solved through a gadget (``agents/safe_resolve.py``) and
the base bot's flop (the flop re-solve has no gadget; ``from=flop`` adds it, range-only):
maxmargin unless ``gadget=resolve`` (on 12 spots of 3 boards it met the 1% stop sooner, with
every opponent hand further under its alternative and the total lower, ``docs/resolve.md``)."""
OPTIONS = {
    "flop": "seconds of the flop's solve",
    "turn": "seconds of the turn's solve",
    "river": "seconds of the river's solve",
    "target": "stop at this exploitability, % of the pot",
    "iterations": "stop after this many iterations (default 100; alone: no clock, "
    "reproducible)",
    "flop-iterations": "the flop solve's cap instead of iterations= (a sampled flop draws a "
    "few turn cards an iteration: 500 unless iterations= is given; alone: no clock on the "
    "flop)",
    "from": "the first re-solved street: flop (default), turn or river",
    "gadget": "the gadget of the safe solves and of the node re-solves after an off-tree bet: "
    "resolve (resolve:'s default) or maxmargin (resolve-safe:'s default)",
    "flop-tree": "the flop re-solve's tree: checkdown (the default: the flop's bets, then the "
    "turn and river checked down) or turn (the turn's bets too, the river checked down)",
    "flop-sample": "with flop-tree=turn: turn cards the flop's solve walks an iteration, drawn "
    "afresh each (public chance sampling; 0, the default, walks all 49)",
    "turn-sample": "rivers the turn's solve walks an iteration, drawn afresh each (public "
    "chance sampling; 0, the default, walks all 48; range-only solves)",
    "floor": "each hand of the opponent's modelled range weighs at least this share of the "
    "heaviest, 0 to 1 (default 0.05)",
}
STREET_OF_OPTION = {"flop": 1, "turn": 2, "river": 3}
FLOP_TREE_CHOICES = ("checkdown", "turn")
"""The flop trees a user may pick (``resolving.FLOP_TREES`` holds the benchmark's others)."""
MAX_SECONDS = 3600.0
SAMPLE_LIMITS = {"flop-sample": (49, "turn cards"), "turn-sample": (48, "rivers")}
"""The cards after a flop and after a turn: sampling more walks them all."""
MAX_ITERATIONS = 1_000_000
ITERATION_KEYWORDS = {"iterations": "max_iterations", "flop-iterations": "flop_iterations"}
RESOLVE_NAME = re.compile(r"^(resolve-safe|resolve)\s*(?:\(([^()]*)\))?\s*:(.*)$", re.I | re.S)
RESOLVE_LIKE = re.compile(r"^resolve(-safe)?\s*[(:]", re.I)
"""What the user meant as a re-solving bot, well formed or not."""


def resolve_options(text: str, streets: tuple[int, ...] = (1, 2, 3)) -> dict:
    """``turn=2, iterations=300`` as ``ResolvingAgent`` keywords; a bad key or value raises
    ``InputError`` naming it. Iterations alone switch the clock off (budgets ``inf``).
    ``streets``: the re-solved streets unless ``from=`` says otherwise (the safe bot's start
    at the turn), so that a flop option on a bot that plays the base agent's flop is refused."""
    seconds: dict[int, float] = {}
    keywords: dict = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, equals, value = (piece.strip() for piece in item.partition("="))
        key = key.lower()
        if key not in OPTIONS or not equals:
            raise InputError(f"re-solving option {item!r}: use key=value with a key among "
                             + ", ".join(f"{k} ({v})" for k, v in OPTIONS.items()))  # fmt: skip
        if key == "gadget":
            if value.lower() not in GADGETS:
                raise InputError(f"gadget={value!r}: choose {' or '.join(GADGETS)}")
            keywords["gadget"] = value.lower()
            continue
        if key == "flop-tree":
            if value.lower() not in FLOP_TREE_CHOICES:
                raise InputError(f"flop-tree={value!r}: choose {' or '.join(FLOP_TREE_CHOICES)}")
            keywords["sizes"] = {**DEFAULT_SIZES, 1: FLOP_TREES[value.lower()]}
            continue
        if key == "from":
            if value.lower() not in STREET_OF_OPTION:
                raise InputError(f"from={value!r}: re-solve from the flop, turn or river")
            keywords["streets"] = tuple(range(STREET_OF_OPTION[value.lower()], 4))
            continue
        try:
            number = float(value)
        except ValueError:
            raise InputError(f"re-solving option {key}={value!r} is not a number") from None
        if key in ITERATION_KEYWORDS:
            if not (1 <= number <= MAX_ITERATIONS and number == int(number)):
                raise InputError(f"{key}={value} must be a whole number, 1 to "
                                 f"{MAX_ITERATIONS:,}")  # fmt: skip
            keywords[ITERATION_KEYWORDS[key]] = int(number)
        elif key in SAMPLE_LIMITS:
            most, cards = SAMPLE_LIMITS[key]
            if not (0 <= number <= most and number == int(number)):
                raise InputError(f"{key}={value} must be a whole number, 0 to {most} ({cards} "
                                 "an iteration)")  # fmt: skip
            keywords[key.replace("-", "_")] = int(number)
        elif key == "floor":
            if not 0 <= number <= 1:
                raise InputError(f"floor={value} must be 0 to 1 (a share of the heaviest hand)")
            keywords["range_floor"] = number
        elif key == "target":
            if not 0 < number <= 100:
                raise InputError(f"target={value} must be above 0 and at most 100 (% of the pot)")
            keywords["target_pct"] = number
        else:
            if not 0 < number <= MAX_SECONDS:
                raise InputError(f"{key}={value} must be above 0 and at most {MAX_SECONDS:g} s")
            seconds[STREET_OF_OPTION[key]] = number
    if 1 not in keywords.get("streets", streets):  # the base agent plays the flop
        flop_options = (("flop=", 1 in seconds), ("flop-tree=", "sizes" in keywords),
                        ("flop-iterations=", "flop_iterations" in keywords))  # fmt: skip
        for name, given in flop_options:
            if given:
                raise InputError(f"{name} sets the flop's solve, and this bot plays its base "
                                 "bot's flop (from=turn or river, or resolve-safe: without "
                                 "from=flop)")  # fmt: skip
    if keywords.get("flop_sample") and keywords.get("sizes", {}).get(1) is not FLOP_TREES["turn"]:
        raise InputError("flop-sample= samples the turn cards of the flop's solve: it needs "
                         "flop-tree=turn")  # fmt: skip
    if "max_iterations" in keywords or "flop_iterations" in keywords or seconds:
        clock = dict(DEFAULT_SECONDS)
        if not seconds:  # iterations alone: no clock on the streets they cap
            capped = clock if "max_iterations" in keywords else (1,)
            clock.update(dict.fromkeys(capped, math.inf))
        keywords["seconds"] = {**clock, **seconds}
    if keywords.get("flop_sample") and "max_iterations" not in keywords:  # the clock stays on
        keywords.setdefault("flop_iterations", SAMPLED_FLOP_ITERATIONS)
    return keywords


def agent_names() -> list[str]:
    return sorted(CHUMPS)


def make_agent(name_or_path: str, config: HunlConfig) -> Agent:
    """The bot called ``name_or_path`` (a chump's name, or a bot file) for the game ``config``."""
    text = str(name_or_path).strip()
    matched = RESOLVE_NAME.match(text)
    if matched is not None:
        prefix, options, base = matched.group(1).lower(), matched.group(2) or "", matched.group(3)
        base = base.strip()
        if not base or RESOLVE_NAME.match(base):
            raise InputError(f"{prefix}: name the bot it re-solves over, e.g. "
                             f"{prefix}:BLUEPRINT_FILE")  # fmt: skip
        safe = prefix == SAFE_RESOLVE_PREFIX
        keywords = resolve_options(options, SAFE_STREETS if safe else (1, 2, 3))
        if safe:
            if keywords.get("turn_sample"):
                raise InputError("turn-sample= samples the range-only turn solve; resolve-safe "
                                 "solves the turn through its gadget")  # fmt: skip
            keywords.setdefault("gadget", "maxmargin")
            keywords.setdefault("streets", SAFE_STREETS)
        return ResolvingAgent(make_agent(base, config), safe=safe,
                              name=text, **keywords)  # fmt: skip
    if RESOLVE_LIKE.match(text) and not Path(text).is_file():
        raise InputError(f"malformed re-solving bot {text!r}: write resolve(key=value, ...):BOT "
                         "or resolve-safe(...):BOT, options without brackets of their own")
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
        try:
            agent = loader(str(path), config)
        except OSError as exc:  # a regular file that fails to read (a disk error, /proc)
            raise unreadable_bot_file(text, exc) from exc
        if agent is not None:
            return agent
    raise InputError(f"{text} is not a bot file for heads-up no-limit hold'em")
