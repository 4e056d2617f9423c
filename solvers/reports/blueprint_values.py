"""What each preflop option of a blueprint is worth: a table built once per blueprint file.

The model: at a preflop decision node of the abstract tree, the player to act holds a hand of
class ``c``; the opponent's hand is drawn from its range at the node (every combo weighted by
its own blueprint probabilities of the line's actions, card removal applied); after each of
the node's actions both seats play the blueprint to the end of the hand, each by the rows of
its own bucket on every street. A deal (own combo uniform in the class, opponent combo, five
board cards) is valued exactly over every later action of both seats
(``blueprint_value_kernels.child_values``), so the only error is the sampling of cards. The
boards come from a fixed-seed pool (``flops`` random flops, each with ``runouts`` turn and river
cards), bucketed once, so the standard error is computed with the deals grouped by flop (a
cluster-robust error, which counts the pool's own luck). Below a node with no decision after the
flop (one facing an all-in) nothing needs a bucket, and each deal gets a board of its own.

An option's value is in chips from now on, folding = 0: the player's stack at the end of the
hand less its stack now (the live panel's convention, ``reports/hunl_live.py``).
Suits are symmetric preflop (the blueprint's preflop rows are by class), so every combo of a
class has the same value and the table is ``[node, class, action]``.

``build_values`` writes the table beside the blueprint (``hunl_100bb.values.npz``), one node at
a time into a checkpoint so that a killed build resumes; ``blueprint_preflop_values`` answers
for a real state and hole cards, for the live panel and any hand review.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solvers.abstraction.betting_tree import DECISION
from solvers.atomic import atomic_write
from solvers.cards import evaluator
from solvers.cards.deck import COMBO_CARDS, COMBO_CLASS, COMBO_INDEX, N_CLASSES, N_COMBOS
from solvers.errors import InputError
from solvers.file_reading import read_npz
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlState
from solvers.reports.blueprint_report import BlueprintView

FORMAT = "pokertui-blueprint-values"
VERSION = 1
DEFAULTS = {"flops": 192, "runouts": 8, "deals": 3000, "seed": 1}
"""Pool of 1,536 boards; 3,000 deals per class at the root, more at smaller subtrees."""
MORE_DEALS = 16
SUFFIX = ".values.npz"
MAX_TABLE_BYTES = 16 << 20
"""A values table is about 40 KB (``[node, class, action]`` floats): far smaller than this."""

Progress = Callable[[str], None] | None


def values_path(blueprint_path: str | os.PathLike[str]) -> Path:
    path = Path(blueprint_path)
    return path.with_name(path.name.removesuffix(".npz") + SUFFIX)


def strategy_digest(strategy: np.ndarray) -> str:
    """SHA-256 of the blueprint's rows: a table is used only with the rows it was built on."""
    return hashlib.sha256(np.ascontiguousarray(strategy).tobytes()).hexdigest()


@dataclass(frozen=True)
class ValuesTable:
    header: dict[str, Any]
    nodes: np.ndarray
    """The preflop decision nodes (tree ids)."""
    ev: np.ndarray
    """``[nodes, 169, max actions]`` chips from now on (NaN past a node's actions)."""
    se: np.ndarray
    """Standard errors of ``ev``."""

    def row(self, node: int) -> int | None:
        found = np.flatnonzero(self.nodes == node)
        return int(found[0]) if len(found) else None


# --- the board pool ------------------------------------------------------------------------------
@dataclass(frozen=True)
class BoardPool:
    cards: np.ndarray
    """``[boards, 5]``."""
    buckets: np.ndarray
    """``[boards, 3, 1326]`` each combo's flop, turn and river bucket (-1 blocked)."""
    strength: np.ndarray
    """``[boards, 1326]`` each combo's 7-card strength on the board."""
    runouts: int
    """Boards per flop (consecutive): board ``i`` is on flop ``i // runouts``."""


