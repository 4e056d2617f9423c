"""Public chance sampling on the compiled walk (``group_weights`` of ``walk_pass``, DCFR's
``sample=``): a pass walks some of the subtree groups below the first chance nodes, each
head's values scaled by its weight.

- Weights of 1 everywhere are the full pass to the bit.
- The groups split into m disjoint parts, each walked at weight m: the mean of the m passes is
  the full pass (unbiased, and a skipped group leaves nothing stale behind), on a flop whose
  river is checked down (groups: turn cards), a turn (groups: rivers) and a flop with suit
  twins left out.
- The draws: ``walked`` groups at ``n / walked`` each, the same for the same seed and iteration.
- A sampled DCFR solve converges on a flop spot: within 1% of the pot after 300 iterations of 8
  of 36 turn cards, where the same draw every iteration ends at 41% and draws left unscaled at
  4.9%.
"""

from __future__ import annotations

import numpy as np
import pytest

from solvers.algorithms import make_solver
from solvers.algorithms.options import OptionError, SolverError
from solvers.exact.compiled_walk import MODE_VALUES, Source, compiled_walk, sample_groups
from solvers.games import load_game
from tests.test_compiled_walk import random_profile, symmetric
from tests.test_lean_walk import FLOP_RIVER_CHECKED, SYMMETRIC_FLOP_LINES, TURN

SPOTS = {"flop_river_checked": FLOP_RIVER_CHECKED, "turn": TURN,
         "symmetric_flop_lines": SYMMETRIC_FLOP_LINES}  # fmt: skip


def _sources(game, walk, isomorphic: bool) -> list[Source]:
    if isomorphic:
        rng = np.random.default_rng(4)
        profile = [symmetric(game, walk.plan, p, rng) ** 3 for p in (0, 1)]
    else:
        profile = random_profile(game, 4)
    return [Source(np.ascontiguousarray(x, dtype=np.float64)) for x in profile]


@pytest.mark.parametrize("spot", sorted(SPOTS))
def test_sampled_passes_average_to_the_full_pass(spot):
    game = load_game(SPOTS[spot])
    isomorphic = spot.startswith("symmetric")
    walk = compiled_walk(game, np.float64, isomorphic=isomorphic)
    n = walk.n_groups
    assert n >= 6
    sources = _sources(game, walk, isomorphic)
    parts = 3
    order = np.random.default_rng(1).permutation(n)
    for player in (0, 1):
        full = walk.root_values(player, sources, MODE_VALUES)
        assert np.abs(full).max() > 1.0
        ones = walk.root_values(player, sources, MODE_VALUES, group_weights=np.ones(n))
        assert np.array_equal(ones, full)
        total = np.zeros_like(full)
        for k in range(parts):
            weights = np.zeros(n)
            weights[order[k::parts]] = parts
            part = walk.root_values(player, sources, MODE_VALUES, group_weights=weights)
            assert not np.allclose(part, full)  # one part alone is not the full pass
            total += part
        np.testing.assert_allclose(total / parts, full, rtol=1e-10, atol=1e-9)


def test_the_draws_are_uniform_scaled_and_reproducible():
    weights = sample_groups(49, 10, seed=7, iteration=3)
    assert np.count_nonzero(weights) == 10
    assert set(np.unique(weights)) == {0.0, 4.9}
    assert np.array_equal(weights, sample_groups(49, 10, seed=7, iteration=3))
    assert not np.array_equal(weights, sample_groups(49, 10, seed=7, iteration=4))
    assert not np.array_equal(weights, sample_groups(49, 10, seed=8, iteration=3))
    assert np.array_equal(sample_groups(5, 10, seed=7, iteration=3), np.ones(5))
    # every group is drawn about as often: 2,000 draws of 10 of 49
    counts = sum(sample_groups(49, 10, 7, t) > 0 for t in range(2000))
    assert counts.min() > 330 and counts.max() < 490  # expected 408, sd 18


def test_a_sampled_pass_updates_only_the_drawn_groups():
    game = load_game(FLOP_RIVER_CHECKED)
    solver = make_solver(game, "dcfr", sample=4, sample_seed=2, precision="64")
    walk = solver.compiled
    solver.run(iterations=1)
    before = [r.copy() for r in solver.regrets]
    solver.run(iterations=1)
    changed = [np.any(a != b, axis=1) for a, b in zip(before, solver.regrets, strict=True)]
    n_edges = [len(c) for c in changed]
    # fewer than all edges move: the undrawn turn cards' decisions keep their regrets
    assert all(0 < c.sum() < n for c, n in zip(changed, n_edges, strict=True))
    assert walk.n_groups == 36


def test_a_sampled_solve_converges_on_a_flop_spot():
    game = load_game(FLOP_RIVER_CHECKED)
    solver = make_solver(game, "dcfr", sample=8, sample_seed=3, precision="64")
    solver.run(iterations=300)
    assert solver._measure().pot_percent < 1.0  # 0.39 here; 41 with one draw, 4.9 unscaled
    again = make_solver(game, "dcfr", sample=8, sample_seed=3, precision="64")
    again.run(iterations=300)
    assert all(np.array_equal(a, b) for a, b in zip(solver.regrets, again.regrets, strict=True))


def test_sampling_needs_the_compiled_walk_and_a_count():
    game = load_game(FLOP_RIVER_CHECKED)
    with pytest.raises(SolverError, match="compiled walk"):
        make_solver(game, "dcfr", sample=4, walk="numpy")
    with pytest.raises(OptionError, match="sample"):
        make_solver(game, "dcfr", sample=-1)

