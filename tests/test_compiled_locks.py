"""Node locks on the compiled walk (``solvers/exact/compiled_locks.py``) against the numpy walk,
which serves every lock and is the reference: the same lock-following best responses and value
of one strategy, the same locked game's value, on a turn (chance below the locks, folds beside
them) and on a flop with a suit swap (the isomorphic walk kept for a symmetric lock, dropped
otherwise); and a pure lock solves as the spot without the locked-out actions."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokertui.cli import main
from solvers.algorithms.base import SolverError
from solvers.algorithms.full_width import FullWidthCFR
from solvers.algorithms.locked_cfr import LockedCFR
from solvers.exact.compiled_locks import first_street_decisions, suit_symmetric
from solvers.exact.evaluation import expected_values, exploitability
from solvers.exact.locks import NodeLock, locked_exploitability
from solvers.games import load_game
from solvers.strategy_file import load_strategy
from tests.lbr_fixtures import TURN_SPOT, turn_game

FLOP = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA,AKs,T9s",'
    'ip_range="JJ,98s,65s",flop_oop_bet="a",flop_ip_bet="a",'
    'turn_oop_bet="75%",turn_ip_bet="75%",river_oop_bet="75%",river_ip_bet="75%")'
)
"""Clubs and diamonds are absent, so the compiled walk leaves suit twins out."""


def _locks(game, seed: int) -> dict[int, NodeLock]:
    """Random rows on every first-street decision, half the hands locked at each."""
    rng = np.random.default_rng(seed)
    locks = {}
    for node_id in sorted(first_street_decisions(game)):
        node = game.nodes[node_id]
        n = game.n_hands[node.player]
        probs = rng.dirichlet(np.ones(len(node.actions)), size=n)
        probs[rng.random(n) < 0.3, 0] += 1.0  # some rows pure-ish
        hands = rng.random(n) < 0.5
        locks[node_id] = NodeLock(hands, probs / probs.sum(axis=1, keepdims=True))
    return locks


def _same_solve(
    game, locks, iterations: int = 300, tolerance: float = 1e-9, converged: bool = True
) -> LockedCFR:
    """The compiled locked solve: its locked rows are the lock, its lock-following best
    responses and value are the numpy walk's on the same strategy, and it reaches the locked
    game's value that the numpy walk's solve reaches. (Not step by step: regrets tied at zero
    differ by 1e-20 between the walks' summation orders, and regret matching reads such ties
    as different strategies, unlocked too, at hands no reach gets to.) ``tolerance`` in
    chips. The full game's exploitability of the output (locks ignored) is the same on both
    walks too: the compiled walk reads the locked rows' sums as the lock."""
    compiled = LockedCFR(game, locks, variant="dcfr", precision="float64")
    numpy = LockedCFR(game, locks, variant="dcfr", precision="float64", walk="numpy")
    assert compiled.compiled is not None and numpy.compiled is None
    compiled.run(iterations=iterations)
    numpy.run(iterations=iterations)
    ours = compiled.strategy()
    for n, lock in locks.items():  # the locked rows are the lock
        assert np.array_equal(np.asarray(ours[n])[lock.hands], lock.probs[lock.hands])
    got, want = compiled.metrics(), numpy.metrics()
    reference = locked_exploitability(game, ours, locks)
    assert got.exploitability == pytest.approx(reference, rel=1e-9, abs=tolerance)
    value = expected_values(game, ours).totals[0]
    assert got.game_value == pytest.approx(value, rel=1e-9, abs=tolerance)
    free = exploitability(game, ours).exploitability
    assert compiled.unlocked().exploitability == pytest.approx(free, rel=1e-9, abs=tolerance)
    # each value is within its nash conv (twice the exploitability) of the locked game's
    gap = 2 * (got.exploitability + want.exploitability)
    assert abs(got.game_value - want.game_value) <= gap
    assert gap < 2e-3 * float(game.pot) or not converged
    return compiled


def test_turn_locks_on_both_players_solve_as_on_the_numpy_walk():
    game = turn_game()
    locks = _locks(game, 7)
    assert {game.nodes[n].player for n in locks} == {0, 1} and len(locks) >= 4
    solver = _same_solve(game, locks)
    # not the unlocked game's equilibrium: free best responses beat the locked rows
    free = exploitability(game, solver.strategy())
    assert free.nash_conv > 20 * solver.metrics().exploitability


