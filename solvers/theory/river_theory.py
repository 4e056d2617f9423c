"""The river toy game and the clairvoyance game: one bet, nuts or air against a bluff-catcher.

The closed form (``river_toy_equilibrium``) beside the engine's exact numbers: each bettor
strategy's EV when the caller best-responds, and the equilibrium bettor's EV when the caller
always calls or always folds (equal: the caller is indifferent). EVs are the bettor's expected
chips from the pot (``bettor_share``), not a fraction of it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.exact.evaluation import best_response, expected_values
from solvers.games import load_game
from solvers.games.river_toy import river_toy_equilibrium
from solvers.theory import poker_math as pm


@dataclass(frozen=True)
class RiverFigures:
    alpha: float
    bluff_share: float
    mdf: float
    bluff_of_all: float
    """Bluffs as a share of all the bettor's hands."""
    air_bluff_frequency: float
    """How often the bettor bluffs with air: bluffs over the air share."""
    call_probability: float
    clairvoyance_bluffs_per_value_bet: float
    """Clairvoyance game (pot 1, bet x = B/P): x / (1 + x) bluffs per value bet."""
    clairvoyance_call: float
    """Clairvoyance game: the caller calls 1 / (1 + x)."""
    vs_best_response: dict[str, float]
    """Bettor's EV in chips against a best-responding caller, per bettor strategy."""
    equilibrium_vs: dict[str, float]
    """Equilibrium bettor's EV in chips when the caller always calls or always folds."""


def river_figures(pot: float, bet: float, nuts: float) -> RiverFigures:
    """ValueError when the inputs leave too little air to bluff at equilibrium."""
    if pot <= 0 or bet <= 0 or not 0 < nuts < 1:
        raise ValueError("need a pot > 0, a bet > 0 and a nuts share strictly in (0, 1)")
    game = load_game(f"river_toy(pot={pot!r},bets=[{bet!r}],nuts={nuts!r})")
    closed = river_toy_equilibrium(pot, bet, nuts)
    air_bluff = closed.bluff_fraction / (1 - nuts)
    if air_bluff > 1:
        raise ValueError("too little air to bluff at equilibrium: raise the nuts share or bet")
    root, facing = (node.id for node in game.decision_nodes())
    bettors = {
        "never bluff": np.array([[0.0, 1.0], [1.0, 0.0]]),
        "always bet": np.array([[0.0, 1.0], [0.0, 1.0]]),
        "equilibrium": np.array([[0.0, 1.0], [1 - air_bluff, air_bluff]]),
    }
    caller = np.array([[1 - closed.call_probability, closed.call_probability]])
    vs_br = {}
    for name, bettor in bettors.items():
        response = best_response(game, {root: bettor, facing: caller}, 1)
        vs_br[name] = float(game.bettor_share(-response.value))
    eq_vs = {}
    for name, call in (("always call", 1.0), ("always fold", 0.0)):
        profile = {root: bettors["equilibrium"], facing: np.array([[1 - call, call]])}
        eq_vs[name] = float(game.bettor_share(expected_values(game, profile).totals[0]))
    x = bet / pot
    return RiverFigures(
        alpha=pm.alpha(pot, bet),
        bluff_share=pm.bluff_share(pot, bet),
        mdf=pm.minimum_defence_frequency(pot, bet),
        bluff_of_all=closed.bluff_fraction,
        air_bluff_frequency=air_bluff,
        call_probability=closed.call_probability,
        clairvoyance_bluffs_per_value_bet=x / (1 + x),
        clairvoyance_call=1 / (1 + x),
        vs_best_response=vs_br,
        equilibrium_vs=eq_vs,
    )