def board_pool(
    view: BlueprintView, flops: int, runouts: int, seed: int, progress: Progress = None
) -> BoardPool:
    rng = np.random.default_rng([seed, 7])
    cards = np.empty((flops * runouts, 5), dtype=np.int64)
    buckets = np.empty((flops * runouts, 3, N_COMBOS), dtype=np.int16)
    for f in range(flops):
        deck = rng.permutation(52)
        flop, rest = deck[:3], deck[3:]
        flop_buckets = view.cards.combo_buckets(flop, 1)
        pairs = rng.choice(len(rest) * (len(rest) - 1), size=runouts, replace=False)
        for r, pair in enumerate(pairs):
            turn, river = divmod(int(pair), len(rest) - 1)
            river += river >= turn  # two different cards of ``rest``
            board = np.array([*flop, rest[turn], rest[river]], dtype=np.int64)
            i = f * runouts + r
            cards[i] = board
            buckets[i, 0] = flop_buckets
            buckets[i, 1] = view.cards.combo_buckets(board, 2)
            buckets[i, 2] = view.cards.combo_buckets(board, 3)
        if progress and (f + 1) % 16 == 0:
            progress(f"bucketed {f + 1}/{flops} flops")
    hands = np.concatenate(
        [
            np.repeat(cards[:, None, :], N_COMBOS, axis=1),
            np.broadcast_to(COMBO_CARDS, (len(cards), N_COMBOS, 2)),
        ],
        axis=2,
    )
    blocked = (cards[:, None, :, None] == COMBO_CARDS[None, :, None, :]).any(axis=(2, 3))
    hands = np.where(blocked[:, :, None], np.arange(7), hands)  # any legal hand: never used
    strength = evaluator.evaluate(hands.reshape(-1, 7)).reshape(len(cards), N_COMBOS)
    return BoardPool(cards, buckets, strength.astype(np.int64), runouts)


# --- one node ------------------------------------------------------------------------------------
def subtree_ends(view: BlueprintView) -> np.ndarray:
    """Per node, one past its last descendant (the tree is numbered depth first)."""
    tree = view.tree
    end = np.arange(1, tree.n_nodes + 1, dtype=np.int64)
    for node in range(tree.n_nodes - 1, -1, -1):
        count = int(tree.n_actions[node])
        if count:
            start = int(tree.edge_start[node])
            end[node] = end[tree.edge_child[start : start + count]].max()
    return end


def kernel_inputs(view: BlueprintView, pool: BoardPool) -> tuple:
    """The arrays ``blueprint_value_kernels.child_values`` reads after its deal arguments: the
    class of each combo, the pool's buckets and strengths, the tree's arrays and the rows."""
    tree = view.tree
    return (
        COMBO_CLASS.astype(np.int64),
        pool.buckets,
        pool.strength,
        tree.kind.astype(np.int64),
        tree.player.astype(np.int64),
        tree.street.astype(np.int64),
        tree.amount.astype(np.float64),
        tree.edge_start.astype(np.int64),
        tree.n_actions.astype(np.int64),
        tree.edge_child.astype(np.int64),
        view.offsets.astype(np.int64),
        view.strategy,
    )


