"""LBR's range of the bot after an off-tree bet is the mixture over the two translated lines,
checked against a case computed by hand: a river tree that bets half the pot or all-in (three
times the pot), LBR betting the pot, and a bot whose answers differ hand by hand."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.agents.beliefs import after_bot, after_lbr, observations, start
from solvers.agents.bet_sizing import tree_mapping
from solvers.reports.lbr.spot import LocalBestResponse
from tests.lbr_fixtures import river_game

# pseudo-harmonic odds of answering a pot bet (x = 1) as half pot (A = 0.5) rather than as
# all-in (B = 3): (B - x)(1 + A) / ((B - A)(1 + x)), Ganzfried and Sandholm's formula
P_HALF = (3.0 - 1.0) * (1.0 + 0.5) / ((3.0 - 0.5) * (1.0 + 1.0))


@pytest.fixture(scope="module")
def case():
    """The bot (IP) answers half pot by folding, calling or shoving, all-in by folding or
    calling, with per-hand frequencies drawn once; LBR (OOP) holds its first hand."""
    game = river_game()
    rng = np.random.default_rng(11)
    n = game.n_hands[1]
    half, allin = game.node_by_key("b50"), game.node_by_key("b300")
    vs_half = rng.dirichlet([1.0, 1.0, 1.0], size=n)  # fold, call, all-in
    call_allin = rng.random(n)
    strategy = {
        node.id: np.full((game.n_hands[node.player], len(node.tokens)), 1.0 / len(node.tokens))
        for node in game.decision_nodes()
    }
    strategy[half.id] = vs_half
    strategy[allin.id] = np.stack([1.0 - call_allin, call_allin], axis=1)
    prior = game.prior[0].copy()
    return game, strategy, prior, vs_half, call_allin


def test_a_pot_bet_maps_to_half_pot_and_all_in_with_the_pseudo_harmonic_odds(case):
    game, _, prior, _, _ = case
    belief = start(game, prior)
    mapping, keep = tree_mapping(game, game.root, 0, belief.real, 150.0)  # 100 into a pot of 100
    assert keep == 0.0
    assert [game.nodes[game.root.children[i]].key for i, _ in mapping] == ["b50", "b300"]
    assert [p for _, p in mapping] == pytest.approx([P_HALF, 1.0 - P_HALF], abs=1e-12)


def test_the_bots_answer_updates_the_mixture_of_both_lines(case):
    game, strategy, prior, vs_half, call_allin = case
    bet = after_lbr(game, start(game, prior), 0, "b", 150.0)
    assert sorted(line.node.key for line in bet.lines) == ["b300", "b50"]
    np.testing.assert_allclose(bet.weights, prior, atol=1e-15)  # the bet itself tells nothing
    seen = observations(bet_sizer(game, strategy), bet)
    assert set(seen) == {("f",), ("p",), ("b", 350.0)}
    by_hand = {  # what LBR sees, per bot hand: the mixture of both lines' probabilities
        ("f",): P_HALF * vs_half[:, 0] + (1 - P_HALF) * (1 - call_allin),
        ("p",): P_HALF * vs_half[:, 1] + (1 - P_HALF) * call_allin,
        ("b", 350.0): P_HALF * vs_half[:, 2],  # only the half-pot line can shove over it
    }
    total = 0.0
    for shown, pairs in seen.items():
        after = after_bot(game, strategy, bet, shown, pairs)
        np.testing.assert_allclose(after.weights, prior * by_hand[shown], rtol=1e-12, atol=0)
        total += after.weights.sum()
    assert total == pytest.approx(prior.sum(), rel=1e-12)  # the answers' probabilities sum to 1
    call = after_bot(game, strategy, bet, ("p",), seen[("p",)])
    assert call.real.put == [150.0, 150.0]
    shove = after_bot(game, strategy, bet, ("b", 350.0), seen[("b", 350.0)])
    assert [line.node.key for line in shove.lines] == ["b50/b300"]  # one line survives


def _best_by_hand(lbr, prior, eq, fold, call_allin):
    """LBR's choice from the paper's utilities, ``fold`` being the bot's fold odds per hand
    against the pot bet: ``fp * pot + (1 - fp)(wp' (pot + a) - (1 - wp') a)`` for a bet that
    adds ``a`` chips; the tree's own shove is answered on its line alone."""
    pot = 100.0
    options = [(prior @ eq / prior.sum() * pot, "p", None)]
    for to, folds in ((150.0, fold), (350.0, 1.0 - call_allin)):
        a = to - 50.0
        fp = prior @ folds / prior.sum()
        cont = prior * (1.0 - folds)
        wp2 = cont @ eq / cont.sum()
        options.append((fp * pot + (1 - fp) * (wp2 * (pot + a) - (1 - wp2) * a), "b", to))
    best = max(options, key=lambda option: option[0])
    return best[1:] if best[0] > 0 else ("p", None)


def test_lbr_scores_the_pot_bet_by_the_mixtures_fold_odds(case):
    """Every hand of LBR chooses as the utilities computed here by hand from the mixture's fold
    odds; with the half-pot line's odds alone (LBR seeing the draw) some choices differ."""
    game, strategy, _, vs_half, call_allin = case
    lbr = LocalBestResponse(game, strategy, "fcpa")
    mixture = P_HALF * vs_half[:, 0] + (1 - P_HALF) * (1 - call_allin)
    chosen, differ = [], 0
    for hand in range(game.n_hands[0]):
        prior = game.prior[hand].copy()
        eq = lbr.cards.equity(0, hand, game.root.board)
        choice = lbr.decide(start(game, prior), 0, hand)
        assert (choice.kind, choice.to) == _best_by_hand(lbr, prior, eq, mixture, call_allin)
        chosen.append(choice.to)
        differ += _best_by_hand(lbr, prior, eq, vs_half[:, 0], call_allin) != (
            choice.kind, choice.to)
    assert chosen.count(150.0) > 0 and differ > 0


def bet_sizer(game, strategy):
    return LocalBestResponse(game, strategy, "fcpa").sizer


def test_a_bet_below_the_smallest_size_turns_the_fold_to_call_share_into_calls(case):
    """A tenth of the pot is below the tree's half pot: the bot answers as half pot, a hand that
    would fold calling instead with probability (B - x) / (B (1 + x))."""
    game, strategy, prior, vs_half, _ = case
    keep = (0.5 - 0.1) / (0.5 * 1.1)
    bet = after_lbr(game, start(game, prior), 0, "b", 60.0)  # adds 10 into a pot of 100
    assert [line.node.key for line in bet.lines] == ["b50"]
    assert bet.lines[0].fold_to_call == pytest.approx(keep, abs=1e-12)
    seen = observations(bet_sizer(game, strategy), bet)
    fold = after_bot(game, strategy, bet, ("f",), seen[("f",)])
    call = after_bot(game, strategy, bet, ("p",), seen[("p",)])
    np.testing.assert_allclose(fold.weights, prior * (1 - keep) * vs_half[:, 0], rtol=1e-12)
    np.testing.assert_allclose(
        call.weights, prior * (vs_half[:, 1] + keep * vs_half[:, 0]), rtol=1e-12
    )
    assert call.lines[0].fold_to_call == 0.0  # only the bot's first answer
