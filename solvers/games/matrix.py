"""Matrix games: one simultaneous move each, solved in normal form (von Neumann's minimax LP).

The payoffs are the row player's (player 0). A matrix game has no public tree to walk, so it
exposes two pseudo decision nodes, ``row`` and ``column``, each with one "hand", and the
evaluation and LP modules send it down the small normal-form path here. Strategies use the common
format: ``{0: [1, n_rows], 1: [1, n_columns]}``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from pydantic import Field, field_validator

from solvers.games.base import MAX_CHIPS, GameParams, Node, NodeKind, TreeGame
from solvers.games.spec import register_game

NAMED = {
    "rps": (
        [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]],
        ("rock", "paper", "scissors"),
    ),
}


class MatrixParams(GameParams):
    positional = ("payoff",)
    payoff: str | list[list[float]] = Field("rps", description="a named matrix or the rows")

    @field_validator("payoff", mode="before")
    @classmethod
    def _known_or_rectangular(cls, value):
        if isinstance(value, str):
            if value not in NAMED:
                raise ValueError(f"unknown matrix {value!r}; named ones: {', '.join(NAMED)}")
            return value
        if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
            raise ValueError("give a named matrix (rps) or a list of rows like [[0,-1],[1,0]]")
        if not value or not value[0]:
            raise ValueError("the matrix needs at least one row and one column")
        if len({len(row) for row in value}) != 1:
            raise ValueError("all rows must have the same length")
        if len(value) > 500 or len(value[0]) > 500:
            raise ValueError("at most 500 rows and columns")
        numbers = [[v for v in row if isinstance(v, int | float)] for row in value]
        if numbers != value or not np.isfinite(np.asarray(value, dtype=float)).all():
            raise ValueError("payoffs must be finite numbers")
        if np.abs(np.asarray(value, dtype=float)).max() > MAX_CHIPS:
            raise ValueError(f"payoffs must be between -{MAX_CHIPS:g} and {MAX_CHIPS:g}")
        return value


@register_game
class MatrixGame(TreeGame):
    name = "matrix"
    simultaneous = True
    params_model = MatrixParams
    description = "a zero-sum matrix game (payoffs to the row player)"

    @classmethod
    def from_params(cls, params: MatrixParams) -> MatrixGame:
        if isinstance(params.payoff, str):
            rows, labels = NAMED[params.payoff]
            payoff = np.array(rows)
            row_labels: tuple[str, ...] = labels
            col_labels: tuple[str, ...] = labels
        else:
            payoff = np.array(params.payoff, dtype=float)
            row_labels = tuple(f"r{i}" for i in range(payoff.shape[0]))
            col_labels = tuple(f"c{j}" for j in range(payoff.shape[1]))
        return cls(params, payoff, row_labels, col_labels)

    def __init__(self, params, payoff: np.ndarray, row_labels, col_labels) -> None:
        self.payoff = payoff
        nodes = [
            Node(
                0,
                "row",
                NodeKind.DECISION,
                -1,
                (0.0, 0.0),
                player=0,
                actions=row_labels,
                tokens=row_labels,
                amounts=(0.0,) * len(row_labels),
            ),
            Node(
                1,
                "column",
                NodeKind.DECISION,
                -1,
                (0.0, 0.0),
                player=1,
                actions=col_labels,
                tokens=col_labels,
                amounts=(0.0,) * len(col_labels),
            ),
        ]
        super().__init__(params, (("-",), ("-",)), np.ones((1, 1)), nodes, big_blind=1.0)

    def _compute_path_chance(self) -> None:
        self.path_chance = np.ones(2)
        self.path_masks = [(np.ones(1, bool), np.ones(1, bool))] * 2


def _mixes(strategy: Mapping[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(strategy[0])[0], np.asarray(strategy[1])[0]


def maximin(payoff: np.ndarray) -> tuple[float, np.ndarray]:
    """Max over row mixes of the min over columns: variables (mix, v), maximise v."""
    from scipy.optimize import linprog  # noqa: PLC0415 - scipy is slow to import; only LP needs it

    n_rows, n_cols = payoff.shape
    cost = np.zeros(n_rows + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-payoff.T, np.ones((n_cols, 1))])
    a_eq = np.append(np.ones(n_rows), 0.0)[None, :]
    bounds = [(0, None)] * n_rows + [(None, None)]
    res = linprog(
        cost, A_ub=a_ub, b_ub=np.zeros(n_cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs"
    )
    if res.status != 0:
        raise RuntimeError(f"matrix LP failed: {res.message}")
    mix = np.clip(res.x[:n_rows], 0, None)
    return -res.fun, mix / mix.sum()


def solve_matrix_lp(game: MatrixGame) -> tuple[float, dict[int, np.ndarray]]:
    value, rows = maximin(game.payoff)
    _, cols = maximin(-game.payoff.T)
    return value + 0.0, {0: rows[None, :], 1: cols[None, :]}  # + 0.0 turns -0.0 into 0.0