def test_flop_with_a_suit_swap_keeps_the_isomorphic_walk_for_a_symmetric_lock():
    game = load_game(FLOP)
    swap = game.suit_swap()
    assert swap is not None
    root = game.nodes[0]
    n = game.n_hands[root.player]
    probs = np.tile([0.6, 0.4], (n, 1))
    probs[: n // 2] = [0.1, 0.9]
    probs = (probs + probs[swap.hands[root.player]]) / 2  # the same for each suit twin
    locks = {0: NodeLock(np.ones(n, dtype=bool), probs)}
    assert suit_symmetric(game, locks)
    solver = _same_solve(game, locks, iterations=60, converged=False)
    assert solver.compiled is not None and solver.compiled.plan.isomorphic


def test_flop_with_a_suit_swap_walks_every_card_for_an_asymmetric_lock():
    game = load_game(FLOP)
    locks = _locks(game, 11)
    assert not suit_symmetric(game, locks)
    solver = _same_solve(game, locks, iterations=60, converged=False)
    assert solver.compiled is not None and not solver.compiled.plan.isomorphic


def test_a_lock_below_the_first_street_takes_the_numpy_walk():
    game = turn_game()
    river = next(n for n in game.decision_nodes() if n.id not in first_street_decisions(game))
    n = game.n_hands[river.player]
    probs = np.full((n, len(river.actions)), 1.0 / len(river.actions))
    locks = {river.id: NodeLock(np.ones(n, dtype=bool), probs)}
    assert LockedCFR(game, locks, variant="dcfr").compiled is None
    with pytest.raises(SolverError, match="first street"):
        LockedCFR(game, locks, variant="dcfr", walk="compiled")


def test_sixteen_bit_storage_cannot_lock():
    game = turn_game()
    with pytest.raises(SolverError, match="precision 32 or 64"):
        LockedCFR(game, _locks(game, 3), variant="dcfr", precision="int16")


def test_a_pure_lock_solves_as_the_spot_without_those_actions():
    """Independent tree: IP always checking behind on the turn is the spot with no IP turn bet."""
    game = turn_game()
    x = game.node_by_key("x")
    probs = np.zeros((game.n_hands[1], len(x.actions)))
    probs[:, 0] = 1.0
    locked = LockedCFR(game, {x.id: NodeLock(np.ones(game.n_hands[1], bool), probs)},
                       variant="dcfr", precision="float64")  # fmt: skip
    other = load_game(TURN_SPOT.replace('turn_ip_bet="75%"', 'turn_ip_bet=""'))
    assert other.node_by_key("x").actions == ("check",)
    free = FullWidthCFR(other, variant="dcfr", precision="float64")
    locked.run(iterations=200)
    free.run(iterations=200)
    assert locked.metrics().game_value == pytest.approx(free.metrics().game_value, abs=1e-6)
    assert locked.metrics().exploitability == pytest.approx(free.metrics().exploitability, abs=1e-6)


ACES_CHECK = {"": {"check": "AA", "all-in 100": "AKs,T9s"}}
"""OOP's flop root: aces always check, AKs and T9s always shove (a suit-symmetric lock)."""


def _solve_locked(tmp_path, nodes: dict, out_name: str, *options: str) -> tuple[int, object]:
    """``pokertui solve FLOP --lock`` with a lock file of ``nodes``: the exit code and the
    output path."""
    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps({"nodes": nodes}))
    out = tmp_path / out_name
    args = ["solve", FLOP, "--algo", "dcfr", *options, "--lock", str(lock), "--out", str(out)]
    return main(args), out


def _plays_aces_check(loaded) -> None:
    """The file's root rows are ``ACES_CHECK``: aces check, every other hand shoves."""
    root = np.asarray(loaded.strategy[loaded.game.node_by_key("").id])
    aces = [i for i, h in enumerate(loaded.game.hand_labels[0]) if h[0] == "A" and h[2] == "A"]
    assert root[aces, 0].tolist() == [1.0] * len(aces)
    assert (root[[i for i in range(len(root)) if i not in aces], 1] == 1.0).all()


def test_cli_locks_a_flop_on_the_compiled_walk_and_reports_rounding_in_the_files_game(
    tmp_path, capsys
):
    """``pokertui solve FLOP --lock``: the file keeps the lock; what rounding added is measured
    against the unrounded strategy's own (unlocked) gap, not against the locked game's."""
    code, out = _solve_locked(tmp_path, ACES_CHECK, "flop.json", "--target", "0.3%", "--json")
    assert code == 0
    final = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert final["exploitability"] <= 0.3  # chips of the locked game; pot 100
    assert final["exploitability_unlocked"] > 1.0  # never betting aces is a mistake
    assert abs(final["rounding_added"]) < 1e-3
    assert final["exploitability_unrounded"] == pytest.approx(
        final["exploitability_unlocked"], abs=1e-3
    )
    assert "target_missed_by_rounding" not in final
    _plays_aces_check(load_strategy(out))


def test_cli_writes_a_locked_flop_as_a_binary_file_that_keeps_the_lock(tmp_path, capsys):
    """A locked flop fits the binary form (JSON is a GB a flop): the decoded file plays the
    lock (pure rows are exact in 8 bits), its header records the lock and the exact
    exploitability of the decoded profile in the file's own game."""
    code, out = _solve_locked(tmp_path, ACES_CHECK, "flop.ptsb", "--iterations", "40", "--json")
    assert code == 0
    final = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert final["bits"] == 8 and final["exploitability_unlocked"] > 1.0
    loaded = load_strategy(out)
    assert loaded.solver.settings["locks"] == ACES_CHECK
    _plays_aces_check(loaded)
    free = exploitability(loaded.game, loaded.strategy).exploitability
    assert loaded.measured.exploitability == pytest.approx(free, rel=1e-6)
    assert final["exploitability_unlocked"] == pytest.approx(free, rel=1e-6)


def test_cli_refuses_a_binary_file_for_a_lock_that_splits_suit_twins(tmp_path, capsys):
    """Ac As is locked and its suit twin Ad As is not: a binary file's one row for both would
    break the lock, so the run stops before solving, with exit 2 and no file."""
    code, out = _solve_locked(tmp_path, {"": {"check": "AcAs"}}, "flop.ptsb", "--iterations", "5")
    assert code == 2
    assert "suit twins differently" in capsys.readouterr().err
    assert not out.exists()
