"""Jobs: plain, picklable descriptions of one solve each, and the TOML job file that lists them.

A job names its game (a spec string: a spot with its flop replaced, a game with its stack
depth changed...), the algorithm with its options (a seed among them), the stopping rule and
the file it writes. Nothing in a job depends on where it runs, so the same job gives the same
file on any backend (with an iteration budget; a target stops at the first exploitability
check under it, and when checks fall depends on the machine's speed).

A job file::

    algo = "dcfr"
    iterations = 300            # or seconds = 60, or target = "0.5%" (of the pot) or 0.05
    out = "depth"               # folder, relative to the job file (--out overrides)
    game = "push_fold"          # or spot = "river.toml" (relative to the job file)
    vary = "stack_bb"           # one parameter of the game or spot
    values = [5, 10, 15, 20]
    [options]                   # solver options, as --opt gives them
    alpha = 1.5
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.errors import InputError
from solvers.games.base import GameParams
from solvers.games.holdem.spot import SpotParams, spot_spec
from solvers.games.params import format_spec, validate_params
from solvers.games.spec import FILE_LOADERS, parse_spec
from solvers.user_files import read_user_text

JOB_KEYS = ("algo", "iterations", "seconds", "target", "out", "game", "spot", "vary", "values",
            "options")  # fmt: skip
MAX_JOBS = 100_000
MAX_JOBFILE_BYTES = 1 << 20


@dataclass(frozen=True)
class StopRule:
    iterations: int | None = None
    seconds: float | None = None
    target: float | None = None
    target_pot_percent: float | None = None

    def identity(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class Job:
    name: str
    """File-safe and unique in its batch: the output is ``NAME.json`` (``.json.gz`` for spots)."""
    game: str
    algo: str
    stop: StopRule
    options: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    """What the job varies (``{"flop": "AsKd7c", "weight": 24}``, ``{"stack_bb": 10}``)."""

    @property
    def output_name(self) -> str:
        return self.name + (".json.gz" if self.game.startswith("nlhe(") else ".json")

    def identity(self) -> dict[str, Any]:
        """What makes a finished output this job's: a re-run skips it only if these agree."""
        return {"game": self.game, "algo": self.algo, "options": dict(self.options),
                **self.stop.identity()}  # fmt: skip


def safe_name(text: str) -> str:
    """A file-name-safe form of a label (letters, digits, ``.-_``)."""
    cleaned = re.sub(r"[^A-Za-z0-9.\-]+", "_", str(text)).strip("_.")
    return cleaned[:60] or "job"


def parse_target(value: Any) -> tuple[float | None, float | None]:
    """A target in chips (``0.05``) or in percent of the pot (``"0.5%"``)."""
    if value is None:
        return None, None
    text = str(value).strip()
    try:
        number = float(text.removesuffix("%")) if len(text) <= 40 else float("nan")
    except ValueError:
        number = float("nan")
    if not 0 < number <= 1e12:
        raise InputError(f"target is chips (0.05) or percent of the pot (\"0.5%\"), not {value!r}")
    return (None, number) if text.endswith("%") else (number, None)


def read_game(text: str) -> tuple[str, GameParams]:
    """``(game name, parameters)`` of a spec string or a ``.toml`` spot file."""
    loader = next((f for end, f in FILE_LOADERS.items() if text.lower().endswith(end)), None)
    return loader(text) if loader is not None else parse_spec(text)


def varied(name: str, params: GameParams, key: str, value: Any) -> str:
    """The spec string of ``params`` with ``key`` set to ``value`` (checked)."""
    values = params.spec_values()
    if key not in values:
        raise InputError(f"{name} has no parameter {key!r} to vary; it has: {', '.join(values)}")
    checked = validate_params(name, type(params), {**values, key: value})
    if isinstance(checked, SpotParams):
        return spot_spec(checked)
    return format_spec(name, checked)


def load_job_file(path: str | Path) -> tuple[list[Job], Path | None]:
    """The jobs of a TOML job file and its output folder (None when it names none)."""
    path = Path(path)
    text = read_user_text(path, MAX_JOBFILE_BYTES, "job file")  # a FIFO or /dev/zero: refused
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"job file {path}: not valid TOML: {exc}") from None
    unknown = sorted(set(raw) - set(JOB_KEYS))
    if unknown:
        raise InputError(f"job file {path}: unknown key {unknown[0]!r}; known: "
                         f"{', '.join(JOB_KEYS)}")  # fmt: skip
    for key in ("algo", "vary", "values"):
        if key not in raw:
            raise InputError(f"job file {path}: missing key {key!r}")
    if ("game" in raw) == ("spot" in raw):
        raise InputError(f"job file {path}: give exactly one of 'game' and 'spot'")
    base = str(raw["game"]) if "game" in raw else str(path.parent / str(raw["spot"]))
    values = raw["values"]
    if not isinstance(values, list) or not values or len(values) > MAX_JOBS:
        raise InputError(f"job file {path}: 'values' is a list of 1 to {MAX_JOBS:,} values")
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise InputError(f"job file {path}: [options] is a table of solver options")
    stop = stop_rule(raw.get("iterations"), raw.get("seconds"), raw.get("target"))
    name, params = read_game(base)
    key = str(raw["vary"])
    jobs = []
    for index, value in enumerate(values):
        game = varied(name, params, key, value)
        label = safe_name(f"{index:03d}_{key}_{value}")
        jobs.append(Job(label, game, str(raw["algo"]), stop, dict(options), {key: value}))
    folder = path.parent / str(raw["out"]) if "out" in raw else None
    return jobs, folder


def stop_rule(iterations: Any = None, seconds: Any = None, target: Any = None) -> StopRule:
    """A checked stopping rule; at least one of the three is needed."""
    if iterations is None and seconds is None and target is None:
        raise InputError("give a stopping rule: iterations, seconds or target")
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)
                                   or not 1 <= iterations <= 10**12):  # fmt: skip
        raise InputError(f"iterations is a whole number from 1 to 10^12, not {iterations!r}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                                or not 0 < seconds <= 1e8):  # fmt: skip
        raise InputError(f"seconds is a positive number, not {seconds!r}")
    chips, percent = parse_target(target)
    return StopRule(iterations, None if seconds is None else float(seconds), chips, percent)
