"""A profile's numbers at single decision nodes, read from the compiled walk: what a play
session's live panel and the strategy explorer show at a node (Bayes ranges, action values),
without the numpy walk's ``[rows, 2, hands]`` arrays, which a flop cannot afford.

- **Reach** at a node is the product of its path's action probabilities and chance masks
  (``path_reach``): the dozen decisions above the node, not the tree.
- **Values** need the whole subtree, so one pass of the compiled walk fills its value buffer
  (``CompiledWalk.values_up``), and of it only the rows a node report reads are kept: the
  walked children of the player's own decisions (``DecisionValues``). The walk's buffers are
  then released. A child under a suit twin that the isomorphic walk leaves out reads its
  image's row with every hand's suits swapped (exact for the suit-symmetric profiles the walk
  requires); a terminal child is valued when asked, from the opponent's reach at the node, by
  the game's terminal loops (the ones the walk values terminals with).

The numpy walk stays the reference: ``tests/test_decision_values.py`` checks every number here
against ``evaluation.walk`` and ``action_values_from_walk`` at every decision of small spots.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from solvers.exact.compiled_plan import CompiledPlan, image_node
from solvers.exact.compiled_walk import (
    MODE_RESPOND,
    MODE_VALUES,
    CompiledWalk,
    Source,
    compiled_walk,
)
from solvers.exact.executor import evaluation_dtype, uses_compiled
from solvers.exact.hand_values import pair_values_of_columns
from solvers.exact.walk import build_plan, csr_gather
from solvers.games.base import Node, TreeGame

Change = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""An in-place change of one player's per-edge probabilities given their decisions' first
edges and widths (``strategy_file.transforms.purify_per_edge``)."""

_PASSES = threading.Lock()
"""One pass at a time: walks are shared through ``game.derived`` and a UI worker and the
session may ask at once."""


@dataclass
class DecisionValues:
    """One player's counterfactual values (``evaluation.Walk.values``) at the walked children
    of their decisions, from one value pass, and at the root."""

    profile: CompiledProfile
    player: int
    root: np.ndarray
    """``[n_hands[player]]`` the root's values (their sum is the player's EV, or the best
    response's value)."""
    position: np.ndarray
    """Per plan row, its index in ``kept``, or -1."""
    kept: np.ndarray
    """``[kept rows, n_hands[player]]`` in the walk's storage dtype."""

    def children(self, node: Node, opp_reach: np.ndarray) -> np.ndarray:
        """``[n_actions, n_hands[player]]`` values of the player's decision ``node``'s
        children; ``opp_reach`` is the opponent's own reach at ``node`` (for its terminals)."""
        profile = self.profile
        game, plan = profile.game, profile.walk.plan
        rows = build_plan(game).row_of_node[np.asarray(node.children)]
        out = np.empty((len(rows), game.n_hands[self.player]))
        terminal = plan.terminal_index[rows]
        ends = np.flatnonzero(terminal >= 0)
        if len(ends):
            chance = game.path_chance[np.asarray(node.children)[ends]]
            reach = opp_reach[None, :] * chance[:, None]
            out[ends] = game.terminal_values_of(self.player, terminal[ends], reach)  # type: ignore[attr-defined]
        for j in np.flatnonzero(terminal < 0):
            out[j] = self._row(profile, plan, int(rows[j]), node.children[j])
        return out

    def _row(self, profile: CompiledProfile, plan: CompiledPlan, row: int, node_id: int):
        at = self.position[row]
        if at >= 0:
            return self.kept[at]
        image = image_node(profile.game, profile.swap, node_id)
        at = self.position[build_plan(profile.game).row_of_node[image]]
        if at < 0:
            raise AssertionError(f"node {node_id}: its suit twin {image} is not walked either")
        return self.kept[at][plan.hand_swap[self.player]]


