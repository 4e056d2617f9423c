"""Commands no other test runs: headless ``play``, ``build-bots``, ``export-openspiel``, ``show``
without ``--node``, ``exploit``'s table, and the error path of each.

Expected figures come from outside the code under test: the brute-force Kuhn enumeration in
``tests/kuhn_brute_force.py``, Kuhn's closed-form equilibrium (seat 1 never bets, seat 2 bets J
1/3 and K after a check, calls a bet with Q 1/3 and K) and OpenSpiel's own best response.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from pokertui.cli import main
from tests import kuhn_brute_force as kuhn
from tests.conftest import STRATEGIES

KUHN_FILE = STRATEGIES / "kuhn.json"
HANDS = ["J", "Q", "K"]
ACTIONS = {"": ["check", "bet"], "c": ["check", "bet"], "c/b": ["fold", "call"],
           "b": ["fold", "call"]}  # fmt: skip


def write_kuhn(path, probs: dict[str, list[list[float]]]):
    """A hand-written Kuhn strategy file (no code under test writes it)."""
    nodes = {
        key: {"actions": ACTIONS[key], "hands": HANDS, "probs": rows} for key, rows in probs.items()
    }
    path.write_text(json.dumps({"game": "kuhn", "nodes": nodes}))
    return path


def every_node(row: list[float]) -> dict[str, list[list[float]]]:
    return {key: [row] * 3 for key in ACTIONS}


def file_probs(path) -> dict[str, np.ndarray]:
    raw = json.loads(path.read_text())["nodes"]
    return {key: np.array(node["probs"], dtype=float) for key, node in raw.items()}


def bot_mean(bot: dict, opponent: dict) -> float:
    """The bot's exact mean payoff per hand when seats alternate (half the hands in each)."""
    as_first = kuhn.seat0_value({"": bot[""], "c/b": bot["c/b"], "c": opponent["c"],
                                 "b": opponent["b"]})  # fmt: skip
    as_second = -kuhn.seat0_value({"": opponent[""], "c/b": opponent["c/b"], "c": bot["c"],
                                   "b": bot["b"]})  # fmt: skip
    return (as_first + as_second) / 2


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_user_error(code: int, err: str, needle: str) -> None:
    assert code == 2, err
    assert needle in err and "Traceback" not in err


# --- play --hands -----------------------------------------------------------------------------


CALLING_STATION = {"": [[1, 0]] * 3, "c": [[1, 0]] * 3, "c/b": [[0, 1]] * 3, "b": [[0, 1]] * 3}
"""``play --opponent call``: check when it can, else call."""


@pytest.mark.parametrize(
    ("bot", "opponent", "expected"),
    [
        # the equilibrium wins 1/9 a hand against a calling station (0 in seat 1, 2/9 in seat 2)
        ("equilibrium", "call", 1 / 9),
        # a maniac who always bets and calls loses 1/9 against the equilibrium, read from a file
        ("maniac", "equilibrium", -1 / 9),
        # uniform play against the maniac: -1/4 in seat 1, -1/2 in seat 2
        ("uniform", "maniac", -3 / 8),
        ("uniform", "random", 0.0),
    ],
)
def test_headless_play_scores_the_exact_ev(tmp_path, capsys, bot, opponent, expected):
    files = {
        "equilibrium": KUHN_FILE,
        "maniac": write_kuhn(tmp_path / "maniac.json", every_node([0, 1])),
        "uniform": write_kuhn(tmp_path / "uniform.json", every_node([0.5, 0.5])),
    }
    policies = {
        "call": {key: np.array(rows, dtype=float) for key, rows in CALLING_STATION.items()},
        "random": {key: np.full((3, 2), 0.5) for key in ACTIONS},
    }
    opponent_probs = policies.get(opponent) or file_probs(files[opponent])
    exact = bot_mean(file_probs(files[bot]), opponent_probs)
    assert exact == pytest.approx(expected, abs=1e-6)
    other = opponent if opponent in ("call", "random") else str(files[opponent])
    argv = ["play", "--bot", str(files[bot]), "--opponent", other, "--hands", "3000"]
    code, out, _ = run_cli(capsys, *argv, "--seed", "5", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["hands"] == 3000 and report["unit"] == "chips/hand"
    # seeded, so deterministic; 2 CI half-widths is about 4 standard errors
    assert abs(report["mean"] - exact) < 2 * report["ci95"]
    assert abs(report["ev_adjusted_mean"] - exact) < 2 * report["ev_adjusted_ci95"]
    assert report["net"] == pytest.approx(report["mean"] * 3000)
    code, out, _ = run_cli(capsys, *argv, "--seed", "5")
    assert code == 0
    assert f"{report['mean']:+.4f} ± {report['ci95']:.4f} chips/hand" in out


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--hands", "0"], "positive whole number"),
        (["--hands", "5", "--resume", "mine"], "does not combine"),
        (["--hands", "5", "--opponent", str(STRATEGIES / "leduc.json")], "but the bot plays"),
        (["--hands", "5", "--opponent", "/nonexistent/bot.json"], "cannot read"),
    ],
)
def test_play_refuses_bad_input(capsys, extra, needle):
    code, out, err = run_cli(capsys, "play", "--bot", str(KUHN_FILE), *extra)
    assert_user_error(code, err, needle)
    assert out == ""


