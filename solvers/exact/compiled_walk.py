"""The level walk as compiled loops, for games whose terminals are card-removal folds and
sorted showdowns (hold'em spots).

Same plan, same rows and levels, same per-edge layout as ``walk.py``; what changes is that each
level is one compiled loop over its rows (both cores, ``prange``) instead of a few numpy calls
over ``[rows, hands]`` blocks, and that nothing of size ``rows x hands`` is kept for terminals:

- **Reach** goes down only through the non-terminal rows (``reach[player]`` is
  ``[non-terminal rows, hands]``); a terminal's opponent reach is its parent's times the edge's
  probability, formed when the parent is valued.
- **Values** go up through the same rows. A terminal child is valued on the spot: a fold by
  inclusion-exclusion over the 52 cards (the opponent's total, minus the hands holding either
  card, plus the identical combo), a showdown by one sweep over the opponent's hands in strength
  order per board, with running per-card sums so that hands sharing a card drop out and ties
  count neither way. These loops are the game's (``games/holdem/terminal_kernels.py``): the
  numpy walk values a spot's terminals with them too, so there is one definition; the
  vectorised numpy sweep survives as the tests' oracle (``tests/showdown_oracle.py``).
- **Strategies** are formed where a decision is reached, from per-edge weights (``Source``):
  regret matching of regrets, or normalised strategy sums or probabilities. No per-edge strategy
  array is kept.
- **Modes**: the profile's counterfactual values; a best response (per-hand max at the
  responder's decisions, the argmax recorded per decision and hand); or one CFR-family update of
  the walking player (instantaneous regrets, floors, discounts, predictions, strategy sums
  weighted by own reach), fused into the pass. The update's numbers come from the algorithm
  (``algorithms/cfr_update.py`` builds a ``FusedUpdate``); this module only executes it.
- **Inputs** are named records (``kernel_inputs.py``), never long positional lists.
- **Suit isomorphism** (``compiled_plan(game, isomorphic=True)`` in ``compiled_plan.py``): of
  two chance cards that a suit swap exchanges on a board it fixes (``games/holdem/symmetry.py``),
  only the lower is walked; its contribution counts twice, once with every hand's suits
  swapped. Rows under the other have no storage, and per-edge arrays cover the walked edges
  only (``full_edges`` spreads them back). Exact when the strategies are suit-symmetric, as a
  solver's iterates are.

Which executor serves a game is decided in one place, ``executor.py``. The numpy walk stays the
reference: ``tests/test_compiled_walk.py`` checks values, best
responses and whole solver runs against it. Accumulations run in float64 whatever the storage
dtype. Kernels are compiled on first use and cached beside this file (numba's ``cache=True``).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from solvers.exact import thread_choice
from solvers.exact.compiled_plan import CompiledPlan, compiled_plan
from solvers.exact.kernel_inputs import FusedUpdate, PlanArrays, StrategySource, no_update
from solvers.exact.showdown_batches import showdown_batches
from solvers.games.base import TreeGame
from solvers.games.combo_terminals import TerminalTables, terminal_tables

MODE_VALUES = 0
MODE_RESPOND = 1
MODE_CFR = 2

PARALLEL_CELLS = 1 << 20
"""Trees from this many non-terminal node-hands on run their levels on every core."""


SCRATCHES_PER_THREAD = 1
"""Subtree scratches of a lean pass per thread, each allocated once per pass. The subtrees are
dealt out interleaved (line by line, card by card), so one per thread already balances them;
a flop's largest takes 11 MB."""
STRATEGY_CACHE = 1 << 20
"""The most numbers (float64, 8 MB) a lean pass's scratch keeps of a subtree's strategies, each
formed once a pass instead of two or three times: a turn re-solve's river group (20 rows of 5
by 1,128: 0.1 M) fits, a turn spot's too; a flop spot's turn subtrees do not, and form each
strategy where it is used."""


@dataclass(frozen=True)
class Source:
    """Where a player's behavioural strategy comes from: per-edge ``weights`` read by regret
    matching (``matching``: regrets, plus ``predictions`` for predictive CFR) or by plain
    normalisation (strategy sums, or probabilities). No per-edge strategy array is ever kept:
    the loops form each decision's strategy when they reach it."""

    weights: np.ndarray
    matching: bool = False
    predictions: np.ndarray | None = None
    scales: np.ndarray | None = None
    """16-bit ``weights`` (``quantised_rows.py``): one float32 scale per decision slot."""

    def kernel_input(self, dtype: np.dtype) -> StrategySource:
        """The record the kernels read, with float ``weights`` in ``dtype`` (16-bit codes are
        read as they are, with their scales)."""
        quantised = self.scales is not None
        weights = np.ascontiguousarray(self.weights, dtype=None if quantised else dtype)
        predictions = (
            np.zeros((0, 0), dtype=dtype) if self.predictions is None else self.predictions
        )
        scales = np.zeros(0, dtype=np.float32) if self.scales is None else self.scales
        return StrategySource(
            weights=weights, predictions=predictions, matching=self.matching, scales=scales
        )


