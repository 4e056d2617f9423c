"""The public action tree of a spot: bets and raises from the size lists, streets, chance cards.

Conventions: OOP (player 0) acts first on every street. Contributions start at half the pot
each, so payoffs are zero-sum and a player's share of the pot is ``pot / 2 + value``. Tokens are
``x`` (check), ``c`` (call), ``f`` (fold), ``b{N}`` (bet or raise to N chips on this street; all-in
is the same token at the stack) and dealt cards such as ``8d``. A betting round that ends before
the river with a call of an all-in becomes one ``showdown`` terminal on the short board, which
the evaluator averages over every remaining runout, and so does a round after which nobody can
bet on any street left (the later streets would only be checked through); otherwise the next
card is a chance node with one outcome per card left in the deck.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from solvers.cards.deck import COMBO_CARDS, card_str
from solvers.games.base import NodeKind, TreeBuilder
from solvers.games.holdem.bet_sizes import BetContext, action_amounts
from solvers.games.holdem.spot import STREETS, SpotParams, board_cards

_SHARED_FIELDS = ("contributions", "actions", "tokens", "amounts", "board")
"""Node fields whose equal values are stored once: tuples repeated across the tree."""


@dataclass(frozen=True)
class BettingState:
    board: tuple[int, ...]
    contributions: tuple[float, float]
    street_start: float
    actor: int
    raises: int = 0
    last_increment: float = 0.0
    oop_called_last_street: bool = False

    @property
    def street(self) -> str:
        return STREETS[len(self.board) - 3]


class TreeShapeError(ValueError):
    """Raised when the tree would exceed the node budget (reported as a GameParamError)."""


def _fmt(amount: float) -> str:
    return f"{amount:g}"


class SpotTreeBuilder:
    """Builds the nodes of one spot, depth first; ``hand_combos[p]`` are each player's combos."""

    def __init__(
        self,
        params: SpotParams,
        hand_combos: tuple[np.ndarray, np.ndarray],
        max_nodes: int = 2_000_000,
    ) -> None:
        self.params = params
        self.hand_combos = hand_combos
        self.cap = params.pot / 2 + params.stack
        self.tree = TreeBuilder()
        self.max_nodes = max_nodes
        self._cards_of = [COMBO_CARDS[c].astype(np.intp) for c in hand_combos]
        self._mask_cache: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
        self._shared: dict[tuple[tuple, tuple], tuple] = {}

    def build(self, start: BettingState | None = None):
        """The tree from the street's start, or from ``start`` (a re-solve facing a bet made
        off the tree, ``solvers/agents/turn_resolve.py``)."""
        if start is None:
            board = tuple(board_cards(self.params))
            half = self.params.pot / 2
            start = BettingState(board=board, contributions=(half, half), street_start=half,
                                 actor=0)  # fmt: skip
        self._decision(-1, "", start)
        return self.tree.finish()

    # --- nodes ----------------------------------------------------------------------------
    def _add(self, parent: int, token: str, kind: NodeKind, **fields) -> int:
        if len(self.tree.nodes) >= self.max_nodes:
            raise TreeShapeError(f"the tree has more than {self.max_nodes:,} nodes")
        for name in _SHARED_FIELDS:  # equal tuples are one object (a flop has 136,000 nodes)
            value = fields.get(name)
            if value is not None:  # keyed by the types too: (50, 50) is not (50.0, 50.0)
                fields[name] = self._shared.setdefault((value, tuple(map(type, value))), value)
        return self.tree.add(parent, token, kind, **fields)

    def _sizes(self, state: BettingState, facing: bool) -> list[float]:
        p = self.params
        own, opp = state.contributions[state.actor], state.contributions[1 - state.actor]
        sizes_on = p.sizes_on(state.street)
        if facing:
            cap = sizes_on.raise_cap
            if cap is not None and state.raises >= cap:
                return []
            sizes = sizes_on.raises(state.actor)
        elif state.actor == 0 and state.oop_called_last_street:
            sizes = sizes_on.lead
        else:
            sizes = sizes_on.bets(state.actor)
        ctx = BetContext(
            own=own,
            opp=opp,
            street_start=state.street_start,
            cap=self.cap,
            last_increment=state.last_increment,
            streets_left=5 - len(state.board) + 1,
        )
        return action_amounts(
            sizes,
            ctx,
            add_allin=p.add_allin_threshold,
            force_allin=p.force_allin_threshold,
            merging=p.merging_threshold,
        )

    def _decision(self, parent: int, token: str, state: BettingState) -> None:
        actor = state.actor
        own, opp = state.contributions[actor], state.contributions[1 - actor]
        facing = opp > own
        amounts = self._sizes(state, facing)
        labels, tokens, adds = [], [], []
        if facing:
            labels += ["fold", "call"]
            tokens += ["f", "c"]
            adds += [0.0, opp - own]
        else:
            labels.append("check")
            tokens.append("x")
            adds.append(0.0)
        for amount in amounts:
            on_street = amount - state.street_start
            if amount >= self.cap:
                labels.append(f"all-in {_fmt(on_street)}")
            elif facing:
                labels.append(f"raise to {_fmt(on_street)}")
            else:
                labels.append(f"bet {_fmt(on_street)}")
            tokens.append(f"b{_fmt(on_street)}")
            adds.append(amount - own)
        node = self._add(
            parent,
            token,
            NodeKind.DECISION,
            contributions=state.contributions,
            player=actor,
            actions=tuple(labels),
            tokens=tuple(tokens),
            amounts=tuple(adds),
            board=state.board,
        )
        for child_token, add in zip(tokens, adds, strict=True):
            if child_token == "f":
                self._add(
                    node,
                    "f",
                    NodeKind.TERMINAL,
                    contributions=state.contributions,
                    terminal="fold",
                    folder=actor,
                    board=state.board,
                )
            elif child_token == "c":
                called = (opp, opp)
                self._round_over(node, "c", replace(state, contributions=called), actor == 0)
            elif child_token == "x":
                if actor == 1:
                    self._round_over(node, "x", state, False)
                else:
                    self._decision(node, "x", replace(state, actor=1))
            else:
                new = list(state.contributions)
                new[actor] = own + add
                increment = new[actor] - opp
                self._decision(
                    node,
                    child_token,
                    replace(
                        state,
                        contributions=(new[0], new[1]),
                        actor=1 - actor,
                        raises=state.raises + (1 if facing else 0),
                        last_increment=max(increment, state.last_increment),
                    ),
                )

    def _checked_down(self, state: BettingState, oop_called: bool) -> bool:
        """Whether nobody can bet on any street left: each would be checked through, so the
        hand ends in one showdown over every runout (as after a call of an all-in) instead of
        chance nodes over check-only decisions (the re-solve's checked-down flop: 21,630 nodes
        become 21)."""
        put = state.contributions
        for dealt in range(1, 6 - len(state.board)):
            later = (*state.board, *([-1] * dealt))  # a later street: only its length is read
            for actor in (0, 1):
                probe = BettingState(later, put, put[0], actor,
                                     oop_called_last_street=oop_called and dealt == 1)  # fmt: skip
                if self._sizes(probe, facing=False):
                    return False
        return True

    def _deal_masks(self, board: tuple[int, ...], deck: list[int]):
        """Per player ``[len(deck), n_hands]``: 0 where the dealt card is in the hand (shared).
        uint8 (exact 0/1 weights in any product): a flop's 303 masks take 5 MB, not 43."""
        cached = self._mask_cache.get(board)
        if cached is None:
            dealt = np.array(deck)[:, None]
            cached = tuple(
                ((cards[None, :, 0] != dealt) & (cards[None, :, 1] != dealt)).astype(np.uint8)
                for cards in self._cards_of
            )
            self._mask_cache[board] = cached
        return cached

    def _round_over(self, parent: int, token: str, state: BettingState, oop_called: bool) -> None:
        """After a call or check-check: showdown, all-in runout, or the next card."""
        put = state.contributions
        all_in = put[0] >= self.cap
        if len(state.board) == 5 or all_in or self._checked_down(state, oop_called):
            self._add(
                parent,
                token,
                NodeKind.TERMINAL,
                contributions=put,
                terminal="showdown",
                board=state.board,
            )
            return
        deck = [c for c in range(52) if c not in state.board]
        masks = self._deal_masks(state.board, deck)
        chance = self._add(
            parent,
            token,
            NodeKind.CHANCE,
            contributions=put,
            actions=tuple(card_str(c) for c in deck),
            tokens=tuple(card_str(c) for c in deck),
            outcome_probs=np.full(len(deck), 1.0 / (len(deck) - 4)),
            outcome_masks=masks,
            board=state.board,
        )
        for card in deck:
            next_state = BettingState(
                board=(*state.board, card),
                contributions=put,
                street_start=put[0],
                actor=0,
                oop_called_last_street=oop_called,
            )
            self._decision(chance, card_str(card), next_state)