@dataclass
class CompiledProfile:
    """A profile given both ways: node by node (``strategy``, read along paths) and per edge
    in the compiled walk's layout (``sources``, made on the first value pass), with the value
    passes made so far."""

    game: TreeGame
    strategy: Mapping[int, np.ndarray]
    walk: CompiledWalk
    make_sources: Callable[[], list[Source]]
    _sources: list[Source] | None = None
    _values: dict[tuple[int, bool], DecisionValues] = field(default_factory=dict)

    @property
    def swap(self):
        return self.game.suit_swap() if self.walk.isomorphic else None

    @property
    def sources(self) -> list[Source]:
        if self._sources is None:
            self._sources = self.make_sources()
        return self._sources

    def reach_at(self, node_id: int, player: int) -> np.ndarray:
        """``player``'s own reach at the node (action probabilities times chance masks)."""
        return path_reach(self.game, self.strategy, node_id, player)

    def values(self, player: int, respond: bool = False) -> DecisionValues:
        """``player``'s values following the profile, or best-responding to the opponent's
        part of it (``respond``): one reach and one value pass, made once."""
        self.prepare([(player, respond)])
        return self._values[(player, respond)]

    def prepare(self, wanted: Sequence[tuple[int, bool]]) -> None:
        """The value passes ``(player, respond)`` not made yet, after one reach pass."""
        if all(key in self._values for key in wanted):
            return
        with _PASSES:
            missing = [key for key in dict.fromkeys(wanted) if key not in self._values]
            if not missing:
                return
            try:
                self.walk.reach_down(self.sources, tuple(1 - player for player, _ in missing))
                for player, respond in missing:
                    self._values[(player, respond)] = self._pass(player, respond)
            finally:
                self.walk.release()

    def _pass(self, player: int, respond: bool) -> DecisionValues:
        walk, plan = self.walk, self.walk.plan
        mode = MODE_RESPOND if respond else MODE_VALUES
        root = walk.values_up(player, self.sources, mode).astype(np.float64)
        children = _children_of(plan, np.flatnonzero(plan.kind == player))
        children = children[plan.inner_index[children] >= 0]
        position = np.full(len(plan.kind), -1, dtype=np.int64)
        position[children] = np.arange(len(children))
        kept = walk.player_values(player)[plan.inner_index[children]]  # a copy
        return DecisionValues(self, player, root, position, kept)

    def game_value(self) -> float:
        """Player 0's expected payoff under the profile."""
        return float(self.values(0).root.sum())

    def pair_values(self, hands: tuple[int, int]) -> np.ndarray:
        """``hand_values.pair_values`` of a dealt pair (``[n_nodes]``, seat 0's payoff from
        every node), from each seat's column of the per-edge profile."""
        plan, edges = self.walk.plan, build_plan(self.game).edges
        columns = []
        for p, hand in enumerate(hands):
            weights = self.sources[p].weights
            source, swapped = plan.expand[p]
            own, twin = weights[:, hand], weights[:, plan.hand_swap[p][hand]]  # two columns
            column = np.where(swapped, twin[source], own[source]).astype(np.float64)
            totals = np.add.reduceat(column, edges[p].first_edge)  # normalised as the walk does
            totals = np.where(totals > 0, totals, 1.0)
            columns.append(column / np.repeat(totals, edges[p].n_actions))
        return pair_values_of_columns(self.game, (columns[0], columns[1]), hands)


def path_reach(game: TreeGame, strategy: Mapping[int, np.ndarray], node, player: int) -> np.ndarray:
    """``player``'s own reach at ``node`` (``[n_hands[player]]``): the product of their action
    probabilities and chance masks along the path from the root. Reads only the decisions on the
    path, so a report on one node of a flop tree touches a dozen nodes, not the tree."""
    target = game.node(node)
    reach = np.ones(game.n_hands[player])
    child = target
    while child.parent >= 0:
        parent = game.nodes[child.parent]
        index = parent.children.index(child.id)
        if parent.is_decision and parent.player == player:
            reach = reach * np.asarray(strategy[parent.id])[:, index]
        elif parent.is_chance:
            assert parent.outcome_masks is not None
            reach = reach * parent.outcome_masks[player][index]
        child = parent
    return reach


def _children_of(plan: CompiledPlan, rows: np.ndarray) -> np.ndarray:
    """Every child row of ``rows`` (vectorised over the CSR child lists)."""
    return csr_gather(plan.child_start, plan.child_rows, rows)


def compiled_profile(
    game: TreeGame,
    strategies: Sequence[Mapping[int, np.ndarray]],
    node_view: Mapping[int, np.ndarray],
    changes: Sequence[Change | None] = (None, None),
) -> CompiledProfile | None:
    """The profile playing ``strategies[p]`` in seat ``p`` (each ``changes[p]``d if given) on
    the compiled walk, or None when the numpy walk serves ``game``. ``node_view`` is the same
    profile node by node (changes applied). A strategy that gives ``compact_per_edge`` (a binary
    file's, suit-symmetric by construction) is walked with suit isomorphism; any other is read
    node by node into the full tree's layout."""
    if not uses_compiled(game):
        return None
    symmetric = all(callable(getattr(s, "compact_per_edge", None)) for s in strategies)
    walk = compiled_walk(game, evaluation_dtype(game), isomorphic=symmetric)

    def make_sources() -> list[Source]:
        plan = build_plan(game)
        sources = []
        for p in (0, 1):
            strategy = strategies[p]
            if symmetric:
                per_edge = strategy.compact_per_edge(p)  # type: ignore[attr-defined]
            else:
                per_edge = plan.per_edge(p, strategy)
            change = changes[p]
            if change is not None:
                per_edge = change(walk.plan.slot_first[p], walk.plan.slot_actions[p], per_edge)
            sources.append(Source(per_edge))
        return sources

    return CompiledProfile(game, node_view, walk, make_sources)
