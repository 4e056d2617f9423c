"""The session score: results, a 95% confidence interval, the variance-reduced estimate that
uses the bot's cards, and the EV the human's decisions gave up.

Two learner-facing measures besides the raw result:

- *EV lost by your decisions* (``ev_lost``): at each decision, the best action's EV minus the
  chosen action's EV, both against the bot's actual strategy with best play afterwards, holding
  only the human's own cards. It is zero for perfect play against this bot and never negative.
- *Luck-adjusted estimate using the bot's cards* (JSON keys ``ev_adjusted_*``): write the
  hand's result as a telescoping sum of changes in a baseline value V (the expected payoff with
  both hands known, the bot playing its strategy and the human the strategy file's): the deal,
  the board cards and the bot's actions each change V by a zero-mean amount, and only the
  human's decisions change it by something the human chose. The estimate keeps the seat's value
  before the deal plus the human's decision terms ``V(after the action) - V(before it)``, so it
  has the same expectation as the real result with much less variance (the idea behind DIVAT,
  Billings and Kan 2006, and AIVAT). Because V knows the bot's hidden hand, a single hand's
  figure moves with that hand; only its average over many hands means something.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

ADJUSTED_LABEL = "Luck-adjusted (uses bot's cards)"
"""How the UI names the ``ev_adjusted`` figures."""
ADJUSTED_NOTE = (
    "an AIVAT/DIVAT-style estimate that subtracts card luck using the bot's hidden hand: "
    "unbiased over many hands, but one hand's figure moves with the bot's cards"
)
EV_LOST_LABEL = "EV lost by your decisions"
EV_LOST_NOTE = (
    "best action EV minus your action's EV at each decision, against the bot's actual "
    "strategy, knowing only your own cards (0 = no mistakes against this bot)"
)


@dataclass
class Score:
    unit: str
    per_hand_scale: float = 1.0
    """Multiplier from chips per hand to the display unit (100 / big blind for bb/100)."""
    results: list[float] = field(default_factory=list)
    adjusted: list[float] = field(default_factory=list)
    ev_lost: list[float | None] = field(default_factory=list)
    """Per hand, chips the human's decisions gave up (None when decisions were not reviewed)."""

    def add(self, result: float, adjusted: float, ev_lost: float | None = None) -> None:
        self.results.append(result)
        self.adjusted.append(adjusted)
        self.ev_lost.append(ev_lost)

    @property
    def hands(self) -> int:
        return len(self.results)

    @property
    def net(self) -> float:
        return float(sum(self.results))

    @property
    def reviewed_losses(self) -> list[float]:
        return [loss for loss in self.ev_lost if loss is not None]

    def _mean_ci(self, values: list[float]) -> tuple[float, float]:
        n = len(values)
        if n == 0:
            return float("nan"), float("nan")
        mean = sum(values) / n
        if n < 2:
            return mean * self.per_hand_scale, float("inf")
        variance = sum((v - mean) ** 2 for v in values) / (n - 1)
        return mean * self.per_hand_scale, 1.96 * math.sqrt(variance / n) * self.per_hand_scale

    def summary(self) -> dict:
        mean, ci = self._mean_ci(self.results)
        adjusted_mean, adjusted_ci = self._mean_ci(self.adjusted)
        losses = self.reviewed_losses
        lost_mean, lost_ci = self._mean_ci(losses)
        return {
            "hands": self.hands,
            "net": self.net,
            "mean": mean,
            "ci95": ci,
            "ev_adjusted_net": float(sum(self.adjusted)),
            "ev_adjusted_mean": adjusted_mean,
            "ev_adjusted_ci95": adjusted_ci,
            "ev_lost_hands": len(losses),
            "ev_lost_net": float(sum(losses)),
            "ev_lost_mean": lost_mean,
            "ev_lost_ci95": lost_ci,
            "unit": self.unit,
        }
