"""One solver run as asked: the game, the algorithm and its options, the stopping rules, the files.

``pokertui solve`` reads a ``RunRequest`` from its arguments (``add_arguments``, ``from_args``),
the app builds one from its forms, and ``build-bots`` from its list of shipped spots; the app's
child process gets ``to_argv()``, which ``from_argv`` reads back to an equal request, so the
two sides cannot drift apart. A request checks its numbers, algorithm and options when it is
made (``InputError``); files are checked when the run is prepared (``check_paths``).

The target is chips or a percent of the starting pot (``Target``); ``SPOT_TARGET`` is the one
rule for hold'em spots (shipped files and the Spots screen's Solve). This module imports no
numpy, so the app and the CLI start fast.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.algorithms.registry import (
    ALGORITHM_LIST,
    ITERATIVE,
    SolverError,
    check_options,
    get_algorithm,
    parse_cli_options,
)
from solvers.atomic import check_output_path
from solvers.errors import InputError
from solvers.user_files import check_regular_file

MAX_ITERATIONS = 10**12
MAX_SECONDS = 10**8
MAX_TARGET_CHIPS = 1e12
MAX_TARGET_PERCENT = 1e6
DEFAULT_REPORT_SECONDS = 0.5
DEFAULT_CHECKPOINT_SECONDS = 60.0
NON_ITERATIVE = ("lp",)

BINARY_SUFFIX = ".ptsb"
"""An ``--out`` with this suffix is written as a binary strategy file (hold'em spots,
``solvers/strategy_file/binary.py``)."""


def _check_number(name, value, low, high, *, whole=False, open_low=False) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"--{name} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise InputError(f"--{name} must be a finite number, not {value}")
    if whole and not float(value).is_integer():
        raise InputError(f"--{name} must be a whole number")
    if value < low or (open_low and value == low):
        raise InputError(f"--{name} must be positive" if open_low or whole else f"--{name} >= 0")
    if value > high:
        raise InputError(f"--{name} must be at most {high:g}")


@dataclass(frozen=True)
class Target:
    """A target exploitability: ``value`` chips, or ``value`` percent of the starting pot."""

    value: float
    pot_percent: bool = False

    def __post_init__(self) -> None:
        high = MAX_TARGET_PERCENT if self.pot_percent else MAX_TARGET_CHIPS
        _check_number("target", self.value, 0, high, open_low=True)

    @classmethod
    def parse(cls, text: str) -> Target:
        """``0.05`` (chips) or ``0.3%`` (of the starting pot)."""
        raw = str(text).strip()
        try:
            value = float(raw.removesuffix("%")) if len(raw) <= 40 else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise InputError(f"--target is chips (0.05) or percent of the pot (0.3%), not {text!r}")
        return cls(value, raw.endswith("%"))

    def text(self) -> str:
        """What ``parse`` reads back to this target exactly."""
        return repr(float(self.value)) + ("%" if self.pot_percent else "")

    def chips(self, pot: float) -> float:
        """The target in chips for a game whose starting pot is ``pot``."""
        return self.value / 100.0 * pot if self.pot_percent else float(self.value)


SPOT_TARGET = Target(0.3, pot_percent=True)
"""Hold'em spots are solved to 0.3% of the starting pot: the shipped turn and river files and
the Spots screen's Solve preset."""


