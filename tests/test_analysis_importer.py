"""Reading hand histories for ``pokertui analyze``: what is kept, what is skipped and why, and
that no file, however broken, gets anything but an ``InputError`` out of the importer."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokertui.cli import main
from solvers.analysis.hand_record import HandSkipped
from solvers.analysis.importer import MAX_FILE_BYTES, read_hands
from solvers.analysis.options import app_options, raise_totals
from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig, HunlState, replay

DATA = Path(__file__).parent / "data" / "hand_histories"
NUTS = DATA / "stars_nuts_fold.txt"


def phh(**fields) -> str:
    """A heads-up PHH hand: p1 is the big blind (pokerkit's heads-up order)."""
    base = {
        "variant": '"NT"',
        "antes": "[0, 0]",
        "blinds_or_straddles": "[1, 2]",
        "min_bet": "2",
        "starting_stacks": "[200, 200]",
        "actions": '["d dh p1 AsKs", "d dh p2 7c2d", "p2 f"]',
        "players": '["Ann", "Bob"]',
        "hand": "7",
    }
    base.update(fields)
    return "\n".join(f"{k} = {v}" for k, v in base.items()) + "\n"


def write(tmp_path, name, text, encoding="utf-8") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return str(path)


def test_a_pokerstars_hand_in_the_games_chips():
    """$0.50/$1 with $100 stacks is hunl(100); the raise to $3 is r300, the flop bet of $4
    makes 300 + 400 = r700, the river shove of $93 puts the 10,000 chips in."""
    found = read_hands([str(NUTS)])
    assert found.formats[str(NUTS)] == "PokerStars" and not found.skipped
    (hand,) = found.hands
    assert hand.names == ("Hero", "Villain") and hand.stack == 10_000
    assert hand.actions == ("r300", "c", "c", "r700", "c", "c", "c", "r10000", "f")
    assert hand.holes[1] is None and hand.config == HunlConfig(100.0)
    assert hand.states()[-1].is_over


def test_acpc_logs_seat_the_big_blind_first():
    """ACPC positions: the first name is the big blind; raises are totals over the hand."""
    found = read_hands([str(DATA / "acpc_match.log")])
    first, second = found.hands
    assert first.names == ("bob", "alice") and second.names == ("alice", "bob")
    assert first.actions == ("r300", "c", "c", "r900", "c", "c", "c", "c", "c")
    assert second.actions == ("c", "c", "r250", "f") and first.stack == 20_000


def test_phh_blinds_of_any_size_convert_to_big_blinds(tmp_path):
    """Blinds 1/2 and stacks 200: a 100 bb game; a raise to 6 is r300 (3 bb)."""
    actions = '["d dh p1 AsKs", "d dh p2 7c2d", "p2 cbr 6", "p1 f"]'
    (hand,) = read_hands([write(tmp_path, "a.phh", phh(actions=actions))]).hands
    assert hand.stack == 10_000 and hand.actions == ("r300", "f")
    assert hand.names == ("Bob", "Ann")
    assert hand.holes == ((20, 1), (51, 47))  # 7c 2d, As Ks: rank * 4 + suit


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"antes": "[1, 1]"}, "antes"),
        ({"blinds_or_straddles": "[1, 3]"}, "blinds not 1:2"),
        ({"variant": '"FT"'}, "not no-limit hold'em"),
        ({"starting_stacks": "[10, 200]"}, "stack outside 10-250 bb"),
        ({"starting_stacks": "[1000, 1000]"}, "stack outside 10-250 bb"),
        ({"starting_stacks": "[1e40, 1e40]"}, "absurd amount"),
        ({"actions": '["d dh p1 AsKs", "d dh p2 7c2d", "p2 cbr 6"]'}, "unfinished hand"),
        ({"actions": '["d dh p1 AsKs", "p2 cbr 99999999999999999999999"]'}, "absurd amount"),
        ({"actions": '["d dh p1 AsKs", "p1 f"]'}, "illegal under the game's rules"),
    ],
)
def test_hands_the_game_cannot_hold_are_counted_by_reason(tmp_path, fields, reason):
    found = read_hands([write(tmp_path, "a.phh", phh(**fields))])
    assert found.hands == [] and dict(found.skipped) == {reason: 1}


def test_six_max_hands_other_variants_and_duplicates_are_skipped():
    found = read_hands([str(DATA / "stars_six_max.txt"), str(DATA / "stars_limit.txt"),
                        str(NUTS), str(NUTS)])  # fmt: skip
    assert len(found.hands) == 1
    assert dict(found.skipped) == {"more than two players": 1, "not no-limit hold'em": 1,
                                   "duplicate hand id": 1}  # fmt: skip


def test_a_session_file_with_the_same_numbers_is_no_duplicate(tmp_path):
    """Two sessions' exports both have a hand 1: PHH hands differ by their content."""
    other = '["d dh p1 AsKs", "d dh p2 7c2d", "p2 cc", "p1 cc", "d db 2c3c4c", "p1 cbr 2", "p2 f"]'
    found = read_hands([write(tmp_path, "a.phh", phh()),
                        write(tmp_path, "b.phh", phh(actions=other)),
                        write(tmp_path, "c.phh", phh())])  # fmt: skip
    assert len(found.hands) == 2 and dict(found.skipped) == {"duplicate hand id": 1}


