"""The plan of the compiled walk (``compiled_walk.py``): a ``TreePlan`` as per-row index arrays.

Rows, levels and the per-edge layout are ``walk.py``'s. What is added: per row its children, its
decision slot and first edge, its chance mask; which non-terminal rows are walked (*inner* rows,
the rows of the ``[inner rows, hands]`` reach and value arrays) when suit twins are left out
(``games/holdem/symmetry.py``), and how the walked edges spread back over every edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import card_str
from solvers.exact.kernel_inputs import Schedule
from solvers.exact.walk import TreePlan, build_plan, node_arrays
from solvers.games.base import TreeGame
from solvers.games.chance_subtrees import subtree_heads
from solvers.games.holdem.symmetry import walked_nodes

_KIND_CHANCE = 2
_KIND_TERMINAL = 3


@dataclass(frozen=True)
class CompiledPlan:
    """Per-row index arrays of a ``TreePlan`` for the compiled loops."""

    parent: np.ndarray
    kind: np.ndarray
    """0 or 1: that player's decision; 2 chance; 3 terminal."""
    child_start: np.ndarray
    child_rows: np.ndarray
    """Children of row ``r`` are ``child_rows[child_start[r]:child_start[r + 1]]``, in action
    order."""
    first_edge: np.ndarray
    """For a decision row: the per-edge index of its first action in its player's arrays."""
    chance_mask: np.ndarray
    """For a chance outcome row: its index in ``masks``, else -1."""
    masks: np.ndarray
    """``[n_masks, 2, max_hands]`` distinct chance masks: uint8 when every entry is 0 or 1 (card
    removal, as in hold'em spots: a flop's 2,401 masks take 5.6 MB, not 43), else float64."""
    inner_index: np.ndarray
    """Index of a walked non-terminal (*inner*) row in the ``[inner rows, hands]`` arrays, else
    -1."""
    terminal_index: np.ndarray
    """Index of a terminal row in ``game.terminal_ids`` order, else -1."""
    terminal_chance: np.ndarray
    level_rows: np.ndarray
    """``[n_levels, 2]``: the inner rows of each depth, ``[start, stop)``."""
    n_inner: int
    n_hands: tuple[int, int]
    decision_slot: np.ndarray
    """Decision slot (``plan.edges[p]`` order) of a decision row, else -1."""
    has_terminal_child: np.ndarray
    """Whether a row has a terminal child (then its strategy is needed for their reach)."""
    has_inner_child: np.ndarray
    """Whether a row has an inner child (then reach goes down through it)."""
    doubled: np.ndarray
    """A chance outcome whose suit-swapped twin is left out: it counts twice, once with every
    hand swapped (``hand_swap``). Rows under a left-out twin have ``inner_index`` -1."""
    hand_swap: tuple[np.ndarray, np.ndarray]
    n_edges: tuple[int, int]
    """Per player, the edges the compiled arrays hold (all of them unless isomorphic)."""
    expand: tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
    """Per player and full edge (``plan.edges`` order): its compact edge, and whether the hands
    are swapped there (an edge under a left-out twin)."""
    isomorphic: bool
    slot_first: tuple[np.ndarray, np.ndarray]
    """Per player, each walked decision's first edge and number of actions, compact order."""
    slot_actions: tuple[np.ndarray, np.ndarray]
    schedule: Schedule
    """The depth-first schedule of the lean passes (rows above the cut, subtrees below)."""

    @property
    def n_top(self) -> int:
        """Rows of the lean passes' reach and value arrays: the rows above the cut and the
        subtrees' heads."""
        return int((self.schedule.top_index >= 0).sum())

    @property
    def max_subtree(self) -> int:
        """Rows of the largest subtree (each thread's scratch of the lean passes)."""
        return int(np.diff(self.schedule.sub_start).max(initial=0))

    def full_edges(self, player: int, compact: np.ndarray) -> np.ndarray:
        """A compact per-edge array laid out over every edge of the tree (twins filled in)."""
        if not self.isomorphic:
            return compact
        source, swapped = self.expand[player]
        full = compact[source]
        rows = np.flatnonzero(swapped)
        full[rows] = full[rows][:, self.hand_swap[player]]
        return full


