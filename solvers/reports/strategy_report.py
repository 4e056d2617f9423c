"""What a strategy does, node by node: the numbers behind the strategy explorer.

Everything here is a thin layer over ``solvers.exact`` (one public-tree walk per question):

- ``node_report``: a decision node's actions, per-hand frequencies and EVs, the aggregate
  frequency over the actor's reach range, and both players' ranges there;
- ``hand_path``: one hand's action frequencies at every node its player can reach with it;
- ``exploit_report`` and ``subtree_gains``: where a best response gains against the strategy;
- ``compare_strategies``: per-node frequency differences of two files for one game, and the exact
  EV of each file's seat 1 against the other's seat 2.

Where the best response gains. For the responder ``p``, let ``V(n)[h]`` be the best response's
counterfactual value and ``S(n)[h]`` the strategy's, and ``r(n)[h]`` ``p``'s own reach under the
strategy. At a decision node of ``p``,
``V - S = (max_a V(c_a) - sum_a s_a V(c_a)) + sum_a s_a (V(c_a) - S(c_a))``, so the *local gain*
``sum_h r(n)[h] * (max_a V(c_a)[h] - sum_a s_a[h] V(c_a)[h])`` is the node's own share: the
local gains of ``p``'s nodes add up to ``BR value - EV``. The *subtree gain* of a node is
``sum_h r(n)[h] * (V(n)[h] - S(n)[h])``, the local gains of the nodes below it: what the
responder gains by deviating from there on, weighted by how often the strategy itself gets
there. It is never negative and never exceeds its root value ``BR value - EV`` (unweighted, a
node the strategy never reaches could show a gain larger than the whole strategy's).

Exploitability averages the two seats' gains, so a node's *share of exploitability* is half its
gain: the shares of both seats' nodes add up to the exploitability, and no subtree's share can
exceed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from solvers.errors import InputError
from solvers.exact.evaluation import (
    Exploitability,
    action_values,
    bayes_range,
    counterfactual_values,
    expected_values,
    exploitability,
    reaches,
    walk,
)
from solvers.games.base import Node, Strategy, TreeError, TreeGame


class GameMismatchError(InputError):
    """Two strategy files for different games cannot be compared."""


WHOLE_TREE_NODES = 5000
"""Reports that hold numbers for every node at once (a hand's path, where a best response
gains, a comparison, ``show`` without ``--node``) are refused past this many decision nodes:
a flop's 57,000 would take GBs. Node reports (``node_report``, the spot view, by card) read
one node at a time and serve any size."""


def refuse_whole_tree(game: TreeGame, what: str) -> None:
    """``InputError`` when ``game``'s tree is too big for a whole-tree report ``what``."""
    count = len(game.decision_nodes())
    if count > WHOLE_TREE_NODES:
        raise InputError(
            f"{what} covers every node: {count:,} decisions are too many "
            f"(at most {WHOLE_TREE_NODES:,}); pick a node, or run pokertui exploit for the "
            "exploitability"
        )


def aggregate_frequencies(reach: np.ndarray, rows: np.ndarray) -> np.ndarray | None:
    """Each action's frequency over the actor's reach weights; None if the node is unreached."""
    total = float(reach.sum())
    if total <= 0:
        return None
    return reach @ rows / total


