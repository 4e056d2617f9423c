"""The re-solving bot: the blueprint early in the hand, a fresh spot-engine solve on later streets.

Preflop (and on any street not in ``streets``) the bot plays its base agent (the blueprint). At
the first decision of a re-solved street (flop, turn and river by default; ``streets=(2, 3)``
plays the blueprint's flop) it builds the street's subgame from the public state
(``subgame.py``: real pot and stacks, both ranges by Bayes' rule, every bet of the street in
the tree) and solves it with the compiled DCFR of the spot engine until the exploitability is
below a target in percent of the pot or a time budget runs out, never before ``MIN_ITERATIONS``
iterations; a solve that stopped short of its target is replaced by the base agent's play of
the subgame when its own check (the opponent's exact best response) finds it worse. It plays
its own row of that solution and keeps it for the rest of the street. A bet or raise the
solution's tree does not hold is re-solved from the node facing it on the turn and river (the
bot's play so far kept, the opponent's range before it behind the resolve gadget:
``_solve_node``), and makes the flop solve again from the street's start with that bet added
(when the flop's tree sees the turn: in the checked-down flop, ``OFF_TREE_FLOP``, for a size
only asked about, in the bot's own tree for one it faces, ``played_policy``).
Solutions are cached per (seat, betting before the street, board), so policy() and act() at one
state never solve twice; a street's walk buffers go once a later street is solved, and
``forget`` drops every solution between deals.

Ranges: the bot's own seat is Bayes over its own policies (the base agent's, then its own
re-solves), the opponent's over ``opponent_model`` (the base agent unless given). By default the
re-solve is from ranges alone ("unsafe"); ``safe=True`` re-solves the turn and river through the
resolve gadget with the opponent's values against the base agent as alternatives
(``safe_resolve.py``).
Combos outside the bot's range (reach 0) get uniform rows, as blocked ones do.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar

import numpy as np

from solvers.agents.safe_resolve import (
    GADGETS,
    blueprint_strategy,
    opponent_values,
    safe_resolve,
)
from solvers.agents.spot_lines import alternatives, response_profile
from solvers.agents.subgame import (
    SPOT_PLAYER_OF_SEAT,
    Subgame,
    bayes_ranges,
    build_node_subgame,
    build_subgame,
    line,
    street_line,
    street_root,
    street_sizes_with_line,
)
from solvers.algorithms.base import make_solver
from solvers.cards.deck import N_COMBOS, dead_mask
from solvers.exact.decision_values import CompiledProfile
from solvers.exact.evaluation import action_values, best_response
from solvers.games.base import Strategy
from solvers.games.holdem.bet_sizes import StreetSizes
from solvers.games.hunl.agent import Agent, Policy
from solvers.games.hunl.rules import (
    BOARD_CARDS,
    CALL,
    FOLD,
    RAISE,
    STREET_NAMES,
    Action,
    HunlConfig,
    HunlState,
    replay,
)


def _street(bet: str, raise_: str, cap: int) -> StreetSizes:
    texts = {"oop_bet": bet, "ip_bet": bet, "oop_raise": raise_, "ip_raise": raise_,
             "raise_cap": cap}  # fmt: skip
    return StreetSizes.parse(texts, "subgame")


FLOP_TREES = {
    "checkdown": {"flop": _street("66%, a", "a", 1)},
    "allin": {name: _street("a", "a", 1) for name in ("flop", "turn", "river")},
    "bet-allin": {"flop": _street("66%, a", "a", 1), "turn": _street("a", "a", 1),
                  "river": _street("a", "a", 1)},  # fmt: skip
    "turn": {"flop": _street("66%, a", "a", 1), "turn": _street("66%, a", "a", 1),
             "river": _street("", "", 0)},  # fmt: skip
}
"""Flop trees, compared in ``bench_resolve.py``: a flop with a 66% bet and all-in followed by a
check-down (a depth limit at the flop whose leaves are the showdown over every runout, 21 nodes;
the default: less exploitable in its own tree after the same iterations, a tenth of the CPU, and
its flop play has a real bet size), or all-in or check on every street to the
end of the hand (21,618 nodes: the flop play is check or shove); and the first's flop with the
second's turn and river (64,848 nodes). By the value of the flop play in a richer common tree
(``bench_flop_value.py``), the checked-down tree plays best in three of four cells with 3 to 4
CPU seconds, the all-in tree with 9 to 13 for IP, ``bet-allin`` with 24 (3-bet pot)
(``docs/resolve.md``). ``turn`` plays the turn too, 66% or all-in with an all-in raise, and
checks the river down (3,108 nodes single-raised on K72r; 0.16 s an iteration on two idle
cores where the default takes 1.5 ms): after 100 iterations its flop play costs 3.0% of the pot
single-raised and 1.0% 3-bet in the common tree, the default's 10.9% and 12.0%
(``resolve(flop-tree=turn):``)."""
TURN_TREES = {
    "two-street": {"turn": _street("66%, a", "a", 1), "river": _street("66%, a", "a", 1)},
    "small-river": {"turn": _street("66%, a", "a", 1), "river": _street("66%", "", 0)},
    "pot-raise": {"turn": _street("66%, a", "100%, a", 1), "river": _street("66%", "", 0)},
}
"""The turn's trees: 66% and all-in with an all-in raise on both streets (3,045 nodes on the
benchmark board); the same turn over a river of one 66% bet and no raise (1,317 nodes, about a
third of the time per iteration; the river is re-solved with its own tree when it comes); and
that tree with a pot-sized raise beside the all-in (2,187 nodes, the default). Without the pot
raise the turn's bets were solved as if only an all-in could answer them, so a raise of two to
four times the bet let the raiser's best hands win 30% to 100% of the pot more than anything in
the tree, a gain no node re-solve could take back; with it the node re-solves hold every hand
to within about 1% of the pot, in a tenth of the time (``bench_node_resolve.py --trees``)."""
DEFAULT_SIZES = {
    1: FLOP_TREES["checkdown"],
    2: TURN_TREES["pot-raise"],
    3: {"river": _street("33%, 75%, 150%, a", "60%, a", 2)},
}
"""Re-solve trees per solved street: the river with three bets and a raise; the turn, which
carries every river under it, with a pot and an all-in raise over a small river; the flop, 66%
or all-in, then checked down
(``bench_resolve.py`` compares them)."""
DEFAULT_SECONDS = {1: 15.0, 2: 5.0, 3: 0.5}
"""Time budgets per street (flop, turn, river), the issue's."""
DEFAULT_MAX_ITERATIONS = 100
"""Iterations a solve runs at most by default, the budgets still on: the cap every evaluation
bot runs under (``iterations=100``, ``docs/evaluation.md``), so the bot a person plays is the
one whose LBR and head-to-head figures are measured. Past it a node re-solve ran up to 350
iterations and a flop 233; with it two match workers play 2.17 to 2.18 hands a second headless on
two idle cores instead of 1.79 to 1.81 (``bench_bot_speed.py --match``, run by turns)."""
SAMPLED_FLOP_ITERATIONS = 500
"""Draws a flop that samples its turn cards runs at most by default (the app's bot measured as
``flop-iterations=500``): a few hundred draws do what 100 full iterations do."""
SAFE_MAX_ITERATIONS = 1_000
"""The gadget's DCFR iterations when the budget allows (compiled walk: a river's take about
1 ms, a turn's 15 to 40 ms)."""
MIN_ITERATIONS = 40
"""Iterations every solve the bot plays (flop, turn, river, a node's after an off-tree bet,
range-only or safe) runs whatever its clock says; ``max_iterations`` below it still caps it,
and a solve that meets its target sooner stops. A budget shorter than one iteration (a short
``think``, or a first solve that compiles the kernels) would otherwise leave one iteration,
uniform rows for every hand. Measured on a turn facing a 1 bb bet into 12 bb (big blind, Kd6c, the
button's 3 bb raise called, Qh 5d 8h bet 3 bb and called, Ks checked; the turn budget 0.1 s,
so every solve runs its floor or to its target): the big blind folds 7.5% of its range with a
floor of 30, 1.7% with 40, 0.7% with 50 or 60, and 0.9% without a clock (each solve to its
target: flop and turn at 50 iterations, the node at 40); one iteration folded 25%."""
CHECK_EVERY = 10
"""DCFR iterations before the first exploitability check of a gadget solve, and of a street
solve whose floor is lower (a check costs one to two iterations; a street solve's first comes
at its floor); later checks come after a quarter more iterations (``next_check``)."""
CHECK_GROWTH = 0.25
SAMPLED_FIRST_CHECK = 200
SAMPLED_CHECK_GROWTH = 0.5
"""A flop solve that samples its turn cards checks first after this many draws, then after half
as many again as it has run: its own exploitability is mostly its turn play, which a few
draws leave rough (K72r single-raised: 2.2% of the pot after 300 draws of 10 cards, 0.93% after
518; 3-bet 0.27% after 594), and a check costs about seven draws."""
CHECK_COST = 1.5
"""A check's cost in iterations before one is measured (turn and flop: 1.3 to 1.5)."""
RELEASE_STREETS = (1,)
"""Streets whose solution releases its game after the solve (``HoldemGame.release``: a flop's
compiled walks hold hundreds of MB of reach and value buffers, its showdown tables about 50 MB;
the nodes and strategy are kept, the rest is built again if the live panel values the solve)
and whose cache keeps one solution (or one per seat line) at a time."""
NODE_STREETS = (2, 3)
"""Streets where an off-tree bet or raise is re-solved safely from the node facing it
(``_solve_node``, both bots); on the flop, whose walks are released after the solve, the
street is solved again from its start with the action added."""
NODE_KEEP = 16
"""Node re-solves kept per street and seat besides the street's own solves (the latest used:
one the bot played from is asked again for every range after it)."""
OFF_TREE_FLOP = FLOP_TREES["checkdown"]
"""The flop's tree when the street is solved again with a bet or raise its tree lacks only to be
asked about, for a bot whose flop tree plays the turn: the checked-down flop (a fifth of a
second a solve) with that bet added. The live panel values four such sizes at a flop decision;
in the tree that sees the turn each took 5 to 10 s even at its floor (40 draws), the four
together two to three times the street's think time. A size the bot faces at the table is solved
in its own tree with the size added (``played_policy``)."""
FLOP_KEEP = 6
"""Solves of the flop kept per seat line besides the street's first (the latest used): the
street solved again with each size the live panel values (four off the tree at a decision),
and one more. A flop that sees the turn keeps 20 to 30 MB a solve, and a hand's flop decisions
would otherwise keep every size valued at each of them."""
NODE_CLOSING = 0.02
"""Share of a node re-solve's budget kept for its closing best response (the gain it records)."""
SAFE_STREETS = (2, 3)
"""Streets the safe bot re-solves through the gadget (the flop stays range-only: the base
agent's play of a flop subgame is a policy query per decision of every turn and river)."""
DEFAULT_RANGE_FLOOR = 0.05
"""The opponent's modelled range (Bayes over the blueprint's play) rules out the hands the
blueprint never plays that way: a fifth to a half of the live combos after a limp or a called
flop bet. An opponent who plays otherwise (a person, LBR's calling station) holds them, and a
re-solve that treats them as impossible pays them off: on a river checked down after a limp, a
best response from any two cards won 36% of the pot against the unfloored re-solve and 17%
against one that assumes any two cards. With every combo at least 5% of the heaviest the
re-solve keeps most of that (``docs/resolve.md``, "The opponent's range") for a small loss
against an opponent who holds exactly the model's range; ``floor=0`` turns it off."""
DEFAULT_TARGET_PCT = 1.0
"""Stop once the exploitability is below this percent of the street's starting pot."""


