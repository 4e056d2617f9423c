"""Property tests of every CLI entry point: whatever a user types, a result (exit 0) or a clear
message (exit 2), never a traceback, an internal error or a hang.

Inputs are random and mutated game specs, ranges, boards, solver options and numbers, run
in-process through ``pokertui.cli.main`` with budgets small enough for the fast suite.
"""

import json
import signal
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pokertui.cli import main
from solvers.algorithms.registry import ALGORITHM_NAMES
from tests.conftest import STRATEGIES

SMALL_SPECS = [
    "kuhn",
    "kuhn(cards=4)",
    "kuhn(ante=2,bet=3)",
    "leduc(max_raises=1)",
    "river_toy(bets=[1,2])",
    "river_toy(pot=3,nuts=0.3)",
    "von_neumann(bins=5)",
    "matrix(rps)",
    "matrix([[0,-1],[1,0]])",
    "push_fold(8)",
]
NUMBERS = ["0", "-1", "1", "2", "1.5", "1e999", "-1e999", "inf", "nan", "1e308", "9" * 5000,
           "4e-320", "0x10", "", "3"]  # fmt: skip
SPEC_CHARS = "kuhnledcmatrix_()[],=.-+e0123456789 abcdefghijklmnopqrstuvwxyz"

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@contextmanager
def time_limit(seconds: int):
    """A hang fails the test instead of stalling the suite."""

    def fail(*_):
        raise AssertionError(f"no answer within {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_cli(capsys, argv: list[str], seconds: int = 60) -> tuple[int, str, str]:
    with time_limit(seconds):
        code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 2), (argv, code, err[-500:])
    assert "internal error" not in err and "Traceback" not in err, (argv, err[-500:])
    if code == 2:  # a message on stderr, or validate's report on stdout
        assert "error" in err or '"valid": false' in out, (argv, err[-300:])
    return code, out, err


@st.composite
def mutated(draw, bases: list[str], chars: str = SPEC_CHARS) -> str:
    text = draw(st.sampled_from(bases))
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "number", "nest"]))
        at = draw(st.integers(0, len(text)))
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(chars)) + text[at:]
        elif kind == "delete" and text:
            text = text[:at] + text[at + 1 :]
        elif kind == "replace" and text:
            text = text[:at] + draw(st.sampled_from(chars)) + text[at + 1 :]
        elif kind == "number":
            text = text[:at] + draw(st.sampled_from(NUMBERS)) + text[at:]
        else:
            depth = draw(st.sampled_from([2, 10, 1000]))
            text = text[:at] + "[" * depth + "1" + "]" * depth + text[at:]
    return text


specs = mutated(SMALL_SPECS) | st.text(alphabet=SPEC_CHARS, max_size=30)


@SETTINGS
@given(spec=specs)
@example(spec="kuhn(cards=" + "9" * 5000 + ")")
@example(spec="kuhn(ante=1e999)")
@example(spec="river_toy(bets=[1e999])")
@example(spec="matrix(" + "[" * 1200 + "]" * 1200 + ")")
@example(spec="matrix([[1e308,-1e308],[1,2]])")
def test_game_specs(capsys, spec):
    code, out, _ = run_cli(capsys, ["solve", spec, "--algo", "cfr+", "--iterations", "2",
                                    "--out", "/nonexistent-dir/x.json", "--json"])  # fmt: skip
    assert code == 2  # the output folder is missing: checked before the solve, after the spec
    if _cheap(spec):
        code, out, _ = run_cli(capsys, ["value", spec, "--json"])
        if code == 0:
            assert json.loads(out)["value"] is not None  # finite (NaN would print as null)


def _cheap(spec: str) -> bool:
    """Specs whose LP is quick whatever the mutation: no big decks, bins or matrices."""
    return len(spec) < 40 and not any(big in spec for big in ("99", "leduc", "push", "[[["))


algos = st.sampled_from([*ALGORITHM_NAMES, "?", "cfr++", ""])
option_keys = st.sampled_from(["alpha", "beta", "gamma", "delay", "alternating", "epsilon",
                               "seed", "weighting", "tolerance", "population", "output",
                               "game", "regret_floor", "opponent", "x"])  # fmt: skip
option_values = st.sampled_from([*NUMBERS, "true", "false", "uniform", "linear", "current",
                                 "0.5,0.5", "[1,0,0]", "maybe"])  # fmt: skip
number_flags = st.sampled_from(["--iterations", "--seconds", "--target", "--every",
                                "--checkpoint-every", "--seed"])  # fmt: skip


