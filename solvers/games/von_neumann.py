"""Von Neumann poker on M equal bins, and its continuous closed form (Goykhman, seed 000, §2).

Both players ante ``a`` and draw a uniform number in [0, 1]; here the interval is cut into M
equal bins and equal bins split the pot. The player bets ``B`` or checks (a check goes straight to
showdown); the dealer calls or folds a bet.

In the continuous game, with P = 2a, the player bets below ``x1`` (bluffs) and above ``x2``
(value); the dealer's call mass on (x1, x2) is ``c``, and the admissible dealer calls exactly
above ``y0 = x2 - c``. The player's net value is ``(P/2) * x1``.

The binned game resolves thresholds only to a bin, so its thresholds differ from these by
O(1/M); its value differs by only O(1/M^2), because the value is stationary at equilibrium
(measured in ``tests/test_games_von_neumann.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import Field

from solvers.games.base import (
    MAX_CHIPS,
    MIN_CHIPS,
    GameParams,
    NodeKind,
    Strategy,
    TreeBuilder,
    TreeGame,
)
from solvers.games.spec import register_game


class VonNeumannParams(GameParams):
    chip_fields = ("ante", "bet")
    ante: float = Field(1.0, ge=MIN_CHIPS, le=MAX_CHIPS)
    bet: float = Field(2.0, ge=MIN_CHIPS, le=MAX_CHIPS)
    bins: int = Field(100, ge=2, le=1000)


@dataclass(frozen=True)
class ClosedForm:
    x1: float
    x2: float
    c: float
    y0: float
    value: float


def closed_form(ante: float, bet: float) -> ClosedForm:
    """Goykhman's continuous solution (§2) for ante ``a`` and bet ``B``."""
    pot = 2.0 * ante
    denom = pot * bet + 2.0 * (pot + bet) ** 2
    x1 = pot * bet / denom
    return ClosedForm(
        x1=x1,
        x2=(2.0 * (pot + bet) ** 2 - pot**2) / denom,
        c=pot * (pot + bet) / denom,
        y0=bet * (3.0 * pot + 2.0 * bet) / denom,
        value=pot / 2.0 * x1,
    )


def bet_or_check_tree(ante: float, bet: float) -> TreeBuilder:
    """Von Neumann's betting: the player checks (showdown) or bets; the dealer calls or folds.

    Shared by every game with this shape (von Neumann, flop poker).
    """
    tree = TreeBuilder()
    root = tree.add(
        -1,
        "",
        NodeKind.DECISION,
        contributions=(ante, ante),
        player=0,
        actions=("check", "bet"),
        tokens=("c", "b"),
        amounts=(0.0, bet),
    )
    tree.add(root, "c", NodeKind.TERMINAL, contributions=(ante, ante), terminal="showdown")
    bet_in = (ante + bet, ante)
    facing = tree.add(
        root,
        "b",
        NodeKind.DECISION,
        contributions=bet_in,
        player=1,
        actions=("fold", "call"),
        tokens=("f", "c"),
        amounts=(0.0, bet),
    )
    tree.add(facing, "f", NodeKind.TERMINAL, contributions=bet_in, terminal="fold", folder=1)
    called = (ante + bet, ante + bet)
    tree.add(facing, "c", NodeKind.TERMINAL, contributions=called, terminal="showdown")
    return tree


@register_game
class VonNeumannGame(TreeGame):
    name = "von_neumann"
    params_model = VonNeumannParams
    params: VonNeumannParams
    description = "von Neumann poker on M bins: bet or check, then call or fold"

    @classmethod
    def from_params(cls, params: VonNeumannParams) -> VonNeumannGame:
        a, b, m = params.ante, params.bet, params.bins
        tree = bet_or_check_tree(a, b)
        labels = tuple(str(i) for i in range(m))
        prior = np.full((m, m), 1.0 / m**2)
        return cls(params, (labels, labels), prior, tree.finish(), big_blind=a)

    def showdown_sign(self, node):
        bins = np.arange(self.n_hands[0])
        return np.sign(bins[:, None] - bins[None, :])

    def closed_form(self) -> ClosedForm:
        return closed_form(self.params.ante, self.params.bet)

    def admissible_strategy(self) -> Strategy:
        """The continuous admissible equilibrium sampled at bin centres."""
        form = self.closed_form()
        centres = (np.arange(self.n_hands[0]) + 0.5) / self.n_hands[0]
        bet = ((centres < form.x1) | (centres > form.x2)).astype(float)
        call = (centres > form.y0).astype(float)
        return {
            self.node_by_key("").id: np.stack([1 - bet, bet], axis=1),
            self.node_by_key("b").id: np.stack([1 - call, call], axis=1),
        }
