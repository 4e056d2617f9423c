"""Exact evaluation on the public tree: EV, best response, exploitability, ranges, action values.

Everything is one walk over public nodes carrying per-hand vectors (ARCHITECTURE.md): a top-down
pass multiplies each player's reach by their action probabilities and chance masks, and a
bottom-up pass turns terminal payoffs into counterfactual values,
``cfv_p(node)[h] = sum over h' and terminals below of prior(h, h') * chance * opp_reach(h') *
payoff_p``. A best response takes the per-hand maximum over actions at the responder's nodes,
which is exact because a player's information set is (public node, own hand). This is the
public-tree best response of Johanson, Waugh, Bowling & Zinkevich, "Accelerating Best Response
Calculation in Large Extensive Games" (IJCAI 2011). Terminals are evaluated in one batch through
``game.terminal_values_batch``, where a hold'em game can plug in a sorted O(n log n) showdown.

Units: values are in chips (game units). Exploitability is ``(BR_0 + BR_1) / 2``, which is
NashConv / 2 and equals OpenSpiel's ``exploitability`` for two-player zero-sum games; in mbb per
hand it is ``1000 * chips / game.big_blind``, where Kuhn and Leduc count the ante (1 chip) as the
big blind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from solvers.games.base import Node, Strategy, TreeError, TreeGame


@dataclass(frozen=True)
class ExpectedValues:
    totals: tuple[float, float]
    """Each player's expected payoff in chips (zero-sum: ``totals[1] == -totals[0]``)."""
    per_hand: tuple[np.ndarray, np.ndarray]
    """Each player's expected payoff given their hand (NaN for a hand with zero prior)."""


@dataclass(frozen=True)
class BestResponse:
    player: int
    value: float
    """The responder's expected payoff in chips against the fixed opponent strategy."""
    per_hand: np.ndarray
    strategy: Strategy
    """A pure best response: one-hot rows at the responder's decision nodes."""


@dataclass(frozen=True)
class Exploitability:
    best_responses: tuple[BestResponse, BestResponse]
    game_value: float
    """Player 0's expected payoff under the profile itself."""
    big_blind: float
    initial_pot: float
    """Chips in the pot before any action; exploitability in percent of it suits subgames."""

    @property
    def nash_conv(self) -> float:
        return self.best_responses[0].value + self.best_responses[1].value

    @property
    def exploitability(self) -> float:
        return self.nash_conv / 2

    @property
    def mbb_per_hand(self) -> float:
        return 1000.0 * self.exploitability / self.big_blind

    @property
    def pot_percent(self) -> float:
        return 100.0 * self.exploitability / self.initial_pot if self.initial_pot else np.nan


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


def _prior_marginal(game: TreeGame, player: int) -> np.ndarray:
    return game.prior.sum(axis=1 - player)


def _per_hand(game: TreeGame, player: int, cfv_root: np.ndarray) -> np.ndarray:
    marginal = _prior_marginal(game, player)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(marginal > 0, cfv_root / marginal, np.nan)


# --- public API ---------------------------------------------------------------------------