def plan_arrays(plan: CompiledPlan, dtype: np.dtype) -> PlanArrays:
    """The kernels' view of ``plan``, its chance masks in ``dtype`` (0/1 masks stay uint8:
    exact in any dtype, and shared by every walk of the plan)."""
    return PlanArrays(
        kind=plan.kind,
        child_start=plan.child_start,
        child_rows=plan.child_rows,
        first_edge=plan.first_edge,
        chance_mask=plan.chance_mask,
        masks=plan.masks if plan.masks.dtype == np.uint8 else plan.masks.astype(dtype),
        inner_index=plan.inner_index,
        terminal_index=plan.terminal_index,
        terminal_chance=plan.terminal_chance,
        level_rows=plan.level_rows,
        decision_slot=plan.decision_slot,
        has_terminal_child=plan.has_terminal_child,
        has_inner_child=plan.has_inner_child,
        doubled=plan.doubled,
    )


@dataclass
class CompiledWalk:
    """Reach and values of one game on the compiled loops, in one storage dtype."""

    game: TreeGame
    dtype: np.dtype
    isomorphic: bool = False

    def __post_init__(self) -> None:
        self._k = _kernels()
        self.plan = compiled_plan(self.game, self.isomorphic)
        # Each level is a parallel region that waits for every thread: on a small tree (a
        # river) the second core saves 30% when idle but costs 3-5x when another process holds
        # it, so small trees run on one thread.
        self._cells = self.plan.n_inner * max(self.plan.n_hands)
        self._threads = self._k.ALL_THREADS if self._cells >= PARALLEL_CELLS else 1
        self.thread_choice = thread_choice.shared(self._threads)
        """The lean pass's thread count, timed (``thread_choice.py``): one thread when another
        process holds a core."""
        self.arrays = plan_arrays(self.plan, self.dtype)
        tables = self.game.combo_terminals()  # type: ignore[attr-defined]
        self.hands = tables.hands
        self.tables: tuple[TerminalTables, TerminalTables] = (
            terminal_tables(tables, 0),
            terminal_tables(tables, 1),
        )
        self.schedule, self.batches = showdown_batches(self.plan, self.tables[0])
        self._no_update = (no_update(self.dtype), no_update(self.dtype, quantised=True))
        self._no_best = np.zeros((0, 0), dtype=np.int8)
        self.strategy_cache = STRATEGY_CACHE
        """``STRATEGY_CACHE`` of this walk (a test sets 0 to walk as if nothing fitted)."""
        actions = np.diff(self.arrays.child_start)[self.arrays.kind < 2]  # players 0 and 1
        self.strategy_rows = int(actions.max(initial=1)) + 1
        """A kept strategy's rows: a decision's most actions (a chance node's children do not
        count) and ``_strategy``'s scratch row."""
        self.longest_subtree = int(np.diff(self.schedule.sub_start).max(initial=1))
        self.kept_strategies = self.longest_subtree * self.strategy_rows * max(self.plan.n_hands)
        """The numbers a lean pass's scratch keeps of its subtrees' strategies."""
        self.lock = threading.RLock()
        """Held by every pass and by ``release``: the app's workers share a game's walk
        (``game.derived``), and a pass handed buffers that another thread releases or
        reallocates meanwhile would write past their ends."""
        self.release()

    def warm_up(self, sources: list[Source]) -> None:
        """Load the compiled kernels (from numba's cache, or compile them) before timed work:
        one lean pass of ``sources``."""
        self.root_values(0, sources)

    def _idle(self, source: Source) -> FusedUpdate:
        """The no-update record typed like a CFR update of ``source``'s walk."""
        return self._no_update[source.scales is not None]

    def release(self) -> None:
        """Free the reach and value buffers (a finished solve); the next pass allocates them
        again."""
        with self.lock:
            self.reach = [np.zeros((0, n), dtype=self.dtype) for n in self.plan.n_hands]
            self.values = np.zeros(0, dtype=self.dtype)
            self.top_reach = [np.zeros((0, n), dtype=self.dtype) for n in self.plan.n_hands]
            self.top_values = np.zeros(0, dtype=self.dtype)

    def _ensure_buffers(self) -> None:
        plan = self.plan
        if len(self.values) != plan.n_inner * max(plan.n_hands):
            self.reach = [np.zeros((plan.n_inner, n), dtype=self.dtype) for n in plan.n_hands]
            self.values = np.zeros(plan.n_inner * max(plan.n_hands), dtype=self.dtype)

    def player_values(self, player: int) -> np.ndarray:
        """``player``'s values at every inner row, ``[inner rows, n_hands[player]]``, after
        ``values_up``: a C-contiguous view of the one buffer both players share. A column
        slice of a ``[rows, most hands]`` buffer would be contiguous for one player only, and
        numba compiles every kernel again for the other layout."""
        return _rows_of(self.values, self.plan.n_inner, self.plan.n_hands[player])

    def top_player_values(self, player: int) -> np.ndarray:
        """``player``'s values at the lean pass's rows (``schedule.top_index`` order), after
        ``root_values``: the rows above the cut and the subtrees' heads."""
        return _rows_of(self.top_values, self.plan.n_top, self.plan.n_hands[player])

    def root_values(
        self,
        player: int,
        sources: list[Source],
        mode: int = MODE_VALUES,
        best: np.ndarray | None = None,
        update: FusedUpdate | None = None,
        group_weights: np.ndarray | None = None,
    ) -> np.ndarray:
        """``reach_down`` then ``values_up`` in one lean pass; returns a copy of the root's
        values (the buffers are shared by the threads that use this walk). ``group_weights``
        (``[n_groups]``, see ``sample_groups``) walks only the subtree groups of nonzero
        weight, each head's values scaled by it: chance sampled below the cut.

        The same numbers to the bit, but reach and values are kept only for the rows above the
        first chance nodes (``top_reach``, ``top_values``): each subtree below is walked depth
        first in a per-thread scratch (``compiled_kernels.walk_pass``). What a solve and an
        exploitability need; node reports, which read every row, use the two passes."""
        with self.lock:
            _check_update(mode, update)
            plan = self.plan
            if len(self.top_values) != plan.n_top * max(plan.n_hands):
                self.top_reach = [np.zeros((plan.n_top, n), dtype=self.dtype) for n in plan.n_hands]
                self.top_values = np.zeros(plan.n_top * max(plan.n_hands), dtype=self.dtype)
            root = self.schedule.top_index[0]
            for p in (0, 1):
                self.top_reach[p][root] = 1.0
            values = _rows_of(self.top_values, plan.n_top, plan.n_hands[player])
            kind = (player, mode)
            threads = self.thread_choice.pick(kind)
            self._k.set_threads(threads)
            started = time.perf_counter()
            self._k.walk_pass(
                player,
                mode,
                self.arrays,
                self.schedule,
                sources[player].kernel_input(self.dtype),
                sources[1 - player].kernel_input(self.dtype),
                self.top_reach[0],
                self.top_reach[1],
                values,
                self.tables[player],
                self.hands[player],
                self.hands[1 - player],
                self._idle(sources[player]) if update is None else update,
                self._no_best if best is None else best,
                plan.hand_swap[player],
                SCRATCHES_PER_THREAD * threads,
                self.batches,
                self.longest_subtree if self.kept_strategies <= self.strategy_cache else 0,
                self.strategy_rows,
                _ALL_GROUPS if group_weights is None else group_weights,
            )
            self.record_passes(kind, threads, time.perf_counter() - started, 1)
            return values[root].copy()  # the buffer is another thread's once unlocked

    @property
    def n_groups(self) -> int:
        """Subtree groups of the lean pass: one per card of the first chance nodes (a flop
        spot's turn cards, a turn spot's rivers), across the lines into it."""
        return len(self.schedule.sub_start) - 1

    @property
    def threads(self) -> int:
        """Threads this walk's passes run on (every core from ``PARALLEL_CELLS`` cells)."""
        return self._threads

    @property
    def kernels(self):
        """The compiled kernels' module (``compiled_kernels.py``), loaded with this walk."""
        return self._k

    def ready_two_passes(self, kind: object = None) -> int:
        """``reach``, ``values`` and the thread count as ``reach_down`` and ``values_up`` set
        them, for a caller's own compiled loop over those kernels (hold ``lock`` around both);
        with a ``kind``, the count the timings chose for it (report the loop's time to
        ``record_passes``). Returns the count."""
        self._ensure_buffers()
        threads = self._threads if kind is None else self.thread_choice.pick(kind)
        self._k.set_threads(threads)
        return threads

    def record_passes(self, kind: object, threads: int, seconds: float, passes: int) -> None:
        """A caller's loop of ``passes`` passes of ``kind`` on ``threads`` took ``seconds``."""
        self.thread_choice.record(kind, threads, seconds / (passes * self._cells))

    def reach_down(self, sources: list[Source], players: tuple[int, ...] = (0, 1)) -> None:
        """The ``players``' own reach at every inner row (``reach``: ``[inner rows, hands]``
        per player, allocated on first use; another player's rows are left stale). A value
        pass of one player reads only its opponent's reach."""
        with self.lock:
            self._ensure_buffers()
            self._k.set_threads(self._threads)
            for p in (0, 1):
                self.reach[p][0] = 1.0
            self._k.reach_down(
                self.arrays,
                sources[0].kernel_input(self.dtype),
                sources[1].kernel_input(self.dtype),
                self.reach[0],
                self.reach[1],
                sum(1 << p for p in set(players)),
            )

    def values_up(
        self,
        player: int,
        sources: list[Source],
        mode: int = MODE_VALUES,
        best: np.ndarray | None = None,
        update: FusedUpdate | None = None,
    ) -> np.ndarray:
        """Bottom-up values of ``player`` at every inner row (``values``, after
        ``reach_down``); returns the root's ``[n_hands[player]]``.

        ``update`` (MODE_CFR) is applied to ``sources[player]``: its weights are the regrets
        (and its predictions the predictions) updated in place. ``best`` (MODE_RESPOND,
        optional) is ``[decision slots, hands]`` int8 for the chosen action."""
        with self.lock:
            _check_update(mode, update)
            self._ensure_buffers()
            self._k.set_threads(self._threads)
            values = self.player_values(player)
            self._k.values_up(
                player,
                mode,
                self.arrays,
                sources[player].kernel_input(self.dtype),
                sources[1 - player].kernel_input(self.dtype),
                self.reach[player],
                self.reach[1 - player],
                values,
                self.tables[player],
                self.hands[player],
                self.hands[1 - player],
                self._idle(sources[player]) if update is None else update,
                self._no_best if best is None else best,
                self.plan.hand_swap[player],
            )
            return values[0].copy()


