"""Monte Carlo equity without the all-runouts table: still unbiased, seeded and bounded."""

import numpy as np
import pytest

from pokertui.cli import main
from pokertui.commands import equity as equity_command
from solvers.cards import equity as equity_module
from solvers.cards import evaluator
from solvers.cards.deck import parse_cards
from solvers.cards.equity import equity
from solvers.cards.ranges import parse_range


def test_the_stored_rank_tables_equal_freshly_built_ones():
    for n_cards in (5, 6, 7):
        assert np.array_equal(evaluator._rank_table(n_cards), evaluator.build_rank_table(n_cards))
    assert np.array_equal(evaluator._flush_table(), evaluator.build_flush_table())


@pytest.mark.parametrize(
    ("hero", "villain", "board"),
    [
        ("AhKh", "QsQd", ""),
        ("AhKh", "QQ+,T9s", "Ts9s2d"),
        ("22+", "AKs,AKo", "Ts9s2d4c"),
        ("AA", "KK,QQ,AKs", "Kd7c2h"),
    ],
)
def test_monte_carlo_agrees_with_exact_enumeration(hero, villain, board):
    """Exact enumeration is the independent answer; pooled over seeds the estimate must lie
    within 4 standard errors (a runout sampler that favoured some boards would not)."""
    r1, r2, cards = parse_range(hero), parse_range(villain), parse_cards(board)
    exact = equity(r1, r2, cards, method="exact").equity[0]
    estimates = [equity(r1, r2, cards, method="mc", samples=200_000, seed=s) for s in range(5)]
    mean = np.mean([e.equity[0] for e in estimates])
    error = np.sqrt(np.mean([e.std_error**2 for e in estimates]) / len(estimates))
    assert abs(mean - exact) < 4 * error + 1e-12
    assert all(e.samples == 200_000 and e.hand_samples.sum() == 200_000 for e in estimates)


def test_runouts_are_uniform_over_the_remaining_cards():
    """Each card of the deck shows up on a 5-card runout with probability 5/48 (hand vs hand)."""
    match = equity_module._prepare(parse_range("AhKh"), parse_range("QsQd"), (), ())
    deck = equity_module._runout_deck(match)
    tables = [equity_module._part_tables(deck, size) for size in (3, 2)]
    keys, masks, ok = equity_module._draw_runouts(np.random.default_rng(0), tables, 400_000)
    masks = masks[ok]
    holds = np.array([(masks & evaluator.CARD_BIT[c]) != 0 for c in deck])  # [cards, runouts]
    assert np.all(holds.sum(axis=0) == 5)  # five distinct deck cards on every runout
    counts = holds.sum(axis=1)
    assert len(deck) == 48 and ok.mean() == pytest.approx(990 / 1128, abs=0.005)
    expected = masks.size * 5 / 48
    chi2 = float(np.sum((counts - expected) ** 2 / expected))
    assert chi2 < 90  # 47 degrees of freedom: p < 1e-4 beyond this


def test_the_cli_default_sample_count_is_the_library_one():
    assert equity_command.DEFAULT_SAMPLES == equity_module.DEFAULT_SAMPLES


def test_exact_enumeration_that_would_take_hours_is_refused(capsys):
    assert main(["equity", "random", "random", "--exact"]) == 2
    assert "--mc" in capsys.readouterr().err
