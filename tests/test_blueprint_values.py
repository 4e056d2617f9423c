"""Preflop values from a blueprint (``reports/blueprint_values.py``): one deal valued against a
recursive walk of the raw slots written here; the all-in's value against its closed form (the
opponent's fold odds and the equity against its calling range); the table behind the live
panel; and a killed build resuming to the same table. The blueprint is the small random
10 bb one of ``test_blueprint_report``."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.abstraction.betting_tree import DECISION, FOLD_END
from solvers.agents.blueprint import load_blueprint_agent
from solvers.cards.deck import COMBO_CARDS, COMBO_CLASS, COMBO_INDEX, dead_mask, parse_cards
from solvers.cards.evaluator import evaluate_hand
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlConfig, HunlState
from solvers.reports import blueprint_value_kernels as kernels
from solvers.reports import blueprint_values as bv
from solvers.reports.blueprint_report import open_blueprint_view
from solvers.reports.hunl_live import equity_against, live_numbers
from tests.test_blueprint_report import class_of, small_blueprint


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path, raw, tree = small_blueprint(tmp_path_factory.mktemp("bpv") / "small.npz")
    view = open_blueprint_view(path)
    pool = bv.board_pool(view, flops=24, runouts=6, seed=3)
    return path, raw, tree, view, pool


def brute_value(tree, raw, offsets, cards, node, seat, holes, board) -> float:
    """``seat``'s net of the hand from ``node``, every action weighed, by plain recursion."""
    kind = int(tree.kind[node])
    if kind == FOLD_END:
        return -float(tree.amount[node]) if tree.player[node] == seat else float(tree.amount[node])
    if kind != DECISION:
        strengths = [evaluate_hand([*holes[s], *board]) for s in (0, 1)]
        if strengths[0] == strengths[1]:
            return 0.0
        return float(tree.amount[node]) * (1 if (strengths[seat] > strengths[1 - seat]) else -1)
    player, street = int(tree.player[node]), int(tree.street[node])
    combo = int(COMBO_INDEX[holes[player][0], holes[player][1]])
    if street == 0:
        bucket = int(COMBO_CLASS[combo])
    else:
        bucket = int(cards.combo_buckets(np.array(board), street)[combo])
    na = int(tree.n_actions[node])
    start = int(offsets[node]) + bucket * na
    total = 0.0
    for a in range(na):
        child = int(tree.edge_child[int(tree.edge_start[node]) + a])
        total += (
            raw[start + a]
            / 255.0
            * brute_value(tree, raw, offsets, cards, child, seat, holes, board)
        )
    return total


def test_a_deal_is_valued_as_the_recursive_walk_of_the_raw_slots(small):
    path, raw, tree, view, pool = small
    offsets = tree.slot_offsets((169, 4, 4, 4))[0]
    ends = bv.subtree_ends(view)
    args = bv.kernel_inputs(view, pool)
    rng = np.random.default_rng(11)
    for node, seat in ((0, 0), (int(view.node("r250").node), 1), (int(view.node("c").node), 1)):
        for _ in range(3):
            b = int(rng.integers(len(pool.cards)))
            board = [int(c) for c in pool.cards[b]]
            live = np.flatnonzero(~dead_mask(board))
            own, opp = (int(x) for x in rng.choice(live, 2, replace=False))
            while set(COMBO_CARDS[own]) & set(COMBO_CARDS[opp]):
                opp = int(rng.choice(live))
            deals = np.array([[own, opp, b]], dtype=np.int64)
            none = np.zeros((0, 2), dtype=np.int64)
            got = kernels.child_values(node, int(ends[node]), seat, deals, none, *args)[0]
            holes = [None, None]
            holes[seat], holes[1 - seat] = tuple(COMBO_CARDS[own]), tuple(COMBO_CARDS[opp])
            start = int(tree.edge_start[node])
            for a in range(int(tree.n_actions[node])):
                child = int(tree.edge_child[start + a])
                want = brute_value(tree, raw, offsets, view.cards, child, seat, holes, board)
                assert got[a] == pytest.approx(want, abs=1e-9)
                swapped = brute_value(tree, raw, offsets, view.cards, child, 1 - seat, holes, board)
                if abs(swapped - want) > 1:
                    assert got[a] != pytest.approx(swapped, abs=1e-6)


@pytest.mark.parametrize(
    "label, hole, far_from_uniform",
    [("AA", "AhAd", True), ("72o", "7h2d", True), ("T9s", "Th9h", False)],
)
def test_all_in_value_matches_its_closed_form(small, label, hole, far_from_uniform):
    _, raw, tree, view, pool = small
    ends = bv.subtree_ends(view)
    c = class_of(label)
    ev, se = bv.node_values(view, pool, 0, 6000, 5, ends, classes=[c])
    shove = view.node("r1000").node
    offset = int(tree.slot_offsets((169, 4, 4, 4))[0][shove])
    call = raw[offset + 1 : offset + 2 * 169 : 2] / 255.0  # the big blind's call, per class
    assert len(call) == 169
    cards = parse_cards(hole)
    weights = call[COMBO_CLASS.astype(int)] * ~dead_mask(cards)
    live = (~dead_mask(cards)).sum()
    fold = 1 - weights.sum() / live
    equity, _ = equity_against(np.zeros(0, dtype=np.intp), tuple(cards), weights, seed=2)
    # chips from now on for the small blind (50 in): the blind folds (+150), or a 1,000 pot
    closed = fold * 150 + (1 - fold) * (equity * 2000 - 950)
    error = np.hypot(se[c, 3], (1 - fold) * 2000 * 0.012)  # 2,000 boards: equity within ~1.2%
    assert ev[c, 3] == pytest.approx(closed, abs=4 * error)
    assert 4 * error < 80  # under 0.8 bb: a 50/50 caller or a seat swap lands far away
    uniform = 0.5 * 150 + 0.5 * (
        equity_against(np.zeros(0, dtype=np.intp), tuple(cards), ~dead_mask(cards) * 1.0, seed=2)[0]
        * 2000
        - 950
    )
    assert abs(uniform - closed) > 4 * error or not far_from_uniform
    assert ev[c, 0] == 0.0  # folding
    assert abs(-ev[c, 3] - closed) > 4 * error  # the big blind's view of the same shove