def _chance_masks(nodes, row_of_node, chance_mask, n_hands, max_hands) -> np.ndarray:
    """The distinct outcome masks of the chance nodes (``CompiledPlan.masks``), each outcome
    row's index into them written to ``chance_mask``."""
    sources: list[tuple[np.ndarray, np.ndarray]] = []
    seen: dict[tuple[int, int], int] = {}
    for node in nodes:
        if not node.is_chance:
            continue
        assert node.outcome_masks is not None
        for o, child in enumerate(node.children):
            key = (id(node.outcome_masks[0]), o)
            index = seen.get(key)
            if index is None:
                index = seen[key] = len(sources)
                sources.append((node.outcome_masks[0][o], node.outcome_masks[1][o]))
            chance_mask[row_of_node[child]] = index
    binary = all(((m == 0) | (m == 1)).all() for pair in sources for m in pair)
    masks = np.zeros((max(len(sources), 1), 2, max_hands), np.uint8 if binary else np.float64)
    for index, pair in enumerate(sources):
        for p in (0, 1):
            masks[index, p, : n_hands[p]] = pair[p]
    return masks


def compiled_plan(game: TreeGame, isomorphic: bool = False) -> CompiledPlan:
    """The compiled plan of ``game`` (kept in ``game.derived``); with ``isomorphic``, and when the
    game has a suit swap (``suit_swap()``), twin chance outcomes are left out (see module
    docstring)."""
    swap = game.suit_swap() if isomorphic and hasattr(game, "suit_swap") else None
    return game.derived.get(
        "compiled_plan", swap is not None, lambda: _build(game, build_plan(game), swap)
    )


def image_node(game: TreeGame, swap, node_id: int) -> int:
    """The node whose key is ``node_id``'s with every dealt card's suits swapped."""
    index = game.derived.get("node_of_key", None, lambda: {n.key: n.id for n in game.nodes})
    cards = game.derived.get("swapped_cards", None, lambda: _swapped_cards(swap))
    return index["/".join(cards.get(t, t) for t in game.nodes[node_id].key.split("/"))]


def _swapped_cards(swap) -> dict[str, str]:
    """Each card's key token and its image's (a key's other tokens are actions)."""
    return {card_str(c): card_str(int(swap.card[c])) for c in range(len(swap.card))}


