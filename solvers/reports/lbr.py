"""Local best response (Lisý and Bowling): how much a greedy one-step opponent wins from a bot.

LBR holds a real hand and keeps the bot's range: the prior given LBR's cards, multiplied by the
bot's probability of every action it took, for every bot hand at once (Bayes' rule on a vector).
At its own decisions LBR assumes the hand is checked down after its action unless the bot folds
to it. With ``wp`` its equity against the range (every remaining board card enumerated exactly)
and ``asked`` the chips it must add to call, relative to folding::

    U(call) = wp * pot - (1 - wp) * asked
    U(a)    = fp * pot + (1 - fp) * (wp' * (pot + a) - (1 - wp') * (asked + a))

for a bet that puts ``a`` chips beyond the call, ``fp`` the range's probability of folding to it
and ``wp'`` the equity against the hands that continue. LBR takes the best action when its
utility is positive and otherwise checks or folds; on streets outside ``streets`` it checks or
calls. All candidate bets are scored with one matrix product over the bot's range.

Evaluation plays duplicate deals (each deal from both seats) and scores every terminal by the
paper's imaginary observations: the expectation over the bot's range on the line played, which
is unbiased because LBR's choices depend only on the public line and its own hand. ``expected``
computes the same value exactly for one hand, branching over the bot's actions and the cards to
come instead of sampling them: summed over all hands it is LBR's exact value, which on push/fold,
where each player has one decision, is the exact best response.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.errors import InputError
from solvers.games.base import Node, Strategy, TreeGame
from solvers.games.holdem.spot import SpotParams
from solvers.games.push_fold import PushFoldParams
from solvers.reports.lbr_actions import (
    FOLD_TOKENS,
    PASSIVE_TOKENS,
    BetSizer,
    RealState,
    child_index,
    fold_matrix,
)
from solvers.reports.lbr_cards import MAX_CACHED, LbrCards


class LbrInputError(InputError):
    """A game, strategy or option that LBR cannot evaluate."""


@dataclass(frozen=True)
class Choice:
    """LBR's action at a node: the tree children the bot sees (with probabilities) and the new
    total contribution (``None`` for a fold or a check/call)."""

    children: tuple[tuple[int, float], ...]
    to: float | None


class LocalBestResponse:
    """LBR against one strategy of a hold'em game (push/fold or an ``nlhe`` spot)."""

    def __init__(
        self,
        game: TreeGame,
        strategy: Strategy,
        action_set: str = "fcpa",
        streets: tuple[str, ...] | None = None,
    ) -> None:
        try:
            self.cards = LbrCards(game)
        except TypeError:
            raise LbrInputError(
                f"LBR evaluates hold'em strategies (push/fold or nlhe spots), not {game.name}"
            ) from None
        self.game = game
        self.strategy = strategy
        params = game.params
        if self.cards.is_spot:
            assert isinstance(params, SpotParams)
            cap = float(params.pot) / 2 + float(params.stack)
            self.pot = float(params.pot)
        else:
            assert isinstance(params, PushFoldParams)
            cap = float(params.stack_bb)
            self.pot = float(sum(game.root.contributions))
        self.sizer = BetSizer(action_set, cap, no_limit=self.cards.is_spot)
        self.action_set = self.sizer.action_set
        self.streets = self._check_streets(streets)
        self._choices: dict[tuple, Choice] = {}

    def _check_streets(self, streets: tuple[str, ...] | None) -> tuple[str, ...]:
        known = self.cards.streets
        if streets is None:
            return known
        wrong = [s for s in streets if s not in known]
        if wrong or not streets:
            raise LbrInputError(
                f"streets {', '.join(wrong) or '(none)'}: this game has {', '.join(known)}"
            )
        return tuple(streets)

    @property
    def unit(self) -> tuple[str, float]:
        """The reporting unit and the factor from chips: mbb per hand, or % of a spot's pot."""
        if self.cards.is_spot:
            return "pot_percent", 100.0 / self.pot
        return "mbb_per_hand", 1000.0 / self.game.big_blind

    # --- the greedy decision ----------------------------------------------------------------
    def decide(
        self, node: Node, seat: int, hand: int, real: RealState, weights: np.ndarray
    ) -> Choice:
        """LBR's action at its decision ``node`` with the bot's (unnormalised) range ``weights``."""
        key = (seat, hand, node.id, real.put[0], real.put[1], real.last_increment)
        cached = self._choices.get(key)
        if cached is None:
            cached = self._decide(node, seat, hand, real, weights)
            if len(self._choices) >= MAX_CACHED:
                self._choices.clear()
            self._choices[key] = cached
        return cached

    def _decide(self, node: Node, seat: int, hand: int, real: RealState, weights) -> Choice:
        passive = child_index(node, PASSIVE_TOKENS)
        fold = child_index(node, FOLD_TOKENS)
        own, opp = real.put[seat], real.put[1 - seat]
        give_up_index = fold if opp > own and fold is not None else passive
        assert give_up_index is not None, "a decision node can always fold, check or call"
        give_up = Choice(((give_up_index, 1.0),), None)
        if self.cards.street(node.board) not in self.streets:
            return Choice(((passive, 1.0),), None) if passive is not None else give_up
        pot, asked = own + opp, opp - own
        total = weights.sum()
        eq = self.cards.equity(seat, hand, node.board)
        wp = float(weights @ eq) / total
        best_value, best = 0.0, give_up
        if passive is not None:
            best_value = wp * pot - (1 - wp) * asked
            best = Choice(((passive, 1.0),), None)
        bets = self.sizer.candidates(node, seat, real)
        if bets:
            maps = [self.sizer.translate(node, seat, real, to) for to in bets]
            used = sorted({c for m in maps for c, _ in m})
            mix = np.zeros((len(bets), len(used)))
            for row, mapping in enumerate(maps):
                for child, probability in mapping:
                    mix[row, used.index(child)] += probability
            folds = mix @ self._fold_rows(node, used)
            cont = weights[None, :] * (1.0 - folds)
            cont_total = cont.sum(axis=1)
            fp = 1.0 - cont_total / total
            wp2 = (cont @ eq) / np.maximum(cont_total, 1e-300)
            a = np.asarray(bets) - opp
            utility = fp * pot + (1 - fp) * (wp2 * (pot + a) - (1 - wp2) * (asked + a))
            top = int(np.argmax(utility))
            if utility[top] > best_value:
                best_value = float(utility[top])
                best = Choice(tuple(maps[top]), float(bets[top]))
        return best if best_value > 0 else give_up

    def _fold_rows(self, node: Node, children: list[int]) -> np.ndarray:
        """``[len(children), bot hands]``: the bot's fold probability at each child node."""
        nodes = [self.game.nodes[node.children[c]] for c in children]
        n_bot = self.game.n_hands[1 - node.player]
        rows = [self.strategy[n.id] if n.is_decision else np.zeros((n_bot, 1)) for n in nodes]
        folds = [child_index(n, FOLD_TOKENS) if n.is_decision else None for n in nodes]
        return fold_matrix(rows, folds)

    # --- moving through the tree ------------------------------------------------------------
    def _after(self, node: Node, index: int, real: RealState, to: float | None = None) -> RealState:
        """The real pot after the actor takes child ``index`` (LBR's bet ``to`` if given)."""
        actor = node.player
        token = node.tokens[index]
        new = real.copy()
        opp = real.put[1 - actor]
        if token in FOLD_TOKENS:
            return new
        if token in PASSIVE_TOKENS:
            new.put[actor] = opp
            return new
        if to is None:
            to = self.sizer.bot_amount(node, actor, real, index)
        new.put[actor] = to
        new.last_increment = max(real.last_increment, to - opp)
        return new

    def _all_in(self, real: RealState) -> bool:
        """Both stacks are in (an off-tree shove the tree had no all-in for was called)."""
        return min(real.put) >= self.sizer.cap

    def _terminal(self, node: Node, seat: int, hand: int, real: RealState, weights) -> float:
        """A terminal, or a node where both are all-in: showdown over every card to come."""
        if node.is_terminal and node.terminal == "fold":
            return -real.put[seat] if node.folder == seat else real.put[1 - seat]
        eq = self.cards.equity(seat, hand, node.board)
        wp = float(weights @ eq) / weights.sum()
        return real.put[seat] * (2.0 * wp - 1.0)

    def _start(self, seat: int, hand: int) -> tuple[Node, RealState, np.ndarray]:
        root = self.game.root
        return root, RealState(list(root.contributions)), self.cards.prior_row(seat, hand)

    # --- one sampled hand -------------------------------------------------------------------
    def play(
        self, seat: int, hand: int, bot_hand: int, runout: np.ndarray, rng: np.random.Generator
    ) -> float:
        """LBR's chips in one hand, scored by imaginary observations over the bot's range."""
        node, real, weights = self._start(seat, hand)
        nodes = self.game.nodes
        dealt = 0
        while not node.is_terminal and not self._all_in(real):
            if node.is_chance:
                card = self.cards.card_token(int(runout[dealt]))
                dealt += 1
                index = node.tokens.index(card)
                assert node.outcome_masks is not None  # chance nodes carry them
                weights = weights * node.outcome_masks[1 - seat][index]
                real = RealState(real.put)
            elif node.player == seat:
                choice = self.decide(node, seat, hand, real, weights)
                index = choice.children[0][0]
                if len(choice.children) > 1 and rng.random() >= choice.children[0][1]:
                    index = choice.children[1][0]
                real = self._after(node, index, real, choice.to)
            else:
                rows = self.strategy[node.id]
                index = _sample(rows[bot_hand], rng)
                weights = weights * rows[:, index]
                real = self._after(node, index, real)
            node = nodes[node.children[index]]
        return self._terminal(node, seat, hand, real, weights)

    # --- the exact expectation for one hand -------------------------------------------------
    def expected(self, seat: int, hand: int) -> float:
        """LBR's exact expected chips holding ``hand`` in ``seat`` (bot hands, actions and cards
        to come in expectation)."""
        node, real, weights = self._start(seat, hand)
        return self._expected(node, seat, hand, real, weights)

    def _expected(self, node: Node, seat: int, hand: int, real: RealState, weights) -> float:
        if node.is_terminal or self._all_in(real):
            return self._terminal(node, seat, hand, real, weights)
        nodes = self.game.nodes
        total = weights.sum()
        value = 0.0
        if node.is_chance:
            own_cards = self.cards.hand_cards(seat, hand)
            unseen = 52 - len(node.board) - 4
            assert node.outcome_masks is not None  # chance nodes carry them
            masks = node.outcome_masks[1 - seat]
            reach = masks @ weights / (unseen * total)
            for index in np.flatnonzero(reach > 0).tolist():
                if self.cards.card_index(node.tokens[index]) in own_cards:
                    continue
                child = nodes[node.children[index]]
                value += reach[index] * self._expected(
                    child, seat, hand, RealState(real.put), weights * masks[index]
                )
            return value
        if node.player == seat:
            choice = self.decide(node, seat, hand, real, weights)
            for index, probability in choice.children:
                child = nodes[node.children[index]]
                after = self._after(node, index, real, choice.to)
                value += probability * self._expected(child, seat, hand, after, weights)
            return value
        rows = self.strategy[node.id]
        branch = weights[:, None] * rows
        probability = branch.sum(axis=0) / total
        for index in np.flatnonzero(probability > 0).tolist():
            child = nodes[node.children[index]]
            after = self._after(node, index, real)
            value += probability[index] * self._expected(child, seat, hand, after, branch[:, index])
        return value

    def expected_seat(self, seat: int) -> float:
        """LBR's exact value in ``seat``: ``expected`` over every hand, weighted by the prior."""
        marginal = self.game.prior.sum(axis=1 - seat)
        hands = np.flatnonzero(marginal > 0)
        values = np.array([self.expected(seat, int(h)) for h in hands])
        return float(marginal[hands] @ values / marginal.sum())

    # --- chunks of duplicate deals ----------------------------------------------------------
    def run_chunk(self, seed: int, index: int, deals: int) -> np.ndarray:
        """``[deals, 2]``: LBR's chips from seat 0 and from seat 1 on each deal of chunk
        ``index``, whose random stream depends only on ``(seed, index)``."""
        rng = np.random.default_rng([seed, index])
        h0, h1, runout = self.cards.deal(rng, deals)
        out = np.empty((deals, 2))
        for i in range(deals):
            out[i, 0] = self.play(0, int(h0[i]), int(h1[i]), runout[i], rng)
            out[i, 1] = self.play(1, int(h1[i]), int(h0[i]), runout[i], rng)
        return out


def _sample(row: np.ndarray, rng: np.random.Generator) -> int:
    cumulative = np.cumsum(row)
    index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return min(index, len(row) - 1)


def summarise(values: np.ndarray, scale: float) -> dict[str, float | list[float]]:
    """Means and 95% half-widths, per seat and for the duplicate average, times ``scale``."""
    n = len(values)
    if n == 0:
        raise LbrInputError("no deals were played")
    duplicate = values.mean(axis=1)

    def half_width(x: np.ndarray) -> float:
        return float(1.96 * x.std(ddof=1) / np.sqrt(n)) * scale if n > 1 else float("inf")

    return {
        "value": float(duplicate.mean()) * scale,
        "ci95": half_width(duplicate),
        "seat_values": [float(values[:, s].mean()) * scale for s in (0, 1)],
        "seat_ci95": [half_width(values[:, s]) for s in (0, 1)],
    }