def test_live_panel_values_preflop_from_the_table_and_the_build_resumes(small, tmp_path):
    path, _, _, view, _ = small
    calls = []

    def killed(message: str) -> None:
        calls.append(message)
        if message.startswith("node") and len(calls) > 3:
            raise KeyboardInterrupt

    out = bv.values_path(path)
    with pytest.raises(KeyboardInterrupt):
        bv.build_values(view, out, flops=6, runouts=2, deals=200, seed=4, progress=killed)
    assert not out.exists() and out.with_name(out.name + ".partial.npz").exists()
    resumed: list[str] = []
    bv.build_values(view, out, flops=6, runouts=2, deals=200, seed=4, progress=resumed.append)
    assert resumed[0].startswith("resuming: ")
    fresh = bv.build_values(view, tmp_path / "fresh.npz", flops=6, runouts=2, deals=200, seed=4)
    a, b = bv.read_values(out, view.strategy), bv.read_values(fresh)
    np.testing.assert_array_equal(a.ev, b.ev)
    np.testing.assert_array_equal(a.se, b.se)

    agent = load_blueprint_agent(path, warm=False)
    state = HunlState.initial(HunlConfig(stack_bb=10))
    hole = tuple(parse_cards("Th9h"))
    found = bv.blueprint_preflop_values(agent, state, hole)
    row, c = a.row(0), class_of("T9s")
    assert found is not None
    assert found.actions == (Action(FOLD), Action(CALL), Action(RAISE, 250), Action(RAISE, 1000))
    np.testing.assert_allclose(found.ev, a.ev[row, c, :4])
    numbers = live_numbers(state, np.zeros(0, dtype=np.intp), hole, np.ones(1326), agent)
    values = {e.action: e.ev for e in numbers.evs}
    assert values[Action(RAISE, 250)] == pytest.approx(float(a.ev[row, c, 2]))
    assert values[Action(CALL)] == pytest.approx(float(a.ev[row, c, 1]))
    assert "Monte Carlo" in numbers.ev_method and "standard error" in numbers.ev_method
    after_open = state.apply(Action(RAISE, 250))
    assert bv.blueprint_preflop_values(agent, after_open, hole) is not None
    off_tree = state.apply(Action(RAISE, 300))  # a size the tree lacks: not valued
    assert bv.blueprint_preflop_values(agent, off_tree, hole) is None


def test_a_re_solving_bot_is_valued_by_its_blueprint_with_a_warning(small, tmp_path):
    from solvers.agents.resolving import ResolvingAgent

    path, _, _, view, _ = small
    copy = tmp_path / "small.npz"
    copy.write_bytes(path.read_bytes())
    out = bv.build_values(view, bv.values_path(copy), flops=6, runouts=2, deals=100, seed=4)
    agent = load_blueprint_agent(copy, warm=False)
    state = HunlState.initial(HunlConfig(stack_bb=10))
    hole = tuple(parse_cards("AsKd"))
    plain = bv.blueprint_preflop_values(agent, state, hole)
    wrapped = bv.blueprint_preflop_values(ResolvingAgent(base=agent), state, hole)
    assert plain is not None and wrapped is not None
    table = bv.read_values(out)
    np.testing.assert_allclose(wrapped.ev, table.ev[table.row(0), class_of("AKo"), :4])
    assert "re-solves later streets" in wrapped.note and "re-solves" not in plain.note


def test_calling_an_all_in_uses_fresh_boards_and_matches_its_closed_form(small):
    _, raw, tree, view, pool = small
    ends = bv.subtree_ends(view)
    node = view.node("r1000").node  # the big blind facing the small blind's shove
    assert bv.deals_at(view, node, 1000, ends) == 16_000
    shove = raw[3 : 169 * 4 : 4] / 255.0  # the small blind's all-in, per class (root block)
    for label, hole in (("KQo", "KhQd"), ("55", "5c5d")):
        c = class_of(label)
        ev, se = bv.node_values(view, pool, node, 1000, 2, ends, classes=[c])
        cards = parse_cards(hole)
        weights = shove[COMBO_CLASS.astype(int)] * ~dead_mask(cards)
        equity, _ = equity_against(np.zeros(0, dtype=np.intp), tuple(cards), weights, seed=3)
        closed = equity * 2000 - 900  # the big blind has 100 in: call 900 for a 2,000 pot
        error = np.hypot(se[c, 1], 2000 * 0.012)
        assert se[c, 1] < 10 and ev[c, 0] == 0.0
        assert ev[c, 1] == pytest.approx(closed, abs=4 * error)
