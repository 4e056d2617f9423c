"""The blueprint file and bot: quantisation, the round trip from solver to policy, following real
hands (on-tree, off-tree by translation, all-in), legal answers, and refusing bad files.

A small 10 bb blueprint with lossless postflop buckets (``combo``: no tables to build) is
trained once for the module.
"""

import json
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from solvers.abstraction.betting_tree import EDGE_RAISE
from solvers.agents import blueprint as blueprint_module
from solvers.agents.blueprint import BlueprintAgent, load_blueprint_agent
from solvers.agents.registry import make_agent
from solvers.algorithms.blueprint_mccfr import MccfrOptions
from solvers.cards.deck import COMBO_CARDS, COMBO_CLASS, COMBO_INDEX, N_COMBOS, parse_cards
from solvers.errors import InputError
from solvers.games.hunl.rules import Action, HunlConfig, HunlState, replay
from solvers.games.translation import pseudo_harmonic
from solvers.runs.blueprint_build import BlueprintSpec, export, make_trainer
from solvers.strategy_file.blueprint_file import (
    BlueprintFileError,
    quantise_rows,
    read_blueprint,
    write_blueprint,
)

SPEC = BlueprintSpec(
    stack_bb=10,
    betting="pre=2.5x,a|a; flop=50%,100%,a|a; turn=a; river=a",
    cards="hs2(flop=combo,turn=combo,river=combo)",
    options=MccfrOptions(batch=1000, seed=7),
)
BOARD = np.array(parse_cards("Ks 7h 2d 9c 4s"))


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    trainer = make_trainer(SPEC).run(iterations=20_000)
    path = export(trainer, SPEC, tmp_path_factory.mktemp("bp") / "tiny.npz")
    return trainer, path


def test_quantised_rows_sum_to_255_and_round_each_entry():
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 7, size=500)
    probabilities = rng.dirichlet(np.ones(7), size=500)
    pairs = zip(probabilities, lengths, strict=True)
    flat = np.concatenate([p[:n] / p[:n].sum() for p, n in pairs])
    flat[: lengths[0]] = 0.0  # an all-zero row becomes uniform
    q = quantise_rows(flat, lengths).astype(int)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    assert (np.add.reduceat(q, starts) == 255).all()
    wanted = flat.copy()
    wanted[: lengths[0]] = 1.0 / lengths[0]
    assert np.abs(q / 255.0 - wanted).max() < 1.0 / 255.0


def test_the_file_header_rebuilds_the_game(trained):
    trainer, path = trained
    header = read_blueprint(path).header
    assert header["game"] == "hunl(stack_bb=10)"
    assert header["iterations"] == trainer.iterations == 20_000
    assert header["n_buckets"] == [169, N_COMBOS, N_COMBOS, N_COMBOS]
    assert header["slots"] == trainer.slots
    assert header["seed"] == 7 and "flop=50%,100%,a|a" in header["betting"]


def test_policy_rows_are_the_solvers_average_strategy(trained):
    trainer, path = trained
    agent = load_blueprint_agent(path, HunlConfig(10))
    root = agent.policy(HunlState.initial(HunlConfig(10)), BOARD[:0])
    rows = trainer.node_rows(0)[COMBO_CLASS]
    assert np.abs(root.probabilities - rows).max() <= 1.0 / 255.0 + 1e-9
    assert [str(a) for a in root.actions] == ["f", "c", "r250", "r1000"]
    state = replay("r250c/", HunlConfig(10))
    flop = agent.policy(state, BOARD[:3])
    node = agent.locate(state)
    rows = trainer.node_rows(node)  # lossless flop buckets: a combo is its bucket
    live = ~np.isin(COMBO_CARDS, BOARD[:3]).any(axis=1)
    assert np.abs(flop.probabilities[live] - rows[live]).max() <= 1.0 / 255.0 + 1e-9
    assert np.allclose(flop.probabilities[~live], 1.0 / flop.probabilities.shape[1])
    # the policy depends on the hand: a trained flop node does not play every combo alike
    assert np.ptp(flop.probabilities[live], axis=0).max() > 0.5


