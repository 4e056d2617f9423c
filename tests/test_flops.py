"""The 1,755 suit-isomorphic flops and the representative subsets, against closed forms."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from math import comb

import pytest

from solvers.cards.deck import parse_cards
from solvers.cards.flops import (
    RAW_FLOPS,
    SUBSET_SIZES,
    TEXTURES,
    canonical_flop,
    flop_subset,
    is_connected,
    isomorphic_flops,
    parse_flop_choice,
)
from solvers.errors import InputError

# Closed forms: classes and raw flops per texture (13 ranks, 4 suits).
CLASSES = {
    "rainbow": comb(13, 3),  # three ranks, suits all different: one class
    "two-tone": comb(13, 3) * 3,  # which of the three ranks has the odd suit
    "monotone": comb(13, 3),
    "paired": 13 * 12 * 2,  # pair rank, kicker rank, kicker suit one of the pair's or not
    "trips": 13,
}
RAW = {
    "rainbow": comb(13, 3) * 4 * 3 * 2,
    "two-tone": comb(13, 3) * 3 * 4 * 3,
    "monotone": comb(13, 3) * 4,
    "paired": 13 * 12 * comb(4, 2) * 4,
    "trips": 13 * comb(4, 3),
}


def test_there_are_1755_flops_standing_for_22100():
    flops = isomorphic_flops()
    assert len(flops) == 1755
    assert sum(f.weight for f in flops) == 22_100 == comb(52, 3) == RAW_FLOPS
    assert len({f.cards for f in flops}) == 1755


def test_each_texture_has_its_closed_form_count_and_weight():
    flops = isomorphic_flops()
    assert Counter(f.texture for f in flops) == CLASSES
    raw = Counter()
    for f in flops:
        raw[f.texture] += f.weight
    assert raw == RAW
    assert sum(RAW.values()) == 22_100


def test_every_suit_relabelling_of_a_flop_is_the_same_class():
    cards = parse_cards("Ah Kh 7d")
    classes = set()
    for perm in permutations(range(4)):
        classes.add(canonical_flop([4 * (c >> 2) + perm[c & 3] for c in cards]).cards)
    assert len(classes) == 1
    assert canonical_flop(parse_cards("Ah Kh 7d")).cards != canonical_flop(
        parse_cards("Ah Kd 7d")
    ).cards  # the suited pair differs: AK two-tone against K7 two-tone
    assert canonical_flop(parse_cards("Ah Kh 7d")).weight == 12


def test_connected_flops():
    assert is_connected(parse_cards("9s 8h 5d"))
    assert is_connected(parse_cards("As 2h 4d"))  # the wheel
    assert not is_connected(parse_cards("As Kh 7d"))
    assert not is_connected(parse_cards("9s 9h 8d"))  # paired


@pytest.mark.parametrize("size", SUBSET_SIZES)
def test_subsets_keep_every_texture_about_in_proportion(size):
    subset = flop_subset(size)
    assert len(subset) == size == len({f.cards for f in subset})
    assert sum(f.weight for f in subset) == 22_100
    assert subset == flop_subset(size)  # deterministic
    known = {f.cards for f in isomorphic_flops()}
    assert all(f.cards in known for f in subset)
    stratum = RAW_FLOPS / size
    share = Counter()
    for f in subset:
        share[f.texture] += f.weight
    for texture in TEXTURES:
        # strata are contiguous in texture order: a texture gains or loses at most the two
        # strata that straddle its ends
        assert abs(share[texture] - RAW[texture]) < 2 * stratum, texture
    if size >= 49:
        assert set(share) >= {"rainbow", "two-tone", "monotone", "paired"}


def test_flop_choices_and_files(tmp_path):
    assert len(parse_flop_choice("all")) == 1755
    assert len(parse_flop_choice("25")) == 25
    for bad in ("7", "0", "1000", "-3"):
        with pytest.raises(InputError):
            parse_flop_choice(bad)
    listed = tmp_path / "flops.txt"
    listed.write_text("# two flops\nAsKd7c\nQh Jh 2h 12\n")
    flops = parse_flop_choice(str(listed))
    assert [f.weight for f in flops] == [24, 12]
    assert flops[0].texture == "rainbow" and flops[1].texture == "monotone"
    for text in ("AsKd\n", "AsKd7c\nAhKc7d\n", "AsKd7c x\n", "\n# nothing\n", "AsAs7c\n"):
        listed.write_text(text)
        with pytest.raises(InputError):
            parse_flop_choice(str(listed))
    with pytest.raises(InputError):
        parse_flop_choice(str(tmp_path / "missing.txt"))
