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

A bet the bot's tree lacks reaches it through the house translation (``off_tree.py``), which
draws one of two tree sizes; LBR does not see the draw, so its range of the bot is a mixture
over the translated lines, each updated by the bot's probability of what LBR then sees it do
(``agents/beliefs.py``). Its choices depend on the public events only.

Evaluation plays duplicate deals (each deal from both seats) and scores every terminal by the
paper's imaginary observations: the expectation over the bot's range on the line played, which
is unbiased because LBR's choices depend only on the public line and its own hand. ``expected``
computes the same value exactly for one hand, branching over the bot's actions and the cards to
come instead of sampling them: summed over all hands it is LBR's exact value, which on push/fold,
where each player has one decision, is the exact best response.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from solvers.agents.beliefs import (
    Belief,
    Line,
    Tree,
    after_bot,
    after_card,
    after_lbr,
    bot_masks,
    observation,
    observations,
    start,
)
from solvers.agents.bet_sizing import (
    FOLD_TOKENS,
    PASSIVE_TOKENS,
    BetSizer,
    RealState,
    child_index,
    fold_matrix,
    tree_mapping,
)
from solvers.errors import InputError
from solvers.games.base import Node, Strategy, TreeGame
from solvers.games.holdem.off_tree import answer_rows
from solvers.games.holdem.spot import SpotParams
from solvers.games.push_fold import PushFoldParams
from solvers.reports.lbr.spot_cards import MAX_CACHED, LbrCards


class LbrInputError(InputError):
    """A game, strategy or option that LBR cannot evaluate."""


@dataclass(frozen=True)
class Choice:
    """LBR's action: ``f`` (fold), ``p`` (check or call) or ``b`` (bet or raise to ``to``, the
    new total contribution)."""

    kind: str
    to: float | None = None


class RiverSolve(Protocol):
    @property
    def game(self) -> TreeGame: ...

    @property
    def rows(self) -> Strategy:
        """The bot's rows over the file's hands of the bot (``river_resolve.RiverSolve``)."""
        ...


class RiverBot(Protocol):
    """A bot that re-solves the river after an off-tree bet (``solvers.agents.river_resolve``)."""

    @property
    def iterations(self) -> int: ...

    def applies(self, belief: Belief) -> bool: ...

    def river(self, seat: int, history: tuple) -> RiverSolve: ...


