"""The closed-form quantities of a single bet (Janda; the AI Poker Tutorial).

``pot`` is the pot before the bet and ``bet`` the bet's size, both in chips.

* required equity to call (pot odds): ``bet / (pot + 2 bet)``;
* minimum defence frequency: ``pot / (pot + bet)``;
* alpha, the fold frequency a pure bluff needs: ``bet / (pot + bet)``;
* the bluff share of a polarised range at equilibrium: ``bet / (pot + 2 bet)``, so the
  bluff:value ratio is ``alpha`` bluffs per value bet;
* EV of a shove that can be called: ``F P0 + (1 - F)(E P_final - R)``.
"""

from __future__ import annotations

from solvers.errors import InputError


def _check(pot: float, bet: float) -> None:
    if pot < 0 or bet <= 0:
        raise InputError(f"need a pot >= 0 and a bet > 0 (got pot {pot}, bet {bet})")


def required_equity(pot: float, bet: float) -> float:
    _check(pot, bet)
    return bet / (pot + 2 * bet)


def minimum_defence_frequency(pot: float, bet: float) -> float:
    _check(pot, bet)
    return pot / (pot + bet)


def alpha(pot: float, bet: float) -> float:
    _check(pot, bet)
    return bet / (pot + bet)


def bluff_share(pot: float, bet: float) -> float:
    """Share of bluffs in a polarised betting range that makes bluff-catchers indifferent."""
    _check(pot, bet)
    return bet / (pot + 2 * bet)


def bluff_to_value_ratio(pot: float, bet: float) -> float:
    return alpha(pot, bet)


def shove_ev(fold_frequency: float, pot_before: float, equity: float, risked: float) -> float:
    """EV of a shove risking ``risked`` into ``pot_before``; called, the pot is P0 + 2R."""
    pot_final = pot_before + 2 * risked
    return fold_frequency * pot_before + (1 - fold_frequency) * (equity * pot_final - risked)


def implied_odds_needed(pot: float, bet: float, equity: float) -> float:
    """Extra chips that must be won later for a call with ``equity`` to break even."""
    _check(pot, bet)
    if not 0 <= equity <= 1:
        raise InputError(f"equity must be in [0, 1], not {equity}")
    if equity == 0:
        return float("inf")
    needed = bet / equity - (pot + 2 * bet)
    return max(needed, 0.0)
