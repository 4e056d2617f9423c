"""The full game's spec string: ``hunl(stack_bb=100)``, as typed on the command line and in the app.

It uses the same grammar as every other game spec (``games/spec.py``); ``stack_bb`` may be given
bare (``hunl(200)``), the blinds are whole chips (ACPC: 50/100). The canonical string names every
parameter, so it round-trips and can be written into saves and file headers.
"""

from __future__ import annotations

from typing import Any

from solvers.games.hunl.rules import HunlConfig
from solvers.games.params import GameParamError, GameParams, format_spec, validate_params
from solvers.games.spec import split_spec

NAME = "hunl"


class HunlParams(GameParams):
    positional = ("stack_bb",)
    stack_bb: float = 100.0
    small_blind: int = 50
    big_blind: int = 100


def is_hunl_spec(text: Any) -> bool:
    return isinstance(text, str) and text.strip().split("(", 1)[0].strip() == NAME


def parse_hunl_spec(text: str) -> HunlConfig:
    """The game of a ``hunl(...)`` spec; ``GameParamError`` (an InputError) says what is wrong."""
    name, args, kwargs = split_spec(text)
    if name != NAME:
        raise GameParamError(f"not a heads-up no-limit hold'em spec: {text[:80]!r}")
    if len(args) > 1:
        raise GameParamError("hunl: only stack_bb may be given without its name")
    if args:
        if "stack_bb" in kwargs:
            raise GameParamError("hunl: 'stack_bb' given twice")
        kwargs["stack_bb"] = args[0]
    params = validate_params(NAME, HunlParams, kwargs)
    assert isinstance(params, HunlParams)
    try:
        return HunlConfig(params.stack_bb, params.small_blind, params.big_blind)
    except GameParamError:
        raise
    except ValueError as exc:
        raise GameParamError(f"hunl: {exc}") from None


def hunl_spec_string(config: HunlConfig) -> str:
    params = HunlParams(
        stack_bb=config.stack_bb, small_blind=config.small_blind, big_blind=config.big_blind
    )
    return format_spec(NAME, params)
