"""Measured thresholds of a binned von Neumann strategy, to set beside the closed form.

Goykhman's continuous solution is described by thresholds (x1, x2, y0) and the dealer's call
mass c; a solver's binned strategy is read back into the same four numbers (and its value, from
the exact walk) so the theory lab and the paper-replication tests can compare them.
"""

from __future__ import annotations

import numpy as np

from solvers.exact.evaluation import expected_values
from solvers.games.base import Strategy
from solvers.games.von_neumann import ClosedForm, VonNeumannGame


def measured_thresholds(game: VonNeumannGame, strategy: Strategy) -> ClosedForm:
    """Measured x1, x2, c, y0 (fractions of [0, 1]) of a binned strategy.

    ``x1`` is the betting mass below the check region, ``x2`` one minus the mass above it,
    ``c`` the dealer's call mass on (x1, x2) and ``y0 = x2 - c`` (the admissible threshold
    with the same call mass). ``value`` is player 0's EV of the profile.
    """
    m = game.n_hands[0]
    bet = strategy[game.node_by_key("").id][:, 1]
    call = strategy[game.node_by_key("b").id][:, 1]
    checking = np.flatnonzero(bet < 0.5)
    split = (checking[0] + checking[-1] + 1) // 2 if len(checking) else m // 2
    x1 = bet[:split].sum() / m
    x2 = 1.0 - bet[split:].sum() / m
    centres = (np.arange(m) + 0.5) / m
    middle = (centres > x1) & (centres < x2)
    c = call[middle].sum() / m
    value = expected_values(game, strategy).totals[0]
    return ClosedForm(x1=x1, x2=x2, c=c, y0=x2 - c, value=value)
