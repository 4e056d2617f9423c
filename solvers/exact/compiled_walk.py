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
  count neither way. This is the sweep ``showdown.py`` does with a gather, a cumsum and a sparse
  sum; as a loop it needs no temporaries.
- **Strategies** are formed where a decision is reached, from per-edge weights (``Source``):
  regret matching of regrets, or normalised strategy sums or probabilities. No per-edge strategy
  array is kept.
- **Modes**: the profile's counterfactual values; a best response (per-hand max at the
  responder's decisions, the argmax recorded per decision and hand); or one CFR-family update of
  the walking player (instantaneous regrets, floors, discounts, predictions, strategy sums
  weighted by own reach), fused into the pass.
- **Suit isomorphism** (``compiled_plan(game, isomorphic=True)``): of two chance cards that a
  suit swap exchanges on a board it fixes (``games/holdem/symmetry.py``), only the lower is
  walked; its contribution counts twice, once with every hand's suits swapped. Rows under the
  other have no storage, and per-edge arrays cover the walked edges only (``full_edges``
  spreads them back). Exact when the strategies are suit-symmetric, as a solver's iterates are.

The numpy walk stays the reference: ``tests/test_compiled_walk.py`` checks values, best
responses and whole solver runs against it. Accumulations run in float64 whatever the storage
dtype. Kernels are compiled on first use and cached beside this file (numba's ``cache=True``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import RANKS, SUITS, card_str, parse_card
from solvers.exact.walk import TreePlan, build_plan
from solvers.games.base import TreeGame
from solvers.games.combo_terminals import ComboTerminals  # noqa: F401 - the tables' type
from solvers.games.holdem.symmetry import walked_nodes

MODE_VALUES = 0
MODE_RESPOND = 1
MODE_CFR = 2
_KIND_CHANCE = 2
_KIND_TERMINAL = 3


@dataclass(frozen=True)
class CompiledPlan:
    """Per-row index arrays of a ``TreePlan`` for the compiled loops."""

    parent: np.ndarray
    kind: np.ndarray
    """0 or 1: that player's decision; 2 chance; 3 terminal."""
    child_ptr: np.ndarray
    child_rows: np.ndarray
    """Children of row ``r`` are ``child_rows[child_ptr[r]:child_ptr[r + 1]]``, in action order."""
    first_edge: np.ndarray
    """For a decision row: the per-edge index of its first action in its player's arrays."""
    mask: np.ndarray
    """For a chance outcome row: its index in ``masks``, else -1."""
    masks: np.ndarray
    """``[n_masks, 2, max_hands]`` distinct chance masks (float64)."""
    nt: np.ndarray
    """Index of a non-terminal row in the ``[non-terminal rows, hands]`` arrays, else -1."""
    term: np.ndarray
    """Index of a terminal row in ``game.terminal_ids`` order, else -1."""
    term_chance: np.ndarray
    level_rows: np.ndarray
    """``[n_levels, 2]``: the non-terminal rows of each depth, ``[start, stop)``."""
    n_nt: int
    n_hands: tuple[int, int]
    slot_of_row: np.ndarray
    """Decision slot (``plan.edges[p]`` order) of a decision row, else -1."""
    has_terminal: np.ndarray
    """Whether a row has a terminal child (then its strategy is needed for their reach)."""
    has_nonterminal: np.ndarray
    """Whether a row has a non-terminal child (then reach goes down through it)."""
    doubled: np.ndarray
    """A chance outcome whose suit-swapped twin is left out: it counts twice, once with every
    hand swapped (``hand_swap``). Rows under a left-out twin have ``nt`` -1."""
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

    def full_edges(self, player: int, compact: np.ndarray) -> np.ndarray:
        """A compact per-edge array laid out over every edge of the tree (twins filled in)."""
        if not self.isomorphic:
            return compact
        source, swapped = self.expand[player]
        full = compact[source]
        rows = np.flatnonzero(swapped)
        full[rows] = full[rows][:, self.hand_swap[player]]
        return full


def compiled_plan(game: TreeGame, isomorphic: bool = False) -> CompiledPlan:
    """The compiled plan of ``game`` (cached on the game); with ``isomorphic``, and when the
    game has a suit swap (``suit_swap()``), twin chance outcomes are left out (see module
    docstring)."""
    swap = game.suit_swap() if isomorphic and hasattr(game, "suit_swap") else None
    key = "_compiled_plan_iso" if swap is not None else "_compiled_plan"
    cached = game.__dict__.get(key)
    if cached is not None:
        return cached
    plan = build_plan(game)
    done = _build(game, plan, swap)
    game.__dict__[key] = done
    return done


def _image_node(game: TreeGame, swap, node_id: int) -> int:
    """The node whose key is ``node_id``'s with every dealt card's suits swapped."""
    index = game.__dict__.get("_key_index")
    if index is None:
        index = game.__dict__["_key_index"] = {n.key: n.id for n in game.nodes}
    tokens = game.nodes[node_id].key.split("/")
    mapped = [card_str(int(swap.card[parse_card(t)])) if _is_card(t) else t for t in tokens]
    return index["/".join(mapped)]


def _is_card(token: str) -> bool:
    return len(token) == 2 and token[0] in RANKS and token[1] in SUITS


def _build(game: TreeGame, plan: TreePlan, swap=None) -> CompiledPlan:
    nodes = game.nodes
    n_rows = plan.n_rows
    node_of_row = plan.node_of_row
    row_of_node = plan.row_of_node
    parent_node = np.array([n.parent for n in nodes], dtype=np.int64)
    kind_node = np.array(
        [
            n.player if n.is_decision else (_KIND_CHANCE if n.is_chance else _KIND_TERMINAL)
            for n in nodes
        ],
        dtype=np.int8,
    )
    parent = np.full(n_rows, -1, dtype=np.int64)
    has_parent = parent_node[node_of_row] >= 0
    parent[has_parent] = row_of_node[parent_node[node_of_row][has_parent]]
    kind = kind_node[node_of_row]
    counts = np.array([len(nodes[n].children) for n in node_of_row], dtype=np.int64)
    child_ptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(counts, out=child_ptr[1:])
    child_nodes = [c for n in node_of_row for c in nodes[n].children]
    child_rows = (
        row_of_node[np.array(child_nodes, dtype=np.int64)]
        if child_nodes
        else np.zeros(0, dtype=np.int64)
    )
    if swap is None:
        live = np.ones(n_rows, dtype=np.bool_)
        doubled = np.zeros(n_rows, dtype=np.bool_)
        hand_swap = (np.arange(plan.n_hands[0]), np.arange(plan.n_hands[1]))
    else:
        walked, twice = walked_nodes(game.nodes, swap)
        live, doubled = walked[node_of_row], twice[node_of_row]
        hand_swap = swap.hands
    first_edge = np.full(n_rows, -1, dtype=np.int64)
    slot_of_row = np.full(n_rows, -1, dtype=np.int64)
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
        slot_of_row[decision_rows[kept]] = np.arange(int(kept.sum()))
        # every full edge's compact source edge, and whether its hands are swapped
        source_first = np.zeros(len(decision_rows), dtype=np.int64)
        source_first[kept] = firsts
        swapped = ~kept
        for slot in np.flatnonzero(swapped):
            image = _image_node(game, swap, edges.decision_nodes[slot])
            source_first[slot] = first_edge[row_of_node[image]]
        offsets = np.arange(edges.n_edges) - np.repeat(edges.first_edge, edges.n_actions)
        source = np.repeat(source_first, edges.n_actions) + offsets
        expand.append((source, np.repeat(swapped, edges.n_actions)))
    mask = np.full(n_rows, -1, dtype=np.int64)
    tables: list[np.ndarray] = []
    seen: dict[tuple[int, int], int] = {}
    for node in nodes:
        if not node.is_chance:
            continue
        assert node.outcome_masks is not None
        for o, child in enumerate(node.children):
            key = (id(node.outcome_masks[0]), o)
            index = seen.get(key)
            if index is None:
                index = seen[key] = len(tables)
                table = np.zeros((2, plan.max_hands))
                for p in (0, 1):
                    table[p, : plan.n_hands[p]] = node.outcome_masks[p][o]
                tables.append(table)
            mask[row_of_node[child]] = index
    masks = np.stack(tables) if tables else np.zeros((1, 2, plan.max_hands))
    nonterminal = (kind != _KIND_TERMINAL) & live
    has_terminal = np.zeros(n_rows, dtype=np.bool_)
    terminal_parents = parent[(kind == _KIND_TERMINAL) & live]
    has_terminal[terminal_parents[terminal_parents >= 0]] = True
    has_nonterminal = np.zeros(n_rows, dtype=np.bool_)
    inner_parents = parent[nonterminal]
    has_nonterminal[inner_parents[inner_parents >= 0]] = True
    nt = np.full(n_rows, -1, dtype=np.int64)
    nt[nonterminal] = np.arange(int(nonterminal.sum()))
    term = np.full(n_rows, -1, dtype=np.int64)
    term[plan.terminal_rows] = np.arange(len(plan.terminal_rows))
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
        parent=parent,
        kind=kind,
        child_ptr=child_ptr,
        child_rows=child_rows,
        first_edge=first_edge,
        mask=mask,
        masks=masks,
        nt=nt,
        term=term,
        term_chance=plan.terminal_chance[:, 0].astype(np.float64),
        level_rows=level_rows,
        n_nt=int(nonterminal.sum()),
        n_hands=plan.n_hands,
        slot_of_row=slot_of_row,
        has_terminal=has_terminal,
        has_nonterminal=has_nonterminal,
        doubled=doubled,
        hand_swap=(hand_swap[0].astype(np.int64), hand_swap[1].astype(np.int64)),
        n_edges=(n_edges[0], n_edges[1]),
        expand=(expand[0], expand[1]),
        isomorphic=swap is not None,
        slot_first=(slot_first[0], slot_first[1]),
        slot_actions=(slot_actions[0], slot_actions[1]),
    )


