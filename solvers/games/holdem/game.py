"""``nlhe``: a no-limit hold'em postflop subgame as a ``TreeGame`` over the live combos.

Hands are the combos of each range that the board does not block, weighted by the range; the
joint prior is ``w0(h) * w1(h') / Z`` where the hands share no card (zero elsewhere), so values
are chips per deal. Terminal values come from compiled card-removal and sorted-showdown loops
(``terminal_kernels.py``, no dense ``n x n`` per terminal); ``terminal_matrix`` still gives the
dense matrix for small spots (the exact LP).
"""

from __future__ import annotations

import functools
import hashlib
from itertools import combinations
from math import comb

import numpy as np

from solvers.cards.deck import COMBO_LABELS, combos_conflict, dead_mask
from solvers.cards.evaluator import N_STRENGTHS
from solvers.games.base import GameParamError, Node, TreeGame
from solvers.games.combo_terminals import ComboHands, ComboTerminals, terminal_tables
from solvers.games.holdem import runout_cache
from solvers.games.holdem.memory import DENSE_RUNOUTS, SolveSize, check_memory, trim_heap
from solvers.games.holdem.showdown import BoardStrengths
from solvers.games.holdem.spot import (
    SpotParams,
    board_cards,
    load_spot_params,
    range_weights,
    spot_spec,
)
from solvers.games.holdem.symmetry import SuitSwap, find_suit_swap
from solvers.games.holdem.tree import BettingState, SpotTreeBuilder, TreeShapeError
from solvers.games.spec import FILE_LOADERS, register_game


def live_hands(params: SpotParams, player: int) -> tuple[np.ndarray, np.ndarray]:
    """Combo ids with positive weight that the board leaves, and their weights."""
    weights = range_weights(params, player) * ~dead_mask(board_cards(params))
    combos = np.flatnonzero(weights > 0)
    return combos, weights[combos]


def _hands(strength: np.ndarray, picked: np.ndarray) -> np.ndarray:
    """The columns ``picked`` of a ``[boards, hands]`` strength table: the table itself when
    they are all of them in order (no copy of a flop's 5 MB), else a contiguous copy."""
    if len(picked) == strength.shape[1] and (picked == np.arange(len(picked))).all():
        return strength
    return np.ascontiguousarray(strength[:, picked])


