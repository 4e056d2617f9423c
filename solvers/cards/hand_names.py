"""Names of poker hands as a player says them: "two pair, kings and nines".

``hand_name`` takes 1 to 7 cards (card ids ``4 * rank + suit``) and names the best hand they
make. Five or more cards go through the evaluator, so the name always agrees with who wins a
showdown; fewer cards (Leduc's card and board) can only make pairs, trips or quads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solvers.cards import evaluator

RANK_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip
_ACE, _FIVE = 12, 3


def rank_word(rank: int, plural: bool = False) -> str:
    word = RANK_WORDS[rank]
    if not plural:
        return word
    return word + ("es" if word == "six" else "s")


def _name_score(score: tuple[int, ...]) -> str:
    """Name a score tuple ``(category, ranks...)`` as ``evaluator._score5`` builds it."""
    category, tops = score[0], score[1:]
    if category == 8:
        if tops[0] == _ACE:
            return "royal flush"
        return f"straight flush, {rank_word(tops[0])} high"
    if category == 7:
        return f"four of a kind, {rank_word(tops[0], True)}"
    if category == 6:
        return f"full house, {rank_word(tops[0], True)} full of {rank_word(tops[1], True)}"
    if category == 5:
        return f"flush, {rank_word(tops[0])} high"
    if category == 4:
        return f"straight, {rank_word(tops[0])} high"
    if category == 3:
        return f"three of a kind, {rank_word(tops[0], True)}"
    if category == 2:
        return f"two pair, {rank_word(tops[0], True)} and {rank_word(tops[1], True)}"
    if category == 1:
        return f"pair of {rank_word(tops[0], True)}"
    return f"{rank_word(tops[0])} high"


def _short_hand_score(cards: Sequence[int]) -> tuple[int, ...]:
    """Fewer than five cards: only rank groups count (no straights or flushes)."""
    counts = Counter(int(c) >> 2 for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    tops = tuple(rank for rank, _ in groups)
    category = {4: 7, 3: 3}.get(shape[0], 0)
    if shape[0] == 2:
        category = 2 if shape[:2] == [2, 2] else 1
    return (category, *tops)


def hand_name(cards: Sequence[int]) -> str:
    """The best hand ``cards`` make, named: ``pair of aces``, ``full house, kings full of
    nines``. ValueError for repeated cards or a count outside 1-7."""
    cards = [int(c) for c in cards]
    if not 1 <= len(cards) <= 7:
        raise ValueError(f"a hand has 1 to 7 cards, not {len(cards)}")
    if len(set(cards)) != len(cards) or min(cards) < 0 or max(cards) > 51:
        raise ValueError(f"cards must be distinct ids 0-51: {cards}")
    if len(cards) < 5:
        return _name_score(_short_hand_score(cards))
    strength = evaluator.evaluate_hand(cards)
    _, ordered = evaluator._five_card_scores()  # noqa: SLF001 - the evaluator's own ranking
    return _name_score(ordered[strength - 1])