def test_play_without_hands_opens_the_tui_with_the_options(monkeypatch):
    import pokertui.app
    import pokertui.commands.play

    seen = {}
    checked = []
    monkeypatch.setattr(pokertui.app, "run_app", lambda **kwargs: seen.update(kwargs) or 0)
    # the files and the terminal are checked first (tested in test_reliability_*); record only
    monkeypatch.setattr(pokertui.commands.play, "check_before_app", lambda *a: checked.append(a))
    assert main(["play", "--bot", str(KUHN_FILE), "--seed", "3", "--resume", "s1"]) == 0
    assert seen == {"bot": str(KUHN_FILE), "resume": "s1", "seed": 3}
    assert checked == [(str(KUHN_FILE), "s1")]


def test_opponent_policies_choose_what_they_promise():
    from pokertui.session import Session
    from pokertui.session.headless import opponent_policy
    from solvers.strategy_file import load_strategy

    leduc = load_strategy(STRATEGIES / "leduc.json")
    session = Session(leduc, seed=1, human_seat=1, review=False)
    rng = np.random.default_rng(0)
    call, rand = opponent_policy("call", leduc, rng), opponent_policy("random", leduc, rng)
    seen = {"call": set(), "random": set()}
    for _ in range(200):
        session.new_hand()
        while session.human_to_act:
            actions = session.node.actions
            choice = call(session)
            seen["call"].add(choice)
            expected = "call" if "call" in actions else "check"
            assert choice == expected, (session.node.key, actions)
            seen["random"].add(rand(session))
            session.act(choice)
    assert seen["call"] == {"call", "check"}
    assert seen["random"] >= {"fold", "call", "check", "raise"}


def test_file_policy_samples_the_files_probabilities(tmp_path):
    """From a file, seat 2 at 'c' bets J 1/3, Q never, K always (the shipped equilibrium)."""
    from pokertui.session import Session
    from pokertui.session.headless import opponent_policy
    from solvers.strategy_file import load_strategy

    maniac = load_strategy(write_kuhn(tmp_path / "maniac.json", every_node([1, 0])))
    policy = opponent_policy(str(KUHN_FILE), maniac, np.random.default_rng(2))
    session = Session(maniac, seed=4, human_seat=1, review=False)  # maniac file checks first
    bets, counts = np.zeros(3), np.zeros(3)
    for _ in range(3000):
        session.new_hand()
        assert session.node.key == "c"
        card = session.hand.deal.hands[1]
        choice = policy(session)
        counts[card] += 1
        bets[card] += choice == "bet"
        session.act("check")
        while session.human_to_act:
            session.act(session.node.actions[0])
    frequency = bets / counts
    assert frequency[1] == 0 and frequency[2] == 1
    assert frequency[0] == pytest.approx(1 / 3, abs=4 * np.sqrt(2 / 9 / counts[0]))


# --- build-bots -------------------------------------------------------------------------------


def test_build_bots_writes_solved_files_and_the_readme(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "build-bots", "--out", str(tmp_path), "--only", "kuhn.json",
                           "river_toy.json", "--json")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert [row["file"] for row in report["bots"]] == ["kuhn.json", "river_toy.json"]
    written_files = sorted(p.name for p in tmp_path.iterdir())
    assert written_files == ["README.md", "kuhn.json", "river_toy.json"]
    written = file_probs(tmp_path / "kuhn.json")
    # an equilibrium by brute force: nobody gains by deviating beyond the file's rounding
    value = kuhn.seat0_value(written)
    assert value == pytest.approx(-1 / 18, abs=1e-5)
    assert kuhn.best_response_value(written, 0) - value < 1e-5
    assert kuhn.best_response_value(written, 1) + value < 1e-5
    # seat 2's part of Kuhn's equilibrium is unique
    assert written["c"][:, 1] == pytest.approx([1 / 3, 0, 1], abs=1e-6)
    assert written["b"][:, 1] == pytest.approx([0, 1 / 3, 1], abs=1e-6)
    for row in report["bots"]:
        assert row["exploitability"] <= row["bound"]
    river = json.loads((tmp_path / "river_toy.json").read_text())
    assert river["measured"]["exploitability"] < 1e-4
    readme = (tmp_path / "README.md").read_text()
    assert readme.startswith("# Shipped strategies")
    table_rows = [line for line in readme.splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in table_rows] == ["kuhn.json", "river_toy.json"]
    shipped = file_probs(KUHN_FILE)
    for key, rows in written.items():
        np.testing.assert_allclose(rows, shipped[key], atol=1e-6, err_msg=key)


