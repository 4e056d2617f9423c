"""What each of the human's actions is worth against the re-solving bot's solved strategy.

When the human is to act on a street the re-solving bot solves (turn, river), the bot holds a
``Solution``: the street as a spot, solved from both ranges at the street's start. The value
of an action for the human's hand is the spot engine's exact action value at the current node
of that spot (``exact.evaluation.action_values``): the bot plays its solved strategy (its range
here is its range at the street's start times its solved action probabilities along the
street's line, with the human's cards removed) and the human continues with a best response,
which is what the spot practice screen shows. Values are chips won from now on: the spot's
payoffs count every chip of the hand, so the human's contribution so far is added back (a fold
is worth 0).

``bot_solution`` finds the bot's solution of the human's street: the one it played from when it
acted on this street, or, when the human acts first, the one the bot builds for its first
decision (the state after a check), solved now if the bot has not (seconds on a turn).

A bet or raise that solution's tree lacks is valued with the bot's own answer to it
(``off_tree_values``): the node re-solve it would make facing that bet (``ResolvingAgent``
keeps it, so making the bet costs no second solve), the human best-responding after. On the
river a node re-solve takes a tenth to half a second; on the turn up to the turn's budget each
(its gain bound is seldom attainable for a raise, so most run the whole budget), so a front end
values them one at a time (``off_tree_raises``) and shows each as it lands. On the flop the
bot answers an off-tree bet by solving the whole street again with the bet added (about a
second; the bot keeps it, and answers the bet from it if it is made); the bet is valued in that
solve with the bot's play before the bet taken from the solve it played, so that its range
there is the one it really has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from solvers.agents.resolving import NODE_STREETS, ResolvingAgent, Solution
from solvers.agents.subgame import (
    SEAT_OF_SPOT_PLAYER,
    SPOT_PLAYER_OF_SEAT,
    Subgame,
    range_text,
    street_line,
    street_root,
)
from solvers.cards.deck import COMBO_INDEX
from solvers.exact.evaluation import action_values, best_response
from solvers.games.base import Strategy, TreeGame
from solvers.games.hunl.rules import CALL, RAISE, Action, HunlState

OFF_TREE_STREETS = (1, 2, 3)
"""Streets whose off-tree sizes the live panel values: a node re-solve each (a tenth to half a
second on the river, up to the turn's budget on the turn), the street solved again on the flop
(about a second on its checked-down tree)."""


@dataclass(frozen=True)
class ResolvedValues:
    """The human's action values at one decision of the bot's re-solved street."""

    actions: tuple[Action, ...]
    values: tuple[float, ...]
    """Chips won from now on with each action (fold = 0), best play after it."""
    street: int
    iterations: int
    exploitability_pct: float
    """The solve's exploitability in percent of the street's starting pot (NaN when unknown)."""
    answered: tuple[Action, ...] = ()
    """Sizes the solve's tree lacks, valued against the bot's node re-solve facing each."""
    bets_later: bool = False
    """The solve's tree has bets on a later street (a flop that sees the turn)."""

    def value_of(self, action: Action) -> float | None:
        return self.values[self.actions.index(action)] if action in self.actions else None

    @property
    def known(self) -> dict[Action, float]:
        """Each valued action's chips, the mapping the live panel shows."""
        return dict(zip(self.actions, self.values, strict=True))


def bot_solution(agent: ResolvingAgent, state: HunlState, board: np.ndarray) -> Solution | None:
    """The bot's solution of the street where the human (``state.to_act``) decides, or None
    when the bot does not re-solve this street or the line is not on that solution's tree."""
    if state.is_over or state.street not in agent.streets:
        return None
    bot = 1 - state.to_act
    root = street_root(state)
    probe = None
    for before, _ in street_line(state):
        if before.to_act == bot:
            probe = before  # the bot's last decision this street: it played from this solution
    if probe is None:  # the human opens the street: the bot's solve for after a check
        probe = root.apply(Action(CALL))
        if probe.street != state.street or probe.to_act != bot:
            return None
    solution = agent.solution(probe, np.asarray(board, dtype=np.int64))
    return solution if solution.subgame.node_of(state) is not None else None


def resolved_values(
    solution: Solution, state: HunlState, hole: tuple[int, int]
) -> ResolvedValues | None:
    """The value of each action of ``solution``'s tree at ``state`` for the player to act
    holding ``hole``, against the solution's strategy, best response after; None off its tree."""
    sub = solution.subgame
    node_id = sub.node_of(state)
    if node_id is None:
        return None
    player = SPOT_PLAYER_OF_SEAT[state.to_act]
    holding = _holding(solution, player, hole)
    if holding is None:
        return None
    game, strategy, hand = holding
    values = action_values(game, strategy, node_id, hand, "best_response")
    node = game.nodes[node_id]
    own = float(node.contributions[player])
    actions: list[Action] = []
    found: list[float] = []
    for index in range(len(node.children)):
        action = sub.real_action(node_id, index, state)
        if action not in actions:  # two tree sizes clamped to one legal amount: the first
            actions.append(action)
            found.append(float(values[index]) + own)
    return ResolvedValues(
        tuple(actions),
        tuple(found),
        state.street,
        solution.iterations,
        float(solution.exploitability_pct),
        bets_later=solution.bets_later,
    )


def off_tree_values(
    agent: ResolvingAgent,
    found: ResolvedValues,
    state: HunlState,
    board: np.ndarray,
    hole: tuple[int, int],
    actions: tuple[Action, ...],
    budget: float | None = None,
) -> ResolvedValues:
    """``found`` with the value of each bet or raise of ``actions`` that it lacks: against the
    bot's node re-solve facing that bet (solved now if the bot has not, in ``budget`` seconds
    each when given), the human holding ``hole`` best-responding after; chips won from now on,
    as ``resolved_values``'. A size the bot answers otherwise (no node re-solve on this
    street) stays unvalued."""
    board = np.asarray(board, dtype=np.int64)
    player = SPOT_PLAYER_OF_SEAT[state.to_act]
    extra: list[tuple[Action, float]] = []
    for action in off_tree_raises(found, actions):
        if state.street not in NODE_STREETS:  # the flop: the street solved again with the bet
            value = _street_answer_value(agent, state, board, hole, action, budget)
            if value is not None:
                extra.append((action, value))
            continue
        solution = agent.solution(state.apply(action), board, budget)
        if solution.subgame.start is None:  # not a node re-solve: the street solved again
            continue
        holding = _holding(solution, player, hole)
        if holding is None:
            continue
        game, strategy, hand = holding
        value = best_response(game, strategy, player).per_hand[hand]
        extra.append((action, float(value) + float(state.committed[state.to_act])))
    added = tuple(a for a, _ in extra)
    return replace(found, actions=found.actions + added,
                   values=found.values + tuple(v for _, v in extra),
                   answered=found.answered + added)  # fmt: skip


def _street_answer_value(
    agent: ResolvingAgent, state: HunlState, board: np.ndarray, hole: tuple[int, int],
    action: Action, budget: float | None = None,
) -> float | None:  # fmt: skip
    """``action``'s value where the bot answers it by solving the street again with it added
    (the flop): in that solve, with the bot's rows at its decisions before ``state`` on this
    street replaced by those of the solve it played them from; None when the two solves' trees
    or hands differ there."""
    played = bot_solution(agent, state, board)
    if played is None:
        return None
    answer = agent.solution(state.apply(action), board, budget)
    bot = SPOT_PLAYER_OF_SEAT[1 - state.to_act]
    old, new = played.subgame, answer.subgame
    if not np.array_equal(old.game.hand_combos[bot], new.game.hand_combos[bot]):
        return None
    strategy = dict(answer.strategy)
    for before, _ in street_line(state):
        if before.to_act != state.to_act:
            was, now = old.node_of(before), new.node_of(before)
            if was is None or now is None:
                return None
            if old.game.nodes[was].tokens != new.game.nodes[now].tokens:
                return None
            strategy[now] = played.strategy[was]
    found = resolved_values(replace(answer, strategy=strategy), state, hole)
    new.game.release()  # walks and showdown tables, rebuilt if the bet is made; nodes stay
    return None if found is None else found.value_of(action)


SAME_SIZE_SHARE = 0.01
"""A bet or raise within this share of the pot after calling (or within a chip) of a size of
the bot's tree is that size: the keys' 1/3 and 2/3 of the pot are the trees' 33% and 66%
(3.33 and 3.3 bb into 10 bb, 8 and 7.92 bb into 12 bb), while a tree's sizes are tens of
percent of the pot apart."""


def same_size_chips(state: HunlState) -> float:
    """How far apart, in chips, two raise-to totals at ``state`` may be and still be one size."""
    return max(1.0, SAME_SIZE_SHARE * (state.pot + state.legal().call_amount))


def tree_size(state: HunlState, action: Action, tree: Sequence[Action]) -> Action:
    """The bet or raise of ``tree`` that ``action`` is (the nearest within
    ``same_size_chips``), else ``action``; an all-in is only ever itself."""
    all_in = state.legal().max_raise_to
    if action.kind != RAISE or action.to == all_in:
        return action
    near = same_size_chips(state)
    close = [a for a in tree if a.kind == RAISE and a.to != all_in
             and abs(a.to - action.to) <= near]  # fmt: skip
    return min(close, key=lambda a: abs(a.to - action.to), default=action)


def on_tree(state: HunlState, actions: Sequence[Action], tree: Sequence[Action]
            ) -> tuple[Action, ...]:  # fmt: skip
    """``actions`` with each bet or raise that is a size of ``tree`` replaced by it, each once:
    the live panel's rows, one per size."""
    merged: list[Action] = []
    for action in actions:
        found = tree_size(state, action, tree)
        if found not in merged:
            merged.append(found)
    return tuple(merged)


def off_tree_raises(found: ResolvedValues, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The bets and raises of ``actions`` that ``found`` lacks: what ``off_tree_values`` values."""
    return tuple(a for a in actions if a.kind == RAISE and found.value_of(a) is None)


def _holding(
    solution: Solution, player: int, hole: tuple[int, int]
) -> tuple[TreeGame, Strategy, int] | None:
    """The spot to value ``player``'s hand ``hole`` in (``solution``'s, or a copy with the hand
    added when its range lacks it), the other player's rows, and the hand's index; None when
    the copy's tree differs."""
    sub = solution.subgame
    combo = int(COMBO_INDEX[int(hole[0]), int(hole[1])])
    game = sub.game
    hands = np.flatnonzero(game.hand_combos[player] == combo)
    if len(hands) == 0:  # the bot's model of the human gives this hand no weight
        game = _with_hand(sub, player, combo).game
        if len(game.nodes) != len(sub.game.nodes):
            return None
        hands = np.flatnonzero(game.hand_combos[player] == combo)
    strategy = {
        node: rows for node, rows in solution.strategy.items() if game.nodes[node].player != player
    }
    return game, strategy, int(hands[0])


def _with_hand(sub: Subgame, player: int, combo: int) -> Subgame:
    """``sub`` with ``combo`` added to ``player``'s range. A best response's values for one hand
    do not depend on that hand's weight (it scales the value and the reach alike), nor on the
    rest of its own range, so any positive weight serves; the tree and the bot's side stay."""
    seat = SEAT_OF_SPOT_PLAYER[player]
    weights = np.array(sub.ranges[seat], dtype=np.float64)
    weights[combo] = max(float(weights.max()), 1.0)
    ranges = np.array(sub.ranges, dtype=np.float64)
    ranges[seat] = weights
    key = "oop_range" if player == 0 else "ip_range"
    params = sub.params.model_copy(update={key: range_text(weights)})
    return replace(sub, ranges=ranges, params=params)
