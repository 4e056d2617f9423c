"""The seeds of one full-game run pooled from their checkpoints, and paired deal by deal with
another bot's run on the same deals.

A long evaluation (LBR or a match against a bot that re-solves) runs one seed at a time, each
into its checkpoint file (``checkpoint.py``), over hours and sessions. Each file keeps every
finished deal's values, so the figure of all of them is the figure of their deals together:
the seeds are independent, every deal is one sample of the duplicate average. Files are pooled
only when they name the same run apart from its seed (the same command, game, bots, options
and chunk size; bot files of the same bytes where both name a digest), each seed once.

``paired``: the same seeds and chunk sizes deal the same cards to any bot (``lbr.spot_run``), so
the difference of two bots' values on each deal both runs finished is a sample of the
difference of their figures, with the luck of the cards taken out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from solvers.errors import InputError
from solvers.games.hunl.spec import parse_hunl_spec
from solvers.reports.checkpoint import read_checkpoint
from solvers.reports.lbr.spot import summarise

UNITS = {"lbr": ("mbb_per_hand", 1000.0), "match": ("bb_per_100", 100.0)}
"""Each command's unit and its scale per big blind (chips times scale over the big blind)."""
OWN_KEYS = ("seed", "files")
"""What may differ between the seeds of one run (the bot files are compared by digest)."""
BOT_KEYS = ("bot",)
"""What may differ, besides those, between two runs that are paired."""


@dataclass(frozen=True)
class SeedRun:
    """One checkpoint: its run, and its finished deals' values, chunk by chunk in order."""

    path: Path
    run: dict[str, Any]
    chunks: dict[int, np.ndarray]

    @property
    def seed(self) -> int:
        return int(self.run["seed"])

    @cached_property
    def values(self) -> np.ndarray:
        """The finished deals' rows in chunk order (read once: ``pool`` reads them twice)."""
        if not self.chunks:
            return np.empty((0, self.columns))
        return np.concatenate([self.chunks[i] for i in sorted(self.chunks)])

    @property
    def columns(self) -> int:
        return 4 if self.run.get("control_variates") else 2


def read_runs(paths: list[str | os.PathLike]) -> list[SeedRun]:
    runs = []
    for path in paths:
        run, chunks = read_checkpoint(path)
        runs.append(SeedRun(Path(path), run, chunks))
        widths = {rows.shape[1] for rows in chunks.values()}
        if widths and widths != {runs[-1].columns}:
            raise InputError(f"checkpoint {path}: rows of {widths.pop()} values, where its run "
                             f"keeps {runs[-1].columns}")  # fmt: skip
    if not runs:
        raise InputError("name at least one checkpoint file")
    return runs


def pool(runs: list[SeedRun]) -> dict[str, Any]:
    """The figures of all the runs' deals together, and each seed's deal count."""
    first = _same_run(runs, OWN_KEYS, "pooled", seeds_once=True)
    values = np.concatenate([r.values for r in runs])
    if len(values) < 2:
        raise InputError(f"{len(values)} finished deal in these checkpoints: a figure needs two")
    unit, scale = _unit(first)
    result: dict[str, Any] = {
        "run": {k: v for k, v in first.run.items() if k not in OWN_KEYS},
        "seeds": [_seed_figures(r, scale) for r in runs],
        "deals": len(values),
        "hands": 2 * len(values),
        "unit": unit,
        **summarise(values[:, :2], scale),
    }
    if first.columns == 4:
        result["run"]["control_variates"] = estimates(runs)
        result["plain"] = summarise(values[:, 2:], scale)
    return result


def _seed_figures(run: SeedRun, scale: float) -> dict[str, Any]:
    """One seed's deals and, from two deals on, its own figures (corrected and plain)."""
    values = run.values
    figures: dict[str, Any] = {"seed": run.seed, "deals": len(values), "file": str(run.path)}
    if len(values) >= 2:
        figures.update(summarise(values[:, :2], scale))
        if run.columns == 4:
            figures["plain"] = summarise(values[:, 2:], scale)
    return figures