_ALL_GROUPS = np.zeros(0)
"""``group_weights`` of a full pass: every group walked at weight 1."""


def sample_groups(n_groups: int, walked: int, seed: int, iteration: int) -> np.ndarray:
    """Weights of a pass that walks ``walked`` of ``n_groups`` groups, drawn uniformly
    without replacement from the seed and the iteration alone (a resumed solve draws the
    same), each at ``n_groups / walked``: every group's expected weight is 1, so a sampled
    pass's values are unbiased estimates of the full pass's (public chance sampling)."""
    weights = np.zeros(n_groups)
    if walked >= n_groups:
        weights[:] = 1.0
        return weights
    rng = np.random.default_rng([seed, iteration])
    weights[rng.choice(n_groups, walked, replace=False)] = n_groups / walked
    return weights


def _check_update(mode: int, update: FusedUpdate | None) -> None:
    if (mode == MODE_CFR) != (update is not None):
        raise ValueError("a CFR pass needs an update, and only a CFR pass takes one")


def _kernels():
    from solvers.exact import compiled_kernels  # noqa: PLC0415 - numba loads only here

    return compiled_kernels


def strategies_from(plan: CompiledPlan, player: int, source: Source) -> np.ndarray:
    """The per-edge strategy ``[edges, hands]`` a ``Source`` stands for, in the compiled
    arrays' layout (``plan.full_edges`` spreads it over every edge)."""
    weights = np.asarray(source.weights)
    dtype = weights.dtype if weights.dtype.kind == "f" else np.dtype(np.float32)
    source_input = source.kernel_input(dtype)
    out = np.empty(source_input.weights.shape, dtype=dtype)
    if len(plan.slot_actions[player]) == 0:  # a player without a decision (a call or fold)
        return out
    _kernels().strategies(plan.slot_first[player], plan.slot_actions[player], source_input, out)
    return out


def compiled_walk(game: TreeGame, dtype=np.float64, isomorphic: bool = False) -> CompiledWalk:
    """A ``CompiledWalk`` of ``game`` in ``dtype`` (kept in ``game.derived`` per dtype and
    isomorphism)."""
    dtype = np.dtype(dtype)
    return game.derived.get(
        "compiled_walk", (dtype.str, isomorphic), lambda: CompiledWalk(game, dtype, isomorphic)
    )


def _rows_of(buffer: np.ndarray, rows: int, width: int) -> np.ndarray:
    """The first ``rows * width`` entries of a flat buffer as a C-contiguous ``[rows, width]``
    view (see ``CompiledWalk.player_values``)."""
    return buffer[: rows * width].reshape(rows, width)