@dataclass(frozen=True)
class RunRequest:
    """What one ``pokertui solve`` run is asked to do; a request that exists is well formed."""

    game: str
    """A game spec or a spot file's path."""
    algo: str
    out: Path
    options: dict[str, Any] = field(default_factory=dict)
    """The algorithm's options, typed and checked (a seed is the option ``seed``)."""
    iterations: int | None = None
    seconds: float | None = None
    target: Target | None = None
    checkpoint: Path | None = None
    """``None``: beside the output, as ``OUT.ckpt.npz``."""
    report_seconds: float = DEFAULT_REPORT_SECONDS
    """Emit a progress event (with an exact exploitability) about this often."""
    checkpoint_seconds: float = DEFAULT_CHECKPOINT_SECONDS
    """Write the checkpoint at least this often while solving."""
    lock: Path | None = None
    """A lock file (partial readable strategy) whose nodes stay fixed while the rest is solved."""
    max_memory_mb: float | None = None
    """Refuse a hold'em tree whose solve needs more (``None``: what the machine can spare)."""

    def __post_init__(self) -> None:
        for name in ("out", "checkpoint", "lock"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Path):
                object.__setattr__(self, name, Path(value))
        if not isinstance(self.game, str) or not self.game.strip():
            raise InputError("give a game spec, such as kuhn or leduc(ante=1)")
        for name in ("game", "out", "checkpoint", "lock"):
            if "\x00" in str(getattr(self, name)):  # no process argument can carry one
                raise InputError(f"--{name} holds a NUL character")
        algorithm = get_algorithm(self.algo)  # unknown names: a clear message
        if self.algo not in NON_ITERATIVE and (
            self.iterations is None and self.seconds is None and self.target is None
        ):
            raise InputError("give a stopping rule: --iterations, --seconds or --target")
        _check_number("iterations", self.iterations, 1, MAX_ITERATIONS, whole=True)
        if self.iterations is not None:
            object.__setattr__(self, "iterations", int(self.iterations))
        _check_number("seconds", self.seconds, 0, MAX_SECONDS, open_low=True)
        if self.target is not None and not isinstance(self.target, Target):
            raise InputError(f"--target must be a Target, not {self.target!r}")
        _check_number("every", self.report_seconds, 0, 86_400)
        _check_number("checkpoint-every", self.checkpoint_seconds, 0, 10**7, open_low=True)
        _check_number("max-memory", self.max_memory_mb, 0, 1e9, open_low=True)
        if self.options and algorithm.name in NON_ITERATIVE:
            raise SolverError(f"{self.algo} takes no options")
        unset = [key for key, value in self.options.items() if value is None]
        if unset:  # --opt cannot carry None to the run's process
            raise SolverError(f"option {unset[0]} needs a value")
        object.__setattr__(self, "options", check_options(self.algo, dict(self.options)))
        if self.lock is not None and algorithm.attr != "FullWidthCFR":
            family = ", ".join(a.name for a in ALGORITHM_LIST if a.attr == "FullWidthCFR")
            raise InputError(f"--lock needs a full-width CFR algorithm ({family}), not "
                             f"{self.algo!r}")  # fmt: skip

    @property
    def checkpoint_path(self) -> Path:
        return self.checkpoint or self.out.with_name(self.out.name + ".ckpt.npz")

    def check_paths(self) -> None:
        """The files a run writes can be written, and the lock file is a file (``InputError``:
        a missing one, a folder or a device each said as such)."""
        check_output_path(self.out, "--out")
        if self.algo in ITERATIVE:
            check_output_path(self.checkpoint_path, "--checkpoint")
            if os.path.realpath(self.out) == os.path.realpath(self.checkpoint_path):
                raise InputError("--out and --checkpoint must be different files")
        if self.lock is not None:
            check_regular_file(self.lock, "lock file")

    # --- the child's argv -----------------------------------------------------------------
    def to_argv(self) -> list[str]:
        """The arguments of ``pokertui solve`` for this request; ``from_argv`` reads them back.

        Flags are written ``--flag=value`` and the game comes last after ``--``, so no value is
        ever taken for a flag, whatever it starts with."""
        pairs = [("algo", self.algo), ("out", self.out)]
        algorithm = get_algorithm(self.algo)
        for key, value in self.options.items():
            option = algorithm.option(key)
            assert option is not None  # checked when the request was made
            pairs.append(("opt", f"{key}={_option_text(option.kind, value)}"))
        for flag, value in (
            ("iterations", self.iterations),
            ("seconds", None if self.seconds is None else repr(float(self.seconds))),
            ("target", None if self.target is None else self.target.text()),
            ("checkpoint", self.checkpoint),
            ("lock", self.lock),
            ("max-memory", None if self.max_memory_mb is None else repr(self.max_memory_mb)),
        ):
            if value is not None:
                pairs.append((flag, value))
        if self.report_seconds != DEFAULT_REPORT_SECONDS:
            pairs.append(("every", repr(float(self.report_seconds))))
        if self.checkpoint_seconds != DEFAULT_CHECKPOINT_SECONDS:
            pairs.append(("checkpoint-every", repr(float(self.checkpoint_seconds))))
        return [f"--{flag}={value}" for flag, value in pairs] + ["--", self.game]

    @classmethod
    def from_argv(cls, argv: Sequence[str]) -> RunRequest:
        """The request that ``to_argv`` wrote (``InputError`` for anything else)."""
        parser = _Parser(prog="solve", add_help=False)
        add_arguments(parser)
        return cls.from_args(parser.parse_args(list(argv)))

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RunRequest:
        """From arguments declared by ``add_arguments``, parsed by argparse as text."""
        if not args.out:
            raise InputError("give --out FILE, the strategy file to write")
        options = parse_cli_options(args.algo, args.opt)
        if args.seed is not None:
            if get_algorithm(args.algo).option("seed") is None:
                raise InputError(f"--seed: {args.algo} does not use a random seed")
            options["seed"] = _whole("seed", args.seed)
        every, checkpoint_every = args.every, args.checkpoint_every
        return cls(
            game=args.game,
            algo=args.algo,
            out=Path(args.out),
            options=options,
            iterations=None if args.iterations is None else _whole("iterations", args.iterations),
            seconds=_number("seconds", args.seconds),
            target=None if args.target is None else Target.parse(args.target),
            checkpoint=Path(args.checkpoint) if args.checkpoint else None,
            report_seconds=_number_or("every", every, DEFAULT_REPORT_SECONDS),
            checkpoint_seconds=_number_or(
                "checkpoint-every", checkpoint_every, DEFAULT_CHECKPOINT_SECONDS
            ),
            lock=Path(args.lock) if args.lock else None,
            max_memory_mb=_number("max-memory", args.max_memory),
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare a request's flags (numbers as text: ``from_args`` checks them, one message each)."""
    parser.add_argument("game", help="game spec, e.g. leduc or 'kuhn(cards=8)', or a spot file")
    parser.add_argument(
        "--algo", required=True,
        help=f"one of: {', '.join(a.name for a in ALGORITHM_LIST)}; '?' lists options",
    )  # fmt: skip
    parser.add_argument(
        "--opt",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="solver option, repeatable (e.g. --opt alpha=1.5); see --algo ?",
    )
    parser.add_argument("--iterations", help="stop after this many iterations in all")
    parser.add_argument("--seconds", help="stop after this much time")
    parser.add_argument(
        "--target",
        help="stop at this exploitability: chips, or percent of the pot as 0.3%%; the written "
        "file meets it",
    )
    parser.add_argument(
        "--max-memory",
        metavar="MB",
        help="refuse a hold'em tree whose solve needs more (default: what the machine can spare)",
    )
    parser.add_argument("--seed", help="seed for sampling solvers")
    parser.add_argument(
        "--lock",
        metavar="LOCK.json",
        help="partial readable strategy file whose nodes stay fixed (full-width CFR family)",
    )
    parser.add_argument("--out", help="strategy file to write (atomically); required")
    parser.add_argument("--checkpoint", help="checkpoint path (default: OUT.ckpt.npz)")
    parser.add_argument(
        "--every", help=f"seconds between progress reports (default {DEFAULT_REPORT_SECONDS:g})"
    )
    parser.add_argument(
        "--checkpoint-every",
        metavar="SECONDS",
        help="write the checkpoint this often while solving "
        f"(default {DEFAULT_CHECKPOINT_SECONDS:g})",
    )


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(f"solve: {message}")


def _option_text(kind: str, value: Any) -> str:
    """An option's value as ``--opt`` text that ``Option.from_text`` reads back exactly."""
    if kind == "bool":
        return "true" if value else "false"
    if kind == "float":
        return repr(float(value))
    if kind == "floats":
        return ",".join(repr(float(v)) for v in value)
    return str(value)


def _number(name: str, text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        raise InputError(f"--{name} must be a number, not {text[:40]!r}") from None
    if not math.isfinite(value):
        raise InputError(f"--{name} must be a finite number, not {text[:40]!r}")
    return value


def _number_or(name: str, text: str | None, default: float) -> float:
    value = _number(name, text)
    return default if value is None else value


def _whole(name: str, text: str) -> int:
    raw = text.strip()
    if len(raw) > 30 or not raw.lstrip("+-").isdigit():
        raise InputError(f"--{name} must be a whole number, not {text[:40]!r}")
    return int(raw)
