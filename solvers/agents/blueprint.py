"""The blueprint bot: plays the full game from a blueprint file's abstract strategy.

The file's header rebuilds the abstract betting tree and the card abstraction. At a real state
the agent follows the hand's betting down the tree: a fold or call is the tree's fold or call,
a raise the tree's raise of the same size in pot fractions, and a raise the tree does not have
goes to one of the two nearest sizes by the pseudo-harmonic rule (``games/translation.py``),
drawn once per betting line (a hash of the line), so the answer at a state never changes. A
raise below the tree's smallest goes to it, and a share of every hand's folds there call
instead (``translation.fold_to_call``): an open to 2 bb, a min-raise, is not folded to as often
as the tree's 2.5 bb. A real all-in maps to the tree's all-in; other raises never do while a
smaller size exists. If the
line still leaves the tree (a raise past the abstraction's cap, or an all-in mismatch that ends
the abstract hand early), the agent re-enters at the current street from the street root whose
pot is closest, and failing that checks or calls.

The answer is a policy for all 1,326 combos: each combo's bucket on the board
(``CardAbstraction.combo_buckets``) selects its row; blocked combos get uniform rows. The tree's
actions become real ones of the same pot fraction, clamped to the legal range; actions that land
on the same real action merge.
"""

from __future__ import annotations

import math
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from solvers.abstraction import hand_features as hf
from solvers.abstraction.betting import parse_betting
from solvers.abstraction.betting_tree import (
    DECISION,
    EDGE_CALL,
    EDGE_FOLD,
    EDGE_RAISE,
    build_tree,
    root_state,
)  # fmt: skip
from solvers.abstraction.buckets import COMBO, parse_abstraction
from solvers.cards.deck import N_COMBOS
from solvers.errors import InputError
from solvers.games.derived import DerivedCache
from solvers.games.hunl.agent import Policy
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlConfig, HunlState, parse_action
from solvers.games.translation import fold_to_call, move_folds, translate
from solvers.strategy_file.blueprint_file import BlueprintFile, BlueprintFileError, read_blueprint

POLICIES_KEPT = 8
"""Answers kept per agent, by betting line and board."""
BUCKETS_KEPT = 256
"""Boards whose combos' buckets an agent keeps (2.6 kB each): the base play of a subgame asks
for every decision of every card below it, a flop that sees the turn 1,185 decisions on 50
boards, so each board's buckets are computed once instead of once a decision."""


@dataclass(frozen=True)
class RaiseReading:
    """``BlueprintAgent.read_raise``: a real raise and the tree raises the bot answers it as."""

    to: int
    fraction: float
    """Of the pot after calling."""
    answers: tuple[tuple[int, float, float], ...]
    """``(tree total, its pot fraction, probability)`` of each tree raise it may be read as."""
    fold_to_call: float
    """The share of every hand's folds that call instead (below the smallest size)."""