def test_truncated_site_hands_are_skipped(tmp_path):
    text = NUTS.read_text().split("*** RIVER ***")[0]
    found = read_hands([write(tmp_path, "cut.txt", text)])
    assert found.hands == [] and dict(found.skipped) == {"unfinished hand": 1}


def test_files_that_are_no_hand_history_exit_2(tmp_path, capsys):
    for name, data in (("x.txt", b"Dear diary, today I played poker.\n"),
                       ("y.txt", "Café ♠".encode("cp1252", errors="replace")),
                       ("z.phhs", b"[1\nvariant = ")):  # fmt: skip
        path = tmp_path / name
        path.write_bytes(data)
        assert main(["analyze", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("pokertui: error: ") and err.count("\n") == 1
        assert "Traceback" not in err


def test_a_wrong_encoding_is_refused_and_a_named_one_read(tmp_path):
    text = NUTS.read_text().replace("Villain", "Zoé")
    path = write(tmp_path, "latin.txt", text, "cp1252")
    with pytest.raises(InputError, match="not UTF-8 text.*--encoding"):
        read_hands([path])
    (hand,) = read_hands([path], encoding="cp1252").hands
    assert hand.names == ("Hero", "Zoé")
    assert read_hands([write(tmp_path, "u16.txt", text, "utf-16")]).hands[0].names[1] == "Zoé"


def test_a_100_mb_file_is_refused_by_its_size_before_reading(tmp_path):
    path = tmp_path / "huge.txt"
    with open(path, "wb") as out:
        out.truncate(100 * 1024 * 1024)  # sparse: no 100 MB written
    assert os.path.getsize(path) > MAX_FILE_BYTES
    with pytest.raises(InputError, match="too big|larger|MB"):
        read_hands([str(path)])
    assert main(["analyze", str(path)]) == 2


def test_the_hero_is_the_one_name_with_cards_or_must_be_named(tmp_path, capsys):
    both = write(tmp_path, "s.phhs", "[1]\n" + phh() + "\n[2]\n" + phh(hand="8"))
    assert main(["analyze", both, "--bot", "random"]) == 2
    assert "name the hero with --hero (or --both): Ann, Bob" in capsys.readouterr().err
    assert main(["analyze", both, "--bot", "random", "--hero", "Carl"]) == 2
    assert "no hand has a player 'Carl'" in capsys.readouterr().err


def test_the_app_sizes_are_the_play_screens():
    """The analysis' options are the session's keys (min, 1/3, 1/2, 2/3, pot, all-in)."""
    from pokertui.session.hunl_hand import size_totals  # noqa: PLC0415

    config = HunlConfig(100.0)
    for betting in ("", "r250", "r250c/", "r250c/r400", "c", "r300r900", "r250c/cc/r500r1600"):
        state = replay(betting, config)
        assert raise_totals(state) == [total for _, total in size_totals(state)]
    opening = HunlState.initial(config)
    assert [str(a) for a in app_options(opening)] == ["f", "c", "r200", "r233", "r300",
                                                      "r10000"]  # fmt: skip
    # a facing-the-blind "pot": 100 + (150 + 50) = 300, 1/3 clamps to the min-raise, 2/3 233


def _raises_only_input_errors(paths, **kwargs) -> None:
    try:
        read_hands(paths, **kwargs)
    except InputError:
        pass


STARS = NUTS.read_text()
SCOPED = HealthCheck.function_scoped_fixture


@settings(max_examples=60, deadline=None, suppress_health_check=[SCOPED])
@given(cut=st.integers(0, len(STARS)), insert=st.text(max_size=30), junk=st.binary(max_size=60))
def test_fuzzed_site_text_never_raises_anything_but_input_errors(tmp_path, cut, insert, junk):
    mutated = STARS[:cut] + insert + STARS[cut + len(insert) :]
    _raises_only_input_errors([write(tmp_path, "f.txt", mutated)])
    path = tmp_path / "g.txt"
    path.write_bytes(STARS.encode()[:cut] + junk)
    _raises_only_input_errors([str(path)])


PHH_TEXT = phh(actions='["d dh p1 AsKs", "d dh p2 7c2d", "p2 cbr 6", "p1 cc", '
               '"d db 2c3c4c", "p1 cc", "p2 cc", "d db 5d", "p1 cc", "p2 cc", "d db Kd", '
               '"p1 cbr 10", "p2 f"]')  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[SCOPED])
@given(cut=st.integers(0, len(PHH_TEXT)), insert=st.text(max_size=20))
def test_fuzzed_phh_never_raises_anything_but_input_errors(tmp_path, cut, insert):
    mutated = PHH_TEXT[:cut] + insert + PHH_TEXT[cut + len(insert) :]
    _raises_only_input_errors([write(tmp_path, "f.phh", mutated)])


def test_a_skip_is_an_input_error():
    assert issubclass(HandSkipped, InputError)


def test_a_file_of_skipped_hands_exits_2_with_the_reasons(capsys):
    assert main(["analyze", str(DATA / "stars_six_max.txt"), "--bot", "random"]) == 2
    err = capsys.readouterr().err
    assert err == "pokertui: error: no hand to analyse: 1 more than two players\n"


def test_one_hand_reads_one_hand(capsys):
    """Counts in the report take the singular for one ("1 hand", "1 decision")."""
    path = Path(__file__).parent / "data" / "hand_histories" / "stars_nuts_fold.txt"
    assert main(["analyze", str(path), "--hero", "Hero", "--bot", "random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 hand, 4 decisions (1 with the chosen option valued)")
    assert "river         1 decision," in out
