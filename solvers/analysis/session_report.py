"""A session's report from its decisions: totals, EV lost by street, bb/100, worst first.

Decisions are the records of ``hand_analysis.analyze_hand`` (amounts in big blinds). Filters
keep the decisions of a street, a preflop pot type, a position, a depth or a flop texture;
the totals count only decisions whose chosen option has a value (the rest are listed as
unvalued: the model leaves them to later play).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from solvers.analysis.hand_analysis import POSITIONS, POT_TYPES
from solvers.cards.flops import TEXTURES
from solvers.errors import InputError
from solvers.games.hunl.rules import STREET_NAMES

STREETS = STREET_NAMES[:4]
MODEL_NOTE = (
    "postflop: re-solved against the default bot's modelled ranges (the bot's re-solve of the "
    "street, the hero best-responding after; sizes off its tree against its answer to each); "
    "preflop: the live panel's preflop values (each decision's method says which: the "
    "blueprint for both seats from there, or closed forms where no later play decides, such "
    "as fold, all-in and calling an all-in); options without a value are left unvalued"
)
CSV_FIELDS = ("hand", "street", "position", "pot_type", "depth_bb", "texture", "hole", "board",
              "betting", "pot", "to_call", "chosen", "chosen_label", "chosen_ev", "best",
              "best_ev", "ev_lost", "equity", "method")  # fmt: skip


@dataclass(frozen=True)
class Filters:
    street: str | None = None
    pot: str | None = None
    position: str | None = None
    depth: float | None = None
    texture: str | None = None

    def __post_init__(self) -> None:
        for name, value, allowed in (("street", self.street, STREETS),
                                     ("pot", self.pot, POT_TYPES),
                                     ("position", self.position, POSITIONS),
                                     ("texture", self.texture, TEXTURES)):  # fmt: skip
            if value is not None and value not in allowed:
                raise InputError(f"--{name} {value!r}: choose one of {', '.join(allowed)}")

    def keep(self, decision: Mapping) -> bool:
        return (
            (self.street is None or decision["street"] == self.street)
            and (self.pot is None or decision["pot_type"] == self.pot)
            and (self.position is None or decision["position"] == self.position)
            and (self.depth is None or abs(decision["depth_bb"] - self.depth) < 1e-9)
            and (self.texture is None or decision["texture"] == self.texture)
        )


def chosen_and_best(decision: Mapping) -> tuple[float | None, str | None, float | None]:
    """The chosen option's EV, and the best valued option and its EV (big blinds)."""
    valued = [o for o in decision["options"] if o["ev"] is not None]
    chosen = next((o["ev"] for o in decision["options"] if o["action"] == decision["chosen"]),
                  None)  # fmt: skip
    if not valued:
        return chosen, None, None
    best = max(valued, key=lambda o: o["ev"])
    return chosen, best["label"], best["ev"]


def session_report(
    decisions_by_hand: Mapping[str, Sequence[dict]], filters: Filters = Filters(), worst: int = 10
) -> dict:
    """Totals over the hands and decisions kept by ``filters``; ``worst`` decisions first."""
    hands = len(decisions_by_hand)
    kept = [d for ds in decisions_by_hand.values() for d in ds if filters.keep(d)]
    valued = [d for d in kept if d["ev_lost"] is not None]
    by_street = {}
    for street in STREETS:
        rows = [d for d in kept if d["street"] == street]
        lost = [d["ev_lost"] for d in rows if d["ev_lost"] is not None]
        by_street[street] = {"decisions": len(rows), "valued": len(lost),
                             "ev_lost": float(sum(lost))}  # fmt: skip
    total = float(sum(d["ev_lost"] for d in valued))
    ranked = sorted(valued, key=lambda d: -d["ev_lost"])[:worst]
    return {
        "hands": hands,
        "decisions": len(kept),
        "valued": len(valued),
        "ev_lost": total,
        "bb_per_100_lost": 100.0 * total / hands if hands else 0.0,
        "by_street": by_street,
        "worst": [_row(d) for d in ranked],
        "model": MODEL_NOTE,
    }


def _row(decision: Mapping) -> dict:
    chosen_ev, best, best_ev = chosen_and_best(decision)
    return {**{k: decision.get(k) for k in CSV_FIELDS if k in decision},
            "chosen_ev": chosen_ev, "best": best, "best_ev": best_ev}  # fmt: skip


def decisions_csv(decisions: Iterable[Mapping]) -> str:
    """One CSV row per decision, amounts in big blinds."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for decision in decisions:
        writer.writerow(_row(decision))
    return out.getvalue()
