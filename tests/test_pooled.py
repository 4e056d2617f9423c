"""``pokertui pool``: the seeds of one run pooled from their checkpoints, and paired deal by deal.

The references: a four-deal case by hand, and the figures of the bots' evaluation as
``docs/runs/README.md`` tabulates them, each computed when its run finished with a script of its
own from the checkpoint files kept in ``docs/runs/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokertui.cli import main
from tests.conftest import ROOT

RUNS = ROOT / "docs" / "runs"
LBR_RUN = {"command": "lbr", "game": "hunl(stack_bb=100,small_blind=50,big_blind=100)",
           "bot": "call", "action_set": "fcpa", "streets": ["turn", "river"],
           "chunk_deals": 2}  # fmt: skip


def write(path: Path, seed: int, chunks: dict[int, list[list[float]]], **run) -> Path:
    document = {"format": "pokertui-chunks", "version": 1,
                "run": {**LBR_RUN, **run, "seed": seed},
                "chunks": {str(i): rows for i, rows in chunks.items()}}  # fmt: skip
    path.write_text(json.dumps(document))
    return path


def pool(capsys, *argv) -> tuple[int, dict, str]:
    code = main(["pool", *map(str, argv), "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else {}, err


def test_four_deals_by_hand(capsys, tmp_path):
    """Duplicate averages 200, 0, 0 and 200 chips: mean 100 chips, 1,000 mbb at a 100-chip big
    blind; standard deviation sqrt(4 * 100^2 / 3) = 115.47 chips, so the interval is
    1.96 * 115.47 / 2 = 113.16 chips, 1,131.6 mbb. Paired with a run whose seed 1 finished the
    same chunk and seed 2 another one, only seed 1's two deals count: gaps 100 and -100 chips."""
    one = write(tmp_path / "a1.json", 1, {0: [[100, 300], [-100, 100]]})
    two = write(tmp_path / "a2.json", 2, {3: [[0, 0], [200, 200]]})
    code, result, _ = pool(capsys, one, two)
    assert code == 0
    pooled = result["pooled"]
    assert pooled["deals"] == 4 and pooled["hands"] == 8 and pooled["unit"] == "mbb_per_hand"
    assert pooled["value"] == pytest.approx(1000.0)
    assert pooled["ci95"] == pytest.approx(1.96 * (4 * 100**2 / 3) ** 0.5 / 2 * 10)
    assert pooled["seat_values"] == pytest.approx([500.0, 1500.0])
    assert [s["deals"] for s in pooled["seeds"]] == [2, 2]
    b1 = write(tmp_path / "b1.json", 1, {0: [[0, 200], [0, 200]]}, bot="random")
    b2 = write(tmp_path / "b2.json", 2, {0: [[0, 0], [0, 0]]}, bot="random")
    code, result, _ = pool(capsys, one, two, "--against", b1, b2)
    paired = result["paired"]
    assert code == 0 and paired["deals"] == 2 and paired["seeds"] == [1]
    assert paired["value"] == pytest.approx(0.0)  # gaps 200 - 100 and 0 - 100 chips
    assert paired["ci95"] == pytest.approx(1.96 * 2**0.5 * 100 / 2**0.5 * 10)


def test_match_checkpoints_pool_in_bb_per_100(capsys, tmp_path):
    game = "hunl(stack_bb=200,small_blind=50,big_blind=100)"
    one = write(tmp_path / "m.json", 7, {0: [[50, 150], [100, 100]]}, command="match",
                game=game, opponent="random")  # fmt: skip
    code, result, _ = pool(capsys, one)
    assert code == 0 and result["pooled"]["unit"] == "bb_per_100"
    assert result["pooled"]["value"] == pytest.approx(100.0)  # 100 chips a hand = 1 bb


