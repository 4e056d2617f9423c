"""Exact class-vs-class win and tie tables with card removal, for flop poker and push/fold.

Flop poker (Goykhman, "On self-play computation of equilibrium in poker", seed 000, §5) needs, for
every pair of the 169 starting-hand classes, the probability that class 1 beats or ties class 2
after a 3-card flop; heads-up push/fold needs the same with a 5-card board (the preflop all-in
table). Both are computed here EXACTLY by the project's own evaluator: every compatible pair of
combos (no shared card) is weighted uniformly, and every board from the 48 remaining cards too.

Method, per board size k (3 or 5):

* Boards are enumerated up to suit permutation: each of the C(52, k) boards is mapped to the
  smallest of its 24 suit-permuted card masks, giving 1,755 flops and 134,459 five-card boards,
  each with its multiplicity (orbit size). Any member of an orbit represents it.
* Summing over a board's whole orbit is the same as summing its contribution once times the
  multiplicity, *after* aggregating combos into classes: a suit permutation maps a class onto
  itself, so class sums are invariant. Only class-level sums are accumulated.
* Per board all 1326 combos are evaluated once (combos touching the board are dead). Class wins
  ``W0[a, b] = #{(i in a, j in b) both live: s_i > s_j}`` come from one matrix product per batch
  of boards: with the board's distinct strength levels t, ``A[a, t]`` counts class a's combos at
  level t and ``C[b, t]`` counts class b's combos strictly below it, and ``W0 = (m A) C^T``,
  the boards' levels laid side by side (float32 is exact: a board adds at most 144 * 24 to an
  entry, and a batch stays below 2**24).
* ``W0`` also counts pairs that share a card, which cannot be dealt. Two distinct combos share at
  most one card c, so those pairs are removed card by card: for combos {c, x} and {c, y} the
  wins are accumulated per (c, x, y) and mapped to class pairs at the end.
* Ties need no comparison: every compatible pair sees exactly C(48, k) boards, so
  ``T = pairs * C(48, k) - W - W^T``.

Results: ``win[a, b]`` and ``tie[a, b]`` (probabilities over compatible combo pairs and boards,
``win[a, b] + win[b, a] + tie[a, b] == 1``) and ``pairs[a, b]``, the number of ordered
compatible combo pairs (the joint prior of the two classes, before normalising by 1326 * 1225).

Regenerate the shipped files with
``python -m solvers.cards.preflop_tables --out solvers/cards/data``; the output is byte-identical
from run to run. On the 2-core development machine the flop table
takes 2 to 5 s (one process) and the 5-card table 160 s with two worker processes (about 4 CPU
minutes; 263 s when a third job shared the cores). Loading a shipped table takes milliseconds.
"""

from __future__ import annotations

import argparse
import itertools
import time
from dataclasses import dataclass
from functools import cache
from math import comb
from pathlib import Path

import numpy as np

from solvers.cards import evaluator
from solvers.cards.combinatorics import colex_subsets
from solvers.cards.deck import (
    CLASS_LABELS,
    COMBO_CARDS,
    COMBO_CLASS,
    COMBO_INDEX,
    N_CARDS,
    N_CLASSES,
    N_COMBOS,
)

DATA_DIR = Path(__file__).parent / "data"
TABLE_FILES = {3: "flop_table.npz", 5: "preflop_allin_table.npz"}
FORMAT_VERSION = 1

_COMBO_KEYS = evaluator.key_sum(COMBO_CARDS)
_COMBO_MASKS = evaluator.bit_mask(COMBO_CARDS)
_CARD_ID_BIT = np.uint64(1) << np.arange(N_CARDS, dtype=np.uint64)
_COMBO_ID_BITS = _CARD_ID_BIT[COMBO_CARDS[:, 0]] | _CARD_ID_BIT[COMBO_CARDS[:, 1]]
_LEVEL_STRIDE = 1 << 13  # strengths are below 7463 < 2**13
_BOARDS_PER_BATCH = 400  # 400 * 144 * 24 < 2**24 keeps the float32 sums exact


@dataclass(frozen=True)
class ClassTable:
    """Exact class-vs-class outcome probabilities over compatible combo pairs and boards."""

    board_cards: int
    win: np.ndarray
    """``[169, 169]`` probability that class a (row) beats class b (column)."""
    tie: np.ndarray
    """``[169, 169]`` probability of a split pot (symmetric)."""
    pairs: np.ndarray
    """``[169, 169]`` int: ordered pairs of compatible combos (i in a, j in b)."""

    @property
    def lose(self) -> np.ndarray:
        return self.win.T

    @property
    def equity(self) -> np.ndarray:
        """``win + tie / 2``: class a's share of the pot against class b."""
        return self.win + self.tie / 2

    @property
    def prior(self) -> np.ndarray:
        """Joint probability of the two players' classes (sums to 1)."""
        return self.pairs / self.pairs.sum()

    def equity_vs_random(self) -> np.ndarray:
        """Each class's equity against a uniformly random compatible hand."""
        return (self.pairs * self.equity).sum(axis=1) / self.pairs.sum(axis=1)


