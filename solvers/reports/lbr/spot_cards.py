"""The cards side of LBR: deals, and LBR's exact equity against every hand of the bot at once.

Two kinds of hold'em games are evaluated:

- **class games** (push/fold): the hands are the 169 classes and a showdown pays its exact
  expectation over combo pairs and five-card boards (``solvers.cards.preflop_tables``). LBR's
  equity against bot class ``b`` is the table's ``win + tie / 2``, card removal being in the
  joint prior, so LBR's view is exactly the game's.
- **spots** (``nlhe``): the hands are combos. The equity of LBR's combo against every bot combo
  enumerates every remaining board card exactly: per completion of the board, one strength
  comparison over all bot combos, averaged over the completions that neither hand blocks.

A deal is one pair of hands drawn from the joint prior, and for a spot the rest of the board
drawn from the cards neither hand nor the board holds. Both are drawn for a whole chunk at once.
"""

from __future__ import annotations

from functools import cached_property
from itertools import combinations

import numpy as np

from solvers.cards.deck import COMBO_CARDS, card_str, parse_card
from solvers.cards.preflop_tables import ClassTable
from solvers.games.base import TreeGame, spot_hand_combos
from solvers.games.holdem.showdown import combo_strengths
from solvers.reports.lbr.names import STREETS

MAX_CACHED = 50_000
"""Equity vectors kept per process; flop spots see a new board on most deals."""


class LbrCards:
    """Deals and equities of one game; ``street(node)`` names a node's betting round."""

    def __init__(self, game: TreeGame) -> None:
        self.game = game
        self.is_spot = hasattr(game, "hand_combos")
        if not self.is_spot and not hasattr(game, "table"):
            raise TypeError("LBR needs a hold'em game: push/fold or an nlhe spot")
        self._class_table: ClassTable | None = getattr(game, "table", None)
        """Push/fold's class equity table (``None`` in a spot)."""
        self.board = tuple(game.root.board)
        self._equity_cache: dict[tuple, np.ndarray] = {}
        self._runout_cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    # --- streets --------------------------------------------------------------------------
    def street(self, board: tuple[int, ...]) -> str:
        return STREETS[len(board) - 2] if self.is_spot else "preflop"

    @cached_property
    def streets(self) -> tuple[str, ...]:
        """The betting rounds the game has."""
        if not self.is_spot:
            return ("preflop",)
        return STREETS[len(self.board) - 2 :]

    # --- hands ----------------------------------------------------------------------------
    def prior_row(self, seat: int, hand: int) -> np.ndarray:
        """The bot's prior weights given LBR's hand in ``seat`` (card removal included)."""
        prior = self.game.prior
        return (prior[hand] if seat == 0 else prior[:, hand]).copy()

    @cached_property
    def hand_combos(self) -> tuple[np.ndarray, np.ndarray]:
        """Each player's hands as combo ids (spots only)."""
        return spot_hand_combos(self.game)

    def hand_cards(self, seat: int, hand: int) -> tuple[int, int]:
        combo = self.hand_combos[seat][hand]
        return int(COMBO_CARDS[combo, 0]), int(COMBO_CARDS[combo, 1])

    def card_token(self, card: int) -> str:
        return card_str(card)

    def card_index(self, token: str) -> int:
        return parse_card(token)

    # --- equity ---------------------------------------------------------------------------
    def equity(self, seat: int, hand: int, board: tuple[int, ...]) -> np.ndarray:
        """LBR's share of the pot at showdown against each bot hand (0 where the hands clash)."""
        key = (seat, hand, board)
        cached = self._equity_cache.get(key)
        if cached is not None:
            return cached
        if self._class_table is not None and not self.is_spot:
            eq = self._class_table.equity[hand]
        else:
            eq = self._spot_equity(seat, hand, board)
        if len(self._equity_cache) >= MAX_CACHED:
            self._equity_cache.clear()
        self._equity_cache[key] = eq
        return eq

    def _runouts(self, board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Every completion of ``board`` to five cards and ``[completions, 1326]`` strengths."""
        cached = self._runout_cache.get(board)
        if cached is None:
            left = [c for c in range(52) if c not in board]
            completions = list(combinations(left, 5 - len(board)))
            extra = np.array(completions, dtype=np.intp).reshape(len(completions), -1)
            boards = np.concatenate([np.tile(board, (len(extra), 1)), extra], axis=1)
            cached = (extra, combo_strengths(boards.reshape(-1, 5)))
            self._runout_cache[board] = cached
        return cached

    def _spot_equity(self, seat: int, hand: int, board: tuple[int, ...]) -> np.ndarray:
        extra, strength = self._runouts(board)
        own = self.hand_combos[seat][hand]
        opp = self.hand_combos[1 - seat]
        cards = COMBO_CARDS[own]
        open_runouts = ~np.isin(extra, cards).any(axis=1)
        s_own = strength[open_runouts, own]
        s_opp = strength[open_runouts][:, opp]  # -1 where a runout card is in the bot's hand
        live = s_opp >= 0
        score = (s_own[:, None] > s_opp) + 0.5 * (s_own[:, None] == s_opp)
        count = live.sum(axis=0)
        eq = np.where(live, score, 0.0).sum(axis=0) / np.maximum(count, 1)
        return eq

    # --- deals ----------------------------------------------------------------------------
    def deal(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``n`` deals: seat 0's hands, seat 1's hands and ``[n, k]`` board cards still to come."""
        prior = self.game.prior
        flat = prior.ravel() / prior.sum()
        picks = rng.choice(flat.size, size=n, p=flat)
        h0, h1 = np.divmod(picks, prior.shape[1])
        k = 5 - len(self.board) if self.is_spot else 0
        if k == 0:
            return h0, h1, np.zeros((n, 0), dtype=np.intp)
        taken = np.zeros((n, 52), dtype=bool)
        taken[:, list(self.board)] = True
        for seat, hands in ((0, h0), (1, h1)):
            cards = COMBO_CARDS[self.hand_combos[seat][hands]]
            taken[np.arange(n)[:, None], cards] = True
        keys = rng.random((n, 52))
        keys[taken] = 2.0
        runout = np.argsort(keys, axis=1, kind="stable")[:, :k]
        return h0, h1, runout