def test_a_kept_answer_is_shared_read_only_and_keyed_by_line_and_board(trained):
    """LBR and matches ask for a policy and then act on it: the second ask is the kept answer,
    which nobody may change; another board or line is answered afresh."""
    _, path = trained
    agent = load_blueprint_agent(path, HunlConfig(10))
    state = replay("r250c/", HunlConfig(10))
    first = agent.policy(state, BOARD[:3])
    assert agent.policy(state, BOARD[:3]) is first
    with pytest.raises(ValueError):
        first.probabilities[0, 0] = 0.5
    other = agent.policy(state, np.array(parse_cards("As Kd 3c")))
    assert other is not first and not np.array_equal(other.probabilities, first.probabilities)
    assert agent.policy(replay("r250c/x", HunlConfig(10)), BOARD[:3]) is not first


def test_a_boards_buckets_are_computed_once_for_every_decision_on_it(trained, monkeypatch):
    """A subgame's base play asks a policy at every decision of every card below it: each
    board's buckets are computed once (the flop that sees the turn: 1,185 decisions, 50
    boards), and the answers are those computed afresh."""
    _, path = trained
    agent = load_blueprint_agent(path, HunlConfig(10))
    fresh = load_blueprint_agent(path, HunlConfig(10))
    fresh._buckets.bound = 0
    calls = []
    real = blueprint_module._combo_buckets

    def counted(cards, board, street):
        calls.append(board)
        return real(cards, board, street)

    monkeypatch.setattr(blueprint_module, "_combo_buckets", counted)
    lines = [("r250c/", 3), ("r250c/x", 3), ("r250c/cc/", 4), ("r250c/cc/c", 4)]
    got = [agent.policy(replay(line, HunlConfig(10)), BOARD[:n]) for line, n in lines]
    assert calls == [tuple(BOARD[:3]), tuple(BOARD[:4])]
    for (line, n), mine in zip(lines, got, strict=True):
        theirs = fresh.policy(replay(line, HunlConfig(10)), BOARD[:n])
        assert np.array_equal(mine.probabilities, theirs.probabilities)
    assert len(calls) == 2 + len(lines) and not fresh._buckets.keys("buckets")  # none kept
    agent._buckets.bound = 1
    agent.policy(replay("r250c/", HunlConfig(10)), np.array(parse_cards("As Kd 3c")))
    assert agent._buckets.keys("buckets") == [(1, tuple(parse_cards("As Kd 3c")))]


def _raise_children(agent: BlueprintAgent, node: int) -> dict[int, int]:
    tree = agent.tree
    start, count = int(tree.edge_start[node]), int(tree.n_actions[node])
    return {int(tree.edge_to[e]): int(tree.edge_child[e])
            for e in range(start, start + count) if tree.edge_kind[e] == EDGE_RAISE}  # fmt: skip


def test_real_bets_follow_the_tree_and_translate_off_it(trained):
    _, path = trained
    agent = load_blueprint_agent(path)
    config = HunlConfig(10)
    flop = agent.locate(replay("r250c/", config))
    children = _raise_children(agent, flop)  # pot 500: 50% -> 500, 100% -> 750, all-in 1000
    assert sorted(children) == [500, 750, 1000]
    for to in (500, 750, 1000):
        assert agent.locate(replay(f"r250c/r{to}", config)) == children[to]
    # a bet of 75% of the pot lies between 50% and 100%: pseudo-harmonic odds over many lines
    lower = pseudo_harmonic(0.5, 1.0, 0.75)
    hits = {children[500]: 0, children[750]: 0}
    lines = [f"r{open_}c/r{open_ + 3 * open_ // 2}" for open_ in range(200, 400, 2)]
    for line in lines:
        node = agent.locate(replay(line, config))
        assert node in hits
        hits[node] += 1
    assert hits[children[500]] / len(lines) == pytest.approx(lower, abs=0.15)  # 3 sd
    # translation is fixed per line: asking again gives the same node
    assert agent.locate(replay(lines[0], config)) == agent.locate(replay(lines[0], config))


