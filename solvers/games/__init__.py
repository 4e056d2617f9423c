"""Games as private hands plus a public tree (see ``base.py``), loadable from spec strings.

Importing this package registers every game; ``load_game("kuhn(cards=8)")`` builds one.
"""

from solvers.games import (  # noqa: F401 - registers
    flop_poker,
    holdem,
    kuhn,
    leduc,
    matrix,
    push_fold,
    river_toy,
    von_neumann,
)
from solvers.games.base import GameParamError, GameParams, Node, NodeKind, TreeError, TreeGame
from solvers.games.spec import GAMES, format_spec, load_game, parse_spec, register_game
from solvers.games.strategy import (
    Strategy,
    StrategyError,
    random_strategy,
    uniform_strategy,
    validate_strategy,
)

__all__ = [
    "GAMES",
    "GameParamError",
    "GameParams",
    "Node",
    "NodeKind",
    "Strategy",
    "StrategyError",
    "TreeError",
    "TreeGame",
    "format_spec",
    "load_game",
    "parse_spec",
    "random_strategy",
    "register_game",
    "uniform_strategy",
    "validate_strategy",
]
