"""The live numbers of a decision in the full game: odds, the bot's range, equity and EVs.

The bot's range is Bayes' rule over its own policy: every combo starts with weight one, each
action the bot took multiplies it by the probability the bot's policy gave that action with
that combo, and combos that share a card with the board or the human's hand are out. The
human's equity against it is exact over every runout from the flop on and a fixed-seed sample
of boards preflop (every runout would be 1.7 million boards).

An action's EV (chips won from now on, folding = 0) is given only where no later decision
matters: a call or check that ends the betting (a river call, a call of an all-in, the
closing river check) is the equity times the final pot less the call; an all-in shove is the
bot's fold mass times the pot plus, when it calls, the equity against its calling range. Every
other action would need a solve of the rest of the hand, and is left out rather than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import COMBO_INDEX, N_COMBOS, combos_to_classes, dead_mask
from solvers.games.hunl.agent import Agent, Policy
from solvers.games.hunl.rules import CALL, FOLD, RAISE, SHOWDOWN, Action, HunlState
from solvers.reports.spot_equity import equity_on_boards, runouts, sampled_runouts
from solvers.theory.poker_math import minimum_defence_frequency, required_equity

PREFLOP_SAMPLES = 2_000
"""Boards sampled for a preflop equity: about 1% standard error, a fifth of a second."""


def action_column(policy: Policy, action: Action) -> int:
    """The policy's column for an action taken: the same action, or for a raise the listed
    raise nearest in total (a chump's uniform raise amount, a blueprint's rounding)."""
    for index, listed in enumerate(policy.actions):
        if listed == action:
            return index
    raises = [i for i, a in enumerate(policy.actions) if a.kind == RAISE]
    if action.kind == RAISE and raises:
        return min(raises, key=lambda i: abs(policy.actions[i].to - action.to))
    kinds = [i for i, a in enumerate(policy.actions) if a.kind == action.kind]
    if kinds:
        return kinds[0]
    raise ValueError(f"the policy has no action like {action}")


def bayes_reach(steps: list[tuple[Policy, Action]]) -> np.ndarray:
    """``[1326]``: for each combo, the probability the bot's policy took every listed action."""
    reach = np.ones(N_COMBOS)
    for policy, action in steps:
        reach = reach * policy.probabilities[:, action_column(policy, action)]
    return reach


def live_mask(board: np.ndarray, hole: tuple[int, int]) -> np.ndarray:
    """Combos the bot can hold: none of the board's cards or the human's."""
    return ~dead_mask([*(int(c) for c in board), int(hole[0]), int(hole[1])])


def equity_against(
    board: np.ndarray, hole: tuple[int, int], weights: np.ndarray, seed: int = 0
) -> tuple[float, str]:
    """The human's equity against ``weights`` over the 1,326 combos, and how it was found."""
    own = np.array([COMBO_INDEX[int(hole[0]), int(hole[1])]])
    opp = np.flatnonzero(weights > 0)
    if len(opp) == 0:
        return float("nan"), "no range"
    board_t = tuple(int(c) for c in board)
    if len(board_t) >= 3:
        boards, how = runouts(board_t), "exact"
    else:
        rng = np.random.default_rng(seed)
        boards = sampled_runouts(board_t, tuple(int(c) for c in hole), PREFLOP_SAMPLES, rng)
        how = f"{PREFLOP_SAMPLES:,} sampled boards"
    return float(equity_on_boards(boards, own, opp, weights[opp])[0]), how


@dataclass(frozen=True)
class ActionEV:
    action: Action
    ev: float | None
    """Chips won from now on (folding = 0), or None where later play would decide it."""


@dataclass(frozen=True)
class LiveNumbers:
    pot: int
    stacks: tuple[int, int]
    """Chips each seat has behind."""
    to_call: int
    pot_odds: float | None
    """Equity needed to call (call / (pot + call)); None when there is nothing to call."""
    mdf: float | None
    """Minimum defence frequency against the bet faced."""
    bot_range: np.ndarray
    """``[1326]`` the bot's range, normalised (0 for impossible combos)."""
    bot_grid: np.ndarray
    """``[169]`` how often the bot still holds each class here (Bayes reach, 0 to 1)."""
    equity: float
    equity_method: str
    evs: tuple[ActionEV, ...]


def live_numbers(
    state: HunlState,
    board: np.ndarray,
    hole: tuple[int, int],
    reach: np.ndarray,
    agent: Agent | None = None,
    legal_actions: tuple[Action, ...] = (),
    seed: int = 0,
) -> LiveNumbers:
    """The numbers for the player to act in ``state`` holding ``hole``; ``reach`` is the bot's
    Bayes reach (``bayes_reach``); ``agent`` answers the shove's fold odds; ``legal_actions``
    are the actions to value (fold, call and all-in are added when legal)."""
    legal = state.legal()
    mask = live_mask(board, hole)
    weights = np.where(mask, reach, 0.0)
    total = weights.sum()
    normalised = weights / total if total > 0 else weights
    counts = combos_to_classes(mask.astype(float), "sum")
    with np.errstate(invalid="ignore", divide="ignore"):
        grid = np.where(counts > 0, combos_to_classes(weights, "sum") / counts, 0.0)
    equity, how = equity_against(board, hole, normalised, seed)
    call = legal.call_amount
    pot_odds = mdf = None
    if call > 0:
        pot_before = state.pot - call
        pot_odds = required_equity(pot_before, call)
        mdf = minimum_defence_frequency(pot_before, call)
    evs = _action_evs(state, board, hole, normalised, equity, agent, legal_actions, seed)
    stacks = (state.stack_left(0), state.stack_left(1))
    return LiveNumbers(
        state.pot, stacks, call, pot_odds, mdf, normalised, grid, equity, how, evs
    )


def _action_evs(state, board, hole, weights, equity, agent, extra, seed) -> tuple[ActionEV, ...]:
    legal = state.legal()
    actions: list[Action] = []
    if legal.can_fold:
        actions.append(Action(FOLD))
    actions.append(Action(CALL))
    actions += [a for a in extra if a.kind == RAISE]
    if legal.max_raise_to is not None and Action(RAISE, legal.max_raise_to) not in actions:
        actions.append(Action(RAISE, legal.max_raise_to))
    return tuple(
        ActionEV(a, _value(state, board, hole, weights, equity, agent, a, seed)) for a in actions
    )


def _value(state, board, hole, weights, equity, agent, action, seed) -> float | None:
    seat = state.to_act
    if action.kind == FOLD:
        return 0.0
    if np.isnan(equity):
        return None
    after = state.apply(action)
    if action.kind == CALL:
        if after.street == SHOWDOWN or after.all_in:
            return equity * after.pot - state.to_call(seat)
        return None
    legal = state.legal()
    if action.to != legal.max_raise_to or agent is None:
        return None
    answer = agent.policy(after, board)
    fold_col = [i for i, a in enumerate(answer.actions) if a.kind == FOLD]
    folds = answer.probabilities[:, fold_col].sum(axis=1) if fold_col else np.zeros(N_COMBOS)
    fold_mass = float((weights * folds).sum())
    calling = weights * (1.0 - folds)
    risked = action.to - state.committed[seat]
    if calling.sum() <= 0:
        return fold_mass * state.pot
    called_equity, _ = equity_against(board, hole, calling / calling.sum(), seed)
    final_pot = 2 * action.to
    return fold_mass * state.pot + (1 - fold_mass) * (called_equity * final_pot - risked)
