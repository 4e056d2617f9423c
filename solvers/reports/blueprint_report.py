"""Study views of a full-game blueprint: its header, its decision nodes by betting line, and at a
node each action's frequency by hand class (preflop) or by bucket on a chosen board (later).

Preflop the card abstraction is lossless, so bucket ``c`` of a preflop node is hand class ``c``
(``CLASS_LABELS`` order, ``COMBO_CLASS``): the 13x13 chart is the file's rows read directly.
Totals per action weight each class by its combos (pairs 6, suited 4, offsuit 12) times the
acting player's own reach of the line (the product of its earlier preflop probabilities), so
they are the frequencies of the range that arrives at the node; ``totals_all`` leaves the reach
out (every hand dealt, as if it had arrived).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solvers.abstraction.betting import parse_betting
from solvers.abstraction.betting_tree import (
    DECISION,
    EDGE_CALL,
    EDGE_FOLD,
    BettingTree,
    build_tree,
    root_state,
)
from solvers.abstraction.buckets import CardAbstraction, parse_abstraction
from solvers.cards.deck import (
    CLASS_LABELS,
    COMBO_CLASS,
    COMBO_LABELS,
    N_CLASSES,
    cards_str,
    parse_cards,
)
from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig
from solvers.strategy_file.blueprint_file import BlueprintFile, BlueprintFileError, read_blueprint

STREETS = ("preflop", "flop", "turn", "river")
BOARD_CARDS = (0, 3, 4, 5)
SEATS = ("SB", "BB")
"""Seat 0 posts the small blind (and is the button); seat 1 the big blind."""
CLASS_COMBOS = np.bincount(COMBO_CLASS.astype(np.int64), minlength=N_CLASSES).astype(np.float64)


def is_blueprint_file(path: str | Path) -> bool:
    """A zip (an ``.npz``) rather than a JSON or binary spot file; a special file (a FIFO, a
    device) is not opened here, so the usual loader refuses it instead of a read blocking."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as handle:
            return handle.read(4) == b"PK\x03\x04"
    except OSError:
        return False


@dataclass(frozen=True)
class NodeInfo:
    node: int
    key: str
    """The betting line, ACPC style (``r250r750``; streets joined by ``/``); the root is ``""``."""
    name: str
    """The line in words (``SB opens to 2.5 bb, BB 3-bets to 7.5 bb``)."""
    street: int
    player: int
    actions: tuple[str, ...]
    """The node's actions in words (fold, call, raise to 2.5 bb, all-in 100 bb)."""
    tokens: tuple[str, ...]
    """The node's actions as ACPC tokens (``f``, ``c``, ``r250``)."""


@dataclass
class BlueprintView:
    """A blueprint file opened for study: its header, tree, layout and rows."""

    path: Path
    header: dict[str, Any]
    strategy: np.ndarray
    tree: BettingTree
    cards: CardAbstraction
    config: HunlConfig
    offsets: np.ndarray
    nodes: list[NodeInfo] = field(default_factory=list)
    by_key: dict[str, NodeInfo] = field(default_factory=dict)
    by_node: dict[int, NodeInfo] = field(default_factory=dict)
    parent_edge: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    edge_parent: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    street_start: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def n_buckets(self) -> tuple[int, ...]:
        return self.cards.n_buckets

    def rows(self, node: int) -> np.ndarray:
        """``[buckets, actions]`` probabilities of a decision node (the file's 255ths / 255)."""
        na = int(self.tree.n_actions[node])
        nb = self.n_buckets[int(self.tree.street[node])]
        start = int(self.offsets[node])
        return self.strategy[start : start + nb * na].reshape(nb, na).astype(np.float64) / 255.0

    def preflop_nodes(self) -> list[NodeInfo]:
        return [info for info in self.nodes if info.street == 0]

    def node(self, key: str) -> NodeInfo:
        """The decision node of a betting line; ``InputError`` listing the preflop lines."""
        found = self.by_key.get(_normal_key(key))
        if found is None:
            choices = ", ".join(repr(i.key) if i.key else "'' (root)" for i in self.preflop_nodes())
            raise InputError(
                f"no decision node {key!r} in this blueprint; preflop lines: "
                f"{choices} (later streets: the line with '/' between streets and raises "
                f"as totals for the hand, e.g. 'r250c/' or 'r250c/r415')"
            )
        return found

    def own_reach(self, node: int, player: int | None = None) -> np.ndarray:
        """``[169]`` the probability, per class, that ``player`` (default: the one to act)
        takes its own preflop actions on the line to ``node`` (1 for a later street's node:
        its preflop reach is not per bucket of that street)."""
        reach = np.ones(N_CLASSES)
        tree = self.tree
        if tree.street[node] != 0:
            return reach
        player = int(tree.player[node]) if player is None else player
        child = node
        while child != 0:
            edge = int(self.parent_edge[child])
            parent = int(self.edge_parent[edge])
            if int(tree.player[parent]) == player:
                a = edge - int(tree.edge_start[parent])
                reach = reach * self.rows(parent)[:, a]
            child = parent
        return reach


