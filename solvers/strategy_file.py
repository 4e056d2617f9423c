"""Strategy files: the JSON that solvers write, bots play and people edit.

A file is one JSON object. Its header names the game (a spec string such as ``kuhn(cards=3)``),
the solver that made it and the exploitability measured when it was saved; its ``nodes`` map
each decision node's key to that node's strategy, in one of two forms:

* **compact** (what solvers write)::

      "c/b": {"actions": ["fold", "call"], "hands": ["J", "Q", "K"],
              "probs": [[1, 0], [0.666667, 0.333333], [0, 1]]}

  ``hands`` is optional (default: all of the acting player's hands in the game's order).
* **readable** (what people write), per hand::

      "c/b": {"J": {"fold": 1}, "Q": {"fold": 0.67, "call": 0.33}, "K": {"call": 1}}

  or, in hold'em games, per action as a range string; at most one action may be left out and
  takes what the others leave::

      "": {"shove": "22+,A2s+,K5s+,Q8s+,K9o+"}

``defaults`` (``"uniform"`` or ``"check_fold"``) fills nodes that are absent, but only when the
file asks for it. Loading never executes anything and reports every problem of a file at once,
with the node, hand, action and, where it can be found, the line.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from solvers import __version__
from solvers.cards import (
    CLASS_LABELS,
    COMBO_CLASS,
    COMBO_LABELS,
    classes_to_combos,
    combos_to_classes,
)
from solvers.errors import InputError
from solvers.games import load_game
from solvers.games.base import Strategy, TreeGame
from solvers.ranges import format_range, parse_range

FORMAT_VERSION = 1
MAX_FILE_BYTES = 200 * 1024 * 1024
ROW_TOLERANCE = 1e-6
DEFAULT_PRECISION = 6


class SolverInfo(BaseModel):
    """Where a strategy came from."""

    model_config = ConfigDict(extra="forbid")
    algorithm: str = Field(description="solver name, e.g. lp, cfr+, dcfr, or 'hand-written'")
    settings: dict[str, Any] = Field(default_factory=dict)
    iterations: int | None = None
    seed: int | None = None
    package_version: str = __version__
    created: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))


class Measured(BaseModel):
    """Exploitability and value measured by exact best response when the file was saved."""

    model_config = ConfigDict(extra="forbid")
    exploitability: float = Field(description="(BR_0 + BR_1) / 2 in chips")
    nash_conv: float
    best_response_values: tuple[float, float]
    game_value: float = Field(description="player 1's (seat 0) value of the profile, chips")
    mbb_per_hand: float | None = None
    pot_percent: float | None = None


class CompactNode(BaseModel):
    model_config = ConfigDict(extra="forbid")
    actions: list[str]
    hands: list[str] | None = None
    probs: list[list[float]]


class StrategyFileModel(BaseModel):
    """The JSON Schema of a strategy file (``pokertui schema``)."""

    model_config = ConfigDict(extra="forbid", title="pokertui strategy file")
    format_version: int = FORMAT_VERSION
    game: str = Field(description="game spec string, e.g. kuhn(cards=3) or push_fold(stack_bb=10)")
    form: Literal["compact", "readable"] = "compact"
    defaults: Literal["uniform", "check_fold"] | None = Field(
        None, description="how to fill decision nodes the file leaves out (none: an error)"
    )
    solver: SolverInfo | None = None
    measured: Measured | None = None
    nodes: dict[str, CompactNode | dict[str, dict[str, float]] | dict[str, str]]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, located as precisely as possible."""

    message: str
    node: str | None = None
    hand: str | None = None
    action: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.node is not None:
            where.append(f"node {self.node!r}")
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.action is not None:
            where.append(f"action {self.action}")
        return (", ".join(where) + ": " if where else "") + self.message

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