def test_control_variate_runs_pool_with_either_estimate(capsys, tmp_path):
    rows = [[10, 20, 30, 40], [0, 0, 100, 100]]
    one = write(tmp_path / "c1.json", 1, {0: rows}, control_variates=True)
    two = write(tmp_path / "c2.json", 2, {0: rows}, control_variates="bets")
    code, result, _ = pool(capsys, one, two)
    assert code == 0 and result["pooled"]["run"]["control_variates"] == ["bets", "checkdown"]
    assert result["pooled"]["value"] == pytest.approx(75.0)  # (15 + 0) / 2 = 7.5 chips
    assert result["pooled"]["plain"]["value"] == pytest.approx(675.0)  # (35 + 100) / 2 chips
    plain = write(tmp_path / "p.json", 3, {0: [[1, 2], [3, 4]]})
    code, _, err = pool(capsys, one, plain)
    assert code == 2 and "control_variates" in err  # with and without do not pool


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"action_set": "56"}, "action_set"),
        ({"bot": "random"}, "bot"),
        ({"chunk_deals": 5}, "chunk_deals"),
        ({"files": {"b.npz": "sha256:11"}}, "other bytes"),
        ({"files": {"b.npz": "body-sha256:11"}}, "other bytes"),
    ],
)
def test_another_run_is_not_pooled(capsys, tmp_path, change, message):
    digest = "body-sha256:00" if "body" in str(change) else "sha256:00"
    one = write(tmp_path / "a.json", 1, {0: [[1, 2], [3, 4]]}, files={"b.npz": digest})
    other = write(tmp_path / "b.json", 2, {0: [[1, 2], [3, 4]]},
                  **{"files": {"b.npz": digest}, **change})  # fmt: skip
    code, _, err = pool(capsys, one, other)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_whole_file_digest_and_a_body_digest_pool(capsys, tmp_path):
    """Checkpoints written before bot files were named by their body (the shipped bots' old
    whole-file SHA-256) pool with newer ones: the two digests cannot be compared."""
    one = write(tmp_path / "a.json", 1, {0: [[1, 2], [3, 4]]}, files={"b.npz": "sha256:00"})
    other = write(tmp_path / "b.json", 2, {0: [[1, 2], [3, 4]]}, files={"b.npz": "body-sha256:11"})
    code, out, err = pool(capsys, one, other)
    assert code == 0, err


def test_bad_input_exits_2_with_a_message(capsys, tmp_path):
    one = write(tmp_path / "a.json", 1, {0: [[1, 2], [3, 4]]})
    empty = write(tmp_path / "e.json", 2, {})
    cases = [
        ((one, one), "twice"),
        ((empty,), "finished deal"),
        ((one, "--against", write(tmp_path / "x.json", 9, {0: [[0, 0], [0, 0]]}, bot="random")),
         "fewer than two"),
        ((tmp_path / "missing.json",), "missing.json"),
        ((write(tmp_path / "w.json", 1, {0: [[1, 2, 3], [1, 2, 3]]}),), "rows of 3"),
        ((write(tmp_path / "k.json", 1, {0: [[1, 2], [3, 4]]}, command="solve"),), "lbr or match"),
    ]
    for argv, message in cases:
        code, _, err = pool(capsys, *argv)
        assert code == 2 and message in err and "Traceback" not in err, (argv, err)


@settings(max_examples=60, deadline=None)
@given(document=st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["format", "version", "run", "chunks", "seed", "0", "game"]), inner,
        max_size=4),
    max_leaves=12))  # fmt: skip
def test_any_json_is_pooled_or_refused_with_exit_2(tmp_path_factory, document):
    path = tmp_path_factory.mktemp("any") / "c.json"
    path.write_text(json.dumps(document))
    assert main(["pool", str(path), "--json"]) in (0, 2)


@settings(max_examples=60, deadline=None)
@given(chunks=st.dictionaries(
    st.sampled_from(["0", "1", "7", "x", "-1"]),
    st.lists(st.lists(st.floats(-1e300, 1e300) | st.integers(-10**6, 10**6) | st.booleans(),
                      min_size=1, max_size=5), max_size=4), max_size=3),
    seed=st.integers(-2, 2) | st.booleans() | st.none(),
    game=st.sampled_from(["hunl(100)", "hunl(0)", "kuhn", 7]))  # fmt: skip
