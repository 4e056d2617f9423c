"""Off-tree bets at the tree level: which tree action a bot answers as, and real chip amounts.

A solved tree has a few bet sizes per node; a person may bet any amount. Sizes are compared as
fractions of the pot: a bet or raise that adds ``amount`` chips while facing ``to_call`` is
``(amount - to_call) / (pot + to_call)``, the raise part over the pot after calling (so a pot-size
bet is 1 and the clairvoyance caller's frequency is ``1 / (1 + fraction)``). An off-tree amount
is mapped by the pseudo-harmonic rule (``solvers.games.translation``) onto the two nearest tree
sizes with probabilities; an all-in maps to the tree's all-in when it has one.

A bet below the tree's smallest size ``B`` lies between it and a check or call (``A = 0``). The
bot answers as ``B``, except that a hand that would fold calls instead with the pseudo-harmonic
odds of ``A = 0`` against ``B``, ``(B - x) / (B (1 + x))`` (``fold_to_call``): a caller who calls
``B`` with the clairvoyance frequency ``1 / (1 + B)`` then calls ``x`` with ``1 / (1 + x)``.
Mapped up to ``B`` alone, a min-bet would be folded to as often as ``B`` and won a third of the
pot or more from every shipped spot (local best response, ``docs/lbr.md``).

Once the hand is off the tree, the real pot and stacks follow the real amounts and the tree node
only says how the bot plays: ``real_amount`` turns a tree action into chips in the real hand by
keeping its pot fraction (a call calls the real bet, an all-in stays all-in). The functions work
on any ``TreeGame`` node (the river toy game as well as hold'em spots).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.errors import InputError
from solvers.games.base import Node, TreeGame
from solvers.games.holdem.spot import SpotParams
from solvers.games.translation import fold_to_call, move_folds, translate

PASSIVE = ("fold", "check", "call")


@dataclass(frozen=True)
class MappedAction:
    """One tree action an off-tree bet is answered as."""

    action: int
    """Index into the node's actions."""
    label: str
    child: int
    """Node id the bot then answers at."""
    child_key: str
    fraction: float
    """The tree size as a fraction of the pot (see the module docstring)."""
    probability: float


@dataclass(frozen=True)
class OffTreeBet:
    node_key: str
    amount: float
    """Chips the bettor adds (a raise includes the call)."""
    fraction: float
    """The real bet as a fraction of the pot."""
    mapped: tuple[MappedAction, ...]
    """One or two tree actions whose probabilities sum to one."""
    fold_to_call: float = 0.0
    """For a bet below the tree's smallest size: the probability that the bot, answering as
    that size, calls where it would fold (see the module docstring); 0 otherwise."""

    @property
    def on_tree(self) -> bool:
        return len(self.mapped) == 1 and abs(self.mapped[0].fraction - self.fraction) < 1e-9

    def as_dict(self) -> dict:
        return {
            "node": self.node_key,
            "amount": self.amount,
            "fraction": self.fraction,
            "on_tree": self.on_tree,
            "fold_to_call": self.fold_to_call,
            "mapped": [
                {
                    "action": m.label,
                    "node": m.child_key,
                    "fraction": m.fraction,
                    "probability": m.probability,
                }
                for m in self.mapped
            ],
        }


def stack_cap(game: TreeGame) -> float | None:
    """The most a player can have put in (a spot's half pot plus the stack); None when the game
    has no stacks (the river toy game)."""
    params = game.params
    if isinstance(params, SpotParams):
        return float(params.pot / 2 + params.stack)
    return None


def facing(node: Node, contributions: tuple[float, float] | None = None) -> tuple[float, float]:
    """``(pot, to_call)`` for the node's actor, from real contributions if given."""
    put = node.contributions if contributions is None else contributions
    actor = node.player
    return float(put[0] + put[1]), float(max(put[1 - actor] - put[actor], 0.0))


def bet_fraction(pot: float, to_call: float, amount: float) -> float:
    """A bet or raise adding ``amount`` chips, as a fraction of the pot after calling."""
    return (amount - to_call) / (pot + to_call)


def is_all_in(label: str) -> bool:
    return label.startswith("all-in")


