"""The lean schedule of the compiled walk (``CompiledWalk.root_values``, ``walk_pass``): rows
above the first chance nodes by levels, each subtree below depth first in a scratch.

- The cut (``games/chance_subtrees.subtree_heads``) against the definition followed parent by
  parent on a spot's public tree.
- A turn's subtrees are walked in groups by river, a flop's rivers in segments of their turn's
  subtree, each river's showdowns swept together (``showdown_batches.py``).
- Root values and best responses of random profiles equal the two-pass schedule
  (``reach_down`` + ``values_up``, itself checked against the numpy walk in
  ``test_compiled_walk.py``) to the bit, on turn and flop spots, suit isomorphism included,
  both players; in float64 against the numpy walk to 1e-10.
- Whole CFR runs (float64, float32 and 16 bits) on the lean schedule equal runs on the
  two-pass schedule to the bit: the arithmetic of every row is the same.
- Both with a subtree's strategies kept from the way down to the way up (``STRATEGY_CACHE``)
  and formed again where used (a subtree too big to keep: ``strategy_cache = 0``).
"""

from __future__ import annotations

import numpy as np
import pytest

from solvers.algorithms import make_solver
from solvers.algorithms.full_width import FullWidthCFR
from solvers.exact import showdown_batches
from solvers.exact.compiled_walk import (
    MODE_CFR,
    MODE_RESPOND,
    MODE_VALUES,
    STRATEGY_CACHE,
    CompiledWalk,
    Source,
    compiled_walk,
)
from solvers.games import load_game
from solvers.games.chance_subtrees import subtree_heads
from tests.test_compiled_walk import (
    FLOP_ALLIN,
    SYMMETRIC_FLOP,
    TURN,
    numpy_values,
    random_profile,
    root_row,
    symmetric,
)

FLOP_RIVER_CHECKED = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=300,oop_range="AA, KQs, 87s, JJ, T9s, A5s, 22",'
    'ip_range="QQ, AKs, T9s, AA:0.5, 98s, KJo",flop_oop_bet="50%",flop_ip_bet="50%",'
    'turn_oop_bet="75%",turn_ip_bet="75%",turn_ip_raise="a")'
)
"""A flop with bets on the turn and none on the river: every showdown below a turn card is
valued over its 48 rivers, with no chance node (``resolve(flop-tree=turn)``'s shape)."""
FLOP_LINES = FLOP_RIVER_CHECKED.replace('turn_ip_bet="75%",turn_ip_raise="a"',
                                       'river_ip_bet="60%"')
"""Three flop lines into the turn (check-check, and a 50% bet called from either seat), each
dealing the turn and then the river (85,563 nodes)."""
SYMMETRIC_FLOP_LINES = SYMMETRIC_FLOP.replace(
    'stack=100,', 'stack=120,').replace('flop_oop_bet="a",flop_ip_bet="a"',
                                        'flop_oop_bet="50%",flop_ip_bet="50%"')  # fmt: skip
"""Suit isomorphism with three flop lines into each turn card (107,172 nodes): a group's
members and the left-out twins of their turn cards."""
LEAN_SPOTS = {"turn": TURN, "flop_allin": FLOP_ALLIN, "symmetric_flop": SYMMETRIC_FLOP,
              "flop_river_checked": FLOP_RIVER_CHECKED, "flop_lines": FLOP_LINES,
              "symmetric_flop_lines": SYMMETRIC_FLOP_LINES}  # fmt: skip


def batch_boards(walk) -> np.ndarray:
    """Per segment, the first board its batched showdowns sweep (-1: none)."""
    batches = walk.batches
    boards = walk.tables[0].job_board[np.maximum(batches.job_first, 0)]
    return np.where(batches.jobs > 0, boards, -1)