@register_game
class HoldemGame(TreeGame):
    name = "nlhe"
    params_model = SpotParams
    description = "no-limit hold'em postflop spot: board, pot, stack, ranges, bet sizes"

    @classmethod
    def from_params(cls, params: SpotParams, start: BettingState | None = None) -> HoldemGame:
        """The spot of ``params``; with ``start``, its tree begins there (mid-street: the
        contributions, actor and raises of a re-solve facing a bet) instead of at the street's
        start with half the pot from each player."""
        hands = (live_hands(params, 0), live_hands(params, 1))
        combos = (hands[0][0], hands[1][0])
        shares = combos_conflict(combos[0][:, None], combos[1][None, :])
        prior = hands[0][1][:, None] * hands[1][1][None, :] * ~shares
        total = prior.sum()
        if not total > 0:
            raise GameParamError("nlhe: every pair of hands shares a card; the ranges cannot meet")
        try:
            nodes = SpotTreeBuilder(params, combos).build(start)
        except TreeShapeError as exc:
            raise GameParamError(f"nlhe: {exc}; use fewer bet sizes") from None
        swap = find_suit_swap(board_cards(params), combos, (hands[0][1], hands[1][1]))
        size = check_memory(nodes, max(len(c) for c in combos), swap)
        labels = (
            tuple(COMBO_LABELS[c] for c in combos[0]),
            tuple(COMBO_LABELS[c] for c in combos[1]),
        )
        game = cls(params, labels, prior / total, nodes, big_blind=1.0)
        game.hand_combos = combos
        game.range_weights = (hands[0][1], hands[1][1])
        game.normaliser = float(total)
        game.solve_size = size
        game.memory_estimate_mb = size.bytes() / 2**20
        game._suit_swap = swap
        game.strengths  # noqa: B018 - hand strengths per board belong to building the spot
        return game

    solver_restart = 4
    """DCFR starts its average again at the powers of 4 here (``CFRConfig.restart``), as
    postflop-solver does, unless it samples chance (``sample``: each card's iterates are noisy).
    The benchmark turn reaches 0.3% of the pot after about 113 iterations instead of 127
    (``docs/holdem.md``); the re-solving bot's turn solves stop at 1% after 63 on average
    instead of 73, its rivers after 123 instead of 127 (16 solves each, ``docs/resolve.md``).
    Node re-solves (the gadget's compiled loop) keep their average whole: over 90 off-tree turn
    actions a restart changed neither when they stop nor what the action wins."""
    solver_precision = "float32"
    """Full-width CFR stores regrets and sums in float32 here: 1e-7 relative rounding is far
    below the 0.1%-of-the-pot targets (``tests/test_holdem_solve.py`` compares with float64)."""
    params: SpotParams
    hand_combos: tuple[np.ndarray, np.ndarray]
    range_weights: tuple[np.ndarray, np.ndarray]
    normaliser: float
    memory_estimate_mb: float
    """Estimated memory of a solve plus exact evaluation at the default precision
    (``memory.py``); ``solve_size.bytes(precision)`` at another."""
    solve_size: SolveSize
    _suit_swap: SuitSwap | None

    def release_build_tables(self) -> None:
        """Let go of the hand strengths per board once the terminal tables are built from them
        (36 MB on the benchmark flop): a solve's walk and its file do not read them, and
        ``strengths`` builds them again for a reader that does."""
        self.combo_terminals()
        self.__dict__.pop("strengths", None)

    def spec_string(self) -> str:
        """``nlhe(...)`` with the board, pot, stack, ranges and the fields that differ from their
        defaults."""
        return spot_spec(self.params)

    @property
    def pot(self) -> float:
        return float(self.params.pot)

    # --- terminal layout ------------------------------------------------------------------
    @functools.cached_property
    def _layout(self):
        """Fold rows and payoffs; showdown jobs ``(terminal row, board id, weight * put)``."""
        fold_rows, fold_pay = [], []
        job_rows, job_boards, job_scale = [], [], []
        boards: dict[tuple[int, ...], int] = {}
        for row, tid in enumerate(self.terminal_ids):
            node = self.nodes[int(tid)]
            put0, put1 = node.contributions
            if node.terminal == "fold":
                fold_rows.append(row)
                pay0 = -put0 if node.folder == 0 else put1
                fold_pay.append(pay0)
                continue
            if put0 != put1:
                raise AssertionError(f"showdown {node.key!r} with unequal contributions")
            board = tuple(node.board)
            left = [c for c in range(52) if c not in board]
            to_deal = 5 - len(board)
            weight = 1.0 / comb(len(left) - 4, to_deal)
            for extra in combinations(left, to_deal):
                full = tuple(sorted((*board, *extra)))
                job_rows.append(row)
                job_boards.append(boards.setdefault(full, len(boards)))
                job_scale.append(weight * put0)
        board_array = np.array(list(boards), dtype=np.intp).reshape(-1, 5)
        by_board = np.argsort(np.array(job_boards, dtype=np.intp), kind="stable")
        job_rows = list(np.array(job_rows, dtype=np.intp)[by_board])
        job_boards = list(np.array(job_boards, dtype=np.intp)[by_board])
        job_scale = list(np.array(job_scale)[by_board])
        return (
            np.array(fold_rows, dtype=np.intp),
            np.array(fold_pay),
            np.array(job_rows, dtype=np.intp),
            np.array(job_boards, dtype=np.intp),
            np.array(job_scale),
            board_array,
        )

    @functools.cached_property
    def strengths(self) -> BoardStrengths:
        """Hand strengths on every board a showdown can end on (``showdown.py``)."""
        boards = self._layout[5]
        return BoardStrengths(self.hand_combos, self.range_weights, boards)

    def terminal_values_batch(self, player: int, opp_reach: np.ndarray) -> np.ndarray:
        """Every terminal's values at once on the compiled terminal loops
        (``terminal_kernels.py``, the compiled walk's own); float32 reaches give float32
        values (sums accumulate in float64)."""
        return self.terminal_values_of(player, np.arange(len(opp_reach)), opp_reach)

    def terminal_values_of(
        self, player: int, terminals: np.ndarray, opp_reach: np.ndarray
    ) -> np.ndarray:
        """``terminal_values_batch`` of some terminals only (indices in ``terminal_ids``
        order, ``opp_reach`` one row each): a node report values the terminals below one
        decision, not the tree's."""
        from solvers.games.holdem import terminal_kernels  # noqa: PLC0415 - numba on use

        tables = self._combo_terminals  # the property, so a subclass without the compiled walk
        out = np.empty((len(opp_reach), self.n_hands[player]))  # keeps its terminal values
        terminal_kernels.terminal_values(
            np.ascontiguousarray(terminals, dtype=np.int64),
            np.ascontiguousarray(opp_reach, dtype=np.float64),
            out,
            terminal_tables(tables, player),
            tables.hands[player],
            tables.hands[1 - player],
        )
        return out.astype(np.float32) if opp_reach.dtype == np.float32 else out

    def release(self) -> None:
        """Drop what walks and terminal values are built from (the compiled walks, the
        showdown tables and the hand strengths: about 50 MB on a flop re-solve); each is built
        again, the same, on its next use (a fifth of a second on a flop). The nodes, the prior
        and the terminal layout stay. A solved flop kept for its strategy holds no more. The
        freed pages go back to the system at once (``trim_heap``): a flop that sees the turn
        frees 200 MB, which the C heap would otherwise keep until the next hand."""
        held = len(self.derived) or self._terminal_cache or any(
            name in self.__dict__ for name in ("strengths", "_combo_terminals"))  # fmt: skip
        self.derived.clear()
        for name in ("strengths", "_combo_terminals"):
            self.__dict__.pop(name, None)
        self._terminal_cache.clear()
        if held:  # a game released again (each later street's solve asks) frees nothing
            trim_heap()

    def suit_swap(self) -> SuitSwap | None:
        """Two suits the board and both ranges cannot tell apart (``symmetry.py``), or None."""
        return self._suit_swap

    def combo_terminals(self) -> ComboTerminals:
        """The terminal tables of the compiled walk (``solvers/exact/compiled_walk.py``)."""
        return self._combo_terminals

    @functools.cached_property
    def _combo_terminals(self) -> ComboTerminals:
        fold_rows, fold_pay, job_rows, job_boards, job_scale, _ = self._layout
        ev = self.strengths
        n_terminals = len(self.terminal_ids)
        is_fold = np.zeros(n_terminals, dtype=np.bool_)
        is_fold[fold_rows] = True
        pay = np.zeros(n_terminals)
        pay[fold_rows] = fold_pay
        by_terminal = np.argsort(job_rows, kind="stable")
        job_ptr = np.zeros(n_terminals + 1, dtype=np.int64)
        np.cumsum(np.bincount(job_rows, minlength=n_terminals), out=job_ptr[1:])
        from solvers.games.holdem import terminal_kernels  # noqa: PLC0415 - numba on use

        hands = []
        for x in (0, 1):
            strength = ev.strength[x]  # [boards, hands], -1 where the board blocks the hand
            n_boards, n_hands = strength.shape
            order = np.empty((n_boards, n_hands), dtype=np.int32)
            sorted_strength = np.empty((n_boards, n_hands), dtype=np.int32)
            sorted_cards = np.empty((n_boards, n_hands, 2), dtype=np.int8)
            n_live = np.empty(n_boards, dtype=np.int64)
            if strength.size:
                terminal_kernels.sorted_tables(
                    strength, ev.cards[x].astype(np.int64), N_STRENGTHS, order, sorted_strength,
                    sorted_cards, n_live,
                )  # fmt: skip
            same = ev.same[x]
            hands.append(
                ComboHands(
                    cards=ev.cards[x].astype(np.int64),
                    same=np.where(same < self.n_hands[1 - x], same, -1).astype(np.int64),
                    weights=ev.hand_weights[x],
                    sorted_hands=order,
                    sorted_strength=sorted_strength,
                    sorted_cards=sorted_cards,
                    n_live=n_live,
                )
            )
        job_board = job_boards[by_terminal].astype(np.int64)
        job_scale = job_scale[by_terminal].astype(np.float64)
        dense_of, dense_scale, dense = self._dense_runouts(job_ptr, job_board, job_scale)
        return ComboTerminals(
            is_fold=is_fold,
            fold_pay0=pay,
            job_ptr=job_ptr,
            job_board=job_board,
            job_scale=job_scale,
            normaliser=self.normaliser,
            hands=(hands[0], hands[1]),
            dense_of=dense_of,
            dense_scale=dense_scale,
            dense=dense,
        )

    def _dense_runouts(self, job_ptr, job_board, job_scale):
        """Showdowns over at least ``DENSE_RUNOUTS`` runouts (a flop's called all-ins and
        checked-down lines) as one ``[n0, n1]`` matrix of summed signs per board, shared by the
        terminals on it: a product of about n0 x n1 where the sweep takes runouts x (n0 + n1)
        steps, each several times dearer (``terminal_kernels.runout_signs``)."""
        from solvers.games.holdem import terminal_kernels  # noqa: PLC0415 - numba on use

        n_terminals = len(job_ptr) - 1
        dense_of = np.full(n_terminals, -1, dtype=np.int64)
        dense_scale = np.zeros(n_terminals)
        groups: dict[bytes, int] = {}
        first_of: list[int] = []
        counts = np.diff(job_ptr)
        for t in np.flatnonzero(counts >= DENSE_RUNOUTS):
            jobs = slice(job_ptr[t], job_ptr[t + 1])
            scales = job_scale[jobs]
            if not (scales == scales[0]).all():
                continue
            key = job_board[jobs].tobytes()
            dense_of[t] = groups.setdefault(key, len(groups))
            if dense_of[t] == len(first_of):
                first_of.append(int(t))
            dense_scale[t] = scales[0]
        ev = self.strengths
        n0, n1 = self.n_hands
        signs = np.zeros((len(first_of), n0, n1), dtype=np.float32)
        boards = self._layout[5]
        strengths = functools.cache(self._runout_strengths)  # on a kept matrix's miss, once
        for g, t in enumerate(first_of):
            runouts = job_board[job_ptr[t] : job_ptr[t + 1]]
            dealt = len(self.nodes[int(self.terminal_ids[t])].board)
            left, k = 52 - dealt, 5 - dealt  # every k-card runout of the cards left is a job
            dead_boards = comb(left - 2, k) - comb(left - 4, k)  # block o, leave h

            def build(out, rows, cols, runouts=runouts, dead_boards=dead_boards):
                own, opp = strengths()
                terminal_kernels.runout_signs_on_all_threads(
                    runouts, _hands(own, rows), _hands(opp, cols), ev.cards[0][rows],
                    ev.cards[1][cols], dead_boards, out,
                )  # fmt: skip

            key = hashlib.blake2b(boards[runouts].tobytes(), digest_size=16).digest()
            signs[g] = runout_cache.signs(key, self.hand_combos, build)
        flipped = np.ascontiguousarray(-np.transpose(signs, (0, 2, 1)))
        return dense_of, dense_scale, (signs, flipped)

    def _runout_strengths(self) -> tuple[np.ndarray, np.ndarray]:
        """Both players' strengths on every board as the runout kernel reads them (int32, row
        by board), the opponent's blocked hands above every live strength: a loss, added back."""
        strength = self.strengths.strength
        blocked = np.iinfo(np.int32).max
        opp = np.where(strength[1] < 0, blocked, strength[1]).astype(np.int32)
        return strength[0].astype(np.int32), opp

    def terminal_matrix(self, node: int | str | Node) -> np.ndarray:
        """Dense ``[n0, n1]`` payoff times prior, from the batch code (for small spots only)."""
        node = self.node(node)
        cached = self._terminal_cache.get(node.id)
        if cached is not None:
            return cached
        row = int(np.flatnonzero(self.terminal_ids == node.id)[0])
        n1 = self.n_hands[1]
        reach = np.zeros((len(self.terminal_ids), n1))
        matrix = np.zeros(self.n_hands)
        for h1 in range(n1):  # one unit opponent reach per column; small spots only
            reach[row] = 0.0
            reach[row, h1] = 1.0
            matrix[:, h1] = self.terminal_values_batch(0, reach)[row]
        self._terminal_cache[node.id] = matrix
        return matrix


FILE_LOADERS[".toml"] = lambda path: ("nlhe", load_spot_params(path))