def test_any_chunks_are_pooled_or_refused_with_exit_2(tmp_path_factory, chunks, seed, game):
    path = tmp_path_factory.mktemp("chunks") / "c.json"
    document = {"format": "pokertui-chunks", "version": 1,
                "run": {**LBR_RUN, "seed": seed, "game": game}, "chunks": chunks}  # fmt: skip
    path.write_text(json.dumps(document))
    assert main(["pool", str(path), "--json"]) in (0, 2)


DOC_FIGURES = [
    # (set, seeds of the bot, the blueprint's too, hands, value, ci95, paired value, ci95)
    ("fcpa_3-4", "3201", 200, -346, 763, -1_007, 1_912),
    ("fcpa_3-4", "320[23]", 400, -519, 878, -2_093, 1_294),
    ("fcpa_3-4", "320[45]", 400, -1_156, 1_047, -2_287, 1_644),
    ("fcpa_3-4", "3206", 200, 1_380, 1_899, 917, 2_198),
    ("fc_3-4", "2201", 200, -414, 436, 40, 473),
    ("fcpa_1-4", "210[12]", 400, 979, 1_192, -985, 1_717),
    ("56_3-4", "510[234]", 50, -3_487, 4_173, -16_196, 10_074),
    ("56_3-4_cv", "520[1-5]", 100, -625, 442, -8_843, 3_008),
    ("56_3-4_cv", "52[01][0-9]", 220, -332, 572, -8_745, 2_254),
    ("56_3-4_bets", "530[1-6]", 120, -53, 483, -9_434, 2_675),
    ("56_3-4_bets", "5307", 20, -587, 743, -5_853, 5_957),
    ("56_3-4_bets", "530[78]", 40, -315, 955, -6_336, 3_375),
    ("56_3-4_bets", "531[01]", 40, 389, 1_473, -10_424, 4_308),
    ("56_3-4_bets", "532[0-6]", 140, -713, 296, -6_302, 2_094),
    ("56_3-4_bets", "53[0-9][0-9]", 470, -235, 252, -8_589, 1_342),
]


@pytest.mark.parametrize(("folder", "seeds", "hands", "value", "ci", "gap", "gap_ci"), DOC_FIGURES)
def test_the_documented_evaluation_recomputes(capsys, folder, seeds, hands, value, ci, gap,
                                              gap_ci):  # fmt: skip
    mine = sorted((RUNS / folder).glob(f"default_{seeds}.json"))
    theirs = sorted((RUNS / folder).glob(f"blueprint_{seeds}.json"))
    check_pooled(capsys, mine, theirs, (hands, value, ci), (gap, gap_ci))


def check_pooled(capsys, mine, theirs, pooled_figures, paired_figures) -> dict:
    """``mine`` pooled gives (hands, value, ci95) and, paired with ``theirs``, (value, ci95),
    each rounded to the mbb as the docs print them; returns ``mine``'s pooled figures."""
    code, result, _ = pool(capsys, *mine, "--against", *theirs)
    assert code == 0
    pooled, paired = result["pooled"], result["paired"]
    assert (pooled["hands"], round(pooled["value"]), round(pooled["ci95"])) == pooled_figures
    assert (round(paired["value"]), round(paired["ci95"])) == paired_figures
    return pooled


FLOP_FIGURES = [
    # (folder of the runs, of the blueprint's and the turn-and-river bot's on the same seeds,
    #  seeds, hands, value, ci95, less the blueprint, ci95, less the turn-and-river bot, ci95)
    ("56_3-4_flop", "56_3-4_bets", "53[0-9][0-9]", 320, -1_247, 714, -9_690, 1_871, -927, 687),
    ("fcpa_3-4_flop", "fcpa_3-4", "320[1-6]", 1_200, -1_045, 704, -2_134, 942, -659, 774),
    ("fc_3-4_flop", "fc_3-4", "2201", 200, -1_467, 912, -1_014, 845, -1_054, 772),
    ("fcpa_1-4_flop", "fcpa_1-4", "210[12]", 400, 49, 1_305, -1_915, 1_618, -930, 1_540),
]


