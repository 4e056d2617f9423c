import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers.cards.deck import (
    CLASS_COMBOS,
    CLASS_LABELS,
    CLASS_SIZES,
    COMBO_CARDS,
    COMBO_CLASS,
    COMBO_LABELS,
    N_COMBOS,
    CardError,
    card_str,
    cards_str,
    class_index,
    classes_to_combos,
    combo_index,
    combos_conflict,
    combos_to_classes,
    dead_mask,
    parse_card,
    parse_cards,
    parse_combo,
)
from solvers.errors import InputError


def test_every_card_round_trips():
    for card in range(52):
        assert parse_card(card_str(card)) == card
    assert parse_card("2c") == 0
    assert parse_card("As") == 51
    assert parse_card("td") == parse_card("Td")


@given(st.lists(st.integers(0, 51), unique=True, max_size=10), st.sampled_from(["", " ", ","]))
def test_card_runs_round_trip(cards, sep):
    assert parse_cards(cards_str(cards, sep)) == cards


@pytest.mark.parametrize(
    ("text", "position"), [("AsKx", 3), ("Xs", 0), ("As As", 3), ("AsK", 2), ("1c", 0)]
)
def test_bad_cards_point_at_the_problem(text, position):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert info.value.position == position
    assert isinstance(info.value, InputError)


def test_combo_index_is_a_bijection():
    assert COMBO_CARDS.shape == (N_COMBOS, 2)
    assert len(set(map(tuple, COMBO_CARDS.tolist()))) == N_COMBOS
    assert np.all(COMBO_CARDS[:, 0] > COMBO_CARDS[:, 1])
    for i in range(0, N_COMBOS, 7):
        a, b = COMBO_CARDS[i]
        assert combo_index(int(a), int(b)) == combo_index(int(b), int(a)) == i
        assert parse_combo(COMBO_LABELS[i]) == i
    assert COMBO_LABELS[-1] == "AsAh"


def test_classes_partition_the_combos():
    assert len(CLASS_LABELS) == 169 == len(set(CLASS_LABELS))
    assert CLASS_SIZES.sum() == 1326
    sizes = {label: int(CLASS_SIZES[i]) for i, label in enumerate(CLASS_LABELS)}
    assert sizes["AA"] == 6 and sizes["AKs"] == 4 and sizes["AKo"] == 12
    assert CLASS_LABELS[0] == "AA" and CLASS_LABELS[1] == "AKs" and CLASS_LABELS[13] == "AKo"
    assert CLASS_LABELS[168] == "22"
    for c, combos in enumerate(CLASS_COMBOS):
        assert np.all(COMBO_CLASS[combos] == c)
        assert class_index(CLASS_LABELS[c]) == c
    assert class_index("aks") == 1


def test_class_views_convert_both_ways():
    values = np.arange(169, dtype=float)
    assert np.array_equal(combos_to_classes(classes_to_combos(values)), values)
    assert combos_to_classes(np.ones(1326), reduce="sum").sum() == 1326


def test_dead_mask_counts():
    board = parse_cards("Jh9c3d")
    blocked = dead_mask(board)
    assert blocked.sum() == 1326 - 1176  # C(49, 2) combos survive
    assert not dead_mask([]).any()


def test_conflicts():
    a = parse_combo("AsKd")
    assert combos_conflict(np.array(a), np.array(parse_combo("AsQd")))
    assert not combos_conflict(np.array(a), np.array(parse_combo("AhQd")))
