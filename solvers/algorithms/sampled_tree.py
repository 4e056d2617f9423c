"""Shared machinery of the sampling solvers: a seeded uniform stream, scalar tree tables, deals.

Once a deal ``(h0, h1)`` is sampled from the prior, every information set on the public tree is
``(node, own hand)`` with the hand fixed, so a sampled iteration is a walk over public nodes with
scalar reaches. This module flattens the tree into Python lists for such walks, divides the prior
out of the terminal matrices (``payoff[t, h0, h1]`` is player 0's payoff at terminal slot ``t``),
and samples deals and chance outcomes from one stream of uniforms.

Randomness: every random choice consumes one uniform from a buffer of ``UNIFORM_BLOCK`` numbers
drawn with numpy's PCG64. The buffer, its cursor and the generator's state are all part of the
checkpoint (``RandomStream.arrays``), so a resumed run continues bit for bit.

State layout of ``SampledSolver``: ``regrets[node_id][hand]`` and ``strategy_sums[node_id][hand]``
are Python lists of ``n_actions`` floats (fast scalar updates); ``np.array(regrets[node_id])`` is
the node's ``[n_hands, n_actions]`` array in the common strategy format. Checkpoints flatten each
player's nodes, in ``decision_nodes[p]`` order, into one float array per player.
"""

from __future__ import annotations

import bisect
from typing import Any

import numpy as np

from solvers.algorithms.base import Solver, SolverError
from solvers.algorithms.matching import regret_matching
from solvers.games.base import Strategy, TreeGame

UNIFORM_BLOCK = 4096
"""Uniforms drawn from the generator at a time."""
PAYOFF_TABLE_LIMIT = 20_000_000
"""Largest per-deal payoff table (terminals times hand pairs) precomputed as one array."""
DECISION, CHANCE, TERMINAL = 0, 1, 2
_MASK64 = (1 << 64) - 1


class RandomStream:
    """Seeded uniforms in [0, 1), drawn in blocks; its whole state fits in three arrays."""

    def __init__(self, seed: int, block: int = UNIFORM_BLOCK) -> None:
        self.generator = np.random.Generator(np.random.PCG64(seed))
        self.block = block
        self.buffer: list[float] = []
        self.cursor = 0
        self.refill()

    def refill(self) -> None:
        self.buffer = self.generator.random(self.block).tolist()
        self.cursor = 0

    def next(self) -> float:
        if self.cursor == self.block:
            self.refill()
        value = self.buffer[self.cursor]
        self.cursor += 1
        return value

    def arrays(self) -> dict[str, np.ndarray]:
        state = self.generator.bit_generator.state
        words = [
            state["state"]["state"] >> 64,
            state["state"]["state"] & _MASK64,
            state["state"]["inc"] >> 64,
            state["state"]["inc"] & _MASK64,
            state["has_uint32"],
            state["uinteger"],
        ]
        return {
            "rng_state": np.array(words, dtype=np.uint64),
            "uniforms": np.array(self.buffer, dtype=float),
            "uniform_cursor": np.array(self.cursor, dtype=np.int64),
        }

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        words = [int(w) for w in np.asarray(arrays["rng_state"], dtype=np.uint64)]
        self.generator.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": (words[0] << 64) | words[1], "inc": (words[2] << 64) | words[3]},
            "has_uint32": words[4],
            "uinteger": words[5],
        }
        self.buffer = np.asarray(arrays["uniforms"], dtype=float).tolist()
        self.cursor = int(arrays["uniform_cursor"])


def pick(cumulative: list[float], uniform: float) -> int:
    """Index sampled by ``uniform`` from cumulative weights (zero-weight entries never picked)."""
    index = bisect.bisect_right(cumulative, uniform * cumulative[-1])
    return min(index, len(cumulative) - 1)