def node_ranges(
    game: TreeGame, strategy: Mapping[int, np.ndarray], node: int | str | Node
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Both players' normalised Bayesian ranges at ``node`` (None where it is never reached)."""
    ranges: list[np.ndarray | None] = []
    for player in (0, 1):
        try:
            ranges.append(bayes_range(game, strategy, node, player))
        except TreeError:
            ranges.append(None)
    return ranges[0], ranges[1]


@dataclass(frozen=True)
class NodeReport:
    """One decision node as the explorer shows it."""

    key: str
    player: int
    actions: tuple[str, ...]
    hands: tuple[str, ...]
    """The acting player's hand labels, in the game's order (the rows below)."""
    probs: np.ndarray
    """``[n_hands, n_actions]``: the file's action probabilities."""
    possible: np.ndarray
    """``[n_hands]`` booleans: hands that can be held here (card removal)."""
    reach_weight: np.ndarray
    """``[n_hands]``: probability of reaching the node holding each hand (unnormalised)."""
    aggregate: np.ndarray | None
    """``[n_actions]``: action frequencies over the actor's reach range; None if unreached."""
    action_evs: np.ndarray
    """``[n_hands, n_actions]``: EV in chips of each action, the file's strategy after it."""
    ranges: tuple[np.ndarray | None, np.ndarray | None]

    @property
    def reach_probability(self) -> float:
        """Probability that play reaches this node."""
        return float(self.reach_weight.sum())


def node_report(
    game: TreeGame, strategy: Mapping[int, np.ndarray], node: int | str | Node
) -> NodeReport:
    target = game.node(node)
    if not target.is_decision:
        raise TreeError(f"{game.name}: node {target.key!r} is not a decision node")
    player = target.player
    reach = bayes_range(game, strategy, target, player, normalise=False)
    rows = np.asarray(strategy[target.id], dtype=float)
    return NodeReport(
        key=target.key,
        player=player,
        actions=target.actions,
        hands=game.hand_labels[player],
        probs=rows,
        possible=game.hand_possible(target, player),
        reach_weight=reach,
        aggregate=aggregate_frequencies(reach, rows),
        action_evs=action_values(game, strategy, target),
        ranges=node_ranges(game, strategy, target),
    )


# --- one hand's path -----------------------------------------------------------------------


@dataclass(frozen=True)
class HandStep:
    key: str
    actions: tuple[str, ...]
    probs: np.ndarray
    """``[n_actions]``: the hand's action frequencies at this node."""
    own_reach: float
    """Probability that the hand's own earlier actions lead here (chance excluded)."""


def find_hand(game: TreeGame, label: str) -> list[tuple[int, int]]:
    """``(player, hand index)`` for every seat holding a hand labelled ``label`` (any case)."""
    wanted = label.strip().lower()
    found = []
    for player in (0, 1):
        for index, hand in enumerate(game.hand_labels[player]):
            if hand.lower() == wanted:
                found.append((player, index))
    return found


def hand_path(
    game: TreeGame, strategy: Mapping[int, np.ndarray], player: int, hand: int
) -> list[HandStep]:
    """The decision nodes of ``player`` that ``hand`` reaches with positive probability."""
    refuse_whole_tree(game, "a hand's path")
    own = reaches(game, strategy, player)
    steps = []
    for node in game.decision_nodes(player):
        weight = float(own[node.id][hand])
        if weight > 0:
            probs = np.asarray(strategy[node.id][hand], dtype=float)
            steps.append(HandStep(node.key, node.actions, probs, weight))
    return steps


# --- where the best response gains --------------------------------------------------------


@dataclass(frozen=True)
class NodeGain:
    node_id: int
    key: str
    subtree_gain: float
    """Chips the responder gains by best-responding from this node on, weighted by the
    strategy's own reach of it (>= 0, at most ``BR value - EV``)."""
    local_gain: float
    """This node's own share of ``BR value - EV`` (>= 0); these add up over the responder."""
    top_hand: str
    """The hand whose deviation here gains most."""
    top_action: str
    """The best response's action with ``top_hand``."""

    @property
    def local_share(self) -> float:
        """This node's part of the exploitability (which averages the two seats' gains)."""
        return self.local_gain / 2

    @property
    def subtree_share(self) -> float:
        """The subtree's part of the exploitability: never more than the exploitability."""
        return self.subtree_gain / 2


def _require_tree(game: TreeGame) -> None:
    if game.simultaneous:
        raise InputError(f"{game.name} is a simultaneous-move game: it has no public tree to walk")


def _gain_walk(game: TreeGame, strategy: Mapping[int, np.ndarray], player: int):
    """Subtree gains ``[n_nodes]``, per-hand local gains by node id, and the BR's choices."""
    _require_tree(game)
    follow, _ = counterfactual_values(game, strategy, player)
    respond, pure = counterfactual_values(game, strategy, player, respond=True)
    choices = {node_id: rows.argmax(axis=1) for node_id, rows in pure.items()}
    own = reaches(game, strategy, player)
    subtree = np.array([float(own[n.id] @ (respond[n.id] - follow[n.id])) for n in game.nodes])
    local: dict[int, np.ndarray] = {}
    for node in game.decision_nodes(player):
        child_values = np.stack([respond[c] for c in node.children], axis=1)  # [hands, actions]
        average = (child_values * strategy[node.id]).sum(axis=1)
        local[node.id] = own[node.id] * (child_values.max(axis=1) - average)
    return subtree, local, choices


def subtree_gains(
    game: TreeGame, strategy: Mapping[int, np.ndarray], player: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(subtree, local)`` gains of ``player``'s best response at every node, ``[n_nodes]``.

    Local gains are zero except at ``player``'s decision nodes (see the module docstring).
    """
    subtree, per_hand, _ = _gain_walk(game, strategy, player)
    local = np.zeros(len(game.nodes))
    for node_id, gains in per_hand.items():
        local[node_id] = float(gains.sum())
    return subtree, local


def best_response_gains(
    game: TreeGame, strategy: Mapping[int, np.ndarray], player: int
) -> list[NodeGain]:
    """The responder's decision nodes, the largest local gain first."""
    subtree, per_hand, choices = _gain_walk(game, strategy, player)
    gains = []
    for node_id, hand_gains in per_hand.items():
        node = game.nodes[node_id]
        top = int(np.argmax(hand_gains))
        gains.append(
            NodeGain(
                node_id=node_id,
                key=node.key,
                subtree_gain=float(subtree[node_id]),
                local_gain=float(hand_gains.sum()),
                top_hand=game.hand_labels[player][top],
                top_action=node.actions[int(choices[node_id][top])],
            )
        )
    gains.sort(key=lambda gain: (-gain.local_gain, gain.node_id))
    return gains


@dataclass(frozen=True)
class ExploitReport:
    exploitability: Exploitability
    expected_values: tuple[float, float]
    """Each seat's EV under the file's own profile."""
    gains: tuple[list[NodeGain], list[NodeGain]]
    """Per responder seat, the largest local gain first (empty for simultaneous games)."""


def exploit_report(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> ExploitReport:
    refuse_whole_tree(game, "where a best response gains")
    report = exploitability(game, strategy)
    totals = (report.game_value, -report.game_value)  # zero-sum: the walk already gave it
    if game.simultaneous:
        gains: tuple[list[NodeGain], list[NodeGain]] = ([], [])
    else:
        gains = (best_response_gains(game, strategy, 0), best_response_gains(game, strategy, 1))
    return ExploitReport(report, (float(totals[0]), float(totals[1])), gains)


# --- comparing two files ------------------------------------------------------------------


@dataclass(frozen=True)
class NodeDifference:
    node_id: int
    key: str
    player: int
    difference: float
    """Mean over hands (weighted by reach) of half the L1 distance between the two rows: the
    share of play that differs, 0 to 1 (for two actions, the frequency difference)."""
    reached: bool
    """False when neither file reaches the node: then the mean is over possible hands."""


@dataclass(frozen=True)
class Comparison:
    nodes: list[NodeDifference]
    """Every decision node, in tree order."""
    a_vs_b: float
    """Seat 1's EV in chips when seat 1 plays file A and seat 2 plays file B."""
    b_vs_a: float
    """Seat 1's EV in chips when seat 1 plays file B and seat 2 plays file A."""
    values: tuple[float, float]
    """Seat 1's EV under file A's own profile and under file B's."""


_CHUNK = 256
"""Decision nodes per matrix product in ``node_reach_weights`` (bounds temporary memory)."""


def node_reach_weights(game: TreeGame, strategy: Mapping[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Every decision node's unnormalised Bayes range of its actor (``bayes_range`` with
    ``normalise=False``) from one walk, not one walk per node."""
    done = walk(game, strategy)
    plan = done.plan
    out: dict[int, np.ndarray] = {}
    for player in (0, 1):
        ids = np.array([n.id for n in game.decision_nodes(player)], dtype=np.intp)
        prior = game.prior if player == 0 else game.prior.T
        n_own, n_opp = game.n_hands[player], game.n_hands[1 - player]
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            rows = plan.row_of_node[chunk]
            own = done.reach[rows, player, :n_own]
            opp = done.reach[rows, 1 - player, :n_opp]
            weight = own * (opp @ prior.T) * game.path_chance[chunk][:, None]
            out.update(zip(chunk.tolist(), weight, strict=True))
    return out


def mixed_profile(
    game: TreeGame, seat1: Mapping[int, np.ndarray], seat2: Mapping[int, np.ndarray]
) -> Strategy:
    """Seat 1's nodes from ``seat1`` and seat 2's nodes from ``seat2``."""
    return {n.id: (seat1 if n.player == 0 else seat2)[n.id] for n in game.decision_nodes()}


def compare_strategies(
    game_a: TreeGame,
    strategy_a: Mapping[int, np.ndarray],
    game_b: TreeGame,
    strategy_b: Mapping[int, np.ndarray],
) -> Comparison:
    """Raises ``GameMismatchError`` when the files are for different games."""
    spec_a, spec_b = game_a.spec_string(), game_b.spec_string()
    if spec_a != spec_b:
        raise GameMismatchError(
            f"file A is for {spec_a} and file B for {spec_b}: "
            "only strategies for the same game can be compared"
        )
    game = game_a
    refuse_whole_tree(game, "a comparison")
    weights_a, weights_b = (
        node_reach_weights(game, strategy_a),
        node_reach_weights(game, strategy_b),
    )
    nodes = []
    for node in game.decision_nodes():
        rows_a, rows_b = np.asarray(strategy_a[node.id]), np.asarray(strategy_b[node.id])
        distance = 0.5 * np.abs(rows_a - rows_b).sum(axis=1)
        weight = 0.5 * (weights_a[node.id] + weights_b[node.id])
        reached = float(weight.sum()) > 0
        if not reached:
            weight = game.hand_possible(node, node.player).astype(float)
        difference = float(weight @ distance / weight.sum()) if weight.sum() > 0 else 0.0
        nodes.append(NodeDifference(node.id, node.key, node.player, difference, reached))

    def seat1_value(profile: Strategy) -> float:
        return float(expected_values(game, profile).totals[0])

    return Comparison(
        nodes=nodes,
        a_vs_b=seat1_value(mixed_profile(game, strategy_a, strategy_b)),
        b_vs_a=seat1_value(mixed_profile(game, strategy_b, strategy_a)),
        values=(seat1_value(dict(strategy_a)), seat1_value(dict(strategy_b))),
    )
