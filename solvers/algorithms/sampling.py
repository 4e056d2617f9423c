"""Monte Carlo CFR: chance-sampled, external-sampling and outcome-sampling variants.

- **Chance-sampled CFR** (``cs-cfr``; Zinkevich, Johanson, Bowling & Piccione, "Regret
  Minimization in Games with Incomplete Information", NIPS 2007): each iteration samples the deal
  ``(h0, h1)`` from the prior and one outcome at every chance node it reaches, then walks every
  action of both players with simultaneous updates, as full-width CFR does on that sample.
- **External-sampling MCCFR** (``es-mccfr``) and **outcome-sampling MCCFR** (``os-mccfr``)
  (Lanctot, Waugh, Zinkevich & Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive
  Games", NIPS 2009). One iteration is a traversal for player 0 and then one for player 1, each
  with a fresh deal. External sampling walks all of the traverser's actions and samples chance
  and the opponent's actions; the opponent's current strategy is added to its average where it is
  sampled ("simple" averaging, as OpenSpiel's ``external_sampling_mccfr``). Outcome sampling
  follows one trajectory, sampling the traverser's actions from ``epsilon``-uniform exploration
  mixed with the current strategy, and corrects values and averages by importance weights
  (``1 / sampling probability``), as OpenSpiel's ``outcome_sampling_mccfr``.

On the public-tree representation a sampled deal fixes one hand per player, so an information set
is ``(node, own hand)`` and an iteration is a walk over public nodes with scalar reaches (see
``sampled_tree.py``). All are seeded: ``seed`` picks the stream, and checkpoints hold its state.
"""

from __future__ import annotations

from typing import Any

from solvers.algorithms.base import SolverError
from solvers.algorithms.matching import regret_matching_scalar
from solvers.algorithms.sampled_tree import CHANCE, TERMINAL, SampledSolver, pick
from solvers.games.base import TreeGame


def _sample_action(probabilities: list[float], uniform: float) -> int:
    running = 0.0
    last = len(probabilities) - 1
    for index in range(last):
        running += probabilities[index]
        if uniform < running:
            return index
    return last


class ChanceSampledCFR(SampledSolver):
    """CFR on one sampled deal and chance outcomes per iteration, all actions walked."""

    algorithm = "cs-cfr"

    def _step(self) -> None:
        self._deal()
        self._walk(0, 1.0, 1.0)
        self.iterations += 1

    def _walk(self, node: int, reach0: float, reach1: float) -> float:
        """Player 0's value at ``node`` for the sampled deal; updates regrets on the way up."""
        tree = self.tree
        kind = tree.kind[node]
        if kind == TERMINAL:
            return self._values[tree.terminal_slot[node]]
        if reach0 == 0.0 and reach1 == 0.0:
            return 0.0  # no ancestor's update can depend on this subtree
        if kind == CHANCE:
            outcome = pick(tree.chance_cumulative(node, *self._hands), self.stream.next())
            return self._walk(tree.children[node][outcome], reach0, reach1)
        player = tree.player[node]
        hand = self._hands[player]
        regrets = self.regrets[node][hand]
        strategy = regret_matching_scalar(regrets)
        deal_values = self._values
        values = []
        for child, slot, probability in zip(
            tree.children[node], tree.child_slots[node], strategy, strict=True
        ):
            if slot >= 0:
                values.append(deal_values[slot])
            elif player == 0:
                values.append(self._walk(child, reach0 * probability, reach1))
            else:
                values.append(self._walk(child, reach0, reach1 * probability))
        if player == 0:
            own_reach, opponent_reach, sign = reach0, reach1, 1.0
        else:
            own_reach, opponent_reach, sign = reach1, reach0, -1.0
        node_value = 0.0
        for probability, value in zip(strategy, values, strict=True):
            node_value += probability * value
        if opponent_reach > 0.0:
            weight = sign * opponent_reach
            for action, value in enumerate(values):
                regrets[action] += weight * (value - node_value)
        if own_reach > 0.0:
            sums = self.strategy_sums[node][hand]
            for action, probability in enumerate(strategy):
                sums[action] += own_reach * probability
        return node_value


