"""What one CFR-family update does to a player's regrets and strategy sums after iteration t.

The variants (``full_width.py``) differ only here: regret-matching+ floors cumulative regrets at
0; Linear and Discounted CFR multiply positive regrets by ``t^alpha / (t^alpha + 1)`` and
negative ones by ``t^beta / (t^beta + 1)``; iteration t enters the average with weight
``max(t - delay, 0)^gamma``, and with a ``restart`` base b the average starts again at each
power of b (b, b^2, ...: the earlier iterates' sums are dropped, the delay moves to just before
it); predictive variants keep the last instantaneous regret. This
module owns those numbers. Both executors apply them: the numpy walk with array operations
(``apply``), the compiled walk inside its value pass (``fused``: a ``FusedUpdate`` record that
``solvers/exact`` executes without knowing which variant it serves).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.exact.kernel_inputs import FusedUpdate

_NO_SUMS = np.zeros((0, 0))


@dataclass(frozen=True)
class UpdateRule:
    """The update of a CFR variant, from its ``CFRConfig`` fields."""

    floor: bool = False
    alpha: float | None = None
    beta: float | None = None
    gamma: float = 0.0
    delay: int = 0
    predictive: bool = False
    restart: int = 0

    def last_restart(self, iteration: int) -> int:
        """The latest iteration at or before ``iteration`` where the average started again (a
        power of ``restart``, at least ``restart``), or 0."""
        if self.restart < 2 or iteration < self.restart:
            return 0
        power = self.restart
        while power * self.restart <= iteration:
            power *= self.restart
        return power

    def restarts(self, iteration: int) -> bool:
        """Whether the strategy sums are dropped just before ``iteration``'s update."""
        return iteration > 0 and self.last_restart(iteration) == iteration

    def discounts(self, iteration: int) -> tuple[float, float] | None:
        """``(positive, negative)`` factors of the cumulative regrets after ``iteration``, or
        None when the variant does not discount."""
        if self.alpha is None or self.beta is None:
            return None
        positive = iteration**self.alpha / (iteration**self.alpha + 1.0)
        negative = iteration**self.beta / (iteration**self.beta + 1.0)
        return positive, negative

    def restart_sums(self, iteration: int, *sums: np.ndarray) -> None:
        """Drop the average's sums (and 16-bit sums' scales) in place before ``iteration``'s
        update when the average starts again there."""
        if self.restarts(iteration):
            for array in sums:
                array[...] = 0

    def sum_weight(self, iteration: int) -> float:
        """Weight of ``iteration``'s strategy in the average."""
        delay = max(self.delay, self.last_restart(iteration) - 1)
        return float(max(iteration - delay, 0)) ** self.gamma

    def fused(
        self, iteration: int, strategy_sums: np.ndarray, sum_scales: np.ndarray | None = None
    ) -> FusedUpdate:
        """This update at ``iteration`` as the compiled value pass executes it; 16-bit
        ``strategy_sums`` come with their per-decision ``sum_scales``. Where the average starts
        again, the sums (and scales) are dropped here, before the pass adds to them."""
        discounts = self.discounts(iteration)
        if sum_scales is None:
            sum_scales = np.zeros(0, dtype=np.float32)
        self.restart_sums(iteration, strategy_sums, sum_scales)
        return FusedUpdate(  # plain floats and bools: one compiled specialisation
            strategy_sums=strategy_sums,
            sum_scales=sum_scales,
            dither_seed=int(iteration),  # 16-bit sums and regrets: a new dither every iteration
            sum_weight=float(self.sum_weight(iteration)),
            floor=bool(self.floor),
            discount=discounts is not None,
            positive=1.0 if discounts is None else float(discounts[0]),
            negative=1.0 if discounts is None else float(discounts[1]),
        )

    def numbers(self, first: int, count: int) -> np.ndarray:
        """``[count, 3]``: sum weight, positive and negative discount of iterations ``first``
        on, as ``fused`` sets them (read by ``compiled_kernels.gadget_iterations``)."""
        rows = []
        for iteration in range(first, first + count):
            update = self.fused(iteration, _NO_SUMS)
            rows.append((update.sum_weight, update.positive, update.negative))
        return np.array(rows, dtype=np.float64).reshape(count, 3)

    def apply(
        self,
        iteration: int,
        regrets: np.ndarray,
        instant: np.ndarray,
        strategy_sums: np.ndarray,
        own_reach: np.ndarray,
        current: np.ndarray,
    ) -> None:
        """The same update with numpy arrays, in place: ``regrets`` (and ``strategy_sums``) are
        ``[edges, hands]``; ``own_reach`` is the acting player's reach at each edge's decision
        and ``current`` the strategy played this iteration."""
        self.restart_sums(iteration, strategy_sums)
        regrets += instant
        if self.floor:
            np.maximum(regrets, 0.0, out=regrets)
        discounts = self.discounts(iteration)
        if discounts is not None:
            dtype = regrets.dtype.type
            regrets *= np.where(regrets >= 0, dtype(discounts[0]), dtype(discounts[1]))
        weight = self.sum_weight(iteration)
        if weight > 0:
            strategy_sums += weight * own_reach * current
