"""A spot bot's public line, shared by its turn and river re-solves (``turn_resolve.py``,
``river_resolve.py``): the belief a public history leads to, both players' ranges there, whether
the hand left the file's tree, per-hand values re-indexed between spots, and the fixed-iteration
solve. One module below both, so neither imports the other late."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from solvers.agents.beliefs import (
    Belief,
    Tree,
    after_bot,
    after_card,
    after_lbr,
    observations,
    start,
)
from solvers.agents.bet_sizing import BetSizer
from solvers.agents.compiled_gadget import CompiledGadgetCFR
from solvers.algorithms.base import make_solver
from solvers.cards.deck import N_COMBOS
from solvers.exact.decision_values import CompiledProfile, compiled_profile
from solvers.exact.evaluation import counterfactual_values, path_reach
from solvers.games.base import Node, Strategy, TreeGame
from solvers.games.holdem.game import HoldemGame


class TurnEntry(Protocol):
    """The bot's turn re-solve as ``replay`` meets it (``turn_resolve.TurnResolver``)."""

    def applies(self, belief: Belief, seat: int, to: float) -> bool: ...

    def enter(self, belief: Belief, seat: int, to: float) -> Belief: ...


def is_off_tree(belief: Belief) -> bool:
    """Whether the hand left the tree: the bot may be on more than one line, or the real chips
    are not its line's."""
    if len(belief.lines) > 1:
        return True
    put = belief.lines[0].node.contributions
    return any(abs(float(a) - float(b)) > 1e-9 for a, b in zip(belief.real.put, put, strict=True))


def replay(game: HoldemGame, strategy: Strategy, sizer: BetSizer, seat: int,
           history: tuple, turn: TurnEntry | None = None) -> Belief:  # fmt: skip
    """The bot's public belief after ``history`` (LBR's events, ``agents/beliefs.py``; the bot is
    ``1 - seat``): every line's weights are the bot's prior times its reach on that line. With
    ``turn``, an off-tree turn bet moves into the bot's re-solve of it, as in LBR."""
    bot = 1 - seat
    belief = start(game, np.array(game.range_weights[bot], dtype=np.float64))
    for event in history:
        tree = belief.tree or Tree(game, strategy)
        if event[0] == "L":
            kind, to = event[1], event[2]
            if kind == "b" and turn is not None and turn.applies(belief, seat, to):
                belief = turn.enter(belief, seat, to)
            else:
                belief = after_lbr(tree.game, belief, seat, kind, to)
        elif event[0] == "B":
            shown = observations(sizer, belief)
            seen = min(shown, key=lambda s: _distance(s, tuple(event[1:])))
            belief = after_bot(tree.game, tree.strategy, belief, seen, shown[seen])
        else:
            belief = after_card(game, belief, seat, event[1])
    return belief


def _distance(shown: tuple, event: tuple) -> float:
    """How far an observation is from a recorded bot action (a bet's chips may round apart
    by one between play's real amounts and LBR's)."""
    if shown[0] != event[0]:
        return np.inf
    return abs(shown[1] - event[1]) if shown[0] == "b" else 0.0


def public_ranges(game: HoldemGame, strategy: Strategy, belief: Belief, seat: int) -> np.ndarray:
    """``[2 spot players, 1326]``: the bot's range (the sum of ``belief``'s lines, whose prior is
    the bot's own) and the opponent's in ``seat`` (its prior times the file's reach of each line,
    the lines weighted by their share of the bot's weight)."""
    bot = 1 - seat
    ranges = np.zeros((2, N_COMBOS))
    ranges[bot, game.hand_combos[bot]] = belief.weights
    total = float(belief.weights.sum())
    where: TreeGame = game
    rows = strategy
    if belief.tree is not None and belief.tree.full is not None:  # in a re-solved turn
        where, rows = belief.tree.game, belief.tree.full
    assert isinstance(where, HoldemGame)
    opponent = np.zeros(where.n_hands[seat])
    for line in belief.lines:
        share = float(line.weights.sum()) / total
        opponent += share * path_reach(where, rows, line.node, seat)
    if not opponent.sum() > 0:  # a line the file never plays: every hand the cards leave
        opponent = where.hand_possible(belief.node, seat).astype(np.float64)
    ranges[seat, where.hand_combos[seat]] = opponent * where.range_weights[seat]
    return ranges


