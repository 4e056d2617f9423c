"""Game spec strings such as ``kuhn(cards=8)`` or ``matrix([[0,-1],[1,0]])``, and the registry.

A spec is a game name, optionally followed by arguments in parentheses: ``name=value`` pairs, or
bare values for the fields a game lists in ``positional``. Values are numbers, identifiers,
double-quoted strings (``board="Qs Jh 2h"``, no escapes) or bracketed lists of values. A path
ending in ``.toml`` is a hold'em spot file instead (``solvers.games.holdem.spot``). Parsing is a
small tokenizer and recursive descent (never ``eval``); the values are then validated by the
game's pydantic parameter model.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from solvers.games.params import GameParamError, GameParams, format_spec, validate_params

_TOKEN = re.compile(
    r"\s*(?:(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<string>\"[^\"]*\")|(?P<punct>[()\[\],=]))"
)

MAX_SPEC_CHARS = 1_000_000
"""Longest spec accepted (a 500 x 500 matrix of short numbers fits)."""
MAX_SPEC_DEPTH = 8
"""Deepest bracket nesting accepted: no game takes more than lists of lists."""
MAX_NUMBER_CHARS = 40
"""Longest number token: longer ones are typos or attacks, and Python refuses 4,300+ digits."""


class GameClass(Protocol):
    """What ``register_game`` needs of a game class (read off the class object itself)."""

    @property
    def name(self) -> str: ...

    @property
    def params_model(self) -> type[GameParams]: ...

    def from_params(self, params: Any) -> Any: ...


_GameClassT = TypeVar("_GameClassT", bound=GameClass)

GAMES: dict[str, GameClass] = {}
"""Registered game classes by name; each has ``params_model`` and ``from_params``."""


def register_game(cls: _GameClassT) -> _GameClassT:
    """Class decorator: make a game loadable by name from spec strings."""
    GAMES[cls.name] = cls
    return cls


def _tokenize(text: str) -> list[tuple[str, str]]:
    if len(text) > MAX_SPEC_CHARS:
        raise GameParamError(f"game spec is {len(text):,} characters; at most {MAX_SPEC_CHARS:,}")
    tokens, pos = [], 0
    stripped = text.rstrip()
    while pos < len(stripped):
        match = _TOKEN.match(stripped, pos)
        if match is None or match.end() == pos:
            raise GameParamError(
                f"game spec {_short(text)}: unexpected {stripped[pos:].strip()[:10]!r}"
            )
        kind = match.lastgroup or ""
        if kind == "number" and len(match.group(kind)) > MAX_NUMBER_CHARS:
            raise GameParamError(f"game spec {_short(text)}: number {match.group(kind)[:20]}... is "
                                 "too long")  # fmt: skip
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    return tokens


def _short(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.pos = 0

    def fail(self, what: str) -> GameParamError:
        found = self.tokens[self.pos][1] if self.pos < len(self.tokens) else "end of text"
        return GameParamError(f"game spec {_short(self.text)}: expected {what}, found {found!r}")

    def peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self, kind: str, text: str | None = None) -> str:
        if self.pos < len(self.tokens):
            tkind, ttext = self.tokens[self.pos]
            if tkind == kind and (text is None or ttext == text):
                self.pos += 1
                return ttext
        raise self.fail(repr(text) if text else kind)

    def value(self, depth: int = 1) -> Any:
        if self.peek() == "[":
            if depth > MAX_SPEC_DEPTH:
                raise GameParamError(
                    f"game spec {_short(self.text)}: lists nested more than {MAX_SPEC_DEPTH} deep"
                )
            self.take("punct", "[")
            items: list[Any] = []
            if self.peek() != "]":
                items.append(self.value(depth + 1))
                while self.peek() == ",":
                    self.take("punct", ",")
                    items.append(self.value(depth + 1))
            self.take("punct", "]")
            return items
        if self.pos < len(self.tokens) and self.tokens[self.pos][0] == "number":
            text = self.take("number")
            return int(text) if re.fullmatch(r"[-+]?\d+", text) else float(text)
        if self.pos < len(self.tokens) and self.tokens[self.pos][0] == "name":
            return self.take("name")
        if self.pos < len(self.tokens) and self.tokens[self.pos][0] == "string":
            return self.take("string")[1:-1]
        raise self.fail("a value")

    def spec(self) -> tuple[str, list[Any], dict[str, Any]]:
        name = self.take("name")
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        if self.peek() == "(":
            self.take("punct", "(")
            while self.peek() != ")":
                is_kw = (
                    self.pos + 1 < len(self.tokens)
                    and self.tokens[self.pos][0] == "name"
                    and self.tokens[self.pos + 1][1] == "="
                )
                if is_kw:
                    key = self.take("name")
                    self.take("punct", "=")
                    if key in kwargs:
                        raise GameParamError(f"game spec {_short(self.text)}: {key!r} given twice")
                    kwargs[key] = self.value()
                elif kwargs:
                    raise GameParamError(
                        f"game spec {_short(self.text)}: a bare value cannot follow name=value"
                    )
                else:
                    args.append(self.value())
                if self.peek() != ")":
                    self.take("punct", ",")
            self.take("punct", ")")
        if self.pos != len(self.tokens):
            raise self.fail("end of spec")
        return name, args, kwargs


def split_spec(text: str) -> tuple[str, list[Any], dict[str, Any]]:
    """A spec's name, bare values and ``name=value`` pairs, unvalidated (for games that are not
    public trees, such as the full game ``hunl``)."""
    if not isinstance(text, str) or not text.strip():
        raise GameParamError("empty game spec")
    return _Parser(text).spec()


def parse_spec(text: str) -> tuple[str, GameParams]:
    """Parse and validate a spec string into ``(game name, parameter model)``."""
    if not isinstance(text, str) or not text.strip():
        raise GameParamError("empty game spec; try one of: " + ", ".join(sorted(GAMES)))
    name, args, kwargs = _Parser(text).spec()
    cls = GAMES.get(name)
    if cls is None:
        raise GameParamError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}")
    model: type[GameParams] = cls.params_model
    if len(args) > len(model.positional):
        raise GameParamError(
            f"{name}: too many bare values; name the parameters ({', '.join(model.model_fields)})"
        )
    for field_name, value in zip(model.positional, args, strict=False):
        if field_name in kwargs:
            raise GameParamError(f"{name}: {field_name!r} given twice")
        kwargs[field_name] = value
    return name, validate_params(name, model, kwargs)


_BUILT: dict[str, Any] = {}

FILE_LOADERS: dict[str, Callable[[str], tuple[str, GameParams]]] = {}
"""File endings that ``load_game`` reads as a game file (``.toml``: a hold'em spot), each with
the function that reads such a file into ``(game name, parameters)``; games register them."""


def load_game(spec: str | Any) -> Any:
    """A game from a spec string (``kuhn``, ``leduc()``, ``kuhn(cards=8)``) or a game object.

    Built games are cached by canonical spec; treat them as read-only.
    """
    if not isinstance(spec, str):
        return spec
    text = spec.strip()
    loader = next((f for end, f in FILE_LOADERS.items() if text.lower().endswith(end)), None)
    name, params = loader(text) if loader is not None else parse_spec(spec)
    canonical = format_spec(name, params)
    if canonical not in _BUILT:
        if len(_BUILT) >= 32:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[canonical] = GAMES[name].from_params(params)
    return _BUILT[canonical]
