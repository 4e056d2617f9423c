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
scaled by ``v``. The gadget game runs on the numpy walk (its leaf is not a fold or showdown) and
is the reference; solves run the same iterates on the compiled walk (``compiled_gadget.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from solvers.agents.compiled_gadget import CompiledGadgetCFR, CompiledMaxmarginCFR, CompiledRootCFR
from solvers.agents.subgame import SEAT_OF_SPOT_PLAYER, Subgame
from solvers.algorithms.base import Solver, make_solver
from solvers.exact.evaluation import best_response
from solvers.games.base import NodeKind, Strategy, TreeBuilder
from solvers.games.holdem.game import HoldemGame
from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import CALL, FOLD, RAISE, HunlState

Settled = Callable[[int, Callable[[], Strategy], Callable[[], float | None] | None], bool]
"""``settled(iterations, average, bound)``: whether a gadget solve may end now."""

GADGETS = {"resolve": CompiledGadgetCFR, "maxmargin": CompiledMaxmarginCFR}
"""The safe re-solve's gadgets: each opponent hand may take its alternative instead (resolve),
or the opponent picks the hand whose margin over its alternative is smallest (maxmargin)."""
GADGET_OFFSET = 2
"""Node ids of the spot inside the gadget game: the gadget's root and its terminate leaf first."""


def node_states(sub: Subgame) -> dict[int, HunlState]:
    """The real state at every decision node of the subgame's spot; a dealt card changes the
    board (``node.board``), not the betting state, so a chance node's children share its state."""
    game = sub.game
    states = {game.root.id: sub.root}
    for node in game.nodes:  # parents come before their children
        if node.id not in states or node.is_terminal:
            continue
        for index, child in enumerate(node.children):
            if game.nodes[child].is_terminal:
                continue
            if node.is_chance:
                states[child] = states[node.id]
            else:
                action = sub.real_action(node.id, index, states[node.id])
                states[child] = states[node.id].apply(action)
    return states


def blueprint_strategy(sub: Subgame, agent: Agent) -> Strategy:
    """``agent``'s play of the subgame as a spot strategy: its policy at each decision's real
    state and board (every river card of a turn subgame), a raise counted as the tree's raise
    nearest in chips."""
    game = sub.game
    strategy: Strategy = {}
    for node_id, state in node_states(sub).items():
        node = game.nodes[node_id]
        if not node.is_decision:
            continue
        policy = agent.policy(state, np.array(node.board, dtype=np.int64))
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
        total = rows.sum(axis=1, keepdims=True)
        # hands the card dealt blocks: any row will do (they never reach this node)
        strategy[node_id] = np.divide(rows, total, out=np.full_like(rows, 1.0 / rows.shape[1]),
                                      where=total > 0)  # fmt: skip
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
    sub: Subgame,
    me: int,
    values: np.ndarray,
    iterations: int,
    seconds: float | None = None,
    progress: Callable[[int, float], None] | None = None,
    walk: str = "compiled",
    settled: Settled | None = None,
    gadget: str = "resolve",
    minimum: int = 1,
) -> tuple[Strategy, int]:
    """The re-solver's strategy (seat ``me``) from the gadget game with the opponent's
    alternatives ``values`` (per hand of the opponent's spot player), keyed by the spot's ids,
    and the iterations run: ``iterations``, or fewer when another would end after ``seconds``
    (``minimum`` at least, whatever the clock says; the clock is read after every iteration).
    ``walk``: ``compiled`` (``compiled_gadget.py``, the default) or ``numpy`` (``GadgetGame``,
    the reference).
    ``progress(iterations, seconds)`` is called after every iteration but the last;
    ``settled(iterations, average, bound)`` after every iteration may end the solve early
    (``average()`` gives the strategy so far, ``bound()`` the gadget's ``margin_bound``).
    ``gadget``: a key of ``GADGETS`` (maxmargin on the compiled walk only)."""
    opponent = 1 - [p for p, seat in enumerate(SEAT_OF_SPOT_PLAYER) if seat == me][0]
    if gadget not in GADGETS or (gadget != "resolve" and walk != "compiled"):
        raise ValueError(f"no {gadget} gadget on the {walk} walk")
    if walk == "compiled":
        solver: Solver = GADGETS[gadget](sub.game, opponent, values)
        offset = 0
    else:
        reference = GadgetGame.around(sub.game, opponent, values)
        # the average kept whole, as the compiled gadget keeps it (no restarts)
        solver = make_solver(reference, "dcfr", walk="numpy", restart=0)
        offset = GADGET_OFFSET

    def strategy() -> Strategy:
        average = solver.average_strategy()
        return {n.id: average[n.id + offset] for n in sub.game.nodes if n.is_decision}

    bound = solver.margin_bound if isinstance(solver, CompiledRootCFR) else None
    started = time.perf_counter()
    step = 0.0
    while solver.iterations < iterations:
        if solver.iterations and settled is not None:
            if settled(solver.iterations, strategy, bound):
                break
        took = time.perf_counter() - started
        timed_out = seconds is not None and took + step >= seconds
        if solver.iterations >= max(minimum, 1) and timed_out:
            break
        if progress is not None and solver.iterations:
            progress(solver.iterations, took)
        solver.run(iterations=1)
        step = time.perf_counter() - started - took
    return strategy(), solver.iterations
