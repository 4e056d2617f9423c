"""The options a player sees at a decision in the app: fold, check or call, then the size keys.

The sizes are the play screen's keys (min, fractions of the pot after calling, all-in, clamped
to what is legal); the app's ``pokertui/session/hunl_hand.size_totals`` names these totals.
"""

from __future__ import annotations

from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlState

SIZE_KEYS = (("min", None), ("1/3", 1 / 3), ("1/2", 1 / 2), ("2/3", 2 / 3), ("pot", 1.0))
"""The app's bet keys: the minimum raise and fractions of the pot after calling; all-in comes
last (``allin``)."""


def raise_totals(state: HunlState) -> list[int]:
    """Raise-to totals of the size keys in order, duplicates kept (min ... pot, all-in)."""
    legal = state.legal()
    if legal.min_raise_to is None or legal.max_raise_to is None:
        return []
    facing = state.committed[1 - state.to_act]
    pot_after_call = state.pot + legal.call_amount
    totals = []
    for _, fraction in SIZE_KEYS:
        total = legal.min_raise_to if fraction is None else facing + fraction * pot_after_call
        totals.append(int(round(min(max(total, legal.min_raise_to), legal.max_raise_to))))
    return [*totals, legal.max_raise_to]


def app_options(state: HunlState, chosen: Action | None = None) -> tuple[Action, ...]:
    """Fold when facing a bet, check or call, the distinct size keys' raises, and ``chosen``
    when it is none of these (a typed size)."""
    legal = state.legal()
    found = [Action(FOLD)] if legal.can_fold else []
    found.append(Action(CALL))
    for total in raise_totals(state):
        if Action(RAISE, total) not in found:
            found.append(Action(RAISE, total))
    if chosen is not None and chosen not in found:
        found.append(chosen)
    return tuple(found)
