"""Hand strengths of a hold'em spot on each 5-card board, the tables its terminals are valued
from.

Terminal values (``terminal_kernels.py``, used by both executors) need, per player, each hand's
cards, range weight and the opponent's index of the same combo, and each hand's strength on
every board a showdown can end on (one board per river showdown; every runout of an all-in
before the river, each weighted ``1 / C(D, k)`` for ``k`` cards dealt from the ``D`` unseen
ones). The vectorised numpy sweep that used these tables before is the tests' oracle now
(``tests/showdown_oracle.py``).
"""

from __future__ import annotations

import numpy as np

from solvers.cards.board_strengths import board_strengths
from solvers.cards.deck import COMBO_CARDS, N_COMBOS


def combo_strengths(boards: np.ndarray) -> np.ndarray:
    """``[n_boards, 1326]`` hand strength on each 5-card board; -1 where a combo hits the board."""
    return board_strengths(boards, COMBO_CARDS)


class BoardStrengths:
    """Per player: the hands' combos, cards and weights, the opponent's index of the same combo
    (or ``n_q``), and ``strength[board, hand]`` (-1 where the board blocks the hand)."""

    def __init__(
        self,
        hand_combos: tuple[np.ndarray, np.ndarray],
        hand_weights: tuple[np.ndarray, np.ndarray],
        boards: np.ndarray,
    ) -> None:
        self.hand_combos = tuple(np.asarray(c, dtype=np.intp) for c in hand_combos)
        self.hand_weights = tuple(np.asarray(w, dtype=float) for w in hand_weights)
        self.boards = np.asarray(boards, dtype=np.intp).reshape(-1, 5)
        self.cards = tuple(COMBO_CARDS[c].astype(np.intp) for c in self.hand_combos)
        # each player's hands evaluated directly, row-major as the kernels read a board's row:
        # gathering the columns of a 1,326-combo table took a flop 20 to 70 ms a player
        self.strength = tuple(board_strengths(self.boards, cards) for cards in self.cards)
        self.same = tuple(self._identical(p) for p in (0, 1))

    def _identical(self, player: int) -> np.ndarray:
        """For each hand of ``player``, the opponent's index of the same combo (or ``n_q``)."""
        own, opp = self.hand_combos[player], self.hand_combos[1 - player]
        where = np.full(N_COMBOS, len(opp), dtype=np.intp)
        where[opp] = np.arange(len(opp))
        return where[own]

    def compatible_sums(self, player: int, reach: np.ndarray) -> np.ndarray:
        """For each hand of ``player``: the opponent's ``reach`` over the hands that share no
        card with it (inclusion-exclusion over the 52 cards, adding back the identical combo)."""
        opponent = 1 - player
        cards = self.cards[opponent]
        per_card = np.bincount(cards[:, 0], reach, 52) + np.bincount(cards[:, 1], reach, 52)
        own = self.cards[player]
        out = reach.sum() - per_card[own[:, 0]] - per_card[own[:, 1]]
        same = self.same[player]
        present = same < len(reach)
        out[present] += reach[same[present]]
        return out