def expected_values(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> ExpectedValues:
    """Each player's EV in chips under the profile, overall and per hand."""
    if game.simultaneous:
        from solvers.games.matrix import matrix_expected_values  # noqa: PLC0415

        return matrix_expected_values(game, strategy)
    reach1 = reaches(game, strategy, 1)
    cfv0, _ = counterfactual_values(game, strategy, 0, reach1)
    reach0 = reaches(game, strategy, 0)
    cfv1, _ = counterfactual_values(game, strategy, 1, reach0)
    total0 = float(cfv0[0].sum())
    return ExpectedValues(
        totals=(total0, -total0),
        per_hand=(_per_hand(game, 0, cfv0[0]), _per_hand(game, 1, cfv1[0])),
    )


def best_response(game: TreeGame, strategy: Mapping[int, np.ndarray], player: int) -> BestResponse:
    """Exact best response of ``player`` to the opponent's part of ``strategy``."""
    if game.simultaneous:
        from solvers.games.matrix import matrix_best_response  # noqa: PLC0415

        return matrix_best_response(game, strategy, player)
    return _respond(game, strategy, player, reaches(game, strategy, 1 - player))


def _respond(game: TreeGame, strategy, player: int, opp_reach: list[np.ndarray]) -> BestResponse:
    values, choices = counterfactual_values(game, strategy, player, opp_reach, respond=True)
    pure: Strategy = {}
    for nid, best in choices.items():
        one_hot = np.zeros((len(best), len(game.nodes[nid].children)))
        one_hot[np.arange(len(best)), best] = 1.0
        pure[nid] = one_hot
    return BestResponse(
        player=player,
        value=float(values[0].sum()),
        per_hand=_per_hand(game, player, values[0]),
        strategy=pure,
    )


def exploitability(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> Exploitability:
    """Both best responses, NashConv and exploitability ``(BR_0 + BR_1) / 2`` in chips."""
    if game.simultaneous:
        responses = (best_response(game, strategy, 0), best_response(game, strategy, 1))
        game_value = expected_values(game, strategy).totals[0]
    else:
        reach = (reaches(game, strategy, 0), reaches(game, strategy, 1))
        responses = tuple(_respond(game, strategy, p, reach[1 - p]) for p in (0, 1))
        cfv0, _ = counterfactual_values(game, strategy, 0, reach[1])
        game_value = float(cfv0[0].sum())
    return Exploitability(
        best_responses=responses,  # type: ignore[arg-type]
        game_value=game_value,
        big_blind=getattr(game, "big_blind", 1.0),
        initial_pot=float(sum(game.root.contributions)),
    )


def nash_conv(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> float:
    return exploitability(game, strategy).nash_conv


def bayes_range(
    game: TreeGame,
    strategy: Mapping[int, np.ndarray],
    node: int | str | Node,
    player: int,
    normalise: bool = True,
    opp_hand: int | None = None,
) -> np.ndarray:
    """``player``'s hand distribution at ``node`` given the actions taken under ``strategy``.

    Unnormalised, entry ``h`` is the probability that the game reaches ``node`` with ``player``
    holding ``h``. With ``opp_hand``, it is conditioned on the opponent holding that hand and on
    the public actions (the opponent's own view, with card removal): the opponent's probability
    of having taken their actions does not depend on ``h``, so it is left out, and the range is
    defined even on a line the opponent's strategy never takes.
    """
    target = game.node(node)
    own = reaches(game, strategy, player)[target.id]
    opp = reaches(game, strategy, 1 - player)[target.id]
    prior = game.prior if player == 0 else game.prior.T
    if opp_hand is None:
        weight = own * (prior @ opp) * game.path_chance[target.id]
    else:
        weight = own * prior[:, opp_hand] * game.path_chance[target.id]
    if not normalise:
        return weight
    total = weight.sum()
    if total <= 0:
        raise TreeError(f"{game.name}: node {target.key!r} is never reached under this strategy")
    return weight / total


def action_values(
    game: TreeGame,
    strategy: Mapping[int, np.ndarray],
    node: int | str | Node,
    hand: int | None = None,
    continuation: str = "strategy",
) -> np.ndarray:
    """EV in chips of each action at a decision node, for the acting player's hands.

    The counterfactual value of each child is divided by the opponent's reach weight at the node,
    so the result is the expected payoff given that this node was reached holding the hand. The
    actor plays ``strategy`` after the action (``continuation="strategy"``) or best-responds
    (``"best_response"``). Returns ``[n_actions]`` for one ``hand``, else ``[n_hands, n_actions]``;
    NaN where the hand cannot be here.
    """
    target = game.node(node)
    if not target.is_decision:
        raise TreeError(f"{game.name}: node {target.key!r} is not a decision node")
    if continuation not in ("strategy", "best_response"):
        raise TreeError(f"unknown continuation {continuation!r}")
    player = target.player
    opp_reach = reaches(game, strategy, 1 - player)
    values, _ = counterfactual_values(
        game, strategy, player, opp_reach, respond=continuation == "best_response"
    )
    prior = game.prior if player == 0 else game.prior.T
    opp_weight = (prior @ opp_reach[target.id]) * game.path_chance[target.id]
    child_values = np.stack([values[c] for c in target.children], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        result = np.where(opp_weight[:, None] > 0, child_values / opp_weight[:, None], np.nan)
    return result if hand is None else result[hand]