def open_blueprint_view(path: str | Path) -> BlueprintView:
    """Read a blueprint file (``read_blueprint``'s checks) and rebuild its tree and names."""
    return view_of(read_blueprint(path), Path(path))


def view_of(blueprint: BlueprintFile, path: Path) -> BlueprintView:
    header = blueprint.header
    try:
        config = HunlConfig(stack_bb=float(header["stack_bb"]))
        betting = parse_betting(header["betting"])
        cards = parse_abstraction(header["cards"])
    except (InputError, KeyError, TypeError, ValueError) as exc:
        raise BlueprintFileError(f"{path}: the header is not usable: {exc}") from None
    tree = build_tree(betting, root_state(config))
    offsets, slots = tree.slot_offsets(cards.n_buckets)
    if slots != blueprint.strategy.size:
        raise BlueprintFileError(
            f"{path} holds {blueprint.strategy.size:,} probabilities but "
            f"its abstraction has {slots:,}"
        )
    view = BlueprintView(path, header, blueprint.strategy, tree, cards, config, offsets)
    _name_nodes(view)
    return view


def _name_nodes(view: BlueprintView) -> None:
    tree = view.tree
    edge_parent = np.repeat(np.arange(tree.n_nodes), tree.n_actions.astype(np.int64))
    parent_edge = np.full(tree.n_nodes, -1, dtype=np.int64)
    parent_edge[tree.edge_child] = np.arange(len(tree.edge_child))
    view.parent_edge, view.edge_parent = parent_edge, edge_parent
    keys = [""] * tree.n_nodes
    names: list[list[str]] = [[] for _ in range(tree.n_nodes)]
    raises = np.zeros(tree.n_nodes, dtype=np.int64)  # bets and raises so far on the street
    view.street_start = np.zeros(tree.n_nodes, dtype=np.int64)  # each seat's total before it
    for node in range(1, tree.n_nodes):  # depth first: a parent comes before its children
        edge = int(parent_edge[node])
        parent = int(edge_parent[edge])
        token, words = _edge_words(view, parent, edge, int(raises[parent]))
        new_street = tree.street[node] != tree.street[parent] and tree.kind[node] == DECISION
        keys[node] = keys[parent] + token + ("/" if new_street else "")
        names[node] = [*names[parent], words, *([STREETS[tree.street[node]]] if new_street else [])]
        raises[node] = 0 if new_street else raises[parent] + (token[0] == "r")
        view.street_start[node] = (
            tree.committed[node].min() if new_street else view.street_start[parent]
        )
    for node in tree.decisions:
        node = int(node)
        start, count = int(tree.edge_start[node]), int(tree.n_actions[node])
        actions = [
            _edge_words(view, node, e, int(raises[node]), own=True)
            for e in range(start, start + count)
        ]
        seat = SEATS[int(tree.player[node])]
        line = ", ".join(names[node]) if names[node] else "first action"
        info = NodeInfo(
            node,
            keys[node],
            f"{line}; {seat} to act",
            int(tree.street[node]),
            int(tree.player[node]),
            tuple(w for _, w in actions),
            tuple(t for t, _ in actions),
        )
        view.nodes.append(info)
        view.by_key[info.key] = info
        view.by_node[info.node] = info


