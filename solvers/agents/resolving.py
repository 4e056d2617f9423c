"""The re-solving bot: the blueprint early in the hand, a fresh spot-engine solve on later streets.

Preflop and on the flop the bot plays its base agent (the blueprint). At the first decision of
a re-solved street (turn and river by default) it builds the street's subgame from the public
state (``subgame.py``: real pot and stacks, both ranges by Bayes' rule, every bet of the street
in the tree) and solves it with the compiled DCFR of the spot engine until the exploitability is
below a target in percent of the pot or a time budget runs out. It plays its own row of that
solution and keeps it for the rest of the street; a bet the solution's tree does not hold makes
it solve again from the street's start with that bet added. Solutions are cached per (seat,
betting before the street, board), so policy() and act() at one state never solve twice.

Ranges: the bot's own seat is Bayes over its own policies (the base agent's, then its own
re-solves), the opponent's over ``opponent_model`` (the base agent unless given). By default the
re-solve is from ranges alone ("unsafe"); ``safe=True`` re-solves the river through the resolve
gadget with the opponent's values against the base agent as alternatives (``safe_resolve.py``).
Combos outside the bot's range (reach 0) get uniform rows, as blocked ones do.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from solvers.agents.safe_resolve import blueprint_strategy, opponent_values, safe_resolve
from solvers.agents.subgame import (
    SPOT_PLAYER_OF_SEAT,
    Subgame,
    bayes_ranges,
    build_subgame,
    street_root,
)
from solvers.algorithms.base import make_solver
from solvers.cards.deck import N_COMBOS, dead_mask
from solvers.games.base import Strategy
from solvers.games.holdem.bet_sizes import StreetSizes
from solvers.games.hunl.agent import Agent, Policy
from solvers.games.hunl.rules import Action, HunlState


def _street(bet: str, raise_: str, cap: int) -> StreetSizes:
    texts = {"oop_bet": bet, "ip_bet": bet, "oop_raise": raise_, "ip_raise": raise_,
             "raise_cap": cap}  # fmt: skip
    return StreetSizes.parse(texts, "subgame")


DEFAULT_SIZES = {
    2: {"turn": _street("66%, a", "a", 1), "river": _street("66%, a", "a", 1)},
    3: {"river": _street("33%, 75%, 150%, a", "60%, a", 2)},
}
"""Re-solve trees per solved street: the river with three bets and a raise; the turn, which
carries every river under it, with one bet and all-in on each street (``bench_resolve.py``)."""
DEFAULT_SECONDS = {2: 5.0, 3: 0.5}
"""Time budgets per street (turn, river), the issue's."""
SAFE_MAX_ITERATIONS = 1_000
"""The gadget's DCFR iterations on the numpy walk when the budget allows (a river: ~1 ms each)."""
CHECK_EVERY = 10
"""DCFR iterations between exploitability checks (a check costs about two iterations)."""
DEFAULT_TARGET_PCT = 1.0
"""Stop once the exploitability is below this percent of the street's starting pot."""


@dataclass(frozen=True)
class Thinking:
    """Where a running re-solve stands, for a front end's progress bar (``progress`` hook)."""

    street: int
    iterations: int
    seconds: float
    budget: float
    """The street's time budget in seconds (``inf`` when only ``max_iterations`` bounds it)."""
    max_iterations: int | None
    exploitability_pct: float
    """At the last check, in percent of the street's starting pot (NaN before the first)."""
    target_pct: float

    @property
    def fraction(self) -> float:
        """How far along the budget the solve is, 0 to 1 (time or iterations, the nearer)."""
        parts = [0.0]
        if math.isfinite(self.budget) and self.budget > 0:
            parts.append(self.seconds / self.budget)
        if self.max_iterations:
            parts.append(self.iterations / self.max_iterations)
        return min(max(parts), 1.0)


@dataclass
class Solution:
    """A solved street: the subgame, its average strategy and how the solve ended."""

    subgame: Subgame
    strategy: Strategy
    iterations: int
    seconds: float
    """Wall time of building the subgame and solving it."""
    exploitability_pct: float
    """Exploitability of ``strategy`` in percent of the street's starting pot (range-only
    solves; NaN for a safe solve, whose opponent rows are the gadget's and mean nothing)."""
    opponent_gain_pct: float | None = None
    """Safe solves: what the opponent's best response wins against this strategy less what it
    wins against the base agent's, in percent of the pot (at most 0: no more exploitable)."""

    def policy(self, state: HunlState) -> Policy | None:
        """The solution's policy over all 1,326 combos at ``state``, or None off its tree."""
        sub = self.subgame
        node_id = sub.node_of(state)
        if node_id is None:
            return None
        node = sub.game.nodes[node_id]
        rows = self.strategy[node_id]
        n_actions = rows.shape[1]
        full = np.full((N_COMBOS, n_actions), 1.0 / n_actions)
        full[sub.game.hand_combos[node.player]] = rows
        actions: list[Action] = []
        columns: list[np.ndarray] = []
        for index in range(n_actions):
            action = sub.real_action(node_id, index, state)
            if action in actions:  # two sizes clamped to one legal amount
                columns[actions.index(action)] = columns[actions.index(action)] + full[:, index]
            else:
                actions.append(action)
                columns.append(full[:, index])
        return Policy(tuple(actions), np.stack(columns, axis=1))


