"""Safe re-solving: the resolve gadget of Burch, Johanson and Bowling (2014) on a street's spot.

A re-solve from ranges alone can raise what some opponent hands win against us, which an
opponent who reaches the street with more of those hands exploits. The gadget prevents it: the
opponent first chooses, per hand, to take its blueprint value ``v(h)`` (terminate) or to play the
subgame (follow). Whatever the re-solver does, a hand that would win more than ``v(h)`` by
following can only pick the larger, so an equilibrium of the gadget game keeps each opponent
hand's best-response value at most ``v(h)``: never more exploitable than the blueprint there.

``v(h)`` is the opponent's best-response value per hand against the blueprint's play of the
subgame (``blueprint_strategy``: the base agent's policy at every decision of the spot, its
raises mapped to the nearest tree size). The gadget's terminate leaf pays the opponent ``v(h)``
whatever the re-solver holds; its counterfactual values are the spot's fold card-removal sums
scaled by ``v``. The gadget game runs on the numpy walk (its leaf is not a fold or showdown).
"""

from __future__ import annotations

import numpy as np

from solvers.agents.subgame import SEAT_OF_SPOT_PLAYER, Subgame
from solvers.algorithms.base import make_solver
from solvers.exact.evaluation import best_response
from solvers.games.base import NodeKind, Strategy, TreeBuilder
from solvers.games.holdem.game import HoldemGame
from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import CALL, FOLD, RAISE, HunlState

GADGET_OFFSET = 2
"""Node ids of the spot inside the gadget game: the gadget's root and its terminate leaf first."""


def node_states(sub: Subgame) -> dict[int, HunlState]:
    """The real state at every decision node of the subgame's spot (one street: no chance)."""
    game = sub.game
    states = {game.root.id: sub.root}
    for node in game.nodes:
        if node.id not in states or not node.is_decision:
            continue
        for index, child in enumerate(node.children):
            if game.nodes[child].is_decision:
                action = sub.real_action(node.id, index, states[node.id])
                states[child] = states[node.id].apply(action)
    return states


def blueprint_strategy(sub: Subgame, agent: Agent) -> Strategy:
    """``agent``'s play of the subgame as a spot strategy: its policy at each decision's real
    state, a raise counted as the tree's raise nearest in chips. Rivers only (no chance)."""
    game = sub.game
    if any(node.is_chance for node in game.nodes):
        raise ValueError("the blueprint's strategy is mapped on river subgames only")
    board = np.array(sub.board)
    strategy: Strategy = {}
    for node_id, state in node_states(sub).items():
        node = game.nodes[node_id]
        policy = agent.policy(state, board)
        rows = np.zeros((game.n_hands[node.player], len(node.tokens)))
        combos = game.hand_combos[node.player]
        targets = [sub.real_action(node_id, i, state) for i in range(len(node.tokens))]
        raises = [i for i, a in enumerate(targets) if a.kind == RAISE]
        for column, action in enumerate(policy.actions):
            if action.kind == RAISE and raises:
                index = min(raises, key=lambda i: abs(targets[i].to - action.to))
            elif action.kind == FOLD and "f" in node.tokens:
                index = node.tokens.index("f")
            else:  # a call, a check, or a raise where the tree has none
                index = [i for i, a in enumerate(targets) if a.kind == CALL][0]
            rows[:, index] += policy.probabilities[combos, column]
        strategy[node_id] = rows / rows.sum(axis=1, keepdims=True)
    return strategy


def opponent_values(sub: Subgame, strategy: Strategy, opponent: int) -> np.ndarray:
    """Per hand of spot player ``opponent``: its best-response value against ``strategy``
    (chips, given the hand; 0 where the hand cannot be held)."""
    response = best_response(sub.game, strategy, opponent)
    return np.nan_to_num(response.per_hand, nan=0.0)


class GadgetGame(HoldemGame):
    """The spot behind the opponent's terminate-or-follow choice (numpy walk only)."""

    combo_terminals = None  # type: ignore[assignment]  # not a fold/showdown-only tree

    @classmethod
    def around(cls, game: HoldemGame, opponent: int, values: np.ndarray) -> GadgetGame:
        builder = TreeBuilder()
        half = (game.pot / 2, game.pot / 2)
        board = game.root.board
        builder.add(-1, "", NodeKind.DECISION, contributions=half, player=opponent,
                    actions=("terminate", "follow"), tokens=("T", "F"), amounts=(0.0, 0.0),
                    board=board)  # fmt: skip
        builder.add(0, "T", NodeKind.TERMINAL, contributions=half, terminal="fold",
                    folder=1 - opponent, board=board)  # fmt: skip
        for node in game.nodes:
            fields = {k: getattr(node, k) for k in ("contributions", "player", "actions",
                      "tokens", "amounts", "outcome_probs", "outcome_masks", "terminal",
                      "folder", "board")}  # fmt: skip
            parent = 0 if node.parent < 0 else node.parent + GADGET_OFFSET
            builder.add(parent, "F" if node.parent < 0 else node.key.rsplit("/", 1)[-1],
                        node.kind, **fields)  # fmt: skip
        gadget = cls(game.params, game.hand_labels, game.prior, builder.finish(), big_blind=1.0)
        for name in ("hand_combos", "range_weights", "normaliser", "memory_estimate_mb",
                     "solve_size"):  # fmt: skip
            setattr(gadget, name, getattr(game, name))
        gadget._suit_swap = None
        gadget.opponent = opponent
        gadget.values = np.asarray(values, dtype=np.float64)
        gadget.leaf_row = int(np.flatnonzero(gadget.terminal_ids == 1)[0])
        return gadget

    opponent: int
    values: np.ndarray
    leaf_row: int

    def terminal_values_batch(self, player: int, opp_reach: np.ndarray) -> np.ndarray:
        values = super().terminal_values_batch(player, opp_reach)
        strengths = self.strengths
        weights = strengths.hand_weights
        row = self.leaf_row
        reach = opp_reach[row] * weights[1 - player]
        if player == self.opponent:  # v(h) times the re-solver's reach it can meet
            leaf = strengths.compatible_sums(player, reach) * self.values
        else:  # the re-solver pays v(h') to every opponent hand it can meet
            leaf = -strengths.compatible_sums(player, reach * self.values)
        values[row] = leaf * weights[player] / self.normaliser
        return values


def safe_resolve(
    sub: Subgame, me: int, values: np.ndarray, iterations: int, seconds: float | None = None
) -> tuple[Strategy, int]:
    """The re-solver's strategy (seat ``me``) from the gadget game with the opponent's
    alternatives ``values`` (per hand of the opponent's spot player), keyed by the spot's ids,
    and the iterations run (``iterations``, or fewer when ``seconds`` run out)."""
    opponent = 1 - [p for p, seat in enumerate(SEAT_OF_SPOT_PLAYER) if seat == me][0]
    gadget = GadgetGame.around(sub.game, opponent, values)
    solver = make_solver(gadget, "dcfr", walk="numpy")
    solver.run(iterations=iterations, seconds=seconds)
    average = solver.average_strategy()
    strategy = {n.id: average[n.id + GADGET_OFFSET] for n in sub.game.nodes if n.is_decision}
    return strategy, solver.iterations
