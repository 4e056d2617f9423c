"""Goykhman's self-play CFR for von Neumann and flop poker (seed 000, §4.1 and §7).

Goykhman, "On self-play computation of equilibrium in poker", applies CFR (Zinkevich et al. 2007)
one deal at a time. Each round samples the player's hand i and the dealer's hand j and, against
the current strategies ``V_P(i)`` (bet probability) and ``V_D(j)`` (call probability), computes
for that deal alone:

- the player's regrets: the value of betting and of checking minus the value of ``V_P(i)``;
- the dealer's regrets: the value of calling and of folding minus the value of ``V_D(j)``,
  weighted by ``V_P(i)``, the probability that the dealer faces the bet.

The regrets are added to the cumulative regrets of hand i and hand j, negative cumulative regrets
are replaced by zero (so the update is regret-matching+), the two current strategies are
recomputed by regret matching (0.5 when both regrets are 0), and *then* the new strategies are
added, unweighted, to the cumulative strategies. The output is the normalised cumulative
strategy. The options ``regret_floor`` and ``average_after_update`` switch the two paper-specific
choices off (plain regret matching; sum the strategy that was played).

Any game with this tree works: the player (P0) checks to a showdown or bets; the dealer (P1)
folds or calls. In flop poker the deal is a pair of classes drawn with the prior's weights (the
number of compatible combo pairs) and a showdown pays its exact expectation over flops.

The paper's full runs (10^10 rounds on 100 bins; its middle call masses 22.9, 15.3, 46.2 bins)::

    pokertui solve 'von_neumann(ante=1,bet=2,bins=100)' --algo paper-cfr \
        --iterations 10000000000 --seed 0 --out vn_1_2_paper_cfr.json

and likewise ``bet=4`` and ``ante=8,bet=1``; flop poker used 2*10^9 rounds for (1, 2) and
(1, 4) and 10^8 for (8, 1): ``pokertui solve 'flop_poker(ante=1,bet=2)' --algo paper-cfr
--iterations 2000000000 --out fp_1_2_paper_cfr.json``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvers.algorithms.base import Solver, SolverError
from solvers.algorithms.matching import regret_matching_pair
from solvers.algorithms.sampled_tree import RandomStream
from solvers.games.base import Strategy, TreeGame

DEAL_BLOCK = 1 << 15
"""Deals drawn at a time (one uniform each)."""


def _bet_call_shape(game: TreeGame) -> tuple[int, int, int, int, int, int]:
    """(root, check terminal, bet index, dealer node, fold terminal, call terminal) or an error."""
    root = game.root
    problem = SolverError(f"paper-cfr needs a bet/check then call/fold tree; {game.name} is not")
    if game.simultaneous or not root.is_decision or root.player != 0 or len(root.children) != 2:
        raise problem
    kids = [game.nodes[c] for c in root.children]
    if sum(k.is_terminal for k in kids) != 1:
        raise problem
    bet_index = 0 if kids[1].is_terminal else 1
    check, dealer = kids[1 - bet_index], kids[bet_index]
    if not dealer.is_decision or dealer.player != 1 or len(dealer.children) != 2:
        raise problem
    answers = [game.nodes[c] for c in dealer.children]
    folds = [a for a in answers if a.is_terminal and a.terminal == "fold"]
    calls = [a for a in answers if a.is_terminal and a.terminal == "showdown"]
    if len(folds) != 1 or len(calls) != 1:
        raise problem
    return root.id, check.id, bet_index, dealer.id, folds[0].id, calls[0].id


class PaperSelfPlayCFR(Solver):
    """Goykhman's per-deal self-play CFR; see the module docstring."""

    algorithm = "paper-cfr"
    chunk = 20_000

    def __init__(
        self,
        game: TreeGame,
        seed: int = 0,
        regret_floor: bool = True,
        average_after_update: bool = True,
        output: str = "average",
    ) -> None:
        super().__init__(game, output)
        if not isinstance(seed, int | np.integer) or seed < 0:
            raise SolverError(f"seed must be a non-negative integer, not {seed!r}")
        self.seed = int(seed)
        self.regret_floor = bool(regret_floor)
        self.average_after_update = bool(average_after_update)
        shape = _bet_call_shape(game)
        self.root_id, check_id, self.bet_index, self.dealer_id, fold_id, call_id = shape
        self.fold_index = game.nodes[self.dealer_id].children.index(fold_id)
        prior = game.prior
        possible = prior > 0
        safe_prior = np.where(possible, prior, 1.0)

        def payoff(node_id: int) -> list[list[float]]:
            return np.where(possible, game.terminal_matrix(node_id) / safe_prior, 0.0).tolist()

        self._check_payoff, self._fold_payoff, self._call_payoff = (
            payoff(check_id),
            payoff(fold_id),
            payoff(call_id),
        )
        self._deal_cumulative = np.cumsum(prior.reshape(-1))
        n_player, n_dealer = game.n_hands
        # The paper's vectors, one entry per hand: cumulative regrets R, current strategies V and
        # cumulative strategies S, kept as flat Python lists for a tight scalar loop.
        self.regret_bet = [0.0] * n_player
        self.regret_check = [0.0] * n_player
        self.regret_call = [0.0] * n_dealer
        self.regret_fold = [0.0] * n_dealer
        self.bet_probability = [0.5] * n_player
        self.call_probability = [0.5] * n_dealer
        self.sum_bet = [0.0] * n_player
        self.sum_check = [0.0] * n_player
        self.sum_call = [0.0] * n_dealer
        self.sum_fold = [0.0] * n_dealer
        self.stream = RandomStream(self.seed, block=DEAL_BLOCK)
        self._deals_from_stream()

    def settings(self) -> dict[str, Any]:
        return {
            **super().settings(),
            "seed": self.seed,
            "regret_floor": self.regret_floor,
            "average_after_update": self.average_after_update,
        }

    def _deals_from_stream(self) -> None:
        """Turn the stream's block of uniforms into (player hand, dealer hand) deals."""
        cumulative = self._deal_cumulative
        uniforms = np.asarray(self.stream.buffer) * cumulative[-1]
        flat = np.minimum(np.searchsorted(cumulative, uniforms, side="right"), len(cumulative) - 1)
        player_hands, dealer_hands = np.divmod(flat, self.game.n_hands[1])
        self._player_hands = player_hands.tolist()
        self._dealer_hands = dealer_hands.tolist()

    # --- the iteration --------------------------------------------------------------------
    def _step(self) -> None:
        self._steps(1)

    def _steps(self, count: int) -> None:
        """``count`` rounds of self-play, one sampled deal each."""
        stream = self.stream
        floor, after = self.regret_floor, self.average_after_update
        match = regret_matching_pair
        bet_probability, call_probability = self.bet_probability, self.call_probability
        regret_bet, regret_check = self.regret_bet, self.regret_check
        regret_call, regret_fold = self.regret_call, self.regret_fold
        sum_bet, sum_check, sum_call, sum_fold = (
            self.sum_bet,
            self.sum_check,
            self.sum_call,
            self.sum_fold,
        )
        check_payoff, fold_payoff, call_payoff = (
            self._check_payoff,
            self._fold_payoff,
            self._call_payoff,
        )
        remaining = count
        while remaining:
            if stream.cursor == stream.block:
                stream.refill()
                self._deals_from_stream()
            start = stream.cursor
            stop = min(stream.block, start + remaining)
            stream.cursor = stop
            remaining -= stop - start
            for i, j in zip(
                self._player_hands[start:stop], self._dealer_hands[start:stop], strict=True
            ):
                bet = bet_probability[i]
                call = call_probability[j]
                if not after:
                    sum_bet[i] += bet
                    sum_check[i] += 1.0 - bet
                    sum_call[j] += call
                    sum_fold[j] += 1.0 - call
                # Player 0's payoffs; the dealer's are their negatives.
                value_check = check_payoff[i][j]
                value_fold = fold_payoff[i][j]
                value_call = call_payoff[i][j]
                value_bet = call * value_call + (1.0 - call) * value_fold
                value_player = bet * value_bet + (1.0 - bet) * value_check
                new_bet = regret_bet[i] + value_bet - value_player
                new_check = regret_check[i] + value_check - value_player
                new_call = regret_call[j] + bet * (value_bet - value_call)
                new_fold = regret_fold[j] + bet * (value_bet - value_fold)
                if floor:
                    new_bet = new_bet if new_bet > 0.0 else 0.0
                    new_check = new_check if new_check > 0.0 else 0.0
                    new_call = new_call if new_call > 0.0 else 0.0
                    new_fold = new_fold if new_fold > 0.0 else 0.0
                regret_bet[i] = new_bet
                regret_check[i] = new_check
                regret_call[j] = new_call
                regret_fold[j] = new_fold
                bet = match(new_bet, new_check)
                call = match(new_call, new_fold)
                bet_probability[i] = bet
                call_probability[j] = call
                if after:
                    sum_bet[i] += bet
                    sum_check[i] += 1.0 - bet
                    sum_call[j] += call
                    sum_fold[j] += 1.0 - call
        self.iterations += count

    # --- strategies and state -------------------------------------------------------------
    def _as_strategy(self, player_rows: np.ndarray, dealer_rows: np.ndarray) -> Strategy:
        """Rows [bet, check] / [call, fold] reordered to the nodes' action order."""
        player = player_rows[:, ::-1] if self.bet_index == 1 else player_rows
        dealer = dealer_rows[:, ::-1] if self.fold_index == 0 else dealer_rows
        return {
            self.root_id: np.ascontiguousarray(player),
            self.dealer_id: np.ascontiguousarray(dealer),
        }

    def current_strategy(self) -> Strategy:
        bet = np.array(self.bet_probability)
        call = np.array(self.call_probability)
        return self._as_strategy(np.stack([bet, 1 - bet], 1), np.stack([call, 1 - call], 1))

    def average_strategy(self) -> Strategy:
        """The paper's W: cumulative strategies normalised; 0.5 for a hand never dealt."""
        rows = []
        player_sums = np.stack([self.sum_bet, self.sum_check], axis=1)
        dealer_sums = np.stack([self.sum_call, self.sum_fold], axis=1)
        for sums in (player_sums, dealer_sums):
            totals = sums.sum(axis=1, keepdims=True)
            dealt = totals > 0
            rows.append(np.where(dealt, sums / np.where(dealt, totals, 1.0), 0.5))
        return self._as_strategy(rows[0], rows[1])

    def _arrays(self) -> dict[str, np.ndarray]:
        arrays = self.stream.arrays()
        for name in _STATE_LISTS:
            arrays[name] = np.array(getattr(self, name), dtype=float)
        return arrays

    def _load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        self.stream.load(arrays)
        self._deals_from_stream()
        for name in _STATE_LISTS:
            setattr(self, name, np.asarray(arrays[name], dtype=float).tolist())


_STATE_LISTS = (
    "regret_bet",
    "regret_check",
    "regret_call",
    "regret_fold",
    "bet_probability",
    "call_probability",
    "sum_bet",
    "sum_check",
    "sum_call",
    "sum_fold",
)
