"""The card abstraction of the full game: which bucket a hand is in on each street.

Preflop is lossless (the 169 classes). With ``hs2``, on the flop, turn and river a hand's
bucket is its E[HS^2] percentile (``hand_features``): ``n`` buckets of about equal numbers of
dealt hands, ordered from weakest (0) to strongest (n - 1). Recall is imperfect: each street's
bucket is computed afresh, so a flop bucket and a turn bucket can pair any way.

``pa`` (potential-aware, ``potential_buckets``) clusters turn hands by their histogram of river
strength and flop hands by their histogram of turn buckets, both under the earth mover's
distance; its river buckets are the ``hs2`` ones.

Either kind's river may instead be ``ochsN`` (``ochs_buckets``): ``N`` clusters of the hands'
equities against eight clusters of opponent hands (opponent-cluster hand strength), which
tells apart hands that beat the same share of all hands but not the same hands.

A street may instead be ``combo``: the bucket is the hole combo itself (1,326 buckets). That
is lossless only while the board is fixed, as in a river subgame test; over many boards it
puts the same hole cards on every board in one bucket.

``spec`` is the text that rebuilds an abstraction (``parse_abstraction``), recorded in
blueprint file headers: ``hs2(flop=50,turn=50,river=50)``, ``pa(flop=50,turn=50,river=50)``
or ``pa(flop=50,turn=50,river=ochs200)``.
"""

from __future__ import annotations

import re

import numpy as np

from solvers.abstraction import boards as board_sets
from solvers.abstraction import bucket_tables as tables
from solvers.abstraction import hand_features as hf
from solvers.abstraction import ochs_buckets as ochs
from solvers.abstraction import potential_buckets as pa
from solvers.cards.deck import COMBO_CARDS, COMBO_CLASS, COMBO_INDEX, N_CLASSES, N_COMBOS
from solvers.errors import InputError

COMBO = "combo"
MAX_BUCKETS = 1000
DEFAULT_BUCKETS = 50
HS2, PA = "hs2", "pa"
KINDS = (HS2, PA)
OCHS = "ochs"
"""A river spelled ``ochsN``: ``N`` opponent-cluster hand strength buckets."""
_COMBO_INDEX = COMBO_INDEX.astype(np.int64)
_COMBO_CLASS = COMBO_CLASS.astype(np.int64)
_FIELD = re.compile(r"^\s*(flop|turn|river)\s*=\s*([A-Za-z0-9_]+)\s*$")