@pytest.mark.parametrize(("folder", "others", "seeds", "hands", "value", "ci", "bp", "bp_ci", "tr",
                          "tr_ci"), FLOP_FIGURES)  # fmt: skip
def test_the_flop_bots_evaluation_recomputes(capsys, folder, others, seeds, hands, value, ci, bp,
                                             bp_ci, tr, tr_ci):  # fmt: skip
    """LBR against the default (the flop re-solved too), paired with the
    blueprint's and the turn-and-river bot's runs of the same seeds (docs/evaluation.md)."""
    mine = sorted((RUNS / folder).glob(f"default_{seeds}.json"))
    for who, gap, gap_ci in (("blueprint", bp, bp_ci), ("default", tr, tr_ci)):
        theirs = sorted((RUNS / others).glob(f"{who}_{seeds}.json"))
        check_pooled(capsys, mine, theirs, (hands, value, ci), (gap, gap_ci))


CV_FIGURES = [
    # (folder, seeds, hands, value, ci95, less the blueprint on the same deals, ci95): LBR with
    # control variates against the default, paired with the blueprint's runs in the same folder
    ("fcpa_1-4_cv_flop", "21[01][0-9]", 1_600, -299, 246, -1_463, 264),
    ("56_2-4_flop", "54[0-9][0-9]", 600, 382, 339, -12_123, 1_837),
]


@pytest.mark.parametrize(("folder", "seeds", "hands", "value", "ci", "gap", "gap_ci"), CV_FIGURES)
def test_the_default_bots_control_variate_rows_recompute(capsys, folder, seeds, hands, value,
                                                         ci, gap, gap_ci):  # fmt: skip
    """docs/evaluation.md's control-variate rows of the default bot."""
    mine = sorted((RUNS / folder).glob(f"default_{seeds}.json"))
    theirs = sorted((RUNS / folder).glob(f"blueprint_{seeds}.json"))
    assert mine and len(mine) == len(theirs)
    check_pooled(capsys, mine, theirs, (hands, value, ci), (gap, gap_ci))


APP_FIGURES = [
    # (folder, seeds, hands, value, ci95, less the blueprint, ci95, less resolve:, ci95): LBR 56
    # 2-4 against the app's bot, paired with the blueprint's and resolve:'s runs of 56_2-4_flop
    ("56_2-4_app", "5[0-9]*", 100, 370, 768, -12_003, 4_486, 95, 507),
    ("56_2-4_played", "5[0-9]*", 360, -106, 454, -12_682, 2_388, -599, 370),
]


@pytest.mark.parametrize(("folder", "seeds", "hands", "value", "ci", "bp", "bp_ci", "quick",
                          "quick_ci"), APP_FIGURES)  # fmt: skip
def test_the_app_bots_evaluation_recomputes(capsys, folder, seeds, hands, value, ci, bp, bp_ci,
                                            quick, quick_ci):  # fmt: skip
    """docs/evaluation.md's rows of the app's bot."""
    mine = sorted((RUNS / folder).glob(f"default_{seeds}.json"))
    for who, gap, gap_ci in (("blueprint", bp, bp_ci), ("default", quick, quick_ci)):
        theirs = sorted((RUNS / "56_2-4_flop").glob(f"{who}_{seeds}.json"))
        check_pooled(capsys, mine, theirs, (hands, value, ci), (gap, gap_ci))


def test_the_command_prints_both_figures(capsys):
    folder = RUNS / "56_3-4_cv"
    code = main(["pool", *map(str, sorted(folder.glob("default_*.json"))), "--against",
                 *map(str, sorted(folder.glob("blueprint_*.json")))])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "220 hands (110 duplicate deals): -332 ± 572 mbb a hand" in out
    assert "with control variates (checkdown); without them, on the same hands: +847 ± 1,869" in out
    assert "less strategies/hunl_100bb.npz on the same deals (200 hands" in out
    # each seed's own row, which docs/runs/README.md says the command prints
    assert "seed 5207: 20 hands, -1,074 ± 1,643 (plain -870 ± 1,883)" in out
    assert "seed 5211: 20 hands, -1,496 ± 746 (plain -825 ± 7,733)" in out