class StrategyFileError(InputError):
    """A strategy file that cannot be used; ``problems`` lists everything found in one pass."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        count = f"{len(problems)} problem" + ("s" if len(problems) != 1 else "")
        lines = "\n".join(f"  - {p}" for p in problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(f"{source}: invalid strategy file ({count}):\n{lines}{more}")


@dataclass
class StrategyFile:
    """A loaded, validated strategy: the game, the profile and the header."""

    game: TreeGame
    strategy: Strategy
    solver: SolverInfo | None = None
    measured: Measured | None = None
    source: str = ""
    defaults: str | None = None
    filled_nodes: list[str] = field(default_factory=list)
    """Keys of nodes that came from ``defaults`` rather than from the file."""


# --- reading ----------------------------------------------------------------------------------


class _Locator:
    """Best-effort line numbers: where a node key, and a hand inside it, appear in the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        start = text.find('"nodes"')
        self.nodes_at = max(start, 0)

    def line(self, node: str | None = None, hand: str | None = None) -> int | None:
        if node is None:
            return None
        at = self.text.find(json.dumps(node) + ":", self.nodes_at)
        if at < 0:
            at = self.text.find(json.dumps(node), self.nodes_at)
        if at < 0:
            return None
        if hand is not None:
            found = self.text.find(json.dumps(hand), at + len(node) + 2)
            at = found if found >= 0 else at
        return self.text.count("\n", 0, at) + 1


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Reader:
    """Turns parsed JSON into a strategy, collecting problems instead of stopping at the first."""

    def __init__(self, data: dict[str, Any], game: TreeGame, locator: _Locator) -> None:
        self.data = data
        self.game = game
        self.locate = locator
        self.problems: list[Problem] = []

    def problem(self, message: str, node=None, hand=None, action=None) -> None:
        line = self.locate.line(node, hand)
        self.problems.append(Problem(message, node, hand, action, line))

    def read_nodes(self, defaults: str | None) -> tuple[Strategy, list[str]]:
        nodes = self.data.get("nodes")
        if not isinstance(nodes, dict):
            self.problem("'nodes' must be an object mapping node keys to strategies")
            return {}, []
        game = self.game
        decision_keys = {n.key: n for n in game.decision_nodes()}
        for key in nodes:
            if key not in decision_keys:
                why = "is not a decision node" if _in_tree(game, key) else "is not in the game tree"
                self.problem(f"extra node: {key!r} {why}", node=key)
        strategy: Strategy = {}
        filled: list[str] = []
        for key, node in decision_keys.items():
            if key not in nodes:
                if defaults is None:
                    self.problem(
                        'missing node (add it, or set "defaults": "uniform" or '
                        '"check_fold" to fill absent nodes)',
                        node=key,
                    )
                    continue
                strategy[node.id] = _default_rows(game, node, defaults)
                filled.append(key)
                continue
            rows = self.read_node(key, node, nodes[key])
            if rows is not None:
                strategy[node.id] = rows
        return strategy, filled

    def read_node(self, key: str, node, body: Any) -> np.ndarray | None:
        if not isinstance(body, dict):
            self.problem("a node must be an object", node=key)
            return None
        if "probs" in body or "actions" in body:
            return self.read_compact(key, node, body)
        if body and all(isinstance(v, str) for v in body.values()):
            return self.read_ranges(key, node, body)
        return self.read_per_hand(key, node, body)

    def _hand_index(self, player: int) -> dict[str, int]:
        return {label: i for i, label in enumerate(self.game.hand_labels[player])}

    def _check_rows(self, key: str, node, rows: np.ndarray, labels, skip=()) -> bool:
        """Report bad probabilities, except in rows ``skip`` that already have a problem."""
        rows = rows.copy()
        skip = list(skip)
        rows[skip] = 1.0 / rows.shape[1]
        ok = True
        for h, a in zip(*np.nonzero(~np.isfinite(rows)), strict=True):
            self.problem("probability is NaN or infinite", key, labels[h], node.actions[a])
            ok = False
        finite = np.where(np.isfinite(rows), rows, 0.0)
        for bad, word in ((finite < 0, "below 0"), (finite > 1, "above 1")):
            for h, a in zip(*np.nonzero(bad), strict=True):
                message = f"probability {finite[h, a]:g} is {word}"
                self.problem(message, key, labels[h], node.actions[a])
                ok = False
        sums = finite.sum(axis=1)
        for h in np.flatnonzero(np.abs(sums - 1) > ROW_TOLERANCE):
            if np.isfinite(rows[h]).all() and (finite[h] >= 0).all() and (finite[h] <= 1).all():
                self.problem(f"probabilities sum to {sums[h]:.9g}, not 1", key, labels[h])
                ok = False
        return ok

    def read_compact(self, key: str, node, body: dict) -> np.ndarray | None:
        try:
            compact = CompactNode.model_validate(body)
        except ValidationError as exc:
            for err in exc.errors():
                where = ".".join(str(p) for p in err["loc"])
                self.problem(f"{where}: {err['msg']}", node=key)
            return None
        player = node.player
        index = self._hand_index(player)
        hands = compact.hands if compact.hands is not None else list(self.game.hand_labels[player])
        ok = True
        action_pos = {}
        for j, label in enumerate(compact.actions):
            if label not in node.actions:
                legal = ", ".join(node.actions)
                self.problem(f"illegal action {label!r} here (legal: {legal})", key, action=label)
                ok = False
            action_pos[label] = j
        for label in node.actions:
            if label not in action_pos:
                self.problem("missing action column", key, action=label)
                ok = False
        unknown = [h for h in hands if h not in index]
        for h in unknown:
            self.problem(f"unknown hand {h!r} for this game", key, hand=str(h))
        seen = {h for h in hands if h in index}
        if len(seen) != len(hands) - len(unknown):
            self.problem("a hand is listed twice", key)
            ok = False
        for h in self.game.hand_labels[player]:
            if h not in seen:
                self.problem("missing hand", key, hand=h)
                ok = False
        if len(compact.probs) != len(hands):
            self.problem(f"{len(compact.probs)} probability rows for {len(hands)} hands", key)
            return None
        if any(len(row) != len(compact.actions) for row in compact.probs):
            self.problem(f"every probability row needs {len(compact.actions)} entries", key)
            return None
        if not ok or unknown:
            return None
        table = np.asarray(compact.probs, dtype=float)
        rows = np.zeros((self.game.n_hands[player], len(node.actions)))
        order = [index[h] for h in hands]
        rows[order] = table[:, [action_pos[a] for a in node.actions]]
        return rows if self._check_rows(key, node, rows, self.game.hand_labels[player]) else None

    def read_per_hand(self, key: str, node, body: dict) -> np.ndarray | None:
        player = node.player
        labels = self.game.hand_labels[player]
        index = self._hand_index(player)
        rows = np.zeros((len(labels), len(node.actions)))
        ok = True
        broken: set[int] = set()
        for hand, probs in body.items():
            if hand not in index:
                self.problem(f"unknown hand {hand!r} for this game", key, hand=hand)
                ok = False
                continue
            if not isinstance(probs, dict):
                self.problem("a hand maps action labels to probabilities", key, hand=hand)
                ok = False
                broken.add(index[hand])
                continue
            for action, prob in probs.items():
                if action not in node.actions:
                    legal = ", ".join(node.actions)
                    self.problem(f"illegal action here (legal: {legal})", key, hand, action)
                    broken.add(index[hand])
                elif not _is_number(prob):
                    self.problem(f"probability {prob!r} is not a number", key, hand, action)
                    broken.add(index[hand])
                else:
                    rows[index[hand], node.actions.index(action)] = float(prob)
        for h, hand in enumerate(labels):
            if hand not in body:
                self.problem("missing hand", key, hand=hand)
                broken.add(h)
        values_ok = self._check_rows(key, node, rows, labels, skip=sorted(broken))
        return rows if ok and values_ok and not broken else None

    def read_ranges(self, key: str, node, body: dict) -> np.ndarray | None:
        if _holdem_view(self.game, node.player) is None:
            self.problem("range strings are only for hold'em games; give per-hand rows", key)
            return None
        player = node.player
        rows = np.zeros((self.game.n_hands[player], len(node.actions)))
        given = []
        ok = True
        for action, text in body.items():
            if action not in node.actions:
                legal = ", ".join(node.actions)
                self.problem(f"illegal action here (legal: {legal})", key, action=action)
                ok = False
                continue
            try:
                rows[:, node.actions.index(action)] = range_to_hand_weights(self.game, text, player)
            except InputError as exc:
                self.problem(f"bad range: {str(exc).splitlines()[0]}", key, action=action)
                ok = False
                continue
            given.append(action)
        missing = [a for a in node.actions if a not in given]
        if ok and len(missing) > 1:
            self.problem(
                f"give ranges for all actions but one; {', '.join(missing)} are missing", key
            )
            return None
        if not ok:
            return None
        if missing:
            rest = node.actions.index(missing[0])
            rows[:, rest] = 1.0 - rows.sum(axis=1)
            labels = self.game.hand_labels[player]
            for h in np.flatnonzero(rows[:, rest] < -ROW_TOLERANCE):
                self.problem("the given ranges add up to more than 1", key, labels[h])
                ok = False
            rows[:, rest] = np.clip(rows[:, rest], 0.0, 1.0)
        if not ok:
            return None
        return rows if self._check_rows(key, node, rows, self.game.hand_labels[player]) else None