def _build(game: TreeGame, plan: TreePlan, swap=None) -> CompiledPlan:
    nodes = game.nodes
    n_rows = plan.n_rows
    node_of_row = plan.node_of_row
    row_of_node = plan.row_of_node
    arrays = node_arrays(game)
    parent_node = arrays.parent.astype(np.int64)
    kind_node = np.where(
        arrays.kind == 0, arrays.player, np.where(arrays.kind == 1, _KIND_CHANCE, _KIND_TERMINAL)
    ).astype(np.int8)
    parent = np.full(n_rows, -1, dtype=np.int64)
    has_parent = parent_node[node_of_row] >= 0
    parent[has_parent] = row_of_node[parent_node[node_of_row][has_parent]]
    kind = kind_node[node_of_row]
    counts = arrays.child_start[node_of_row + 1] - arrays.child_start[node_of_row]
    counts = counts.astype(np.int64)
    child_start = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(counts, out=child_start[1:])
    child_rows = row_of_node[arrays.children(node_of_row)].astype(np.int64)
    if swap is None:
        live = np.ones(n_rows, dtype=np.bool_)
        doubled = np.zeros(n_rows, dtype=np.bool_)
        hand_swap = (np.arange(plan.n_hands[0]), np.arange(plan.n_hands[1]))
    else:
        walked, twice = walked_nodes(game.nodes, swap)
        live, doubled = walked[node_of_row], twice[node_of_row]
        hand_swap = swap.hands
    first_edge = np.full(n_rows, -1, dtype=np.int64)
    decision_slot = np.full(n_rows, -1, dtype=np.int64)
    n_edges = []
    expand = []
    slot_first: list[np.ndarray] = []
    slot_actions: list[np.ndarray] = []
    for edges in plan.edges:
        decision_rows = edges.parent_rows[edges.first_edge]
        kept = live[decision_rows]
        counts = edges.n_actions[kept]
        firsts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        n_edges.append(int(counts.sum()))
        slot_first.append(firsts)
        slot_actions.append(counts.astype(np.int64))
        first_edge[decision_rows[kept]] = firsts
        decision_slot[decision_rows[kept]] = np.arange(int(kept.sum()))
        # every full edge's compact source edge, and whether its hands are swapped
        source_first = np.zeros(len(decision_rows), dtype=np.int64)
        source_first[kept] = firsts
        swapped = ~kept
        for slot in np.flatnonzero(swapped):
            image = image_node(game, swap, edges.decision_nodes[slot])
            source_first[slot] = first_edge[row_of_node[image]]
        offsets = np.arange(edges.n_edges) - np.repeat(edges.first_edge, edges.n_actions)
        source = np.repeat(source_first, edges.n_actions) + offsets
        expand.append((source, np.repeat(swapped, edges.n_actions)))
    chance_mask = np.full(n_rows, -1, dtype=np.int64)
    chance_masks = _chance_masks(nodes, row_of_node, chance_mask, plan.n_hands, plan.max_hands)
    inner = (kind != _KIND_TERMINAL) & live
    has_terminal_child = np.zeros(n_rows, dtype=np.bool_)
    terminal_parents = parent[(kind == _KIND_TERMINAL) & live]
    has_terminal_child[terminal_parents[terminal_parents >= 0]] = True
    has_inner_child = np.zeros(n_rows, dtype=np.bool_)
    inner_parents = parent[inner]
    has_inner_child[inner_parents[inner_parents >= 0]] = True
    inner_index = np.full(n_rows, -1, dtype=np.int64)
    inner_index[inner] = np.arange(int(inner.sum()))
    terminal_index = np.full(n_rows, -1, dtype=np.int64)
    terminal_index[plan.terminal_rows] = np.arange(len(plan.terminal_rows))
    starts = [0] + [level.start for level in plan.levels]
    stops = [1] + [level.stop for level in plan.levels]
    level_rows = np.array(
        [
            (a, a + int((kind[a:b] != _KIND_TERMINAL).sum()))
            for a, b in zip(starts, stops, strict=True)
        ],
        dtype=np.int64,
    )
    return CompiledPlan(
        schedule=_schedule(parent, kind, inner, level_rows),
        parent=parent,
        kind=kind,
        child_start=child_start,
        child_rows=child_rows,
        first_edge=first_edge,
        chance_mask=chance_mask,
        masks=chance_masks,
        inner_index=inner_index,
        terminal_index=terminal_index,
        terminal_chance=plan.terminal_chance[:, 0].astype(np.float64),
        level_rows=level_rows,
        n_inner=int(inner.sum()),
        n_hands=plan.n_hands,
        decision_slot=decision_slot,
        has_terminal_child=has_terminal_child,
        has_inner_child=has_inner_child,
        doubled=doubled,
        hand_swap=(hand_swap[0].astype(np.int64), hand_swap[1].astype(np.int64)),
        n_edges=(n_edges[0], n_edges[1]),
        expand=(expand[0], expand[1]),
        isomorphic=swap is not None,
        slot_first=(slot_first[0], slot_first[1]),
        slot_actions=(slot_actions[0], slot_actions[1]),
    )


def _schedule(parent, kind, inner, level_rows) -> Schedule:
    """The cut of the inner rows (rows in level order, so parents come first)."""
    rows = np.arange(len(parent))
    head = subtree_heads(parent, kind == _KIND_CHANCE)
    above = inner & (head < 0)
    kept = inner & (head >= 0)
    top_index = np.full(len(parent), -1, dtype=np.int64)
    on_top = above | (kept & (head == rows))
    top_index[on_top] = np.arange(int(on_top.sum()))
    top_rows = rows[above]
    top_levels = np.stack(
        [np.searchsorted(top_rows, level_rows[:, 0]), np.searchsorted(top_rows, level_rows[:, 1])],
        axis=1,
    ).astype(np.int64)
    below = rows[kept]
    sub_rows = below[np.lexsort((below, head[below]))]  # by subtree, its head first
    _, counts = np.unique(head[sub_rows], return_counts=True)
    sub_start = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=sub_start[1:])
    local_index = np.full(len(parent), -1, dtype=np.int64)
    local_index[sub_rows] = np.arange(len(sub_rows)) - np.repeat(sub_start[:-1], counts)
    return Schedule(
        top_index=top_index,
        top_rows=top_rows,
        top_levels=top_levels,
        local_index=local_index,
        sub_rows=sub_rows.astype(np.int64),
        sub_start=sub_start,
    )
