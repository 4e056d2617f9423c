"""What every full-game player answers: its action distribution at a public state.

An agent (the blueprint bot, a re-solving bot, a chump such as always-call) is asked for its
``Policy`` at a public state and board: the actions it considers and, for every one of the 1,326
combos, the probability of each. The whole-range answer is what Bayes' rule on its range, local
best response and the app's live panel need; ``act`` samples its own hand's row. Rows of combos
that the board blocks are still probability rows (uniform), so callers can mask them as they like.

The protocol lives here, below ``reports/``, so that LBR and sessions take any agent; concrete
agents live in ``solvers/agents/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from solvers.cards.deck import N_COMBOS
from solvers.games.hunl.rules import RAISE, Action, HunlState


@dataclass(frozen=True)
class Policy:
    """``probabilities[combo, i]`` is the chance of ``actions[i]`` with that combo."""

    actions: tuple[Action, ...]
    probabilities: np.ndarray
    representative: bool = False
    """True when a listed raise stands for many totals that ``act`` draws among: the listed
    chances are then not those of the actions played (the chumps' min, pot and all-in), which
    LBR's range reads at the nearest listed raise but control variates cannot weigh."""

    def __post_init__(self) -> None:
        shape = (N_COMBOS, len(self.actions))
        if self.probabilities.shape != shape:
            raise ValueError(f"policy shape {self.probabilities.shape}, expected {shape}")

    def row(self, combo: int) -> np.ndarray:
        return self.probabilities[combo]

    def sample(self, combo: int, rng: np.random.Generator) -> Action:
        row = self.probabilities[combo]
        index = int(np.searchsorted(np.cumsum(row), rng.random() * row.sum(), side="right"))
        return self.actions[min(index, len(self.actions) - 1)]


def action_column(policy: Policy, action: Action) -> int:
    """The policy's column for an action taken: the same action, else for a raise the listed
    raise nearest in total (an agent may list representative raise sizes and draw another, a
    blueprint rounds), else the first listed action of the same kind.

    Raises ``ValueError`` when the policy lists nothing like it."""
    for index, listed in enumerate(policy.actions):
        if listed == action:
            return index
    raises = [i for i, a in enumerate(policy.actions) if a.kind == RAISE]
    if action.kind == RAISE and raises:
        return min(raises, key=lambda i: abs(policy.actions[i].to - action.to))
    kinds = [i for i, a in enumerate(policy.actions) if a.kind == action.kind]
    if kinds:
        return kinds[0]
    raise ValueError(f"the policy lists no action like {action}")


class Agent(Protocol):
    """A full-game player. ``board`` is the int array of board cards dealt so far."""

    name: str

    def policy(self, state: HunlState, board: np.ndarray) -> Policy: ...

    def act(
        self, state: HunlState, board: np.ndarray, combo: int, rng: np.random.Generator
    ) -> Action: ...


def forget_deal(*agents: Agent) -> bool:
    """Let each agent drop what it kept of a finished deal (a re-solving bot's solves, 100 to
    200 MB a hand: the next deal's board is on none of them). True when one had a ``forget``,
    so the caller may give the memory back."""
    forgot = False
    for agent in agents:
        forget = getattr(agent, "forget", None)
        if callable(forget):
            forget()
            forgot = True
    return forgot
