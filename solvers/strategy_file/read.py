"""Loading strategy files: every problem in one pass, never executing anything."""

from __future__ import annotations

import gzip
import json
import os
import stat
import zlib
from typing import Any

import numpy as np
from pydantic import ValidationError

from solvers.cards.deck import (
    CLASS_LABELS,
    COMBO_CLASS,
    COMBO_LABELS,
    classes_to_combos,
    combos_to_classes,
)
from solvers.cards.ranges import parse_range
from solvers.errors import InputError
from solvers.file_reading import DamagedFileError, gunzip
from solvers.games import load_game
from solvers.games.base import Strategy, TreeGame, spot_hand_combos
from solvers.strategy_file import model
from solvers.strategy_file.binary import load_binary
from solvers.strategy_file.binary_layout import is_binary
from solvers.strategy_file.model import (
    FORMAT_VERSION,
    ROW_TOLERANCE,
    CompactNode,
    LbrFigure,
    Measured,
    Problem,
    SolverInfo,
    StrategyFile,
    StrategyFileError,
    StrategyFileModel,
    StrategyFileTooBig,
)
from solvers.user_files import UserFileError, loads_user_json, read_user_file


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
        self.omitted = 0

    def problem(self, message: str, node=None, hand=None, action=None) -> None:
        if len(self.problems) >= model.MAX_PROBLEMS:
            self.omitted += 1  # counted only: locating every problem would be quadratic
            return
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
    """``"classes"`` or ``"combos"`` when a player's hands are hold'em starting hands, ``"spot"``
    when they are the live combos of a postflop spot (``game.hand_combos``)."""
    if getattr(game, "hand_combos", None) is not None:
        return "spot"
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
    if view == "spot":
        return combos[spot_hand_combos(game)[player]]
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
    headers: dict[str, Any] = {"lbr": []}
    figures = data.get("lbr") or []
    if not isinstance(figures, list):
        problems.append(Problem("'lbr' must be a list of LBR figures"))
        figures = []
    for index, figure in enumerate(figures):
        try:
            headers["lbr"].append(LbrFigure.model_validate(figure))
        except ValidationError as exc:
            for err in exc.errors():
                where = ".".join(str(p) for p in err["loc"])
                problems.append(Problem(f"lbr.{index}.{where}: {err['msg']}"))
    for name, header_model in (("solver", SolverInfo), ("measured", Measured)):
        if data.get(name) is None:
            headers[name] = None
            continue
        try:
            headers[name] = header_model.model_validate(data[name])
        except ValidationError as exc:
            headers[name] = None
            for err in exc.errors():
                where = ".".join(str(p) for p in err["loc"])
                problems.append(Problem(f"{name}.{where}: {err['msg']}"))
    return game, defaults, headers, problems


def loads_strategy(text: str, source: str = "<string>") -> StrategyFile:
    """Parse and validate a strategy file's text; raises ``StrategyFileError`` with all problems."""
    if (
        len(text) > model.MAX_FILE_BYTES
        or len(text.encode("utf-8", "replace")) > model.MAX_FILE_BYTES
    ):
        raise StrategyFileError(source, [Problem(_too_big(len(text)))])
    try:
        # NaN and infinities parse, so the reader can name the cell that holds them
        data = loads_user_json(text, "strategy file", allow_non_finite=True)
    except UserFileError as exc:
        raise StrategyFileError(source, [Problem(exc.reason, line=exc.line)]) from None
    if not isinstance(data, dict):
        raise StrategyFileError(source, [Problem("a strategy file is a JSON object")])
    locate = _Locator(text)
    game, defaults, headers, problems = _parse_header(data, source, locate)
    if game is None:
        raise StrategyFileError(source, problems)
    reader = _Reader(data, game, locate)
    strategy, filled = reader.read_nodes(defaults)
    return _loaded(source, game, strategy, filled, defaults, headers, problems, reader)


def _loaded(source, game, strategy, filled, defaults, headers, problems, reader) -> StrategyFile:
    """The ``StrategyFile``, or every problem found (header's and nodes') as one error."""
    problems = problems + reader.problems
    if problems:
        raise StrategyFileError(source, problems, reader.omitted)
    loaded = StrategyFile(
        game, strategy, headers["solver"], headers["measured"], source, defaults, filled
    )
    loaded.lbr = headers["lbr"]
    return loaded


def _too_big(size: int) -> str:
    return f"file is {size / 1e6:.0f} MB; the limit is {model.MAX_FILE_BYTES // (1024 * 1024)} MB"


def load_strategy(path: str | os.PathLike, lazy: bool = False) -> StrategyFile:
    """Read and validate a strategy file; ``StrategyFileError`` for anything wrong with it.

    A file over the size limit that pokertui wrote in the compact form (a solved flop spot is
    a GB of JSON) is read node by node instead (``_load_streamed``). A binary file
    (``binary.py``, a flop spot's) is memory-mapped and checked whole, or with ``lazy`` its
    frame and offsets now and each node's rows when read (a report on one node of a flop)."""
    if is_binary(path):
        return load_binary(path, check=not lazy)
    try:
        return loads_strategy(read_strategy_text(path), str(path))
    except StrategyFileTooBig:
        streamed = _load_streamed(path)
        if streamed is None:
            raise
        return streamed