def _in_tree(game: TreeGame, key: str) -> bool:
    try:
        game.node_by_key(key)
    except InputError:
        return False
    return True


def _holdem_view(game: TreeGame, player: int) -> str | None:
    """``"classes"`` or ``"combos"`` when a player's hands are hold'em starting hands."""
    labels = tuple(game.hand_labels[player])
    if labels == CLASS_LABELS:
        return "classes"
    if labels == COMBO_LABELS:
        return "combos"
    return None


def range_to_hand_weights(game: TreeGame, text: str, player: int) -> np.ndarray:
    """A range string as one weight per hand of ``player`` (169 classes or 1326 combos).

    In a game whose hands are classes, every combo of a class must carry the same weight.
    """
    if not isinstance(text, str):
        raise InputError('a range must be a string such as "22+,A2s+"')
    combos = parse_range(text)
    view = _holdem_view(game, player)
    if view == "combos":
        return combos
    if view != "classes":
        raise InputError(f"{game.name} hands are not hold'em hands; ranges do not apply")
    by_class = combos_to_classes(combos)
    mixed = np.flatnonzero(np.abs(classes_to_combos(by_class) - combos) > 1e-12)
    if mixed.size:
        label = CLASS_LABELS[int(COMBO_CLASS[mixed[0]])]
        raise InputError(f"{label}: this game's strategies are per class; give the whole class")
    return by_class


