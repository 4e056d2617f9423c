"""Node reports on the compiled walk (``solvers/exact/decision_values.py``) against the numpy
walk, the reference executor: Bayes ranges and action values at every decision of a small flop
(on and off the equilibrium path, both seats), with the file's strategy continuing and with a
best response, suit isomorphism on (a binary file) and off (a dict), and a seat played
purified. A uniform profile or the other seat's values must not pass the same comparison.
"""

from __future__ import annotations

import numpy as np
import pytest

from solvers.exact.compiled_plan import image_node
from solvers.exact.decision_values import compiled_profile
from solvers.exact.evaluation import (
    action_values,
    action_values_from_walk,
    bayes_range_from_walk,
    profile_of,
    walk,
)
from solvers.runs.request import RunRequest
from solvers.runs.solve_run import execute
from solvers.strategy_file import load_strategy
from solvers.strategy_file.binary import BinaryStrategy
from solvers.strategy_file.transforms import NodeChange, purify, purify_per_edge, purify_rows
from tests.old_binary_files import drifted, write_unsymmetrised

SPOT = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA,KK,AKs,T9s,76s",'
    'ip_range="AA,JJ,AQs,98s,65s",flop_oop_bet="a",flop_ip_bet="a",'
    'turn_oop_bet="75%",turn_ip_bet="75%",river_oop_bet="75%",river_ip_bet="75%")'
)
"""A flop with a suit swap (clubs and diamonds absent): the binary file's walk leaves twins
out, so nodes under them read their image's rows with hands swapped."""
TOL = 1e-9


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    out = tmp_path_factory.mktemp("decision") / "spot.ptsb"
    # the average kept whole (no restart at 16): every hand reaches every node it can, so only
    # the purified profile has rows off the path
    execute(RunRequest(game=SPOT, algo="dcfr", out=out, iterations=40, options={"restart": 0}),
            lambda e: None, lambda: False)  # fmt: skip
    loaded = load_strategy(out)
    assert isinstance(loaded.strategy, BinaryStrategy)
    game = loaded.game
    as_dict = {n.id: np.asarray(loaded.strategy[n.id]) for n in game.decision_nodes()}
    return game, loaded.strategy, as_dict, out


def solved_path(solved):
    return solved[3]


def close(got: np.ndarray, want: np.ndarray) -> bool:
    nan = np.isnan(want)
    return bool(
        (np.isnan(got) == nan).all() and np.allclose(got[~nan], want[~nan], atol=TOL, rtol=0)
    )


def check_profile(game, compiled, reference_strategy, respond_seats=(0, 1)):
    """Every decision's action values (both continuations), both players' reach and both
    Bayes ranges agree. Compared all at once at the end: one ``assert_allclose`` per node
    cost more than the walks."""
    nodes = game.decision_nodes()
    for respond in (False, True):
        for seat in respond_seats:
            done = walk(game, reference_strategy, responder=seat if respond else None)
            values = done.values(game, seat, respond)
            mine = compiled.values(seat, respond)
            for node in (n for n in nodes if n.player == seat):
                want = action_values_from_walk(game, done, values, node)
                got = action_values_from_walk(game, compiled, mine, node)
                assert close(got, want), (node.key, respond)
    done = walk(game, reference_strategy)
    for p in (0, 1):
        for what in ("reach", "bayes"):
            got = np.stack([_read(game, compiled, node, p, what) for node in nodes])
            want = np.stack([_read(game, done, node, p, what) for node in nodes])
            wrong = ~(np.abs(got - want) <= TOL).all(axis=1)  # a NaN is wrong too
            first = [nodes[k].key for k in np.flatnonzero(wrong)[:5]]
            assert not wrong.any(), (p, what, first)


def _read(game, source, node, p, what):
    if what == "reach":
        return source.reach_at(node.id, p)
    return bayes_range_from_walk(game, source, node, p, normalise=False)