class BlueprintAgent:
    """An ``Agent`` (``games/hunl/agent.py``) over a blueprint file."""

    def __init__(self, blueprint: BlueprintFile, name: str = "blueprint") -> None:
        header = blueprint.header
        self.name = name
        self.header = header
        self.path: Path | None = None
        try:
            self.config = HunlConfig(stack_bb=float(header["stack_bb"]))
            self.betting = parse_betting(header["betting"])
            self.cards = parse_abstraction(header["cards"])
        except (InputError, KeyError, TypeError, ValueError) as exc:
            raise BlueprintFileError(f"the blueprint's header is not usable: {exc}") from None
        self.tree = build_tree(self.betting, root_state(self.config))
        self.offsets, slots = self.tree.slot_offsets(self.cards.n_buckets)
        if slots != blueprint.strategy.size:
            raise BlueprintFileError(
                f"the blueprint holds {blueprint.strategy.size:,} probabilities but its "
                f"abstraction has {slots:,}: the file is damaged or from another version"
            )
        self.strategy = blueprint.strategy
        self._policies: OrderedDict[tuple[tuple[str, ...], tuple[int, ...]], Policy] = (
            OrderedDict()
        )  # the last few answers: LBR and matches ask for a policy, then act on it
        self._buckets = DerivedCache(BUCKETS_KEPT)  # by (street, board): read only
        tree = self.tree
        parent = np.full(tree.n_nodes, -1, dtype=np.int64)
        for node in tree.decisions:
            start, count = int(tree.edge_start[node]), int(tree.n_actions[node])
            parent[tree.edge_child[start : start + count]] = node
        decision = tree.kind == DECISION
        new_street = np.zeros(tree.n_nodes, dtype=bool)
        new_street[1:] = tree.street[1:] != tree.street[np.maximum(parent[1:], 0)]
        self.street_roots = [
            np.flatnonzero(decision & (new_street | (np.arange(tree.n_nodes) == 0))
                           & (tree.street == s))  # fmt: skip
            for s in range(4)
        ]

    # --- the Agent protocol --------------------------------------------------------------------
    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        _check_game(state.config, self.config, "this blueprint")
        key = (state.history, tuple(int(c) for c in board))
        kept = self._policies.get(key)
        if kept is None:
            kept = self._policy(state, board)
            kept.probabilities.flags.writeable = False  # shared by every caller of the key
            self._policies[key] = kept
            if len(self._policies) > POLICIES_KEPT:
                self._policies.popitem(last=False)
        return kept

    def _policy(self, state: HunlState, board: np.ndarray) -> Policy:
        legal = state.legal()
        node, share = self._locate(state)
        if node is None:
            return Policy((Action(CALL),), np.ones((N_COMBOS, 1)))
        rows = self._rows(node, np.asarray(board, dtype=np.int64), state.street)
        start = int(self.tree.edge_start[node])
        kinds = list(self.tree.edge_kind[start : start + rows.shape[1]])
        if share > 0.0 and EDGE_FOLD in kinds and EDGE_CALL in kinds:
            rows = move_folds(rows, kinds.index(EDGE_FOLD), kinds.index(EDGE_CALL), share)
        actions: list[Action] = []
        columns: list[np.ndarray] = []
        for a in range(int(self.tree.n_actions[node])):
            action = self._real_action(node, start + a, state, legal)
            if action in actions:
                columns[actions.index(action)] = columns[actions.index(action)] + rows[:, a]
            else:
                actions.append(action)
                columns.append(rows[:, a])
        return Policy(tuple(actions), np.stack(columns, axis=1))

    def act(
        self, state: HunlState, board: np.ndarray, combo: int, rng: np.random.Generator
    ) -> Action:
        return self.policy(state, board).sample(combo, rng)

    def warm_up(self) -> None:
        """Bucket every street once (loads tables, compiles kernels)."""
        for street in (1, 2, 3):
            _combo_buckets(self.cards, (0, 5, 10, 15, 20)[: _BOARD[street]], street)

    # --- following the hand down the tree ------------------------------------------------------
    def locate(self, state: HunlState) -> int | None:
        """The abstract decision node for ``state`` (None when the tree cannot follow it)."""
        return self._locate(state)[0]

    def _locate(self, state: HunlState) -> tuple[int | None, float]:
        """``locate``'s node, and the share of each hand's folds that call there: above 0 when
        the last action was a raise below the tree's smallest (``translation.fold_to_call``)."""
        tree = self.tree
        real = HunlState.initial(state.config)
        node: int | None = 0
        share = 0.0
        for street, text in enumerate(state.history):
            lost = node is None or tree.kind[node] != DECISION or tree.street[node] != street
            if street and lost:
                node = self._reenter(real)
            for token in _tokens(text):
                action = parse_action(token)
                share = 0.0
                if node is not None:
                    node, share = self._follow(node, real, action, real.betting + token)
                real = real.apply(action)
        if node is None or not self._fits(node, state):
            return None, 0.0
        return node, share

    def _fits(self, node: int, state: HunlState) -> bool:
        tree = self.tree
        return bool(tree.kind[node] == DECISION and tree.player[node] == state.to_act
                    and tree.street[node] == state.street)  # fmt: skip

    def _reenter(self, real: HunlState) -> int | None:
        """The street root whose pot is nearest (in ratio) to ``real``'s."""
        roots = self.street_roots[real.street] if real.street < 4 else np.zeros(0, dtype=np.int64)
        if not len(roots):
            return None
        pots = self.tree.committed[roots].sum(axis=1).astype(float)
        return int(roots[np.argmin(np.abs(np.log(pots / real.pot)))])

    def _follow(
        self, node: int, real: HunlState, action: Action, line: str
    ) -> tuple[int | None, float]:
        """The child ``action`` leads to, and for a raise below the tree's smallest the share
        of folds that call in answer (``_locate``)."""
        tree = self.tree
        if tree.kind[node] != DECISION or tree.player[node] != real.to_act:
            return None, 0.0
        start, count = int(tree.edge_start[node]), int(tree.n_actions[node])
        edges = range(start, start + count)
        if action.kind in (FOLD, CALL):
            kind = EDGE_FOLD if action.kind == FOLD else EDGE_CALL
            found = [e for e in edges if tree.edge_kind[e] == kind]
            return (int(tree.edge_child[found[0]]) if found else None), 0.0
        mapped, _, share = self._read_raise(node, real, action)
        if not mapped:
            return None, 0.0
        draw = zlib.crc32(line.encode()) / 2**32
        edge = mapped[0][0] if draw < mapped[0][1] else mapped[-1][0]
        return int(tree.edge_child[edge]), share

    def _read_raise(
        self, node: int, real: HunlState, action: Action
    ) -> tuple[list[tuple[int, float]], float, float]:
        """The tree raises ``(edge, probability)`` a real raise maps to, its pot fraction (of
        the pot after calling), and the share of folds that call in answer."""
        tree = self.tree
        start, count = int(tree.edge_start[node]), int(tree.n_actions[node])
        raises = [e for e in range(start, start + count) if tree.edge_kind[e] == EDGE_RAISE]
        facing = real.committed[1 - real.to_act]
        bet = (action.to - facing) / (2.0 * facing)
        if not raises:
            return [], bet, 0.0
        allin = [e for e in raises if tree.edge_to[e] >= self.config.stack]
        others = [e for e in raises if tree.edge_to[e] < self.config.stack]
        if action.to >= real.config.stack and allin:
            return [(allin[0], 1.0)], bet, 0.0
        if not others:
            return [(raises[-1], 1.0)], bet, 0.0
        opp = tree.committed[node, 1 - real.to_act]
        sizes = [(int(tree.edge_to[e]) - opp) / (2.0 * opp) for e in others]
        choice = translate(sizes, bet)
        mapped = [(others[choice.lower], choice.lower_probability)]
        if choice.upper != choice.lower:
            mapped.append((others[choice.upper], choice.upper_probability))
        return mapped, bet, fold_to_call(sizes[0], bet)

    def read_raise(self, state: HunlState, to: int) -> RaiseReading:
        """How the bot reads a raise to ``to`` at ``state``: the tree's raises it answers as,
        with their odds before the line's draw, and the share of folds that call
        (``pokertui translate`` on a blueprint). ``InputError`` off the tree or for an illegal
        raise."""
        _check_game(state.config, self.config, "this blueprint")
        node = self.locate(state)
        legal = state.legal()
        if node is None:
            raise InputError("the blueprint's tree does not follow this line")
        if legal.min_raise_to is None or legal.max_raise_to is None:
            raise InputError("no raise is legal here")
        if not legal.min_raise_to <= to <= legal.max_raise_to:
            raise InputError(f"a raise here goes to {legal.min_raise_to} to "
                             f"{legal.max_raise_to} chips, not {to}")  # fmt: skip
        mapped, fraction, share = self._read_raise(node, state, Action(RAISE, to))
        tree = self.tree
        opp = float(tree.committed[node, 1 - state.to_act])
        answers = tuple(
            (int(tree.edge_to[e]), (int(tree.edge_to[e]) - opp) / (2.0 * opp), p)
            for e, p in mapped
        )
        return RaiseReading(to, fraction, answers, share)

    # --- rows and actions --------------------------------------------------------------------
    def _rows(self, node: int, board: np.ndarray, street: int) -> np.ndarray:
        na = int(self.tree.n_actions[node])
        nb = self.cards.n_buckets[street]
        start = int(self.offsets[node])
        table = self.strategy[start : start + nb * na].reshape(nb, na).astype(np.float64) / 255.0
        cards = tuple(int(c) for c in board[: _BOARD[street]])
        buckets = self._buckets.get(
            "buckets", (street, cards), lambda: _combo_buckets(self.cards, cards, street)
        )
        rows = table[np.maximum(buckets, 0)]
        rows[buckets < 0] = 1.0 / na
        return rows

    def _real_action(self, node: int, edge: int, state: HunlState, legal) -> Action:
        kind = self.tree.edge_kind[edge]
        if kind == EDGE_FOLD:
            return Action(FOLD) if legal.can_fold else Action(CALL)
        if kind == EDGE_CALL or legal.min_raise_to is None or legal.max_raise_to is None:
            return Action(CALL)
        to = int(self.tree.edge_to[edge])
        if to >= self.config.stack:
            return Action(RAISE, legal.max_raise_to)
        opp = float(self.tree.committed[node, 1 - state.to_act])
        fraction = (to - opp) / (2.0 * opp)
        facing = state.committed[1 - state.to_act]
        real = facing + int(math.floor(fraction * 2.0 * facing + 0.5))
        return Action(RAISE, min(max(real, legal.min_raise_to), legal.max_raise_to))


