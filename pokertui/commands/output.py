"""Shared output helpers: one JSON object for scripts, or rich tables for people."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import numpy as np


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        value = float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def print_json(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(_jsonable(payload), sort_keys=False) + "\n")


def add_json_flag(parser: Any) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
