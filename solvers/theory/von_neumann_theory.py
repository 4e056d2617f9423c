"""Von Neumann poker (Goykhman §2): the closed form beside the LP solution on M bins, and the
player's EV for common deviations against three dealers.

The dealers are the admissible equilibrium (call above y0), a *flat dealer* (the call mass c
spread evenly over (x1, x2), calling for sure above x2) and the LP's dealer. The player's best
response against each tells which are equilibria: against an equilibrium dealer it gains nothing
over the value. The flat dealer is not one for every (a, B): Goykhman's condition e1(x) < 0 on
(x1, x2) fails for (1, 2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.exact.evaluation import best_response, expected_values
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.games.von_neumann import closed_form
from solvers.theory.thresholds import measured_thresholds

BEST_RESPONSE_ROW = "player's best response"


def player_deviations(centres: np.ndarray, form) -> dict[str, np.ndarray]:
    """Bet indicators per bin centre: the player's equilibrium and common deviations from it."""
    x1, x2, y0 = form.x1, form.x2, form.y0
    return {
        "equilibrium": (centres < x1) | (centres > x2),
        "never bluff": centres > x2,
        "bluff twice as often": (centres < 2 * x1) | (centres > x2),
        "value-bet down to y0": (centres < x1) | (centres > y0),
        "always bet": np.ones_like(centres, bool),
        "never bet": np.zeros_like(centres, bool),
    }


def dealer_strategies(centres: np.ndarray, form, lp_call: np.ndarray) -> dict[str, np.ndarray]:
    """Call probability per bin for the admissible, flat and LP dealers."""
    middle = (centres > form.x1) & (centres < form.x2)
    flat_call = np.where(centres >= form.x2, 1.0, 0.0)
    flat_call[middle] = min(1.0, form.c / (form.x2 - form.x1))
    return {
        "admissible": (centres > form.y0).astype(float),
        "flat": flat_call,
        "LP": np.asarray(lp_call, dtype=float),
    }


@dataclass(frozen=True)
class VonNeumannFigures:
    form: object
    """``closed_form(ante, bet)``: x1, x2, c, y0 and the value."""
    lp_value: float
    measured: object
    """The LP solution's thresholds on the bins."""
    bet: np.ndarray
    """The LP player's bet probability per bin."""
    call: np.ndarray
    """The LP dealer's call probability per bin."""
    rows: list[tuple]
    """``(player strategy, EV vs admissible, vs flat, vs LP dealer)``; the last row is the
    player's best response against each dealer."""


def von_neumann_figures(ante: float, bet: float, bins: int) -> VonNeumannFigures:
    game = load_game(f"von_neumann(ante={ante!r},bet={bet!r},bins={bins})")
    form = closed_form(ante, bet)
    solution = solve_lp(game)
    root, facing = game.node_by_key("").id, game.node_by_key("b").id
    centres = (np.arange(bins) + 0.5) / bins
    dealers = dealer_strategies(centres, form, solution.strategy[facing][:, 1])
    rows: list[tuple] = []
    for name, bets in player_deviations(centres, form).items():
        bet_p = bets.astype(float)
        evs = []
        for call in dealers.values():
            profile = {
                root: np.stack([1 - bet_p, bet_p], axis=1),
                facing: np.stack([1 - call, call], axis=1),
            }
            evs.append(float(expected_values(game, profile).totals[0]))
        rows.append((name, *evs))
    best = []
    for call in dealers.values():
        profile = {root: np.ones((bins, 2)) / 2, facing: np.stack([1 - call, call], axis=1)}
        best.append(float(best_response(game, profile, 0).value))
    rows.append((BEST_RESPONSE_ROW, *best))
    return VonNeumannFigures(
        form=form,
        lp_value=float(solution.value),
        measured=measured_thresholds(game, solution.strategy),
        bet=solution.strategy[root][:, 1],
        call=solution.strategy[facing][:, 1],
        rows=rows,
    )
