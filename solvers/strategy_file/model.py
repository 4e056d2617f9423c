"""The strategy-file schema (pydantic), its problems and the loaded result."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from solvers import __version__
from solvers.errors import InputError
from solvers.games.base import Strategy, TreeGame

FORMAT_VERSION = 1
MAX_FILE_BYTES = 200 * 1024 * 1024
ROW_TOLERANCE = 1e-6
DEFAULT_PRECISION = 6


def _now() -> str:
    """The time a file is written, or ``SOURCE_DATE_EPOCH`` when set (the reproducible-builds
    convention): a batch run twice, on any backend, then writes the same bytes."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = datetime.fromtimestamp(int(epoch), UTC) if epoch.isdigit() else datetime.now(UTC)
    return when.isoformat(timespec="seconds")


class SolverInfo(BaseModel):
    """Where a strategy came from."""

    model_config = ConfigDict(extra="forbid")
    algorithm: str = Field(description="solver name, e.g. lp, cfr+, dcfr, or 'hand-written'")
    settings: dict[str, Any] = Field(default_factory=dict)
    iterations: int | None = None
    seed: int | None = None
    package_version: str = __version__
    created: str = Field(default_factory=_now)


class Measured(BaseModel):
    """Exploitability and value measured by exact best response when the file was saved."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    exploitability: float = Field(description="(BR_0 + BR_1) / 2 in chips")
    nash_conv: float
    best_response_values: tuple[float, float]
    game_value: float = Field(description="player 1's (seat 0) value of the profile, chips")
    mbb_per_hand: float | None = None
    pot_percent: float | None = None


class LbrFigure(BaseModel):
    """One local-best-response measurement (``pokertui lbr --record``): a lower bound on the
    exploitability from greedy play with one action set."""

    model_config = ConfigDict(extra="forbid")
    action_set: str
    streets: list[str]
    unit: Literal["mbb_per_hand", "pot_percent"]
    value: float = Field(description="LBR's winnings, both seats averaged")
    ci95: float = Field(description="half-width of the 95% confidence interval (0 if exact)")
    seat_values: tuple[float, float]
    deals: int | None = Field(None, description="duplicate deals played (None: exact)")
    seed: int | None = None
    river_resolve: int | None = Field(
        None,
        description="DCFR iterations of the bot's river re-solve after an off-tree bet on the "
        "turn (None: the file's translated play throughout)",
    )
    turn_resolve: int | None = Field(
        None,
        description="DCFR iterations of the bot's safe turn re-solve (the resolve gadget) after "
        "an off-tree turn bet (None: the file's translated turn)",
    )
    package_version: str = __version__
    created: str = Field(default_factory=_now)


class CompactNode(BaseModel):
    model_config = ConfigDict(extra="forbid")
    actions: list[str]
    hands: list[str] | None = None
    probs: list[list[float]]


class StrategyFileModel(BaseModel):
    """The JSON Schema of a strategy file (``pokertui schema``)."""

    model_config = ConfigDict(extra="forbid", title="pokertui strategy file")
    format_version: int = FORMAT_VERSION
    game: str = Field(description="game spec string, e.g. kuhn(cards=3) or push_fold(stack_bb=10)")
    form: Literal["compact", "readable"] = "compact"
    defaults: Literal["uniform", "check_fold"] | None = Field(
        None, description="how to fill decision nodes the file leaves out (none: an error)"
    )
    solver: SolverInfo | None = None
    measured: Measured | None = None
    lbr: list[LbrFigure] | None = Field(None, description="local best response measurements")
    nodes: dict[str, CompactNode | dict[str, dict[str, float]] | dict[str, str]]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, located as precisely as possible."""

    message: str
    node: str | None = None
    hand: str | None = None
    action: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.node is not None:
            where.append(f"node {self.node!r}")
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.action is not None:
            where.append(f"action {self.action}")
        return (", ".join(where) + ": " if where else "") + self.message

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


MAX_PROBLEMS = 100
"""Problems kept (and located) per file; the rest are only counted, so validating a file with
tens of thousands of bad entries stays linear in its size."""


class StrategyFileError(InputError):
    """A strategy file that cannot be used; ``problems`` lists everything found in one pass
    (the first ``MAX_PROBLEMS``; ``omitted`` counts the others)."""

    def __init__(self, source: str, problems: list[Problem], omitted: int = 0) -> None:
        self.source = source
        self.problems = problems[:MAX_PROBLEMS]
        self.omitted = omitted + max(len(problems) - MAX_PROBLEMS, 0)
        total = len(self.problems) + self.omitted
        count = f"{total} problem" + ("s" if total != 1 else "")
        lines = "\n".join(f"  - {p}" for p in self.problems[:50])
        more = f"\n  ... and {total - 50} more" if total > 50 else ""
        super().__init__(f"{source}: invalid strategy file ({count}):\n{lines}{more}")


@dataclass
class StrategyFile:
    """A loaded, validated strategy: the game, the profile and the header."""

    game: TreeGame
    strategy: Strategy
    solver: SolverInfo | None = None
    measured: Measured | None = None
    source: str = ""
    defaults: str | None = None
    filled_nodes: list[str] = field(default_factory=list)
    """Keys of nodes that came from ``defaults`` rather than from the file."""
    lbr: list[LbrFigure] = field(default_factory=list)
    """Local best response figures recorded in the header."""


class StrategyFileTooBig(StrategyFileError):
    """A file over ``MAX_FILE_BYTES`` (before or after inflating): too big to parse whole;
    ``load_strategy`` then reads a compact one node by node (``read.py``)."""