def _default_rows(game: TreeGame, node, defaults: str) -> np.ndarray:
    n_hands, width = game.n_hands[node.player], len(node.actions)
    if defaults == "uniform":
        return np.full((n_hands, width), 1.0 / width)
    passive = next((a for a in ("check", "fold") if a in node.actions), node.actions[0])
    rows = np.zeros((n_hands, width))
    rows[:, node.actions.index(passive)] = 1.0
    return rows


def _parse_header(data: dict[str, Any], source: str, locate: _Locator):
    problems: list[Problem] = []
    version = data.get("format_version", FORMAT_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        problems.append(Problem(f"format_version must be a positive integer, not {version!r}"))
    elif version > FORMAT_VERSION:
        problems.append(
            Problem(
                f"format_version {version} is newer than this pokertui understands "
                f"({FORMAT_VERSION}); upgrade pokertui to read it"
            )
        )
    known = set(StrategyFileModel.model_fields)
    for extra in sorted(set(data) - known):
        problems.append(Problem(f"unknown field {extra!r} (known: {', '.join(sorted(known))})"))
    game = None
    spec = data.get("game")
    if not isinstance(spec, str):
        problems.append(Problem("'game' must be a game spec string such as \"kuhn(cards=3)\""))
    else:
        try:
            game = load_game(spec)
        except InputError as exc:
            problems.append(Problem(f"unknown game or parameter: {exc}"))
    defaults = data.get("defaults")
    if defaults not in (None, "uniform", "check_fold"):
        problems.append(Problem(f'defaults must be "uniform" or "check_fold", not {defaults!r}'))
        defaults = None
    headers: dict[str, Any] = {}
    for name, model in (("solver", SolverInfo), ("measured", Measured)):
        if data.get(name) is None:
            headers[name] = None
            continue
        try:
            headers[name] = model.model_validate(data[name])
        except ValidationError as exc:
            headers[name] = None
            for err in exc.errors():
                where = ".".join(str(p) for p in err["loc"])
                problems.append(Problem(f"{name}.{where}: {err['msg']}"))
    return game, defaults, headers, problems


def loads_strategy(text: str, source: str = "<string>") -> StrategyFile:
    """Parse and validate a strategy file's text; raises ``StrategyFileError`` with all problems."""
    if len(text.encode("utf-8", errors="replace")) > MAX_FILE_BYTES:
        raise StrategyFileError(source, [Problem(_too_big(len(text)))])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StrategyFileError(
            source, [Problem(f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)]
        ) from None
    except RecursionError:
        raise StrategyFileError(source, [Problem("invalid JSON: nested too deeply")]) from None
    if not isinstance(data, dict):
        raise StrategyFileError(source, [Problem("a strategy file is a JSON object")])
    locate = _Locator(text)
    game, defaults, headers, problems = _parse_header(data, source, locate)
    if game is None:
        raise StrategyFileError(source, problems)
    reader = _Reader(data, game, locate)
    strategy, filled = reader.read_nodes(defaults)
    problems += reader.problems
    if problems:
        raise StrategyFileError(source, problems)
    return StrategyFile(
        game, strategy, headers["solver"], headers["measured"], source, defaults, filled
    )


def _too_big(size: int) -> str:
    return f"file is {size / 1e6:.0f} MB; the limit is {MAX_FILE_BYTES // (1024 * 1024)} MB"


def load_strategy(path: str | os.PathLike) -> StrategyFile:
    """Read and validate a strategy file; ``StrategyFileError`` for anything wrong with it."""
    path = Path(path)
    source = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise StrategyFileError(source, [Problem(_too_big(size))])
        raw = path.read_bytes()
    except OSError as exc:
        problem = Problem(f"cannot read the file: {exc.strerror}")
        raise StrategyFileError(source, [problem]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StrategyFileError(source, [Problem("the file is not UTF-8 text")]) from None
    return loads_strategy(text, source)


# --- writing ----------------------------------------------------------------------------------


def round_rows(rows: np.ndarray, precision: int = DEFAULT_PRECISION) -> np.ndarray:
    """Round to ``precision`` decimals keeping each row a distribution (the largest entry absorbs
    the rounding error)."""
    rounded = np.round(np.clip(rows, 0.0, 1.0), precision)
    residual = 1.0 - rounded.sum(axis=1)
    biggest = rounded.argmax(axis=1)
    rounded[np.arange(len(rows)), biggest] += residual
    return np.round(rounded, precision + 3)


def rounded_strategy(game: TreeGame, strategy: Strategy, precision: int = DEFAULT_PRECISION):
    return {n.id: round_rows(np.asarray(strategy[n.id]), precision) for n in game.decision_nodes()}


def measure(game: TreeGame, strategy: Strategy) -> Measured:
    from solvers.evaluation import exploitability  # noqa: PLC0415 - avoid an import cycle

    report = exploitability(game, strategy)
    pot = report.pot_percent
    return Measured(
        exploitability=report.exploitability,
        nash_conv=report.nash_conv,
        best_response_values=(report.best_responses[0].value, report.best_responses[1].value),
        game_value=report.game_value,
        mbb_per_hand=report.mbb_per_hand,
        pot_percent=None if pot is None or not math.isfinite(pot) else pot,
    )


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def to_document(
    game: TreeGame,
    strategy: Strategy,
    *,
    form: str = "compact",
    solver: SolverInfo | None = None,
    measured: Measured | None = None,
    defaults: str | None = None,
) -> dict[str, Any]:
    """The JSON object of a strategy file in either form."""
    nodes: dict[str, Any] = {}
    for node in game.decision_nodes():
        rows = np.asarray(strategy[node.id])
        hands = game.hand_labels[node.player]
        if form == "compact":
            nodes[node.key] = {
                "actions": list(node.actions),
                "hands": list(hands),
                "probs": [[_number(x) for x in row] for row in rows.tolist()],
            }
        elif form == "readable" and _holdem_view(game, node.player) is not None:
            spread = classes_to_combos if _holdem_view(game, node.player) == "classes" else None
            nodes[node.key] = {  # every action but the last, which takes the rest
                action: format_range(spread(rows[:, a]) if spread else rows[:, a])
                for a, action in enumerate(node.actions[:-1])
            }
        elif form == "readable":
            nodes[node.key] = {
                hand: {a: _number(p) for a, p in zip(node.actions, row, strict=True) if p > 0}
                for hand, row in zip(hands, rows.tolist(), strict=True)
            }
        else:
            raise InputError(f"form must be 'compact' or 'readable', not {form!r}")
    doc: dict[str, Any] = {"format_version": FORMAT_VERSION, "game": game.spec_string()}
    doc["form"] = form
    if defaults:
        doc["defaults"] = defaults
    if solver is not None:
        doc["solver"] = solver.model_dump()
    if measured is not None:
        doc["measured"] = measured.model_dump()
    doc["nodes"] = nodes
    return doc


def dumps_document(doc: dict[str, Any]) -> str:
    """Readable JSON: one line per node row, so files diff and read well."""
    head = {k: v for k, v in doc.items() if k != "nodes"}
    text = json.dumps(head, indent=1)[:-2] + ',\n "nodes": {\n'
    parts = []
    for key, node in doc["nodes"].items():
        if doc.get("form") != "compact":
            inner = ",\n   ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in node.items())
            parts.append(f"  {json.dumps(key)}: {{\n   {inner}}}")
            continue
        rows = ",\n    ".join(json.dumps(row) for row in node["probs"])
        parts.append(
            f'  {json.dumps(key)}: {{"actions": {json.dumps(node["actions"])}, '
            f'"hands": {json.dumps(node["hands"])},\n   "probs": [\n    {rows}]}}'
        )
    return text + ",\n".join(parts) + "\n }\n}\n"


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write to a temporary file beside ``path``, fsync, then rename over it: never half a file."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        umask = os.umask(0)
        os.umask(umask)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask
        os.chmod(tmp, mode)  # mkstemp makes 0600 files; keep what a plain write would give
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_strategy(
    path: str | os.PathLike,
    game: TreeGame,
    strategy: Strategy,
    *,
    solver: SolverInfo | None = None,
    form: str = "compact",
    precision: int = DEFAULT_PRECISION,
    measure_it: bool = True,
) -> StrategyFile:
    """Round, measure (exact best response of the rounded profile) and write atomically."""
    rounded = rounded_strategy(game, strategy, precision)
    measured = measure(game, rounded) if measure_it else None
    doc = to_document(game, rounded, form=form, solver=solver, measured=measured)
    atomic_write_text(path, dumps_document(doc))
    return StrategyFile(game, rounded, solver, measured, str(path))
