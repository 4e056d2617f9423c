"""LBR's view of the bot as a mixture over the tree lines its translation may have taken.

When LBR bets a size the bot's tree lacks, the bot answers as one of the two nearest tree sizes,
drawn by the house translation (``solvers.games.holdem.off_tree.translate_bet``, the one play
uses). LBR does not see the draw. It keeps one weight vector over the bot's hands per line (the
joint probability of that line and that hand): a bet splits every line by the translation's
probabilities, and what LBR then sees the bot do (a fold, a check or call, a bet of so many
chips) multiplies each line by the bot's probability of doing exactly that on that line, lines
where the bot could not have done it dropping out. LBR's range of the bot is the sum over lines,
and the belief is a function of the public events alone (``history``), which keys LBR's choices.

The hand ends when every line has (a fold, a showdown, both stacks in) or, after an off-tree bet
that one line took for an all-in, as soon as any line's tree is over: the rest is checked down.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.agents.bet_sizing import (
    FOLD_TOKENS,
    PASSIVE_TOKENS,
    BetSizer,
    RealState,
    child_index,
    tree_mapping,
)
from solvers.cards.deck import COMBO_CARDS, parse_card
from solvers.games.base import Node, Strategy, TreeGame
from solvers.games.holdem.off_tree import answer_rows

Observation = tuple
"""What LBR sees the bot do: ``("f",)``, ``("p",)`` (check or call) or ``("b", new total)``."""


@dataclass(frozen=True)
class Line:
    """One tree line the bot may be on, with the joint weight of the line and each bot hand."""

    node: Node
    weights: np.ndarray
    fold_to_call: float = 0.0
    """The share of its folds the bot turns into calls at ``node`` (LBR just bet below the
    tree's smallest size)."""


@dataclass(frozen=True)
class Tree:
    """A game the lines may be on instead of the bot's own (a re-solved river), with the bot's
    rows there over its own hands (``[bot hands, actions]`` per decision node of the bot)."""

    game: TreeGame
    strategy: Strategy
    full: Strategy | None = None
    """A re-solve's own strategy over its own hands, both players' rows (a re-solved turn,
    whose river is re-solved again from the opponent's reach in it); None for a river."""
    safe: bool = False
    """With ``full``: the re-solve went through the resolve gadget, so the river after it does
    too, with the opponent's values in this re-solve as its alternatives."""


@dataclass(frozen=True)
class Belief:
    lines: tuple[Line, ...]
    real: RealState
    history: tuple = ()
    """The public events so far: LBR's actions, the bot's observations and the cards dealt."""
    tree: Tree | None = None
    """Where the lines are when not in the bot's own game (``None``: they are)."""

    @property
    def node(self) -> Node:
        """A node of the public state (every line has the same board, actor and kind)."""
        return self.lines[0].node

    @property
    def weights(self) -> np.ndarray:
        """LBR's (unnormalised) range of the bot: the sum over lines."""
        total = self.lines[0].weights
        for line in self.lines[1:]:
            total = total + line.weights
        return total

    def over(self, cap: float) -> bool:
        return min(self.real.put) >= cap or any(line.node.is_terminal for line in self.lines)

    def folder(self) -> int | None:
        """Who folded, if the hand ended by a fold."""
        for line in self.lines:
            if line.node.is_terminal and line.node.terminal == "fold":
                return line.node.folder
        return None


def start(game: TreeGame, prior_row: np.ndarray) -> Belief:
    root = game.root
    return Belief((Line(root, prior_row),), RealState(list(root.contributions)))


def _merged(game: TreeGame, moves: list[tuple[int, np.ndarray, float]]) -> tuple[Line, ...]:
    """Lines from ``(child id, weights, fold_to_call)`` moves, those reaching the same node
    (with the same answer) summed."""
    by_node: dict[tuple[int, float], np.ndarray] = {}
    for child, weights, keep in moves:
        key = (child, keep)
        by_node[key] = by_node[key] + weights if key in by_node else weights
    return tuple(Line(game.nodes[c], w, keep) for (c, keep), w in by_node.items())


def advance_real(real: RealState, actor: int, kind: str, to: float | None) -> RealState:
    """The real pot after ``actor`` folds (``f``), checks or calls (``p``) or bets to ``to``."""
    new = real.copy()
    opp = real.put[1 - actor]
    if kind == "p":
        new.put[actor] = opp
    elif kind == "b":
        assert to is not None
        new.put[actor] = to
        new.last_increment = max(real.last_increment, to - opp)
    return new


def after_lbr(game: TreeGame, belief: Belief, seat: int, kind: str, to: float | None) -> Belief:
    """LBR folds, checks or calls, or bets to ``to`` (every line split by its translation)."""
    moves = []
    for line in belief.lines:
        node = line.node
        if kind == "b":
            assert to is not None
            mapping, keep = tree_mapping(game, node, seat, belief.real, to)
            for index, p in mapping:
                moves.append((node.children[index], line.weights * p, keep))
            continue
        passive = child_index(node, FOLD_TOKENS if kind == "f" else PASSIVE_TOKENS)
        assert passive is not None, "a decision node can always fold, check or call"
        moves.append((node.children[passive], line.weights, 0.0))
    real = advance_real(belief.real, seat, kind, to)
    return Belief(_merged(game, moves), real, (*belief.history, ("L", kind, to)), belief.tree)


def observation(sizer: BetSizer, node: Node, real: RealState, index: int) -> Observation:
    """What LBR sees when the bot takes action ``index`` at ``node`` in the real pot."""
    token = node.tokens[index]
    if token in FOLD_TOKENS:
        return ("f",)
    if token in PASSIVE_TOKENS:
        return ("p",)
    return ("b", sizer.bot_amount(node, node.player, real, index))


def observations(sizer: BetSizer, belief: Belief) -> dict[Observation, list[tuple[int, int]]]:
    """Each thing the bot may be seen doing, with the ``(line, action)`` pairs that show it."""
    seen: dict[Observation, list[tuple[int, int]]] = {}
    for k, line in enumerate(belief.lines):
        for index in range(len(line.node.children)):
            shown = observation(sizer, line.node, belief.real, index)
            seen.setdefault(shown, []).append((k, index))
    return seen


def after_bot(
    game: TreeGame,
    strategy: Strategy,
    belief: Belief,
    seen: Observation,
    pairs: list[tuple[int, int]],
) -> Belief:
    """Bayes' rule on every line for the bot's observed action (``pairs`` from
    ``observations``); the new weights sum to the observation's probability times the old."""
    moves = []
    for k, index in pairs:
        line = belief.lines[k]
        rows = answer_rows(strategy[line.node.id], line.node, line.fold_to_call)
        moves.append((line.node.children[index], line.weights * rows[:, index], 0.0))
    actor = belief.node.player
    real = advance_real(belief.real, actor, seen[0], seen[1] if seen[0] == "b" else None)
    return Belief(_merged(game, moves), real, (*belief.history, ("B", *seen)), belief.tree)


def after_card(game: TreeGame, belief: Belief, seat: int, token: str) -> Belief:
    """The card ``token`` is dealt: every line moves on, bot hands holding it drop out."""
    moves = []
    where = game if belief.tree is None else belief.tree.game
    for line in belief.lines:
        node = line.node
        index = node.tokens.index(token)
        keep = bot_masks(game, belief, seat)[index]
        moves.append((node.children[index], line.weights * keep, 0.0))
    real = RealState(list(belief.real.put))
    return Belief(_merged(where, moves), real, (*belief.history, ("C", token)), belief.tree)


def bot_masks(game: TreeGame, belief: Belief, seat: int) -> np.ndarray:
    """``[outcomes, bot hands of game]`` at ``belief``'s chance node: 1 where the card leaves
    the bot's hand. A re-solve's own masks are over its own hands; the lines' are the file's."""
    node = belief.node
    if belief.tree is None:
        assert node.outcome_masks is not None  # chance nodes carry them
        return node.outcome_masks[1 - seat]
    cards = COMBO_CARDS[game.hand_combos[1 - seat]]  # type: ignore[attr-defined]
    dealt = np.array([parse_card(t) for t in node.tokens])
    return (cards[None, :, :] != dealt[:, None, None]).all(axis=2).astype(np.float64)
