"""Declared solver options: a type, a range or choices, a default and a help line each.

``Option.from_text`` reads ``--opt key=value`` text and ``Option.check`` checks a value given
from Python; both refuse NaN, infinities, wrong types and out-of-range values with a message
that says what fits. ``registry.py`` lists every algorithm's options.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

from solvers.errors import InputError

MAX_SEED = 2**63 - 1


MAX_TEXT = 2_000
"""Longest text option (a betting abstraction spec is a few hundred characters)."""

class SolverError(InputError):
    """Bad solver options, an unknown algorithm, or a checkpoint that does not fit."""


class OptionError(SolverError):
    """An ``--opt`` that is unknown, of the wrong type or out of range."""


@dataclass(frozen=True)
class Option:
    """One solver option: ``kind`` is bool, int, float, choice, floats (a list of numbers) or
    text (a spec string the solver parses itself, such as a betting abstraction)."""

    name: str
    kind: str
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    """Whether ``low`` itself is excluded (``(0, 1]`` rather than ``[0, 1]``)."""
    choices: tuple[str, ...] = ()
    nullable: bool = False
    """Whether ``None`` is accepted from Python (the default then means "not set")."""

    def describe(self) -> str:
        if self.kind == "choice":
            what = "|".join(self.choices)
        elif self.kind in ("int", "float") and self.low is not None:
            bracket = "(" if self.low_open else "["
            what = f"{self.kind} in {bracket}{self.low:g}, {self.high:g}]"
        else:
            what = self.kind
        return f"{self.name}={what} (default {self.default}): {self.help}"

    def from_text(self, text: str) -> Any:
        """The value of ``--opt name=text``, checked."""
        raw = text.strip()
        if self.kind == "bool":
            lowered = raw.lower()
            if lowered in ("true", "yes", "1", "on"):
                return True
            if lowered in ("false", "no", "0", "off"):
                return False
            raise OptionError(f"option {self.name} is true or false, not {text!r}")
        if self.kind == "int":
            if len(raw) > 30 or not raw.lstrip("+-").isdigit():
                raise OptionError(f"option {self.name} is a whole number, not {text[:40]!r}")
            return self.check(int(raw))
        if self.kind == "float":
            return self.check(_float(self.name, raw))
        if self.kind == "floats":
            parts = [p for p in raw.strip("[]").split(",") if p.strip()]
            return self.check([_float(self.name, p.strip()) for p in parts[:1000]])
        return self.check(raw)

    def check(self, value: Any) -> Any:
        """``value`` if it fits this option, else an ``OptionError`` saying what fits."""
        if value is None and self.nullable:
            return None
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name} is true or false, not {value!r}")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise OptionError(
                    f"option {self.name} is one of {', '.join(self.choices)}, not {value!r}"
                )
            return value
        if self.kind == "floats":
            if not isinstance(value, list | tuple) or len(value) > 1000:
                raise OptionError(f"option {self.name} is a list of numbers")
            return [self._number(float, v) for v in value]
        if self.kind == "text":
            if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
                raise OptionError(f"option {self.name} is text of 1 to {MAX_TEXT} characters")
            if "\x00" in value:
                raise OptionError(f"option {self.name} holds a NUL character")
            return value.strip()
        return self._number(int if self.kind == "int" else float, value)

    def _number(self, kind: type, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise OptionError(f"option {self.name} is a {kind.__name__}, not {value!r:.40}")
        if kind is int and not isinstance(value, numbers.Integral):
            if not (math.isfinite(value) and float(value).is_integer()):
                raise OptionError(f"option {self.name} is a whole number, not {value!r:.40}")
        try:
            number = kind(value)
        except OverflowError:
            number = math.inf
        if isinstance(number, float) and not math.isfinite(number):
            raise OptionError(f"option {self.name} must be a finite number, not {value!r:.40}")
        low_bad = self.low is not None and (
            number <= self.low if self.low_open else number < self.low
        )
        if low_bad or (self.high is not None and number > self.high):
            raise OptionError(f"option {self.describe()}; {value!r} is out of range")
        return number


def _float(name: str, text: str) -> float:
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        raise OptionError(f"option {name} is a number, not {text[:40]!r}") from None
    if not math.isfinite(value):
        raise OptionError(f"option {name} must be a finite number, not {text[:40]!r}")
    return value
