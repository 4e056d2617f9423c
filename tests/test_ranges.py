"""Range strings: parsing, printing, round trips and combo counts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.cards.deck import (
    CLASS_COMBOS,
    CLASS_LABELS,
    COMBO_CARDS,
    COMBO_CLASS,
    COMBO_INDEX,
    COMBO_LABELS,
    N_CLASSES,
    N_COMBOS,
    class_index,
    combos_conflict,
    parse_cards,
    parse_combo,
)
from solvers.cards.ranges import (
    RangeError,
    class_combo_counts,
    combo_count,
    format_range,
    normalise,
    parse_range,
    range_from_classes,
)
from solvers.errors import InputError

BOARD_J93 = "Jh9c3d"


def classes_of(weights: np.ndarray) -> set[str]:
    """Labels of the classes with any weight."""
    return {CLASS_LABELS[c] for c in range(N_CLASSES) if weights[CLASS_COMBOS[c]].any()}


# ------------------------------------------------------------------------------ counts


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("AA", 6),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("QQ+", 18),
        ("A2s+", 48),
        ("22+", 78),
        ("random", 1326),
        ("any", 1326),
        ("", 0),
    ],
)
def test_known_combo_counts(text: str, count: int) -> None:
    assert combo_count(parse_range(text)) == count


@pytest.mark.parametrize(("text", "count"), [("AK", 16), ("AJ", 12), ("J9", 9)])
def test_counts_on_j93_board(text: str, count: int) -> None:
    # Published figure: combos on a J93 board.
    weights = parse_range(text)
    assert combo_count(weights, parse_cards(BOARD_J93)) == count
    assert combo_count(weights, BOARD_J93) == count


def test_class_combo_counts_with_dead_cards() -> None:
    counts = class_combo_counts(parse_range("AJ, JJ:0.5"), BOARD_J93)
    assert counts.shape == (N_CLASSES,)
    assert counts[class_index("AJs")] == 3
    assert counts[class_index("AJo")] == 9
    assert counts[class_index("JJ")] == 1.5  # three JJ combos left, at weight 0.5
    assert counts.sum() == combo_count(parse_range("AJ, JJ:0.5"), BOARD_J93)


def test_normalise_drops_blocked_combos() -> None:
    weights = normalise(parse_range("AA, JJ"), BOARD_J93)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[parse_combo("JhJd")] == 0.0
    assert weights[parse_combo("AsAh")] == pytest.approx(1 / 9)


def test_normalise_impossible_range() -> None:
    with pytest.raises(RangeError, match="impossible range"):
        normalise(parse_range("JhJd"), BOARD_J93)
    with pytest.raises(RangeError, match="impossible range"):
        normalise(np.zeros(N_COMBOS))


def test_range_error_is_input_error() -> None:
    assert issubclass(RangeError, InputError)


# --------------------------------------------------------------------------- semantics


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QQ+", {"QQ", "KK", "AA"}),
        ("A9s+", {"A9s", "ATs", "AJs", "AQs", "AKs"}),
        ("K9o+", {"K9o", "KTo", "KJo", "KQo"}),
        ("QT+", {"QTs", "QJs", "QTo", "QJo"}),
        ("AK+", {"AKs", "AKo"}),
        ("22-55", {"22", "33", "44", "55"}),
        ("55-22", {"22", "33", "44", "55"}),
        ("A2s-A5s", {"A2s", "A3s", "A4s", "A5s"}),
        ("A5o-A2o", {"A2o", "A3o", "A4o", "A5o"}),
        ("K7-K8", {"K7s", "K8s", "K7o", "K8o"}),
        ("T9s-76s", {"T9s", "98s", "87s", "76s"}),
        ("75s-T8s", {"T8s", "97s", "86s", "75s"}),
        ("65o-87o", {"65o", "76o", "87o"}),
        ("KA", {"AKs", "AKo"}),
        ("kqS, 2j", {"KQs", "J2s", "J2o"}),
        ("random, AsAh:0", set(CLASS_LABELS)),
    ],
)
def test_item_classes(text: str, expected: set[str]) -> None:
    assert classes_of(parse_range(text)) == expected


def test_single_combos_any_case() -> None:
    weights = parse_range("AsKd, 2C3c, th td")
    assert set(np.flatnonzero(weights)) == {
        parse_combo("AsKd"),
        parse_combo("3c2c"),
        parse_combo("ThTd"),
    }


def test_weights_and_overrides() -> None:
    weights = parse_range("QQ+:0.25, AA, AQo:0.5, AsAh:0, KsKh:.75")
    assert weights[CLASS_COMBOS[class_index("QQ")]].tolist() == [0.25] * 6
    assert weights[parse_combo("AsAh")] == 0.0
    assert weights[parse_combo("AsAd")] == 1.0
    assert weights[parse_combo("KsKh")] == 0.75
    assert weights[parse_combo("KsKd")] == 0.25
    assert weights[CLASS_COMBOS[class_index("AQo")]].tolist() == [0.5] * 12
    assert parse_range("AA, AA:0.5")[parse_combo("AsAh")] == 0.5
    assert parse_range("AA:0.5, AA")[parse_combo("AsAh")] == 1.0
    assert parse_range("AA:1e-3")[parse_combo("AsAh")] == 0.001


def test_case_and_spacing_do_not_matter() -> None:
    expected = parse_range("AKs, QQ+, T9o-76o:0.5")
    variants = ["aks,qq+,t9o-76o:0.5", " AKS ,  qQ+ ,T9O - 76O : 0.5 ", "AKs,\n QQ+,\tT9o-76o:0.5"]
    for text in variants:
        assert np.array_equal(parse_range(text), expected)


def test_range_from_classes() -> None:
    weights = range_from_classes({"AKs": 1.0, "QQ+": 0.5, "AsKs": 0.25})
    assert combo_count(weights) == 3 + 0.25 + 9
    with pytest.raises(RangeError):
        range_from_classes({"AKx": 1.0})
    with pytest.raises(RangeError):
        range_from_classes({"AK": 1.5})


# ------------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("AKx", "AKx", 0),
        ("AA, 22++", "22++", 4),
        ("As As", "As As", 0),
        ("QQ+, AsAs:0.5", "AsAs:0.5", 5),
        ("AA:1.5", "AA:1.5", 0),
        ("AA, KK:-0.5", "KK:-0.5", 4),
        ("AA:", "AA:", 0),
        ("AA:abc", "AA:abc", 0),
        ("AA:nan", "AA:nan", 0),
        (":0.5", ":0.5", 0),
        ("AAs", "AAs", 0),
        ("KK, 22o", "22o", 4),
        ("T9s-74s", "T9s-74s", 0),
        ("T9s-75o", "T9s-75o", 0),
        ("AKs-22", "AKs-22", 0),
        ("A2s-", "A2s-", 0),
        ("22-33-44", "22-33-44", 0),
        ("AA,,KK", "", 3),
        ("AA, , KK", "", 4),
        ("AA,", "", 3),
        (",AA", "", 0),
        ("AA, K#", "K#", 4),
        ("AA KK", "AA KK", 0),
        ("  XYZ", "XYZ", 2),
        ("A", "A", 0),
        ("+", "+", 0),
    ],
)
def test_bad_input_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(RangeError) as caught:
        parse_range(text)
    error = caught.value
    assert error.token == token
    assert error.position == position
    assert error.text == text
    message = str(error)
    assert repr(token) in message
    assert f"position {position}" in message
    assert message.splitlines()[-1] == "  " + " " * position + "^"


def test_format_rejects_bad_arrays() -> None:
    with pytest.raises(RangeError):
        format_range(np.zeros(10))
    with pytest.raises(RangeError):
        format_range(np.full(N_COMBOS, 1.5))
    with pytest.raises(RangeError):
        format_range(np.full(N_COMBOS, np.nan))


# -------------------------------------------------------------------------- formatting


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("", ""),
        ("AA, KK, QQ", "QQ+"),
        ("22, 33, 44, 55", "55-22"),
        ("AA", "AA"),
        ("AKs, AKo", "AK"),
        ("AKs", "AKs"),
        ("A2s+, AKo", "AK, A2s+"),
        ("A2s, A3s, A4s, A5s", "A5s-A2s"),
        ("K9o+", "K9o+"),
        ("K9+", "K9+"),
        ("A2s+, K9s+, QTs+, JTs, T9s, 98s, 87s, 76s, 65s, 54s", "A2s+, K9s+, QTs+, JTs-54s"),
        ("T9s, 98s", "T9s, 98s"),
        ("AQo:0.5, QQ+:0.25", "QQ+:0.25, AQo:0.5"),
        ("AA:0.5, AsKd, KdKh:0.25", "AA:0.5, AsKd, KhKd:0.25"),
        ("random", "random"),
        ("any:0.5", "random:0.5"),
        ("AA:0.1234567", "AA:0.123457"),
    ],
)
def test_format_known(text: str, printed: str) -> None:
    assert format_range(parse_range(text)) == printed


def test_format_rounds_to_six_digits() -> None:
    weights = parse_range("AA:0.1234567")
    assert parse_range(format_range(weights))[parse_combo("AsAh")] == 0.123457


# ------------------------------------------------------------------------- properties

EIGHTHS = [i / 8 for i in range(9)]
six_digit_weights = st.floats(0.0, 1.0).map(lambda w: float(format(w, ".6g")))


@st.composite
def weight_arrays(draw: st.DrawFn) -> np.ndarray:
    """Class-level weights from a small palette, some classes broken up combo by combo."""
    palette = draw(st.lists(st.sampled_from(EIGHTHS) | six_digit_weights, min_size=1, max_size=4))
    sparsity = draw(st.floats(0.0, 1.0))
    mixed_share = draw(st.sampled_from([0.0, 0.05, 0.3, 1.0]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    class_weights = rng.choice(palette, N_CLASSES)
    class_weights[rng.random(N_CLASSES) < sparsity] = 0.0
    array = class_weights[COMBO_CLASS]
    mixed = rng.random(N_COMBOS) < mixed_share
    array[mixed] = rng.choice(palette + [0.0], int(mixed.sum()))
    return array


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weight_arrays())
def test_round_trip_arrays(weights: np.ndarray) -> None:
    printed = format_range(weights)
    parsed = parse_range(printed)
    assert np.array_equal(parsed, weights), printed
    assert format_range(parsed) == printed


PLUS_AND_DASH = ["QQ+", "22-66", "A2s+", "K9o+", "Q8+", "A5s-A2s", "T9s-65s", "J9o-75o", "T8-97"]
class_items = st.sampled_from(list(CLASS_LABELS) + PLUS_AND_DASH + list(COMBO_LABELS[::7]))
weight_suffix = st.sampled_from(["", "", ":0.5", ":0.25", ":0", ":1", ":0.333"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(class_items, weight_suffix), max_size=25))
def test_round_trip_item_lists(items: list[tuple[str, str]]) -> None:
    text = ", ".join(item + suffix for item, suffix in items)
    weights = parse_range(text)
    printed = format_range(weights)
    assert np.array_equal(parse_range(printed), weights), (text, printed)
    assert format_range(parse_range(printed)) == printed


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="AKQJT98765432scdhoxSCDHO+-:.,0123456789e \t", max_size=30) | st.text())
def test_parse_raises_only_range_error(text: str) -> None:
    try:
        weights = parse_range(text)
    except RangeError as error:
        assert 0 <= error.position <= len(text)
        return
    assert weights.shape == (N_COMBOS,)
    assert np.all((weights >= 0.0) & (weights <= 1.0))
    assert np.array_equal(parse_range(format_range(weights)), weights)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 1.0))
def test_arbitrary_floats_print_rounded(seed: int, density: float) -> None:
    rng = np.random.default_rng(seed)
    weights = rng.random(N_COMBOS) * (rng.random(N_COMBOS) < density)
    printed = format_range(weights)
    parsed = parse_range(printed)
    np.testing.assert_allclose(parsed, weights, rtol=5e-6, atol=0)
    assert format_range(parsed) == printed


def test_a_parsed_range_is_the_callers_own_copy():
    """parse_range keeps its last readings: a caller changing its array changes no later one."""
    text = "AhKh:0.25, KhAh:0.5, 2c2d"  # a combo's two spellings: the later wins
    first = parse_range(text)
    assert first[COMBO_INDEX[parse_cards("Ah")[0], parse_cards("Kh")[0]]] == 0.5
    first[:] = 1.0
    again = parse_range(text)
    assert again.sum() == 1.5 and again is not first


def test_combos_conflict_is_a_shared_card():
    combos = np.arange(N_COMBOS)
    found = combos_conflict(combos[:, None], combos[None, :])
    cards = COMBO_CARDS
    shared = (cards[:, None, :, None] == cards[None, :, None, :]).any(axis=(2, 3))
    np.testing.assert_array_equal(found, shared)
    assert found.sum() == N_COMBOS * (1 + 2 * 50)  # itself, and 50 others for each card
