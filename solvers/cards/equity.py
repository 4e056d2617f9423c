"""All-in equity of one range against another: exact enumeration or seeded Monte Carlo.

Ranges are 1326-vectors of weights (a single hand is a range with one combo). A matchup is a
pair of compatible combos weighted by ``w1 * w2``; every runout of the remaining deck is equally
likely, so exact equity sums over (pair, runout) and Monte Carlo samples the same distribution:
a pair by rejection (draw each side from its weights, redraw if they share a card), then the
runout uniformly from the cards left.

Exact enumeration evaluates every supported combo once per runout and compares pairs per runout,
in chunks of boards, so its cost is ``runouts * (n1 + n2)`` evaluations plus
``runouts * n1 * n2`` comparisons. ``method="auto"`` enumerates when that is estimated to take
about a second or less, and samples otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from math import comb

import numpy as np

from solvers.cards import evaluator
from solvers.cards.combinatorics import subsets_of
from solvers.cards.deck import COMBO_CARDS, N_CARDS, N_COMBOS, card_str, combos_conflict
from solvers.cards.deck import dead_mask as blocked_by
from solvers.errors import InputError

EVALS_PER_SECOND = 2.0e7
COMPARISONS_PER_SECOND = 2.0e8
EXACT_SECONDS_BUDGET = 1.0
DEFAULT_SAMPLES = 200_000
_CHUNK_ELEMENTS = 1 << 22


class EquityError(InputError):
    """An equity question that has no answer: impossible board, empty or clashing ranges."""


@dataclass(frozen=True)
class EquityResult:
    """Equity of each side. ``tie`` is the probability of a split pot (the same for both sides).

    ``equity = win + tie / 2``. ``pairs`` is the number of compatible combo pairs with positive
    weight, ``boards`` the number of runouts enumerated per pair (exact) or sampled (mc), and
    ``std_error`` the standard error of ``equity[0]`` (0 for exact).
    """

    equity: tuple[float, float]
    win: tuple[float, float]
    tie: float
    method: str
    boards: int
    samples: int
    std_error: float
    pairs: int
    hand_equity: np.ndarray | None = field(default=None, repr=False, compare=False)
    """Side 1's equity per combo (NaN outside its range). Exact, or for Monte Carlo the mean
    score of the samples that dealt that combo (NaN if none did)."""
    hand_samples: np.ndarray | None = field(default=None, repr=False, compare=False)
    """Monte Carlo only: how many samples dealt each combo to side 1."""

    def as_dict(self) -> dict:
        return {
            "equity": list(self.equity),
            "win": list(self.win),
            "tie": self.tie,
            "method": self.method,
            "boards": self.boards,
            "samples": self.samples,
            "std_error": self.std_error,
            "pairs": self.pairs,
        }


@dataclass(frozen=True)
class _Matchup:
    w1: np.ndarray
    w2: np.ndarray
    board: tuple[int, ...]
    dead: tuple[int, ...]

    @property
    def support1(self) -> np.ndarray:
        return np.flatnonzero(self.w1 > 0)

    @property
    def support2(self) -> np.ndarray:
        return np.flatnonzero(self.w2 > 0)


def _prepare(range1, range2, board: Sequence[int], dead: Sequence[int]) -> _Matchup:
    board, dead = tuple(int(c) for c in board), tuple(int(c) for c in dead)
    if len(board) > 5:
        raise EquityError(f"a board has at most 5 cards, got {len(board)}")
    known = board + dead
    if any(not 0 <= c < N_CARDS for c in known):
        raise EquityError("card ids must lie in 0..51")
    clash = sorted({c for c in known if known.count(c) > 1})
    if clash:
        raise EquityError(f"card {card_str(clash[0])} is used twice on the board and dead cards")
    blocked = blocked_by(known)
    weights = []
    for side, rng in ((1, range1), (2, range2)):
        w = np.asarray(rng, dtype=float)
        if w.shape != (N_COMBOS,) or not np.all(np.isfinite(w)) or w.min() < 0:
            raise EquityError(f"range {side} must be {N_COMBOS} non-negative weights")
        w = np.where(blocked, 0.0, w)
        if not w.any():
            raise EquityError(f"range {side} is empty once the board and dead cards are removed")
        weights.append(w)
    match = _Matchup(weights[0], weights[1], board, dead)
    s1, s2 = match.support1, match.support2
    if not (~combos_conflict(s1[:, None], s2[None, :])).any():
        raise EquityError("the two ranges block each other completely: no pair of hands fits")
    return match


def _runout_deck(match: _Matchup) -> np.ndarray:
    """Cards a runout can use: the deck minus known cards and cards every combo of a side holds."""
    excluded = set(match.board) | set(match.dead)
    for support in (match.support1, match.support2):
        held = np.bincount(COMBO_CARDS[support].ravel(), minlength=N_CARDS)
        excluded |= set(np.flatnonzero(held == support.size).tolist())
    return np.array([c for c in range(N_CARDS) if c not in excluded], dtype=np.int8)


def estimate_exact_seconds(range1, range2, board=(), dead=()) -> float:
    """Rough time exact enumeration would take, used by ``method="auto"``."""
    match = _prepare(range1, range2, board, dead)
    runouts = comb(len(_runout_deck(match)), 5 - len(match.board))
    n1, n2 = match.support1.size, match.support2.size
    return runouts * (n1 + n2) / EVALS_PER_SECOND + runouts * n1 * n2 / COMPARISONS_PER_SECOND


def _strengths(board_keys, board_masks, hole_keys, hole_masks) -> np.ndarray:
    """Strengths ``[boards, hands]`` of every hole combo on every full board.

    Where a combo shares a card with the board the pair is impossible: its key would not be a
    real hand, so it is evaluated as key 0 (strength 0) and the caller gives it no weight.
    """
    keys = board_keys[:, None] + hole_keys[None, :]
    clash = (board_masks[:, None] & hole_masks[None, :]) != 0
    keys[clash] = 0
    n_hands = hole_keys.size

    def masks_of(rows: np.ndarray) -> np.ndarray:
        return board_masks[rows // n_hands] | hole_masks[rows % n_hands]

    return evaluator.evaluate_keys(keys, 7, masks_of)


def _exact(match: _Matchup) -> EquityResult:
    s1, s2 = match.support1, match.support2
    w1, w2 = match.w1[s1], match.w2[s2]
    runouts = subsets_of(_runout_deck(match), 5 - len(match.board))
    board_cards = np.asarray(match.board, dtype=np.int64)
    known_key = evaluator.CARD_KEY[board_cards].sum() if board_cards.size else 0
    known_mask = np.bitwise_or.reduce(evaluator.CARD_BIT[board_cards]) if board_cards.size else 0
    board_keys = evaluator.key_sum(runouts) + known_key if runouts.shape[1] else None
    if board_keys is None:
        board_keys = np.full(1, known_key, dtype=np.int64)
        board_masks = np.full(1, known_mask, dtype=np.uint64)
    else:
        board_masks = evaluator.bit_mask(runouts) | np.uint64(known_mask)
    keys1, masks1 = evaluator.key_sum(COMBO_CARDS[s1]), evaluator.bit_mask(COMBO_CARDS[s1])
    keys2, masks2 = evaluator.key_sum(COMBO_CARDS[s2]), evaluator.bit_mask(COMBO_CARDS[s2])
    compatible = ~combos_conflict(s1[:, None], s2[None, :])
    n1, n2 = s1.size, s2.size
    win = np.zeros(n1)
    tie = np.zeros(n1)
    total = np.zeros(n1)
    chunk = max(1, _CHUNK_ELEMENTS // max(n1 * n2, n1 + n2))
    zero = np.uint64(0)
    for start in range(0, board_keys.size, chunk):
        bk, bm = board_keys[start : start + chunk], board_masks[start : start + chunk]
        str1 = _strengths(bk, bm, keys1, masks1)
        str2 = _strengths(bk, bm, keys2, masks2)
        live1 = ((bm[:, None] & masks1[None, :]) == zero).astype(float)
        live2 = ((bm[:, None] & masks2[None, :]) == zero) * w2[None, :]
        if n1 == 1 and n2 == 1:  # the common hand-vs-hand case, without a 3-d temporary
            both = live1[:, 0] * live2[:, 0] * compatible[0, 0]
            win[0] += both @ (str1[:, 0] > str2[:, 0])
            tie[0] += both @ (str1[:, 0] == str2[:, 0])
            total[0] += both.sum()
            continue
        beats = (str1[:, :, None] > str2[:, None, :]) & compatible[None]
        splits = (str1[:, :, None] == str2[:, None, :]) & compatible[None]
        win += np.einsum("bi,bij,bj->i", live1, beats, live2)
        tie += np.einsum("bi,bij,bj->i", live1, splits, live2)
        total += np.einsum("bi,bj,ij->i", live1, live2, compatible.astype(float))
    mass = w1 @ total
    p_win, p_tie = float(w1 @ win / mass), float(w1 @ tie / mass)
    hand_equity = np.full(N_COMBOS, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        hand_equity[s1] = (win + tie / 2) / total
    pairs = int(compatible.sum())
    return _result(
        p_win, p_tie, "exact", runouts.shape[0], pairs * runouts.shape[0], 0.0, pairs, hand_equity
    )


def _result(p_win, p_tie, method, boards, samples, std_error, pairs, hand_equity=None):
    p_lose = max(0.0, 1.0 - p_win - p_tie)
    return EquityResult(
        equity=(p_win + p_tie / 2, p_lose + p_tie / 2),
        win=(p_win, p_lose),
        tie=p_tie,
        method=method,
        boards=boards,
        samples=samples,
        std_error=std_error,
        pairs=pairs,
        hand_equity=hand_equity,
    )


_COMBO_KEYS = evaluator.key_sum(COMBO_CARDS)
_COMBO_MASKS = evaluator.bit_mask(COMBO_CARDS)
"""The evaluator's card bits are one distinct bit per card, so they also detect shared cards."""