def next_check(iterations: int, growth: float = CHECK_GROWTH) -> int:
    """The iteration of the exploitability check after one at ``iterations``: every
    ``CHECK_EVERY`` at first, then spaced by ``growth`` times the iterations run (the
    exploitability falls roughly like 1/t, so late checks can be rarer)."""
    return iterations + max(CHECK_EVERY, int(iterations * growth))


CHECK_SHARE = 0.1
"""Largest share of a gadget solve's time its gain checks may take (``GainCheck``)."""
NODE_PLATEAU = 0.2
"""From twice its floor on, a node re-solve also stops once the total that the opponent's gaining
hands win (over its whole range) fell by less than this share of itself since the check at half
the iterations: the largest single hand's gain, its usual stop, is often out of reach, since the
street's solution it is held to is itself up to the target from equilibrium. Early on the total
can rise between checks before it falls to about 0, hence twice the floor and a doubling
(``bench_node_stops.py``, ``docs/resolve.md``)."""


class GainCheck:
    """Ends a gadget solve once no opponent hand's best response wins more than ``target``
    (chips) over its alternative: the re-solver minimises the sum over the opponent's hands of
    the larger of the two, no strategy brings it below the alternatives' sum, so the largest
    gain bounds how far the solve is from the best it can do (and is the safety it promises, hand
    by hand). A street's maxmargin solve (``widen``) goes on past that point: it ends once its
    smallest margin (minus the largest gain) is within ``target`` of the gadget's
    ``margin_bound``, an upper bound on the best smallest margin; with alternatives that some
    strategy meets (the base agent's play at a street's start) that bound is at least 0, so the
    gain is within target too. Checks follow ``next_check``; on the clock (a finite
    ``deadline``) they are further apart when one would take more than ``CHECK_SHARE`` of the
    time between them, and none starts after ``deadline`` (the closing best response measures
    the end). Without a clock the schedule is fixed, so a solve stops at the same iteration
    under any load. A node's solve (not ``widen``) also stops once what the gaining hands win in
    total stops falling (``NODE_PLATEAU``; ``floor``: the solve's floor)."""

    def __init__(self, sub: Subgame, opponent: int, values: np.ndarray, target: float,
                 deadline: float, growth: float, widen: bool = True,
                 floor: int = MIN_ITERATIONS) -> None:  # fmt: skip
        self.sub, self.opponent, self.values = sub, opponent, values
        self.widen = widen
        """Go on to the gadget's margin bound when it has one (else stop at safety)."""
        self.weights = sub.game.hand_weights(opponent)
        self.live = self.weights > 0
        self.floor = floor
        self.checks: list[tuple[int, float, float]] = []
        """Every check's ``(iterations, gain, total)`` in percent of the pot; ``total`` is what
        the opponent's hands that gain over their alternatives win, a hand of its whole range
        (what a bettor of exactly those hands wins by the action)."""
        self.target, self.deadline, self.growth = target, deadline, growth
        self.at, self.cost, self.started = CHECK_EVERY, 0.0, time.perf_counter()
        self.checking = 0.0  # seconds spent in checks so far
        self.gain = math.nan
        self.gap = math.nan
        """A gadget with a ``margin_bound``: how far the smallest margin may still be from
        the best attainable (chips); the solve ends when that is within ``target``."""
        self.last: tuple[int, np.ndarray] | None = None  # the last check's iterations, values

    def __call__(self, iterations: int, average: Callable[[], Strategy],
                 bound: Callable[[], float | None] | None = None) -> bool:  # fmt: skip
        now = time.perf_counter()
        if iterations < self.at or now + self.cost > self.deadline:
            return False
        per_iteration = (now - self.started - self.checking) / iterations  # checks left out
        response = opponent_values(self.sub, average(), self.opponent)
        self._measure(iterations, response)
        upper = bound() if bound is not None and self.widen else None
        self.gap = math.nan if upper is None else upper + self.gain
        self.cost = time.perf_counter() - now
        self.checking += self.cost
        timed = math.isfinite(self.deadline) and per_iteration > 0
        spacing = math.ceil(self.cost / (CHECK_SHARE * per_iteration)) if timed else 0
        self.at = max(next_check(iterations, self.growth), iterations + spacing)
        if upper is not None:
            return self.gap <= self.target
        if self.gain <= self.target:
            return True
        return not self.widen and self._flat(iterations)

    def _flat(self, iterations: int) -> bool:
        """A node's stop from twice the floor on: the gaining hands' total fell by less than
        ``NODE_PLATEAU`` of itself since the check at half the iterations."""
        earlier = [c for c in self.checks if c[0] <= iterations / 2]
        if iterations < 2 * self.floor or not earlier:
            return False
        return self.checks[-1][2] > (1.0 - NODE_PLATEAU) * earlier[-1][2]

    def _measure(self, iterations: int, response: np.ndarray) -> None:
        """Keep a check's best response and its largest gain, and add it to ``checks``."""
        self.last = (iterations, response)
        excess = response - self.values
        self.gain = float(excess[self.live].max())
        total = float(self.weights @ np.maximum(excess, 0.0)) / float(self.weights.sum())
        pot = float(self.sub.game.pot)
        self.checks.append((iterations, 100.0 * self.gain / pot, 100.0 * total / pot))

    def response(self, iterations: int, strategy: Strategy) -> np.ndarray:
        """The opponent's best-response values against the solve's final ``strategy`` (after
        ``iterations``): the last check's when that check ended the solve, else measured now
        (and kept as the last of ``checks``)."""
        if self.last is None or self.last[0] != iterations:
            self._measure(iterations, opponent_values(self.sub, strategy, self.opponent))
        assert self.last is not None
        return self.last[1]