def test_a_raise_below_the_smallest_size_moves_folds_to_calls(trained):
    """An open to 2 bb (half the pot after calling; the tree's smallest open, 2.5 bb, is
    three quarters) is answered as the 2.5 bb open with 2/9 of each hand's folds calling,
    (B - x) / (B (1 + x)) at B = 3/4, x = 1/2; a flop bet of a quarter pot below the tree's
    half pot with 2/5 of them. Sizes on or above the smallest change nothing."""
    _, path = trained
    agent = load_blueprint_agent(path)
    config = HunlConfig(10)

    def rows(line: str, board: np.ndarray = BOARD[:0]) -> tuple[list[str], np.ndarray]:
        policy = agent.policy(replay(line, config), board)
        return [a.kind for a in policy.actions], policy.probabilities

    kinds, tree_open = rows("r250")
    assert kinds[:2] == ["f", "c"]
    for line, moved in (("r200", 2 / 9), ("r225", (0.75 - 0.625) / (0.75 * 1.625))):
        _, small = rows(line)
        assert np.allclose(small[:, 0], tree_open[:, 0] * (1 - moved), atol=1e-12)
        assert np.allclose(small[:, 1], tree_open[:, 1] + tree_open[:, 0] * moved, atol=1e-12)
        assert np.allclose(small[:, 2:], tree_open[:, 2:], atol=1e-12)
    assert np.array_equal(rows("r300")[1], tree_open)  # above: the 2.5 bb open as it is
    live = ~np.isin(COMBO_CARDS, BOARD[:3]).any(axis=1)
    _, half = rows("r250c/r500", BOARD[:3])  # pot 500: a bet to 500 is half of it
    _, quarter = rows("r250c/r375", BOARD[:3])  # a quarter: (1/2 - 1/4) / (1/2 x 5/4) = 2/5
    assert np.allclose(quarter[live, 0], half[live, 0] * (1 - 2 / 5), atol=1e-12)
    assert np.allclose(quarter.sum(axis=1), 1.0)


def test_every_answer_is_legal_along_random_hands(trained):
    _, path = trained
    agent = load_blueprint_agent(path)
    rng = np.random.default_rng(3)
    config = HunlConfig(10)
    for _ in range(40):
        deck = rng.permutation(52)
        board = deck[4:9]
        state = HunlState.initial(config)
        while not state.is_over:
            if rng.random() < 0.3:  # the opponent makes an arbitrary legal raise or call
                legal = state.legal()
                if legal.min_raise_to is not None and rng.random() < 0.5:
                    action = Action("r", int(rng.integers(legal.min_raise_to,
                                                          legal.max_raise_to + 1)))  # fmt: skip
                else:
                    action = Action("c")
            else:
                policy = agent.policy(state, board[: state.board_cards_needed])
                assert policy.probabilities.shape == (N_COMBOS, len(policy.actions))
                assert np.allclose(policy.probabilities.sum(axis=1), 1.0)
                assert len(set(policy.actions)) == len(policy.actions)
                combo = int(COMBO_INDEX[deck[0], deck[1]])
                action = agent.act(state, board[: state.board_cards_needed], combo, rng)
            state = state.apply(action)  # raises if the agent answered an illegal action