_BOARD = (0, 3, 4, 5)


def _combo_buckets(cards, board: tuple[int, ...], street: int) -> np.ndarray:
    """``cards.combo_buckets``, but on the turn and river straight from the board's hand
    features (under a millisecond) instead of the cached tables, whose first use in a process
    enumerates every canonical river (over ten seconds): the same buckets either way
    (``tests/test_blueprint_agent.py``). A potential-aware turn is a cluster, not a percentile:
    the abstraction's own look-up."""
    cards_array = np.array(board, dtype=np.int64)
    if street < 2 or cards.streets[street] == COMBO or (street == 2 and cards.kind != "hs2"):
        return cards.combo_buckets(cards_array, street)
    lookup = _percentile_lookup(hf.STREET_NAMES[street], cards.n_buckets[street])
    buckets = lookup[np.maximum(hf.features(cards_array[None, :], street)[0], 0)]
    return np.where(hf.blocked_mask(cards_array[None, :])[0], -1, buckets).astype(np.int16)


@lru_cache(maxsize=16)
def _percentile_lookup(street_name: str, n_buckets: int) -> np.ndarray:
    return hf.percentile_buckets(hf.shipped_histograms()[street_name], n_buckets)


def _tokens(text: str) -> list[str]:
    tokens, position = [], 0
    while position < len(text):
        end = position + 1
        if text[position] == "r":
            while end < len(text) and text[end].isdigit():
                end += 1
        tokens.append(text[position:end])
        position = end
    return tokens


