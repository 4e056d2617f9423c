"""The session score: results, a 95% confidence interval, and the EV-adjusted result.

The EV-adjusted result of a hand removes the luck of the cards. Write the hand's result as a
telescoping sum of changes in a baseline value V (the expected payoff with both hands known,
the bot playing its strategy and the human the strategy file's): the deal, the board cards and
the bot's actions each change V by a zero-mean amount, and only the human's decisions change it
by something the human chose. The adjusted result keeps the seat's value before the deal plus
the human's decision terms ``V(after the action) - V(before it)``, so it has the same
expectation as the real result with much less variance (the idea behind DIVAT, Billings and
Kan 2006).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass
class Score:
    unit: str
    per_hand_scale: float = 1.0
    """Multiplier from chips per hand to the display unit (100 / big blind for bb/100)."""
    results: list[float] = field(default_factory=list)
    adjusted: list[float] = field(default_factory=list)

    def add(self, result: float, adjusted: float) -> None:
        self.results.append(result)
        self.adjusted.append(adjusted)

    @property
    def hands(self) -> int:
        return len(self.results)

    @property
    def net(self) -> float:
        return float(sum(self.results))

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
        return {
            "hands": self.hands,
            "net": self.net,
            "mean": mean,
            "ci95": ci,
            "ev_adjusted_net": float(sum(self.adjusted)),
            "ev_adjusted_mean": adjusted_mean,
            "ev_adjusted_ci95": adjusted_ci,
            "unit": self.unit,
        }