class ScalarTree:
    """The public tree as Python lists, plus per-deal payoffs and chance distributions."""

    def __init__(self, game: TreeGame) -> None:
        if game.simultaneous:
            raise SolverError(f"{game.name} is a matrix game: use the 'rm' solver")
        nodes = game.nodes
        self.kind = [
            DECISION if n.is_decision else CHANCE if n.is_chance else TERMINAL for n in nodes
        ]
        self.player = [n.player for n in nodes]
        self.children = [tuple(n.children) for n in nodes]
        self.n_hands = game.n_hands
        self.decision_nodes = tuple(
            tuple(n.id for n in nodes if n.is_decision and n.player == p) for p in (0, 1)
        )
        terminals = [int(t) for t in game.terminal_ids]
        self.terminal_slot = [-1] * len(nodes)
        for slot, node_id in enumerate(terminals):
            self.terminal_slot[node_id] = slot
        self.child_slots = [tuple(self.terminal_slot[c] for c in kids) for kids in self.children]
        """Per node, the terminal slot of each child, or -1: walks read terminals inline."""
        prior = game.prior
        possible = prior > 0
        self._inverse_prior = np.where(possible, 1.0 / np.where(possible, prior, 1.0), 0.0)
        self._matrices = [game.terminal_matrix(t) for t in terminals]
        self.payoff: np.ndarray | None = None
        """``[n_terminals, n0, n1]``: player 0's payoff of each deal at each terminal slot, when
        it fits in ``PAYOFF_TABLE_LIMIT`` entries (else ``deal_values`` reads the matrices)."""
        if len(terminals) * prior.size <= PAYOFF_TABLE_LIMIT:
            self.payoff = np.stack(self._matrices) * self._inverse_prior
        self._deal_cumulative = np.cumsum(prior.reshape(-1)).tolist()
        self._chance = {
            n.id: (np.asarray(n.outcome_probs), n.outcome_masks) for n in nodes if n.is_chance
        }
        self._chance_cache: dict[tuple[int, int, int], list[float]] = {}

    def sample_deal(self, uniform: float) -> tuple[int, int]:
        return divmod(pick(self._deal_cumulative, uniform), self.n_hands[1])

    def deal_values(self, hand0: int, hand1: int) -> list[float]:
        """Player 0's payoff at each terminal slot for this deal."""
        if self.payoff is not None:
            return self.payoff[:, hand0, hand1].tolist()
        scale = self._inverse_prior[hand0, hand1]
        return [float(matrix[hand0, hand1] * scale) for matrix in self._matrices]

    def chance_cumulative(self, node_id: int, hand0: int, hand1: int) -> list[float]:
        """Cumulative outcome weights of a chance node given both hands (card removal)."""
        key = (node_id, hand0, hand1)
        cached = self._chance_cache.get(key)
        if cached is None:
            probs, masks = self._chance[node_id]
            assert masks is not None, "chance nodes carry their card-removal masks"
            mask0, mask1 = masks
            weights = probs * mask0[:, hand0] * mask1[:, hand1]
            cached = np.cumsum(weights).tolist()
            self._chance_cache[key] = cached
        return cached


class SampledSolver(Solver):
    """Base of the sampling solvers: seed, stream, per-node regret and strategy-sum tables."""

    chunk = 100

    def __init__(self, game: TreeGame, seed: int = 0, output: str = "average") -> None:
        super().__init__(game, output)
        if not isinstance(seed, int | np.integer) or seed < 0:
            raise SolverError(f"seed must be a non-negative integer, not {seed!r}")
        self.seed = int(seed)
        self.tree = ScalarTree(game)
        self.stream = RandomStream(self.seed)
        self.regrets: dict[int, list[list[float]]] = {}
        self.strategy_sums: dict[int, list[list[float]]] = {}
        for p in (0, 1):
            for node_id in self.tree.decision_nodes[p]:
                n_actions = len(self.tree.children[node_id])
                self.regrets[node_id] = [[0.0] * n_actions for _ in range(game.n_hands[p])]
                self.strategy_sums[node_id] = [[0.0] * n_actions for _ in range(game.n_hands[p])]

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "seed": self.seed}

    def _deal(self, traverser: int = 0) -> None:
        """Sample a deal: set ``_hands`` and each terminal's ``_values`` for ``traverser``."""
        self._hands = self.tree.sample_deal(self.stream.next())
        values = self.tree.deal_values(*self._hands)
        self._values = values if traverser == 0 else [-v for v in values]

    # --- strategies -------------------------------------------------------------------------
    def current_strategy(self) -> Strategy:
        return {
            node_id: regret_matching(np.asarray(rows, dtype=float))
            for node_id, rows in self.regrets.items()
        }

    def average_strategy(self) -> Strategy:
        """Strategy sums normalised per (node, hand); uniform where a hand never got there."""
        out: Strategy = {}
        for node_id, rows in self.strategy_sums.items():
            sums = np.array(rows)
            totals = sums.sum(axis=1, keepdims=True)
            reached = totals > 0
            uniform = np.full_like(sums, 1.0 / sums.shape[1])
            out[node_id] = np.where(reached, sums / np.where(reached, totals, 1.0), uniform)
        return out

    # --- checkpoints ------------------------------------------------------------------------
    def _flat(self, table: dict[int, list[list[float]]], player: int) -> np.ndarray:
        return np.concatenate(
            [np.array(table[n], dtype=float).reshape(-1) for n in self.tree.decision_nodes[player]]
        )

    def _unflat(self, table: dict[int, list[list[float]]], player: int, flat: np.ndarray) -> None:
        offset = 0
        for node_id in self.tree.decision_nodes[player]:
            rows = table[node_id]
            size = len(rows) * len(rows[0])
            block = np.asarray(flat[offset : offset + size], dtype=float).reshape(len(rows), -1)
            table[node_id] = block.tolist()
            offset += size

    def _arrays(self) -> dict[str, np.ndarray]:
        arrays = self.stream.arrays()
        for p in (0, 1):
            arrays[f"regrets_{p}"] = self._flat(self.regrets, p)
            arrays[f"strategy_sums_{p}"] = self._flat(self.strategy_sums, p)
        return arrays

    def _load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        self.stream.load(arrays)
        for p in (0, 1):
            self._unflat(self.regrets, p, arrays[f"regrets_{p}"])
            self._unflat(self.strategy_sums, p, arrays[f"strategy_sums_{p}"])
