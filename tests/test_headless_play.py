"""Headless matches: the progress callback and bar, and the cached full-information values."""

import json
import sys

import numpy as np

from pokertui.session.headless import PROGRESS_EVERY, play_match
from pokertui.session.session import Session
from solvers.strategy_file import load_strategy
from tests import reference_walk
from tests.test_session import STRATEGIES


def test_progress_is_reported_every_block_and_at_the_end():
    bot = load_strategy(STRATEGIES / "kuhn.json")
    seen: list[int] = []
    hands = 2 * PROGRESS_EVERY + 7
    report = play_match(bot, "random", hands, seed=3, progress=seen.append)
    assert seen == [PROGRESS_EVERY, 2 * PROGRESS_EVERY, hands]
    assert report["hands"] == hands


def test_session_pair_values_equal_the_node_by_node_recursion():
    """The session's tabulated values of the dealt pair equal the plain recursion per pair."""
    session = Session(load_strategy(STRATEGIES / "leduc.json"), seed=5)
    rng = np.random.default_rng(0)
    pairs = np.argwhere(session.game.prior > 0)
    for seat in (0, 1):
        profile = session.equilibrium_vs_bot(seat)
        for h0, h1 in pairs[rng.choice(len(pairs), size=6, replace=False)]:
            expected = reference_walk.pair_values(session.game, profile, (int(h0), int(h1)))
            got = session._hand_pair_values(seat, (int(h0), int(h1)))
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_a_full_game_match_shows_its_progress_on_a_terminal_only(capsys, monkeypatch):
    """`play --game hunl(...) --hands N` draws a bar on stderr when it is a terminal; none with
    --json, and none when stderr is a file or a pipe."""
    from pokertui.cli import main

    argv = ["play", "--game", "hunl(stack_bb=50)", "--bot", "call", "--opponent", "random",
            "--hands", "7", "--seed", "2"]  # fmt: skip
    assert main(argv) == 0
    assert capsys.readouterr().err == ""  # not a terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "7/7 hands" in err and "7 hands of hunl(stack_bb=50" in out
    assert main([*argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["hands"] == 7
