"""``pokertui lbr 'hunl(...)' --replay DEAL``: one deal of a run again, step by step.

The replayed hands must be the run's own: the same chips, corrections and scores as the chunk
that holds them (``run_chunk``, the path every figure comes from), which needs the chunk's
earlier deals replayed too (the bot's draws share the chunk's stream). Each hand's steps must
add up to its correction.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokertui.cli import main
from solvers.agents.registry import make_agent
from solvers.games.hunl.rules import HunlConfig
from solvers.reports.lbr.hunl import HunlLbrError, HunlLocalBestResponse
from tests.conftest import STRATEGIES

CONFIG = HunlConfig(100)
BLUEPRINT = STRATEGIES / "hunl_100bb.npz"


@pytest.mark.parametrize("control", [True, False])
def test_a_replayed_deal_is_the_runs_own(control):
    lbr = HunlLocalBestResponse(CONFIG, make_agent(str(BLUEPRINT), CONFIG), "fcpa",
                                ("turn", "river"), control)  # fmt: skip
    steps = lbr.replay_deal(8, 6, 9)  # chunk 1, its fourth deal
    ends = [s for s in steps if s["step"] == "end"]
    row = lbr.run_chunk(8, 1, 6)[3]
    assert [e["seat"] for e in ends] == [0, 1]
    assert [e["score"] for e in ends] == list(row[:2])
    if control:
        assert [e["value"] for e in ends] == list(row[2:])
    deals = [i for i, s in enumerate(steps) if s["step"] == "deal"]
    closes = [i for i, s in enumerate(steps) if s["step"] == "end"]
    for start, end in zip(deals, closes, strict=True):
        hand = steps[start:end]
        corrections = sum(s.get("correction", 0.0) for s in hand)
        assert corrections == pytest.approx(steps[end]["correction"], abs=1e-9)
        assert (steps[end]["correction"] != 0.0) is control
        assert {s["step"] for s in hand} >= {"deal", "lbr", "bot", "cards"}
    assert steps[deals[0]]["combo"] == steps[deals[1]]["bot_combo"]  # duplicate: cards swap


def test_lbrs_numbers_are_its_utilities_at_each_greedy_decision():
    lbr = HunlLocalBestResponse(CONFIG, make_agent("call", CONFIG), "fcpa", ("river",))
    steps = lbr.replay_deal(3, 4, 2)
    decisions = [s for s in steps if s["step"] == "lbr"]
    greedy = [s for s in decisions if s["street"] == 3]
    assert greedy and all("call" in s for s in greedy)
    assert not any("call" in s for s in decisions if s["street"] < 3)  # it only checks there
    for s in greedy:  # its action is the best of folding (0), calling and its bets
        best = max([0.0, s["call"], *s["bets"].values()])
        if s["action"].startswith("r"):
            assert s["bets"][s["action"][1:]] == best
        elif s["action"] == "f":
            assert best == 0.0


def test_bad_deal_numbers_are_refused():
    lbr = HunlLocalBestResponse(CONFIG, make_agent("call", CONFIG), "fc")
    with pytest.raises(HunlLbrError, match="from 0"):
        lbr.replay_deal(1, 5, -1)


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_command_prints_both_hands_and_their_json(capsys):
    argv = ("lbr", "hunl(100)", "--bot", BLUEPRINT, "--streets", "3-4", "--seed", 8,
            "--chunk-deals", 6, "--replay", 9, "--control-variates")  # fmt: skip
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0
    assert "deal 9 of seed 8 (chunk 1, deal 3 of 6)" in out
    assert "LBR in seat 0 (small blind)" in out and "LBR in seat 1 (big blind)" in out
    assert out.count("score") == 2 and "of its range" in out
    code, out, _ = run_cli(capsys, *argv, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["chunk_deals"] == 6 and result["control_variates"]
    scores = [s["score"] for s in result["steps"] if s["step"] == "end"]
    lbr = HunlLocalBestResponse(CONFIG, make_agent(str(BLUEPRINT), CONFIG), "fcpa",
                                ("turn", "river"), True)  # fmt: skip
    assert np.allclose(scores, lbr.run_chunk(8, 1, 6)[3, :2], rtol=0, atol=1e-9)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("hunl(100)", "--bot", "call", "--replay", "-1"), "from 0"),
        (("hunl(100)", "--bot", "call", "--replay", "2", "--checkpoint", "x.json"),
         "drop --checkpoint"),
        ((STRATEGIES / "push_fold_10bb.json", "--replay", "2"), "full game"),
        (("hunl(100)", "--bot", "call", "--replay", "0", "--seed", "-1"), "from 0 to"),
    ],
)  # fmt: skip
def test_bad_replays_exit_2_with_a_message(capsys, argv, message):
    code, out, err = run_cli(capsys, "lbr", *argv)
    assert code == 2 and message in err and "Traceback" not in err and not out
