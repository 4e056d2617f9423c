"""Full-width counterfactual regret minimisation on the public tree, vectorised over hands.

One walk serves every variant; they differ only in how regrets and averages are weighted, as
OpenSpiel's ``CFRPlusSolver`` only flips flags of its ``CFRSolver``:

- **CFR** (Zinkevich, Johanson, Bowling & Piccione, "Regret Minimization in Games with Incomplete
  Information", NIPS 2007): regret matching on cumulative counterfactual regrets; the uniform
  average of the iterates converges to a Nash equilibrium.
- **CFR+** (Tammelin, "Solving Large Imperfect Information Games Using CFR+", 2014; Tammelin,
  Burch, Johanson & Bowling, IJCAI 2015): regret-matching+ (cumulative regrets floored at 0),
  alternating updates and a linearly weighted average.
- **Linear CFR** and **Discounted CFR** (Brown & Sandholm, "Solving Imperfect-Information Games
  via Discounted Regret Minimization", AAAI 2019): after iteration t, positive cumulative regrets
  are multiplied by ``t^alpha / (t^alpha + 1)``, negative ones by ``t^beta / (t^beta + 1)``, and
  iteration t enters the average with weight ``t^gamma``. LCFR is (1, 1, 1); DCFR defaults to
  (1.5, 0, 2).
- **Predictive CFR+** (Farina, Kroer & Sandholm, "Faster Game Solving via Predictive Blackwell
  Approachability", AAAI 2021): the current strategy is regret matching on the cumulative
  regrets *plus the last instantaneous regret* (a prediction of the next one), with RM+ floors
  and a quadratic average. **PDCFR+** (Xu et al., "Minimizing Weighted Counterfactual Regret
  with Optimistic Online Mirror Descent", IJCAI 2024) adds DCFR's discount of the floored
  regrets (alpha 2.3) and a ``t^5`` average.

Each iteration carries every player's reach for all hands at once down the tree and their
counterfactual values back up (``exact/walk.py``), and updates the regrets of all (node, hand)
information sets with a handful of array operations. On hold'em spots (alternating updates) the
same walk runs as compiled loops with the update fused into the value pass and, where two suits
are interchangeable, over one of each pair of suit-swapped cards (``exact/compiled_walk.py``);
then the per-edge arrays cover the walked edges only. Updates are simultaneous (both players
against the same iterate, as in Zinkevich et al.) or alternating (player 0, then player 1 against
player 0's new strategy, as in CFR+ and in all of OpenSpiel's CFR solvers). With alternating
updates the schedule is exactly OpenSpiel's, so ``cfr`` here reproduces ``pyspiel.CFRSolver``.

State layout: per player, ``regrets`` and ``strategy_sums`` are ``[n_edges, n_hands]``; action
``a`` of decision node ``plan.edges[p].decision_nodes[k]`` for hand ``h`` is row
``first_edge[k] + a``, column ``h`` (the node's ``[n_actions, n_hands]`` block, the transpose of
the strategy format).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from solvers.algorithms.base import (
    Solver,
    SolverError,
    per_player,
)
from solvers.algorithms.cfr_update import UpdateRule
from solvers.algorithms.matching import regret_matching
from solvers.errors import InputError
from solvers.exact.compiled_walk import (
    MODE_CFR,
    CompiledWalk,
    Source,
    compiled_walk,
    sample_groups,
    strategies_from,
)
from solvers.exact.evaluation import Exploitability, exploitability_of_sources
from solvers.exact.executor import WALKS, uses_compiled
from solvers.exact.kernel_inputs import FusedUpdate
from solvers.exact.walk import (
    build_plan,
    reach_pass,
    strategy_from_weights,
    value_pass,
)
from solvers.games.base import Strategy, TreeGame

if TYPE_CHECKING:
    import scipy.sparse as sp


@dataclass(frozen=True)
class CFRConfig:
    """How one walk's regrets and averages are weighted; presets are in ``VARIANTS``."""

    regret_floor: bool = False
    """Regret-matching+: floor cumulative regrets at 0 after every update (CFR+)."""
    alpha: float | None = None
    """Discount exponent of positive regrets; None for no discounting."""
    beta: float | None = None
    """Discount exponent of negative regrets; None for no discounting."""
    gamma: float = 0.0
    """Iteration t enters the average with weight ``max(t - delay, 0)^gamma``; 0 is uniform."""
    delay: int = 0
    """Averaging delay of CFR+ (Tammelin 2015 uses d > 0; OpenSpiel uses 0)."""
    restart: int | None = None
    """Start the average again at each power of this base (4: iterations 4, 16, 64, 256...),
    as postflop-solver's DCFR does; 0 never. None: the game's ``solver_restart`` for ``dcfr``
    without ``sample`` (4 on hold'em spots, ``HoldemGame.solver_restart`` says why), else 0."""
    alternating: bool = True
    """Update player 0, then player 1 against the new strategy (else both at once)."""
    predictive: bool = False
    """Regret-match on cumulative regrets plus the last instantaneous regret (PCFR+)."""
    precision: str | None = None
    """Storage of regrets, sums and the walk's arrays: ``float64`` (or ``64``), ``float32``
    (``32``: half the memory and bandwidth; big hold'em trees converge as far as the targets
    need), or ``int16`` (``16``, compiled walk only: regrets and sums as 16-bit codes with one
    scale per decision, ``exact/quantised_rows.py``, the walk's arrays in float32). None: the
    game's ``solver_precision`` if it has one (hold'em spots say float32), else float64."""

    isomorphism: bool = True
    """On the compiled walk, walk one of each pair of suit-swapped chance outcomes (when the
    spot has two suits its board and ranges cannot tell apart) and count it twice."""
    sample: int = 0
    """Public chance sampling on the compiled walk: each iteration walks this many of the
    subtree groups below the first chance nodes (a flop spot's turn cards), drawn afresh, their
    values scaled up to stay unbiased (``compiled_walk.sample_groups``); 0 walks them all. The
    decisions above (the flop) are updated every iteration, those below when their card is
    drawn."""
    sample_seed: int = 0
    """Seed of the draws of ``sample`` (with the iteration: a resumed solve draws the same)."""
    walk: str = "auto"
    """``compiled``: the compiled loops of ``compiled_walk.py`` (games with combo terminals,
    alternating updates); ``numpy``: the numpy level walk; ``auto``: compiled where it applies."""

    def __post_init__(self) -> None:
        if self.walk not in WALKS:
            raise SolverError("walk must be auto, compiled or numpy")
        if (self.alpha is None) != (self.beta is None):
            raise SolverError("give both alpha and beta, or neither")
        if self.gamma < 0 or self.delay < 0:
            raise SolverError("gamma and delay must be >= 0")
        if self.restart is not None and (self.restart == 1 or self.restart < 0):
            raise SolverError("restart must be 0 (never) or a base of at least 2")
        if self.sample < 0:
            raise SolverError("sample must be >= 0 (0 walks every chance outcome)")
        if self.precision is not None:
            if self.precision not in PRECISIONS:
                raise SolverError("precision must be 16, 32 or 64 (bits), or float32, float64")
            object.__setattr__(self, "precision", PRECISIONS[self.precision])