def paired(runs: list[SeedRun], others: list[SeedRun]) -> dict[str, Any]:
    """``runs`` less ``others`` deal by deal, over the deals of each seed that both finished
    (the duplicate averages, corrected ones where the runs have control variates)."""
    first = _same_run(runs, OWN_KEYS, "pooled", seeds_once=True)
    against = _same_run(others, OWN_KEYS, "pooled", seeds_once=True)
    _same_run([first, against], (*OWN_KEYS, *BOT_KEYS), "paired")
    by_seed = {r.seed: r for r in others}
    gaps: list[np.ndarray] = []
    seeds: list[int] = []
    for run in runs:
        other = by_seed.get(run.seed)
        if other is None:
            continue
        before = len(gaps)
        for i in sorted(set(run.chunks) & set(other.chunks)):
            mine, theirs = run.chunks[i], other.chunks[i]
            if len(mine) == len(theirs):  # a shorter last chunk is another chunk
                gaps.append(mine[:, :2] - theirs[:, :2])
        if len(gaps) > before:
            seeds.append(run.seed)
    deals = sum(len(g) for g in gaps)
    if deals < 2:
        raise InputError("the two sets of checkpoints share fewer than two finished deals: "
                         "pair runs of the same seeds")  # fmt: skip
    unit, scale = _unit(first)
    return {"bot": first.run.get("bot"), "against": others[0].run.get("bot"), "seeds": seeds,
            "deals": deals, "hands": 2 * deals, "unit": unit,
            **summarise(np.concatenate(gaps), scale)}  # fmt: skip


def _same_run(
    runs: list[SeedRun], free: tuple[str, ...], how: str, seeds_once: bool = False
) -> SeedRun:
    """The first run, once every run names the same run apart from the ``free`` keys (and,
    with ``seeds_once``, no seed comes twice)."""
    first = runs[0]
    for run in runs[1:]:
        keys = sorted(k for k in set(first.run) | set(run.run)
                      if k not in free and _key(first.run, k) != _key(run.run, k))  # fmt: skip
        if keys:
            k = keys[0]
            raise InputError(f"{run.path} and {first.path} are not one run to be {how}: "
                             f"{k} {run.run.get(k)!r} against {first.run.get(k)!r}")  # fmt: skip
        if run.path != first.path and _digests_differ(first.run, run.run):
            raise InputError(f"{run.path} and {first.path} name bot files of other bytes")
    if seeds_once:
        seen: dict[int, Path] = {}
        for run in runs:
            if run.seed in seen:
                raise InputError(f"seed {run.seed} twice ({seen[run.seed]} and {run.path}): "
                                 "its deals would count twice")  # fmt: skip
            seen[run.seed] = run.path
    return first


def _key(run: dict[str, Any], key: str) -> Any:
    """A run's ``key`` as pooling compares it: control variates with either value estimate
    (``lbr.hunl_control``) estimate the same figure, so they pool; with and without do not
    (the rows differ)."""
    if key == "control_variates":
        return bool(run.get(key))
    return run.get(key)


def estimates(runs: list[SeedRun]) -> list[str]:
    """The value estimates of runs with control variates (``true`` is the check-down)."""
    named = (r.run.get("control_variates") for r in runs)
    return sorted({"checkdown" if name is True else str(name) for name in named if name})


def _digests_differ(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Both name a file by a SHA-256 of the same bytes (the whole file, ``sha256:``, or its
    strategy body, ``body-sha256:``) and the two differ. Files named by size and time, as older
    checkpoints do, or one by its whole file and the other by its body (the shipped bots'
    headers gained their body digest between), cannot be compared and are taken as they are."""
    a, b = one.get("files"), other.get("files")
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return False
    return any(isinstance(a.get(k), str) and isinstance(b.get(k), str) and a[k] != b[k]
               and a[k].split(":")[0] == b[k].split(":")[0]
               for k in set(a) & set(b))  # fmt: skip


def _unit(seed_run: SeedRun) -> tuple[str, float]:
    run, path = seed_run.run, seed_run.path
    command = run.get("command")
    if command not in UNITS:
        raise InputError(f"checkpoint {path} is of a {command!r} run: pool the runs of lbr or "
                         "match")  # fmt: skip
    game = run.get("game")
    if not isinstance(game, str):
        raise InputError(f"checkpoint {path} names no game")
    try:
        big_blind = parse_hunl_spec(game).big_blind
    except InputError as exc:
        raise InputError(f"checkpoint {path}: {exc}") from None
    unit, per_big_blind = UNITS[command]
    return unit, per_big_blind / big_blind