def _edge_words(
    view: BlueprintView, node: int, edge: int, raises: int, own: bool = False
) -> tuple[str, str]:
    """The ACPC token of an edge and its words (``own``: as an action of the player to act)."""
    tree = view.tree
    seat = SEATS[int(tree.player[node])]
    street = int(tree.street[node])
    kind = int(tree.edge_kind[edge])
    facing = tree.committed[node, 1 - tree.player[node]] > tree.committed[node, tree.player[node]]
    if kind == EDGE_FOLD:
        return "f", "fold" if own else f"{seat} folds"
    if kind == EDGE_CALL:
        if not facing:
            verb = "check"
        elif street == 0 and raises == 0:
            verb = "limp"
        else:
            verb = "call"
        return "c", verb if own else f"{seat} {verb}s"
    to = int(tree.edge_to[edge])
    size = _bb(view, to - int(view.street_start[node]))  # postflop: chips put in this street
    if to >= view.config.stack:
        return f"r{to}", f"all-in {size}" if own else f"{seat} goes all-in ({size})"
    level = raises + (1 if street == 0 else 0)  # preflop the big blind counts as the first bet
    if street == 0:
        verb = "open" if level == 1 else f"{level + 1}-bet"
        if level == 1 and tree.player[node] == 1:
            verb = "raise"  # over a limp
    else:
        verb = "bet" if level == 0 else ("raise" if level == 1 else f"{level + 1}-bet")
    to_word = "" if verb == "bet" else " to"  # a bet is its size; a raise, the street total
    if own:
        return f"r{to}", f"{verb}{to_word} {size}"
    third = {"open": "opens"}.get(verb, verb + "s")
    return f"r{to}", f"{seat} {third}{to_word} {size}"


def _bb(view: BlueprintView, chips: int) -> str:
    return f"{chips / view.config.big_blind:g} bb"


def _normal_key(key: str) -> str:
    key = key.strip()
    return "" if key.lower() in ("root", "-") else key


# --- reports -------------------------------------------------------------------------------------
def header_summary(view: BlueprintView) -> dict[str, Any]:
    """The header's study facts: game, abstractions, iterations, time, seed and LBR figures."""
    h = view.header
    preflop = view.preflop_nodes()
    return {
        "file": str(view.path),
        "game": h.get("game"),
        "stack_bb": h.get("stack_bb"),
        "blinds": h.get("blinds"),
        "betting": h.get("betting"),
        "cards": h.get("cards"),
        "buckets": list(view.n_buckets),
        "iterations": h.get("iterations"),
        "seconds": h.get("seconds"),
        "seed": h.get("seed"),
        "nodes": view.tree.n_nodes,
        "decision_nodes": len(view.nodes),
        "preflop_nodes": len(preflop),
        "slots": int(view.strategy.size),
        "lbr": h.get("lbr") or {},
    }


def node_list(view: BlueprintView, street: int = 0) -> list[dict[str, Any]]:
    return [
        {"key": i.key, "name": i.name, "seat": SEATS[i.player], "actions": list(i.actions)}
        for i in view.nodes
        if i.street == street
    ]


@dataclass(frozen=True)
class PreflopChart:
    info: NodeInfo
    freq: np.ndarray
    """``[169, actions]`` each class's probability of each action (``CLASS_LABELS`` order)."""
    reach: np.ndarray
    """``[169]`` the acting player's own reach of the line."""
    totals: np.ndarray
    """``[actions]`` over the range that arrives: combos x reach weighted."""
    totals_all: np.ndarray
    """``[actions]`` over every dealt hand: combos weighted, reach left out."""
    combos: float
    """Combos of the arriving range (1,326 at most)."""