def test_the_flop_bots_head_to_head_recomputes(capsys):
    """The duplicate match of the default (the flop re-solved too) against the
    blueprint, seeds 41-48 (docs/evaluation.md): bb/100 with control variates and the chips' own
    figure."""
    files = sorted((RUNS / "h2h_flop").glob("default_*.json"))
    code, result, _ = pool(capsys, *files)
    pooled = result["pooled"]
    assert code == 0 and pooled["unit"] == "bb_per_100"
    assert (pooled["hands"], round(pooled["value"]), round(pooled["ci95"])) == (4_000, 12, 33)
    assert [round(v) for v in pooled["seat_values"]] == [15, 9]
    assert (round(pooled["plain"]["value"]), round(pooled["plain"]["ci95"])) == (7, 36)


def test_the_long_head_to_head_recomputes(capsys):
    """The long duplicate match of the default with DCFR's restarts against the blueprint
    (seeds from 9001 on, docs/evaluation.md): bb/100 with control variates and the chips' own."""
    files = sorted((RUNS / "h2h_long").glob("default_*.json"))
    code, result, _ = pool(capsys, *files)
    pooled = result["pooled"]
    assert code == 0 and pooled["unit"] == "bb_per_100"
    assert (pooled["hands"], round(pooled["value"]), round(pooled["ci95"])) == (20_000, 5, 13)
    assert [round(v) for v in pooled["seat_values"]] == [15, -5]
    assert (round(pooled["plain"]["value"]), round(pooled["plain"]["ci95"])) == (-10, 15)


LONG_LBR_FIGURES = [
    # (folder, hands, value, ci95, seat values, plain value, plain ci95, less the blueprint on
    #  the same deals, ci95, the blueprint alone on all its deals: hands, value, ci95):
    #  docs/evaluation.md's long LBR runs against the default
    ("fcpa_1-4_long", 10_000, 40, 113, [76, 4], -44, 282, -1_482, 120, (10_000, 1_522, 125)),
    ("fcpa_3-4_long", 10_000, -874, 111, [-451, -1_297], -909, 236, -1_864, 116,
     (10_000, 990, 68)),
]


@pytest.mark.parametrize(("folder", "hands", "value", "ci", "seats", "plain", "plain_ci", "gap",
                          "gap_ci", "blueprint"), LONG_LBR_FIGURES)  # fmt: skip
def test_the_long_lbr_runs_recompute(capsys, folder, hands, value, ci, seats, plain, plain_ci,
                                     gap, gap_ci, blueprint):  # fmt: skip
    mine = sorted((RUNS / folder).glob("default_*.json"))
    theirs = sorted((RUNS / folder).glob("blueprint_*.json"))
    pooled = check_pooled(capsys, mine, theirs, (hands, value, ci), (gap, gap_ci))
    assert pooled["unit"] == "mbb_per_hand"
    assert [round(v) for v in pooled["seat_values"]] == seats
    assert (round(pooled["plain"]["value"]), round(pooled["plain"]["ci95"])) == (plain, plain_ci)
    code, result, _ = pool(capsys, *theirs)
    alone = result["pooled"]
    assert code == 0 and (alone["hands"], round(alone["value"]), round(alone["ci95"])) == blueprint


