"""A postflop spot: board, pot, stack, both ranges and the bet sizes, from TOML or a spec string.

The spot file (standard-library TOML)::

    board = "Qs Jh 2h 8d 3c"
    pot = 100
    stack = 300
    oop_range = "22+, A2s+, ..."
    ip_range = "random"
    force_allin_threshold = 0.2
    [river]
    oop_bet = "33%, 75%, 150%, a"
    ip_bet = "33%, 75%, 150%, a"
    oop_raise = "50%, a"
    ip_raise = "50%, a"

Optional ``name`` and ``description`` strings label a spot for people (the Spots screen); they
are not part of the game, so two files that differ only there solve the same spot.

Per-street tables are ``[flop]``, ``[turn]`` and ``[river]`` with ``oop_bet``, ``ip_bet``,
``oop_raise``, ``ip_raise``, ``donk`` (turn and river: OOP's lead after calling the previous
street; absent means ``oop_bet``) and ``raise_cap``. A street without sizes is check-only. Each
table is parsed once into a ``StreetSizes`` (``SpotParams.flop``, ``.turn``, ``.river``). The
same spot is the game spec ``nlhe(board="...", pot=100, ..., river_oop_bet="33%, a")``: the
street keys are flattened to ``street_key`` and the sizes spelled canonically
(``StreetSizes.texts``), so that strategy files name their spot in full.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import Field, model_validator

from solvers.cards.deck import CardError, dead_mask, parse_cards
from solvers.cards.ranges import parse_range
from solvers.errors import InputError
from solvers.games.base import GameParamError, GameParams
from solvers.games.holdem.bet_sizes import STREET_KEYS, StreetSizes
from solvers.games.params import format_value, validate_params
from solvers.user_files import read_user_text

MAX_SPOT_BYTES = 1024 * 1024
"""A spot file is a few hundred bytes of TOML; anything past a megabyte is not one."""

STREETS = ("flop", "turn", "river")
CORE_KEYS = ("board", "pot", "stack", "oop_range", "ip_range")
TOP_KEYS = (
    "board",
    "pot",
    "stack",
    "oop_range",
    "ip_range",
    "add_allin_threshold",
    "force_allin_threshold",
    "merging_threshold",
)
META_KEYS = ("name", "description")
"""Labels for people, read by ``spot_meta`` and kept out of the game's parameters."""


def street_keys(street: str) -> tuple[str, ...]:
    """The keys a street's table takes: the flop has no donk (no street before it)."""
    return tuple(k for k in STREET_KEYS if street != "flop" or k != "donk")


class SpotParams(GameParams):
    """Every field of a spot; ``flop``, ``turn`` and ``river`` hold each street's parsed sizes.

    Spec strings and spot files give the sizes flattened (``river_oop_bet="33%, a"``); they are
    parsed once, here, and ``spec_values`` spells them back. The defaults make ``nlhe`` alone a
    small check-down river spot (for ``pokertui games``); spec strings always name the board,
    pot, stack and ranges.
    """

    board: str = "Qs Jh 2h 8d 3c"
    pot: float = Field(100.0, gt=0)
    stack: float = Field(300.0, gt=0)
    oop_range: str = "TT+,AQs+,KQs,A5s"
    ip_range: str = "99+,AJs+,KQs,QJs"
    add_allin_threshold: float = Field(0.0, ge=0)
    force_allin_threshold: float = Field(0.0, ge=0)
    merging_threshold: float = Field(0.0, ge=0)
    flop: StreetSizes = StreetSizes()
    turn: StreetSizes = StreetSizes()
    river: StreetSizes = StreetSizes()

    @model_validator(mode="before")
    @classmethod
    def _parse_sizes(cls, values: Any) -> Any:
        """Fold the flattened ``{street}_{key}`` values into one ``StreetSizes`` per street;
        keys that are not a street's stay behind for the unknown-key error."""
        if not isinstance(values, dict):
            return values
        values = dict(values)
        for street in STREETS:
            given = values.get(street)
            if given is not None and not isinstance(given, StreetSizes):
                raise ValueError(f"{street}: give its sizes as {street}_oop_bet=... and so on")
            spelled = {k: values.pop(f"{street}_{k}") for k in street_keys(street)
                       if f"{street}_{k}" in values}  # fmt: skip
            if spelled and given is not None:
                raise ValueError(f"{street}: sizes given twice")
            if given is None:
                try:
                    values[street] = StreetSizes.parse(spelled, street)
                except InputError as exc:
                    raise ValueError(str(exc)) from None
        return values

    @model_validator(mode="after")
    def _check(self) -> SpotParams:
        cards = board_cards(self)
        if len(cards) not in (3, 4, 5):
            raise ValueError(f"board: a flop, turn or river has 3, 4 or 5 cards, got {len(cards)}")
        for name in ("oop_range", "ip_range"):
            weights = _range_weights(getattr(self, name), name)
            if (weights < 0).any() or (weights > 1).any():
                raise ValueError(f"{name}: weights must lie in [0, 1]")
            if not (weights * ~dead_mask(cards)).sum() > 0:
                raise ValueError(f"{name}: no combo is left once the board {self.board} is out")
        if self.flop.donk is not None:
            raise ValueError("flop: there is no donk bet on the flop")
        return self

    def sizes_on(self, street: str) -> StreetSizes:
        """The parsed sizes of ``street`` (``flop``, ``turn`` or ``river``)."""
        return {"flop": self.flop, "turn": self.turn, "river": self.river}[street]

    def spec_values(self) -> dict[str, Any]:
        """Every parameter as a spec string names it, the street sizes flattened and spelled."""
        values = self.model_dump(exclude=set(STREETS))
        for street in STREETS:
            texts = self.sizes_on(street).texts()
            values.update({f"{street}_{k}": texts[k] for k in street_keys(street)})
        return values


