"""The chump bots of the LBR paper and the one function that picks a bot."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.agents.chumps import AlwaysCall, CallRaiseHalf, RandomAgent
from solvers.agents.registry import make_agent
from solvers.errors import InputError
from solvers.games.hunl.rules import Action, HunlConfig, HunlState, replay

NO_BOARD = np.array([], dtype=np.intp)


def draws(agent, state, n=6_000, seed=0):
    rng = np.random.default_rng(seed)
    return [agent.act(state, NO_BOARD, 0, rng) for _ in range(n)]


def test_always_call_checks_and_calls():
    agent = AlwaysCall()
    for betting in ("", "c", "r300", "r300r10000"):
        state = replay(betting, HunlConfig(100))
        action = agent.act(state, NO_BOARD, 5, np.random.default_rng(0))
        assert action.kind == "c"
        policy = agent.policy(state, NO_BOARD)
        assert policy.probabilities.shape == (1326, 1) and np.all(policy.probabilities == 1)


def test_random_agent_plays_each_legal_kind_equally_often():
    state = replay("r300", HunlConfig(100))  # facing a raise: fold, call, raise all legal
    kinds = [a.kind for a in draws(RandomAgent(), state)]
    for kind in "fcr":
        assert abs(kinds.count(kind) / len(kinds) - 1 / 3) < 0.025
    opening = HunlState.initial(HunlConfig(100)).apply(Action("c"))
    kinds = [a.kind for a in draws(RandomAgent(), opening)]  # big blind's option: no fold
    assert "f" not in kinds and abs(kinds.count("c") / len(kinds) - 0.5) < 0.025


def test_random_raise_is_uniform_between_min_raise_and_all_in():
    state = replay("r300", HunlConfig(100))
    legal = state.legal()
    totals = np.array([a.to for a in draws(RandomAgent(), state, 12_000) if a.kind == "r"])
    assert totals.min() >= legal.min_raise_to and totals.max() <= legal.max_raise_to
    low, high = legal.min_raise_to, legal.max_raise_to
    mean, sd = (low + high) / 2, (high - low) / np.sqrt(12)
    assert abs(totals.mean() - mean) < 4 * sd / np.sqrt(len(totals))


def test_random_agent_folds_half_against_an_all_in():
    state = replay("r20000", HunlConfig(200))
    kinds = [a.kind for a in draws(RandomAgent(), state)]
    assert set(kinds) == {"f", "c"} and abs(kinds.count("f") / len(kinds) - 0.5) < 0.025
    policy = RandomAgent().policy(state, NO_BOARD)
    assert [str(a) for a in policy.actions] == ["f", "c"]
    assert np.allclose(policy.probabilities, 0.5)


def test_call_raise_half_never_folds():
    state = replay("r300", HunlConfig(100))
    kinds = [a.kind for a in draws(CallRaiseHalf(), state)]
    assert "f" not in kinds and abs(kinds.count("r") / len(kinds) - 0.5) < 0.025
    facing_all_in = replay("r10000", HunlConfig(100))
    assert {a.kind for a in draws(CallRaiseHalf(), facing_all_in, 200)} == {"c"}


@pytest.mark.parametrize("agent", [AlwaysCall(), RandomAgent(), CallRaiseHalf()])
def test_policies_are_distributions_over_legal_actions(agent):
    for betting in ("", "c", "r300", "r300c/", "r300c/r700", "r300c/r700r10000"):
        state = replay(betting, HunlConfig(100))
        policy = agent.policy(state, NO_BOARD)
        assert np.allclose(policy.probabilities.sum(axis=1), 1)
        for action in policy.actions:
            state.apply(action)  # every listed action is legal


def test_make_agent_names_and_mistakes(tmp_path):
    config = HunlConfig(100)
    assert isinstance(make_agent("call", config), AlwaysCall)
    assert isinstance(make_agent(" Random ", config), RandomAgent)
    assert isinstance(make_agent("call-raise", config), CallRaiseHalf)
    with pytest.raises(InputError, match="built-in bots"):
        make_agent("slumbot", config)
    with pytest.raises(InputError):
        make_agent("", config)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01not a bot")
    with pytest.raises(InputError, match="not a bot file"):
        make_agent(str(junk), config)