def tree_sizes(node: Node) -> list[tuple[int, float]]:
    """``(action index, pot fraction)`` of the node's bets and raises, smallest first."""
    if not node.is_decision:
        raise InputError(f"node {node.key!r} is not a decision")
    pot, to_call = facing(node)
    sizes = [
        (index, bet_fraction(pot, to_call, float(amount)))
        for index, (label, amount) in enumerate(zip(node.actions, node.amounts, strict=True))
        if label not in PASSIVE and float(amount) > to_call
    ]
    return sorted(sizes, key=lambda pair: pair[1])


def _mapped(game: TreeGame, node: Node, index: int, fraction: float, p: float) -> MappedAction:
    child = game.nodes[node.children[index]]
    return MappedAction(index, node.actions[index], child.id, child.key, fraction, p)


def translate_bet(
    game: TreeGame,
    node: Node | str,
    amount: float,
    contributions: tuple[float, float] | None = None,
) -> OffTreeBet:
    """Map a bet or raise of ``amount`` chips at ``node`` onto the tree's sizes.

    ``contributions`` are the real chips in when the hand is already off the tree (default:
    the node's own). A real all-in goes to the tree's all-in when the tree has one.
    """
    node = game.node(node)
    sizes = tree_sizes(node)
    if not sizes:
        raise InputError(f"there is no bet or raise at node {node.key!r} to translate to")
    pot, to_call = facing(node, contributions)
    if not amount > to_call:
        raise InputError(
            f"a bet or raise at {node.key!r} must add more than the {to_call:g} to call, "
            f"not {amount:g}"
        )
    cap = stack_cap(game)
    put = node.contributions if contributions is None else contributions
    fraction = bet_fraction(pot, to_call, amount)
    if cap is not None:
        room = cap - float(put[node.player])
        if amount > room + 1e-9:
            raise InputError(f"a bet of {amount:g} is more than the {room:g} chips behind")
        allin = [(i, f) for i, f in sizes if is_all_in(node.actions[i])]
        if allin and amount >= room - 1e-9:
            index, tree_fraction = allin[0]
            return OffTreeBet(
                node.key, amount, fraction, (_mapped(game, node, index, tree_fraction, 1.0),)
            )
    fractions = [f for _, f in sizes]
    where = translate(fractions, fraction)
    lower = _mapped(game, node, sizes[where.lower][0], fractions[where.lower], 1.0)
    if fraction < fractions[0]:  # between a check or call (A = 0) and the smallest size
        keep = fold_to_call(fractions[0], fraction)
        return OffTreeBet(node.key, amount, fraction, (lower,), fold_to_call=keep)
    if where.lower == where.upper:
        return OffTreeBet(node.key, amount, fraction, (lower,))
    p = where.lower_probability
    upper = _mapped(game, node, sizes[where.upper][0], fractions[where.upper], 1.0 - p)
    lower = _mapped(game, node, sizes[where.lower][0], fractions[where.lower], p)
    return OffTreeBet(node.key, amount, fraction, (lower, upper))


def answer_rows(rows: np.ndarray, node: Node, share: float) -> np.ndarray:
    """The bot's ``[hands, actions]`` answer at ``node`` after an off-tree bet: its strategy
    ``rows`` with ``share`` (``OffTreeBet.fold_to_call``) of each hand's fold moved to call."""
    if "fold" not in node.actions or "call" not in node.actions:
        return rows
    return move_folds(rows, node.actions.index("fold"), node.actions.index("call"), share)


def real_amount(
    game: TreeGame, node: Node, action: int, contributions: tuple[float, float]
) -> float:
    """Chips the actor adds in the real hand for the tree action ``action`` at ``node``.

    Check and fold add nothing, a call matches the real bet, an all-in puts the real stack in,
    and a bet or raise keeps its tree pot fraction of the real pot (whole chips in hold'em).
    """
    label = node.actions[action]
    pot, to_call = facing(node, contributions)
    if label in ("fold", "check"):
        return 0.0
    cap = stack_cap(game)
    room = None if cap is None else cap - float(contributions[node.player])
    if label == "call":
        return to_call if room is None else min(to_call, room)
    if is_all_in(label) and room is not None:
        return room
    tree_pot, tree_call = facing(node)
    fraction = bet_fraction(tree_pot, tree_call, float(node.amounts[action]))
    amount = to_call + fraction * (pot + to_call)
    if room is not None:  # a stack cap: whole chips, at most what is behind
        amount = float(round(amount))
        amount = min(max(amount, to_call + 1.0), room)
    return amount