WARM_UP_BOARD = np.arange(0, 20, 4, dtype=np.int64)
"""2c 3c 4c 5c 6c: the warm-up's board (any board compiles the same kernels)."""
WARM_UP_PLAYS = 25
"""The warm-up's stand-in hand: one combo in this many plays preflop, the rest fold, so every
subgame it solves is small (the kernels depend on the arrays' types, not their sizes)."""


class _WarmUpBase:
    """The warm-up's stand-in base agent: preflop, a few combos raise or call and the rest
    fold; after the flop every combo checks or calls, or makes the smallest bet or raise, half
    and half (its opponent's range stays narrow, and a bet off any tree has a reach)."""

    name = "warm-up"

    def __init__(self) -> None:
        self.plays = np.arange(N_COMBOS) % WARM_UP_PLAYS == 0

    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        legal = state.legal()
        actions = [Action(CALL)]
        if legal.min_raise_to is not None:
            actions.append(Action(RAISE, legal.min_raise_to))
        rows = np.full((N_COMBOS, len(actions)), 1.0 / len(actions))
        if state.street == 0 and legal.can_fold:
            actions.insert(0, Action(FOLD))
            rows = np.hstack([np.zeros((N_COMBOS, 1)), rows])
            rows[~self.plays] = np.eye(len(actions))[0]
        return Policy(tuple(actions), rows)

    def act(
        self, state: HunlState, board: np.ndarray, combo: int, rng: np.random.Generator
    ) -> Action:
        return self.policy(state, board).sample(combo, rng)