def test_the_default_as_a_person_gets_it_plays_as_the_evaluated_bot(capsys):
    """``resolve:`` with its default caps and budgets on two idle cores, against the blueprint
    on seed 9001, paired deal by deal with the evaluation's ``resolve(from=flop,
    iterations=100):`` on the same deals (docs/evaluation.md): 225 of the 250 deals end the
    same, the gap is +0 ± 4 bb/100."""
    files = [RUNS / "h2h_default" / "default_9001.json", "--against",
             RUNS / "h2h_long" / "default_9001.json"]  # fmt: skip
    code, result, _ = pool(capsys, *files)
    pooled, paired = result["pooled"], result["paired"]
    assert code == 0 and pooled["run"]["bot"] == "resolve:strategies/hunl_100bb.npz"
    assert (pooled["hands"], round(pooled["value"]), round(pooled["ci95"])) == (500, 6, 52)
    assert (paired["deals"], round(paired["value"]), round(paired["ci95"])) == (250, 0, 4)
    default, evaluated = (json.loads(Path(f).read_text())["chunks"] for f in files[::2])
    same = sum(a == b for key in default for a, b in zip(default[key], evaluated[key], strict=True))
    assert same == 225


def test_the_blueprints_small_raise_rule_leaves_the_head_to_head_level(capsys):
    """The evaluation's bot against the blueprint whose answer to a raise below its smallest
    size moves folds to calls, seed 9001, paired deal by deal with ``h2h_long``'s run of the
    earlier rule (docs/evaluation.md): 142 of 250 deals end the same, the gap -0 ± 2 bb/100."""
    files = [RUNS / "h2h_mapping" / "default_9001.json", "--against",
             RUNS / "h2h_long" / "default_9001.json"]  # fmt: skip
    code, result, _ = pool(capsys, *files)
    pooled, paired = result["pooled"], result["paired"]
    assert code == 0 and pooled["run"]["opponent"] == "strategies/hunl_100bb.npz"
    assert (pooled["hands"], round(pooled["value"]), round(pooled["ci95"])) == (500, 5, 52)
    assert (paired["deals"], round(paired["value"]), round(paired["ci95"])) == (250, 0, 2)
    mapped, earlier = (json.loads(Path(f).read_text())["chunks"] for f in files[::2])
    same = sum(a == b for key in mapped for a, b in zip(mapped[key], earlier[key], strict=True))
    assert same == 142


def test_the_blueprints_small_raise_rule_against_lbr_56_recomputes(capsys):
    """LBR 56 on streets 2-4 against the blueprint with the rule, paired with the earlier
    rule's runs on the same deals (docs/evaluation.md): +12,368 ± 1,904 over 620 hands, the
    gap -174 ± 841 over the 600 both finished."""
    mine = sorted((RUNS / "56_2-4_mapping").glob("blueprint_*.json"))
    theirs = sorted((RUNS / "56_2-4_flop").glob("blueprint_*.json"))
    check_pooled(capsys, mine, theirs, (620, 12_368, 1_904), (-174, 841))


EXPLOIT_FIGURES = [
    # (opponent, hands, bb/100 with control variates, ci95, the plain chips' bb/100, ci95), as
    # docs/exploits.md prints them
    ("min-bet", 2000, 421, 84, 425, 120),
    ("overbet", 2000, 328, 104, 328, 140),
    ("flop-shove", 2000, 238, 77, 165, 110),
    ("check-raise", 2000, 427, 89, 420, 112),
    ("3bet", 2000, 363, 86, 406, 113),
]


@pytest.mark.parametrize(("opponent", "hands", "value", "ci", "plain", "plain_ci"), EXPLOIT_FIGURES)
def test_the_exploit_suite_recomputes(capsys, opponent, hands, value, ci, plain, plain_ci):
    """Each scripted opponent's duplicate match against the default bot (docs/exploits.md)."""
    code, result, _ = pool(capsys, RUNS / "exploit" / f"{opponent}_6101.json")
    pooled = result["pooled"]
    assert code == 0 and pooled["unit"] == "bb_per_100"
    assert pooled["run"]["opponent"] == opponent and pooled["run"]["control_variates"]
    assert (pooled["hands"], round(pooled["value"]), round(pooled["ci95"])) == (hands, value, ci)
    assert (round(pooled["plain"]["value"]), round(pooled["plain"]["ci95"])) == (plain, plain_ci)
