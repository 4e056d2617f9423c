"""The one lazy algorithm registry: names, declared options, checks, and a quick command line."""

import json
import subprocess
import sys

import pytest

from pokertui.cli import main
from solvers.algorithms import ALGORITHMS, SolverError, make_solver
from solvers.algorithms.registry import (
    ALGORITHM_LIST,
    ALGORITHM_NAMES,
    check_options,
    parse_cli_options,
)
from solvers.games import load_game

GAME_FOR = {"rm": "matrix(rps)", "rm+": "matrix(rps)", "paper-cfr": "von_neumann(bins=10)"}


def test_the_launcher_and_the_cli_share_the_registry():
    from pokertui.runs import ALGORITHM_NAMES as launcher_names

    assert tuple(launcher_names) == ALGORITHM_NAMES
    assert set(ALGORITHMS) == set(ALGORITHM_NAMES) - {"lp"}


@pytest.mark.parametrize("algo", [a.name for a in ALGORITHM_LIST if a.name not in ("lp", "mccfr")])
def test_declared_defaults_are_what_the_solver_uses(algo):
    """Built with no options, a solver's own settings equal the registry's declared defaults
    (the registry must not describe options the solver does not have, or wrong defaults)."""
    solver = make_solver(load_game(GAME_FOR.get(algo, "kuhn")), algo)
    settings = solver.settings()
    entry = next(a for a in ALGORITHM_LIST if a.name == algo)
    for option in entry.options:
        if option.default is None or option.name not in settings:
            continue
        assert settings[option.name] == option.default, (algo, option.name)


def test_mccfr_declares_the_blueprint_solvers_defaults_and_refuses_tree_games():
    """mccfr solves only the full game (``runs/blueprint_build.py``); its declared defaults are
    ``MccfrOptions``'s, and a tree game is refused with a message."""
    from solvers.algorithms.blueprint_mccfr import MccfrOptions

    defaults = MccfrOptions()
    entry = next(a for a in ALGORITHM_LIST if a.name == "mccfr")
    checked = 0
    for option in entry.options:
        if option.default is not None:
            assert getattr(defaults, option.name) == option.default, option.name
            checked += 1
    assert checked >= 6
    with pytest.raises(SolverError, match="full game"):
        make_solver(load_game("kuhn"), "mccfr")


def test_algo_question_mark_lists_every_algorithm_with_options(capsys):
    assert main(["solve", "x", "--algo", "?"]) == 0
    text = capsys.readouterr().out
    for name in ALGORITHM_NAMES:
        assert f"\n{name} " in f"\n{text}"
    assert "--opt alpha=float in [0, 10]" in text and "--opt weighting=uniform|linear" in text


@pytest.mark.parametrize(
    ("pairs", "needle"),
    [
        (["gamma=1e308"], "out of range"),
        (["alpha=400", "beta=400"], "out of range"),
        (["game=x"], "unknown option 'game'; valid options for dcfr: regret_floor, alpha"),
        (["alpha=nan"], "finite"),
        (["alpha=inf"], "finite"),
        (["delay=1.5"], "whole number"),
        (["alternating=maybe"], "true or false"),
        (["alpha"], "key=value"),
        (["alpha=1", "alpha=2"], "twice"),
        (["output=best"], "average, current"),
    ],
)
def test_bad_cli_options_are_refused_with_the_valid_ones(pairs, needle):
    with pytest.raises(SolverError) as info:
        parse_cli_options("dcfr", pairs)
    assert needle in str(info.value)


def test_cli_options_are_typed_by_their_declaration():
    options = parse_cli_options("dcfr", ["alpha=2", "alternating=false", "delay=3"])
    assert options == {"alpha": 2.0, "alternating": False, "delay": 3}
    assert isinstance(options["alpha"], float)
    assert parse_cli_options("rm", ["opponent=0.5,0.25,0.25"]) == {"opponent": [0.5, 0.25, 0.25]}


def test_python_options_are_checked_too():
    with pytest.raises(SolverError, match="finite"):
        make_solver(load_game("kuhn"), "dcfr", gamma=float("nan"))
    with pytest.raises(SolverError, match="out of range"):
        check_options("os-mccfr", {"epsilon": 0.0})
    assert check_options("ga", {"population": 10.0}) == {"population": 10}


@pytest.mark.parametrize(
    "argv",
    [
        ["--opt", "gamma=1e308"],
        ["--opt", "alpha=400", "--opt", "beta=400"],
        ["--opt", "game=x"],
        ["--opt", "restart=1"],
        ["--seconds", "nan"],
        ["--seconds", "inf"],
        ["--target", "nan"],
        ["--every", "nan"],
        ["--every", "inf"],
        ["--checkpoint-every", "nan"],
        ["--iterations", "-1"],
        ["--iterations", "0"],
        ["--seed", "3"],  # dcfr is deterministic
    ],
)
def test_bad_solver_options_exit_2_before_any_work(tmp_path, capsys, argv):
    out = tmp_path / "x.json"
    code = main(["solve", "leduc", "--algo", "dcfr", "--iterations", "5", "--out", str(out),
                 "--json", *argv])  # fmt: skip
    assert code == 2
    captured = capsys.readouterr()
    assert "error" in captured.err and captured.out == ""  # no progress line was printed
    assert not out.exists() and not list(tmp_path.iterdir())


def _modules_after(argv: list[str]) -> set[str]:
    code = (
        "import sys; from pokertui.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "import json; print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_help_and_algorithm_list_import_no_solver_numpy_or_scipy():
    for argv in (["--help"], ["solve", "x", "--algo", "?"]):
        loaded = _modules_after(argv)
        heavy = {m for m in loaded if m.split(".")[0] in ("numpy", "scipy", "pydantic", "textual")}
        assert not heavy, (argv, sorted(heavy)[:5])
        light = {"solvers.algorithms.registry", "solvers.algorithms.options"}
        assert {m for m in loaded if m.startswith("solvers.algorithms.")} <= light


def test_a_cfr_solve_does_not_import_scipy_optimize_or_other_solvers(tmp_path):
    out = tmp_path / "k.json"
    loaded = _modules_after(["solve", "kuhn", "--algo", "cfr+", "--iterations", "5",
                             "--out", str(out), "--json"])  # fmt: skip
    assert out.exists()
    assert "scipy.optimize" not in loaded
    assert not {"solvers.algorithms.genetic", "solvers.algorithms.sampling"} & loaded
