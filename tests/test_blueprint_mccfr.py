"""The blueprint solver: MCCFR's exploitability falls on a small full game, it agrees with the
spot engine's LP on a river subgame, and checkpoints resume exactly.

Both games use a fixed board and lossless buckets (a combo is its own bucket), so the exact best
response of ``blueprint_exact`` is the true one. The river reference is the sequence-form LP of
the spot engine (``solvers/games/holdem`` + ``solvers/exact/lp.py``), a separate implementation
of the same game: its equilibrium value must lie between the two best-response values of the
MCCFR profile, and the profile's own value must be close to it.
"""

import numba
import numpy as np
import pytest

from solvers.abstraction.betting import parse_betting
from solvers.abstraction.betting_tree import build_tree, root_state
from solvers.algorithms.blueprint_deals import FixedBoardDeals
from solvers.algorithms.blueprint_exact import exact_figures
from solvers.algorithms.blueprint_mccfr import BlueprintMCCFR, CheckpointError, MccfrOptions
from solvers.cards.deck import N_COMBOS, parse_cards
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.games.hunl.rules import HunlConfig

BOARD = "Kd 7c 2h 4s 9d"
OOP = "KQs-K7s, 77, 72s, A5s-A3s, 98s, QJs"
IP = "AA, KK, 22, AK, JTs, 65s, 86s, 53s"
NO_DISCOUNT = {"prune_after": 10**12, "linear_until": 0}