def supports(game: TreeGame) -> bool:
    """Whether ``game`` gives combo terminal tables (then the compiled walk applies)."""
    return callable(getattr(game, "combo_terminals", None)) and not game.simultaneous


PARALLEL_CELLS = 1 << 20
"""Trees from this many non-terminal node-hands on run their levels on every core."""
EXACT_CELLS = 1 << 25
"""Trees up to this many non-terminal node-hands are evaluated in float64 storage."""


def evaluation_dtype(game: TreeGame) -> np.dtype:
    """Storage of exact evaluation on the compiled walk: float64 (file headers and reports
    agree to 1e-12) unless the tree is over ``EXACT_CELLS`` node-hands, as a flop spot is; then
    float32 (relative error about 1e-6; every sum still accumulates in float64)."""
    plan = compiled_plan(game)
    cells = plan.n_nt * max(plan.n_hands)
    return np.dtype(np.float64 if cells <= EXACT_CELLS else np.float32)


# --- the walk ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """Where a player's behavioural strategy comes from: per-edge ``weights`` read by regret
    matching (``matching``: regrets, plus ``predictions`` for predictive CFR) or by plain
    normalisation (strategy sums, or probabilities). No per-edge strategy array is ever kept:
    the loops form each decision's strategy when they reach it."""

    weights: np.ndarray
    matching: bool = False
    predictions: np.ndarray | None = None


