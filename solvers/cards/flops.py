"""The 1,755 suit-isomorphic flops, their weights and textures, and representative subsets.

Two flops are the same strategic spot (for ranges that treat suits alike) when a relabelling of
the four suits maps one to the other. ``isomorphic_flops`` finds the classes by brute force:
each of the 22,100 raw flops is mapped by all 24 suit permutations and the largest sorted card
triple names its class; a class's weight is how many raw flops it stands for (24 rainbow, 12
two-tone, 4 monotone, 12 paired, 4 trips).

``flop_subset(n)`` picks ``n`` flops that stand for the whole set by a deterministic rule:
the 1,755 flops are put in a fixed order (texture, then ranks from the top), the line of
their weights (22,100 raw flops) is cut into ``n`` strata of equal weight, each flop joins the
stratum holding the middle of its weight, and each stratum is represented by the flop whose
weight covers the stratum's centre, weighted by the stratum's total weight. Every texture class
is thus represented about in proportion to how often it is dealt, and the weights sum to 22,100.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations
from pathlib import Path

import numpy as np

from solvers.cards.deck import N_CARDS, RANKS, card_str, parse_cards
from solvers.errors import InputError
from solvers.user_files import read_user_text

RAW_FLOPS = 22_100
N_ISOMORPHIC = 1_755
SUBSET_SIZES = (184, 95, 49, 25)
MAX_FLOP_FILE_BYTES = 1 << 20
"""A flop list: all 22,100 flops with their weights take about 220 kB."""
TEXTURES = ("trips", "paired", "monotone", "two-tone", "rainbow")
"""Suit/pairing class of a flop; ``paired`` and ``trips`` ignore suits."""


@dataclass(frozen=True)
class Flop:
    """One suit-isomorphic flop: its representative cards (high first) and raw-flop weight."""

    cards: tuple[int, int, int]
    weight: int

    @property
    def name(self) -> str:
        return "".join(card_str(c) for c in self.cards)

    @property
    def ranks(self) -> tuple[int, int, int]:
        return tuple(c >> 2 for c in self.cards)  # type: ignore[return-value]

    @property
    def high_card(self) -> str:
        return RANKS[self.cards[0] >> 2]

    @property
    def texture(self) -> str:
        return texture_of(self.cards)

    @property
    def connected(self) -> bool:
        return is_connected(self.cards)


def texture_of(cards) -> str:
    """``trips``, ``paired``, ``monotone``, ``two-tone`` or ``rainbow``."""
    ranks = {c >> 2 for c in cards}
    if len(ranks) == 1:
        return "trips"
    if len(ranks) == 2:
        return "paired"
    suits = len({c & 3 for c in cards})
    return {1: "monotone", 2: "two-tone"}[suits] if suits < 3 else "rainbow"


def is_connected(cards) -> bool:
    """Three distinct ranks within a span of five (a straight is possible), the ace also low."""
    ranks = sorted({c >> 2 for c in cards})
    if len(ranks) < 3:
        return False
    if ranks[2] - ranks[0] <= 4:
        return True
    low = sorted(r if r != 12 else -1 for r in ranks)  # the wheel: A counts as one
    return low[2] - low[0] <= 4


def _permuted(cards: np.ndarray) -> np.ndarray:
    """``[24, n, 3]``: every suit relabelling of ``cards``, each triple sorted high first."""
    perms = np.array(list(permutations(range(4))), dtype=np.int64)
    ranks, suits = cards >> 2, cards & 3
    mapped = 4 * ranks[None] + perms[:, suits]
    return -np.sort(-mapped, axis=2)


@cache
def isomorphic_flops() -> tuple[Flop, ...]:
    """The 1,755 flop classes in canonical order (see ``flop_order``), with weights."""
    raw = np.array(list(combinations(range(N_CARDS), 3)), dtype=np.int64)
    images = _permuted(raw)
    keys = (images[..., 0] * N_CARDS + images[..., 1]) * N_CARDS + images[..., 2]
    canonical = keys.max(axis=0)
    classes, counts = np.unique(canonical, return_counts=True)
    flops = [
        Flop((int(k // N_CARDS**2), int(k // N_CARDS % N_CARDS), int(k % N_CARDS)), int(n))
        for k, n in zip(classes, counts, strict=True)
    ]
    return tuple(sorted(flops, key=flop_order))


def flop_order(flop: Flop) -> tuple:
    """Texture (in ``TEXTURES`` order), then ranks from the top, highest first."""
    return (TEXTURES.index(flop.texture), tuple(-r for r in flop.ranks), flop.cards)


def canonical_flop(cards) -> Flop:
    """The isomorphic flop of three cards (any order, any suits)."""
    cards = np.asarray(sorted(cards, reverse=True), dtype=np.int64)[None]
    if cards.shape != (1, 3) or len(set(cards[0].tolist())) != 3:
        raise InputError("a flop is three different cards")
    images = _permuted(cards)[:, 0]
    a, b, c = (int(x) for x in max(map(tuple, images.tolist())))
    return _by_cards()[(a, b, c)]


@cache
def _by_cards() -> dict[tuple[int, int, int], Flop]:
    return {flop.cards: flop for flop in isomorphic_flops()}


@cache
def flop_subset(size: int) -> tuple[Flop, ...]:
    """``size`` representative flops, each weighted by the raw flops of its stratum."""
    flops = isomorphic_flops()
    if size == len(flops):
        return flops
    if not 1 <= size < len(flops):
        raise InputError(f"a flop subset has 1 to {len(flops)} flops, not {size}")
    weights = np.array([f.weight for f in flops], dtype=np.int64)
    before = np.concatenate([[0], np.cumsum(weights)[:-1]])
    # strata of width RAW_FLOPS / size, in integers: flop i joins floor((2*before+w)*size/2W)
    stratum = ((2 * before + weights) * size) // (2 * RAW_FLOPS)
    centres = (2 * np.arange(size) + 1) * RAW_FLOPS  # 2*size*centre, as integers
    chosen = []
    for k in range(size):
        covers = (2 * size * before <= centres[k]) & (centres[k] < 2 * size * (before + weights))
        index = int(np.flatnonzero(covers)[0])
        assert stratum[index] == k, "a stratum's centre lies in one of its own flops"
        chosen.append(Flop(flops[index].cards, int(weights[stratum == k].sum())))
    return tuple(chosen)


def parse_flop_choice(text: str) -> tuple[Flop, ...]:
    """``--flops``: ``all``, one of ``SUBSET_SIZES`` or a file of flops (one a line, weights
    optional: ``AsKd7c 24`` or ``As Kd 7c``; a flop's own raw count is used when none is given)."""
    text = str(text).strip()
    if text == "all":
        return isomorphic_flops()
    if text.isdigit():
        if int(text) not in SUBSET_SIZES:
            sizes = ", ".join(map(str, SUBSET_SIZES))
            raise InputError(f"--flops {text}: give all, {sizes} or a file of flops")
        return flop_subset(int(text))
    return read_flop_file(text)


def read_flop_file(path: str | Path) -> tuple[Flop, ...]:
    """Flops from a text file: one a line as cards and an optional whole weight; ``#`` comments."""
    path = Path(path)
    text = read_user_text(path, MAX_FLOP_FILE_BYTES, "--flops: flop file")
    flops: list[Flop] = []
    seen: set[tuple[int, int, int]] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        where = f"{path}, line {number}"
        weight_text = body.pop() if len(body) > 1 and body[-1].isdigit() else None
        try:
            cards = parse_cards("".join(body), max_cards=3)
        except InputError as exc:
            raise InputError(f"{where}: {str(exc).splitlines()[0]}") from None
        if len(cards) != 3:
            raise InputError(f"{where}: a flop is three cards and an optional weight")
        flop = canonical_flop(cards)
        if flop.cards in seen:
            raise InputError(f"{where}: {body[0]} is the same flop as an earlier line")
        seen.add(flop.cards)
        weight = flop.weight
        if weight_text is not None:
            if not 0 < int(weight_text) <= RAW_FLOPS:
                raise InputError(f"{where}: the weight is a whole number from 1 to {RAW_FLOPS}")
            weight = int(weight_text)
        flops.append(Flop(flop.cards, weight))
    if not flops:
        raise InputError(f"flop file {path} names no flops")
    return tuple(flops)
