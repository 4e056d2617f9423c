"""Exact evaluation on the public tree: EV, best response, exploitability, ranges, action values.

Every function here is one or two passes of the level walk in ``solvers.exact.walk``: a top-down
pass multiplies each player's reach by their action probabilities and chance masks, and a
bottom-up pass turns terminal payoffs into counterfactual values,
``cfv_p(node)[h] = sum over h' and terminals below of prior(h, h') * chance * opp_reach(h') *
payoff_p``. A best response takes the per-hand maximum over actions at the responder's nodes,
which is exact because a player's information set is (public node, own hand). This is the
public-tree best response of Johanson, Waugh, Bowling & Zinkevich, "Accelerating Best Response
Calculation in Large Extensive Games" (IJCAI 2011). Terminals are evaluated in one batch through
``game.terminal_values_batch``, where a hold'em game plugs in a sorted O(n log n) showdown.
Hold'em spots run the same passes on the compiled executor (``executor.evaluation_walk``
decides, once per call).

Strategies come in the common ``{node_id: [hands, actions]}`` format; solvers that already hold
per-edge arrays call ``respond_per_edge`` and skip the conversion. Matrix games (simultaneous
moves) are evaluated directly from their payoff matrix.

Units: values are in chips (game units). Exploitability is ``(BR_0 + BR_1) / 2``, which is
NashConv / 2 and equals OpenSpiel's ``exploitability`` for two-player zero-sum games; in mbb per
hand it is ``1000 * chips / game.big_blind``, where Kuhn and Leduc count the ante (1 chip) as the
big blind.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import numpy as np

from solvers.exact.compiled_walk import MODE_RESPOND, CompiledWalk, Source
from solvers.exact.decision_values import (
    CompiledProfile,
    DecisionValues,
    compiled_profile,
    path_reach,
)
from solvers.exact.executor import evaluation_walk
from solvers.exact.walk import (
    TreePlan,
    best_actions,
    build_plan,
    profile_factor,
    reach_pass,
    uniform_per_edge,
    value_pass,
)
from solvers.games.base import Node, Strategy, TreeError, TreeGame
from solvers.games.matrix import MatrixGame
from solvers.games.strategy import SeatProfile


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


# --- walks --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Walk:
    """A profile's factors and both players' reach at every row of the plan."""

    plan: TreePlan
    factor: np.ndarray
    reach: np.ndarray
    responder: int | None
    """The player whose edges hold 1 (their strategy was not given), if any."""

    def values(self, game: TreeGame, player: int, respond: bool = False) -> np.ndarray:
        """``[rows, max_hands]`` counterfactual values of ``player`` (see ``value_pass``)."""
        if respond and self.responder != player:
            raise ValueError("a best-response pass needs a walk made with that responder")
        out = np.zeros((self.plan.n_rows, self.plan.max_hands))
        return value_pass(game, self.plan, player, self.factor, self.reach, out, respond)

    def reach_at(self, node_id: int, player: int) -> np.ndarray:
        """``player``'s own reach at the node (as ``CompiledProfile.reach_at``)."""
        return self.reach[self.plan.row_of_node[node_id], player, : self.plan.n_hands[player]]

    def by_node(self, per_row: np.ndarray, player: int) -> np.ndarray:
        """``[n_nodes, n_hands[player]]``: a per-row array re-indexed by node id."""
        return per_row[self.plan.row_of_node, : self.plan.n_hands[player]]


def walk_per_edge(game: TreeGame, per_edge: list[np.ndarray | None]) -> Walk:
    """Reach of a profile given as per-edge arrays; None for a player who will best-respond."""
    plan = build_plan(game)
    factor = profile_factor(plan, per_edge)
    reach = reach_pass(plan, factor, np.zeros_like(factor))
    missing = [p for p in (0, 1) if per_edge[p] is None]
    return Walk(plan, factor, reach, missing[0] if len(missing) == 1 else None)


def walk(game: TreeGame, strategy: Mapping[int, np.ndarray], responder: int | None = None) -> Walk:
    """Reach of ``strategy``; the ``responder``'s part, if named, is not needed nor used."""
    plan = build_plan(game)
    per_edge = [None if p == responder else plan.per_edge(p, strategy) for p in (0, 1)]
    return walk_per_edge(game, per_edge)


def reaches(game: TreeGame, strategy: Mapping[int, np.ndarray], player: int) -> np.ndarray:
    """``[n_nodes, n_hands[player]]``: per node, ``player``'s own reach (their action
    probabilities times their chance masks). Chance probabilities stay in ``game.path_chance``."""
    if game.simultaneous:
        raise TreeError(f"{game.name} is a matrix game: it has no tree to walk")
    plan = build_plan(game)
    per_edge = [plan.per_edge(player, strategy) if p == player else None for p in (0, 1)]
    done = walk_per_edge(game, per_edge)
    return done.by_node(done.reach[:, player], player)


