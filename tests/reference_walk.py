"""A node-by-node reference walk, kept only to test the level walk of ``solvers.exact`` against.

It is the straightforward recursion over public nodes (one Python step per node), written
independently of ``solvers.exact.walk``'s row layout: per node, each player's own reach top-down,
then counterfactual values (or best-response values) bottom-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from solvers.games.base import TreeGame

# --- the two passes -----------------------------------------------------------------------


_DECISION, _CHANCE = 0, 1


@dataclass(frozen=True)
class _WalkPlan:
    """The tree flattened once per game for fast loops: non-terminal nodes in node order."""

    inner: list[tuple[int, int, int, tuple[int, ...], tuple[np.ndarray, np.ndarray] | None]]
    """``(node id, kind, acting player, children, chance masks)``."""
    terminals: np.ndarray
    terminal_chance: np.ndarray


def _plan(game: TreeGame) -> _WalkPlan:
    plan = game.__dict__.get("_walk_plan")
    if plan is None:
        inner = [
            (n.id, _DECISION if n.is_decision else _CHANCE, n.player, n.children, n.outcome_masks)
            for n in game.nodes
            if not n.is_terminal
        ]
        terminals = game.terminal_ids
        plan = _WalkPlan(inner, terminals, game.path_chance[terminals][:, None])
        game.__dict__["_walk_plan"] = plan
    return plan


def reaches(game: TreeGame, strategy: Mapping[int, np.ndarray], player: int) -> list[np.ndarray]:
    """Per node, ``player``'s own reach: their action probabilities times their chance masks.

    The chance probability factor is kept apart, in ``game.path_chance``.
    """
    reach: list[np.ndarray] = [np.empty(0)] * len(game.nodes)
    reach[0] = np.ones(game.n_hands[player])
    for nid, kind, actor, children, masks in _plan(game).inner:
        here = reach[nid]
        if kind == _DECISION:
            if actor == player:
                probs = strategy[nid]
                for a, child in enumerate(children):
                    reach[child] = here * probs[:, a]
            else:
                for child in children:
                    reach[child] = here
        else:
            own_masks = masks[player]  # type: ignore[index]
            for o, child in enumerate(children):
                reach[child] = here * own_masks[o]
    return reach


def counterfactual_values(
    game: TreeGame,
    strategy: Mapping[int, np.ndarray],
    player: int,
    opp_reach: list[np.ndarray],
    respond: bool = False,
) -> tuple[list[np.ndarray], dict[int, np.ndarray]]:
    """Bottom-up ``cfv`` of ``player`` at every node, and argmax actions if ``respond``.

    ``player`` follows ``strategy`` (or best-responds when ``respond``); the opponent's reach
    ``opp_reach`` comes from ``reaches``. All terminals are evaluated in one batch.
    """
    plan = _plan(game)
    values: list[np.ndarray] = [np.empty(0)] * len(game.nodes)
    terminal_reach = np.stack([opp_reach[t] for t in plan.terminals]) * plan.terminal_chance
    terminal_values = game.terminal_values_batch(player, terminal_reach)
    for t, row in zip(plan.terminals, terminal_values, strict=True):
        values[t] = row
    choices: dict[int, np.ndarray] = {}
    for nid, kind, actor, children, masks in reversed(plan.inner):
        if kind == _DECISION:
            if actor == player:
                child_values = np.array([values[c] for c in children])  # [actions, hands]
                if respond:
                    choices[nid] = child_values.argmax(axis=0)
                    values[nid] = child_values.max(axis=0)
                else:
                    values[nid] = (child_values * strategy[nid].T).sum(axis=0)
            else:
                total = values[children[0]]
                for child in children[1:]:
                    total = total + values[child]
                values[nid] = total
        else:
            own_masks = masks[player]  # type: ignore[index]
            total = own_masks[0] * values[children[0]]
            for o, child in enumerate(children[1:], start=1):
                total = total + own_masks[o] * values[child]
            values[nid] = total
    return values, choices


def pair_values(
    game: TreeGame, profile: Mapping[int, np.ndarray], hands: tuple[int, int]
) -> np.ndarray:
    """Seat 0's expected payoff from every node when seat 0 holds ``hands[0]`` and seat 1
    ``hands[1]`` and both follow ``profile`` (chance uses the card-removal weights).

    One bottom-up pass over the nodes; entries of nodes this pair cannot reach are 0.
    """
    h0, h1 = hands
    pair_prior = game.prior[h0, h1]
    if pair_prior <= 0:
        raise ValueError("these two hands cannot be dealt together")
    values = np.zeros(len(game.nodes))
    for node in reversed(game.nodes):
        children = list(node.children)
        if node.is_terminal:
            values[node.id] = game.terminal_matrix(node)[h0, h1] / pair_prior
        elif node.is_decision:
            own = h0 if node.player == 0 else h1
            values[node.id] = float(profile[node.id][own] @ values[children])
        else:
            assert node.outcome_probs is not None and node.outcome_masks is not None
            weights = (
                node.outcome_probs * node.outcome_masks[0][:, h0] * node.outcome_masks[1][:, h1]
            )
            total = weights.sum()
            values[node.id] = float(weights @ values[children] / total) if total > 0 else 0.0
    return values


def exploitability(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> float:
    """Half the sum of both players' best-response values, node by node."""
    values = []
    for p in (0, 1):
        opp = reaches(game, strategy, 1 - p)
        cfv, _ = counterfactual_values(game, strategy, p, opp, respond=True)
        values.append(float(cfv[0].sum()))
    return sum(values) / 2
