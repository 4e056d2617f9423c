"""The explorer's per-node "subtree" exploitability is weighted by the strategy's own reach, so
no node can show more than the whole strategy's exploitability."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.exact.evaluation import counterfactual_values, exploitability, reaches
from solvers.reports.strategy_report import best_response_gains, subtree_gains
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES


def lopsided(game, seed):
    """A random strategy that leaves many nodes nearly unreached: exploitable everywhere."""
    rng = np.random.default_rng(seed)
    profile = {}
    for node in game.decision_nodes():
        weights = rng.random((game.n_hands[node.player], len(node.actions))) ** 6 + 1e-3
        profile[node.id] = weights / weights.sum(axis=1, keepdims=True)
    return profile


def descendants(game, node):
    stack, out = [node], []
    while stack:
        here = stack.pop()
        out.append(here)
        stack.extend(game.nodes[c] for c in here.children)
    return out


@pytest.mark.parametrize("name", ["kuhn.json", "leduc.json", "river_toy.json"])
def test_every_subtree_share_is_at_most_the_exploitability(name):
    game = load_strategy(STRATEGIES / name).game
    for seed in range(3):
        strategy = lopsided(game, seed)
        total = exploitability(game, strategy).exploitability
        shares_here = 0.0
        for player in (0, 1):
            subtree, local = subtree_gains(game, strategy, player)
            # a second route: the subtree figure is the sum of the local gains below the node
            for node in game.nodes:
                below = sum(local[n.id] for n in descendants(game, node))
                assert subtree[node.id] == pytest.approx(below, abs=1e-9)
            gains = best_response_gains(game, strategy, player)
            assert max(g.subtree_share for g in gains) <= total + 1e-12
            shares_here += sum(g.local_share for g in gains)
        assert shares_here == pytest.approx(total, rel=1e-9)


def off_path_blunders(game, strategy):
    """The file's strategy, but every hand folds (or checks) wherever the file itself never
    gets with it: the exploitability barely moves, since no one can make it go there."""
    blundering = {nid: np.array(rows, dtype=float) for nid, rows in strategy.items()}
    for player in (0, 1):
        own = reaches(game, strategy, player)
        for node in game.decision_nodes(player):
            unreached = own[node.id] == 0
            blundering[node.id][unreached] = 0.0
            blundering[node.id][unreached, 0] = 1.0
    return blundering


def test_unweighted_subtrees_would_exceed_the_total():
    """Why the weighting matters: where the strategy never goes, the raw sum of counterfactual
    gains can be far larger than the exploitability; the reach-weighted figure cannot."""
    loaded = load_strategy(STRATEGIES / "leduc.json")
    game = loaded.game
    strategy = off_path_blunders(game, loaded.strategy)
    total = exploitability(game, strategy).exploitability
    assert total < 1e-3
    raw = []
    for player in (0, 1):
        follow, _ = counterfactual_values(game, strategy, player)
        respond, _ = counterfactual_values(game, strategy, player, respond=True)
        raw.append(max(float((respond[n.id] - follow[n.id]).sum()) for n in game.nodes))
        weighted = best_response_gains(game, strategy, player)
        assert max(g.subtree_share for g in weighted) <= total + 1e-12
    assert max(raw) / 2 > 10 * total
