"""A spot whose later streets have no bet (the re-solve's checked-down flop) ends each flop line in
one showdown over every runout instead of dealing cards to check-only decisions. Checked against
the same spot with bets on the turn and river, every turn and river decision locked to check:
that tree deals every card and walks every check, and must give the same values and the same
(lock-following) best responses for any flop play."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.algorithms.base import make_solver
from solvers.exact.compiled_locks import first_street_decisions
from solvers.exact.evaluation import expected_values, exploitability
from solvers.exact.locks import NodeLock, locked_exploitability
from solvers.games import load_game

CHECKED = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA,AKs,T9s",ip_range="JJ,98s,65s",'
    'flop_oop_bet="50%",flop_ip_bet="50%",flop_ip_raise="a")'
)
BETTING = CHECKED[:-1] + (
    ',turn_oop_bet="75%",turn_ip_bet="75%",river_oop_bet="75%",river_ip_bet="75%")'
)


def _checked_through(betting, checked, flop_play):
    """``flop_play`` (a profile of ``checked``) on ``betting``'s flop, every later decision
    locked to check (to call where a bet is faced, which no hand reaches)."""
    strategy, locks = {}, {}
    flop = first_street_decisions(betting)
    for node in betting.decision_nodes():
        n = betting.n_hands[node.player]
        if node.id in flop:
            strategy[node.id] = np.asarray(flop_play[checked.node_by_key(node.key).id])
            continue
        rows = np.zeros((n, len(node.actions)))
        rows[:, node.actions.index("check" if "check" in node.actions else "call")] = 1.0
        strategy[node.id] = rows
        locks[node.id] = NodeLock(np.ones(n, dtype=bool), rows)
    return strategy, locks


def test_a_spot_with_no_later_bet_ends_its_flop_lines_in_runout_showdowns():
    game = load_game(CHECKED)
    assert not any(node.is_chance for node in game.nodes)
    for key in ("x/x", "b50/c", "x/b50/c", "b50/b100/c"):
        leaf = game.node_by_key(key)
        assert leaf.is_terminal and leaf.terminal == "showdown" and len(leaf.board) == 3
    betting = load_game(BETTING)
    assert betting.node_by_key("x/x").is_chance and len(betting.nodes) > 10_000


@pytest.mark.parametrize("solved", [False, True])
def test_runout_showdowns_value_flop_play_as_the_dealt_and_checked_tree(solved):
    checked, betting = load_game(CHECKED), load_game(BETTING)
    if solved:
        solver = make_solver(checked, "dcfr", precision="float64")
        solver.run(iterations=40)
        play = solver.strategy()
    else:  # a random flop play: every line and hand weighted
        rng = np.random.default_rng(3)
        play = {n.id: rng.dirichlet(np.ones(len(n.actions)), size=checked.n_hands[n.player])
                for n in checked.decision_nodes()}  # fmt: skip
    strategy, locks = _checked_through(betting, checked, play)
    want = expected_values(betting, strategy).totals
    got = expected_values(checked, play).totals
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)
    gap = exploitability(checked, play).exploitability
    assert gap == pytest.approx(locked_exploitability(betting, strategy, locks), rel=1e-9)
    assert gap > (0.05 if not solved else 0.0)  # the random play is far from equilibrium
