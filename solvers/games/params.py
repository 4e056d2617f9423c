"""Game parameters: the immutable pydantic base every game's parameters extend, and the
canonical spec string that names a game and all of its parameters."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from solvers.errors import InputError

_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A string that a spec may write without quotes."""


class GameParamError(InputError):
    """Bad game parameters or an unparsable game spec."""


MIN_CHIPS = 1e-6
MAX_CHIPS = 1e6
"""Bounds of every chip amount in a game spec (antes, bets, pots): sane sizes, no overflow."""
MAX_CHIP_SPAN = 1e4
"""Largest ratio between two chip amounts of one toy game. Measured with the LP (HiGHS, payoffs
scaled to 1): within 1e4 the exploitability stays below 1e-12 of the smallest amount; at 1e5
and 1e6 it is 1e-7 to 1e-6 of it or HiGHS fails (Leduc, ante 1000 against raises 0.001); at
1e12 the answer is wrong by the whole smallest amount."""


class GameParams(BaseModel):
    """Base of every game's parameter model: immutable, and unknown fields are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
    positional: ClassVar[tuple[str, ...]] = ()
    """Field names that a spec string may give without ``name=``, in order."""
    chip_fields: ClassVar[tuple[str, ...]] = ()
    """Fields holding chip amounts (numbers or lists) that must lie within ``MAX_CHIP_SPAN``."""

    @model_validator(mode="after")
    def _chip_span(self):
        amounts = []
        for name in self.chip_fields:
            value = getattr(self, name)
            amounts += [(float(v), name) for v in (value if isinstance(value, list) else [value])]
        if amounts and max(amounts)[0] > MAX_CHIP_SPAN * min(amounts)[0]:
            (high, high_name), (low, low_name) = max(amounts), min(amounts)
            raise ValueError(
                f"{high_name} {high:g} is more than {MAX_CHIP_SPAN:g} times {low_name} {low:g}: "
                "keep the chip amounts within that factor of each other (past it the LP and "
                "the solvers lose the small amounts)"
            )
        return self

    def spec_values(self) -> dict[str, Any]:
        """Every parameter as a spec string names it (a game with typed fields spells them)."""
        return self.model_dump()


def format_value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, str) and not _PLAIN_NAME.fullmatch(value):
        return f'"{value}"'
    return repr(value) if isinstance(value, float) else str(value)


def format_spec(name: str, params: GameParams) -> str:
    """The canonical spec string: every parameter named, so it round-trips through parsing."""
    parts = [f"{k}={format_value(v)}" for k, v in params.spec_values().items()]
    return f"{name}({','.join(parts)})"


def validate_params(name: str, model: type[GameParams], values: dict[str, Any]) -> GameParams:
    try:
        return model(**values)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"]) or "parameters"
            message = err["msg"].removeprefix("Value error, ")
            problems.append(f"{where}: {message}")
        raise GameParamError(f"{name}: " + "; ".join(problems)) from None