class LocalBestResponse:
    """LBR against one strategy of a hold'em game (push/fold or an ``nlhe`` spot); with
    ``river``, the bot re-solves the river after an off-tree bet and LBR plays that river."""

    def __init__(
        self,
        game: TreeGame,
        strategy: Strategy,
        action_set: str = "fcpa",
        streets: tuple[str, ...] | None = None,
        river: RiverBot | None = None,
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
        self.river = river
        self.turn = getattr(river, "turn", None)
        """The bot's re-solve of the turn after an off-tree bet (``turn_resolve.py``), if any."""
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

    # --- where the lines are -----------------------------------------------------------------
    def _tree(self, belief: Belief) -> Tree:
        return belief.tree or Tree(self.game, self.strategy)

    def _deal(self, belief: Belief, seat: int, token: str) -> Belief:
        """The card ``token`` is dealt; a river reached off the tree moves into the bot's
        re-solve of it (one line at its root, LBR's range of the bot unchanged)."""
        after = after_card(self.game, belief, seat, token)
        if self.river is None or not self.river.applies(after):
            return after
        solved = self.river.river(seat, after.history)
        line = Line(solved.game.root, after.weights)
        return Belief((line,), after.real, after.history, Tree(solved.game, solved.rows))

    def _after_lbr(self, belief: Belief, seat: int, choice: Choice) -> Belief:
        """LBR's action: an off-tree bet on the turn moves into the bot's re-solve of it."""
        if choice.kind == "b" and self.turn is not None:
            assert choice.to is not None
            if self.turn.applies(belief, seat, choice.to):
                return self.turn.enter(belief, seat, choice.to)
        return after_lbr(self._tree(belief).game, belief, seat, choice.kind, choice.to)

    # --- the greedy decision ----------------------------------------------------------------
    def decide(self, belief: Belief, seat: int, hand: int) -> Choice:
        """LBR's action in the public state ``belief`` (its range of the bot over tree lines)."""
        key = (seat, hand, belief.history)
        cached = self._choices.get(key)
        if cached is None:
            cached = self._decide(belief, seat, hand)
            if len(self._choices) >= MAX_CACHED:
                self._choices.clear()
            self._choices[key] = cached
        return cached

    def _decide(self, belief: Belief, seat: int, hand: int) -> Choice:
        node, real = belief.node, belief.real
        own, opp = real.put[seat], real.put[1 - seat]
        can_pass = child_index(node, PASSIVE_TOKENS) is not None  # push/fold's shove-or-fold
        give_up = Choice("f" if opp > own or not can_pass else "p")
        if self.cards.street(node.board) not in self.streets:
            return Choice("p") if can_pass else give_up
        pot, asked = own + opp, opp - own
        weights = belief.weights
        total = weights.sum()
        eq = self.cards.equity(seat, hand, node.board)
        wp = float(weights @ eq) / total
        best_value, best = 0.0, give_up
        if can_pass:
            best_value, best = wp * pot - (1 - wp) * asked, Choice("p")
        bets = self._candidates(belief, seat)
        if bets:
            cont = np.zeros((len(bets), len(weights)))
            tree = self._tree(belief)
            for line in belief.lines:
                folds = self._fold_rows(tree, line.node, seat, real, bets)
                if self.turn is not None:
                    self._resolved_folds(belief, seat, bets, folds)
                cont += line.weights[None, :] * (1.0 - folds)
            cont_total = cont.sum(axis=1)
            fp = 1.0 - cont_total / total
            wp2 = (cont @ eq) / np.maximum(cont_total, 1e-300)
            a = np.asarray(bets) - opp
            utility = fp * pot + (1 - fp) * (wp2 * (pot + a) - (1 - wp2) * (asked + a))
            top = int(np.argmax(utility))
            if utility[top] > best_value:
                best_value, best = float(utility[top]), Choice("b", float(bets[top]))
        return best if best_value > 0 else give_up

    def _candidates(self, belief: Belief, seat: int) -> list[float]:
        """LBR's bets: the action set's on every line (the ``tree`` set's sizes differ between
        lines), none where some line's tree has no bet left."""
        per_line = [self.sizer.candidates(line.node, seat, belief.real) for line in belief.lines]
        if any(not bets for bets in per_line):
            return []
        return sorted({to for bets in per_line for to in bets})

    def _fold_rows(
        self, tree: Tree, node: Node, seat: int, real: RealState, bets: list[float]
    ) -> np.ndarray:
        """``[bets, bot hands]``: the bot's fold probability after each bet, over the tree
        actions its translation maps the bet to at ``node``."""
        answers = [tree_mapping(tree.game, node, seat, real, to) for to in bets]
        maps = [mapping for mapping, _ in answers]
        keep = np.array([k for _, k in answers])
        used = sorted({c for m in maps for c, _ in m})
        mix = np.zeros((len(bets), len(used)))
        for row, mapping in enumerate(maps):
            for child, probability in mapping:
                mix[row, used.index(child)] += probability
        children = [tree.game.nodes[node.children[c]] for c in used]
        n_bot = self.game.n_hands[1 - seat]
        rows = [tree.strategy[n.id] if n.is_decision else np.zeros((n_bot, 1)) for n in children]
        folds = [child_index(n, FOLD_TOKENS) if n.is_decision else None for n in children]
        return (mix @ fold_matrix(rows, folds)) * (1.0 - keep[:, None])

    def _resolved_folds(self, belief: Belief, seat: int, bets: list[float],
                        folds: np.ndarray) -> None:  # fmt: skip
        """Overwrite ``folds``'s rows of the bets that leave the file's turn with the bot's
        fold probability at the root of its re-solve of each."""
        assert self.turn is not None
        for row, to in enumerate(bets):
            if self.turn.applies(belief, seat, to):
                solved = self.turn.solve(seat, belief, to)
                root = solved.game.root
                fold = child_index(root, FOLD_TOKENS)
                assert fold is not None, "a bet can be folded to"
                folds[row] = solved.rows[root.id][:, fold]

    # --- the end of a hand ------------------------------------------------------------------
    def _terminal(self, belief: Belief, seat: int, hand: int) -> float:
        """A fold, or a showdown over every card to come (both all-in, the river called, or a
        line whose tree is over: the rest is checked down)."""
        put = belief.real.put
        folder = belief.folder()
        if folder is not None:
            return -put[seat] if folder == seat else put[1 - seat]
        weights = belief.weights
        eq = self.cards.equity(seat, hand, belief.node.board)
        wp = float(weights @ eq) / weights.sum()
        return put[seat] * (2.0 * wp - 1.0)

    # --- one sampled hand -------------------------------------------------------------------
    def play(
        self, seat: int, hand: int, bot_hand: int, runout: np.ndarray, rng: np.random.Generator
    ) -> float:
        """LBR's chips in one hand, scored by imaginary observations over the bot's range. The
        bot is on one tree line (``bot_node``, its translations drawn); LBR sees only what the
        bot does."""
        belief = start(self.game, self.cards.prior_row(seat, hand))
        bot_node, bot_keep = belief.node, 0.0
        dealt = 0
        while not belief.over(self.sizer.cap):
            node = belief.node
            tree = self._tree(belief)
            if node.is_chance:
                card = self.cards.card_token(int(runout[dealt]))
                dealt += 1
                before = belief.tree
                belief = self._deal(belief, seat, card)
                if belief.tree is not before:  # the river is the bot's re-solve now
                    bot_node = belief.node
                else:
                    bot_node = tree.game.nodes[bot_node.children[bot_node.tokens.index(card)]]
            elif node.player == seat:
                choice = self.decide(belief, seat, hand)
                after = self._after_lbr(belief, seat, choice)
                if after.tree is not belief.tree:  # the bot's re-solve of the turn
                    belief, bot_node, bot_keep = after, after.node, 0.0
                    continue
                if choice.kind == "b":
                    assert choice.to is not None
                    mapping, keep = tree_mapping(tree.game, bot_node, seat, belief.real, choice.to)
                    index = mapping[0][0]
                    if len(mapping) > 1 and rng.random() >= mapping[0][1]:
                        index = mapping[1][0]
                else:
                    tokens = FOLD_TOKENS if choice.kind == "f" else PASSIVE_TOKENS
                    passive = child_index(bot_node, tokens)
                    assert passive is not None
                    index, keep = passive, 0.0
                belief = after
                bot_node, bot_keep = tree.game.nodes[bot_node.children[index]], keep
            else:
                rows = tree.strategy[bot_node.id][bot_hand : bot_hand + 1]
                index = _sample(answer_rows(rows, bot_node, bot_keep)[0], rng)
                bot_keep = 0.0
                seen = observation(self.sizer, bot_node, belief.real, index)
                pairs = observations(self.sizer, belief)[seen]
                belief = after_bot(tree.game, tree.strategy, belief, seen, pairs)
                bot_node = tree.game.nodes[bot_node.children[index]]
        return self._terminal(belief, seat, hand)

    # --- the exact expectation for one hand -------------------------------------------------
    def expected(self, seat: int, hand: int) -> float:
        """LBR's exact expected chips holding ``hand`` in ``seat`` (bot hands, translations,
        actions and cards to come in expectation)."""
        belief = start(self.game, self.cards.prior_row(seat, hand))
        return self._expected(belief, seat, hand)

    def _expected(self, belief: Belief, seat: int, hand: int) -> float:
        if belief.over(self.sizer.cap):
            return self._terminal(belief, seat, hand)
        node = belief.node
        weights = belief.weights
        total = weights.sum()
        value = 0.0
        if node.is_chance:
            own_cards = self.cards.hand_cards(seat, hand)
            unseen = 52 - len(node.board) - 4
            reach = bot_masks(self.game, belief, seat) @ weights / (unseen * total)
            for index in np.flatnonzero(reach > 0).tolist():
                token = node.tokens[index]
                if self.cards.card_index(token) in own_cards:
                    continue
                after = self._deal(belief, seat, token)
                value += reach[index] * self._expected(after, seat, hand)
            return value
        if node.player == seat:
            choice = self.decide(belief, seat, hand)
            return self._expected(self._after_lbr(belief, seat, choice), seat, hand)
        tree = self._tree(belief)
        for seen, pairs in observations(self.sizer, belief).items():
            after = after_bot(tree.game, tree.strategy, belief, seen, pairs)
            probability = after.weights.sum() / total
            if probability > 0:
                value += probability * self._expected(after, seat, hand)
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