@dataclass
class ResolvingAgent:
    """An ``Agent`` that re-solves ``streets`` (2 = turn, 3 = river) and plays ``base`` before."""

    base: Agent
    opponent_model: Agent | None = None
    sizes: dict[int, dict[str, StreetSizes]] = field(default_factory=lambda: dict(DEFAULT_SIZES))
    """Per solved street (2 turn, 3 river): the sizes of each street in its tree."""
    seconds: dict[int, float] = field(default_factory=lambda: dict(DEFAULT_SECONDS))
    target_pct: float = DEFAULT_TARGET_PCT
    max_iterations: int | None = None
    """Stop a solve after this many iterations whatever the clock says; with the budgets set to
    ``inf`` the bot no longer depends on the machine's load (reproducible evaluation runs)."""
    progress: Callable[[Thinking], None] | None = field(default=None, repr=False)
    """Called after every iteration of a solve (from the solving thread)."""
    streets: tuple[int, ...] = (2, 3)
    safe: bool = False
    """Re-solve the river through the resolve gadget (``safe_resolve.py``) instead of from
    ranges alone (the turn is always range-only: its gadget needs the blueprint over rivers)."""
    name: str = ""
    cache_size: int = 8
    solves: int = 0
    fallbacks: int = 0
    """Safe river solves replaced by the base agent's play (the budget was too short)."""
    _cache: OrderedDict = field(default_factory=OrderedDict, repr=False)
    chunk_deals: ClassVar[int] = 5
    """Deals per chunk in pooled evaluations (LBR, matches): seconds per hand, not milliseconds,
    so small chunks keep every worker busy to the end."""

    def __post_init__(self) -> None:
        self.name = self.name or f"resolve({getattr(self.base, 'name', 'base')})"

    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        if state.street not in self.streets or state.is_over:
            return self.base.policy(state, board)
        found = self.solution(state, board).policy(state)
        if found is None:  # cannot happen: the solve was built with this state's line
            raise AssertionError(f"the re-solve has no node for {state.betting}")
        return found

    def act(
        self, state: HunlState, board: np.ndarray, combo: int, rng: np.random.Generator
    ) -> Action:
        return self.policy(state, board).sample(combo, rng)

    def solution(self, state: HunlState, board: np.ndarray) -> Solution:
        """The street's solution that holds ``state`` (solved now if none does)."""
        board = np.asarray(board, dtype=np.int64)
        key = (state.to_act, "/".join(state.history[:-1]), tuple(int(c) for c in board))
        kept: list[Solution] = self._cache.get(key, [])
        for known in reversed(kept):
            if known.subgame.node_of(state) is not None:
                self._cache.move_to_end(key)
                return known
        solved = self._solve(state, board)
        self._cache[key] = [*kept, solved]
        self._cache.move_to_end(key)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return solved

    def _solve(self, state: HunlState, board: np.ndarray) -> Solution:
        me = state.to_act
        agents: list[Agent] = [self, self]
        agents[1 - me] = self.opponent_model or self.base
        ranges = self._root_ranges(state, board, agents)  # may solve the streets before
        started = time.perf_counter()
        sub = build_subgame(state, board, ranges, self.sizes.get(state.street, {}))
        game = sub.game
        pot = float(sub.root.pot)
        budget = self.seconds.get(state.street, 1.0)
        target = self.target_pct / 100.0 * pot
        if self.safe and state.street == 3:
            return self._safe_solve(sub, me, started, budget)
        solver = make_solver(game, "dcfr")
        reached = math.nan
        while True:  # one iteration at least, then until the target or a budget
            solver.run(iterations=1)
            took = time.perf_counter() - started
            spent = took >= budget or solver.iterations >= (self.max_iterations or math.inf)
            if spent or solver.iterations % CHECK_EVERY == 0:
                metrics = solver.metrics()
                reached = 100.0 * metrics.exploitability / pot
                if spent or metrics.exploitability <= target:
                    break
            if self.progress is not None:
                self.progress(Thinking(state.street, solver.iterations, took, budget,
                                       self.max_iterations, reached, self.target_pct))  # fmt: skip
        self.solves += 1
        return Solution(
            sub,
            solver.average_strategy(),
            solver.iterations,
            time.perf_counter() - started,
            reached,
        )

    def _safe_solve(self, sub: Subgame, me: int, started: float, budget: float) -> Solution:
        """The river through the resolve gadget, alternatives from the base agent's play. The
        opponent's best response is measured exactly; a solve that the budget left worse than
        the base agent's play (too few iterations) is replaced by that play."""
        opponent = SPOT_PLAYER_OF_SEAT[1 - me]
        blueprint = blueprint_strategy(sub, self.base)
        values = opponent_values(sub, blueprint, opponent)
        left = max(budget - (time.perf_counter() - started), 0.0)
        strategy, iterations = safe_resolve(sub, me, values, SAFE_MAX_ITERATIONS, left)
        weights = sub.game.hand_weights(opponent)
        gain = float(weights @ (opponent_values(sub, strategy, opponent) - values))
        if gain > 0:
            strategy, gain = blueprint, 0.0
            self.fallbacks += 1
        self.solves += 1
        took = time.perf_counter() - started
        return Solution(sub, strategy, iterations, took, np.nan, 100.0 * gain / sub.game.pot)

    def _root_ranges(self, state: HunlState, board: np.ndarray, agents: list[Agent]) -> np.ndarray:
        ranges = bayes_ranges(street_root(state), board, (agents[0], agents[1]))
        live = ~dead_mask([int(c) for c in board])
        for seat in (0, 1):  # a line the policies never play: fall back to every live combo
            if not ranges[seat].sum() > 0:
                ranges[seat] = live
        return ranges