def node_values(
    view: BlueprintView,
    pool: BoardPool,
    node: int,
    deals: int,
    seed: int,
    ends: np.ndarray,
    classes: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``([169, actions], [169, actions])``: the value and standard error of each action at a
    preflop ``node`` for each class (``classes``: only those, the rest NaN)."""
    from solvers.reports import blueprint_value_kernels as kernels  # noqa: PLC0415 - numba

    tree = view.tree
    seat = int(tree.player[node])
    na = int(tree.n_actions[node])
    opp_reach = view.own_reach(node, 1 - seat)[COMBO_CLASS.astype(np.int64)]
    cumulative = np.cumsum(opp_reach)
    ev = np.full((N_CLASSES, na), np.nan)
    se = np.full((N_CLASSES, na), np.nan)
    if cumulative[-1] <= 0:
        return ev, se
    args = kernel_inputs(view, pool)
    sunk = float(tree.committed[node, seat])
    deals = deals_at(view, node, deals, ends)
    n_flops = len(pool.cards) // pool.runouts
    below = slice(node, int(ends[node]))
    fresh = not ((tree.kind[below] == DECISION) & (tree.street[below] > 0)).any()
    for c in range(N_CLASSES) if classes is None else classes:
        members = np.flatnonzero(COMBO_CLASS == c).astype(np.int64)
        dealt = kernels.sample_deals(
            np.random.default_rng([seed, node, c]),
            members,
            cumulative,
            COMBO_CARDS.astype(np.int64),
            pool.cards,
            deals,
        )
        if len(dealt) < deals:
            continue  # the opponent's range cannot face this class here
        rng = np.random.default_rng([seed, node, c, 1])
        strength = _fresh_showdowns(dealt, rng) if fresh else np.zeros((0, 2), dtype=np.int64)
        values = kernels.child_values(node, int(ends[node]), seat, dealt, strength, *args)
        values += sunk
        ev[c] = values.mean(axis=0)
        if fresh:  # independent deals
            se[c] = values.std(axis=0, ddof=1) / np.sqrt(len(values))
        else:
            se[c] = _cluster_error(values, dealt[:, 2] // pool.runouts, n_flops)
    return ev, se


def _fresh_showdowns(dealt: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``[deals, 2]`` the own and the opponent hand's strengths on a board of five cards drawn
    for each deal from the 48 the hands leave (no pool: nothing is bucketed)."""
    holes = np.concatenate([COMBO_CARDS[dealt[:, 0]], COMBO_CARDS[dealt[:, 1]]], axis=1)
    keys = rng.random((len(dealt), 52))
    np.put_along_axis(keys, holes.astype(np.int64), 2.0, axis=1)  # dead cards sort last
    boards = np.argsort(keys, axis=1)[:, :5]
    own = evaluator.evaluate(np.concatenate([boards, COMBO_CARDS[dealt[:, 0]]], axis=1))
    opp = evaluator.evaluate(np.concatenate([boards, COMBO_CARDS[dealt[:, 1]]], axis=1))
    return np.stack([own, opp], axis=1).astype(np.int64)


def deals_at(view: BlueprintView, node: int, deals: int, ends: np.ndarray) -> int:
    """Deals for ``node``: ``deals`` at the root, more below it in proportion to how much
    smaller its subtree is (at most ``MORE_DEALS`` times), so that every node costs about
    as much as the root and a node facing an all-in gets a small error."""
    scale = view.tree.n_nodes / float(ends[node] - node)
    return int(deals * min(max(scale, 1.0), MORE_DEALS))


def _cluster_error(values: np.ndarray, cluster: np.ndarray, n_clusters: int) -> np.ndarray:
    """Standard error of the mean of ``values`` (per column) with deals grouped by flop."""
    n = len(values)
    mean = values.mean(axis=0)
    sums = np.stack(
        [
            np.bincount(cluster, weights=values[:, a] - mean[a], minlength=n_clusters)
            for a in range(values.shape[1])
        ],
        axis=1,
    )
    groups = int((np.bincount(cluster, minlength=n_clusters) > 0).sum())
    factor = groups / max(groups - 1, 1)
    return np.sqrt(factor * (sums**2).sum(axis=0)) / n


# --- the table -----------------------------------------------------------------------------------
def build_values(
    view: BlueprintView,
    out: str | os.PathLike[str] | None = None,
    flops: int = DEFAULTS["flops"],
    runouts: int = DEFAULTS["runouts"],
    deals: int = DEFAULTS["deals"],
    seed: int = DEFAULTS["seed"],
    progress: Progress = None,
) -> Path:
    """Value every preflop node of ``view`` and write the table (``values_path`` by default).
    Each finished node goes into ``<out>.partial.npz``; a build with the same blueprint and
    numbers resumes from it."""
    out = Path(out) if out is not None else values_path(view.path)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "blueprint": view.path.name,
        "digest": strategy_digest(view.strategy),
        "flops": flops,
        "runouts": runouts,
        "deals": deals,
        "seed": seed,
    }
    nodes = np.array([i.node for i in view.preflop_nodes()], dtype=np.int64)
    width = int(view.tree.n_actions[nodes].max())
    ev = np.full((len(nodes), N_CLASSES, width), np.nan)
    se = np.full((len(nodes), N_CLASSES, width), np.nan)
    done = np.zeros(len(nodes), dtype=bool)
    partial = out.with_name(out.name + ".partial.npz")
    if partial.exists():
        kept = _read(partial)
        if {k: kept.header.get(k) for k in header} == header and np.array_equal(kept.nodes, nodes):
            ev, se = kept.ev.copy(), kept.se.copy()
            done = np.asarray(kept.header.get("done", [False] * len(nodes)), dtype=bool)
            if progress:
                progress(f"resuming: {int(done.sum())}/{len(nodes)} nodes done")
    pool = board_pool(view, flops, runouts, seed, progress)
    ends = subtree_ends(view)
    written = {**header, "node_deals": [deals_at(view, int(n), deals, ends) for n in nodes]}
    for row, node in enumerate(nodes):
        if done[row]:
            continue
        na = int(view.tree.n_actions[node])
        ev[row, :, :na], se[row, :, :na] = node_values(view, pool, int(node), deals, seed, ends)
        done[row] = True
        _write(partial, {**written, "done": done.tolist()}, nodes, ev, se)
        if progress:
            progress(
                f"node {view.by_node[int(node)].key or 'root'!s}: {row + 1}/{len(nodes)} nodes"
            )
    _write(out, written, nodes, ev, se)
    partial.unlink(missing_ok=True)
    return out


