"""Duplicate head-to-head matches: each deal twice with the seats swapped, scored by the rules and
a showdown the tests recompute with phevaluator; the figures do not depend on the workers; the
command line prints bb/100 and refuses bad bots with exit 2."""

import json

import numpy as np
import pytest
from phevaluator import evaluate_cards

from pokertui.cli import main
from solvers.agents.registry import make_agent
from solvers.cards.deck import COMBO_CARDS, card_str
from solvers.games.hunl.rules import HunlConfig, HunlState, replay
from solvers.reports.hunl_match import DuplicateMatch, play_duplicate
from solvers.reports.lbr.hunl_cards import deal
from tests.control_checks import assert_unbiased_and_tighter

CONFIG = HunlConfig(100)


def seat0_wins(c0: int, c1: int, board) -> int:
    """+1, -1 or 0 from phevaluator's ranks (lower is better)."""
    ranks = [evaluate_cards(*[card_str(int(c)) for c in (*COMBO_CARDS[combo], *board)])
             for combo in (c0, c1)]  # fmt: skip
    return int(np.sign(ranks[1] - ranks[0]))


def test_two_calling_stations_see_every_showdown_for_one_big_blind():
    match = DuplicateMatch(CONFIG, make_agent("call", CONFIG), make_agent("call", CONFIG))
    chips = match.run_chunk(7, 3, 40)
    c0, c1, boards = deal(np.random.default_rng([7, 3]), 40)
    expected = np.array([100 * seat0_wins(int(a), int(b), board)
                         for a, b, board in zip(c0, c1, boards, strict=True)])  # fmt: skip
    np.testing.assert_array_equal(chips[:, 0], expected)
    np.testing.assert_array_equal(chips[:, 1], -expected)  # the same cards from the other seat
    assert (expected != 0).sum() > 30  # splits are rare: the check is not vacuous


def test_the_figures_do_not_depend_on_the_workers_and_a_card_blind_bot_loses_to_the_blueprint():
    def run(workers):
        return play_duplicate(CONFIG, "random", "call", make_agent, 30, seed=5, workers=workers,
                              chunk_deals=10)  # fmt: skip

    one, two = run(1), run(2)
    assert one["seat_values"] == two["seat_values"] and one["value"] == two["value"]
    assert one["chunk_deals"] == 10
    assert one["hands"] == 60 and one["unit"] == "bb_per_100"
    blueprint = play_duplicate(CONFIG, "strategies/hunl_100bb.npz", "random", make_agent, 300,
                               seed=1, workers=1)  # fmt: skip
    assert blueprint["value"] - blueprint["ci95"] > 0  # a card-blind bot that raises loses


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    return code, *capsys.readouterr()


def test_the_command_prints_bb_per_100_and_refuses_bad_bots(capsys):
    code, out, _ = run_cli(capsys, "match", "hunl(100)", "--bot", "call", "--opponent", "call",
                           "--hands", "20", "--workers", "1")  # fmt: skip
    assert code == 0 and "+0.00 ± 0.00 bb/100" in out and "40 hands (20 duplicate deals)" in out
    for bad in (("--bot", "no-such-bot", "--opponent", "call"),
                ("--bot", "resolve(turn=-1):call", "--opponent", "call")):  # fmt: skip
        code, _, err = run_cli(capsys, "match", "hunl(100)", *bad, "--hands", "2")
        assert code == 2 and "Traceback" not in err and err.strip()
        assert "deals" not in err  # refused before the progress bar starts
    code, _, err = run_cli(capsys, "match", "hunl(1e9)", "--bot", "call", "--opponent", "call")
    assert code == 2


@pytest.mark.parametrize("hands", ["0", "-3", "x"])
def test_absurd_hand_counts_exit_2(capsys, hands):
    argv = ["match", "hunl(100)", "--bot", "call", "--opponent", "call", "--hands", hands]
    assert main(argv) == 2
    assert "--hands" in capsys.readouterr().err


def test_the_command_builds_each_bot_once_in_its_own_process(capsys, monkeypatch):
    """A re-solving bot loads a 215 MB blueprint: the progress bar starts once the run has built
    its bots, instead of building them first just to refuse a bad one."""
    from solvers.agents import registry

    built = []

    def counting(name, config):
        built.append(name)
        return make_agent(name, config)

    monkeypatch.setattr(registry, "make_agent", counting)
    code, out, _ = run_cli(capsys, "match", "hunl(100)", "--bot", "call", "--opponent", "random",
                           "--hands", "4", "--workers", "1")  # fmt: skip
    assert code == 0 and "8 hands" in out
    assert sorted(built) == ["call", "random"]