class CardAbstraction:
    """Buckets per street; ``flop``, ``turn``, ``river`` are bucket counts or ``"combo"``
    (the river also ``"ochsN"``); ``kind`` is ``"hs2"`` (E[HS^2] percentiles) or ``"pa"``
    (potential-aware clusters)."""

    def __init__(
        self, flop: int | str = DEFAULT_BUCKETS, turn: int | str = DEFAULT_BUCKETS,
        river: int | str = DEFAULT_BUCKETS, kind: str = HS2,
    ) -> None:  # fmt: skip
        if kind not in KINDS:
            raise InputError(f"unknown card abstraction kind {kind!r}; known: {', '.join(KINDS)}")
        self.kind = kind
        self.river_kind = HS2
        if isinstance(river, str) and river.strip().lower().startswith(OCHS):
            self.river_kind, river = OCHS, river.strip()[len(OCHS) :]
        given = (("flop", flop), ("turn", turn), ("river", river))
        self.streets: tuple[int | str, ...] = (N_CLASSES,) + tuple(
            _check(name, value) for name, value in given
        )
        if kind == PA:
            _check_pa(self.streets)
        if self.river_kind == OCHS and (
            self.streets[3] == COMBO or int(self.streets[3]) > ochs.MAX_OCHS_BUCKETS
        ):
            raise InputError(f"ochs river buckets must lie in 1..{ochs.MAX_OCHS_BUCKETS}, "
                             f"not {self.streets[3]}")  # fmt: skip
        self._tables: dict[int, np.ndarray] = {}

    @property
    def n_buckets(self) -> tuple[int, int, int, int]:
        counts = [N_COMBOS if v == COMBO else int(v) for v in self.streets]
        return counts[0], counts[1], counts[2], counts[3]

    @property
    def spec(self) -> str:
        flop, turn, river = self.streets[1:]
        river = f"{OCHS}{river}" if self.river_kind == OCHS else river
        return f"{self.kind}(flop={flop},turn={turn},river={river})"

    def __repr__(self) -> str:
        return f"CardAbstraction({self.spec!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, CardAbstraction) and other.kind == self.kind
                and other.streets == self.streets
                and other.river_kind == self.river_kind)  # fmt: skip

    def __hash__(self) -> int:
        return hash((self.kind, self.streets, self.river_kind))

    # -- tables -------------------------------------------------------------------------
    def prepare(self, progress: tables.Progress = None) -> None:
        """Load (building and caching if needed) every table ``deal_buckets`` reads."""
        for street in (1, 2, 3):
            self._table(street, progress)

    def is_cached(self) -> bool:
        """Can ``prepare`` load every table without building one?"""
        return all(
            self.streets[s] == COMBO or s in self._tables or self._cached(s) for s in (1, 2, 3)
        )

    def _cached(self, street: int) -> bool:
        if self.kind == PA and street in (1, 2):
            return pa.cached(street, *self._pa_counts())
        if street == 3 and self.river_kind == OCHS:
            return ochs.cached(int(self.streets[3]))
        return tables.cached(street, int(self.streets[street]))

    def _pa_counts(self) -> tuple[int, int]:
        """``pa``'s flop and turn counts (a combo flop still reads no flop table)."""
        flop, turn = self.streets[1], self.streets[2]
        return (int(flop) if flop != COMBO else 0), int(turn)

    def _table(self, street: int, progress: tables.Progress = None) -> np.ndarray | None:
        if self.streets[street] == COMBO:
            return None
        if street not in self._tables:
            n = int(self.streets[street])
            if self.kind == PA and street == 1:
                self._tables[street] = pa.flop_table(n, self._pa_counts()[1], progress)
            elif self.kind == PA and street == 2:
                self._tables[street] = pa.turn_table(n, progress)
            elif street == 3 and self.river_kind == OCHS:
                self._tables[street] = ochs.river_table(n, progress)
            else:
                self._tables[street] = tables.bucket_table(street, n, progress)
        return self._tables[street]

    # -- buckets ------------------------------------------------------------------------
    def deal_buckets(self, holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """Bucket of each seat on each street of each deal: int16 ``[n, 2, 4]``.

        ``holes[n, 2, 2]`` are the seats' hole cards and ``boards[n, 5]`` the full boards; the
        deals must be valid (no card twice), which the sampler guarantees. The first call
        builds the tables if they are not cached (``hs2`` about a minute, ``pa`` four to eight
        minutes; ``prepare`` does it early).
        """
        holes = np.ascontiguousarray(holes, dtype=np.int64)
        boards = np.ascontiguousarray(boards, dtype=np.int64)
        if holes.ndim != 3 or holes.shape[1:] != (2, 2) or boards.shape != (len(holes), 5):
            raise ValueError(f"deals are holes[n, 2, 2] and boards[n, 5], got "
                             f"{holes.shape} and {boards.shape}")  # fmt: skip
        out = np.empty((len(holes), 2, 4), dtype=np.int16)
        by_combo = np.array([s == COMBO for s in self.streets])
        keys = [board_sets.canonical_boards(k)[0] for k in (3, 4, 5)]
        none = np.zeros((1, 1), dtype=np.uint8)
        found = [self._table(street) for street in (1, 2, 3)]
        looked_up = [none if t is None else t.view(np.ndarray) for t in found]
        hf.lookup_kernels().deal_buckets(
            holes, boards, _COMBO_INDEX, _COMBO_CLASS, *keys, *looked_up, by_combo, out
        )
        return out

    def combo_buckets(self, board: np.ndarray, street: int) -> np.ndarray:
        """Bucket of all 1,326 combos on ``board`` at ``street`` (-1 if the board blocks it).

        ``board`` holds at least the street's cards (extra cards are ignored). Reads the
        cached tables when they exist; otherwise computes the one board (``hs2``: a flop ~30 ms;
        ``pa``: from the cached centroids, a turn ~2 ms, a flop ~0.1 s, the centroids being
        fitted first, with the tables, if they are not cached).
        """
        board = _check_board(board, street)
        if street == 0:
            return COMBO_CLASS.astype(np.int16)
        blocked = hf.blocked_mask(board[None, :])[0]
        if self.streets[street] == COMBO:
            buckets = np.arange(N_COMBOS, dtype=np.int16)
        elif street in self._tables or self._cached(street):
            table = self._table(street)
            assert table is not None
            rows, perm = board_sets.board_index(board[None, :])
            seen = board_sets.relabel(COMBO_CARDS[None, :, :].astype(np.int64), perm)[0]
            buckets = table[rows[0], COMBO_INDEX[seen[:, 0], seen[:, 1]]].astype(np.int16)
        elif self.kind == PA and street in (1, 2):
            buckets = pa.board_buckets(board, street, *self._pa_counts())
        elif street == 3 and self.river_kind == OCHS:
            buckets = ochs.board_buckets(board, int(self.streets[3]))
        else:
            name = hf.STREET_NAMES[street]
            lookup = hf.percentile_buckets(hf.shipped_histograms()[name], self.n_buckets[street])
            buckets = lookup[np.maximum(hf.features(board[None, :], street)[0], 0)]
        return np.where(blocked, np.int16(-1), buckets).astype(np.int16)


def _check(name: str, value: int | str) -> int | str:
    if isinstance(value, str):
        if value.strip().lower() == COMBO:
            return COMBO
        if not value.strip().isdigit():
            raise InputError(f"{name} buckets must be a whole number or 'combo'"
                             f"{' (the river also ochsN)' if name == 'river' else ''}, "
                             f"not {value!r}")  # fmt: skip
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise InputError(f"{name} buckets must be a whole number or 'combo', not {value!r}")
    if not 1 <= value <= MAX_BUCKETS:
        raise InputError(f"{name} buckets must lie in 1..{MAX_BUCKETS}, not {value}")
    return int(value)


def _check_pa(streets: tuple[int | str, ...]) -> None:
    for name, value in zip(("flop", "turn"), streets[1:3], strict=True):
        if value != COMBO and int(value) > pa.MAX_PA_BUCKETS:
            raise InputError(f"pa {name} buckets must lie in 1..{pa.MAX_PA_BUCKETS}, not {value}")
    if streets[2] == COMBO and streets[1] != COMBO:
        raise InputError("pa flop buckets are built from turn buckets: give turn a count")


def _check_board(board, street: int) -> np.ndarray:
    if street not in (0, 1, 2, 3):
        raise InputError(f"street must be 0 (preflop) to 3 (river), not {street!r}")
    board = np.asarray(board, dtype=np.int64).ravel()
    k = hf.STREET_CARDS.get(street, 0)
    if board.size < k:
        raise InputError(f"the {hf.STREET_NAMES[street]} needs {k} board cards, got {board.size}")
    board = board[:k]
    if board.size and (board.min() < 0 or board.max() > 51 or np.unique(board).size != k):
        raise InputError(f"board cards must be distinct ids in 0..51, got {board.tolist()}")
    return board


def parse_abstraction(text: str) -> CardAbstraction:
    """``hs2(flop=50,turn=50,river=50)`` or ``pa(...)`` (without a wrapper: ``hs2``; fields in
    any order, missing ones at the default) into a ``CardAbstraction``; ``InputError`` if
    unreadable."""
    if not isinstance(text, str) or len(text) > 200:
        raise InputError("a card abstraction is text such as 'hs2(flop=50,turn=50,river=50)'")
    body, kind = text.strip(), HS2
    match = re.fullmatch(r"([A-Za-z0-9_]*)\s*\((.*)\)", body, flags=re.S)
    if match:
        kind, body = match.group(1).lower(), match.group(2)
        if kind not in KINDS:
            raise InputError(f"unknown card abstraction {text!r}; the kinds are "
                             "hs2(flop=..,turn=..,river=..) and pa(...)")  # fmt: skip
    elif "(" in body or ")" in body:
        raise InputError(f"unknown card abstraction {text!r}; the kinds are "
                         "hs2(flop=..,turn=..,river=..) and pa(...)")  # fmt: skip
    fields: dict[str, str] = {}
    for part in filter(str.strip, body.split(",")):
        field = _FIELD.match(part)
        if not field:
            raise InputError(
                f"cannot read {part.strip()!r} in card abstraction {text!r}; "
                "write flop=N, turn=N, river=N (N a bucket count or 'combo')"
            )
        if field.group(1) in fields:
            raise InputError(f"{field.group(1)} is given twice in card abstraction {text!r}")
        fields[field.group(1)] = field.group(2)
    return CardAbstraction(**fields, kind=kind)
