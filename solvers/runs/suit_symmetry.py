"""Suit-symmetric equilibria: average an equilibrium over the game's suit permutations.

An LP solver returns *an* equilibrium, and in a game whose suits are interchangeable (Leduc's
spades and hearts) it may play ``Js`` and ``Jh`` differently, which a learner reads as advice.
Relabelling the suits maps every equilibrium to another one, and in sequence form the set of a
player's equilibrium strategies is convex (it is the optimal face of a linear program). So the
average of the realization plans over all suit permutations is still an equilibrium, and it is
suit-symmetric: hand ``h`` at node ``n`` plays exactly as the relabelled hand at the
relabelled node. Averaging behavioural rows directly would not keep the equilibrium property;
averaging realization plans does.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from solvers.exact.lp import build_sequence_form, plan_to_strategy, strategy_to_plan
from solvers.games.base import Strategy, TreeGame

SUIT_LETTERS = "shdc"


def _relabel(label: str, swap: dict[str, str]) -> str:
    """A card label (``Js``, ``AsKd``) with its suits renamed; other labels are returned
    unchanged."""
    if len(label) % 2 or not all(label[i + 1] in SUIT_LETTERS for i in range(0, len(label), 2)):
        return label
    return "".join(label[i] + swap[label[i + 1]] for i in range(0, len(label), 2))


def game_suits(game: TreeGame) -> str:
    """The suit letters the game's hand labels use (empty when hands are not cards)."""
    labels = [label for seat in game.hand_labels for label in seat]
    if not labels or any(len(label) % 2 for label in labels):
        return ""
    found = {label[i + 1] for label in labels for i in range(0, len(label), 2)}
    return "".join(s for s in SUIT_LETTERS if s in found) if found <= set(SUIT_LETTERS) else ""


def suit_maps(game: TreeGame, swap: dict[str, str]) -> tuple[list[np.ndarray], np.ndarray]:
    """For one suit renaming: each seat's hand permutation and the node permutation (node ids
    are matched through their keys, whose chance tokens are card labels)."""
    hands = []
    for labels in game.hand_labels:
        index = {label: i for i, label in enumerate(labels)}
        hands.append(np.array([index[_relabel(label, swap)] for label in labels]))
    nodes = np.empty(len(game.nodes), dtype=int)
    for node in game.nodes:
        key = "/".join(_relabel(token, swap) for token in node.key.split("/"))
        nodes[node.id] = game.node_by_key(key).id
    return hands, nodes


def suit_symmetric(game: TreeGame, strategy: Strategy) -> Strategy:
    """The strategy's realization plans averaged over every permutation of the game's suits."""
    suits = game_suits(game)
    if len(suits) < 2:
        return dict(strategy)
    form = build_sequence_form(game)
    plans = [strategy_to_plan(game, form, p, strategy) for p in (0, 1)]
    averaged = [np.zeros_like(plan) for plan in plans]
    renamings = [dict(zip(suits, order, strict=True)) for order in permutations(suits)]
    for swap in renamings:
        hand_maps, node_map = suit_maps(game, swap)
        for player in (0, 1):
            moved = np.empty_like(plans[player])
            moved[0] = plans[player][0]
            for nid, offset in form.offsets[player].items():
                width = len(game.nodes[nid].children)
                size = game.n_hands[player] * width
                source = form.offsets[player][int(node_map[nid])]
                block = plans[player][source : source + size].reshape(-1, width)
                # hand h at node n plays what the renamed hand plays at the renamed node
                moved[offset : offset + size] = block[hand_maps[player]].ravel()
            averaged[player] += moved / len(renamings)
    return {
        **plan_to_strategy(game, form, 0, averaged[0]),
        **plan_to_strategy(game, form, 1, averaged[1]),
    }