# --- control variates (``--control-variates``) ----------------------------------------------


def flop_equity(c0: int, c1: int, flop) -> float:
    """Seat 0's share over every turn and river (phevaluator, pair by pair)."""
    dead = {*map(int, COMBO_CARDS[c0]), *map(int, COMBO_CARDS[c1]), *map(int, flop)}
    left = [c for c in range(52) if c not in dead]
    shares = [(1 + seat0_wins(c0, c1, (*flop, t, r))) / 2
              for i, t in enumerate(left) for r in left[i + 1 :]]  # fmt: skip
    return float(np.mean(shares))


def test_two_checking_stations_score_the_flop_equity_with_control_variates():
    """Nobody bets, so the turn's and the river's luck are all there is after the flop: the
    score less both is the big blind at stake times twice the flop equity less one."""
    match = DuplicateMatch(CONFIG, make_agent("call", CONFIG), make_agent("call", CONFIG), True)
    values = match.run_chunk(3, 0, 6)
    c0, c1, boards = deal(np.random.default_rng([3, 0]), 6)
    expected = np.array([100 * (2 * flop_equity(int(a), int(b), board[:3]) - 1)
                         for a, b, board in zip(c0, c1, boards, strict=True)])  # fmt: skip
    np.testing.assert_allclose(values[:, 0], expected, atol=1e-9)
    np.testing.assert_allclose(values[:, 1], -expected, atol=1e-9)
    chips = np.array([100 * seat0_wins(int(a), int(b), board)
                      for a, b, board in zip(c0, c1, boards, strict=True)])  # fmt: skip
    np.testing.assert_array_equal(values[:, 2], chips)  # the plain chips beside them
    assert np.abs(values[:, 0] - chips).max() > 50  # the luck taken out is real


def test_control_variates_keep_the_matchs_expectation():
    """The blueprint against always-call, 400 duplicate deals: the chips and the score less its
    luck differ by less than their paired interval, and the spread shrinks (0.77 of the
    variance over 1,000 deals, ``docs/lbr.md``)."""
    match = DuplicateMatch(CONFIG, make_agent("strategies/hunl_100bb.npz", CONFIG),
                           make_agent("call", CONFIG), True)  # fmt: skip
    assert_unbiased_and_tighter(
        np.concatenate([match.run_chunk(11, i, 100) for i in range(4)]), 0.95
    )


def test_representative_raises_are_left_uncorrected():
    """The chumps list min, pot and all-in for thousands of totals they draw among: weighing
    the draw by those chances would bias the score, so their actions carry no correction."""
    state = HunlState.initial(CONFIG)  # the small blind may raise
    board = np.zeros(0, dtype=int)
    for name, representative in (("call-raise", True), ("random", True),
                                 ("random-action", True), ("call", False),
                                 ("strategies/hunl_100bb.npz", False)):  # fmt: skip
        assert make_agent(name, CONFIG).policy(state, board).representative is representative
    allin = replay("r10000", CONFIG)  # no raise left: the chump's policy is exact again
    assert not make_agent("call-raise", CONFIG).policy(allin, board).representative


def test_the_command_prints_both_figures_with_control_variates(capsys, tmp_path):
    argv = ("match", "hunl(100)", "--bot", "strategies/hunl_100bb.npz", "--opponent", "call",
            "--hands", "12", "--workers", "1", "--control-variates")  # fmt: skip
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and "the chips of the same hands" in out
    code, out, _ = run_cli(capsys, *argv, "--json")
    result = json.loads(out)
    assert result["control_variates"] and result["plain"]["value"] != result["value"]


def test_a_re_solving_bot_keeps_no_solve_of_a_finished_deal():
    """Each deal's board is new, so the bot's solves of the last one are dropped: a match of
    any length holds one deal's solves at most, with the same chips as a bot that kept them."""
    bot = make_agent("resolve(from=river,iterations=12):call", CONFIG)
    match = DuplicateMatch(CONFIG, bot, make_agent("call", CONFIG))
    chips = match.run_chunk(5, 0, 3)
    assert bot.solves >= 3 and not bot._cache  # every deal reached the river and was solved
    keeping = make_agent("resolve(from=river,iterations=12):call", CONFIG)
    keeping.forget = lambda: None  # a bot that never forgets: the same play
    again = DuplicateMatch(CONFIG, keeping, make_agent("call", CONFIG)).run_chunk(5, 0, 3)
    np.testing.assert_array_equal(chips, again)
    assert keeping._cache