PRECISIONS = {
    "64": "float64",
    "float64": "float64",
    "32": "float32",
    "float32": "float32",
    "16": "int16",
    "int16": "int16",
}
"""Spellings of ``CFRConfig.precision`` and the storage each stands for."""
BITS = {"float64": "64", "float32": "32", "int16": "16"}
"""The ``--opt precision=`` spelling of each storage."""


def storage(precision: str) -> tuple[np.dtype, np.dtype, np.dtype]:
    """The dtypes of regrets, strategy sums and the walk's arrays at ``precision``: 16 bits
    keep signed codes for regrets and unsigned ones for sums, and walk in float32."""
    if precision == "int16":
        return np.dtype(np.int16), np.dtype(np.uint16), np.dtype(np.float32)
    dtype = np.dtype(precision)
    return dtype, dtype, dtype


VARIANTS: dict[str, dict[str, Any]] = {
    "cfr": {},
    "cfr+": {"regret_floor": True, "gamma": 1.0},
    "lcfr": {"alpha": 1.0, "beta": 1.0, "gamma": 1.0},
    "dcfr": {"alpha": 1.5, "beta": 0.0, "gamma": 2.0},
    "pcfr+": {"regret_floor": True, "predictive": True, "gamma": 2.0},
    "pdcfr+": {"regret_floor": True, "predictive": True, "alpha": 2.3, "beta": 0.0, "gamma": 5.0},
}
"""The named variants as ``CFRConfig`` fields (all alternating by default)."""