def _range_weights(text: str, name: str) -> np.ndarray:
    try:
        return parse_range(text)
    except InputError as exc:
        raise ValueError(f"{name}: {exc}") from None


_DEFAULT_VALUES = SpotParams.model_construct().spec_values()
"""The defaults as spelled in a spec (no validation: the defaults are known good)."""


def spot_spec(params: SpotParams) -> str:
    """``nlhe(...)`` with the board, pot, stack, ranges and the fields that differ from their
    defaults: the name strategy files give the spot (no tree is built)."""
    values = params.spec_values()
    core = {key: values[key] for key in CORE_KEYS}
    values = {k: v for k, v in values.items() if k not in core and v != _DEFAULT_VALUES[k]}
    values = {**core, **values}
    return "nlhe(" + ",".join(f"{k}={format_value(v)}" for k, v in values.items()) + ")"


def board_cards(params: SpotParams) -> list[int]:
    try:
        return parse_cards(params.board)
    except CardError as exc:
        raise ValueError(f"board: {str(exc).splitlines()[0]}") from None


def range_weights(params: SpotParams, player: int) -> np.ndarray:
    return parse_range(params.oop_range if player == 0 else params.ip_range)


# --- spot files ---------------------------------------------------------------------------


def _line_of(text: str, key: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith((key, f"[{key}")):
            return number
    return None


def spot_values(text: str, source: str = "spot") -> dict[str, Any]:
    """The flat parameter dict of a TOML spot, with unknown keys reported by line."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameParamError(f"{source}: not valid TOML: {exc}") from None
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key in STREETS and isinstance(value, dict):
            for sub, sub_value in value.items():
                if sub not in street_keys(key):
                    line = _line_of(text, sub)
                    at = f" (line {line})" if line else ""
                    known = ", ".join(street_keys(key))
                    raise GameParamError(
                        f"{source}: unknown key {sub!r} in [{key}]{at}; known: {known}"
                    )
                values[f"{key}_{sub}"] = sub_value
        elif key in TOP_KEYS:
            values[key] = value
        elif key in META_KEYS:
            if not isinstance(value, str):
                line = _line_of(text, key)
                at = f" (line {line})" if line else ""
                raise GameParamError(f"{source}: {key}{at} must be a string")
        else:
            line = _line_of(text, key)
            at = f" (line {line})" if line else ""
            known = ", ".join((*TOP_KEYS, *META_KEYS, *(f"[{s}]" for s in STREETS)))
            raise GameParamError(f"{source}: unknown key {key!r}{at}; known: {known}")
    missing = [key for key in CORE_KEYS if key not in values]
    if missing:  # the model's defaults are for spec strings, never a file's silent answer
        raise GameParamError(
            f"{source}: missing {', '.join(missing)}; a spot file names all of "
            f"{', '.join(CORE_KEYS)}"
        )
    return values


def load_spot_params(path: str | Path) -> SpotParams:
    """Read and validate a ``.toml`` spot file."""
    path = Path(path)
    text = read_user_text(path, MAX_SPOT_BYTES, "spot file")
    values = spot_values(text, str(path))
    params = validate_params(f"spot {path}", SpotParams, values)
    assert isinstance(params, SpotParams)
    return params


def spot_meta(path: str | Path) -> dict[str, str]:
    """The ``name`` and ``description`` of a spot file (empty strings when absent)."""
    path = Path(path)
    text = read_user_text(path, MAX_SPOT_BYTES, "spot file")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameParamError(f"spot file {path}: not valid TOML: {exc}") from None
    return {key: str(raw.get(key, "")) for key in META_KEYS}