def warm_up_lines(config: HunlConfig) -> list[HunlState]:
    """The states the warm-up's bot (the big blind) answers, in order: the button's smallest
    raise called, then on the flop, turn and river the bot's first decision and the button's
    smallest bet after its check (off every re-solve tree: the flop solved again with it, a
    node re-solve behind the gadget on the turn and river), the flop's and the turn's called
    and the river's reached by checks."""

    def step(state: HunlState, *actions: str) -> HunlState:
        for kind in actions:
            legal = state.legal()
            if kind != RAISE:
                state = state.apply(Action(kind))
                continue
            assert legal.min_raise_to is not None  # the warm-up's lines can always raise
            state = state.apply(Action(RAISE, legal.min_raise_to))
        return state

    state = step(HunlState.initial(config), RAISE, CALL)
    found: list[HunlState] = []
    for street in (1, 2, 3):
        found += [state, step(state, CALL, RAISE)]
        state = step(state, CALL, RAISE, CALL) if street == 1 else step(state, CALL, CALL)
    return found


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
    gain_pct: float = math.nan
    """Safe solves, at the last check: the most an opponent hand's best response wins over its
    alternative, in percent of the pot (NaN before the first and for range-only solves)."""
    gap_pct: float = math.nan
    """Maxmargin solves, at the last check: how far the smallest margin may still be from the
    widest attainable, in percent of the pot (``GainCheck.gap``; NaN otherwise)."""

    @property
    def fraction(self) -> float:
        """How far along the budget the solve is, 0 to 1 (time or iterations, the nearer)."""
        parts = [0.0]
        if math.isfinite(self.budget) and self.budget > 0:
            parts.append(self.seconds / self.budget)
        if self.max_iterations:
            parts.append(self.iterations / self.max_iterations)
        return min(max(parts), 1.0)