@pytest.mark.parametrize("pure", [False, True])
def test_the_isomorphic_walk_matches_the_numpy_walk(solved, pure):
    """The file's profile as played (``symmetrised``), and that profile purified, where many
    hands never reach a node (off the equilibrium path: their values are compared too)."""
    game, binary, _, _ = solved
    played = binary.symmetrised()
    view, changes = played, (None, None)
    if pure:
        view, changes = NodeChange(played, purify_rows), (purify_per_edge, purify_per_edge)
    compiled = compiled_profile(game, (played, played), view, changes)
    assert compiled is not None and compiled.walk.isomorphic
    plan = compiled.walk.plan
    assert (plan.inner_index < 0).sum() > (plan.terminal_index >= 0).sum()  # twins left out
    check_profile(game, compiled, reference(game, view))
    off_path = [
        n for n in game.decision_nodes()
        if ((compiled.reach_at(n.id, n.player) == 0) & game.hand_possible(n, n.player)).any()
    ]  # fmt: skip
    assert bool(off_path) == pure


def reference(game, strategy) -> dict[int, np.ndarray]:
    """The numpy walk's input: every decision's rows as a dict."""
    return {n.id: np.asarray(strategy[n.id]) for n in game.decision_nodes()}


@pytest.fixture(scope="module")
def unsymmetrised(solved, tmp_path_factory):
    """A file written before the writer symmetrised, its twin rows apart."""
    game, binary, _, _ = solved
    path = tmp_path_factory.mktemp("old") / "old.ptsb"
    write_unsymmetrised(path, game, drifted(binary))
    return load_strategy(path).strategy