def test_build_bots_table_for_people_and_bad_input(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "build-bots", "--out", str(tmp_path), "--only", "kuhn.json")
    assert code == 0
    assert re.match(r"kuhn\.json\s+exploitability \d\.\d\de-\d\d", out)
    code, _, err = run_cli(capsys, "build-bots", "--out", str(tmp_path), "--only", "nosuch.json")
    assert_user_error(code, err, "unknown bot file(s): nosuch.json")
    code, _, err = run_cli(capsys, "build-bots", "--out", str(tmp_path / "kuhn.json"))
    assert_user_error(code, err, "is not a folder")


# --- export-openspiel -------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["leduc", "kuhn"])
def test_export_openspiel_evaluates_to_the_same_exploitability(tmp_path, capsys, spec):
    import pyspiel  # noqa: F401 - the test extra installs it: a missing peer must fail, not skip
    from open_spiel.python.algorithms import exploitability as os_exploitability

    from solvers.strategy_file.openspiel import policy_from_export

    # 100 iterations of vanilla CFR: OpenSpiel's own CFR is at 0.0957163530046 on Leduc there
    solved = tmp_path / f"{spec}.json"
    argv = ["solve", spec, "--algo", "cfr", "--iterations", "100", "--out", str(solved)]
    assert main(argv) == 0
    exported = tmp_path / f"{spec}_openspiel.json"
    code, out, _ = run_cli(capsys, "export-openspiel", str(solved), "--out", str(exported))
    assert code == 0
    document = json.loads(exported.read_text())
    info_states = {"leduc": 936, "kuhn": 12}[spec]
    assert out.strip() == f"wrote {info_states} information states to {exported}"
    assert len(document["policy"]) == info_states
    os_game, policy = policy_from_export(document)
    theirs = os_exploitability.exploitability(os_game, policy)
    code, out, _ = run_cli(capsys, "exploit", str(solved), "--json")
    ours = json.loads(out)["exploitability"]
    assert ours == pytest.approx(theirs, abs=1e-12)
    if spec == "leduc":
        assert theirs == pytest.approx(0.0957163530046, abs=1e-5)  # the file rounds to 1e-6
    else:
        probs = file_probs(solved)
        brute = kuhn.best_response_value(probs, 0) + kuhn.best_response_value(probs, 1)
        assert theirs == pytest.approx(brute / 2, abs=1e-12)


def test_export_openspiel_refuses_games_without_a_twin(tmp_path, capsys):
    out_file = tmp_path / "x.json"
    code, _, err = run_cli(capsys, "export-openspiel", str(STRATEGIES / "von_neumann.json"),
                           "--out", str(out_file))  # fmt: skip
    assert_user_error(code, err, "no OpenSpiel twin")
    assert not out_file.exists()
    code, _, err = run_cli(capsys, "export-openspiel", str(KUHN_FILE), "--out",
                           str(tmp_path / "missing" / "dir" / "x.json"))  # fmt: skip
    assert_user_error(code, err, "cannot write")


# --- show and exploit, for people ---------------------------------------------------------------


def test_show_summary_gives_the_closed_form_frequencies(capsys):
    """Over the reach range: seat 2 bets 4/9 after a check, seat 1 calls 7/24 facing it."""
    code, out, _ = run_cli(capsys, "show", str(KUHN_FILE), "--json")
    assert code == 0
    nodes = {row["node"]: row for row in json.loads(out)["nodes"]}
    assert list(nodes) == ["", "c", "c/b", "b"]
    assert nodes[""]["aggregate"] == pytest.approx([1, 0])
    assert nodes["c"]["aggregate"] == pytest.approx([5 / 9, 4 / 9], abs=1e-6)
    assert nodes["c/b"]["aggregate"] == pytest.approx([17 / 24, 7 / 24], abs=1e-6)
    assert nodes["b"]["aggregate"] == [None, None]  # seat 1 never bets
    assert [nodes[k]["player"] for k in nodes] == [0, 1, 0, 1]
    code, out, _ = run_cli(capsys, "show", str(KUHN_FILE))
    assert code == 0
    lines = {line.split("│")[1].strip(): line for line in out.splitlines() if "│" in line}
    assert "check 100.0%, bet 0.0%" in lines["''"]
    assert "check 55.6%, bet 44.4%" in lines["'c'"] and "│ 2 " in lines["'c'"]
    assert "fold 70.8%, call 29.2%" in lines["'c/b'"]
    assert "fold -, call -" in lines["'b'"]