class ExternalSamplingMCCFR(SampledSolver):
    """External-sampling MCCFR with alternating traversals and simple averaging."""

    algorithm = "es-mccfr"

    def _step(self) -> None:
        for traverser in (0, 1):
            self._deal(traverser)
            self._walk(0, traverser)
        self.iterations += 1

    def _walk(self, node: int, traverser: int) -> float:
        """The traverser's sampled value at ``node``."""
        tree = self.tree
        kind = tree.kind[node]
        if kind == TERMINAL:
            return self._values[tree.terminal_slot[node]]
        if kind == CHANCE:
            outcome = pick(tree.chance_cumulative(node, *self._hands), self.stream.next())
            return self._walk(tree.children[node][outcome], traverser)
        player = tree.player[node]
        hand = self._hands[player]
        regrets = self.regrets[node][hand]
        strategy = regret_matching_scalar(regrets)
        children = tree.children[node]
        if player != traverser:
            sums = self.strategy_sums[node][hand]
            for action, probability in enumerate(strategy):
                sums[action] += probability
            action = _sample_action(strategy, self.stream.next())
            return self._walk(children[action], traverser)
        deal_values = self._values
        values = [
            deal_values[slot] if slot >= 0 else self._walk(child, traverser)
            for child, slot in zip(children, tree.child_slots[node], strict=True)
        ]
        node_value = 0.0
        for probability, value in zip(strategy, values, strict=True):
            node_value += probability * value
        for action, value in enumerate(values):
            regrets[action] += value - node_value
        return node_value


class OutcomeSamplingMCCFR(SampledSolver):
    """Outcome-sampling MCCFR with ``epsilon``-exploration and importance weights."""

    algorithm = "os-mccfr"

    def __init__(
        self, game: TreeGame, seed: int = 0, epsilon: float = 0.6, output: str = "average"
    ) -> None:
        if not 0.0 < epsilon <= 1.0:
            raise SolverError(f"epsilon must be in (0, 1], not {epsilon!r}")
        super().__init__(game, seed=seed, output=output)
        self.epsilon = float(epsilon)

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "epsilon": self.epsilon}

    def _step(self) -> None:
        for traverser in (0, 1):
            self._deal(traverser)
            self._walk(0, traverser, 1.0, 1.0, 1.0)
        self.iterations += 1

    def _walk(
        self,
        node: int,
        traverser: int,
        own_reach: float,
        opponent_reach: float,
        sample_reach: float,
    ) -> float:
        """Estimate of the traverser's value at ``node`` given it was reached (not yet divided
        by ``sample_reach``, which the regret update applies)."""
        tree = self.tree
        kind = tree.kind[node]
        if kind == TERMINAL:
            return self._values[tree.terminal_slot[node]]
        if kind == CHANCE:
            outcome = pick(tree.chance_cumulative(node, *self._hands), self.stream.next())
            return self._walk(
                tree.children[node][outcome], traverser, own_reach, opponent_reach, sample_reach
            )
        player = tree.player[node]
        hand = self._hands[player]
        regrets = self.regrets[node][hand]
        strategy = regret_matching_scalar(regrets)
        child = tree.children[node]
        if player == traverser:
            explore = self.epsilon / len(strategy)
            sampling = [explore + (1.0 - self.epsilon) * s for s in strategy]
            action = _sample_action(sampling, self.stream.next())
            child_value = self._walk(
                child[action],
                traverser,
                own_reach * strategy[action],
                opponent_reach,
                sample_reach * sampling[action],
            )
        else:
            sampling = strategy
            action = _sample_action(sampling, self.stream.next())
            child_value = self._walk(
                child[action],
                traverser,
                own_reach,
                opponent_reach * strategy[action],
                sample_reach * sampling[action],
            )
        sampled_action_value = child_value / sampling[action]
        node_value = strategy[action] * sampled_action_value
        if player == traverser:
            weight = opponent_reach / sample_reach
            for other in range(len(strategy)):
                action_value = sampled_action_value if other == action else 0.0
                regrets[other] += weight * (action_value - node_value)
            sums = self.strategy_sums[node][hand]
            average_weight = own_reach / sample_reach
            for other, probability in enumerate(strategy):
                sums[other] += average_weight * probability
        return node_value