def test_make_agent_loads_blueprints_and_refuses_bad_files(trained, tmp_path):
    _, path = trained
    assert isinstance(make_agent(str(path), HunlConfig(10)), BlueprintAgent)
    with pytest.raises(InputError, match="plays 10 bb stacks with blinds 50/100, not 100 bb"):
        make_agent(str(path), HunlConfig(100))
    broken = tmp_path / "broken.npz"
    broken.write_bytes(path.read_bytes()[:2000])
    with pytest.raises(BlueprintFileError):
        make_agent(str(broken), HunlConfig(10))
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, header=np.zeros(3, dtype=np.uint8), strategy=np.zeros(3, dtype=np.uint8))
    with pytest.raises(BlueprintFileError, match="not"):
        make_agent(str(foreign), HunlConfig(10))
    header = dict(read_blueprint(path).header)
    lying = tmp_path / "lying.npz"
    write_blueprint(lying, header, np.zeros(100, dtype=np.uint8))
    with pytest.raises(BlueprintFileError, match="abstraction has"):
        make_agent(str(lying), HunlConfig(10))
    header["betting"] = "pre=2.5x; flop=zz"
    write_blueprint(lying, header, read_blueprint(path).strategy)
    with pytest.raises(BlueprintFileError, match="header"):
        make_agent(str(lying), HunlConfig(10))
    with zipfile.ZipFile(tmp_path / "pickled.npz", "w") as archive:
        archive.writestr("header.npy", b"\x93NUMPY junk")
    with pytest.raises(BlueprintFileError):
        make_agent(str(tmp_path / "pickled.npz"), HunlConfig(10))


def test_cli_plays_the_blueprint_and_rejects_bad_input(trained, tmp_path):
    _, path = trained
    base = [sys.executable, "-m", "pokertui"]
    played = subprocess.run(
        [*base, "play", "--game", "hunl(stack_bb=10)", "--bot", str(path), "--opponent",
         "call", "--hands", "20", "--json"], capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["hands"] == 20
    bad = subprocess.run(
        [*base, "build-bots", "--part", "hunl", "--only", "nope.npz", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "unknown blueprint" in bad.stderr
    missing = subprocess.run(
        [*base, "build-bots", "--part", "hunl", "--export", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert missing.returncode == 2 and "no checkpoint" in missing.stderr


def test_lbr_figures_are_recorded_in_the_header(trained, tmp_path):
    from solvers.strategy_file.blueprint_file import record_lbr

    _, path = trained
    copy = tmp_path / "copy.npz"
    copy.write_bytes(path.read_bytes())
    record_lbr(copy, {"fcpa 3-4": {"mbb_per_hand": 812.5, "ci95": 40.0, "hands": 20000}})
    record_lbr(copy, {"fc 1-4": {"mbb_per_hand": 0.0}})
    loaded = read_blueprint(copy)
    assert loaded.header["lbr"]["fcpa 3-4"]["mbb_per_hand"] == 812.5
    assert set(loaded.header["lbr"]) == {"fcpa 3-4", "fc 1-4"}
    np.testing.assert_array_equal(loaded.strategy, read_blueprint(path).strategy)


def test_a_potential_aware_turn_is_read_from_its_own_clusters(monkeypatch):
    """The agent's quick turn look-up is the E[HS^2] percentile; a ``pa`` turn bucket is a
    cluster, so a ``pa`` blueprint asks its abstraction (the river stays the quick path: the
    two kinds share it)."""
    from solvers.abstraction.buckets import parse_abstraction  # noqa: PLC0415
    from solvers.agents import blueprint as blueprint_agent  # noqa: PLC0415

    marker = np.arange(1326, dtype=np.int16) % 7
    asked: list[int] = []

    def looked_up(self, board, street):
        asked.append(street)
        return marker

    cards = parse_abstraction("pa(flop=8,turn=8,river=8)")
    monkeypatch.setattr(type(cards), "combo_buckets", looked_up)
    turn = (0, 5, 10, 20)
    assert (blueprint_agent._combo_buckets(cards, turn, 2) == marker).all()
    river = blueprint_agent._combo_buckets(cards, (*turn, 30), 3)
    assert asked == [2]
    quick = blueprint_agent._combo_buckets(parse_abstraction("hs2(flop=8,turn=8,river=8)"),
                                           (*turn, 30), 3)  # fmt: skip
    assert (river == quick).all()