def _write(path: Path, header: dict[str, Any], nodes, ev, se) -> None:
    text = json.dumps(header, sort_keys=True).encode()
    arrays = {
        "header": np.frombuffer(text, dtype=np.uint8),
        "nodes": nodes,
        "ev": ev.astype(np.float32),
        "se": se.astype(np.float32),
    }
    atomic_write(path, lambda handle: np.savez_compressed(handle, **arrays))


def _read(path: Path) -> ValuesTable:
    data = read_npz(path, "values table", MAX_TABLE_BYTES, 4 * MAX_TABLE_BYTES)
    try:
        header = json.loads(data["header"].tobytes().decode())
        table = ValuesTable(
            header,
            data["nodes"].astype(np.int64),
            data["ev"].astype(np.float64),
            data["se"].astype(np.float64),
        )
    except (ValueError, KeyError, UnicodeDecodeError, AttributeError) as exc:
        raise InputError(f"{path} is not a readable values table ({type(exc).__name__})") from None
    if header.get("format") != FORMAT or header.get("version") != VERSION:
        raise InputError(f"{path} is not a pokertui values table of version {VERSION}")
    if table.ev.shape != table.se.shape or table.ev.shape[:2] != (len(table.nodes), N_CLASSES):
        raise InputError(f"{path}: the table's arrays do not fit together")
    return table


def read_values(path: str | os.PathLike[str], strategy: np.ndarray | None = None) -> ValuesTable:
    """A values table; with ``strategy``, refused unless it was built on those rows."""
    table = _read(Path(path))
    if strategy is not None and table.header.get("digest") != strategy_digest(strategy):
        raise InputError(f"{path} was built on other blueprint rows; rebuild it")
    return table


_TABLES: dict[tuple[str, str], ValuesTable | None] = {}


def table_for(agent: Any) -> ValuesTable | None:
    """The values table beside the agent's blueprint file, or None (no file, another build)."""
    path = getattr(agent, "path", None)
    strategy = getattr(agent, "strategy", None)
    if path is None or strategy is None:
        return None
    where = values_path(path)
    key = (str(where), strategy_digest(strategy))
    if key not in _TABLES:
        try:
            _TABLES[key] = read_values(where, strategy) if where.exists() else None
        except InputError:
            _TABLES[key] = None
    return _TABLES[key]


# --- answers -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PreflopValues:
    actions: tuple[Action, ...]
    ev: np.ndarray
    """Chips from now on per action (folding = 0)."""
    se: np.ndarray
    note: str

    @property
    def known(self) -> dict[Action, float]:
        return {a: float(v) for a, v in zip(self.actions, self.ev, strict=True)}


def blueprint_preflop_values(
    agent: Any, state: HunlState, hole: tuple[int, int], table: ValuesTable | None = None
) -> PreflopValues | None:
    """The value of each of the blueprint's actions for ``hole`` at a preflop ``state``,
    against the blueprint's play for both seats thereafter (the model above), from the
    agent's table (``table_for``) unless one is given. None off the preflop, with no table,
    or where the state is not exactly a node of the blueprint's tree (a translated size)."""
    if state.street != 0 or state.is_over:
        return None
    later = ""
    base = getattr(agent, "base", None)
    if not hasattr(agent, "tree") and base is not None and 0 not in getattr(agent, "streets", ()):
        agent = base  # a re-solving bot plays its blueprint preflop
        later = "; this bot re-solves later streets, so its play there differs from these"
    table = table if table is not None else table_for(agent)
    if table is None:
        return None
    node = agent.locate(state)
    row = None if node is None else table.row(int(node))
    tree = agent.tree
    if row is None or tuple(tree.committed[node]) != tuple(state.committed):
        return None
    actions = tuple(_real(a) for a in tree.actions(int(node)))
    c = int(COMBO_CLASS[COMBO_INDEX[int(hole[0]), int(hole[1])]])
    ev, se = table.ev[row, c, : len(actions)], table.se[row, c, : len(actions)]
    if np.isnan(ev).any():
        return None
    h = table.header
    worst = float(se.max()) / state.config.big_blind
    deals = h.get("node_deals", [h["deals"]] * len(table.nodes))[row]
    note = (
        f"the blueprint for both seats from here: Monte Carlo over {deals:,} deals "
        f"for your hand class on {h['flops'] * h['runouts']:,} sampled boards, every later "
        f"action weighed exactly; standard error up to {worst:.2f} bb{later}"
    )
    return PreflopValues(actions, ev.copy(), se.copy(), note)


def _real(action: Action) -> Action:
    if action.kind == RAISE:
        return action
    return Action(FOLD) if action.kind == FOLD else Action(CALL)