# --- boards up to suit permutation ----------------------------------------------------------


def _permute_suits(masks: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
    """Card-id bit masks with suit s renamed to ``perm[s]`` (card 4r+s is bit 4r+s)."""
    every_fourth = np.uint64(sum(1 << (4 * r) for r in range(13)))
    out = np.zeros_like(masks)
    for suit, target in enumerate(perm):
        out |= ((masks >> np.uint64(suit)) & every_fourth) << np.uint64(target)
    return out


@cache
def canonical_boards(k: int) -> tuple[np.ndarray, np.ndarray]:
    """One representative per suit-isomorphism class of k-card boards, and its multiplicity.

    Returns ``(boards [n, k] int8, multiplicity [n] int64)``; multiplicities sum to C(52, k).
    """
    boards = colex_subsets(N_CARDS, k)
    masks = _CARD_ID_BIT[boards[:, 0]].copy()
    for j in range(1, k):
        masks |= _CARD_ID_BIT[boards[:, j]]
    smallest = masks.copy()
    for perm in itertools.permutations(range(4)):
        np.minimum(smallest, _permute_suits(masks, perm), out=smallest)
    _, first, counts = np.unique(smallest, return_index=True, return_counts=True)
    return boards[first], counts.astype(np.int64)


# --- accumulation ---------------------------------------------------------------------------


@cache
def _card_partner_combos() -> np.ndarray:
    """``[52, 51]``: combo ids {c, x} for each card c and the 51 other cards x in order."""
    out = np.empty((N_CARDS, N_CARDS - 1), dtype=np.intp)
    for c in range(N_CARDS):
        others = [x for x in range(N_CARDS) if x != c]
        out[c] = COMBO_INDEX[c, others]
    return out


def _strengths(boards: np.ndarray) -> np.ndarray:
    """``[B, 1326]`` strength of every combo on every board; 0 for combos the board blocks."""
    n_cards = boards.shape[1] + 2
    board_ids = _CARD_ID_BIT[boards[:, 0]].copy()
    for j in range(1, boards.shape[1]):
        board_ids |= _CARD_ID_BIT[boards[:, j]]
    dead = (board_ids[:, None] & _COMBO_ID_BITS[None, :]) != 0
    board_keys = evaluator.key_sum(boards)
    board_masks = evaluator.bit_mask(boards)
    keys = board_keys[:, None] + _COMBO_KEYS[None, :]
    keys[dead] = evaluator.key_sum(np.arange(n_cards))  # any valid hand; zeroed below

    def masks_of(rows: np.ndarray) -> np.ndarray:
        return board_masks[rows // N_COMBOS] | _COMBO_MASKS[rows % N_COMBOS]

    strength = evaluator.evaluate_keys(keys, n_cards, masks_of)
    strength[dead] = 0
    return strength


def _class_wins_all_pairs(strength: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``sum_board weight * #{(i in a, j in b) live: s_i > s_j}`` (card sharing ignored)."""
    n_boards = strength.shape[0]
    board_of, combo = np.nonzero(strength)
    level_key = board_of.astype(np.int64) * _LEVEL_STRIDE + strength[board_of, combo]
    levels, level_of = np.unique(level_key, return_inverse=True)
    n_levels = levels.size
    counts = np.bincount(
        COMBO_CLASS[combo].astype(np.int64) * n_levels + level_of, minlength=N_CLASSES * n_levels
    ).reshape(N_CLASSES, n_levels)
    counts = counts.astype(np.float32)
    below = np.cumsum(counts, axis=1, dtype=np.float32) - counts  # exclusive, across boards
    level_board = levels // _LEVEL_STRIDE
    first_level = np.searchsorted(level_board, np.arange(n_boards))
    below -= below[:, first_level[level_board]]  # restart the count at each board
    weighted = counts * weight[level_board].astype(np.float32)
    return (weighted @ below.T).astype(np.float64)


def _shared_card_wins(strength: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``[52, 51, 51]``: weighted wins of combo {c, x} over {c, y}, both live."""
    partner = strength[:, _card_partner_combos()]  # [B, 52, 51]
    beats = partner[:, :, :, None] > partner[:, :, None, :]
    beats &= (partner > 0)[:, :, None, :]
    flat = beats.reshape(beats.shape[0], -1).astype(np.float32)
    return (weight.astype(np.float32) @ flat).astype(np.float64).reshape(N_CARDS, 51, 51)


def _accumulate(boards: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    strength = _strengths(boards)
    return _class_wins_all_pairs(strength, weight), _shared_card_wins(strength, weight)


def _accumulate_chunk(args: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    boards, weight = args
    wins = np.zeros((N_CLASSES, N_CLASSES))
    shared = np.zeros((N_CARDS, 51, 51))
    for start in range(0, len(boards), _BOARDS_PER_BATCH):
        stop = start + _BOARDS_PER_BATCH
        w, s = _accumulate(boards[start:stop], weight[start:stop])
        wins += w
        shared += s
    return wins, shared


@cache
def class_pair_counts() -> np.ndarray:
    """``[169, 169]`` ordered pairs of combos (i in a, j in b) that share no card."""
    compatible = (_COMBO_ID_BITS[:, None] & _COMBO_ID_BITS[None, :]) == 0
    onehot = np.zeros((N_COMBOS, N_CLASSES))
    onehot[np.arange(N_COMBOS), COMBO_CLASS] = 1.0
    return np.rint(onehot.T @ compatible @ onehot).astype(np.int64)


def compute_table(board_cards: int, processes: int = 1) -> ClassTable:
    """Compute the exact table for boards of ``board_cards`` (3 or 5) cards."""
    if board_cards not in (3, 5):
        raise ValueError(f"board_cards must be 3 or 5, not {board_cards}")
    evaluator.warm_up()
    boards, weight = canonical_boards(board_cards)
    n_chunks = max(1, processes) * 8 if processes > 1 else 1
    chunks = list(
        zip(np.array_split(boards, n_chunks), np.array_split(weight, n_chunks), strict=True)
    )
    if processes > 1:
        import multiprocessing  # noqa: PLC0415 - only the regeneration command uses it

        with multiprocessing.get_context("fork").Pool(processes) as pool:
            results = pool.map(_accumulate_chunk, chunks)
    else:
        results = [_accumulate_chunk(chunk) for chunk in chunks]
    wins_all = np.sum([r[0] for r in results], axis=0)
    shared = np.sum([r[1] for r in results], axis=0)

    # Map the shared-card wins {c, x} > {c, y} onto class pairs and remove them.
    partner = _card_partner_combos()
    cls_x = np.broadcast_to(COMBO_CLASS[partner][:, :, None], shared.shape)
    cls_y = np.broadcast_to(COMBO_CLASS[partner][:, None, :], shared.shape)
    shared_by_class = np.bincount(
        (cls_x.astype(np.int64) * N_CLASSES + cls_y).ravel(),
        weights=shared.ravel(),
        minlength=N_CLASSES * N_CLASSES,
    ).reshape(N_CLASSES, N_CLASSES)
    wins = wins_all - shared_by_class
    if np.abs(wins - np.rint(wins)).max() > 1e-6:  # pragma: no cover - guards the float32 sums
        raise AssertionError("class win counts are not whole numbers: an accumulator overflowed")
    wins = np.rint(wins)
    pairs = class_pair_counts()
    boards_per_pair = comb(N_CARDS - 4, board_cards)
    total = pairs * float(boards_per_pair)
    ties = total - wins - wins.T
    with np.errstate(invalid="ignore", divide="ignore"):
        win = np.where(pairs > 0, wins / total, 0.0)
        tie = np.where(pairs > 0, ties / total, 0.0)
    return ClassTable(board_cards, win, tie, pairs)


# --- files ----------------------------------------------------------------------------------


def save_table(table: ClassTable, path: Path) -> None:
    np.savez_compressed(
        path,
        format_version=np.array(FORMAT_VERSION),
        board_cards=np.array(table.board_cards),
        win=table.win,
        tie=table.tie,
        pairs=table.pairs,
        class_labels=np.array(CLASS_LABELS),
    )


def _read(path: Path, board_cards: int) -> ClassTable:
    with np.load(path) as data:
        if int(data["format_version"]) != FORMAT_VERSION or int(data["board_cards"]) != board_cards:
            raise ValueError(f"{path}: not a version {FORMAT_VERSION} {board_cards}-card table")
        if tuple(data["class_labels"].tolist()) != CLASS_LABELS:
            raise ValueError(f"{path}: class order differs from solvers.cards.deck")
        return ClassTable(board_cards, data["win"], data["tie"], data["pairs"])


_LOADED: dict[int, ClassTable] = {}


def load_table(board_cards: int, *, compute_if_missing: bool = True) -> ClassTable:
    """The shipped table for 3- or 5-card boards (computed and cached if the file is missing)."""
    if board_cards in _LOADED:
        return _LOADED[board_cards]
    if board_cards not in TABLE_FILES:
        raise ValueError(f"board_cards must be 3 or 5, not {board_cards}")
    path = DATA_DIR / TABLE_FILES[board_cards]
    if path.exists():
        table = _read(path, board_cards)
    elif compute_if_missing:
        table = compute_table(board_cards, processes=2 if board_cards == 5 else 1)
    else:
        raise FileNotFoundError(path)
    _LOADED[board_cards] = table
    return table


def flop_table() -> ClassTable:
    """Win/tie after a 3-card flop (flop poker)."""
    return load_table(3)


def preflop_allin_table() -> ClassTable:
    """Win/tie on a full 5-card board (preflop all-in, push/fold)."""
    return load_table(5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="directory for the .npz files")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    parser.add_argument("--only", type=int, choices=(3, 5), help="compute one table only")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for board_cards in (3, 5):
        if args.only and board_cards != args.only:
            continue
        started = time.perf_counter()
        # the flop table is quicker in one process than the cost of starting a pool
        table = compute_table(board_cards, processes=args.processes if board_cards == 5 else 1)
        path = args.out / TABLE_FILES[board_cards]
        save_table(table, path)
        seconds = time.perf_counter() - started
        print(f"{board_cards}-card table: {path} in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