def preflop_chart(view: BlueprintView, info: NodeInfo) -> PreflopChart:
    if info.street != 0:
        raise InputError(f"{info.key!r} is a {STREETS[info.street]} node: give --board")
    freq = view.rows(info.node)
    reach = view.own_reach(info.node)
    weights = CLASS_COMBOS * reach
    total = weights.sum()
    totals = weights @ freq / total if total > 0 else np.full(freq.shape[1], np.nan)
    totals_all = CLASS_COMBOS @ freq / CLASS_COMBOS.sum()
    return PreflopChart(info, freq, reach, totals, totals_all, float(total))


def _node_fields(info: NodeInfo) -> dict[str, Any]:
    """What every node's payload opens with: its key, name, street and the seat to act."""
    return {
        "node": info.key,
        "name": info.name,
        "street": STREETS[info.street],
        "seat": SEATS[info.player],
    }


def chart_payload(view: BlueprintView, chart: PreflopChart) -> dict[str, Any]:
    info = chart.info
    return {
        **_node_fields(info),
        "actions": list(info.actions),
        "tokens": list(info.tokens),
        "totals": chart.totals,
        "totals_all": chart.totals_all,
        "range_combos": chart.combos,
        "weighting": "combos (pairs 6, suited 4, offsuit 12) times the acting seat's own "
        "reach of the line",
        "classes": {
            label: {"freq": chart.freq[c], "reach": float(chart.reach[c])}
            for c, label in enumerate(CLASS_LABELS)
        },
    }


@dataclass(frozen=True)
class BucketChart:
    info: NodeInfo
    board: tuple[int, ...]
    freq: np.ndarray
    """``[buckets, actions]``."""
    hands: list[list[int]]
    """Per bucket, the combos it holds on the board (weakest bucket first)."""
    totals_all: np.ndarray
    """``[actions]`` over every live combo on the board (reach left out)."""


def parse_board(text: str | None, street: int) -> tuple[int, ...]:
    need = BOARD_CARDS[street]
    if not text:
        raise InputError(
            f"a {STREETS[street]} node needs --board with {need} cards, e.g. "
            f"{'KhQd7c2s9h'[: 2 * need]}"
        )
    cards = parse_cards(text)
    if len(cards) != need or len(set(cards)) != need:
        raise InputError(
            f"a {STREETS[street]} node needs a board of {need} different cards, not {text!r}"
        )
    return tuple(cards)


def bucket_chart(view: BlueprintView, info: NodeInfo, board_text: str | None) -> BucketChart:
    if info.street == 0:
        raise InputError(f"{info.key!r} is a preflop node: it takes no --board")
    board = parse_board(board_text, info.street)
    buckets = view.cards.combo_buckets(np.array(board, dtype=np.int64), info.street)
    freq = view.rows(info.node)
    live = buckets >= 0
    hands: list[list[int]] = [[] for _ in range(freq.shape[0])]
    for combo in np.flatnonzero(live):
        hands[int(buckets[combo])].append(int(combo))
    totals_all = freq[buckets[live]].mean(axis=0)
    return BucketChart(info, board, freq, hands, totals_all)


def bucket_payload(chart: BucketChart) -> dict[str, Any]:
    info = chart.info
    return {
        **_node_fields(info),
        "board": cards_str(chart.board),
        "actions": list(info.actions),
        "tokens": list(info.tokens),
        "totals_all": chart.totals_all,
        "weighting": "every live combo on the board counts once (reach left out)",
        "buckets": [
            {"bucket": b, "freq": chart.freq[b], "hands": [COMBO_LABELS[c] for c in hands]}
            for b, hands in enumerate(chart.hands)
        ],
    }