@SETTINGS
@given(
    algo=algos,
    spec=st.sampled_from(["kuhn", "matrix(rps)", "von_neumann(bins=4)", "leduc(max_raises=1)"]),
    options=st.lists(st.tuples(option_keys, option_values), max_size=3),
    numbers=st.lists(st.tuples(number_flags, st.sampled_from(NUMBERS)), max_size=3),
)
def test_solver_options(tmp_path_factory, capsys, algo, spec, options, numbers):
    out = tmp_path_factory.mktemp("solve") / "s.json"
    argv = ["solve", spec, "--algo", algo, "--out", str(out), "--json", "--iterations", "3"]
    for key, value in options:
        argv += ["--opt", f"{key}={value}"]
    for flag, value in numbers:
        if flag == "--iterations":
            value = value if value in ("0", "-1", "", "nan", "9" * 5000) else "2"
        if flag == "--seconds":
            value = value if value in ("0", "-1", "", "nan", "inf") else "0.2"
        argv += [flag, value]
    code, stdout, _ = run_cli(capsys, argv)
    if code == 0 and algo not in ("?",):
        final = json.loads(stdout.strip().splitlines()[-1])
        assert final["event"] == "done"
        assert main(["validate", str(out)]) == 0  # a solve never writes a file validate rejects
        capsys.readouterr()


cards = st.sampled_from(["", "Ts9s2d", "AhAh", "Ts9s2d4c5h", "Ts9s2d4c5h6h", "Xx", "ts9S", "2c"])
ranges = mutated(["AhKh", "QQ+,AKs", "22+", "AKo", "random", "JJ-99,AQs+", "T9s:0.5"],
                 chars="AKQJT98765432shdco+-,:.%0 ")  # fmt: skip


@SETTINGS
@given(
    r1=ranges,
    r2=ranges,
    board=cards,
    dead=cards,
    mc=st.sampled_from(
        [None, "0", "-1", "1", "1000", "20000", "1e999", "nan", "100000000000", "9" * 5000]
    ),  # fmt: skip
    seed=st.sampled_from([None, "-1", "0", "7", str(2**64), "1.5"]),
)
@example(r1="AhKh", r2="QQ+", board="", dead="", mc="1000000000", seed=None)
@example(r1="AhKh", r2="QQ+", board="", dead="", mc=str(2**63), seed="-1")
def test_equity(capsys, r1, r2, board, dead, mc, seed):
    argv = ["equity", r1, r2, "--board", board, "--dead", dead, "--json"]
    if mc is not None:
        argv += ["--mc", mc]
    else:
        argv += ["--mc", "5000"]  # keep auto/exact enumeration out of the fast suite
    if seed is not None:
        argv += ["--seed", seed]
    code, out, _ = run_cli(capsys, argv)
    if code == 0:
        payload = json.loads(out)
        assert abs(sum(payload["equity"]) - 1) < 1e-9


@pytest.mark.parametrize(
    "argv",
    [
        ["equity", "AhKh", "QQ+", "--seed", "-1"],
        ["equity", "AhKh", "QQ+", "--mc", "0"],
        ["equity", "AhKh", "QQ+", "--mc", "1000000000"],
        ["equity", "AhKh", "QQ+", "--mc", str(2**63)],
        ["play", "--hands", "0"],
        ["play", "--hands", "10", "--seed", "-3"],
        ["exploit", str(STRATEGIES / "kuhn.json"), "--threshold", "nan"],
    ],
)
def test_documented_bounds_exit_2(capsys, argv):
    code, _, err = run_cli(capsys, argv, seconds=10)
    assert code == 2


json_leaf = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)


@SETTINGS
@given(st.data())
def test_strategy_file_commands(tmp_path_factory, capsys, data):
    """Mutate a shipped strategy file anywhere; every command that reads it answers 0 or 2."""
    document = json.loads((STRATEGIES / "kuhn.json").read_text())
    node = data.draw(st.sampled_from(sorted(document["nodes"])))
    choice = data.draw(st.sampled_from(["leaf", "game", "node", "raw"]))
    if choice == "leaf":
        row = data.draw(st.integers(0, 2))
        document["nodes"][node]["probs"][row][0] = data.draw(json_leaf)
    elif choice == "game":
        document["game"] = data.draw(specs)
    elif choice == "node":
        document["nodes"][node] = data.draw(json_leaf | st.lists(json_leaf, max_size=3))
    text = json.dumps(document)
    if choice == "raw":
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(st.sampled_from(NUMBERS + ["[" * 200, "NaN", "}"])) + text[at:]
    folder = tmp_path_factory.mktemp("files")
    path = folder / "s.json"
    path.write_text(text)
    for argv in (["validate", str(path), "--json"], ["exploit", str(path), "--json"],
                 ["show", str(path), "--json"], ["convert", str(path), "--to", "readable"],
                 ["play", "--hands", "3", "--bot", str(path), "--json"]):  # fmt: skip
        run_cli(capsys, argv)
