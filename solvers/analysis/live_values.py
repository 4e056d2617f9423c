"""A decision's live numbers against a full-game agent, as one job that a thread may run.

The play session's live panel (``HunlSession.live_job``) and ``pokertui analyze`` both call
``live_values_job``, so a decision played in the app and the same decision read from its
exported hand history get the same numbers. On a street the re-solving bot solves, the EVs are
the re-solve's values (``agents/resolve_values.py``), sizes off its tree valued one at a time
against the bot's answer to each; elsewhere the closed forms of ``reports/hunl_live.py``.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace

import numpy as np

from solvers.agents.resolve_values import (
    OFF_TREE_STREETS,
    ResolvedValues,
    bot_solution,
    off_tree_raises,
    off_tree_values,
    on_tree,
    resolved_values,
)
from solvers.agents.resolving import ResolvingAgent
from solvers.games.base import NodeKind, TreeGame
from solvers.games.hunl.agent import Agent, Policy, action_column
from solvers.games.hunl.rules import STREET_NAMES, Action, HunlState
from solvers.reports.hunl_live import LiveNumbers, bayes_reach, live_numbers

OWN_SEAT_NOTE = "; the line is off the bot's tree: the street solved again with it"
BotStep = tuple[HunlState, tuple[int, ...], Action]
"""A bot's decision of the hand: the state it acted in, the board then, the action taken."""


def resolve_note(found: ResolvedValues) -> str:
    """How the re-solve's values were found, for the live panel's heading."""
    street = STREET_NAMES[found.street]
    reached = found.exploitability_pct
    quality = "" if math.isnan(reached) else f", exploitable by {reached:.1f}% of the pot"
    answered = depth = ""
    if found.street == 1:  # a depth limit, not the game; sizes off it: the street again
        depth = ("; its tree bets the turn and checks the river down" if found.bets_later
                 else "; its tree checks the turn and river down")  # fmt: skip
        if found.answered:
            answered = "; sizes off its tree: the flop solved again with each" + (
                " in the tree checked down (a size you bet: again in its own tree)"
                if found.bets_later else "")  # fmt: skip
    elif found.answered:
        answered = "; sizes off its tree: its re-solve facing each"
    return (f"the bot's {street} re-solve ({found.iterations} iterations{quality}){answered}"
            f"{depth}; your best play after")  # fmt: skip


def both_decide(game: TreeGame) -> bool:
    """Whether both players have a decision in ``game``: a node re-solve facing an all-in
    leaves the player who made it none, and the exact walk values no such tree."""
    deciders = {node.player for node in game.nodes if node.kind == NodeKind.DECISION}
    return deciders == {0, 1}


def modelled(policy: Policy, action: Action) -> bool:
    """Whether ``policy`` lists an action like ``action``. The bot's own actions always are;
    an opponent who is not the bot may make one its policy lacks (an all-in its re-solve
    never makes), and that step leaves the range as it was rather than empty."""
    try:
        action_column(policy, action)
    except ValueError:
        return False
    return True


def seat_twin(agent: Agent) -> Agent | None:
    """A re-solving bot like ``agent`` with a cache of its own, for solves from the other seat:
    a bot keeps one board's solutions at a time per seat and street, so solving the other
    seat's street in its own cache would drop the solves its Bayes range is read from."""
    if not isinstance(agent, ResolvingAgent):
        return None
    return replace(agent, _cache=OrderedDict())


def re_solves(agent: Agent, state: HunlState) -> bool:
    """Whether ``agent`` solves ``state``'s street during play (its answers take seconds)."""
    return isinstance(agent, ResolvingAgent) and state.street in agent.streets


def live_values_job(
    agent: Agent,
    state: HunlState,
    board_cards: Sequence[int],
    hole: tuple[int, int],
    bot_steps: Sequence[BotStep],
    actions: tuple[Action, ...],
    seed: int,
    lock: AbstractContextManager | None = None,
    taken: Action | None = None,
    seat_agent: Agent | None = None,
) -> Callable[..., LiveNumbers]:
    """The numbers of the decision at ``state`` for the player to act holding ``hole``, the
    bot's range Bayes' rule over ``agent``'s policy at ``bot_steps``; ``actions`` are the
    options to value. ``job(report)`` calls ``report`` with the numbers so far before each
    off-tree size it values, those sizes ``pending``, and returns the numbers with every size
    valued. With ``taken`` (the review of a decision made), the only size valued off the tree
    is that one: the bot's answer to it is kept, the others would each cost a solve. ``lock``
    serialises the uses of the agent (its solutions are cached and shared). With
    ``seat_agent`` (a twin of ``agent`` with a cache of its own, see ``seat_twin``), a line the
    bot's own solve lacks (an opponent who is not the bot bet a size it never bets) is valued
    in the street solved from the deciding player's seat, the line's bets in its tree, instead
    of left unvalued: hands played elsewhere need it, the app's bot never leaves its tree."""
    lock = threading.RLock() if lock is None else lock
    board = np.array(board_cards, dtype=np.intp)
    steps_in = list(bot_steps)
    solved_street = re_solves(agent, state)

    def job(report: Callable[[LiveNumbers], None] | None = None) -> LiveNumbers:
        with lock:
            steps = [(agent.policy(st, np.array(b, dtype=np.intp)), a) for st, b, a in steps_in]
            steps = [(policy, a) for policy, a in steps if modelled(policy, a)]
            found, note = None, ""
            if solved_street:
                solution = bot_solution(agent, state, board)  # type: ignore[arg-type]
                if solution is None and seat_agent is not None:
                    solution = seat_agent.solution(state, board)  # type: ignore[attr-defined]
                    note = OWN_SEAT_NOTE
                    if not both_decide(solution.subgame.game):
                        solution = None  # facing an all-in: the closed forms value the call
                if solution is not None:
                    found = resolved_values(solution, state, hole)
        reach = bayes_reach(steps)
        if found is None:  # no bot query on a re-solved street: it would solve again
            answering = None if solved_street else agent
            return live_numbers(state, board, hole, reach, answering, actions, seed=seed)
        shown = on_tree(state, actions, found.actions)  # a key's 2/3 is the tree's 66%
        numbers = live_numbers(state, board, hole, reach, agent, shown, seed,
                               found.known, resolve_note(found) + note)  # fmt: skip
        sizes = shown if taken is None else (taken,)
        todo = off_tree_raises(found, sizes) if state.street in OFF_TREE_STREETS else ()
        think = agent.seconds.get(state.street) if isinstance(agent, ResolvingAgent) else None
        started = time.perf_counter()
        for index, action in enumerate(todo):
            if report is not None:
                report(numbers.with_known(found.known, resolve_note(found) + note, todo[index:]))
            # the sizes share one think time of the street, after its own solve (each size's
            # solve still runs its floor of iterations)
            left = None if think is None else max(0.0, started + think - time.perf_counter())
            budget = None if left is None else left / (len(todo) - index)
            with lock:
                if note and solution is not None:  # the bot answers from the seat's solve
                    agent.adopt(state.apply(action), board, solution)  # type: ignore[attr-defined]
                found = off_tree_values(agent, found, state, board, hole, (action,), budget)  # type: ignore[arg-type]
        return numbers.with_known(found.known, resolve_note(found) + note)

    return job