def _table_rows(out: str) -> dict[str, list[str]]:
    rows = {}
    for line in out.replace("┃", "│").splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells:
            rows[cells[0]] = cells[1:]
    return rows


def test_exploit_table_shows_brute_force_best_responses(tmp_path, capsys):
    uniform = write_kuhn(tmp_path / "uniform.json", every_node([0.5, 0.5]))
    probs = file_probs(uniform)
    br = [kuhn.best_response_value(probs, seat) for seat in (0, 1)]
    assert br == pytest.approx([1 / 2, 5 / 12])  # NashConv 11/12
    # purified, ties go to the first action: everyone checks and folds
    pure = {key: np.tile([1.0, 0.0], (3, 1)) for key in ACTIONS}
    pure_br = [kuhn.best_response_value(pure, seat) for seat in (0, 1)]
    code, out, _ = run_cli(capsys, "exploit", str(uniform))
    assert code == 0
    rows = _table_rows(out)
    assert rows["chips unless stated"] == ["as saved", "purified", "threshold 0.15"]
    assert rows["best response, seat 1"][:2] == [f"{br[0]:+.6f}", f"{pure_br[0]:+.6f}"]
    assert rows["best response, seat 2"][:2] == [f"{br[1]:+.6f}", f"{pure_br[1]:+.6f}"]
    assert rows["exploitability"][0] == f"{sum(br) / 2:.4g}" == "0.4583"
    assert rows["in mbb/hand"][0] == "458.3"  # the ante is Kuhn's big blind
    assert rows["game value, seat 1"][0] == f"{kuhn.seat0_value(probs):+.6f}" == "+0.125000"
    assert rows["cost of the change"][1] == f"{(sum(pure_br) - sum(br)) / 2:+.4g}"
    assert rows["game value, seat 1"][2] == rows["game value, seat 1"][0]  # nothing below 0.15
    assert "recorded in the file" not in out  # a hand-written file records nothing

    code, out, _ = run_cli(capsys, "exploit", str(KUHN_FILE))
    rows = _table_rows(out)
    equilibrium = file_probs(KUHN_FILE)
    assert rows["best response, seat 1"][0] == f"{kuhn.best_response_value(equilibrium, 0):+.6f}"
    assert rows["best response, seat 1"][0] == "-0.055555"  # not +1/18: seat 1 loses
    assert rows["game value, seat 1"][0] == "-0.055556"
    assert re.search(r"recorded in the file: 1\.67e-07 chips", out)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["exploit", "/nonexistent/strategy.json"], "cannot read"),
        (["exploit", str(KUHN_FILE), "--threshold", "1.5"], "expected a number from 0 to 1"),
        (["show", str(KUHN_FILE), "--node", "c/c"], "not a decision node"),
        (["convert", str(KUHN_FILE), "--to", "readable", "--out", "/nonexistent/x.json"],
         "cannot write"),
    ],
)  # fmt: skip
def test_strategy_commands_refuse_bad_input(capsys, argv, needle):
    code, out, err = run_cli(capsys, *argv)
    assert_user_error(code, err, needle)
    assert out == ""


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["exploit", "/nonexistent/strategy.json"], "cannot read"),
        (["play", "--hands", "many"], "expected a whole number"),
        (["build-bots", "--only", "nosuch.json"], "unknown bot file"),
    ],
)
def test_a_real_process_prints_a_message_and_exits_2(argv, needle):
    result = subprocess.run(
        [sys.executable, "-m", "pokertui", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert needle in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_unexpected_failures_print_one_line_unless_debugging(monkeypatch, capsys):
    """A bug is reported in one line with exit 1; POKERTUI_DEBUG=1 lets the traceback through."""
    import pokertui.session.headless as headless

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(headless, "play_match", broken)
    argv = ["play", "--bot", str(KUHN_FILE), "--hands", "3"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 1 and out == ""
    assert "internal error: RuntimeError: boom" in err and "POKERTUI_DEBUG=1" in err
    monkeypatch.setenv("POKERTUI_DEBUG", "1")
    with pytest.raises(RuntimeError, match="boom"):
        main(argv)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(headless, "play_match", interrupted)
    code, _, err = run_cli(capsys, *argv)
    assert code == 130 and err == "pokertui: interrupted\n"