def _check_game(asked: HunlConfig, own: HunlConfig, what: str) -> None:
    if (asked.stack, asked.small_blind, asked.big_blind) != (own.stack, own.small_blind,
                                                              own.big_blind):  # fmt: skip
        raise InputError(
            f"{what} plays {own.stack_bb:g} bb stacks with blinds {own.small_blind}/"
            f"{own.big_blind}, not {asked.stack_bb:g} bb with {asked.small_blind}/"
            f"{asked.big_blind}"
        )


def load_blueprint_agent(
    path: str | Path, config: HunlConfig | None = None, warm: bool = True
) -> BlueprintAgent:
    """The bot of a blueprint file; ``InputError`` for a broken file or another stack depth.
    ``warm`` loads the bucket tables and compiled kernels now (seconds, once per process), so
    that no decision waits for them later."""
    agent = BlueprintAgent(read_blueprint(path), name=Path(path).stem)
    agent.path = Path(path)  # where its preflop values table lies (reports/blueprint_values.py)
    if config is not None:
        _check_game(config, agent.config, str(path))
    if warm:
        agent.warm_up()
    return agent


def blueprint_file_loader(path: str, config: HunlConfig) -> BlueprintAgent | None:
    """For ``agents.registry.FILE_LOADERS``: None for a file that is not a zip (not ours)."""
    with open(path, "rb") as handle:
        if handle.read(4) != b"PK\x03\x04":
            return None
    return load_blueprint_agent(path, config)