STREAM_LIMIT = 8 * 1024**3
"""Largest compact file (inflated) read node by node."""
STREAM_LINE_LIMIT = 16 * 1024**2
"""Longest line read node by node (a line is a hand's row, or a node's actions and hands)."""
_NODES_LINE = ' "nodes": {'


def _stream_lines(path: str | os.PathLike):
    """The lines of a regular file, plain or gzip, bounded by ``STREAM_LIMIT``."""
    source = str(path)
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise StrategyFileError(source, [Problem("not a regular file")])
    with open(path, "rb") as probe:
        zipped = probe.read(2) == b"\x1f\x8b"
    total = 0
    with gzip.open(path, "rb") if zipped else open(path, "rb") as handle:
        while raw := handle.readline(STREAM_LINE_LIMIT + 1):
            if len(raw) > STREAM_LINE_LIMIT:  # pokertui writes one hand's row per line
                limit = STREAM_LINE_LIMIT // 1_000_000
                problem = Problem(f"a line over {limit} MB: not a file pokertui wrote")
                raise StrategyFileError(source, [problem])
            total += len(raw)
            if total > STREAM_LIMIT:
                limit = STREAM_LIMIT // 1_000_000
                raise StrategyFileError(source, [Problem(f"the file is over {limit} MB")])
            yield raw.decode("utf-8", "replace")


def _load_streamed(path: str | os.PathLike) -> StrategyFile | None:
    """A big compact strategy file in ``document_chunks``' layout, one node at a time (each
    validated as ``loads_strategy`` would); None when the file is not in that layout."""
    source = str(path)
    lines = _stream_lines(path)
    head: list[str] = []
    try:
        for line in lines:
            if line.rstrip("\n") == _NODES_LINE:
                break
            head.append(line)
        else:
            return None
        data = json.loads("".join(head).rstrip().rstrip(",") + "\n}")
    except StrategyFileError:  # the line and size bounds of _stream_lines
        raise
    except (OSError, EOFError, zlib.error, ValueError):
        return None
    if not isinstance(data, dict) or data.get("form") != "compact":
        return None
    game, defaults, headers, problems = _parse_header(data, source, _Locator(""))
    if game is None:
        raise StrategyFileError(source, problems)
    reader = _Reader({}, game, _Locator(""))
    decision = {n.key: n for n in game.decision_nodes()}
    strategy: Strategy = {}
    block: list[str] = []
    try:
        for line in lines:
            if not block and not line.startswith('  "'):
                continue  # the closing braces
            block.append(line)
            if not line.rstrip().rstrip(",").endswith("]}"):
                continue
            ((key, body),) = json.loads("{" + "".join(block).strip().rstrip(",") + "}").items()
            block = []
            node = decision.get(key)
            if node is None:
                reader.problem(f"extra node: {key!r} is not a decision node", node=key)
                continue
            rows = reader.read_node(key, node, body)
            if rows is not None:
                strategy[node.id] = rows
    except StrategyFileError:
        raise
    except (OSError, EOFError, zlib.error, ValueError) as exc:
        raise StrategyFileError(source, [Problem(f"unreadable node data: {exc}")]) from None
    filled: list[str] = []
    for key, node in decision.items():
        if node.id in strategy or any(p.node == key for p in reader.problems):
            continue
        if defaults is None:
            reader.problem("missing node", node=key)
        else:
            strategy[node.id] = _default_rows(game, node, defaults)
            filled.append(key)
    return _loaded(source, game, strategy, filled, defaults, headers, problems, reader)


def read_strategy_text(path: str | os.PathLike) -> str:
    """A strategy file's text, plain or gzip: only a regular file, bounded before and after
    inflating; ``StrategyFileError`` otherwise. Every reader of strategy files goes through it."""
    source = str(path)
    try:
        raw = read_user_file(path, model.MAX_FILE_BYTES, "strategy file")
    except UserFileError as exc:
        try:
            info = os.stat(path)
        except OSError:
            info = None
        if info is not None and stat.S_ISREG(info.st_mode) and info.st_size > model.MAX_FILE_BYTES:
            raise StrategyFileTooBig(source, [Problem(exc.reason)]) from None
        raise StrategyFileError(source, [Problem(exc.reason)]) from None
    if raw[:2] == b"\x1f\x8b":  # gzip (.json.gz), as written for big hold'em trees
        raw = _gunzip(source, raw)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StrategyFileError(source, [Problem("the file is not UTF-8 text")]) from None


def _gunzip(source: str, raw: bytes) -> bytes:
    """Inflate a whole gzip file, refusing one that inflates past the size limit (a zip bomb),
    is broken, cut short or followed by other bytes."""
    try:
        data = gunzip(raw, model.MAX_FILE_BYTES, source, "strategy")
    except DamagedFileError as exc:
        raise StrategyFileError(source, [Problem(f"damaged gzip data: {exc.detail}")]) from None
    if data is None:
        limit = model.MAX_FILE_BYTES // 1_000_000
        problem = Problem(f"the file inflates to more than the {limit} MB limit")
        raise StrategyFileTooBig(source, [problem])
    return data
