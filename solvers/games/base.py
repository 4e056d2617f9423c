"""The one game representation: private hands per player plus a public tree.

Every solver, bot and display in pokertui works on this model (see docs/architecture.md). A game has
``n_hands[p]`` private hands per player with a joint prior ``prior[h0, h1]`` (zero for hands that
cannot coexist), and a public tree whose nodes are listed parent-before-child in ``nodes``.

Layouts, documented here once:

- ``node.key`` is the action path: ``""`` is the root and tokens are joined by ``/``, such as
  ``"c/b/c"``; a chance outcome contributes its label, as in ``"r/c/Ks/r"``.
- A strategy is ``dict[node_id, array]``. The array of decision node ``n`` has shape
  ``[n_hands[n.player], len(n.actions)]``: row ``h`` holds the action probabilities of hand ``h``.
- Chance weights factorise given the hands: outcome ``o`` of a chance node multiplies the weight of
  ``(h0, h1)`` by ``outcome_probs[o] * outcome_masks[0][o, h0] * outcome_masks[1][o, h1]``.
- Terminal values for all hands at once come from ``terminal_values``; the default builds one
  dense ``[n0, n1]`` payoff-times-prior matrix per terminal, and a big game may override it (for
  example with a sorted O(n log n) showdown).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

import numpy as np

from solvers.errors import InputError
from solvers.games.derived import DerivedCache
from solvers.games.params import MAX_CHIPS as MAX_CHIPS  # re-exported
from solvers.games.params import MIN_CHIPS as MIN_CHIPS  # re-exported
from solvers.games.params import GameParamError as GameParamError  # re-exported
from solvers.games.params import GameParams as GameParams  # re-exported
from solvers.games.params import format_spec

Strategy = dict[int, np.ndarray]
"""Node id -> ``[n_hands of the acting player, n_actions]`` action probabilities."""


class TreeError(InputError):
    """An unknown node or an illegal action asked of the tree API."""


class NodeKind(StrEnum):
    DECISION = "decision"
    CHANCE = "chance"
    TERMINAL = "terminal"


@dataclass(eq=False, slots=True)
class Node:
    """One public state. Fields that do not apply to a kind keep their empty defaults. Slots,
    not a ``__dict__`` per node: a flop spot's tree has 136,000 of them."""

    id: int
    key: str
    kind: NodeKind
    parent: int
    contributions: tuple[float, float]
    """Chips each player has put in the pot so far (antes included)."""
    children: tuple[int, ...] = ()
    player: int = -1
    actions: tuple[str, ...] = ()
    """Readable labels of a decision's actions (``check``, ``bet 1``), or chance outcome labels."""
    tokens: tuple[str, ...] = ()
    """Key tokens of the children, in the same order as ``actions``."""
    amounts: tuple[float, ...] = ()
    """Chips the acting player adds with each action."""
    outcome_probs: np.ndarray | None = None
    outcome_masks: tuple[np.ndarray, np.ndarray] | None = None
    terminal: str = ""
    """``fold`` or ``showdown`` for a terminal node."""
    folder: int = -1
    board: tuple[int, ...] = field(default_factory=tuple)
    """Public cards dealt so far (game-specific card ids)."""

    @property
    def is_decision(self) -> bool:
        return self.kind is NodeKind.DECISION

    @property
    def is_chance(self) -> bool:
        return self.kind is NodeKind.CHANCE

    @property
    def is_terminal(self) -> bool:
        return self.kind is NodeKind.TERMINAL


