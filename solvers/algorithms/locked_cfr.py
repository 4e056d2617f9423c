"""Node locking for the full-width CFR family: solve the rest of the game around fixed parts.

Locked (node, hand) rows keep their fixed probabilities in every walk (the current strategy
and the factors the reach and value passes use), their regrets stay at zero (they are never
matched on), and the average strategy there is the lock itself. The other information sets run
the chosen variant unchanged, so the iterates converge to an equilibrium of the locked game;
``metrics`` reports that game's exploitability (``solvers.exact.locks``), which goes to zero,
rather than the full game's, which does not when the lock is a mistake.

Locks on a hold'em spot's first street (a flop strategy locked into a flop spot) run on the
compiled walk (``solvers.exact.compiled_locks``), which a flop needs; deeper locks take the numpy
walk, which serves any lock.
"""

from __future__ import annotations

from typing import Any

from solvers.algorithms.base import Metrics, SolverError
from solvers.algorithms.full_width import PRECISIONS, VARIANTS, FullWidthCFR
from solvers.errors import InputError
from solvers.exact.compiled_locks import (
    compiled_can_lock,
    locked_exploitability_compiled,
    pinned_rows,
    suit_symmetric,
)
from solvers.exact.compiled_walk import Source
from solvers.exact.evaluation import Exploitability, expected_values
from solvers.exact.executor import uses_compiled
from solvers.exact.locks import LockedEntries, Locks, apply_locks, edge_locks, locked_exploitability
from solvers.games.base import Strategy, TreeGame


class LockedCFR(FullWidthCFR):
    """``FullWidthCFR`` with some (node, hand) rows fixed; ``record`` is what the strategy
    file's header says about the locks (JSON-able, e.g. the lock file's nodes)."""

    def __init__(
        self,
        game: TreeGame,
        locks: Locks,
        variant: str = "cfr",
        output: str = "average",
        record: Any = None,
        **config: Any,
    ) -> None:
        self.locks = dict(locks)
        self.edge_locks = edge_locks(game, self.locks)  # before the first _set_current
        default_record = {game.nodes[n].key: int(lock.hands.sum()) for n, lock in locks.items()}
        self.lock_record = default_record if record is None else record
        if PRECISIONS.get(str(config.get("precision"))) == "int16":
            raise SolverError("node locking keeps regrets as floats: use precision 32 or 64")
        walk = config.get("walk", "auto")
        try:
            compiled = uses_compiled(game, walk, config.get("alternating", True))
        except InputError:
            compiled = False  # the solver's own check says why
        if compiled and compiled_can_lock(game, self.locks):
            if not suit_symmetric(game, self.locks):  # a twin's lock is not its image's
                config["isomorphism"] = False
        elif walk == "compiled":
            raise SolverError("the compiled walk locks the first street's decisions only")
        else:  # the numpy walk's factor and per-edge arrays serve any lock
            config["walk"] = "numpy"
        self._pinned: tuple[LockedEntries, LockedEntries] | None = None
        super().__init__(game, variant=variant, output=output, **config)
        if self._compiled is not None:
            self._pinned = pinned_rows(game, self._compiled, self.locks)
            self._pin()

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "locks": self.lock_record}

    def _pin(self) -> None:
        """Compiled walk: the locked rows' regrets made the lock (regret matching then reads
        it) and their predictions zero (``compiled_locks``)."""
        assert self._pinned is not None
        for p, pinned in enumerate(self._pinned):
            pinned.apply(self.regrets[p])
            if self.config.predictive:
                pinned.apply(self.predictions[p], 0.0)

    def _compiled_update(self, player: int, iteration: int) -> None:
        self._pin()
        super()._compiled_update(player, iteration)
        self._pin()

    def _set_current(self, player: int) -> None:
        super()._set_current(player)
        lock = self.edge_locks[player]
        if lock.edges.size and self._compiled is None:
            current = lock.apply(self._current[player])
            rows = self.plan.edges[player].rows[lock.edges]
            self._factor[rows, player, : self.plan.n_hands[player]] = current[lock.edges]

    def _update(self, player: int, iteration: int) -> None:
        super()._update(player, iteration)
        lock = self.edge_locks[player]
        if lock.edges.size:
            kept = (self.regrets, self.predictions) if self.config.predictive else (self.regrets,)
            for arrays in kept:
                block = arrays[player][lock.edges]
                arrays[player][lock.edges] = block * ~lock.mask

    def average_strategy(self) -> Strategy:
        return apply_locks(super().average_strategy(), self.locks)

    def _sums_source(self, player: int) -> Source:
        """Compiled walk: the locked rows' sums made the lock first, so every reader of the
        average (measures, the file, ``average_strategy``) sees it exactly."""
        if self._pinned is not None:
            self._pinned[player].apply(self.strategy_sums[player])
        return super()._sums_source(player)

    def unlocked(self) -> Exploitability:
        """The output strategy's exploitability in the full game, locks ignored (what the
        strategy file's header measures)."""
        return self._measure()

    def metrics(self) -> Metrics:
        """Exploitability of the locked game (lock-following best responses)."""
        cached = self._metrics_cache
        if cached is not None and cached[0] == self.iterations:
            return Metrics(
                self.iterations,
                self.elapsed_seconds,
                cached[1].exploitability,
                cached[1].game_value,
            )
        if self._compiled is not None:
            sources = self.output_sources()
            gap = locked_exploitability_compiled(self.game, self._compiled, sources, self.locks)
            value = float(self._compiled.root_values(0, sources).sum())
        else:
            strategy = self.strategy()
            gap = locked_exploitability(self.game, strategy, self.locks)
            value = expected_values(self.game, strategy).totals[0]
        result = Metrics(self.iterations, self.elapsed_seconds, gap, value)
        self._metrics_cache = (self.iterations, result)
        return result


def make_locked_solver(
    game: TreeGame, algo: str, locks: Locks, record: Any = None, **options: Any
) -> LockedCFR:
    """The locked form of a full-width CFR variant; other algorithms cannot lock nodes."""
    if algo not in VARIANTS:
        raise SolverError(
            f"node locking needs a full-width CFR algorithm ({', '.join(VARIANTS)}), not {algo!r}"
        )
    options.pop("seed", None)
    return LockedCFR(game, locks, variant=algo, record=record, **options)
