"""Aggregate reports over a batch folder: one row per solved spot, filtered, sorted, weighted.

A row holds what the batch runner summarised when the job finished (``batch_summary.py``):
each player's EV, OOP's equity, each action's frequency at the root and after a check, and
the exploitability reached, with the flop's weight (raw flops it stands for) and texture.
Averages over a set of flops weight each flop by its weight, so the 25-flop subset stands for
all 22,100 flops. Unfinished jobs are listed as missing, not guessed.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.cards.deck import RANKS
from solvers.cards.flops import TEXTURES
from solvers.errors import InputError
from solvers.user_files import load_user_json

MANIFEST = "batch.json"
FILTER_TEXTURES = (*TEXTURES, "connected")
SORT_KEYS = ("name", "weight", "ev_oop", "ev_ip", "equity_oop", "exploitability", "high_card",
             "bet_root", "bet_after_check", "seconds")  # fmt: skip
MAX_MANIFEST_BYTES = 64 << 20
MAX_SUMMARY_BYTES = 16 << 20


@dataclass(frozen=True)
class Row:
    name: str
    out: Path
    weight: float
    meta: dict[str, Any]
    ev_oop: float
    ev_ip: float
    equity_oop: float
    exploitability: float
    """In percent of the starting pot for spots, in chips otherwise."""
    root: dict[str, float]
    after_check: dict[str, float]
    seconds: float

    @property
    def texture(self) -> str:
        return str(self.meta.get("texture", ""))

    @property
    def high_card(self) -> str:
        return str(self.meta.get("high_card", ""))

    @property
    def connected(self) -> bool:
        return bool(self.meta.get("connected", False))

    def value(self, key: str) -> Any:
        if key == "high_card":
            return RANKS.find(self.high_card)
        if key == "bet_root":
            return aggressive(self.root)
        if key == "bet_after_check":
            return aggressive(self.after_check)
        return getattr(self, key)


@dataclass
class BatchReport:
    folder: Path
    about: dict[str, Any]
    rows: list[Row]
    missing: list[str] = field(default_factory=list)


def aggressive(freqs: dict[str, float]) -> float:
    """The frequency of every action that puts chips in (bets, raises, all-ins)."""
    return float(sum(f for a, f in freqs.items() if a not in ("check", "call", "fold")))


def load_batch(folder: str | Path) -> BatchReport:
    """The rows of every finished job in a batch folder (``InputError`` if it is none)."""
    folder = Path(folder)
    manifest = folder / MANIFEST
    if not folder.is_dir():
        raise InputError(f"{folder} is not a batch folder (no such folder)")
    if not manifest.exists():
        raise InputError(f"{folder} is not a batch folder (no {MANIFEST})")
    data = load_user_json(manifest, MAX_MANIFEST_BYTES, "batch manifest")
    try:
        jobs = [dict(job) for job in data["jobs"]]
        about = dict(data.get("about", {}))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError(f"{manifest} is not a batch manifest") from None
    rows, missing = [], []
    for job in jobs:
        row = _read_row(folder, job)
        if row is None:
            missing.append(str(job.get("name", "?")))
        else:
            rows.append(row)
    return BatchReport(folder, about, rows, missing)


def _read_row(folder: Path, job: dict[str, Any]) -> Row | None:
    try:
        data = load_user_json(folder / str(job["summary"]), MAX_SUMMARY_BYTES, "job summary")
        result, report = data["result"], data.get("report", {})
        meta = dict(data.get("meta", {}))
        exploit = result.get("exploitability_pot_percent", result["exploitability"])
        return Row(
            name=str(data["name"]),
            out=folder / str(data["out"]),
            weight=float(meta.get("weight", 1.0)),
            meta=meta,
            ev_oop=float(result.get("ev_oop", result["game_value"])),
            ev_ip=float(result.get("ev_ip", -result["game_value"])),
            equity_oop=float(report.get("equity_oop", float("nan"))),
            exploitability=float(exploit),
            root={str(k): float(v) for k, v in report.get("root", {}).items()},
            after_check={str(k): float(v) for k, v in report.get("after_check", {}).items()},
            seconds=float(data.get("job_seconds", 0.0)),
        )
    except (InputError, ValueError, KeyError, TypeError, AttributeError):
        return None


def parse_high(text: str | None) -> str | None:
    """``--high AKQ``: the flops whose top card is one of these ranks."""
    if text is None:
        return None
    ranks = text.strip().upper()
    if not ranks or any(r not in RANKS for r in ranks):
        raise InputError(f"--high takes ranks such as A or AKQ (from {RANKS}), not {text!r}")
    return ranks


def select(rows: list[Row], texture: str | None = None, high: str | None = None,
           sort: str = "name", descending: bool = False) -> list[Row]:  # fmt: skip
    """Rows of one texture class (or ``connected``) and top ranks, sorted by ``sort``."""
    if texture is not None and texture not in FILTER_TEXTURES:
        raise InputError(f"--texture {texture!r}: choose from {', '.join(FILTER_TEXTURES)}")
    if sort not in SORT_KEYS:
        raise InputError(f"--sort {sort!r}: choose from {', '.join(SORT_KEYS)}")
    chosen = [row for row in rows if _has_texture(row, texture) and _has_high(row, high)]
    return sorted(chosen, key=lambda row: (row.value(sort), row.name), reverse=descending)


def _has_texture(row: Row, texture: str | None) -> bool:
    if texture is None:
        return True
    return row.connected if texture == "connected" else row.texture == texture


def _has_high(row: Row, high: str | None) -> bool:
    return high is None or (row.high_card != "" and row.high_card in high)


def weighted(rows: list[Row]) -> dict[str, Any]:
    """Weight-averaged figures of ``rows``: EVs, equity, exploitability and frequencies."""
    total = sum(row.weight for row in rows)
    if total <= 0:
        return {"flops": len(rows), "weight": 0.0}

    def mean(get) -> float:
        return sum(row.weight * get(row) for row in rows) / total

    def freqs(get) -> dict[str, float]:
        actions = sorted({a for row in rows for a in get(row)}, key=_action_order)
        return {a: mean(lambda row, a=a: get(row).get(a, 0.0)) for a in actions}

    return {
        "flops": len(rows),
        "weight": total,
        "ev_oop": mean(lambda r: r.ev_oop),
        "ev_ip": mean(lambda r: r.ev_ip),
        "equity_oop": mean(lambda r: r.equity_oop),
        "exploitability": mean(lambda r: r.exploitability),
        "root": freqs(lambda r: r.root),
        "after_check": freqs(lambda r: r.after_check),
    }


def by_texture(rows: list[Row]) -> dict[str, dict[str, Any]]:
    """``weighted`` per texture class present (and ``connected``), then ``all``."""
    groups: dict[str, dict[str, Any]] = {}
    for name in FILTER_TEXTURES:
        members = select(rows, texture=name)
        if members:
            groups[name] = weighted(members)
    groups["all"] = weighted(rows)
    return groups


def _action_order(action: str) -> tuple[int, float, str]:
    kind, _, size = action.partition(" ")
    rank = {"fold": 0, "check": 1, "call": 2, "bet": 3, "raise": 4, "all-in": 5}.get(kind, 6)
    try:
        amount = float(size)
    except ValueError:
        amount = 0.0
    return rank, amount, action


def row_dict(row: Row) -> dict[str, Any]:
    return {
        "name": row.name,
        "file": str(row.out),
        "weight": row.weight,
        **{k: v for k, v in row.meta.items() if k not in ("weight",)},
        "ev_oop": row.ev_oop,
        "ev_ip": row.ev_ip,
        "equity_oop": row.equity_oop,
        "exploitability": row.exploitability,
        "root": row.root,
        "after_check": row.after_check,
        "seconds": row.seconds,
    }


def to_csv(rows: list[Row]) -> str:
    """One line per row; each action's frequency in its own column (``root:bet 75``...)."""
    root = sorted({a for r in rows for a in r.root}, key=_action_order)
    after = sorted({a for r in rows for a in r.after_check}, key=_action_order)
    meta = sorted({k for r in rows for k in r.meta if k != "weight"})
    head = ["name", "weight", *meta, "ev_oop", "ev_ip", "equity_oop", "exploitability",
            *(f"root:{a}" for a in root), *(f"after_check:{a}" for a in after),
            "seconds"]  # fmt: skip
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    for r in rows:
        writer.writerow([r.name, r.weight, *(r.meta.get(k, "") for k in meta), r.ev_oop, r.ev_ip,
                         r.equity_oop, r.exploitability, *(r.root.get(a, 0.0) for a in root),
                         *(r.after_check.get(a, 0.0) for a in after), r.seconds])  # fmt: skip
    return out.getvalue()