def given_hand(game: HoldemGame, counterfactual: np.ndarray, bot_reach: np.ndarray, seat: int,
               chance: float = 1.0) -> np.ndarray:  # fmt: skip
    """Counterfactual values of ``seat``'s hands at a node (``bot_reach``: the bot's own reach
    there, ``chance``: the chance probability on the path) as each hand's expected chips given
    the hand (and the cards dealt) against the bot's range there; 0 where no bot hand meets it."""
    bot = bot_reach * game.range_weights[1 - seat]
    prior = game.prior if seat == 0 else game.prior.T  # [seat's hands, bot hands]
    seen = (prior > 0).astype(np.float64) @ bot  # the bot's weight each hand can meet
    own = game.range_weights[seat] * seen * chance
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(own > 0, counterfactual * game.normaliser / own, 0.0)


def response_profile(game: HoldemGame, strategy: Strategy) -> CompiledProfile | None:
    """``strategy`` for both players on the compiled walk, for ``alternatives``' best
    responses (None where the game has no compiled walk)."""
    return compiled_profile(game, (strategy, strategy), strategy)


def alternatives(
    game: HoldemGame,
    strategy: Strategy,
    node: Node,
    player: int,
    target: HoldemGame,
    profile: CompiledProfile | None = None,
) -> np.ndarray:
    """Per hand of ``player`` in ``target`` (a re-solve of ``player``'s action off ``game``'s
    tree at its decision ``node``): what its best response against ``strategy`` wins from
    ``node`` on, given the hand and the other player's range there: the resolve gadget's
    terminate values. ``profile``: ``response_profile(game, strategy)``, else the numpy walk."""
    reach = path_reach(game, strategy, node, 1 - player)
    if profile is None:
        values, _ = counterfactual_values(game, strategy, player, respond=True)
        counterfactual = values[node.id]
    else:
        counterfactual = profile.values(player, respond=True).children(node, reach).max(axis=0)
    return reindexed(given_hand(game, counterfactual, reach, player), game, target, player)


def reindexed(values: np.ndarray, source: HoldemGame, target: HoldemGame,
              player: int) -> np.ndarray:  # fmt: skip
    """Per-hand ``values`` of ``player`` in ``source`` on ``target``'s hands (same combos)."""
    return values[positions(source, player, target.hand_combos[player])]


def positions(game: HoldemGame, player: int, combos: np.ndarray) -> np.ndarray:
    """Each of ``combos``' index among ``player``'s hands in ``game``, or -1."""
    where = np.full(N_COMBOS, -1)
    where[game.hand_combos[player]] = np.arange(game.n_hands[player])
    return where[combos]


def solve_river(
    game: HoldemGame,
    iterations: int,
    opponent: int | None = None,
    values: np.ndarray | None = None,
) -> Strategy:
    """A river spot solved by the compiled DCFR for ``iterations`` iterations; with ``values``
    (per hand of the ``opponent`` player), through the resolve gadget (``compiled_gadget.py``):
    no opponent hand then wins more than its value."""
    if values is None:
        solver = make_solver(game, "dcfr")
    else:
        assert opponent is not None
        solver = CompiledGadgetCFR(game, opponent, values)
    solver.run(iterations=iterations)
    strategy = solver.average_strategy()
    game.derived.clear()  # the walk's buffers; the nodes and strengths stay
    return strategy


def bot_rows(game: HoldemGame, strategy: Strategy, bot: int,
             combos: np.ndarray) -> Strategy:  # fmt: skip
    """The bot's rows of ``strategy`` re-indexed to ``combos`` (the file's hands)."""
    index = positions(game, bot, combos)
    known = index >= 0
    rows: Strategy = {}
    for node in game.nodes:
        if node.is_decision and node.player == bot:
            n_actions = len(node.actions)
            full = np.full((len(combos), n_actions), 1.0 / n_actions)
            full[known] = strategy[node.id][index[known]]
            rows[node.id] = full
    return rows