class FullWidthCFR(Solver):
    """Full-width CFR on a ``TreeGame``; see the module docstring for the variants."""

    chunk = 25

    def __init__(
        self,
        game: TreeGame,
        variant: str = "cfr",
        output: str = "average",
        **config: Any,
    ) -> None:
        if game.simultaneous:
            raise SolverError(f"{game.name} is a matrix game: use the 'rm' solver")
        if variant not in VARIANTS:
            raise SolverError(f"unknown CFR variant {variant!r}; known: {', '.join(VARIANTS)}")
        super().__init__(game, output)
        self.variant = variant
        self.config = CFRConfig(**{**VARIANTS[variant], **config})
        if self.config.precision is None:
            precision = getattr(game, "solver_precision", "float64")
            self.config = replace(self.config, precision=precision)
        if self.config.restart is None:
            spot_default = variant == "dcfr" and not self.config.sample
            restart = getattr(game, "solver_restart", 0) if spot_default else 0
            self.config = replace(self.config, restart=restart)
        self.algorithm = variant
        self.plan = build_plan(game)
        plan = self.plan
        assert self.config.precision is not None
        self.precision: str = self.config.precision
        self.quantised = self.precision == "int16"
        regret_dtype, sum_dtype, dtype = storage(self.precision)
        self._compiled: CompiledWalk | None = None
        settings = self.config
        self.rule = UpdateRule(
            floor=settings.regret_floor,
            alpha=settings.alpha,
            beta=settings.beta,
            gamma=settings.gamma,
            delay=settings.delay,
            predictive=settings.predictive,
            restart=settings.restart or 0,
        )
        try:
            compiled = uses_compiled(game, settings.walk, settings.alternating)
        except InputError as exc:
            raise SolverError(str(exc)) from None
        if settings.sample and not compiled:
            raise SolverError("sample= runs on the compiled walk of hold'em spots only")
        if self.quantised and not compiled:
            raise SolverError(
                "precision=16 runs on the compiled walk of hold'em spots (alternating updates) "
                "only; use precision=32 or 64 for this game"
            )
        # hold'em spots: the memory this solve needs at its precision; refuse what cannot fit
        size = getattr(game, "solve_size", None)
        self.memory_estimate_mb = None if size is None else size.check(self.precision) / 2**20
        n_edges = [e.n_edges for e in plan.edges]
        if compiled:
            # Hold'em spots: the same walk as compiled loops, the update fused into the value
            # pass, no [rows, 2, hands] factor or reach arrays, and suit twins left out
            # (compiled_walk.py): the per-edge arrays hold the edges that are walked.
            self._compiled = compiled_walk(game, dtype, isomorphic=self.config.isomorphism)
            n_edges = list(self._compiled.plan.n_edges)
        shapes = [(n_edges[p], plan.n_hands[p]) for p in (0, 1)]
        self.regrets = [np.zeros(shape, dtype=regret_dtype) for shape in shapes]
        self.strategy_sums = [np.zeros(shape, dtype=sum_dtype) for shape in shapes]
        slots = None if self._compiled is None else self._compiled.plan.slot_first
        n_slots = [0 if slots is None else len(slots[p]) for p in (0, 1)]
        self.regret_scales = [np.zeros(n, dtype=np.float32) for n in n_slots]
        self.sum_scales = [np.zeros(n, dtype=np.float32) for n in n_slots]
        # 16-bit storage: one scale per decision slot of each player (else unused)
        self.predictions = [
            np.zeros(r.shape, dtype=dtype) if self.config.predictive else np.zeros((0, 0), dtype)
            for r in self.regrets
        ]
        if self._compiled is not None:
            self._compiled.warm_up([self._source(0), self._source(1)])
        else:
            self._factor = plan.fixed_factor.astype(dtype)
            self._reach = np.zeros_like(self._factor)
            self._values = np.zeros((plan.n_rows, plan.max_hands), dtype=dtype)
        # the numpy walk's regret matching (the compiled loops form strategies themselves)
        self._uniform: list[np.ndarray] = []
        self._node_sums: list[sp.csr_matrix] = []
        if self._compiled is None:
            self._uniform = [  # [n_edges, 1]: 1 / (actions of the edge's node), for every hand
                np.repeat(1.0 / e.n_actions, e.n_actions)[:, None].astype(dtype) for e in plan.edges
            ]
            self._node_sums = [_node_sum_matrix(e, dtype) for e in plan.edges]
        self._current = [np.empty(0), np.empty(0)]
        for p in (0, 1):
            self._set_current(p)

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "variant": self.variant, **asdict(self.config)}

    # --- the iteration --------------------------------------------------------------------
    def _set_current(self, player: int) -> None:
        """Regret matching: positive regrets normalised per (node, hand), uniform if none."""
        plan = self.plan
        regrets = self.regrets[player]
        if self.config.predictive:
            regrets = regrets + self.predictions[player]
        if self._compiled is not None:  # strategies are formed inside the compiled loops
            return
        node_sums = self._node_sums[player]
        current = regret_matching(regrets, node_sums.__matmul__, self._uniform[player])
        self._current[player] = np.ascontiguousarray(current, dtype=self.regrets[player].dtype)
        if self._compiled is None:
            self._factor[plan.edges[player].rows, player, : plan.n_hands[player]] = current

    def _update(self, player: int, iteration: int) -> None:
        """Add ``player``'s instantaneous regrets and average contribution for this iterate."""
        plan = self.plan
        edges = plan.edges[player]
        n_hands = plan.n_hands[player]
        values = value_pass(self.game, plan, player, self._factor, self._reach, self._values)
        instant = values[edges.rows, :n_hands] - values[edges.parent_rows, :n_hands]
        if self.rule.predictive:
            self.predictions[player] = instant
        own_reach = self._reach[edges.parent_rows, player, :n_hands]
        self.rule.apply(
            iteration,
            self.regrets[player],
            instant,
            self.strategy_sums[player],
            own_reach,
            self._current[player],
        )

    def _compiled_update(self, player: int, iteration: int) -> None:
        """``_update`` and ``_set_current`` of ``player`` in one compiled pass."""
        assert self._compiled is not None
        sources = [self._source(0), self._source(1)]
        update = self._fused(player, iteration)
        weights = None
        if self.config.sample:
            weights = sample_groups(
                self._compiled.n_groups, self.config.sample, self.config.sample_seed, iteration
            )
        self._compiled.root_values(player, sources, MODE_CFR, update=update, group_weights=weights)

    def _source(self, player: int) -> Source:
        """The current strategy of ``player`` as the compiled loops read it: regret matching."""
        predictions = self.predictions[player] if self.config.predictive else None
        scales = self.regret_scales[player] if self.quantised else None
        return Source(self.regrets[player], matching=True, predictions=predictions, scales=scales)

    def _sums_source(self, player: int) -> Source:
        """The average strategy of ``player`` as the compiled loops read it: normalised sums."""
        scales = self.sum_scales[player] if self.quantised else None
        return Source(self.strategy_sums[player], scales=scales)

    def _fused(self, player: int, iteration: int) -> FusedUpdate:
        """The update of ``player``'s regrets and sums at ``iteration``."""
        sum_scales = self.sum_scales[player] if self.quantised else None
        return self.rule.fused(iteration, self.strategy_sums[player], sum_scales)

    def _step(self) -> None:
        iteration = self.iterations + 1
        if self._compiled is not None:
            self._compiled_update(0, iteration)
            self._compiled_update(1, iteration)
            self.iterations = iteration
            return
        reach_pass(self.plan, self._factor, self._reach)
        if self.config.alternating:
            self._update(0, iteration)
            self._set_current(0)
            reach_pass(self.plan, self._factor, self._reach)
            self._update(1, iteration)
            self._set_current(1)
        else:
            self._update(0, iteration)
            self._update(1, iteration)
            self._set_current(0)
            self._set_current(1)
        self.iterations = iteration

    # --- strategies and state -------------------------------------------------------------
    def _full(self, player: int, source: Source) -> np.ndarray:
        """A compiled-walk strategy over every edge of the tree (suit twins filled in)."""
        assert self._compiled is not None
        plan = self._compiled.plan
        return plan.full_edges(player, strategies_from(plan, player, source))

    def current_strategy(self) -> Strategy:
        if self._compiled is not None:
            current = [self._full(p, self._source(p)) for p in (0, 1)]
        else:
            current = [c.copy() for c in self._current]
        return {**self.plan.strategy_dict(0, current[0]), **self.plan.strategy_dict(1, current[1])}

    def _measure(self) -> Exploitability:
        if self._compiled is None:
            return super()._measure()
        return exploitability_of_sources(self.game, self.output_sources(), walk=self._compiled)

    def output_sources(self) -> list[Source]:
        """Compiled walk: the output strategy (``output``: the average or the current one) as
        the compiled loops read it, for both players."""
        if self.output == "average":
            return [self._sums_source(p) for p in (0, 1)]
        return [self._source(p) for p in (0, 1)]

    @property
    def compiled(self) -> CompiledWalk | None:
        """The compiled walk this solver runs on, if any."""
        return self._compiled

    def compiled_output(self, release: bool = False) -> list[np.ndarray] | None:
        """``strategy()`` on the compiled walk's edges (``compiled.plan.full_edges`` spreads it
        over the tree): what a big spot's file is written from without the full profile.

        With ``release`` the run is over and checkpointed: regrets, sums and predictions are
        freed as the output is formed (a flop spot's file is written in the memory they held),
        and the solver cannot go on."""
        if self._compiled is None:
            return None
        return list(self.compiled_outputs(release))

    def compiled_outputs(self, release: bool = False) -> Iterator[np.ndarray]:
        """``compiled_output`` one player at a time: with ``release``, a player's arrays go as
        soon as its output is formed, and what the caller drops of the output goes too."""
        assert self._compiled is not None, "a solver on the compiled walk"
        plan = self._compiled.plan
        sources: list[Source | None] = list(self.output_sources())
        if release:
            self.regrets = self.strategy_sums = self.predictions = []
        for p in (0, 1):
            source = sources[p]
            assert source is not None
            output = strategies_from(plan, p, source)
            if release:
                sources[p] = source = None  # the sums of p go as soon as they are read
            yield output
            del output

    def checkpoint_outputs(self, path: str | os.PathLike[str]) -> Iterator[np.ndarray]:
        """``compiled_outputs`` of this run's checkpoint at ``path`` (written when it stopped),
        one player at a time: only the arrays the output reads, in their stored types (a
        flop's sums are 180 MB a player at 16 bits; no second solver, no float copy)."""
        assert self._compiled is not None, "a solver on the compiled walk"
        plan = self._compiled.plan
        with np.load(path, allow_pickle=False) as saved:
            for key, mine in (("game", self.game.spec_string()), ("iterations", self.iterations),
                              ("precision", BITS[self.precision])):  # fmt: skip
                if key not in saved or str(saved[key]) != str(mine):
                    raise SolverError(f"{path} is not this run's checkpoint ({key})")
            for p in (0, 1):

                def read(name: str, p: int = p) -> np.ndarray:
                    return saved[f"state/{name}_{p}"]

                if self.output == "average":
                    scales = read("sum_scales") if self.quantised else None
                    source = Source(read("strategy_sums"), scales=scales)
                else:
                    predictions = read("predictions") if self.config.predictive else None
                    scales = read("regret_scales") if self.quantised else None
                    source = Source(read("regrets"), matching=True, predictions=predictions,
                                    scales=scales)  # fmt: skip
                output = strategies_from(plan, p, source)
                del source
                yield output
                del output

    def average_strategy(self) -> Strategy:
        """Strategy sums normalised per (node, hand); uniform where a hand never got there."""
        if self._compiled is not None:
            average = [self._full(p, self._sums_source(p)) for p in (0, 1)]
            return {
                **self.plan.strategy_dict(0, average[0]),
                **self.plan.strategy_dict(1, average[1]),
            }
        return strategy_from_weights(self.plan, self.strategy_sums)

    def _arrays(self) -> dict[str, np.ndarray]:
        arrays = {
            **per_player("regrets", self.regrets),
            **per_player("strategy_sums", self.strategy_sums),
        }
        if self.config.predictive:
            arrays.update(per_player("predictions", self.predictions))
        if self.quantised:
            arrays.update(per_player("regret_scales", self.regret_scales))
            arrays.update(per_player("sum_scales", self.sum_scales))
        return arrays

    def _load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        regret_dtype, sum_dtype, walk_dtype = storage(self.precision)
        # each array copied straight to its storage type (a flop's float64 copies took GBs)
        self.regrets = [a.astype(regret_dtype) for a in _saved(arrays, "regrets")]
        self.strategy_sums = [a.astype(sum_dtype) for a in _saved(arrays, "strategy_sums")]
        if self.config.predictive:
            self.predictions = [a.astype(walk_dtype) for a in _saved(arrays, "predictions")]
        if self.quantised:
            for name in ("regret_scales", "sum_scales"):
                scales = [a.astype(np.float32) for a in _saved(arrays, name)]
                if any((a < 0).any() for a in scales):
                    raise ValueError(f"negative {name}")
                setattr(self, name, scales)
        for p in (0, 1):
            self._set_current(p)

    def state_dict(self, copy: bool = True) -> dict[str, np.ndarray]:
        state = super().state_dict(copy)
        state["precision"] = np.array(BITS[self.precision])
        return state

    def load_state_dict(self, state: dict[str, np.ndarray]) -> None:
        """A checkpoint of another precision is refused by name before anything else (its
        arrays would not even have this run's types)."""
        if "precision" in state:
            saved = str(state["precision"])
            mine = BITS[self.precision]
            if saved != mine:
                raise SolverError(
                    f"checkpoint was solved with precision={saved} but this run asks "
                    f"precision={mine}: resume with --opt precision={saved}, or start afresh"
                )
        super().load_state_dict(state)


def _saved(arrays: dict[str, np.ndarray], name: str) -> list[np.ndarray]:
    """The pair ``per_player`` saved, as stored (``astype`` copies it to the storage type)."""
    return [np.asarray(arrays[f"{name}_{p}"]) for p in (0, 1)]


def _node_sum_matrix(edges, dtype) -> sp.csr_matrix:
    """``[n_edges, n_edges]`` 0/1, block diagonal: row e sums the edges of e's decision node.

    One sparse product instead of ``np.add.reduceat`` plus ``np.repeat``, which are slow on
    big trees (thousands of small segments). The numpy walk's only: scipy loads here."""
    import scipy.sparse as sp  # noqa: PLC0415

    node_of_edge = np.repeat(np.arange(len(edges.n_actions)), edges.n_actions)
    first = edges.first_edge[node_of_edge]
    count = edges.n_actions[node_of_edge]
    rows = np.repeat(np.arange(edges.n_edges), count)
    offsets = np.arange(len(rows)) - np.repeat(np.cumsum(count) - count, count)
    columns = np.repeat(first, count) + offsets
    ones = np.ones(len(rows), dtype=dtype)
    return sp.csr_matrix((ones, (rows, columns)), shape=(edges.n_edges, edges.n_edges))
