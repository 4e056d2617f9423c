"""Lock files: a partial readable strategy file whose nodes stay fixed while the rest is solved.

The nodes of a lock file use the readable forms of a strategy file, and a node may lock only
some hands:

* per action as range strings (hold'em): every hand of the node is locked; at most one action
  may be left out and takes what the others leave::

      "": {"bet 33": "AA, KK, 76s", "bet 75": ""}          # the rest checks

* per hand: only the hands named are locked; in hold'em a name may be a combo (``AsKd``), a
  class (``AKs``) or any range (``QQ+``), each covering its live combos on the board::

      "x": {"AKs": {"bet 75": 1}, "QhJh": {"check": 0.5, "bet 33": 0.5}}

* compact (``actions``/``probs``, every hand): as solvers write it.

``game``, if given, must be the game being solved. Everything wrong (unknown node or action,
a row not summing to one, a hand not in the game) is reported at once as an ``InputError``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from solvers.cards.deck import classes_to_combos
from solvers.cards.ranges import format_range, parse_range
from solvers.errors import InputError
from solvers.exact.locks import Locks, NodeLock
from solvers.games import load_game
from solvers.games.base import TreeGame, spot_hand_combos
from solvers.strategy_file.model import MAX_FILE_BYTES, ROW_TOLERANCE, Problem, StrategyFileError
from solvers.strategy_file.read import _holdem_view, _in_tree, _is_number, _Locator, _Reader
from solvers.strategy_file.write import _implied_action, _spot_spreader, round_rows
from solvers.user_files import read_user_text

_KNOWN_FIELDS = {"format_version", "game", "form", "solver", "measured", "defaults", "nodes"}


def load_locks(path: str | Path, game: TreeGame) -> tuple[Locks, dict[str, Any]]:
    """The locks of a lock file for ``game``, and its ``nodes`` object (for the file header)."""
    path = Path(path)
    text = read_user_text(path, MAX_FILE_BYTES, "lock file")  # a FIFO or /dev/zero: refused
    return loads_locks(text, game, str(path))


def loads_locks(text: str, game: TreeGame, source: str = "<lock>") -> tuple[Locks, dict]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problem = Problem(f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
        raise StrategyFileError(source, [problem]) from None
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), dict):
        raise StrategyFileError(source, [Problem('a lock file is an object with "nodes"')])
    problems: list[Problem] = []
    for extra in sorted(set(data) - _KNOWN_FIELDS):
        problems.append(Problem(f"unknown field {extra!r}"))
    spec = data.get("game")
    if spec is not None and _canonical(spec) != game.spec_string():
        problems.append(Problem(f"the locks are for {spec}, not {game.spec_string()}"))
    reader = _LockReader(data, game, _Locator(text))
    locks = reader.read_all(data["nodes"])
    problems += reader.problems
    if not locks and not problems:
        problems.append(Problem("the lock file locks no node"))
    if problems:
        raise StrategyFileError(source, problems)
    return locks, data["nodes"]


def _canonical(spec: Any) -> str | None:
    try:
        return load_game(str(spec)).spec_string()
    except InputError:
        return None


class _LockReader(_Reader):
    """The strategy-file reader's checks, with per-hand nodes allowed to name some hands only."""

    def read_all(self, nodes: dict[str, Any]) -> dict[int, NodeLock]:
        decision = {n.key: n for n in self.game.decision_nodes()}
        locks: dict[int, NodeLock] = {}
        for key, body in nodes.items():
            node = decision.get(key)
            if node is None:
                why = "is not a decision node" if _in_tree(self.game, key) else "is not in the tree"
                self.problem(f"unknown node: {key!r} {why}", node=key)
                continue
            lock = self.read_lock(key, node, body)
            if lock is not None:
                locks[node.id] = lock
        return locks

    def read_lock(self, key: str, node, body: Any) -> NodeLock | None:
        every_hand = np.ones(self.game.n_hands[node.player], dtype=bool)
        if not isinstance(body, dict) or not body:
            self.problem("a locked node is a non-empty object", node=key)
            return None
        if "probs" in body or "actions" in body:
            rows = self.read_compact(key, node, body)
            return None if rows is None else NodeLock(every_hand, rows)
        if all(isinstance(v, str) for v in body.values()):
            rows = self.read_ranges(key, node, body)
            return None if rows is None else NodeLock(every_hand, rows)
        return self.read_some_hands(key, node, body)

    def _hands_named(self, key: str, player: int, name: str) -> np.ndarray | None:
        """Mask of the player's hands a name covers (a hand label, or a hold'em range)."""
        labels = self.game.hand_labels[player]
        mask = np.array([label == name for label in labels])
        if mask.any():
            return mask
        if _holdem_view(self.game, player) == "spot":
            try:
                weights = parse_range(name)[spot_hand_combos(self.game)[player]]
            except InputError as exc:
                self.problem(f"unknown hand: {str(exc).splitlines()[0]}", key, hand=name)
                return None
            if (weights > 0).any():
                return weights > 0
            self.problem("no live combo of this hand on this board", key, hand=name)
            return None
        self.problem(f"unknown hand {name!r} for this game", key, hand=name)
        return None

    def read_some_hands(self, key: str, node, body: dict) -> NodeLock | None:
        player = node.player
        hands = np.zeros(self.game.n_hands[player], dtype=bool)
        rows = np.zeros((len(hands), len(node.actions)))
        ok = True
        for name, probs in body.items():
            covered = self._hands_named(key, player, name)
            if not isinstance(probs, dict) or not probs:
                self.problem("a hand maps action labels to probabilities", key, hand=name)
                ok = False
                continue
            row = np.zeros(len(node.actions))
            for action, prob in probs.items():
                if action not in node.actions:
                    legal = ", ".join(node.actions)
                    self.problem(f"unknown action here (legal: {legal})", key, name, action)
                    ok = False
                elif not _is_number(prob) or not 0.0 <= float(prob) <= 1.0:
                    self.problem(f"probability {prob!r} is not in [0, 1]", key, name, action)
                    ok = False
                else:
                    row[node.actions.index(action)] = float(prob)
            if abs(row.sum() - 1.0) > ROW_TOLERANCE and ok:
                self.problem(f"probabilities sum to {row.sum():.9g}, not 1", key, name)
                ok = False
            if covered is None:
                ok = False
                continue
            if (hands & covered).any():
                self.problem("this hand is already locked by another entry", key, hand=name)
                ok = False
            hands |= covered
            rows[covered] = row
        return NodeLock(hands, rows) if ok else None


