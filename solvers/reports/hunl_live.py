"""The live numbers of a decision in the full game: odds, the bot's range, equity and EVs.

The bot's range is Bayes' rule over its own policy: every combo starts with weight one, each
action the bot took multiplies it by the probability the bot's policy gave that action with
that combo, and combos that share a card with the board or the human's hand are out. The
human's equity against it is exact over every runout from the flop on and a fixed-seed sample
of boards preflop (every runout would be 1.7 million boards).

An action's EV (chips won from now on, folding = 0) is given only where no later decision
matters: a call or check that ends the betting (a river call, a call of an all-in, the
closing river check) is the equity times the final pot less the call; an all-in, or a river
bet that the bot's policy never re-raises, is the bot's fold mass times the pot plus, when it
calls, the equity against its calling range times the final pot less the chips risked. Every
other action would need a solve of the rest of the hand, and is left out rather than guessed,
unless the caller gives ``known`` values: on a street the re-solving bot solves, every action of
its solve's tree is valued against its solved strategy (``agents/resolve_values.py``), and those
values replace the closed forms. Preflop, a blueprint bot whose file has a values table beside it
values every action of its tree's node against the blueprint's play for both seats thereafter
(``reports/blueprint_values.py``: Monte Carlo over cards, exact over actions, with its error).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from solvers.cards.deck import COMBO_INDEX, N_COMBOS, combos_to_classes, dead_mask
from solvers.games.hunl.agent import Agent, Policy, action_column
from solvers.games.hunl.rules import CALL, FOLD, RAISE, SHOWDOWN, Action, HunlState
from solvers.reports.blueprint_values import blueprint_preflop_values
from solvers.reports.spot_equity import equity_on_boards, runouts, sampled_runouts
from solvers.theory.poker_math import minimum_defence_frequency, required_equity

PREFLOP_SAMPLES = 2_000
"""Boards sampled for a preflop equity: about 1% standard error, a fifth of a second."""


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
    equities, how = equities_against(board, hole, np.atleast_2d(weights), seed)
    return float(equities[0]), how


def equities_against(
    board: np.ndarray, hole: tuple[int, int], ranges: np.ndarray, seed: int = 0
) -> tuple[np.ndarray, str]:
    """The human's equity against each row of ``ranges`` ``[k, 1326]`` (NaN for an empty row),
    the hand strengths evaluated once for all rows."""
    own = np.array([COMBO_INDEX[int(hole[0]), int(hole[1])]])
    opp = np.flatnonzero(ranges.sum(axis=0) > 0)
    if len(opp) == 0:
        return np.full(len(ranges), np.nan), "no range"
    board_t = tuple(int(c) for c in board)
    if len(board_t) >= 3:
        boards, how = runouts(board_t), "exact"
    else:
        rng = np.random.default_rng(seed)
        boards = sampled_runouts(board_t, tuple(int(c) for c in hole), PREFLOP_SAMPLES, rng)
        how = f"{PREFLOP_SAMPLES:,} sampled boards"
    equities = equity_on_boards(boards, own, opp, ranges[:, opp])[:, 0]
    return np.where(ranges.sum(axis=1) > 0, equities, np.nan), how


@dataclass(frozen=True)
class _Bet:
    """A bet or raise the bot answers by folding or calling (never re-raising)."""

    action: Action
    fold_mass: float
    calling: np.ndarray
    """The range that calls (unnormalised weights)."""
    final_pot: int
    risked: int


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
    ev_method: str = ""
    """Where the EVs come from when not the closed forms: the re-solve's description."""
    pending: tuple[Action, ...] = ()
    """Unvalued actions whose value is being solved (the bot's re-solve facing each)."""
    bot_combos: float = math.nan
    """How many combos the bot still holds here, each weighted by its Bayes reach."""

    def with_known(
        self, known: Mapping[Action, float], method: str, pending: tuple[Action, ...] = ()
    ) -> LiveNumbers:
        """These numbers with the EVs of ``known`` (a re-solve's) and the rest of the actions
        unvalued; ``pending`` of those are being solved."""
        return replace(self, evs=known_evs(known, [e.action for e in self.evs]),
                       ev_method=method, pending=pending)  # fmt: skip


def known_evs(known: Mapping[Action, float], actions: list[Action]) -> tuple[ActionEV, ...]:
    """``known``'s values and ``actions`` they lack, unvalued: fold, check or call, then the
    bets and raises by size, the all-in last (as the keys are listed)."""
    evs = [ActionEV(a, float(v)) for a, v in known.items()]
    evs += [ActionEV(a, None) for a in actions if a not in known]
    order = {FOLD: 0, CALL: 1, RAISE: 2}
    return tuple(sorted(evs, key=lambda e: (order[e.action.kind], e.action.to or 0)))


