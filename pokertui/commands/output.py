"""Shared output helpers: one JSON object for scripts, or rich tables for people."""

from __future__ import annotations

import json
import math
import sys
from typing import Any


def jsonable(value: Any) -> Any:
    """``value`` with numpy types as plain ones and NaN or infinity as ``null``: strict JSON."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy arrays and scalars
        return jsonable(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def print_json(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(jsonable(payload), sort_keys=False) + "\n")


def add_json_flag(parser: Any) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")


NOISE = 1e-9
"""Relative size under which a figure is float64 rounding noise (sums of thousands of terms
round at 1e-16 to 1e-13 of their size), far below the digits any report shows."""


def is_noise(value: float, scale: float = 1.0) -> bool:
    """Whether ``value`` is smaller than ``NOISE`` times ``scale`` (the pot, or 100 for a
    percent of it): an exploitability of -4.44e-16 is rounding, not a finding, and prints 0."""
    return abs(value) < NOISE * abs(scale)


def gap_text(value: float, noise: bool, spec: str = ".3g") -> str:
    """An exploitability (or its percent, mbb) as text: 0 when it is rounding noise."""
    return "0" if noise else format(value, spec)
