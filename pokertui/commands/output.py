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