def live_numbers(
    state: HunlState,
    board: np.ndarray,
    hole: tuple[int, int],
    reach: np.ndarray,
    agent: Agent | None = None,
    legal_actions: tuple[Action, ...] = (),
    seed: int = 0,
    known: Mapping[Action, float] | None = None,
    known_method: str = "",
) -> LiveNumbers:
    """The numbers for the player to act in ``state`` holding ``hole``; ``reach`` is the bot's
    Bayes reach (``bayes_reach``); ``agent`` answers the shove's fold odds; ``legal_actions``
    are the actions to value (fold, call and all-in are added when legal). ``known`` values
    (a re-solve's, described by ``known_method``) stand for every action they hold, the rest
    of the actions unvalued, all in the keys' order (``known_evs``)."""
    if known is None and agent is not None and state.street == 0:
        preflop = blueprint_preflop_values(agent, state, hole)
        if preflop is not None:
            known, known_method = preflop.known, preflop.note
    legal = state.legal()
    mask = live_mask(board, hole)
    weights = np.where(mask, reach, 0.0)
    total = weights.sum()
    normalised = weights / total if total > 0 else weights
    counts = combos_to_classes(mask.astype(float), "sum")
    with np.errstate(invalid="ignore", divide="ignore"):
        grid = np.where(counts > 0, combos_to_classes(weights, "sum") / counts, 0.0)
    call = legal.call_amount
    pot_odds = mdf = None
    if call > 0:
        pot_before = state.pot - call
        pot_odds = required_equity(pot_before, call)
        mdf = minimum_defence_frequency(pot_before, call)
    actions = _actions(state, legal_actions)
    valued = [a for a in actions if a.kind == RAISE and known is None]  # known: no bot query
    bets = {a: _bet(state, board, normalised, agent, a) for a in valued}
    called = [b for b in bets.values() if b is not None and b.calling.sum() > 0]
    ranges = np.array([normalised, *(b.calling / b.calling.sum() for b in called)])
    equities, how = equities_against(board, hole, ranges, seed)
    equity = float(equities[0])
    called_equity = {b.action: float(e) for b, e in zip(called, equities[1:], strict=True)}
    evs = []
    for action in actions:
        if action.kind == RAISE:
            value = _bet_value(state, bets.get(action), called_equity.get(action))
        else:
            value = _value(state, equity, action)
        evs.append(ActionEV(action, value))
    if known is not None:
        evs = list(known_evs(known, actions))
    stacks = (state.stack_left(0), state.stack_left(1))
    return LiveNumbers(
        state.pot,
        stacks,
        call,
        pot_odds,
        mdf,
        normalised,
        grid,
        equity,
        how,
        tuple(evs),
        known_method if known is not None else "",
        bot_combos=float(total),
    )


def _actions(state: HunlState, extra: tuple[Action, ...]) -> list[Action]:
    """Fold when facing a bet, check or call, the given raises and all-in."""
    legal = state.legal()
    actions: list[Action] = []
    if legal.can_fold:
        actions.append(Action(FOLD))
    actions.append(Action(CALL))
    actions += [a for a in extra if a.kind == RAISE]
    if legal.max_raise_to is not None and Action(RAISE, legal.max_raise_to) not in actions:
        actions.append(Action(RAISE, legal.max_raise_to))
    return actions


def _value(state: HunlState, equity: float, action: Action) -> float | None:
    """Fold, or a check or call: valued when it ends the betting."""
    if action.kind == FOLD:
        return 0.0
    after = state.apply(action)
    if np.isnan(equity) or not (after.street == SHOWDOWN or after.all_in):
        return None
    return equity * after.pot - state.to_call(state.to_act)


def _bet(state, board, weights, agent, action) -> _Bet | None:
    """The bot's answer to a raise, when a call of it ends the betting and the bot's policy
    never re-raises (None otherwise: later play decides its value)."""
    after = state.apply(action)
    closing = after.apply(Action(CALL))
    if agent is None or closing.street != SHOWDOWN:
        return None  # a call of this raise would lead to more betting
    answer = agent.policy(after, board)
    columns = {kind: [i for i, a in enumerate(answer.actions) if a.kind == kind] for kind in "fr"}
    folds = answer.probabilities[:, columns[FOLD]].sum(axis=1)
    raises = answer.probabilities[:, columns[RAISE]].sum(axis=1)
    if float((weights * raises).sum()) > 1e-12:
        return None  # the bot may re-raise
    fold_mass = float((weights * folds).sum())
    risked = action.to - state.committed[state.to_act]
    return _Bet(action, fold_mass, weights * (1.0 - folds), closing.pot, risked)


def _bet_value(state: HunlState, bet: _Bet | None, called_equity: float | None) -> float | None:
    if bet is None:
        return None
    if called_equity is None:  # the bot always folds
        return bet.fold_mass * state.pot
    return bet.fold_mass * state.pot + (1 - bet.fold_mass) * (
        called_equity * bet.final_pot - bet.risked
    )
