"""Each action's frequency and EV at the same decision after every card a deal can bring.

For a chance node (``x/x`` on a turn spot) or a key with ``*`` for the card
(``x/b75/c/*/x``), the decision after each card: how often each action is taken over the
actor's range there, its EV for the hands that take it, and the actor's EV, so the cards that
favour the bettor stand out. One walk and one value pass for all the cards at once (on a
hold'em spot, the compiled walk's values at decisions, kept for the next report).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from solvers.errors import InputError
from solvers.exact.evaluation import profile_of, walk
from solvers.games.base import Node, TreeGame
from solvers.strategy_file.binary import as_played


@dataclass(frozen=True)
class ByCard:
    key: str
    """The chance node (or the pattern with ``*``) the report is for."""
    player: int
    """Who acts at the nodes after the card."""
    actions: tuple[str, ...]
    cards: tuple[str, ...]
    node_keys: tuple[str, ...]
    reach: np.ndarray
    """``[n_cards]`` probability of each card given the chance node (or pattern prefix) is
    reached under the strategy; sums to 1 over the cards whose node exists."""
    frequency: np.ndarray
    """``[n_cards, n_actions]`` each action's frequency over the actor's range there."""
    action_ev: np.ndarray
    """``[n_cards, n_actions]`` EV in chips of each action for the hands that take it (NaN
    where none does)."""
    ev: np.ndarray
    """``[n_cards]`` the actor's EV at the node, averaged over their range there."""


def _targets(game: TreeGame, key: str) -> tuple[list[str], list[Node], Node]:
    """The decision node after each card, for a chance node key or a pattern with one ``*``."""
    if key.count("*") > 1:
        raise InputError("a --by-card pattern has one '*' for the card, e.g. x/b75/c/*/x")
    if "*" in key:
        head, _, tail = key.partition("*")
        chance = game.node_by_key(head.rstrip("/"))
        suffix = tail
    else:
        chance, suffix = game.node_by_key(key), ""
    if not chance.is_chance:
        raise InputError(
            f"node {key!r} deals no card: give the chance node (e.g. x/x on a turn spot) or a "
            "pattern with '*' for the card"
        )
    cards, nodes = [], []
    for card, child in zip(chance.actions, chance.children, strict=True):
        target_key = game.nodes[child].key + suffix
        try:
            target = game.node_by_key(target_key)
        except InputError:
            continue
        if target.is_decision:
            cards.append(card)
            nodes.append(target)
    if not nodes:
        raise InputError(f"no decision node after the cards of {key!r}")
    return cards, nodes, chance


def by_next_card(game: TreeGame, strategy: Mapping[int, np.ndarray], key: str) -> ByCard:
    """Frequencies and EVs of the same decision after every card; one walk for all cards."""
    cards, nodes, _ = _targets(game, key)
    strategy = as_played(strategy)
    player = nodes[0].player
    actions = nodes[0].actions
    if any(n.player != player or n.actions != actions for n in nodes):
        raise InputError(f"the nodes after the cards of {key!r} differ in actor or actions")
    ids = [n.id for n in nodes]
    prior = game.prior if player == 0 else game.prior.T
    own, opp, child_cfv = _reach_and_values(game, strategy, player, nodes)
    opp_weight = (opp @ prior.T) * game.path_chance[ids][:, None]
    probs = np.stack([np.asarray(strategy[n.id]).T for n in nodes])  # [k, n_actions, n_own]
    reach = own * opp_weight  # the actor's Bayes weight of each hand there, unnormalised
    mass = reach.sum(axis=1)
    taken = (probs * reach[:, None, :]).sum(axis=2)  # [k, n_actions]
    # action EV over the hands that take it: sum_h own * p_a * cfv_a / sum_h own * p_a * oppw
    earned = (probs * own[:, None, :] * child_cfv).sum(axis=2)
    node_ev = earned.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        frequency = taken / mass[:, None]
        action_ev = np.where(taken > 0, earned / taken, np.nan)
        ev = node_ev / mass
    total = mass.sum()
    return ByCard(
        key=key,
        player=player,
        actions=actions,
        cards=tuple(cards),
        node_keys=tuple(n.key for n in nodes),
        reach=mass / total if total > 0 else mass,
        frequency=frequency,
        action_ev=action_ev,
        ev=ev,
    )


def _reach_and_values(game: TreeGame, strategy: Mapping[int, np.ndarray], player: int, nodes):
    """At each of ``nodes`` (``player``'s decisions): own and opponent reach ``[k, hands]`` and
    the children's values ``[k, n_actions, n_own]``, from the compiled walk's kept values for
    a hold'em spot, else from one numpy walk."""
    n_own, n_opp = game.n_hands[player], game.n_hands[1 - player]
    compiled = profile_of(game, strategy)
    if compiled is not None:
        kept = compiled.values(player)
        own = np.stack([compiled.reach_at(n.id, player) for n in nodes])
        opp = np.stack([compiled.reach_at(n.id, 1 - player) for n in nodes])
        children = np.stack([kept.children(n, opp[k]) for k, n in enumerate(nodes)])
        return own, opp, children
    done = walk(game, strategy)
    rows = done.plan.row_of_node[[n.id for n in nodes]]
    own = done.reach[rows, player, :n_own]
    opp = done.reach[rows, 1 - player, :n_opp]
    values = done.values(game, player)
    children = np.array([n.children for n in nodes])  # [k, n_actions]
    return own, opp, values[done.plan.row_of_node[children], :n_own]


def by_card_payload(report: ByCard) -> dict:
    """The report as JSON-able data (``pokertui show --by-card --json``)."""

    def number(x: float) -> float | None:
        return None if not np.isfinite(x) else float(x)

    return {
        "key": report.key,
        "player": report.player,
        "seat": "OOP" if report.player == 0 else "IP",
        "actions": list(report.actions),
        "cards": [
            {
                "card": card,
                "node": node_key,
                "reach": number(report.reach[i]),
                "ev": number(report.ev[i]),
                "frequency": {
                    a: number(report.frequency[i, j]) for j, a in enumerate(report.actions)
                },
                "action_ev": {
                    a: number(report.action_ev[i, j]) for j, a in enumerate(report.actions)
                },
            }
            for i, (card, node_key) in enumerate(zip(report.cards, report.node_keys, strict=True))
        ],
    }