def lock_document(game: TreeGame, strategy, node_ids) -> dict[str, Any]:
    """A lock file fixing every hand of ``node_ids`` to ``strategy``, in the readable form
    (range strings per action in hold'em, so it reads and edits like the explorer shows it)."""
    nodes: dict[str, Any] = {}
    for node_id in node_ids:
        node = game.nodes[node_id]
        if not node.is_decision:
            raise InputError(f"node {node.key!r} is not a decision node: it cannot be locked")
        rows = round_rows(np.asarray(strategy[node_id], dtype=float))
        view = _holdem_view(game, node.player)
        if view is None:
            nodes[node.key] = {
                hand: {a: float(p) for a, p in zip(node.actions, row, strict=True) if p > 0}
                for hand, row in zip(game.hand_labels[node.player], rows.tolist(), strict=True)
            }
            continue
        spread = _spot_spreader(game, node.player) if view == "spot" else None
        if view == "classes":
            spread = classes_to_combos
        implied = _implied_action(node.actions)
        nodes[node.key] = {
            action: format_range(spread(rows[:, a]) if spread else rows[:, a])
            for a, action in enumerate(node.actions)
            if action != implied
        }
    return {"game": game.spec_string(), "form": "readable", "nodes": nodes}


def edit_rows(game: TreeGame, node_id: int, rows: np.ndarray, text: str) -> np.ndarray:
    """``rows`` with one hand, class or range set as typed: ``AKs: bet 75=1`` or
    ``QhJh: check=0.5, bet 33=0.5`` (actions left out get 0). ``InputError`` with the reason
    for anything else, so an edit never leaves a row that does not sum to one."""
    node = game.nodes[node_id]
    hand, sep, rest = text.partition(":")
    if not sep or not hand.strip() or not rest.strip():
        raise InputError("an edit looks like 'AKs: bet 75=1' or 'QhJh: check=0.5, bet 33=0.5'")
    probs: dict[str, Any] = {}
    for part in rest.split(","):
        action, eq, value = part.rpartition("=")
        if not eq or not action.strip():
            raise InputError(f"{part.strip()!r}: give action=probability, e.g. check=1")
        try:
            probs[action.strip()] = float(value)
        except ValueError:
            raise InputError(f"{value.strip()!r} is not a probability") from None
    reader = _LockReader({}, game, _Locator(""))
    lock = reader.read_some_hands(node.key, node, {hand.strip(): probs})
    if lock is None:
        raise InputError("; ".join(str(p) for p in reader.problems))
    edited = np.array(rows, dtype=float, copy=True)
    edited[lock.hands] = lock.probs[lock.hands]
    return edited
