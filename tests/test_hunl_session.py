"""The full-game play session, driven without a UI: dealing, sizes, results, scores, saves and
hand histories (loaded back by pokerkit, an independent implementation of the rules)."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from pokertui.session.hunl_hand import HunlActionError
from pokertui.session.hunl_headless import play_hunl_match
from pokertui.session.hunl_saves import load_hunl_session, save_hunl_session
from pokertui.session.hunl_session import HunlSession
from pokertui.session.phh import session_phhs
from pokertui.session.saves import SaveError
from solvers.agents.chumps import AlwaysCall, RandomAgent
from solvers.cards.deck import cards_str
from solvers.games.hunl.rules import Action, HunlConfig

CONFIG = HunlConfig(100)


def session(agent=None, seed=1, seat=None) -> HunlSession:
    return HunlSession(CONFIG, agent or AlwaysCall(), bot_name="call", human_seat=seat, seed=seed)


def test_deal_seats_and_first_action():
    s = session(seed=3)
    for number in range(1, 7):
        hand = s.new_hand()
        cards = [*hand.hole[0], *hand.hole[1], *hand.board]
        assert len(set(cards)) == 9 and all(0 <= c < 52 for c in cards)
        assert hand.human_seat == (number - 1) % 2  # alternating, button on odd hands
        if hand.human_seat == 0:
            assert s.human_to_act and s.state.betting == ""  # the button acts first
        else:
            assert s.state.betting == "c" and s.human_to_act  # the bot limped (always-call)
        while s.human_to_act:
            s.act("c")
    assert s.hand_over


def test_size_keys_follow_the_pot():
    s = session(seat=0, seed=2)
    s.new_hand()
    sizes = dict(s.size_totals())
    # preflop facing the big blind: a pot raise is to 100 + (150 + 50) = 300 (3bb)
    assert sizes["pot"] == 300 and sizes["min"] == 200 and sizes["allin"] == 10_000
    assert sizes["1/2"] == 200  # 100 + 100 is the min-raise anyway
    assert sizes["2/3"] == 233
    s.act("pot")
    # the bot called: the flop, pot 600; the big blind (the bot) acts first and checks
    assert s.state.betting == "r300c/c" and s.human_to_act
    sizes = dict(s.size_totals())
    assert sizes["pot"] == 300 + 600 and sizes["1/3"] == 300 + 200 and sizes["1/2"] == 600
    assert [o.label for o in s.options()][:2] == ["check", "bet 1bb"]
    s.act_amount("4.5bb")  # typed: this street's bet in big blinds
    assert s.state.committed == (750, 750)  # the bot called 450 more


def test_illegal_amounts_are_clear_errors():
    s = session(seat=0, seed=2)
    s.new_hand()
    with pytest.raises(HunlActionError, match="between 200 and 10000"):
        s.act_amount("150")
    with pytest.raises(HunlActionError, match="between 200 and 10000"):
        s.act_amount("100.5bb")
    for junk in ("lots", "nan", "inf", "1e400", "-5"):
        with pytest.raises(HunlActionError):
            s.act_amount(junk)
    with pytest.raises(HunlActionError):
        s.act("r99999999")
    assert s.state.betting == ""  # nothing was played
    s.act("f")
    with pytest.raises(HunlActionError, match="not your turn"):
        s.act("c")


class BetsThreeBigBlinds:
    """Limps or checks preflop, then bets 300 chips into any unbet street and calls a raise."""

    name = "bets"

    def act(self, state, board, combo, rng):
        legal = state.legal()
        if state.street > 0 and legal.call_amount == 0 and legal.min_raise_to is not None:
            return Action("r", state.committed[state.to_act] + 300)
        return Action("c")


def test_typed_amounts_are_refused_in_the_dialogs_terms():
    """The dialog takes this street's total; its errors count the same way, in chips and big
    blinds, and say "bet" with nothing to raise. Ranges by hand: stacks of 10,000 chips."""
    s = session(seat=0, seed=2)
    s.new_hand()  # the button facing the big blind: raise to 200 (min) up to 10,000
    rule = "a raise must be to between 200 and 10000 chips (2bb to 100bb) this street"
    with pytest.raises(HunlActionError) as refused:
        s.act_amount("0.5bb")
    assert str(refused.value) == f"{rule}, not 50 (0.5bb)"
    s.act("r300")  # the bot calls, then checks the flop: 300 in each, nothing bet yet
    rule = "a bet must be between 100 and 9700 chips (1bb to 97bb) this street"
    with pytest.raises(HunlActionError) as refused:
        s.act_amount("0.5bb")
    assert str(refused.value) == f"{rule}, not 50 (0.5bb)"
    assert s.amount_hint() == "legal: 100 to 9700 chips (1bb to 97bb)"  # the dialog's hint
    with pytest.raises(HunlActionError) as refused:
        s.act_amount("-3")
    assert str(refused.value) == f"{rule}, not -3 (-0.03bb)"
    with pytest.raises(HunlActionError) as refused:
        s.act_amount("9701")
    assert str(refused.value) == f"{rule}, not 9701 (97.01bb)"
    for junk in ("abc", "1e999", "nan"):
        with pytest.raises(HunlActionError) as refused:
            s.act_amount(junk)
        assert str(refused.value) == (
            f"{rule}, not '{junk}': type chips (750) or big blinds (7.5bb)"
        )
    assert s.state.betting == "r300c/c"  # nothing was played
    s.act_amount("97bb")  # the whole stack: this street's 9,700 on top of 300
    assert s.state.committed == (10_000, 10_000)

    facing = HunlSession(CONFIG, BetsThreeBigBlinds(), bot_name="bets", human_seat=1, seed=3)
    facing.new_hand()  # the bot limped
    facing.act("c")  # check the option: the flop, 100 in each
    facing.act("c")  # check; the bot bets 300 of this street
    assert facing.state.betting == "cc/cr400"
    rule = "a raise must be to between 600 and 9900 chips (6bb to 99bb) this street"
    with pytest.raises(HunlActionError) as refused:
        facing.act_amount("4.5bb")
    assert str(refused.value) == f"{rule}, not 450 (4.5bb)"
    facing.act_amount("6bb")
    assert facing.state.betting == "cc/cr400r700c/"


def _winner(hole, board) -> int | None:
    scores = [evaluate_cards(*hole[s], *board) for s in (0, 1)]
    return None if scores[0] == scores[1] else int(scores[1] < scores[0])


def test_results_follow_the_cards_and_the_score_is_bb_per_100():
    s = session(RandomAgent(), seed=7)
    results = []
    for _ in range(60):
        s.new_hand()
        while s.human_to_act:
            s.act("c")
        hand = s.hand
        put = s.state.committed
        if s.state.folded >= 0:
            expected = put[s.state.folded] * (1 if s.state.folded != hand.human_seat else -1)
        else:
            winner = _winner(hand.hole, list(hand.board))
            expected = 0 if winner is None else put[1 - winner] * (
                1 if winner == hand.human_seat else -1)  # fmt: skip
        assert hand.result == expected
        results.append(expected)
    summary = s.summary()
    assert summary["unit"] == "bb/100" and summary["hands"] == 60
    assert summary["mean"] == pytest.approx(np.mean(results))  # chips/hand = bb/100 at bb 100
    sd = np.std(results, ddof=1)
    assert summary["ci95"] == pytest.approx(1.96 * sd / np.sqrt(60))


def test_flop_all_in_is_scored_by_equity_against_the_bots_cards():
    s = session(seed=5, seat=0)
    for _ in range(40):
        s.new_hand()
        s.act("c")  # limp; the bot checks
        s.act("allin")  # shove the flop; always-call calls
        hand = s.hand
        assert hand.showdown and s.state.all_in
        me, bot = hand.hole[0], hand.hole[1]
        flop = list(hand.board[:3])
        rest = [c for c in range(52) if c not in {*me, *bot, *flop}]
        won = 0.0
        runs = list(combinations(rest, 2))
        for extra in runs:
            w = _winner((me, bot), [*flop, *extra])
            won += 0.5 if w is None else float(w == 0)
        assert hand.adjusted == pytest.approx(won / len(runs) * 20_000 - 10_000, abs=1e-6)


def test_live_numbers_are_cached_and_kept_for_review():
    s = session(seat=1, seed=4)
    s.new_hand()  # the bot limped
    s.act("c")  # check the option: the flop, the big blind (we) act first
    numbers = s.live()
    assert s.live() is numbers
    assert numbers.pot == 200 and numbers.to_call == 0
    s.act("allin")
    step = next(st for st in s.hand.steps if st.action == "r10000")
    assert step.equity == pytest.approx(numbers.equity)
    valued = dict((token, ev) for token, ev in step.evs)
    assert valued["r10000"] == pytest.approx(numbers.equity * 20_000 - 9_900)


def test_corrupt_or_tampered_saves_are_refused(tmp_path):
    s = session(seed=12)
    s.new_hand()
    s.act("f")
    path = save_hunl_session(s, tmp_path / "full.json")
    document = json.loads(path.read_text())
    document["hands"][0]["result"] = 5_000  # a better result than the cards gave
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(document))
    with pytest.raises(SaveError, match="does not follow"):
        load_hunl_session(bad)
    document["hands"][0]["result"] = -50
    document["hands"][0]["betting"] = "r50"
    bad.write_text(json.dumps(document))
    with pytest.raises(SaveError):
        load_hunl_session(bad)
    document["game"] = "hunl(stack_bb=9000)"
    bad.write_text(json.dumps(document))
    with pytest.raises(SaveError, match="stack"):
        load_hunl_session(bad)
    (tmp_path / "junk.json").write_text("{ not json")
    with pytest.raises(SaveError):
        load_hunl_session(tmp_path / "junk.json")
    # a second save keeps the first as the backup, which a broken save falls back to
    save_hunl_session(s, path)
    path.write_text("garbage")
    restored, warning = load_hunl_session(path)
    assert warning and "backup" in warning and len(restored.hands) == 1


def test_phh_histories_load_in_pokerkit_with_the_same_results():
    from pokerkit import HandHistory

    report, played = play_hunl_match(CONFIG, RandomAgent(), RandomAgent(), 150, seed=3)
    text = session_phhs(CONFIG, played.hands, human="opponent", bot="bot")
    histories = list(HandHistory.loads_all(text))
    assert len(histories) == 150
    showdowns = 0
    for hand, history in zip(played.hands, histories, strict=True):
        final = list(history)[-1]
        # pokerkit's p1 is the big blind (our seat 1), p2 the button (seat 0)
        human_stack = CONFIG.stack + hand.result
        bot_stack = CONFIG.stack - hand.result
        stacks = {hand.human_seat: human_stack, 1 - hand.human_seat: bot_stack}
        assert list(final.stacks) == [stacks[1], stacks[0]]
        dealt = "".join(repr(c) for cards in final.board_cards for c in cards)
        assert dealt == cards_str(hand.shown_board)
        showdowns += hand.showdown
    assert 0 < showdowns < 150


def test_headless_call_against_call_breaks_even():
    report, _ = play_hunl_match(CONFIG, AlwaysCall(), AlwaysCall(), 3_000, seed=1)
    assert report["hands"] == 3_000 and report["unit"] == "bb/100"
    assert abs(report["mean"]) < report["ci95"] * 1.5  # zero-sum, symmetric: zero on average
    assert report["ci95"] < 10  # every hand is a one-big-blind showdown


def test_bot_answers_are_reproducible_by_seed():
    first, _ = play_hunl_match(CONFIG, RandomAgent(), AlwaysCall(), 200, seed=9)
    again, _ = play_hunl_match(CONFIG, RandomAgent(), AlwaysCall(), 200, seed=9)
    other, _ = play_hunl_match(CONFIG, RandomAgent(), AlwaysCall(), 200, seed=10)
    assert first == again and first["net"] != other["net"]


def test_act_accepts_acpc_tokens_and_actions():
    s = session(seat=0, seed=2)
    s.new_hand()
    s.act("r250")
    assert s.state.betting == "r250c/c"
    s.act(Action("c"))
    assert s.state.betting == "r250c/cc/c"
    s.act("R1000")
    assert s.state.betting == "r250c/cc/cr1000c/c"


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    from pokertui.cli import main

    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_headless_match_and_history(capsys, tmp_path):
    history = tmp_path / "match.phhs"
    code, out, err = run_cli(
        capsys, "play", "--game", "hunl(stack_bb=50)", "--bot", "random", "--opponent", "call",
        "--hands", 120, "--seed", 4, "--history", history, "--json",
    )  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert report["game"] == "hunl(stack_bb=50,small_blind=50,big_blind=100)"
    assert report["hands"] == 120 and report["unit"] == "bb/100"
    from pokerkit import HandHistory

    histories = list(HandHistory.loads_all(history.read_text()))
    assert len(histories) == 120 and histories[0].starting_stacks == [5_000, 5_000]
    code, out, _ = run_cli(capsys, "play", "--game", "hunl", "--hands", 10, "--bot", "call")
    assert code == 0 and "bb/100" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "hunl(stack_bb=5)"], "between 10 and 250"),
        (["--game", "hunl(stack_bb=100", "--bot", "call"], "game spec"),
        (["--game", "hunl", "--bot", "slumbot"], "built-in bots"),
        (["--game", "hunl", "--bot", "call", "--opponent", "nobody"], "built-in bots"),
        (["--game", "hunl", "--history", "/no/such/folder/h.phhs"], "does not exist"),
        (["--game", "hunl", "--resume", "x"], "resume"),
        (["--history", "h.phhs"], "--game"),
    ],
)
def test_cli_mistakes_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, "play", *argv, "--hands", 5)
    assert code == 2 and message in err and "Traceback" not in err


def test_decisions_played_before_their_numbers_are_analysed_for_the_review():
    s = session(seat=1, seed=4)
    s.new_hand()
    s.act("c")  # no live numbers were asked for
    state_before = s.state
    s.act("allin")
    hand = s.hand
    assert all(step.equity is None for step in hand.steps)
    assert s.fill_review(hand) and not s.fill_review(hand)
    check, shove = (st for st in hand.steps if st.seat == 1)
    assert 0 < check.equity < 1 and 0 < shove.equity < 1
    # the flop decision's shove against always-call: equity times both stacks, less the risk
    valued = dict((token, ev) for token, ev in shove.evs)
    assert state_before.pot == 200
    assert valued["r10000"] == pytest.approx(shove.equity * 20_000 - 9_900)
    headless = HunlSession(CONFIG, AlwaysCall(), bot_name="call", seed=1, review=False)
    headless.new_hand()
    while headless.human_to_act:
        headless.act("c")
    assert not headless._pending


def test_shipped_bot_names_resolve_and_the_default_follows_the_depth(tmp_path):
    from pokertui.paths import ANALYSIS_RESOLVE, resolve_hunl_bot, with_resolve_options

    assert resolve_hunl_bot(None, tmp_path, 100) == "call"  # nothing shipped yet
    assert resolve_hunl_bot("random", tmp_path, 100) == "random"
    shipped = tmp_path / "hunl_100bb.bp"
    shipped.write_bytes(b"x")
    # the re-solving default, its flop solve seeing the turn
    default = f"resolve(flop-tree=turn,flop-sample=10):{shipped}"
    assert resolve_hunl_bot(None, tmp_path, 100) == default
    assert resolve_hunl_bot("  ", tmp_path, 100) == default
    assert resolve_hunl_bot("resolve:", tmp_path, 100) == f"resolve:{shipped}"  # as typed
    # options added to a bot's own, which come last and win
    assert with_resolve_options(default, "flop=3,turn=1") == (
        f"resolve(flop=3,turn=1, flop-tree=turn,flop-sample=10):{shipped}"
    )
    assert with_resolve_options("resolve-safe:call", "turn=1") == "resolve-safe(turn=1):call"
    assert with_resolve_options("call", "turn=1") == "call"
    # the analyzer's model plays the quick flop
    assert resolve_hunl_bot(None, tmp_path, 100, ANALYSIS_RESOLVE) == f"resolve:{shipped}"
    assert resolve_hunl_bot("hunl_100bb", tmp_path, 200) == str(shipped)  # the blueprint alone
    assert resolve_hunl_bot("resolve(turn=2):hunl_100bb", tmp_path, 200) == (
        f"resolve(turn=2):{shipped}"
    )
    assert resolve_hunl_bot("resolve-safe:call", tmp_path, 100) == "resolve-safe:call"
    assert resolve_hunl_bot("resolve(flop=15):", tmp_path, 100) == f"resolve(flop=15):{shipped}"
    assert resolve_hunl_bot("resolve:", tmp_path, 200) == "resolve:call"  # none of this depth
    assert resolve_hunl_bot(None, tmp_path, 200) == "call"
    assert resolve_hunl_bot("nothing_here", tmp_path, 100) == "nothing_here"


def test_the_analyzers_model_is_the_quick_flop_with_its_budgets_scaled():
    from pokertui.commands.analyze import model_bots
    from tests.conftest import STRATEGIES

    shipped = STRATEGIES / "hunl_100bb.npz"
    assert model_bots(None, {10_000}, shipped=STRATEGIES) == {10_000: f"resolve:{shipped}"}
    scaled = model_bots(None, {10_000}, think=2.0, shipped=STRATEGIES)
    assert scaled == {10_000: f"resolve(flop=6,turn=2,river=0.2):{shipped}"}
    named = "resolve(flop-tree=turn,flop-sample=10):hunl_100bb"
    assert model_bots(named, {10_000}, shipped=STRATEGIES) == {
        10_000: f"resolve(flop-tree=turn,flop-sample=10):{shipped}"
    }


def test_warm_up_asks_every_street_once():
    from pokertui.session.hunl_session import warm_up

    seen = []

    class Recording(AlwaysCall):
        def policy(self, state, board):
            seen.append((state.street, len(board), state.to_act))
            return super().policy(state, board)

    warm_up(Recording(), CONFIG)
    assert seen == [(0, 0, 0), (1, 3, 1), (2, 4, 1), (3, 5, 1)]


def test_a_bot_breaking_the_rules_is_a_clear_error():
    from pokertui.session.hunl_session import BotError
    from solvers.errors import InputError

    class Cheater(AlwaysCall):
        name = "cheater"

        def act(self, state, board, combo, rng):
            return Action("r", 50)  # below any raise

    s = HunlSession(CONFIG, Cheater(), bot_name="cheater", human_seat=1, seed=1)
    with pytest.raises(BotError, match="cheater chose r50") as caught:
        s.new_hand()
    assert isinstance(caught.value, InputError)


def test_preflop_all_in_is_scored_by_sampled_equity_against_the_bots_cards():
    import eval7

    s = session(seed=8, seat=0)
    checked = 0
    while checked < 6:
        s.new_hand()
        s.act("allin")  # always-call calls: all-in before the flop
        hand = s.hand
        me = [eval7.Card(cards_str([card])) for card in hand.hole[0]]
        reference = eval7.py_hand_vs_range_monte_carlo(
            me, eval7.HandRange(cards_str(hand.hole[1])), [], 1_000_000
        )
        # 20,000 sampled boards: a standard error of at most 0.35% of equity (70 chips)
        assert hand.adjusted == pytest.approx(reference * 20_000 - 10_000, abs=300)
        checked += 1


def test_cli_table_needs_a_terminal_and_a_readable_bot(capsys, tmp_path):
    code, _, err = run_cli(capsys, "play", "--game", "hunl(stack_bb=100)", "--bot", "call")
    assert code == 2 and "terminal" in err
    junk = tmp_path / "bot.npz"
    junk.write_bytes(b"PK\x03\x04 not really a zip")
    code, _, err = run_cli(capsys, "play", "--game", "hunl", "--bot", junk, "--hands", 3)
    assert code == 2 and "Traceback" not in err and str(junk) in err