def _random_ranges(seed: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ranges = (np.zeros(N_COMBOS), np.zeros(N_COMBOS))
    for weights in ranges:
        weights[rng.choice(N_COMBOS, size, replace=False)] = rng.uniform(0.5, 1.0, size)
    return ranges


def test_exploitability_of_the_abstract_game_falls():
    """A 10 bb game from preflop to river on a fixed board: the exact exploitability of the
    average strategy drops from about 100 chips to a few (the pot is 150, stacks 1,000)."""
    deals = FixedBoardDeals(parse_cards("Ks 7h 2d 9c 4s"), _random_ranges(1, 25))
    betting = parse_betting("pre=3x,a|a; flop=75%,a|a; turn=75%,a|a; river=75%,a|a")
    tree = build_tree(betting, root_state(HunlConfig(10)))
    solver = BlueprintMCCFR(tree, deals, MccfrOptions(batch=1000, **NO_DISCOUNT))
    early = exact_figures(tree, deals, solver.run(iterations=2_000).node_rows)
    late = exact_figures(tree, deals, solver.run(iterations=150_000).node_rows)
    assert early.exploitability > 40.0
    assert late.exploitability < 10.0
    assert late.exploitability < early.exploitability / 6
    # zero-sum bookkeeping: the two seats' values cancel
    assert late.values[0] == pytest.approx(-late.values[1], abs=1e-9)


@pytest.mark.slow
def test_exploitability_keeps_falling_once_pruning_and_the_discount_start():
    """The shipped schedule scaled to the small exact game (pruning from 50,000 iterations below
    100 stacks of regret, the linear discount to 100,000): at 300,000 iterations the
    exploitability is about a third of its value when pruning starts, and it keeps falling
    after the discount stops (``benchmarks/bench_blueprint_pruning.py`` follows it further)."""
    from dataclasses import replace  # noqa: PLC0415

    from tests.blueprint_fixtures import small_game  # noqa: PLC0415

    base = small_game(0, 1000)
    shipped = {"prune_after": 50_000, "prune_below": -1e5, "linear_until": 100_000,
               "discount_every": 5_000}  # fmt: skip
    solver = BlueprintMCCFR(base.tree, base.deals, replace(base.options, **shipped))
    found = []
    for mark in (50_000, 100_000, 300_000):
        solver.run(iterations=mark - solver.iterations)
        found.append(exact_figures(solver.tree, solver.deals, solver.node_rows).exploitability)
    at_prune, at_linear_end, late = found
    assert late < at_linear_end < at_prune
    assert late < 0.45 * at_prune and late < 0.7 * at_linear_end


def _river_spot():
    spec = (
        f'nlhe(board="{BOARD}", pot=400, stack=800, oop_range="{OOP}", ip_range="{IP}", '
        'river_oop_bet="75%, a", river_ip_bet="75%, a", river_oop_raise="a", '
        'river_ip_raise="a", river_raise_cap=1)'
    )
    return load_game(spec)


def test_river_subgame_agrees_with_the_spot_engine():
    """Pot 400, 800 behind, bets 75% and all-in, all-in raises: the spot's LP value for OOP (the
    big blind, seat 1 here) lies between MCCFR's best-response bounds and near its value."""
    spot = _river_spot()
    lp_value_ip = -solve_lp(spot).value  # the spot's player 0 is OOP: seat 1 of the full game
    ranges = (np.zeros(N_COMBOS), np.zeros(N_COMBOS))
    ranges[0][spot.hand_combos[1]] = spot.range_weights[1]
    ranges[1][spot.hand_combos[0]] = spot.range_weights[0]
    deals = FixedBoardDeals(parse_cards(BOARD), ranges)
    tree = build_tree(parse_betting("pre=a; flop=a; turn=a; river=75%,a|a"),
                      root_state(HunlConfig(10), street=3, committed=200))  # fmt: skip
    assert tree.n_nodes == len(spot.nodes)
    solver = BlueprintMCCFR(tree, deals, MccfrOptions(batch=1000, **NO_DISCOUNT))
    figures = exact_figures(tree, deals, solver.run(iterations=150_000).node_rows)
    br_ip, br_oop = figures.best_responses
    assert -br_oop - 1e-9 <= lp_value_ip <= br_ip + 1e-9
    assert figures.exploitability < 0.01 * 400
    assert abs(figures.values[0] - lp_value_ip) <= 2 * figures.exploitability
    assert abs(lp_value_ip) > 1.0  # the spot is not trivially even: a seat swap would show


def _small_solver(seed: int = 3, **options) -> BlueprintMCCFR:
    deals = FixedBoardDeals(parse_cards(BOARD), _random_ranges(2, 12))
    betting = parse_betting("pre=3x,a|a; flop=a; turn=a; river=75%,a|a")
    tree = build_tree(betting, root_state(HunlConfig(10)))
    return BlueprintMCCFR(tree, deals, MccfrOptions(batch=200, seed=seed, **options), "test")


def test_checkpoint_resumes_exactly(tmp_path):
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # lock-free updates are only bit-reproducible on one thread
    try:
        options = {"prune_after": 600, "linear_until": 1_000, "discount_every": 400}
        straight = _small_solver(**options).run(iterations=1_400)
        first = _small_solver(**options).run(iterations=800)
        first.save_checkpoint(tmp_path / "run.npz")
        resumed = _small_solver(**options)
        resumed.load_checkpoint(tmp_path / "run.npz")
        assert resumed.iterations == 800
        resumed.run(iterations=600)
    finally:
        numba.set_num_threads(threads)
    assert resumed.iterations == straight.iterations == 1_400
    np.testing.assert_array_equal(resumed.regret, straight.regret)
    np.testing.assert_array_equal(resumed.strategy_sum, straight.strategy_sum)
    assert np.abs(straight.regret).max() > 0


def test_foreign_or_corrupt_checkpoints_are_refused(tmp_path):
    path = tmp_path / "run.npz"
    _small_solver().run(iterations=200).save_checkpoint(path)
    with pytest.raises(CheckpointError, match="another run"):
        _small_solver(seed=4).load_checkpoint(path)
    path.write_bytes(path.read_bytes()[:300])
    with pytest.raises(CheckpointError, match="corrupt"):
        _small_solver().load_checkpoint(path)
    other = tmp_path / "other.npz"
    np.savez(other, regret=np.zeros(3))
    with pytest.raises(CheckpointError, match="not a blueprint checkpoint"):
        _small_solver().load_checkpoint(other)
