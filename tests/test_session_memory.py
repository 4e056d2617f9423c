"""A long hold'em session keeps only what the current hand needs: the re-solving bot's solutions
of a hand (a turn's walk buffers, the node re-solves the live panel asked for: 100 to 200 MB a
hand with the shipped blueprint) go at the next hand's first use of the bot, and the memory is
given back. ``benchmarks/bench_session_memory.py`` measures the resident size over 50 hands."""

import subprocess
import sys

import numpy as np

from pokertui.session.hunl_session import HunlSession
from solvers.agents.resolving import ResolvingAgent
from solvers.cards.deck import parse_cards
from solvers.games.holdem import memory
from solvers.games.hunl.rules import HunlConfig, replay
from tests.resolve_fixtures import Fixed, Narrow

CONFIG = HunlConfig(100)


def kept_boards(agent: ResolvingAgent) -> set[tuple[int, ...]]:
    return {key[2] for key in agent._cache}


def play_to_the_end(session: HunlSession) -> None:
    """Check or call down, the live numbers read at every decision (as the panel does)."""
    while session.human_to_act:
        session.live()
        session.act("c")


def river_bot() -> ResolvingAgent:
    """A bot that re-solves the river (few iterations) over a base that never folds."""
    return ResolvingAgent(Fixed(3), streets=(3,), max_iterations=5)


def test_a_new_hand_drops_the_bots_solutions_of_the_hands_before(monkeypatch):
    given_back = []
    monkeypatch.setattr("pokertui.session.hunl_session.give_back", lambda: given_back.append(1))
    agent = river_bot()
    session = HunlSession(CONFIG, agent, bot_name="resolve", seed=11)
    solved = 0
    for number in range(1, 9):
        hand = session.new_hand()
        if session.human_to_act:
            session.live()  # the hand's first use of the bot: the human opens preflop
        assert all(board == hand.board[: len(board)] for board in kept_boards(agent)), number
        play_to_the_end(session)
        solved += hand.board in kept_boards(agent)  # its river's solves, kept meanwhile
    assert solved >= 2
    assert len(given_back) == 8


def test_a_review_of_an_old_hand_keeps_the_current_hands_solutions():
    agent = river_bot()
    session = HunlSession(CONFIG, agent, bot_name="resolve", seed=11)
    hands = []
    while len(hands) < 2:
        hand = session.new_hand()
        review = not hands  # the first: hints off, the review's numbers left to compute
        while session.human_to_act:
            if not review:
                session.live()
            session.act("c")
        if hand.board in kept_boards(agent):
            hands.append(hand)
    first, second = hands
    assert session.fill_review(first)
    assert all(step.equity is not None for step in first.steps if step.seat == first.human_seat)
    assert second.board in kept_boards(agent)


def test_give_back_returns_freed_memory():
    before = memory.resident_bytes()
    block = np.ones(64 << 20, dtype=np.uint8)  # 64 MB touched
    assert memory.resident_bytes() > before + (48 << 20)
    del block
    memory.give_back()
    assert memory.resident_bytes() < before + (16 << 20)


FREEZE_ONCE = """
import gc, weakref
from solvers.games.holdem import memory

class Node:
    pass

kept = [Node() for _ in range(1000)]
memory.give_back_and_freeze()
frozen = gc.get_freeze_count()
assert frozen > 1000, frozen
later = Node()
later.me = later  # a cycle made after the freeze, then dropped
ref = weakref.ref(later)
del later
memory.give_back_and_freeze()
assert ref() is None, "a cycle made after the freeze stayed"
assert gc.get_freeze_count() == frozen, "frozen a second time"
print("ok")
"""


def test_give_back_and_freeze_freezes_once_and_still_collects_what_comes_after():
    """In a process of its own: a freeze is for the whole process."""
    done = subprocess.run([sys.executable, "-c", FREEZE_ONCE], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_the_next_streets_solve_releases_the_walks_of_the_street_before():
    """The turn's walk buffers and compiled profile serve its own values and node re-solves;
    once the river is solved only its tree and strategy are read (the river's ranges)."""
    agent = ResolvingAgent(Narrow(3), streets=(2, 3), max_iterations=5)
    board = np.array(parse_cards("Ks 7h 2d 9c 4s"))
    turn = agent.solution(replay("r250c/cc/", CONFIG), board[:4])
    assert turn.profile is not None
    assert turn.subgame.game.derived._kinds  # its walk, built by the solve
    agent.solution(replay("r250c/cc/cc/", CONFIG), board)
    assert not turn.subgame.game.derived._kinds and "profile" not in turn.__dict__
    assert turn.policy(replay("r250c/cc/", CONFIG)) is not None  # its strategy stays