def test_the_played_view_is_suit_symmetric_where_the_file_is_not(solved, unsymmetrised):
    """A solve's rows drift apart between twin hands at decisions that are their own suit
    image, and older files kept them so; the isomorphic walk is exact only for the symmetric
    view, which every reader reads. Elsewhere the view is the file's rows."""
    game = solved[0]
    binary = unsymmetrised
    played = binary.symmetrised()
    assert played is not binary and played.averaging
    swap = game.suit_swap()
    drift = 0.0
    for node in game.decision_nodes():
        own, twin = np.asarray(binary[node.id]), np.asarray(played[node.id])
        hands = swap.hands[node.player]
        if image_node(game, swap, node.id) == node.id:
            drift = max(drift, float(np.abs(own - own[hands]).max()))
            np.testing.assert_allclose(twin, twin[hands], atol=1e-12)
            np.testing.assert_allclose(twin, 0.5 * (own + own[hands]), atol=1e-6)
        else:
            np.testing.assert_array_equal(twin, own)
    assert drift > 1e-3  # what the view is for
    p = 1
    lay = binary.layouts[p]
    compact = played.compact_per_edge(p)
    for slot in (0, len(lay.nodes) // 2, len(lay.nodes) - 1):
        first, width = int(lay.first[slot]), int(lay.actions[slot])
        rows = played[int(lay.nodes[slot])]
        block = compact[first : first + width].T.astype(np.float64)
        np.testing.assert_allclose(rows, block / block.sum(axis=1, keepdims=True), atol=1e-15)


def test_dict_strategy_on_the_full_walk_matches_the_numpy_walk(solved):
    game, _, as_dict, _ = solved
    compiled = compiled_profile(game, (as_dict, as_dict), as_dict)
    assert compiled is not None and not compiled.walk.isomorphic
    check_profile(game, compiled, as_dict, respond_seats=(1,))


def test_a_purified_seat_matches_the_numpy_walk_of_the_same_mix(solved):
    game, binary, _, _ = solved
    played = binary.symmetrised()
    as_dict = reference(game, played)
    pure = purify(as_dict)
    mixed = {n.id: (pure if n.player == 1 else as_dict)[n.id] for n in game.decision_nodes()}
    compiled = compiled_profile(game, (played, played), mixed, (None, purify_per_edge))
    check_profile(game, compiled, mixed, respond_seats=(0,))


def test_action_values_route_spots_to_the_compiled_walk(solved):
    game, binary, _, _ = solved
    played = binary.symmetrised()
    node = game.node_by_key("x")
    assert profile_of(game, played).walk.isomorphic
    done = walk(game, reference(game, played))
    want = action_values_from_walk(game, done, done.values(game, 1), node)
    assert close(action_values(game, played, node), want)


def test_a_wrong_profile_or_seat_fails_the_comparison(solved):
    """The comparison has teeth: uniform play, or the other seat's values, are far off."""
    game, binary, _, _ = solved
    played = binary.symmetrised()
    as_dict = reference(game, played)
    node = game.node_by_key("x")  # IP facing a check: both players have ranges here
    done = walk(game, as_dict)
    want = action_values_from_walk(game, done, done.values(game, 1), node)
    uniform = {k: np.full_like(v, 1.0 / v.shape[1]) for k, v in as_dict.items()}
    wrong = compiled_profile(game, (uniform, uniform), uniform)
    assert not close(action_values_from_walk(game, wrong, wrong.values(1), node), want)
    right = compiled_profile(game, (played, played), played)
    assert close(action_values_from_walk(game, right, right.values(1), node), want)
    other_seat = right.values(0)
    other_seat.player = 1  # read as if it were seat 1's pass
    with pytest.raises((AssertionError, ValueError, IndexError)):
        got = action_values_from_walk(game, right, other_seat, node)
        assert close(got, want)


def test_by_card_on_the_compiled_walk_matches_the_numpy_walk(solved, monkeypatch):
    from solvers.reports import by_card

    game, binary, _, _ = solved
    played = binary.symmetrised()
    as_dict = reference(game, played)
    for key in ("x/x", "x/x/*/x"):  # the turn after checks; IP after each turn and a check
        got = by_card.by_next_card(game, binary, key)  # reads the file as played
        with monkeypatch.context() as patch:
            patch.setattr(by_card, "profile_of", lambda game, strategy: None)
            want = by_card.by_next_card(game, as_dict, key)
        assert got.cards == want.cards and len(got.cards) > 30
        for field in ("reach", "frequency", "action_ev", "ev"):
            assert close(getattr(got, field), getattr(want, field)), (key, field)


def test_pair_values_from_columns_match_the_numpy_pair_walk(solved):
    from solvers.exact.hand_values import pair_values

    game, binary, as_dict, _ = solved
    compiled = compiled_profile(game, (binary, binary), binary)
    rng = np.random.default_rng(3)
    pairs = np.argwhere(game.prior > 0)
    for h0, h1 in pairs[rng.choice(len(pairs), size=6, replace=False)]:
        want = pair_values(game, as_dict, (int(h0), int(h1)))
        got = compiled.pair_values((int(h0), int(h1)))
        np.testing.assert_allclose(got, want, atol=TOL, rtol=0)


@pytest.mark.parametrize("bot_mode", ["mixed", "purified"])
def test_a_session_reads_its_live_numbers_from_the_compiled_walk(solved, tmp_path, bot_mode):
    """A play session on the binary file: at every human decision, the action EVs (best
    response after) and the bot's range equal the numpy walk's of the same bot-vs-file mix."""
    from pokertui.session import Session
    from solvers.strategy_file import load_strategy as load

    game, binary, _, _ = solved
    loaded = load(solved_path(solved))
    session = Session(loaded, seed=11, bot_mode=bot_mode)
    as_dict = reference(session.game, session.equilibrium)  # the file as played
    game = session.game
    assert session.compiled
    bot = purify(as_dict) if bot_mode == "purified" else as_dict
    checked = 0
    rng = np.random.default_rng(5)
    for _ in range(6):
        session.new_hand()
        while not session.hand_over:
            human = session.human_seat
            mix = {n.id: (as_dict if n.player == human else bot)[n.id]
                   for n in game.decision_nodes()}  # fmt: skip
            done = walk(game, mix, responder=human)
            values = done.values(game, human, respond=True)
            own = session.hand.deal.hands[human]
            want = action_values_from_walk(game, done, values, session.node, own)
            assert close(session.action_evs(), want)
            plain = walk(game, mix)
            want_range = bayes_range_from_walk(game, plain, session.node, 1 - human, opp_hand=own)
            np.testing.assert_allclose(session.bot_range(), want_range, atol=TOL, rtol=0)
            checked += 1
            session.act(str(rng.choice(session.node.actions)))
    assert checked >= 6