def test_subtree_heads_are_the_highest_child_of_a_chance_node_on_each_path():
    game = load_game(SYMMETRIC_FLOP)
    nodes = game.nodes
    parent = np.array([n.parent for n in nodes])
    head = subtree_heads(parent, np.array([n.is_chance for n in nodes]))
    for node in nodes[:: max(1, len(nodes) // 500)]:  # a sample, followed up by hand
        want, at = -1, node.id
        while nodes[at].parent >= 0:
            if nodes[nodes[at].parent].is_chance:
                want = at  # the last one found going up is the highest
            at = nodes[at].parent
        assert head[node.id] == want
    # a flop spot: one subtree per flop line into the turn and turn card, nothing else
    heads = {int(h) for h in head if h >= 0}
    assert all(nodes[nodes[h].parent].is_chance and len(nodes[h].board) == 4 for h in heads)
    assert len(heads) == sum(len(n.children) for n in nodes if n.is_chance and len(n.board) == 3)


def parents_first(walk) -> bool:
    """Every row of the walk's schedule below the cut comes after its parent, or its parent
    is above the cut (its reach is there when the group starts)."""
    schedule, parent = walk.schedule, walk.plan.parent
    position = np.full(len(parent), -1)
    position[schedule.sub_rows] = np.arange(len(schedule.sub_rows))
    rows = schedule.sub_rows
    above = position[parent[rows]] < 0
    return bool((above | (position[parent[rows]] < position[rows])).all())


def test_a_turns_rivers_and_a_flops_rivers_are_swept_together(monkeypatch):
    """The turn spot's 144 subtrees (three lines into the river, 48 rivers) walk as 48 groups,
    one per river, each one segment sweeping its 11 showdowns at once. A flop spot's subtrees
    (its turn cards) stay alone, each the turn's own rows then one segment per river, whose two
    showdowns are too few to sweep together unless ``MIN_COLUMNS`` allows it. The test below
    checks the values, with segments of two columns too."""
    walk = compiled_walk(load_game(TURN), np.float64)
    batches, schedule = walk.batches, walk.schedule
    assert len(walk.plan.schedule.sub_start) - 1 == 144 and len(schedule.sub_start) - 1 == 48
    assert np.array_equal(batches.seg_start, np.arange(49)) and (batches.columns == 11).all()
    assert len(np.unique(batch_boards(walk))) == 48 and (batches.slot >= 0).sum() == 528
    assert (batches.jobs == 1).all()
    assert sorted(schedule.sub_rows) == sorted(walk.plan.schedule.sub_rows)  # every row once
    assert (walk.plan.schedule.top_index[schedule.sub_rows] >= 0).sum() == 144  # 3 heads a group
    assert parents_first(walk)
    assert (compiled_walk(load_game(FLOP_ALLIN), np.float64).batches.columns == 0).all()
    monkeypatch.setattr(showdown_batches, "MIN_COLUMNS", 2)
    flop = CompiledWalk(load_game(FLOP_ALLIN), np.dtype(np.float64))  # not the kept walk
    batches = flop.batches
    assert len(flop.schedule.sub_start) == len(flop.plan.schedule.sub_start) == 50
    assert (np.diff(batches.seg_start) == 49).all()  # the turn's rows, then 48 rivers
    first = batches.seg_start[:-1]
    assert (batches.columns[first] == 0).all() and (batch_boards(flop)[first] == -1).all()
    rivers = np.delete(np.arange(len(batches.columns)), first)
    assert (batches.columns[rivers] == 2).all()
    assert len(np.unique(batch_boards(flop)[rivers])) == 1176
    assert parents_first(flop)


def test_a_flops_lines_into_a_turn_card_walk_as_one_group_each_river_one_segment():
    """The 147 subtrees (three flop lines, 49 turn cards) walk as 49 groups, one per turn card:
    the three lines' turn rows first, then each river's rows of all three lines, one segment
    whose 12 showdowns (two turn lines into the river, each line's check-down and call, in
    each flop line) sweep that river's board together."""
    walk = compiled_walk(load_game(FLOP_LINES), np.float64)
    batches, schedule = walk.batches, walk.schedule
    assert len(walk.plan.schedule.sub_start) - 1 == 147 and len(schedule.sub_start) - 1 == 49
    assert (np.diff(batches.seg_start) == 49).all()  # the turn's rows, then 48 rivers
    first = batches.seg_start[:-1]
    assert (batches.columns[first] == 0).all()
    rivers = np.delete(np.arange(len(batches.columns)), first)
    assert (batches.columns[rivers] == 12).all() and (batches.jobs[rivers] == 1).all()
    assert len(np.unique(batch_boards(walk)[rivers])) == 1176
    assert (walk.plan.schedule.top_index[schedule.sub_rows] >= 0).sum() == 147  # 3 heads a group
    assert sorted(schedule.sub_rows) == sorted(walk.plan.schedule.sub_rows)
    assert parents_first(walk)
    # the memory estimate's scratch is a group's rows, as the solve's walk holds them
    game = load_game(FLOP_LINES)
    solver = make_solver(game, "dcfr")
    solver.run(iterations=1)
    assert solver.compiled.longest_subtree == game.solve_size.max_subtree
    assert game.solve_size.max_subtree > walk.plan.max_subtree * 2


def test_a_flops_turn_showdowns_over_every_river_are_swept_together_by_turn_card():
    """With the river checked down, each of the 147 subtrees (three flop lines into the turn,
    49 turn cards) holds only the turn's rows, whose showdowns are each valued over the 48
    rivers. The three subtrees of a turn card walk as one group, one segment whose 12
    showdowns (four a line: check-check, bet-call, bet-raise-call, and the all-in call) sweep
    the same 48 boards together, each its own pot."""
    game = load_game(FLOP_RIVER_CHECKED)
    walk = compiled_walk(game, np.float64)
    batches, schedule, tables = walk.batches, walk.schedule, walk.tables[0]
    assert len(walk.plan.schedule.sub_start) - 1 == 147 and len(schedule.sub_start) - 1 == 49
    assert np.array_equal(batches.seg_start, np.arange(50))
    assert (batches.columns == 12).all() and (batches.jobs == 48).all()
    batched = np.flatnonzero(batches.slot >= 0)
    assert len(batched) == 49 * 12 and (np.diff(tables.job_start)[batched] == 48).all()
    # every batched showdown sweeps one segment's boards in that segment's order, 12 to each
    boards = tables.job_board[tables.job_start[batched][:, None] + np.arange(48)]
    first = tables.job_board[batches.job_first[:, None] + np.arange(48)]
    match = (boards[:, None, :] == first[None, :, :]).all(axis=2)
    assert (match.sum(axis=1) == 1).all() and (match.sum(axis=0) == 12).all()
    assert len({tuple(row) for row in first}) == 49  # a set of rivers per turn card
    assert len(np.unique(first)) == 1176  # each 5-card board under two turn cards
    scales = tables.job_scale[tables.job_start[batched]]
    assert len(np.unique(scales)) > 3  # the pots differ, so each column keeps its own scale
    assert sorted(schedule.sub_rows) == sorted(walk.plan.schedule.sub_rows)
    assert parents_first(walk)


@pytest.mark.parametrize("kept", [True, False], ids=["kept", "formed"])
@pytest.mark.parametrize("spot", list(LEAN_SPOTS))
def test_lean_values_and_best_responses_equal_the_two_passes_to_the_bit(spot, kept, monkeypatch):
    monkeypatch.setattr(showdown_batches, "MIN_COLUMNS", 2)  # the flops' rivers swept together
    game = load_game(LEAN_SPOTS[spot])
    isomorphic = spot.startswith("symmetric")
    for dtype in (np.float64, np.float32):
        walk = CompiledWalk(game, np.dtype(dtype), isomorphic)  # built under the patch
        walk.strategy_cache = STRATEGY_CACHE if kept else 0
        assert walk.kept_strategies <= STRATEGY_CACHE  # so "formed" is another path
        plan = walk.plan
        assert 0 < plan.n_top < plan.n_inner and plan.max_subtree > 1  # really cut
        rng = np.random.default_rng(11)
        if isomorphic:
            profile = [symmetric(game, plan, p, rng) ** 3 for p in (0, 1)]
        else:
            profile = random_profile(game, 5)
        sources = [Source(np.ascontiguousarray(x, dtype=dtype)) for x in profile]
        for player in (0, 1):
            for mode in (MODE_VALUES, MODE_RESPOND):
                slots = (len(plan.slot_first[player]), game.n_hands[player])
                best = [np.full(slots, -1, np.int8) for _ in range(2)]
                walk.reach_down(sources)
                two = walk.values_up(player, sources, mode, best=best[0]).copy()
                lean = walk.root_values(player, sources, mode, best=best[1]).copy()
                assert np.array_equal(two, lean), (dtype, player, mode)
                assert np.abs(lean).max() > 0.1
                if mode == MODE_RESPOND:
                    assert np.array_equal(best[0], best[1])
                    assert (best[1][plan.slot_actions[player] > 1] >= 0).all()


@pytest.mark.parametrize("spot", ["turn", "flop_allin"])
def test_lean_values_equal_the_numpy_walk(spot):
    game = load_game(LEAN_SPOTS[spot])
    profile = random_profile(game, 2)
    walk = compiled_walk(game, np.float64)
    n = game.n_hands
    for player in (0, 1):
        for mode in (MODE_VALUES, MODE_RESPOND):
            _, values = numpy_values(game, profile, player, respond=mode == MODE_RESPOND)
            root = walk.root_values(player, [Source(x) for x in profile], mode)
            want = values[root_row(game), : n[player]]
            np.testing.assert_allclose(root, want, rtol=0, atol=1e-10)


class _TwoPassCFR(FullWidthCFR):
    """The solver on the two-pass schedule (every row's reach and values kept)."""

    def _compiled_update(self, player: int, iteration: int) -> None:
        walk = self._compiled
        assert walk is not None
        sources = [self._source(0), self._source(1)]
        walk.reach_down(sources)
        walk.values_up(player, sources, MODE_CFR, update=self._fused(player, iteration))


@pytest.mark.parametrize("kept", [True, False], ids=["kept", "formed"])
@pytest.mark.parametrize("precision", ["64", "32", "16"])
@pytest.mark.parametrize("algo", ["dcfr", "pcfr+"])
def test_cfr_on_the_lean_schedule_equals_the_two_passes_to_the_bit(
    precision, algo, kept, monkeypatch
):
    game = load_game(SYMMETRIC_FLOP)
    lean = make_solver(game, algo, precision=precision)
    two = _TwoPassCFR(game, algo, precision=precision)
    assert lean.compiled is not None and lean.compiled.plan.isomorphic
    monkeypatch.setattr(lean.compiled, "strategy_cache", STRATEGY_CACHE if kept else 0)
    assert lean.compiled.kept_strategies <= STRATEGY_CACHE
    lean.run(iterations=12)
    two.run(iterations=12)
    for name, a in lean._arrays().items():
        assert np.array_equal(a, two._arrays()[name]), name
    assert np.abs(lean.regrets[0]).max() > 0
    assert lean.metrics().exploitability == two.metrics().exploitability