_MADE = itertools.count(1)
"""Stamps of solutions, in the order they were made."""


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
    fell_back: bool = False
    """The base agent's play of the subgame replaced the solve, which its own check found
    worse (``ResolvingAgent.fallbacks``)."""
    made: int = field(default_factory=lambda: next(_MADE))
    """The order solutions were made in: of several the bot keeps that hold a state, the first
    made is the one it played it from (``ResolvingAgent.solution``)."""
    quick: bool = False
    """Solved in the quick flop (``OFF_TREE_FLOP``) in place of the bot's flop tree that sees
    the turn: the answer to a size off that tree that the live panel and LBR's look-ahead ask
    about, never the one the bot plays when the size is bet (``ResolvingAgent.act``)."""
    checks: tuple[tuple[int, float, float], ...] = ()
    """Safe solves: each gain check's ``(iterations, gain, total)`` in % of the pot, the last
    that of the solve's final strategy (``GainCheck.checks``; unless ``fell_back``)."""

    @cached_property
    def profile(self) -> CompiledProfile | None:
        """The solution for both players on the compiled walk: the best responses behind the
        alternatives of node re-solves off it, made once (LBR asks dozens of sizes at a node)."""
        return response_profile(self.subgame.game, self.strategy)

    @cached_property
    def bets_later(self) -> bool:
        """Whether the solve's tree has bets on a later street (a flop that sees the turn)."""
        cards = len(self.subgame.board)
        return any(n.is_decision and len(n.board) > cards for n in self.subgame.game.nodes)

    def release(self) -> None:
        """Drop what only values and node re-solves of this street use (the walks' buffers,
        the showdown tables, the compiled profile; rebuilt if asked again), keeping the tree
        and strategy that later streets' ranges read."""
        self.subgame.game.release()
        self.__dict__.pop("profile", None)

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
    """An ``Agent`` that re-solves ``streets`` (1 flop, 2 turn, 3 river), ``base`` elsewhere."""

    base: Agent
    opponent_model: Agent | None = None
    sizes: dict[int, dict[str, StreetSizes]] = field(default_factory=lambda: dict(DEFAULT_SIZES))
    """Per solved street (1 flop, 2 turn, 3 river): the sizes of each street in its tree."""
    seconds: dict[int, float] = field(default_factory=lambda: dict(DEFAULT_SECONDS))
    target_pct: float = DEFAULT_TARGET_PCT
    check_growth: float = CHECK_GROWTH
    """Exploitability checks after ``CHECK_EVERY`` iterations, then spaced by this share of the
    iterations run (0: every ``CHECK_EVERY``, as before)."""
    max_iterations: int | None = DEFAULT_MAX_ITERATIONS
    """Stop a solve after this many iterations whatever the clock says (None: the clock
    alone); with the budgets set to ``inf`` the bot no longer depends on the machine's load
    (reproducible evaluation runs)."""
    flop_iterations: int | None = None
    """The flop solve's cap instead of ``max_iterations`` (``resolve(flop-iterations=N):``): a
    flop that samples its turn cards draws a few cards an iteration, and needs a few hundred
    draws where the other streets need 100 full iterations (None: ``max_iterations``; the
    registry gives a sampled flop ``SAMPLED_FLOP_ITERATIONS`` unless a cap is named)."""
    progress: Callable[[Thinking], None] | None = field(default=None, repr=False)
    """Called after every iteration of a solve (from the solving thread)."""
    streets: tuple[int, ...] = (1, 2, 3)
    """Re-solved streets, the flop included: its checked-down re-solve
    takes 1 to 2 CPU s, and its flop play costs no more than the blueprint's in a common tree
    (``bench_flop_value.py --trees blueprint``, ``docs/resolve.md``)."""
    flop_sample: int = 0
    """Turn cards the flop's solve walks an iteration (``FullWidthCFR``'s ``sample``: public
    chance sampling), for a flop tree that plays the turn (``FLOP_TREES["turn"]``); 0 walks
    them all."""
    turn_sample: int = 0
    """Rivers the turn's range-only street solve walks an iteration (0: all 48). On K72r 9c
    after a checked flop, 200 draws of 12 (1.3 CPU s) left the turn play 0.5% of the pot from
    the best in its tree, 100 full iterations (1.7 CPU s) 1.3% (``docs/resolve.md``)."""
    range_floor: float = DEFAULT_RANGE_FLOOR
    """Every live combo of the opponent's modelled range weighs at least this share of its
    heaviest combo (``DEFAULT_RANGE_FLOOR``)."""
    safe: bool = False
    """Re-solve the turn and river through ``gadget`` (``safe_resolve.py``) instead of from
    ranges alone (the flop is always range-only)."""
    gadget: str = "resolve"
    """The safe solves' gadget (``safe_resolve.GADGETS``): the node re-solves of every bot, the
    turn and river of the safe one."""
    name: str = ""
    cache_size: int = 8
    solves: int = 0
    fallbacks: int = 0
    """Solves replaced by the base agent's play: each stopped short of its target (the clock,
    ``max_iterations``), and its opponent's exact best response won more against it than
    against that play."""
    _cache: OrderedDict = field(default_factory=OrderedDict, repr=False)
    _closing: dict = field(default_factory=dict, repr=False)
    """Per street and draws an iteration, the seconds the last comparison with the base agent's
    play took (a solve that stopped short of its target makes one after its budget): later
    solves on the clock keep that much of their budget for it (a flop that sees the turn: 0.5
    to 1.5 s; the first, two checks' time)."""
    chunk_deals: ClassVar[int] = 5
    """Deals per chunk in pooled evaluations (LBR, matches): seconds per hand, not milliseconds,
    so small chunks keep every worker busy to the end."""

    def __post_init__(self) -> None:
        self.name = self.name or f"resolve({getattr(self.base, 'name', 'base')})"
        if self.gadget not in GADGETS:
            raise ValueError(f"unknown gadget {self.gadget!r}")

    def policy(self, state: HunlState, board: np.ndarray, played: bool = False) -> Policy:
        """The bot's policy at ``state``; ``played``: the one it acts from (``played_policy``)."""
        if state.street not in self.streets or state.is_over:
            return self.base.policy(state, board)
        found = self.solution(state, board, played=played).policy(state)
        if found is None:  # cannot happen: the solve was built with this state's line
            raise AssertionError(f"the re-solve has no node for {state.betting}")
        return found

    def act(
        self, state: HunlState, board: np.ndarray, combo: int, rng: np.random.Generator
    ) -> Action:
        return self.played_policy(state, board).sample(combo, rng)

    def played_policy(self, state: HunlState, board: np.ndarray) -> Policy:
        """The policy the bot plays at ``state`` (``act``): ``policy``'s, except that a flop
        line off a flop tree that sees the turn is solved in that tree with the line's bets
        added, not answered from the quick flop that ``policy`` gives for a size only asked
        about (the live panel's sizes, LBR's look-ahead). On K72r single-raised, facing a 40%
        bet, the quick flop raises all-in with 10% of its range, the flop that sees the turn
        with 0.1% (``benchmarks/bench_flop_answers.py``). Afterwards ``policy`` gives the one
        played."""
        return self.policy(state, board, played=True)

    def warm_up(self, config: HunlConfig) -> float:
        """Load (from numba's cache, or compile: tens of seconds after an install) every
        kernel the bot's solves and the live panel's values reach, so that no decision's
        budget pays for them: the base agent's policy on every street, then a stand-in hand on
        narrow ranges (``_WarmUpBase``) through a probe with this bot's trees, gadget and
        safety: each street's solve, the flop solved again with an off-tree bet, the turn's
        and river's node re-solves, their fallback checks, and the panel's action values and
        best responses. Returns the seconds it took."""
        started = time.perf_counter()
        for street, betting in enumerate(("", "cc/", "cc/cc/", "cc/cc/cc/")):
            self.base.policy(replay(betting, config), WARM_UP_BOARD[: BOARD_CARDS[street]])
        probe = replace(self, base=_WarmUpBase(), opponent_model=None, range_floor=0.0,
                        seconds=dict.fromkeys(DEFAULT_SECONDS, math.inf), progress=None,
                        max_iterations=CHECK_EVERY, flop_iterations=None, name="warm-up",
                        solves=0, fallbacks=0, _cache=OrderedDict(),
                        _closing={})  # fmt: skip
        for state in warm_up_lines(config):
            if state.street not in self.streets:
                continue
            board = WARM_UP_BOARD[: BOARD_CARDS[state.street]]
            solution = probe.solution(state, board)
            solution.policy(state)
            game, human = solution.subgame.game, SPOT_PLAYER_OF_SEAT[1 - state.to_act]
            mine = {n: rows for n, rows in solution.strategy.items()
                    if game.nodes[n].player != human}  # fmt: skip
            if solution.subgame.start is None:  # the panel: the human's values after a check
                node = solution.subgame.node_of(state.apply(Action(CALL)))
                if node is not None and game.nodes[node].is_decision:
                    action_values(game, mine, node, 0, "best_response")
            else:  # the panel: a size off the tree, valued against the bot's answer to it
                best_response(game, mine, human)
        return time.perf_counter() - started

    def forget(self) -> None:
        """Drop every kept solution. A front end calls it between deals: a new deal's lines
        are on none of them (its board is new), and one hand's solves keep hundreds of MB
        (a turn's walk buffers, the node re-solves of every size the live panel valued)."""
        self._cache.clear()

    def solution(
        self, state: HunlState, board: np.ndarray, budget: float | None = None,
        played: bool = False,
    ) -> Solution:  # fmt: skip
        """The street's solution that holds ``state`` (solved now if none does). Where several
        do, the first made: the one the bot played ``state`` from. A node re-solve holds only
        the states from its node on, but on the flop an off-tree bet re-solves the street from
        its start with the bet added, a tree that holds the street's other lines too: the
        bot's play before the bet, replayed for its ranges later, and the lines the live panel
        asks about, stay those of the solve it played them from. A quick flop (``quick``) comes
        after every other; ``played`` (the solution the bot acts from) never takes one.
        ``budget``: the seconds of a solve made now (default the street's, ``seconds``; the
        floor of iterations still runs), for the live panel, whose sizes share the street's
        think time."""
        board = np.asarray(board, dtype=np.int64)
        key = _cache_key(state, board)
        kept: list[Solution] = self._cache.get(key, [])
        known = None
        for other in reversed(kept):  # a node's re-solve is the only one holding its states
            if played and other.quick:
                continue
            if known is not None and (other.subgame.start is not None
                                      or (other.quick, other.made) > (known.quick, known.made)):
                continue
            if other.subgame.node_of(state) is not None:
                known = other
                if other.subgame.start is not None:
                    break
        if known is not None:
            kept.append(kept.pop(next(i for i, k in enumerate(kept) if k is known)))  # used last
            self._cache.move_to_end(key)
            return known
        budget = self.seconds.get(state.street, 1.0) if budget is None else budget
        entry = self._entry(state, kept)
        if entry is None and self._opens_off_tree(state):
            # the opponent opened the street off the tree: the street's own solve (kept for
            # the bot's later decisions, shared by every size asked), then the node's, each
            # with half the budget
            budget /= 2
            street = self._solve(street_root(state), board, state.to_act, budget)
            kept = [*kept, street]
            entry = self._entry(state, kept)
        if entry is None:
            solved = self._solve(state, board, state.to_act, budget, played)
        else:
            solved = self._solve_node(state, board, *entry, budget)
        if state.street in RELEASE_STREETS:  # one flop kept at a time: each is 100+ MB
            for other in [k for k in self._cache if len(k[2]) == len(board) and k != key]:
                del self._cache[other]
        for other, earlier in self._cache.items():  # a street played: its buffers are spare
            if len(other[2]) < len(board):
                for known in earlier:
                    known.release()
        nodes = [id(k) for k in kept if k.subgame.start is not None]
        if len(nodes) >= NODE_KEEP:  # LBR asks dozens of sizes at a node: keep the latest
            latest = set(nodes[-NODE_KEEP + 1 :])
            kept = [k for k in kept if k.subgame.start is None or id(k) in latest]
        if state.street in RELEASE_STREETS and len(kept) > FLOP_KEEP:  # the latest used
            first = min(kept, key=lambda k: k.made)  # the street's own: it holds every line
            latest = {id(k) for k in kept[-FLOP_KEEP + 1 :]} | {id(first)}
            kept = [k for k in kept if id(k) in latest]
        self._cache[key] = [*kept, solved]
        self._cache.move_to_end(key)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return solved

    def adopt(self, state: HunlState, board: np.ndarray, known: Solution) -> None:
        """Keep ``known``, a solve of ``state``'s street from the other seat whose tree holds
        the line before ``state``'s last action, among this bot's solutions of the street: an
        action its tree lacks is then answered by a node re-solve taken at ``known``'s decision
        before it, as on a line of the bot's own, instead of the street solved again with the
        whole line (a hand played elsewhere, whose opponent bet a size the bot never bets)."""
        key = _cache_key(state, np.asarray(board, dtype=np.int64))
        kept = self._cache.setdefault(key, [])
        if all(k is not known for k in kept):
            kept.append(known)

    def _entry(self, state: HunlState, kept: list[Solution]) -> tuple[Solution, int] | None:
        """The kept solution of this street whose tree holds the opponent's decision just
        before the action the bot now faces (which that tree lacks), and that decision's
        node; None when there is none or the street is not one of ``NODE_STREETS``."""
        if state.street not in NODE_STREETS or not kept:
            return None
        steps = street_line(state)
        if not steps or steps[-1][0].to_act == state.to_act:
            return None
        before = steps[-1][0]
        for known in reversed(kept):
            node = known.subgame.node_of(before)
            if node is not None:
                return known, node
        return None

    def _opens_off_tree(self, state: HunlState) -> bool:
        """Whether the bot faces the opponent's first action of the street, a bet its tree's
        sizes do not give (on one of ``NODE_STREETS``)."""
        steps = street_line(state)
        if state.street not in NODE_STREETS or len(steps) != 1 or steps[0][1].kind != RAISE:
            return False
        return self._off_tree(state, self.sizes.get(state.street, {}))

    def _agents(self, me: int) -> tuple[Agent, Agent]:
        """Who plays each seat in the bot's Bayes ranges: itself, and its opponent model."""
        agents: list[Agent] = [self, self]
        agents[1 - me] = self.opponent_model or self.base
        return agents[0], agents[1]

    def _solve(self, state: HunlState, board: np.ndarray, me: int, budget: float,
               played: bool = False) -> Solution:  # fmt: skip
        """``state``'s street from its start for the bot in seat ``me``, the street's bets so
        far in its tree: a flop line off a tree that sees the turn in the quick flop, unless
        the bot plays from it (``played``)."""
        ranges = self._root_ranges(street_root(state), board, me)
        started = time.perf_counter()  # the ranges above may solve the streets before
        sizes = self.sizes.get(state.street, {})
        quick = (not played and state.street == 1 and "turn" in sizes
                 and self._off_tree(state, sizes))  # fmt: skip
        sub = build_subgame(state, board, ranges, OFF_TREE_FLOP if quick else sizes)
        if self.safe and state.street in SAFE_STREETS:
            return self._safe_solve(sub, me, started, budget)
        solved = self._range_only(sub, me, started, budget, sample=0 if quick else None)
        solved.quick = quick
        return solved

    @staticmethod
    def _off_tree(state: HunlState, sizes: dict[str, StreetSizes]) -> bool:
        """Whether ``state``'s street holds a bet or raise that ``sizes`` do not give."""
        street = sizes.get(STREET_NAMES[state.street], StreetSizes())
        return street_sizes_with_line(state, street) != street

    def _solve_node(
        self, state: HunlState, board: np.ndarray, known: Solution, entry: int, budget: float
    ) -> Solution:
        """The rest of the hand from ``state``, where the bot faces an action that ``known``'s
        tree lacks, taken at ``known``'s decision ``entry``: the bot's range is its reach of
        ``state`` (its own play on the street is kept, not solved again), the opponent's its
        reach of ``entry``, behind the resolve gadget whose alternatives are its best-response
        values against ``known`` from ``entry`` on: the solve minimises what the opponent's
        hands gain by the off-tree action over their best action in ``known``'s tree (none
        gains when that is attainable). The range-only bot does this too: re-solving the
        street from its start instead, or from the node with the opponent's range read off its
        model, let the raise gain several times more (``benchmarks/bench_node_resolve.py``)."""
        me = state.to_act
        started = time.perf_counter()
        ranges = self._root_ranges(state, board, me)
        before = line(state)[-1][0]
        ranges[1 - me] = self._root_ranges(before, board, me)[1 - me]
        sub = build_node_subgame(state, board, ranges, self.sizes.get(state.street, {}))
        game = known.subgame.game
        player = SPOT_PLAYER_OF_SEAT[1 - me]
        node = game.nodes[entry]
        values = alternatives(game, known.strategy, node, player, sub.game, known.profile)
        solved = self._safe_solve(sub, me, started, budget, values)
        sub.game.derived.clear()  # the walk's buffers (rebuilt if asked again); nodes stay
        return solved

    def _cap(self, street: int) -> int | None:
        """The most iterations a solve of ``street`` runs (None: the clock alone)."""
        if street == 1 and self.flop_iterations is not None:
            return self.flop_iterations
        return self.max_iterations

    def _floor(self, street: int) -> int:
        """The iterations a solve runs whatever the clock says (``MIN_ITERATIONS``, or the
        street's cap when lower)."""
        return min(MIN_ITERATIONS, self._cap(street) or MIN_ITERATIONS)

    def _range_only(self, sub: Subgame, me: int, started: float, budget: float,
                    sample: int | None = None) -> Solution:  # fmt: skip
        """DCFR on ``sub`` until the exploitability is under the target, or the budget is
        spent and ``_floor`` iterations run (checks from the floor on, spaced by
        ``next_check``). A solve that stops short of the target is replaced by the base
        agent's play of the subgame when the opponent's exact best response wins more in
        total against it. ``sample``: the chance groups drawn an iteration (default the
        street's, ``flop_sample`` or ``turn_sample``)."""
        game = sub.game
        street = sub.root.street
        pot = float(game.pot)
        target = self.target_pct / 100.0 * pot
        if sample is None:
            sample = {1: self.flop_sample, 2: self.turn_sample}.get(street, 0)
        solver = make_solver(game, "dcfr", sample=sample)  # restarts unless it draws cards
        kind = (street, sample)  # the quick flop's closing is not the sampled one's
        cap = self._cap(street)
        reached = math.nan
        floor = self._floor(street)
        # the first check at the floor: of 34 street solves in 20 hands none met its target
        # before 40 iterations, and the checks at 10, 20 and 30 cost a turn solve about 4
        # of its 45 iterations' time; a flop that samples its turn cards checks later and
        # sparser (SAMPLED_FIRST_CHECK)
        sampled_flop = street == 1 and sample > 0
        growth = SAMPLED_CHECK_GROWTH if sampled_flop else self.check_growth
        check = SAMPLED_FIRST_CHECK if sampled_flop else max(CHECK_EVERY, floor)
        step = check_cost = 0.0  # the last iteration's and the last check's seconds
        while True:  # one iteration at least, then until the target or a budget
            before = time.perf_counter()
            solver.run(iterations=1)
            step = time.perf_counter() - before
            took = time.perf_counter() - started
            # stop when another iteration and the closing check would overrun the budget (the
            # first iteration also builds the walk: it predicts nothing), the floor run
            spare = check_cost or CHECK_COST * step  # the closing check
            closing = self._closing.get(kind, 2 * spare)  # not measured yet: about two checks
            ahead = step + spare + closing if solver.iterations > 1 else 0.0
            late = took + ahead >= budget and solver.iterations >= floor
            spent = late or solver.iterations >= (cap or math.inf)
            if spent or solver.iterations >= check:
                before = time.perf_counter()
                metrics = solver.metrics()
                check_cost = time.perf_counter() - before
                reached = 100.0 * metrics.exploitability / pot
                check = next_check(solver.iterations, growth)
                if spent or metrics.exploitability <= target:
                    break
            if self.progress is not None:
                self.progress(Thinking(street, solver.iterations, took, budget, cap, reached,
                                       self.target_pct))  # fmt: skip
        self.solves += 1
        strategy = solver.average_strategy()
        fell_back = False
        if not reached <= self.target_pct:  # stopped short: no worse than the base agent
            before = time.perf_counter()
            opponent = SPOT_PLAYER_OF_SEAT[1 - me]
            weights = game.hand_weights(opponent)
            blueprint, against = self._base_play(sub, opponent)
            if weights @ against < weights @ opponent_values(sub, strategy, opponent):
                strategy, reached, fell_back = blueprint, math.nan, True
                self.fallbacks += 1
            self._closing[kind] = time.perf_counter() - before
        if street in RELEASE_STREETS:
            game.release()  # the walk's buffers and the showdown tables: hundreds of MB a flop
            # kept for the hand: half the bytes, as the turn's are
            strategy = {node: rows.astype(np.float32) for node, rows in strategy.items()}
        return Solution(sub, strategy, solver.iterations, time.perf_counter() - started, reached,
                        fell_back=fell_back)  # fmt: skip

    def _base_play(self, sub: Subgame, opponent: int) -> tuple[Strategy, np.ndarray]:
        """The base agent's play of ``sub`` (``blueprint_strategy``, its translation of sizes
        off its tree included: the bot's answer without re-solving) and the opponent's
        best-response values against it, what a solve that stopped short is compared with."""
        blueprint = blueprint_strategy(sub, self.base)
        return blueprint, opponent_values(sub, blueprint, opponent)

    def _safe_solve(
        self,
        sub: Subgame,
        me: int,
        started: float,
        budget: float,
        values: np.ndarray | None = None,
    ) -> Solution:
        """``sub`` through the gadget, with the opponent's alternatives ``values`` or, at a
        street's start, its values against the base agent's play, for ``_floor`` iterations at
        least. The opponent's best response is measured exactly; a solve that the budget left
        worse than the base agent's play of ``sub`` is replaced by that play: a street's when
        the opponent's hands gain in total over their alternatives, a node's (after an
        off-tree bet, which the base agent answers through its own translation) when it stopped
        short of safety and its check, the most an opponent hand gains over its alternative, is
        larger than that play's."""
        opponent = SPOT_PLAYER_OF_SEAT[1 - me]
        blueprint = None
        before = time.perf_counter()
        if values is None:
            blueprint, values = self._base_play(sub, opponent)
            closing = time.perf_counter() - before  # the same best response ends the solve
        else:  # a node's closing best response, unmeasured yet: 14 to 90 ms of a turn's 5 s
            closing = NODE_CLOSING * budget
        left = max(budget - (time.perf_counter() - started) - closing, 0.0)
        street = sub.root.street
        cap = self._cap(street) or SAFE_MAX_ITERATIONS

        pot = float(sub.game.pot)
        # a street's solve widens maxmargin's margins to its bound; a node's stops once safe,
        # or once its gaining hands' total stops falling (NODE_PLATEAU) (measured:
        # over 24 node re-solves at 100 iterations the wider stop missed the target by more in
        # total, 27.5 points of the pot against 20.7; docs/resolve.md)
        floor = min(self._floor(street), cap)
        check = GainCheck(sub, opponent, values, self.target_pct / 100.0 * pot,
                          time.perf_counter() + left, self.check_growth,
                          widen=blueprint is not None, floor=floor)  # fmt: skip

        def report(iterations: int, _: float) -> None:
            if self.progress is not None:
                took = time.perf_counter() - started  # since the decision started
                self.progress(Thinking(street, iterations, took, budget, cap, math.nan,
                                       self.target_pct, 100.0 * check.gain / pot,
                                       100.0 * check.gap / pot))  # fmt: skip

        strategy, iterations = safe_resolve(sub, me, values, cap, left, report, settled=check,
                                            gadget=self.gadget,
                                            minimum=floor)  # fmt: skip
        weights = check.weights
        response = check.response(iterations, strategy)  # check.gain: its largest hand's gain
        gain = float(weights @ (response - values))
        fell_back = False
        if blueprint is not None:  # a street's: the alternatives are the base agent's values
            if gain > 0:
                strategy, gain, fell_back = blueprint, 0.0, True
                self.fallbacks += 1
        elif not check.gain <= check.target:
            base, against = self._base_play(sub, opponent)  # the check, on the base's answer
            if float((against - values)[check.live].max()) < check.gain:
                strategy, gain, fell_back = base, float(weights @ (against - values)), True
                self.fallbacks += 1
        self.solves += 1
        took = time.perf_counter() - started
        return Solution(sub, strategy, iterations, took, np.nan, 100.0 * gain / sub.game.pot,
                        fell_back=fell_back, checks=tuple(check.checks))  # fmt: skip

    def _root_ranges(self, state: HunlState, board: np.ndarray, me: int) -> np.ndarray:
        """Both seats' reach of ``state`` (``bayes_ranges``: the bot's own policy for seat
        ``me``, its opponent model for the other), every live combo for a seat whose line its
        agent never plays, the opponent's floored at ``range_floor``."""
        ranges = bayes_ranges(state, board, self._agents(me))
        live = ~dead_mask([int(c) for c in board])
        for seat in (0, 1):  # a line the policies never play: fall back to every live combo
            if not ranges[seat].sum() > 0:
                ranges[seat] = live
        if self.range_floor > 0:
            floor = self.range_floor * float(ranges[1 - me].max())
            ranges[1 - me] = np.where(live, np.maximum(ranges[1 - me], floor), 0.0)
        return ranges


def _cache_key(state: HunlState, board: np.ndarray) -> tuple[int, str, tuple[int, ...]]:
    """Where a bot keeps its solutions of ``state``'s street: the seat to act, the streets
    before, the board."""
    return (state.to_act, "/".join(state.history[:-1]), tuple(int(c) for c in board))