class TreeBuilder:
    """Collects nodes in creation order; create a node's children in action order, depth first."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []

    def add(self, parent: int, token: str, kind: NodeKind, **fields: Any) -> int:
        if parent < 0:
            key = ""
        else:
            parent_key = self.nodes[parent].key
            key = token if parent_key == "" else f"{parent_key}/{token}"
        node = Node(id=len(self.nodes), key=key, kind=kind, parent=parent, **fields)
        self.nodes.append(node)
        return node.id

    def finish(self) -> list[Node]:
        children: dict[int, list[int]] = {}
        for node in self.nodes[1:]:
            children.setdefault(node.parent, []).append(node.id)
        for node in self.nodes:
            node.children = tuple(children.get(node.id, ()))
            if not node.is_terminal and len(node.children) != len(node.tokens):
                raise AssertionError(f"node {node.key!r}: children do not match its actions")
        return self.nodes


class TreeGame:
    """A two-player zero-sum game as private hands plus a public tree.

    Subclasses set ``name`` and ``params_model``, build ``nodes`` with a ``TreeBuilder`` and
    implement ``showdown_sign`` (and may override ``terminal_values``).
    """

    name: ClassVar[str] = ""
    simultaneous: ClassVar[bool] = False
    params_model: ClassVar[type[GameParams]] = GameParams
    description: ClassVar[str] = ""

    def __init__(
        self,
        params: GameParams,
        hand_labels: tuple[tuple[str, ...], tuple[str, ...]],
        prior: np.ndarray,
        nodes: list[Node],
        big_blind: float = 1.0,
    ) -> None:
        self.params = params
        self.hand_labels = hand_labels
        self.n_hands = (len(hand_labels[0]), len(hand_labels[1]))
        self.prior = np.asarray(prior, dtype=float)
        if self.prior.shape != self.n_hands:
            raise AssertionError("prior shape does not match the hands")
        self.nodes = nodes
        self.big_blind = big_blind
        """Chips in one big blind: exploitability in mbb/hand is ``1000 * chips / big_blind``."""
        self._by_key = {node.key: node for node in nodes}
        self._terminal_cache: dict[int, np.ndarray] = {}
        self.derived = DerivedCache()
        """Plans, compiled walks and tables computed from this game by other layers."""
        self._compute_path_chance()

    # --- identity -------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.name

    def spec_string(self) -> str:
        return format_spec(self.name, self.params)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec_string()}>"

    # --- tree API -------------------------------------------------------------------------
    @property
    def root(self) -> Node:
        return self.nodes[0]

    def node(self, node: int | str | Node) -> Node:
        """A node by id, key or itself; unknown ones raise ``TreeError``."""
        if isinstance(node, Node):
            return node
        if isinstance(node, str):
            return self.node_by_key(node)
        if isinstance(node, int | np.integer) and 0 <= node < len(self.nodes):
            return self.nodes[int(node)]
        raise TreeError(f"{self.name}: no node with id {node!r}")

    def node_by_key(self, key: str) -> Node:
        try:
            return self._by_key[key]
        except KeyError:
            raise TreeError(f"{self.name}: no node {key!r} in the public tree") from None

    def children(self, node: int | str | Node) -> list[Node]:
        return [self.nodes[c] for c in self.node(node).children]

    def legal_actions(self, node: int | str | Node) -> list[str]:
        """Labels of a decision's actions (or a chance node's outcomes); none at a terminal."""
        return list(self.node(node).actions)

    def child(self, node: int | str | Node, action: str | int) -> Node:
        """The child after ``action``: its label, its key token or its index."""
        parent = self.node(node)
        if parent.is_terminal:
            raise TreeError(f"{self.name}: node {parent.key!r} is terminal; no action is legal")
        if isinstance(action, int) and 0 <= action < len(parent.children):
            return self.nodes[parent.children[action]]
        for index, (label, token) in enumerate(zip(parent.actions, parent.tokens, strict=True)):
            if action in (label, token):
                return self.nodes[parent.children[index]]
        legal = ", ".join(parent.actions)
        raise TreeError(
            f"{self.name}: action {action!r} is not legal at node {parent.key!r} (legal: {legal})"
        )

    def decision_nodes(self, player: int | None = None) -> list[Node]:
        return [n for n in self.nodes if n.is_decision and (player is None or n.player == player)]

    # --- chance bookkeeping ---------------------------------------------------------------
    def _compute_path_chance(self) -> None:
        """Per node: product of chance factors on the path."""
        self.path_chance = np.ones(len(self.nodes))
        for node in self.nodes[1:]:  # parents come first
            parent = self.nodes[node.parent]
            self.path_chance[node.id] = self.path_chance[parent.id]
            if parent.is_chance:
                assert parent.outcome_probs is not None
                o = parent.children.index(node.id)
                self.path_chance[node.id] *= parent.outcome_probs[o]

    @functools.cached_property
    def path_masks(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per node: each player's hands still possible on its path (the sequence-form LP's;
        made on first use, since a flop's would hold 30 MB that a solve never reads)."""
        marginals = (self.prior.sum(axis=1) > 0, self.prior.sum(axis=0) > 0)
        masks: list[tuple[np.ndarray, np.ndarray]] = [marginals] * len(self.nodes)
        for node in self.nodes[1:]:
            parent = self.nodes[node.parent]
            masks[node.id] = masks[parent.id]
            if parent.is_chance:
                assert parent.outcome_masks is not None
                o = parent.children.index(node.id)
                mask0, mask1 = masks[parent.id]
                masks[node.id] = (
                    mask0 & (parent.outcome_masks[0][o] > 0),
                    mask1 & (parent.outcome_masks[1][o] > 0),
                )
        return masks

    def hand_weights(self, player: int) -> np.ndarray:
        """Prior probability of each of ``player``'s hands (the joint prior's marginal)."""
        return self.prior.sum(axis=1 - player)

    def hand_possible(self, node: int | str | Node, player: int) -> np.ndarray:
        """Boolean ``[n_hands[player]]``: which hands can hold at this node (card removal)."""
        return self.path_masks[self.node(node).id][player]

    def info_sets(self) -> list[tuple[int, int]]:
        """The flat information-set view: ``(decision node id, hand)`` for every possible hand."""
        return [
            (n.id, int(h))
            for n in self.decision_nodes()
            for h in np.flatnonzero(self.hand_possible(n, n.player))
        ]

    @property
    def n_info_sets(self) -> int:
        return int(sum(self.hand_possible(n, n.player).sum() for n in self.decision_nodes()))

    def sizes(self) -> dict[str, Any]:
        return {
            "hands": list(self.n_hands),
            "public_nodes": len(self.nodes),
            "decision_nodes": len(self.decision_nodes()),
            "info_sets": self.n_info_sets,
        }

    # --- payoffs --------------------------------------------------------------------------
    def showdown_sign(self, node: Node) -> np.ndarray:
        """``[n0, n1]``: +1 where player 0's hand wins at this showdown, -1 loses, 0 splits."""
        raise NotImplementedError

    def terminal_matrix(self, node: int | str | Node) -> np.ndarray:
        """``[n0, n1]`` player 0's payoff times the prior weight (path chance excluded)."""
        node = self.node(node)
        cached = self._terminal_cache.get(node.id)
        if cached is not None:
            return cached
        if not node.is_terminal:
            raise TreeError(f"{self.name}: node {node.key!r} is not terminal")
        put0, put1 = node.contributions
        if node.terminal == "fold":
            payoff = np.full(self.n_hands, -put0 if node.folder == 0 else put1)
        else:
            sign = self.showdown_sign(node)
            payoff = np.where(sign > 0, put1, np.where(sign < 0, -put0, (put1 - put0) / 2))
        matrix = payoff * self.prior
        self._terminal_cache[node.id] = matrix
        return matrix

    def terminal_values(self, node: Node, player: int, opp_reach: np.ndarray) -> np.ndarray:
        """``values[h] = sum_h' payoff_player(h, h') * prior(h, h') * opp_reach[h']``.

        ``opp_reach`` already carries the path's chance factors and the opponent's masks.
        """
        matrix = self.terminal_matrix(node)
        if player == 0:
            return matrix @ opp_reach
        return -(opp_reach @ matrix)

    @functools.cached_property
    def terminal_ids(self) -> np.ndarray:
        return np.array([n.id for n in self.nodes if n.is_terminal], dtype=np.intp)

    @functools.cached_property
    def _terminal_stack(self) -> np.ndarray:
        return np.stack([self.terminal_matrix(int(t)) for t in self.terminal_ids])

    def terminal_values_batch(self, player: int, opp_reach: np.ndarray) -> np.ndarray:
        """``terminal_values`` for every terminal at once: rows follow ``terminal_ids``.

        ``opp_reach`` is ``[n_terminals, n_hands[opponent]]`` with chance factors applied. The
        default stacks the dense matrices; a game with big hand sets should override this.
        """
        stack = self._terminal_stack
        if player == 0:
            return np.matmul(stack, opp_reach[:, :, None])[:, :, 0]
        return -np.matmul(opp_reach[:, None, :], stack)[:, 0, :]


def spot_hand_combos(game: TreeGame) -> tuple[np.ndarray, np.ndarray]:
    """Each player's hands as combo ids (0..1325) in an nlhe spot, the one game that sets
    ``hand_combos``; ``TypeError`` for any other game."""
    combos = getattr(game, "hand_combos", None)
    if combos is None:
        raise TypeError(f"{game.name} hands are not the combos of a hold'em spot")
    return combos