_RUNOUT_SPLITS = {0: (), 1: (1,), 2: (2,), 3: (3,), 4: (2, 2), 5: (3, 2)}
"""A k-card runout drawn as independent parts (a triple and a pair for 5 cards): each k-set
is the union of the same number of part choices, so keeping the draws whose parts do not
overlap leaves every runout equally likely."""


def _part_tables(deck: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Key sums and bit masks of every ``size``-subset of ``deck`` (at most 22,100 rows)."""
    parts = subsets_of(deck, size).astype(np.intp)
    return evaluator.key_sum(parts), evaluator.bit_mask(parts)


def _draw_runouts(rng: np.random.Generator, tables, batch: int):
    """``batch`` candidate runouts: key sums, bit masks, and whether their parts are disjoint.

    Every candidate is uniform over the deck's k-sets once the overlapping ones are dropped,
    with no table of all C(52, k) runouts to build in each fresh process.
    """
    if not tables:
        return np.zeros(batch, np.int64), np.zeros(batch, np.uint64), np.ones(batch, bool)
    keys = masks = None
    disjoint = np.ones(batch, bool)
    for part_keys, part_masks in tables:
        pick = rng.integers(0, part_keys.size, size=batch)  # int64: the fastest to gather by
        if keys is None:
            keys, masks = part_keys[pick], part_masks[pick]
            continue
        bits = part_masks[pick]
        disjoint &= (masks & bits) == 0
        keys += part_keys[pick]
        masks |= bits
    return keys, masks, disjoint


class _AliasSampler:
    """Walker's alias method: O(1) weighted draws, exact up to float rounding."""

    def __init__(self, support: np.ndarray, weights: np.ndarray) -> None:
        n = support.size
        self.support = support
        scaled = weights / weights.sum() * n
        self.prob = np.ones(n)
        self.alias = np.arange(n)
        small = [i for i in range(n) if scaled[i] < 1.0]
        large = [i for i in range(n) if scaled[i] >= 1.0]
        while small and large:
            s, g = small.pop(), large.pop()
            self.prob[s], self.alias[s] = scaled[s], g
            scaled[g] -= 1.0 - scaled[s]
            (small if scaled[g] < 1.0 else large).append(g)

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        if self.support.size == 1:
            return np.full(n, self.support[0])
        slot = rng.integers(0, self.support.size, size=n)
        keep = rng.random(n) < self.prob[slot]
        return self.support[np.where(keep, slot, self.alias[slot])]


def _sample_batch(match: _Matchup, samplers, tables, rng: np.random.Generator, batch: int):
    """One batch of candidate samples, filtered to the valid ones.

    Returns combo ids of both sides (``None`` for a side holding one combo: it is the same in
    every sample) and the key sums and bit masks of the full boards.
    """
    keys, masks, ok = _draw_runouts(rng, tables, batch)
    hands: list[np.ndarray | None] = []
    used = np.uint64(0)
    for sampler in samplers:
        if sampler.support.size == 1:  # the runout deck already leaves out its cards
            hands.append(None)
            continue
        combos = sampler.draw(rng, batch)
        bits = _COMBO_MASKS[combos]
        ok &= (masks & bits) == 0
        used = used | bits if isinstance(used, np.ndarray) else bits
        hands.append(combos)
    if sum(h is not None for h in hands) == 2:
        ok &= (_COMBO_MASKS[hands[0]] & _COMBO_MASKS[hands[1]]) == 0
    elif hands[0] is not None or hands[1] is not None:  # the other side's one combo
        single = samplers[0].support if hands[0] is None else samplers[1].support
        ok &= (used & _COMBO_MASKS[single[0]]) == 0
    if match.board:
        board = np.asarray(match.board, dtype=np.int64)
        keys += evaluator.CARD_KEY[board].sum()
        masks |= np.bitwise_or.reduce(evaluator.CARD_BIT[board])
    keep = np.flatnonzero(ok)
    hands = [None if h is None else h[keep] for h in hands]
    return hands[0], hands[1], keys[keep], masks[keep]


def _strength_on(board_keys, board_masks, combos, single: int) -> np.ndarray:
    """Strength of combo i on full board i (of combo ``single`` when ``combos`` is None)."""
    if combos is None:
        key, mask = _COMBO_KEYS[single], _COMBO_MASKS[single]
        return evaluator.evaluate_keys(board_keys + key, 7, lambda rows: board_masks[rows] | mask)
    keys = board_keys + _COMBO_KEYS[combos]
    return evaluator.evaluate_keys(
        keys, 7, lambda rows: board_masks[rows] | _COMBO_MASKS[combos[rows]]
    )


def _mc_block(match: _Matchup, samplers, tables, rng: np.random.Generator, count: int):
    """Wins, ties, per-combo scores and per-combo counts of ``count`` valid samples."""
    wins = ties = done = 0
    acceptance = 0.8
    hand_scores = np.zeros(N_COMBOS)
    hand_samples = np.zeros(N_COMBOS, dtype=np.int64)
    while done < count:
        want = min(count - done, 1 << 18)
        batch = int(want / acceptance * 1.05) + 64
        h1, h2, board_keys, board_masks = _sample_batch(match, samplers, tables, rng, batch)
        acceptance = max(board_keys.size / batch, 1e-3)
        board_keys, board_masks = board_keys[:want], board_masks[:want]
        h1 = None if h1 is None else h1[:want]
        h2 = None if h2 is None else h2[:want]
        str1 = _strength_on(board_keys, board_masks, h1, int(match.support1[0]))
        str2 = _strength_on(board_keys, board_masks, h2, int(match.support2[0]))
        beats, splits = str1 > str2, str1 == str2
        wins += int(np.count_nonzero(beats))
        ties += int(np.count_nonzero(splits))
        if h1 is None:  # one combo: its totals are the batch's
            hand_scores[match.support1[0]] += np.count_nonzero(beats) + 0.5 * np.count_nonzero(
                splits
            )
            hand_samples[match.support1[0]] += board_keys.size
        else:
            hand_scores += np.bincount(h1, weights=beats + 0.5 * splits, minlength=N_COMBOS)
            hand_samples += np.bincount(h1, minlength=N_COMBOS)
        done += board_keys.size
    return wins, ties, hand_scores, hand_samples


def _monte_carlo(match: _Matchup, samples: int, seed: int | None) -> EquityResult:
    if samples < 1:
        raise EquityError("Monte Carlo needs at least one sample")
    samplers = [
        _AliasSampler(s, w[s]) for s, w in ((match.support1, match.w1), (match.support2, match.w2))
    ]
    deck = _runout_deck(match)
    tables = [_part_tables(deck, size) for size in _RUNOUT_SPLITS[5 - len(match.board)]]
    rng = np.random.default_rng(seed)
    wins, ties, hand_scores, hand_samples = _mc_block(match, samplers, tables, rng, samples)
    p_win, p_tie = wins / samples, ties / samples
    mean = p_win + p_tie / 2
    # per-sample score is 1, 1/2 or 0, so its second moment is win + tie/4
    variance = max(p_win + p_tie / 4 - mean * mean, 0.0)
    std_error = float(np.sqrt(variance / samples))
    s1, s2 = match.support1, match.support2
    pairs = int((~combos_conflict(s1[:, None], s2[None, :])).sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        hand_equity = np.where(hand_samples > 0, hand_scores / hand_samples, np.nan)
    result = _result(p_win, p_tie, "mc", samples, samples, std_error, pairs, hand_equity)
    return replace(result, hand_samples=hand_samples)


def equity(
    range1,
    range2,
    board: Sequence[int] = (),
    dead: Sequence[int] = (),
    *,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
) -> EquityResult:
    """Equity of ``range1`` against ``range2`` on a board of 0 to 5 cards, with dead cards.

    ``method`` is ``"exact"``, ``"mc"`` or ``"auto"`` (exact when it is quick).
    """
    match = _prepare(range1, range2, board, dead)
    if method == "auto":
        quick = estimate_exact_seconds(range1, range2, board, dead) <= EXACT_SECONDS_BUDGET
        method = "exact" if quick else "mc"
    if method == "exact":
        return _exact(match)
    if method == "mc":
        return _monte_carlo(match, samples, seed)
    raise EquityError(f"method must be 'exact', 'mc' or 'auto', not {method!r}")
