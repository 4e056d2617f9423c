"""The pseudo-harmonic mapping against its defining identity and its axioms."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers.errors import InputError
from solvers.games.translation import pseudo_harmonic, translate


def test_published_example():
    # A = 0.5 pot, B = 1 pot, x = 0.75 pot: f = (0.25 * 1.5) / (0.5 * 1.75) = 3/7.
    assert pseudo_harmonic(0.5, 1.0, 0.75) == pytest.approx(3 / 7, abs=1e-15)


@given(
    st.floats(0, 5, allow_nan=False),
    st.floats(0.01, 5, allow_nan=False),
    st.floats(0, 1, allow_nan=False),
)
def test_caller_of_one_over_one_plus_x_is_preserved(smaller, gap, where):
    """f/(1+A) + (1-f)/(1+B) = 1/(1+x): the clairvoyance caller's frequency survives."""
    larger = smaller + gap
    bet = smaller + where * gap
    f = pseudo_harmonic(smaller, larger, bet)
    assert 0.0 <= f <= 1.0
    assert f / (1 + smaller) + (1 - f) / (1 + larger) == pytest.approx(1 / (1 + bet), rel=1e-12)


def test_boundaries_monotonicity_and_scale_invariance():
    assert pseudo_harmonic(0.33, 0.75, 0.33) == 1.0 and pseudo_harmonic(0.33, 0.75, 0.75) == 0.0
    values = [pseudo_harmonic(0.33, 0.75, 0.33 + 0.42 * k / 10) for k in range(11)]
    assert values == sorted(values, reverse=True)


def test_translate_onto_tree_sizes():
    sizes = [0.33, 0.75, 1.5]
    on_tree = translate(sizes, 0.75)
    assert (on_tree.lower, on_tree.upper, on_tree.lower_probability) == (1, 1, 1.0)
    between = translate(sizes, 1.0)
    assert (between.lower, between.upper) == (1, 2)
    assert between.lower_probability == pytest.approx(0.5 * 1.75 / (0.75 * 2.0))
    assert translate(sizes, 0.1).lower == 0 and translate(sizes, 4.0).upper == 2
    for bad in ([], [0.5, 0.5]):
        with pytest.raises(InputError):
            translate(bad, 0.5)
    with pytest.raises(InputError):
        translate(sizes, float("nan"))
