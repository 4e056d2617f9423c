"""One check for "this profile solves the game", built on facts that hold for any profile.

For a two-player zero-sum game with value ``v*`` and a profile with best-response values ``BR_0``
(seat 1 against seat 2's part) and ``BR_1``: ``-BR_1 <= v* <= BR_0``, and the profile's own value
``v`` lies in the same interval. So ``|v - v*| <= BR_0 + BR_1 = NashConv = 2 * exploitability``
(exploitability is NashConv / 2 here, as in OpenSpiel). A profile passes if its exact
exploitability is below a bound chosen from measured runs, and the known game value and the
reported value both fall inside its best-response interval: the uniform profile (Leduc NashConv
4.7) and a value reported for the wrong seat fail.
"""

from __future__ import annotations

import pytest

from solvers.exact.evaluation import Exploitability, exploitability

SLACK = 1e-9
"""Rounding allowance on the interval ends."""


def best_response_interval(report: Exploitability) -> tuple[float, float]:
    """``[-BR_1, BR_0]``: where the game value and the profile's value must both lie."""
    return -report.best_responses[1].value, report.best_responses[0].value


def assert_near_equilibrium(
    game, strategy, *, value: float, max_exploitability: float, reported=None
) -> Exploitability:
    """Exact exploitability below the bound; ``value`` (the game's, known independently) and
    ``reported`` (a solver's metrics, if given) inside the best-response interval."""
    report = exploitability(game, strategy)
    assert report.exploitability < max_exploitability, (
        f"exploitability {report.exploitability:.6g} is not below {max_exploitability:g}"
    )
    low, high = best_response_interval(report)
    assert low - SLACK <= value <= high + SLACK, (
        f"the game value {value:.9g} is outside [-BR_1, BR_0] = [{low:.9g}, {high:.9g}]"
    )
    assert abs(report.game_value - value) <= report.nash_conv + SLACK
    if reported is not None:
        assert reported.exploitability == pytest.approx(report.exploitability, rel=1e-9, abs=1e-12)
        assert reported.game_value == pytest.approx(report.game_value, abs=1e-12)
        assert low - SLACK <= reported.game_value <= high + SLACK
    return report
