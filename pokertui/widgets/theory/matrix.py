"""Matrix games: the LP solution, and regret matching animated against a fixed opponent.

Regret matching here is a few microseconds a step on a small matrix, so the animation steps it
from a timer; against a fixed mix it converges to a best response (RPS vs 40/30/30: Paper).
"""

from __future__ import annotations

import numpy as np
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Button, Static

from pokertui.widgets.theory.common import TheoryPane, fmt, parse_number

STEPS_PER_TICK = 5


def parse_matrix_game(text: str):
    from solvers.errors import InputError  # noqa: PLC0415
    from solvers.games import load_game  # noqa: PLC0415

    text = text.strip() or "rps"
    try:
        return load_game(f"matrix(payoff={text})")
    except InputError as exc:
        raise ValueError(str(exc)) from None


def parse_mix(text: str, size: int) -> np.ndarray:
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) != size:
        raise ValueError(f"the opponent mix needs {size} probabilities, got {len(parts)}")
    mix = np.array([parse_number(p, "a probability", 0, 1) for p in parts])
    if abs(mix.sum() - 1) > 1e-6:
        raise ValueError(f"the opponent mix must sum to 1, not {mix.sum():.4g}")
    return mix / mix.sum()


def mix_text(labels, mix) -> str:
    return "  ".join(f"{label} {p:.3f}" for label, p in zip(labels, mix, strict=True))


class MatrixPane(TheoryPane):
    FIELDS = (
        ("matrix-payoff", "Matrix", "rps"),
        ("matrix-opponent", "Fixed opponent", "0.4 0.3 0.3"),
    )
    DEFAULT_CSS = """
    MatrixPane #matrix-payoff { width: 34; }
    MatrixPane #matrix-opponent { width: 20; }
    MatrixPane .matrix-buttons { height: 3; }
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.solver = None
        """The regret matcher being animated (a ``solvers.algorithms.RegretMatching``)."""
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield from self.compose_inputs()
        yield Static(id="matrix-lp", classes="theory-out")
        with Horizontal(classes="matrix-buttons"):
            yield Button("Animate regret matching", id="matrix-animate", variant="primary")
            yield Button("Stop", id="matrix-stop")
        yield Static(id="matrix-rm", classes="theory-out")

    def recompute(self) -> None:
        from solvers.exact.lp import solve_lp  # noqa: PLC0415

        self.stop()
        game = parse_matrix_game(self.text("matrix-payoff"))
        parse_mix(self.text("matrix-opponent"), game.payoff.shape[1])
        solution = solve_lp(game)
        rows, columns = game.nodes[0].actions, game.nodes[1].actions
        self.query_one("#matrix-lp", Static).update(
            f"LP solution: value {fmt(solution.value)}\n"
            f"  row player:    {mix_text(rows, solution.strategy[0][0])}\n"
            f"  column player: {mix_text(columns, solution.strategy[1][0])}"
        )
        self.query_one("#matrix-rm", Static).update("Press Animate to run regret matching.")

    @on(Button.Pressed, "#matrix-animate")
    def start_animation(self) -> None:
        from solvers.algorithms import make_solver  # noqa: PLC0415

        try:
            game = parse_matrix_game(self.text("matrix-payoff"))
            mix = parse_mix(self.text("matrix-opponent"), game.payoff.shape[1])
        except ValueError as exc:
            self.query_one(".theory-error", Static).update(str(exc))
            return
        self.stop()
        self.solver = make_solver(game, "rm", opponent=mix.tolist(), seed=0)
        self.timer = self.set_interval(0.1, self.step)

    @on(Button.Pressed, "#matrix-stop")
    def stop(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def step(self) -> None:
        solver = self.solver
        if solver is None:
            return
        solver.run(iterations=STEPS_PER_TICK)
        game = solver.game
        labels = game.nodes[0].actions
        payoffs = game.payoff @ solver.fixed_opponent
        best = labels[int(np.argmax(payoffs))]
        current, average = solver.current_strategy()[0][0], solver.average_strategy()[0][0]
        self.query_one("#matrix-rm", Static).update(
            f"Regret matching vs the fixed opponent, iteration {solver.iterations}\n"
            f"  current: {mix_text(labels, current)}\n"
            f"  average: {mix_text(labels, average)}\n"
            f"  best response: {best} (EV {fmt(float(payoffs.max()))})"
        )
        if solver.iterations >= 2000:
            self.stop()