def counterfactual_values(
    game: TreeGame, strategy: Mapping[int, np.ndarray], player: int, respond: bool = False
) -> tuple[np.ndarray, Strategy]:
    """``[n_nodes, n_hands[player]]`` counterfactual values of ``player`` at every node.

    ``player`` follows ``strategy``, or best-responds to the opponent's part of it when
    ``respond``; then the second result is the pure best response, else it is empty.
    """
    done = walk(game, strategy, responder=player if respond else None)
    values = done.values(game, player, respond)
    pure = _pure_strategy(done.plan, player, values) if respond else {}
    return done.by_node(values, player), pure


def _pure_strategy(plan: TreePlan, player: int, values: np.ndarray) -> Strategy:
    return plan.strategy_dict(player, best_actions(plan, player, values))


def _per_hand(game: TreeGame, player: int, cfv_root: np.ndarray) -> np.ndarray:
    marginal = game.hand_weights(player)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(marginal > 0, cfv_root / marginal, np.nan)


# --- public API ---------------------------------------------------------------------------


def expected_values(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> ExpectedValues:
    """Each player's EV in chips under the profile, overall and per hand."""
    if isinstance(game, MatrixGame):
        rows, cols = _mixes(strategy)
        value = float(rows @ game.payoff @ cols)
        return ExpectedValues((value, -value), (np.array([value]), np.array([-value])))
    done = walk(game, strategy)
    root = done.plan.row_of_node[0]
    cfv = [done.values(game, p)[root, : game.n_hands[p]] for p in (0, 1)]
    total0 = float(cfv[0].sum())
    return ExpectedValues(
        totals=(total0, -total0),
        per_hand=(_per_hand(game, 0, cfv[0]), _per_hand(game, 1, cfv[1])),
    )


def value_per_edge(game: TreeGame, per_edge: list[np.ndarray]) -> float:
    """Player 0's expected payoff of a profile given per edge (one walk, one value pass)."""
    compiled = evaluation_walk(game)
    if compiled is not None:
        return _compiled_value(compiled, _probabilities(list(per_edge), build_plan(game)))
    done = walk_per_edge(game, list(per_edge))
    root = done.plan.row_of_node[0]
    return float(done.values(game, 0)[root, : game.n_hands[0]].sum())


def respond_per_edge(
    game: TreeGame, opponent_per_edge: np.ndarray, player: int
) -> tuple[float, np.ndarray, np.ndarray]:
    """Best response of ``player`` to an opponent given per edge: ``(value, per-hand cfv at the
    root, per-edge pure strategy)``. The fast path of fictitious play and double oracle."""
    compiled = evaluation_walk(game)
    if compiled is not None:
        plan = build_plan(game)
        given: list[np.ndarray | None] = [None, None]
        given[1 - player] = opponent_per_edge
        value, root, best = _compiled_response(compiled, _probabilities(given, plan), player)
        return value, root, _one_hot(plan, player, best)
    per_edge: list[np.ndarray | None] = [None, None]
    per_edge[1 - player] = opponent_per_edge
    done = walk_per_edge(game, per_edge)
    values = done.values(game, player, respond=True)
    root = values[done.plan.row_of_node[0], : game.n_hands[player]]
    return float(root.sum()), root, best_actions(done.plan, player, values)


def best_response(game: TreeGame, strategy: Mapping[int, np.ndarray], player: int) -> BestResponse:
    """Exact best response of ``player`` to the opponent's part of ``strategy``."""
    if isinstance(game, MatrixGame):
        return _matrix_best_response(game, strategy, player)
    plan = build_plan(game)
    return _best_response(game, plan, plan.per_edge(1 - player, strategy), player)


def _compiled_response(
    done: CompiledWalk, sources: list[Source], player: int
) -> tuple[float, np.ndarray, np.ndarray]:
    """``(value, per-hand root cfv, best action index [decision slots, hands])`` on the
    compiled walk (the responder's own source does not matter)."""
    n_slots = len(done.plan.slot_first[player])
    best = np.zeros((n_slots, done.game.n_hands[player]), dtype=np.int8)
    root = done.root_values(player, sources, MODE_RESPOND, best=best)
    return float(root.sum()), root, best


def _probabilities(per_edge: list[np.ndarray | None], plan: TreePlan) -> list[Source]:
    """Per-edge probabilities as compiled-walk sources (a missing player plays uniformly)."""
    return [Source(uniform_per_edge(plan, p) if x is None else x) for p, x in enumerate(per_edge)]


def _one_hot(plan: TreePlan, player: int, best: np.ndarray) -> np.ndarray:
    edges = plan.edges[player]
    pure = np.zeros((edges.n_edges, plan.n_hands[player]))
    columns = np.arange(plan.n_hands[player])
    pure[edges.first_edge[:, None] + best, columns[None, :]] = 1.0
    return pure


class _PureStrategy(Mapping[int, np.ndarray]):
    """A pure strategy ``{node_id: [hands, actions]}`` from best action indices, built per node
    on access (the one-hot table of a flop spot would be hundreds of MB)."""

    def __init__(self, plan: TreePlan, player: int, best: np.ndarray) -> None:
        self._edges = plan.edges[player]
        self._best = best
        self._slot = {node: k for k, node in enumerate(self._edges.decision_nodes)}

    def __getitem__(self, node_id: int) -> np.ndarray:
        slot = self._slot[node_id]
        n_actions = int(self._edges.n_actions[slot])
        return np.eye(n_actions)[self._best[slot]]

    def __iter__(self):
        return iter(self._slot)

    def __len__(self) -> int:
        return len(self._slot)


def _best_response(
    game: TreeGame, plan: TreePlan, opponent_per_edge: np.ndarray, player: int
) -> BestResponse:
    value, root, pure = respond_per_edge(game, opponent_per_edge, player)
    return BestResponse(
        player=player,
        value=value,
        per_hand=_per_hand(game, player, root),
        strategy=plan.strategy_dict(player, pure),
    )


def exploitability(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> Exploitability:
    """Both best responses, NashConv and exploitability ``(BR_0 + BR_1) / 2`` in chips.

    The profile is converted to the per-edge layout once, and the game value is one value pass
    (player 0's), not the two of ``expected_values``."""
    if isinstance(game, MatrixGame):
        responses = (best_response(game, strategy, 0), best_response(game, strategy, 1))
        game_value = expected_values(game, strategy).totals[0]
    else:
        plan = build_plan(game)
        return exploitability_per_edge(game, [plan.per_edge(p, strategy) for p in (0, 1)])
    return Exploitability(
        best_responses=responses,
        game_value=game_value,
        big_blind=getattr(game, "big_blind", 1.0),
        initial_pot=float(sum(game.root.contributions)),
    )


def exploitability_per_edge(game: TreeGame, per_edge: list[np.ndarray]) -> Exploitability:
    """``exploitability`` of a profile given as per-edge arrays (a tree game's)."""
    plan = build_plan(game)
    compiled = evaluation_walk(game)
    if compiled is not None:
        return exploitability_of_sources(game, _probabilities(list(per_edge), plan), compiled)
    responses = (
        _best_response(game, plan, per_edge[1], 0),
        _best_response(game, plan, per_edge[0], 1),
    )
    return Exploitability(
        best_responses=responses,
        game_value=value_per_edge(game, list(per_edge)),
        big_blind=getattr(game, "big_blind", 1.0),
        initial_pot=float(sum(game.root.contributions)),
    )


def _compiled_value(done: CompiledWalk, sources: list[Source]) -> float:
    return float(done.root_values(0, sources).sum())


def exploitability_of_sources(
    game: TreeGame, sources: list[Source], walk: CompiledWalk | None = None
) -> Exploitability:
    """``exploitability`` on the compiled walk of a profile given as ``Source`` per player
    (a solver's strategy sums or regrets, read without forming per-edge strategies), on
    ``walk`` (default: the full tree in ``evaluation_dtype``; a solver passes its own, to share
    its buffers and its suit isomorphism; then the pure best responses cover the walked
    decisions only)."""
    plan = build_plan(game)
    walk = walk or evaluation_walk(game)
    if walk is None:
        raise TreeError(f"{game.name}: the compiled walk does not apply to this game")
    responses = []  # lean passes: no [rows, hands] arrays (a flop's would take 470 MB)
    for player in (0, 1):
        n_slots = len(walk.plan.slot_first[player])
        # the pure strategy only where it covers the tree (a flop's would take 33 MB a player)
        best = None if walk.plan.isomorphic else np.zeros((n_slots, game.n_hands[player]), np.int8)
        root = walk.root_values(player, sources, MODE_RESPOND, best=best)
        value = float(root.sum())
        responses.append(
            BestResponse(
                player=player,
                value=value,
                per_hand=_per_hand(game, player, root),
                strategy=cast(Strategy, {} if best is None else _PureStrategy(plan, player, best)),
            )
        )
    return Exploitability(
        best_responses=(responses[0], responses[1]),
        game_value=float(walk.root_values(0, sources).sum()),
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
    """``player``'s hand distribution at ``node`` given the actions taken under ``strategy``
    (read along the path: ``path_reach``).

    Unnormalised, entry ``h`` is the probability that the game reaches ``node`` with ``player``
    holding ``h``. With ``opp_hand``, it is conditioned on the opponent holding that hand and on
    the public actions (the opponent's own view, with card removal): the opponent's probability
    of having taken their actions does not depend on ``h``, so it is left out, and the range is
    defined even on a line the opponent's strategy never takes.
    """
    target = game.node(node)
    own = path_reach(game, strategy, target, player)
    opp = path_reach(game, strategy, target, 1 - player)
    return _bayes_weight(game, target, player, own, opp, normalise, opp_hand)


def bayes_range_from_walk(
    game: TreeGame,
    done: Walk | CompiledProfile,
    node: int | str | Node,
    player: int,
    normalise: bool = True,
    opp_hand: int | None = None,
) -> np.ndarray:
    """``bayes_range`` from a walk of the strategy made once (a play session asks at many
    nodes of the same profile), or from a compiled profile."""
    target = game.node(node)
    own = done.reach_at(target.id, player)
    opp = done.reach_at(target.id, 1 - player)
    return _bayes_weight(game, target, player, own, opp, normalise, opp_hand)


def _bayes_weight(game, target, player, own, opp, normalise, opp_hand) -> np.ndarray:
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
    NaN where the hand cannot be here. Hold'em spots are walked by the compiled executor, and
    its pass is kept with the game (``profile_of``) for the next node of the same strategy.
    """
    target = game.node(node)
    if not target.is_decision:
        raise TreeError(f"{game.name}: node {target.key!r} is not a decision node")
    if continuation not in ("strategy", "best_response"):
        raise TreeError(f"unknown continuation {continuation!r}")
    player = target.player
    respond = continuation == "best_response"
    own = game.decision_nodes(player)
    if respond and own and own[0].id not in strategy:
        # the responder's own rows are not needed (a re-solving bot gives only its own): the
        # compiled walk reads a full profile, so they play uniformly, which no value depends on
        strategy = SeatProfile.with_default(game, strategy, player)
    compiled = profile_of(game, strategy)
    if compiled is not None:
        return action_values_from_walk(
            game, compiled, compiled.values(player, respond), target, hand
        )
    done = walk(game, strategy, responder=player if respond else None)
    values = done.values(game, player, respond)
    return action_values_from_walk(game, done, values, target, hand)


def profile_of(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> CompiledProfile | None:
    """``strategy`` on the compiled walk, kept in ``game.derived`` while it is the strategy
    asked about (the explorer asks node after node), or None for the numpy walk."""
    with _PROFILES:  # two report workers asking at once share one profile and its passes
        return game.derived.get(  # the entry holds the strategy, so its id is not reused
            "compiled_profile",
            id(strategy),
            lambda: compiled_profile(game, (strategy, strategy), strategy),
        )


_PROFILES = threading.Lock()


def action_values_from_walk(
    game: TreeGame,
    done: Walk | CompiledProfile,
    values: np.ndarray | DecisionValues,
    node: int | str | Node,
    hand: int | None = None,
) -> np.ndarray:
    """``action_values`` from a walk and the actor's value pass made once (``values`` is
    ``done.values(game, actor, respond)``, or a compiled profile's ``values(actor,
    respond)``), so that many nodes of one profile cost one walk."""
    target = game.node(node)
    player = target.player
    n_own, n_opp = game.n_hands[player], game.n_hands[1 - player]
    opp_reach = done.reach_at(target.id, 1 - player)
    prior = game.prior if player == 0 else game.prior.T
    opp_weight = (prior @ opp_reach[:n_opp]) * game.path_chance[target.id]
    if isinstance(values, DecisionValues):
        child_values = values.children(target, opp_reach).T
    else:
        assert isinstance(done, Walk)
        child_values = values[done.plan.row_of_node[list(target.children)], :n_own].T
    with np.errstate(invalid="ignore", divide="ignore"):
        result = np.where(opp_weight[:, None] > 0, child_values / opp_weight[:, None], np.nan)
    return result if hand is None else result[hand]


# --- matrix games -------------------------------------------------------------------------


def _mixes(strategy: Mapping[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(strategy[0])[0], np.asarray(strategy[1])[0]


def _matrix_best_response(
    game: MatrixGame, strategy: Mapping[int, np.ndarray], player: int
) -> BestResponse:
    rows, cols = _mixes(strategy)
    payoffs = game.payoff @ cols if player == 0 else -(rows @ game.payoff)
    best = int(np.argmax(payoffs))
    pure = np.zeros((1, len(payoffs)))
    pure[0, best] = 1.0
    value = float(payoffs[best])
    return BestResponse(player, value, np.array([value]), {player: pure})
