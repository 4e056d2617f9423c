"""Games and hand-made strategies for the LBR tests (none written by the code under test)."""

from __future__ import annotations

import numpy as np

from solvers.algorithms import make_solver
from solvers.games import load_game
from solvers.games.base import Strategy, TreeGame

RIVER_SPOT = (
    'nlhe(board="Qs Jh 2h 8d 3c",pot=100,stack=300,'
    'oop_range="22+,A2s+,KTs+,QTs+,JTs,T9s,98s,ATo+,KJo+",'
    'ip_range="22+,A2s+,K9s+,Q9s+,J9s+,T8s+,97s+,87s,A9o+,KTo+,QJo",'
    'river_oop_bet="50%,a",river_ip_bet="50%,a",river_oop_raise="a",river_ip_raise="a")'
)


def river_game() -> TreeGame:
    return load_game(RIVER_SPOT)


def solved(game: TreeGame, iterations: int = 300) -> Strategy:
    solver = make_solver(game, "dcfr")
    solver.run(iterations=iterations)
    return solver.average_strategy()


def rule_strategy(game: TreeGame, facing: str, otherwise: str = "x") -> Strategy:
    """Every hand takes the action with token ``facing`` when facing a bet, else ``otherwise``."""
    strategy: Strategy = {}
    for node in game.decision_nodes():
        token = facing if "f" in node.tokens else otherwise
        rows = np.zeros((game.n_hands[node.player], len(node.tokens)))
        rows[:, node.tokens.index(token)] = 1.0
        strategy[node.id] = rows
    return strategy


def push_fold_rows(game: TreeGame, shove: float, call: float) -> Strategy:
    """Push/fold with the same shove and call frequency for every class (a leaky bot)."""
    root, facing = game.node_by_key(""), game.node_by_key("shove")
    return {
        root.id: np.tile([1 - shove, shove], (game.n_hands[0], 1)),
        facing.id: np.tile([1 - call, call], (game.n_hands[1], 1)),
    }


TURN_SPOT = (
    'nlhe(board="Qs Jh 2h 8d",pot=100,stack=200,oop_range="QQ,JJ,AKs,AhTh,KQs,T9s,65s",'
    'ip_range="AA,KK,QJs,AQs,KhQh,9h8h,87s",turn_oop_bet="50%",turn_ip_bet="75%",'
    'turn_oop_raise="a",turn_ip_raise="a",river_oop_bet="75%,a",river_ip_bet="50%,a",'
    'river_oop_raise="a",river_ip_raise="a")'
)


def turn_game() -> TreeGame:
    return load_game(TURN_SPOT)
