"""LBR's action sets, the chips each candidate bet puts in, and the bot's view of an off-tree bet.

Action sets (Lisý and Bowling's names): ``fc`` (fold, check or call), ``fcpa`` (also a pot-sized
bet and all-in), ``56`` (fold, call, all-in and the pot fractions ``0.05 * 1.15**k`` for
``k = 0..54``) and ``tree`` (the bet sizes the bot's own tree has at that node). A fraction is of
the pot for a bet and of the pot after calling for a raise, as in the spot grammar; amounts round
to whole chips, and a size that is not legal becomes the minimum bet or all-in, as in the paper.
A game with fixed bet sizes (push/fold) has no other legal bet, so every bet of an action set
becomes the tree's own.

Off-tree bets reach the bot through the house translation that play uses
(``solvers.games.holdem.off_tree.translate_bet``, pseudo-harmonic): the bot answers as if LBR had
bet one of the two nearest tree sizes, drawn with the mapping's probability; all-in maps to the
tree's all-in when it has one. ``tree_mapping`` is that adapter; LBR does not see the draw and
keeps the bot's mixture over both lines (``agents/beliefs.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from solvers.agents.action_sets import ACTION_SETS
from solvers.errors import InputError
from solvers.games.base import Node, TreeGame
from solvers.games.holdem.off_tree import translate_bet

FRACTIONS_56 = tuple(float(0.05 * 1.15**k) for k in range(55))
FOLD_TOKENS = ("f", "fold")
PASSIVE_TOKENS = ("x", "c", "check", "call")


class ActionSetError(InputError):
    """An action set that LBR does not know."""


def parse_action_set(text: str) -> str:
    name = str(text).strip().lower()
    if name not in ACTION_SETS:
        raise ActionSetError(
            f"unknown action set {text!r}: use one of {', '.join(ACTION_SETS)} "
            "(fold/call; + pot and all-in; + 55 pot fractions; the bot's own sizes)"
        )
    return name


@dataclass
class RealState:
    """The chips actually in the pot, which differ from the tree node's after an off-tree bet."""

    put: list[float]
    last_increment: float = 0.0
    """The largest bet or raise increment on this street (the minimum raise)."""

    def copy(self) -> RealState:
        return RealState(list(self.put), self.last_increment)


def bet_children(node: Node) -> list[int]:
    """Indices of a decision node's bets and raises (neither fold nor check/call)."""
    return [i for i, token in enumerate(node.tokens) if token not in FOLD_TOKENS + PASSIVE_TOKENS]


def child_index(node: Node, tokens: tuple[str, ...]) -> int | None:
    for i, token in enumerate(node.tokens):
        if token in tokens:
            return i
    return None


def _fraction(own: float, opp: float, to: float) -> float:
    """A new total contribution as LBR's action sets measure it (pot, or pot after a call)."""
    if opp > own:
        return (to - opp) / (2.0 * opp)
    return (to - own) / (own + opp)


def pot_fraction_to(own: float, opp: float, fraction: float) -> float:
    """The new total of a bet of ``fraction`` of the pot (of the pot after calling, when facing
    a bet), in whole chips above the opponent's total: integers in, an integer out."""
    extra = fraction * (2.0 * opp if opp > own else own + opp)
    return opp + max(math.floor(extra + 0.5), 1)


class BetSizer:
    """Candidate bets of one action set at a node, and the bot's translation of any bet."""

    def __init__(self, action_set: str, cap: float, no_limit: bool) -> None:
        self.action_set = parse_action_set(action_set)
        self.cap = cap
        self.no_limit = no_limit

    def candidates(self, node: Node, actor: int, real: RealState) -> list[float]:
        """LBR's new total contributions for its bets at ``node``, ascending and distinct."""
        tree_bets = bet_children(node)
        own, opp = real.put[actor], real.put[1 - actor]
        if self.action_set == "fc" or not tree_bets or opp >= self.cap:
            return []
        tree_to = [node.contributions[actor] + node.amounts[i] for i in tree_bets]
        if not self.no_limit:
            return sorted(set(tree_to))
        if self.action_set == "tree":
            t_own, t_opp = node.contributions[actor], node.contributions[1 - actor]
            fractions = [_fraction(t_own, t_opp, to) for to in tree_to]
            amounts = [
                self.cap if to >= self.cap else pot_fraction_to(own, opp, f)
                for to, f in zip(tree_to, fractions, strict=True)
            ]
        else:
            fractions = [1.0] if self.action_set == "fcpa" else list(FRACTIONS_56)
            amounts = [pot_fraction_to(own, opp, f) for f in fractions] + [self.cap]
        least = opp + max(real.last_increment, 1.0) if opp > own else own + 1.0
        return sorted({min(max(a, least), self.cap) for a in amounts})

    def bot_amount(self, node: Node, actor: int, real: RealState, action: int) -> float:
        """The bot's new total for its tree bet ``action`` at ``node``, carried to the real pot."""
        t_own, t_opp = node.contributions[actor], node.contributions[1 - actor]
        tree_to = t_own + node.amounts[action]
        own, opp = real.put[actor], real.put[1 - actor]
        if not self.no_limit or (own == t_own and opp == t_opp):
            return min(tree_to, self.cap)
        if tree_to >= self.cap:
            return self.cap
        least = opp + max(real.last_increment, 1.0) if opp > own else own + 1.0
        to = pot_fraction_to(own, opp, _fraction(t_own, t_opp, tree_to))
        return min(max(to, least), self.cap)


MAX_MAPPINGS = 200_000
"""Translations kept per game (a few hundred bytes each) before the memo starts again."""


def tree_mapping(
    game: TreeGame, node: Node, actor: int, real: RealState, to: float
) -> tuple[list[tuple[int, float]], float]:
    """The tree actions (indices at ``node``) the bot takes LBR's bet to the new total ``to`` in
    the real pot for, with their probabilities, by the house translation; and the share of its
    folds it turns into calls (a bet below the tree's smallest size, ``off_tree.py``).

    Kept per game: exact LBR asks the same node the same sizes once per hand it holds (56
    sizes at every decision), and the translation is the same each time."""
    put = (float(real.put[0]), float(real.put[1]))
    known: dict[tuple, tuple[list[tuple[int, float]], float]] = game.derived.get(
        "lbr_tree_mapping", None, dict
    )
    key = (node.id, actor, put, float(to))
    if key not in known:
        if len(known) >= MAX_MAPPINGS:
            known.clear()
        bet = translate_bet(game, node, to - put[actor], put)
        known[key] = ([(m.action, m.probability) for m in bet.mapped], bet.fold_to_call)
    mapping, fold_to_call = known[key]
    return list(mapping), fold_to_call


def fold_matrix(strategy_rows: list[np.ndarray], fold_index: list[int | None]) -> np.ndarray:
    """``[children, hands]``: each child node's fold probability per hand (0 if it cannot fold)."""
    n = strategy_rows[0].shape[0]
    out = np.zeros((len(strategy_rows), n))
    for k, (rows, fold) in enumerate(zip(strategy_rows, fold_index, strict=True)):
        if fold is not None:
            out[k] = rows[:, fold]
    return out