@dataclass
class CompiledWalk:
    """Reach and values of one game on the compiled loops, in one storage dtype."""

    game: TreeGame
    dtype: np.dtype
    isomorphic: bool = False

    def __post_init__(self) -> None:
        self._k = _kernels()
        self.cp = compiled_plan(self.game, self.isomorphic)
        # Each level is a parallel region that waits for every thread: on a small tree (a
        # river) the second core saves 30% when idle but costs 3-5x when another process holds
        # it, so small trees run on one thread.
        big = self.cp.n_nt * max(self.cp.n_hands) >= PARALLEL_CELLS
        self._threads = self._k.ALL_THREADS if big else 1
        self.tables = self.game.combo_terminals()  # type: ignore[attr-defined]
        dtype = self.dtype
        self.masks = self.cp.masks.astype(dtype)
        self.reach = [np.zeros((self.cp.n_nt, n), dtype=dtype) for n in self.cp.n_hands]
        self.values = np.zeros((self.cp.n_nt, max(self.cp.n_hands)), dtype=dtype)
        self._none = np.zeros((0, 0), dtype=dtype)
        self._no_best = np.zeros((0, 0), dtype=np.int8)

    def warm_up(self, sources: list[Source]) -> None:
        """Load the compiled kernels (from numba's cache, or compile them) before timed work:
        one reach and one value pass of ``sources``."""
        self.reach_down(sources)
        self.values_up(0, sources)

    def release(self) -> None:
        """Free the reach and value buffers (a finished solve); the next pass allocates them
        again."""
        self.reach = [np.zeros((0, n), dtype=self.dtype) for n in self.cp.n_hands]
        self.values = np.zeros((0, max(self.cp.n_hands)), dtype=self.dtype)

    def _ensure_buffers(self) -> None:
        if len(self.values) != self.cp.n_nt:
            self.reach = [np.zeros((self.cp.n_nt, n), dtype=self.dtype) for n in self.cp.n_hands]
            self.values = np.zeros((self.cp.n_nt, max(self.cp.n_hands)), dtype=self.dtype)

    def _args(self, source: Source) -> tuple[np.ndarray, np.ndarray, bool]:
        weights = np.ascontiguousarray(source.weights, dtype=self.dtype)
        predictions = self._none if source.predictions is None else source.predictions
        return weights, predictions, source.matching

    def reach_down(self, sources: list[Source]) -> None:
        """Both players' own reach at every non-terminal row."""
        self._ensure_buffers()
        self._k.set_threads(self._threads)
        cp = self.cp
        for p in (0, 1):
            self.reach[p][0] = 1.0
        self._k.reach_down(
            cp.kind, cp.child_ptr, cp.child_rows, cp.first_edge, cp.mask, cp.nt, cp.level_rows,
            self.masks, *self._args(sources[0]), *self._args(sources[1]),
            self.reach[0], self.reach[1], cp.has_nonterminal,
        )  # fmt: skip

    def values_up(
        self,
        player: int,
        sources: list[Source],
        mode: int = MODE_VALUES,
        best: np.ndarray | None = None,
        update: tuple | None = None,
    ) -> np.ndarray:
        """Bottom-up values of ``player``; returns the root's ``[n_hands[player]]``.

        ``update`` (MODE_CFR) is ``(sums, weight, floor, positive, negative, discount)``; the
        regrets updated are ``sources[player].weights`` (and its predictions). ``best``
        (MODE_RESPOND, optional) is ``[decision slots, hands]`` int8 for the chosen action."""
        cp, t = self.cp, self.tables
        self._ensure_buffers()
        self._k.set_threads(self._threads)
        n_own = cp.n_hands[player]
        values = self.values[:, :n_own]
        if update is None:
            sums = self._none
            weight, floor, positive, negative, discount = 0.0, False, 1.0, 1.0, False
        else:
            sums, weight, floor, positive, negative, discount = update
        if player == 0:
            own = (t.cards0, t.same0, t.weights0, t.sorted_hands0, t.sorted_strength0,
                   t.sorted_cards0, t.n_live0)  # fmt: skip
            opp = (t.cards1, t.weights1, t.sorted_hands1, t.sorted_strength1, t.sorted_cards1,
                   t.n_live1)  # fmt: skip
        else:
            own = (t.cards1, t.same1, t.weights1, t.sorted_hands1, t.sorted_strength1,
                   t.sorted_cards1, t.n_live1)  # fmt: skip
            opp = (t.cards0, t.weights0, t.sorted_hands0, t.sorted_strength0, t.sorted_cards0,
                   t.n_live0)  # fmt: skip
        sign = 1.0 if player == 0 else -1.0
        self._k.values_up(
            player, mode, cp.kind, cp.child_ptr, cp.child_rows, cp.first_edge,
            cp.mask, cp.nt, cp.term, cp.level_rows, self.masks, cp.term_chance,
            *self._args(sources[player]), *self._args(sources[1 - player]),
            self.reach[player], self.reach[1 - player], values,
            t.is_fold, t.fold_pay0 * sign, t.job_ptr, t.job_board, t.job_scale, 1.0 / t.normaliser,
            *own, *opp,
            sums, float(weight), bool(floor), float(positive), float(negative), bool(discount),
            best if best is not None else self._no_best, cp.slot_of_row, cp.has_terminal,
            cp.doubled, cp.hand_swap[player],
        )  # fmt: skip
        return values[0]


def _kernels():
    from solvers.exact import compiled_kernels  # noqa: PLC0415 - numba loads only here

    return compiled_kernels


def strategies_from(cp: CompiledPlan, player: int, source: Source) -> np.ndarray:
    """The per-edge strategy ``[edges, hands]`` a ``Source`` stands for, in the compiled
    arrays' layout (``cp.full_edges`` spreads it over every edge)."""
    weights = np.ascontiguousarray(source.weights)
    predictions = (
        np.zeros((0, 0), dtype=weights.dtype) if source.predictions is None else source.predictions
    )
    out = np.empty_like(weights)
    _kernels().strategies(
        cp.slot_first[player], cp.slot_actions[player], weights, predictions, source.matching,
        out,
    )  # fmt: skip
    return out


def compiled_walk(game: TreeGame, dtype=np.float64, isomorphic: bool = False) -> CompiledWalk:
    """A ``CompiledWalk`` of ``game`` in ``dtype``, cached per dtype and isomorphism."""
    key = f"_compiled_walk_{np.dtype(dtype).str}_{isomorphic}"
    cached = game.__dict__.get(key)
    if cached is None:
        cached = game.__dict__[key] = CompiledWalk(game, np.dtype(dtype), isomorphic)
    return cached
