"""The one run request: it writes itself as the child's argv and reads back equal, through both
its own parser and the ``pokertui solve`` command line; targets in chips or percent of the pot;
bad input is an ``InputError``; and importing it (or the app's run handle) loads no numpy."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokertui.cli import build_parser
from pokertui.runs import command
from solvers.algorithms.registry import ALGORITHM_LIST
from solvers.errors import InputError
from solvers.runs.request import SPOT_TARGET, RunRequest, Target

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
PATHS = TEXT.map(Path)


def _float_in(option) -> st.SearchStrategy[float]:
    low = -1e6 if option.low is None else option.low
    high = 1e6 if option.high is None else option.high
    return st.floats(low, high, exclude_min=option.low_open, allow_nan=False)


def _value(option) -> st.SearchStrategy:
    if option.kind == "bool":
        return st.booleans()
    if option.kind == "int":
        low = 0 if option.low is None else int(option.low) + (1 if option.low_open else 0)
        return st.integers(low, 10**9 if option.high is None else int(option.high))
    if option.kind == "float":
        return _float_in(option)
    if option.kind == "floats":
        return st.lists(_float_in(option), min_size=1, max_size=5)
    if option.kind == "text":
        return TEXT.map(str.strip).filter(lambda text: 0 < len(text) <= 2000)
    return st.sampled_from(option.choices)


TARGETS = st.one_of(
    st.builds(Target, st.floats(0, 1e12, exclude_min=True)),
    st.builds(Target, st.floats(0, 1e6, exclude_min=True), st.just(True)),
)


@st.composite
def requests(draw) -> RunRequest:
    algorithm = draw(st.sampled_from(ALGORITHM_LIST))
    choices = st.lists(st.sampled_from(algorithm.options), unique=True)
    chosen = draw(choices) if algorithm.options else []
    options = {option.name: draw(_value(option)) for option in chosen}
    stops = {
        "iterations": draw(st.none() | st.integers(1, 10**12)),
        "seconds": draw(st.none() | st.floats(0, 1e8, exclude_min=True)),
        "target": draw(st.none() | TARGETS),
    }
    if algorithm.name != "lp" and all(v is None for v in stops.values()):
        stops["iterations"] = draw(st.integers(1, 10**12))
    cfr_family = algorithm.attr == "FullWidthCFR"
    return RunRequest(
        game=draw(TEXT.filter(str.strip)),
        algo=algorithm.name,
        out=draw(PATHS),
        options=options,
        **stops,
        checkpoint=draw(st.none() | PATHS),
        report_seconds=draw(st.floats(0, 86_400)),
        checkpoint_seconds=draw(st.floats(0, 1e7, exclude_min=True)),
        lock=draw(st.none() | PATHS) if cfr_family else None,
        max_memory_mb=draw(st.none() | st.floats(0, 1e9, exclude_min=True)),
    )


@SETTINGS
@given(request=requests())
def test_a_request_reads_back_from_its_argv(request):
    argv = request.to_argv()
    assert RunRequest.from_argv(argv) == request
    # the child's own command line, with the flags the app adds, reads the same request
    for resume in (False, True):
        args = build_parser().parse_args(command(request, resume)[3:])
        assert args.command == "solve" and args.json and args.resume == resume
        assert RunRequest.from_args(args) == request


def test_flag_like_values_stay_values():
    request = RunRequest(
        "-h", "dcfr", Path("--json"), {"beta": -1.5}, target=Target(2.0), lock=Path("-x")
    )
    assert request.to_argv()[-2:] == ["--", "-h"]
    assert RunRequest.from_argv(request.to_argv()) == request


@SETTINGS
@given(target=TARGETS)
def test_a_target_reads_back_from_its_text(target):
    assert Target.parse(target.text()) == target
    assert Target.parse(f"  {target.text()} ") == target


def test_a_percent_target_is_a_share_of_the_starting_pot():
    assert Target.parse("0.3%") == SPOT_TARGET == Target(0.3, pot_percent=True)
    assert SPOT_TARGET.chips(211) == pytest.approx(0.633, rel=1e-12)  # 0.3% of a 211 pot
    assert Target.parse("0.05").chips(211) == 0.05  # chips whatever the pot
    assert Target.parse("1e-3") == Target(0.001)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("nan", "percent of the pot"),
        ("nan%", "percent of the pot"),
        ("inf", "percent of the pot"),
        ("abc%", "percent of the pot"),
        ("", "percent of the pot"),
        ("0", "positive"),
        ("-1%", "positive"),
        ("2e12", "at most"),
        ("2e6%", "at most"),
    ],
)
def test_bad_targets_are_input_errors(text, needle):
    with pytest.raises(InputError, match=needle):
        Target.parse(text)


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"algo": "bogus"}, "unknown algorithm"),
        ({"iterations": None}, "stopping rule"),
        ({"iterations": 0}, "positive"),
        ({"iterations": 2.5}, "whole number"),
        ({"seconds": math.nan}, "finite"),
        ({"report_seconds": -1.0}, ">= 0"),
        ({"options": {"alpha": math.inf}}, "finite"),
        ({"options": {"bogus": 1}}, "unknown option"),
        ({"options": {"alpha": None}}, "needs a value"),
        ({"algo": "fp", "lock": Path("l.json")}, "full-width CFR"),
        ({"game": " "}, "game spec"),
        ({"game": "kuhn\x00"}, "NUL"),
        ({"target": 0.3}, "Target"),
    ],
)
def test_bad_requests_are_input_errors(fields, needle):
    values = {"game": "kuhn", "algo": "dcfr", "out": Path("x.json"), "iterations": 5, **fields}
    with pytest.raises(InputError, match=needle):
        RunRequest(**values)


def test_from_argv_refuses_what_the_command_line_refuses():
    for argv, needle in (
        (["--algo=dcfr", "--out=x.json", "--iterations=1e3", "--", "kuhn"], "whole number"),
        (["--algo=dcfr", "--out=x.json", "--seconds=nan", "--", "kuhn"], "finite"),
        (["--algo=dcfr", "--iterations=5", "--", "kuhn"], "--out"),
        (["--algo=dcfr", "--out=x.json", "--seed=3", "--iterations=5", "kuhn"], "seed"),
        (["--out=x.json", "kuhn"], "--algo"),
    ):
        with pytest.raises(InputError, match=needle):
            RunRequest.from_argv(argv)


def test_paths_are_checked_when_the_run_is_prepared(tmp_path):
    request = RunRequest("kuhn", "cfr", tmp_path / "no" / "x.json", iterations=3)
    with pytest.raises(InputError, match="does not exist"):
        request.check_paths()
    assert request.checkpoint_path == tmp_path / "no" / "x.json.ckpt.npz"
    same = RunRequest("kuhn", "cfr", tmp_path / "x", iterations=3, checkpoint=tmp_path / "x")
    with pytest.raises(InputError, match="different files"):
        same.check_paths()


def test_importing_the_request_and_the_run_handle_loads_no_numpy():
    code = (
        "import sys, json\n"
        "import solvers.runs.request, pokertui.runs\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    heavy = {m.split(".")[0] for m in loaded} & {"numpy", "scipy", "numba", "pydantic", "textual"}
    assert heavy == set()
