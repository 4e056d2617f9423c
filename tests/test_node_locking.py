"""Node locking: the locked game's equilibrium, checked against independent computations.

Kuhn: the locked game's value comes from the pure-strategy matrix game of the brute-force
oracle (``tests/kuhn_brute_force.py``, no ``solvers`` code) solved by a linear program; the
lock-following best responses are brute-forced over pure strategies. River: locking OOP's root
to always check makes IP bet more after the check, and OOP's EV does not rise.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.optimize import linprog

from pokertui.cli import main
from solvers.algorithms.full_width import FullWidthCFR
from solvers.algorithms.locked_cfr import LockedCFR, make_locked_solver
from solvers.errors import InputError
from solvers.exact.locks import NodeLock, locked_exploitability
from solvers.games import load_game
from solvers.strategy_file import load_strategy
from solvers.strategy_file.locks import loads_locks
from tests import kuhn_brute_force as oracle

J, Q, K = 0, 1, 2


def _kuhn_j_bets():
    game = load_game("kuhn")
    probs = np.zeros((3, 2))
    probs[J] = [0.0, 1.0]
    return game, {game.node_by_key("").id: NodeLock(np.array([True, False, False]), probs)}


def _respects_lock(pure) -> bool:
    return bool(pure[""][J][1] == 1.0)


def _matrix_game_value(rows, cols) -> float:
    """Seat 0's maximin value of the pure-strategy matrix game, by LP."""
    payoff = np.array([[oracle.seat0_value({**r, **c}) for c in cols] for r in rows])
    n = len(rows)
    # maximise v s.t. x^T A >= v, sum x = 1, x >= 0 ; variables (x, v)
    result = linprog(
        c=np.r_[np.zeros(n), -1.0],
        A_ub=np.c_[-payoff.T, np.ones(len(cols))],
        b_ub=np.zeros(len(cols)),
        A_eq=np.r_[np.ones(n), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    assert result.status == 0
    return float(-result.fun)


def _as_histories(game, strategy):
    return {n.key: np.asarray(strategy[n.id]) for n in game.decision_nodes()}


@pytest.fixture(scope="module")
def kuhn_locked_solution():
    game, locks = _kuhn_j_bets()
    solver = LockedCFR(game, locks, variant="cfr+")
    solver.run(iterations=4000)
    return game, locks, solver


def test_kuhn_locked_value_matches_the_matrix_game_of_lock_following_pure_strategies(
    kuhn_locked_solution,
):
    game, _, solver = kuhn_locked_solution
    rows = [s for s in oracle.pure_strategies(0) if _respects_lock(s)]
    cols = list(oracle.pure_strategies(1))
    value = _matrix_game_value(rows, cols)
    assert value == pytest.approx(-5 / 18, abs=1e-9)  # worse than Kuhn's -1/18: the lock costs
    strategy = _as_histories(game, solver.strategy())
    assert oracle.seat0_value(strategy) == pytest.approx(value, abs=2e-3)
    # the re-solved seat 1 holds seat 0 to the value even against lock-following deviations...
    seat0_best = max(oracle.seat0_value({**strategy, **r}) for r in rows)
    assert seat0_best == pytest.approx(value, abs=2e-3)
    # ...and seat 1 gets no more than the value by any deviation against the locked seat 0
    assert oracle.best_response_value(strategy, seat=1) == pytest.approx(-value, abs=2e-3)


def test_kuhn_locked_rows_are_the_lock_and_their_regrets_stay_zero(kuhn_locked_solution):
    game, locks, solver = kuhn_locked_solution
    root = game.node_by_key("").id
    assert solver.strategy()[root][J].tolist() == [0.0, 1.0]
    assert solver.current_strategy()[root][J].tolist() == [0.0, 1.0]
    edges = solver.edge_locks[0]
    assert np.all(solver.regrets[0][edges.edges][edges.mask] == 0.0)
    # the unlocked hands at the locked node are still solved: K bets, Q checks (value -5/18)
    assert solver.strategy()[root][Q, 0] == pytest.approx(1.0, abs=0.02)
    assert solver.metrics().exploitability < 1e-3


def test_locked_exploitability_equals_brute_force_lock_following_responses():
    game, locks = _kuhn_j_bets()
    rng = np.random.default_rng(3)
    strategy = {n.id: rng.dirichlet(np.ones(2), size=3) for n in game.decision_nodes()}
    strategy[game.node_by_key("").id][J] = [0.0, 1.0]
    by_history = _as_histories(game, strategy)
    seat0 = max(
        oracle.seat0_value({**by_history, **r})
        for r in oracle.pure_strategies(0)
        if _respects_lock(r)
    )
    seat1 = oracle.best_response_value(by_history, seat=1)
    expected = 0.5 * (seat0 + seat1)
    assert locked_exploitability(game, strategy, locks) == pytest.approx(expected, abs=1e-12)
    unconstrained = 0.5 * (oracle.best_response_value(by_history, seat=0) + seat1)
    assert unconstrained > expected + 1e-3  # the lock binds here, so the check can fail


def test_only_full_width_cfr_locks():
    game, locks = _kuhn_j_bets()
    with pytest.raises(InputError, match="full-width CFR"):
        make_locked_solver(game, "fp", locks)


# --- lock files --------------------------------------------------------------------------


def test_lock_file_errors_are_all_reported():
    game = load_game("kuhn")
    text = json.dumps(
        {"nodes": {"": {"J": {"bet": 0.7}}, "zz": {"J": {"bet": 1}}, "c": {"Q": {"raise": 1}}}}
    )
    with pytest.raises(InputError) as caught:
        loads_locks(text, game)
    message = str(caught.value)
    assert "probabilities sum to 0.7, not 1" in message
    assert "unknown node: 'zz'" in message
    assert "unknown action here" in message and "raise" in message


def test_lock_file_for_another_game_is_refused():
    game = load_game("kuhn")
    with pytest.raises(InputError, match="the locks are for"):
        loads_locks(json.dumps({"game": "leduc", "nodes": {"": {"J": {"bet": 1}}}}), game)


def test_holdem_lock_by_class_and_combo_covers_exactly_those_live_combos():
    game = load_game("spots/river.toml")
    text = json.dumps({"nodes": {"": {"AKs": {"bet 75": 1}, "KdAh": {"check": 1}}}})
    locks, _ = loads_locks(text, game)
    (lock,) = locks.values()
    labels = np.array(game.hand_labels[0])
    assert sorted(labels[lock.hands]) == ["AcKc", "AdKd", "AhKd", "AhKh", "AsKs"]
    bet75 = game.node_by_key("").actions.index("bet 75")
    suited = np.isin(labels, ["AcKc", "AdKd", "AhKh", "AsKs"])
    assert np.all(lock.probs[suited, bet75] == 1.0)
    assert lock.probs[labels == "AhKd", 0] == 1.0


def test_holdem_lock_with_a_dead_combo_is_an_error():
    game = load_game("spots/river.toml")
    text = json.dumps({"nodes": {"": {"QsJs": {"check": 1}}}})
    with pytest.raises(InputError, match="no live combo"):
        loads_locks(text, game)


def test_cli_solve_with_lock_records_the_locks_and_keeps_them(tmp_path, capsys):
    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps({"game": "kuhn", "nodes": {"": {"J": {"bet": 1}}}}))
    out = tmp_path / "k.json"
    args = ["solve", "kuhn", "--algo", "cfr+", "--iterations", "3000"]
    code = main([*args, "--lock", str(lock), "--out", str(out), "--json"])
    assert code == 0
    final = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert final["exploitability"] < 1e-3  # of the locked game
    assert final["exploitability_unlocked"] > 0.1  # the lock is a mistake in the real game
    loaded = load_strategy(out)
    assert loaded.solver.settings["locks"] == {"": {"J": {"bet": 1}}}
    assert loaded.strategy[loaded.game.node_by_key("").id][J].tolist() == [0.0, 1.0]


@pytest.mark.parametrize(
    "nodes, message",
    [
        ({"": {"J": {"bet": 0.5}}}, "sum to 0.5"),
        ({"c/c": {"J": {"bet": 1}}}, "is not a decision node"),
        ({"": {"J": {"shove": 1}}}, "unknown action"),
    ],
)
def test_cli_bad_lock_exits_2_with_a_message(tmp_path, capsys, nodes, message):
    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps({"nodes": nodes}))
    out = tmp_path / "k.json"
    args = ["solve", "kuhn", "--algo", "cfr+", "--iterations", "10", "--lock", str(lock)]
    assert main([*args, "--out", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_cli_lock_with_a_non_cfr_algorithm_exits_2(tmp_path, capsys):
    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps({"nodes": {"": {"J": {"bet": 1}}}}))
    args = ["solve", "kuhn", "--algo", "lp", "--lock", str(lock), "--out", str(tmp_path / "o")]
    assert main(args) == 2
    assert "full-width CFR" in capsys.readouterr().err


# --- the river spot ----------------------------------------------------------------------


def _ip_bets(game, strategy) -> tuple[float, float]:
    """IP's bet frequency at ``x`` over IP's range, and how often a deal goes check-bet."""
    root, check = game.node_by_key(""), game.node_by_key("x")
    oop, ip = game.hand_weights(0), game.hand_weights(1)
    checks = float(oop @ np.asarray(strategy[root.id])[:, 0] / oop.sum())
    rows = np.asarray(strategy[check.id])
    per_check = float(ip @ rows[:, 1:].sum(axis=1) / ip.sum())  # action 0 is check
    return per_check, checks * per_check


@pytest.fixture(scope="module")
def river_solutions():
    game = load_game("spots/river.toml")
    root = game.node_by_key("")
    assert root.actions[0] == "check" and game.node_by_key("x").actions[0] == "check"
    free = FullWidthCFR(game, variant="dcfr")
    free.run(iterations=600)
    probs = np.zeros((game.n_hands[0], len(root.actions)))
    probs[:, 0] = 1.0
    locks = {root.id: NodeLock(np.ones(game.n_hands[0], dtype=bool), probs)}
    locked = LockedCFR(game, locks, variant="dcfr")
    locked.run(iterations=600)
    return game, free, locked


def test_river_lock_equals_the_spot_where_oop_cannot_bet(river_solutions):
    """An independent tree: the same spot with no OOP bet sizes is the locked game."""
    game, _, locked = river_solutions
    spec = game.spec_string()
    assert 'river_oop_bet="33%, 75%, 150%, a"' in spec
    check_only = load_game(spec.replace('river_oop_bet="33%, 75%, 150%, a"', 'river_oop_bet=""'))
    assert check_only.node_by_key("").actions == ("check",)
    other = FullWidthCFR(check_only, variant="dcfr")
    other.run(iterations=600)
    assert locked.metrics().exploitability < 0.01  # chips, pot 100
    assert other.metrics().exploitability < 0.01
    assert locked.metrics().game_value == pytest.approx(other.metrics().game_value, abs=0.02)
    ours = np.asarray(locked.strategy()[game.node_by_key("x").id])
    theirs = np.asarray(other.strategy()[check_only.node_by_key("x").id])
    weights = game.hand_weights(1) / game.hand_weights(1).sum()
    assert weights @ np.abs(ours - theirs).sum(axis=1) < 0.01


def test_river_lock_oop_always_checks_ip_bets_more_and_oop_ev_does_not_rise(river_solutions):
    game, free, locked = river_solutions
    root = game.node_by_key("")
    assert free.metrics().exploitability < 0.05  # chips, pot 100: 0.05% of the pot
    assert locked.metrics().exploitability < 0.01
    locked_strategy = locked.strategy()
    assert np.all(np.asarray(locked_strategy[root.id])[:, 0] == 1.0)
    free_per_check, free_check_bet = _ip_bets(game, free.strategy())
    locked_per_check, locked_check_bet = _ip_bets(game, locked_strategy)
    # IP gets to bet after a check more often (0.314 of deals against 0.294) ...
    assert locked_check_bet > free_check_bet + 0.01
    # ... though less often per check: OOP's checking range is no longer capped (0.31 vs 0.44)
    assert locked_per_check < free_per_check - 0.05
    # OOP's EV does not rise; here it falls by about 1.4 chips (betting was worth that)
    assert locked.metrics().game_value < free.metrics().game_value - 1.0


@pytest.mark.parametrize("variant", ["cfr", "dcfr", "pcfr+"])
def test_every_full_width_variant_reaches_the_locked_value(variant):
    game, locks = _kuhn_j_bets()
    solver = LockedCFR(game, locks, variant=variant, alternating=variant != "cfr")
    solver.run(iterations=3000)
    assert solver.metrics().game_value == pytest.approx(-5 / 18, abs=3e-3)
    assert solver.metrics().exploitability < 3e-3


@pytest.mark.parametrize(
    "text, message",
    [
        ("AKs bet", "an edit looks like"),
        ("AKs: bet 75=0.5", "sum to 0.5"),
        ("AKs: raise=1", "unknown action"),
        ("ZZ: check=1", "unknown hand"),
        ("QsJs: check=1", "no live combo"),
        ("AKs: check=x", "not a probability"),
    ],
)
def test_explorer_edits_that_are_not_distributions_are_refused(text, message):
    from solvers.strategy_file.locks import edit_rows

    game = load_game("spots/river.toml")
    root = game.node_by_key("")
    rows = np.full((game.n_hands[0], len(root.actions)), 1.0 / len(root.actions))
    with pytest.raises(InputError, match=message):
        edit_rows(game, root.id, rows, text)
    edited = edit_rows(game, root.id, rows, "AKs: bet 75=1")
    changed = np.flatnonzero((edited != rows).any(axis=1))
    assert sorted(game.hand_labels[0][i] for i in changed) == ["AcKc", "AdKd", "AhKh", "AsKs"]
    assert np.allclose(edited.sum(axis=1), 1.0)
