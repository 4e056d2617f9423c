"""Pilot tests of the solver launcher: real ``pokertui solve`` child processes, followed live.

The runs are tiny (Kuhn and Leduc CFR+), so each test waits a few seconds at most; the process
start-up (about a second to import the engine) dominates.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

from rich.console import Console
from textual.widgets import DataTable, Input, Select, Static

from pokertui.app import make_app
from pokertui.screens.solve import ALGORITHM_NAMES, GAME_SPECS, SolveScreen, parse_stop
from pokertui.widgets.solve import ConvergencePlot, braille_plot
from pokertui.widgets.solve.messages import SolveUpdate
from pokertui.widgets.solve.runbook import RunRecord, split_options
from solvers.errors import InputError
from solvers.games.hunl.spec import parse_hunl_spec
from solvers.runs.request import RunRequest, Target
from tests.conftest import wait_until

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


def plain(widget, width: int = 100) -> str:
    if isinstance(widget, Static):
        return str(widget.content)
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(widget.render())
    return console.export_text()


async def open_launcher(pilot, tmp_path: Path) -> SolveScreen:
    screen = SolveScreen(tmp_path / "runs")
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def fill(pilot, screen: SolveScreen, spec: str, algo: str, rule: str, limit: str, opts=""):
    screen.query_one("#solve-algo", Select).value = algo
    screen.query_one("#solve-stop", Select).value = rule
    await pilot.pause()
    screen.query_one("#solve-spec", Input).value = spec
    screen.query_one("#solve-stop-value", Input).value = limit
    screen.query_one("#solve-options", Input).value = opts


def test_names_match_the_engine():
    from solvers.algorithms import ALGORITHMS
    from solvers.games import GAMES, load_game

    assert set(ALGORITHM_NAMES) == {*ALGORITHMS, "lp"}
    assert set(GAME_SPECS) == set(GAMES) | {"hunl"}
    for name, spec in GAME_SPECS.items():
        if name == "hunl":  # the full game has its own spec parser
            assert parse_hunl_spec(spec).stack_bb == 100
            continue
        assert load_game(spec).spec_string() == spec


def test_stop_rule_parsing():
    assert parse_stop("iterations", "1000") == 1000
    assert parse_stop("target", "1e-3") == Target(0.001)
    assert parse_stop("target", " 0.3% ") == Target(0.3, pot_percent=True)
    for rule, text in (("iterations", "1.5"), ("seconds", "-1"), ("target", "abc"),
                       ("target", "nan%"), ("target", "-1%"), ("target", "0")):  # fmt: skip
        try:
            parse_stop(rule, text)
        except ValueError:
            continue
        raise AssertionError(f"{rule}={text} was accepted")


def test_braille_plot_is_log_log():
    points = [(1, 0.5), (10, 0.05), (100, 0.005), (1000, 0.0005)]
    lines = braille_plot(points, 40, 10)
    assert len(lines) == 10
    assert lines[0].strip().startswith("1e0") and "1e-4" in lines[-3]
    assert "1e0" in lines[-1] and "1e3 iterations" in lines[-1]
    body = [line[9:] for line in lines[:-2]]
    assert all(ord(ch) >= 0x2800 or ch == " " for row in body for ch in row)
    # a straight line in log-log space from the first column to the last, falling
    assert body[0][0] != " " and body[0][-1] == " "
    assert any(row[-1] != " " for row in body) and body[-1].strip() == ""  # 5e-4 is above 1e-4
    assert "no progress" in braille_plot([], 30, 6)[-1]


async def test_kuhn_run_shows_progress_and_is_listed(tmp_path):
    seen = []
    app = make_app(STRATEGIES, tmp_path, seed=1)
    async with app.run_test(size=(100, 30), message_hook=seen.append) as pilot:
        screen = await open_launcher(pilot, tmp_path)
        await fill(pilot, screen, "kuhn", "cfr+", "target", "0.0005")
        await pilot.press("ctrl+s")
        record = screen.book.runs[0]
        await wait_until(pilot, lambda: record.valid or record.state == "failed")
        assert record.state == "done" and record.error == ""
        assert record.exploitability is not None and record.exploitability <= 0.0006
        assert len(record.history) >= 3
        its = [point[0] for point in record.history]
        assert its == sorted(its) and record.history[0][1] > record.history[-1][1]
        table = screen.query_one("#solve-runs", DataTable)
        assert table.get_row("1")[3] == "done ✓"
        assert table.get_row("1")[4] == f"{record.iterations:,}"
        plot = plain(screen.query_one(ConvergencePlot))
        assert any(0x2800 < ord(ch) <= 0x28FF for ch in plot)
        assert record.out.name in plain(screen.query_one("#solve-files", Static))
        assert record.out.parent == tmp_path / "runs"
        assert app.settings.custom_strategies[0] == str(record.out)
    kinds = [m.event["event"] for m in seen if isinstance(m, SolveUpdate)]
    assert kinds[0] == "launched" and "progress" in kinds and kinds[-1] == "validated"
    from solvers.strategy_file import load_strategy

    assert load_strategy(record.out).game.name == "kuhn"


async def test_cancel_resume_and_responsive(tmp_path):
    app = make_app(STRATEGIES, tmp_path, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_launcher(pilot, tmp_path)
        await fill(pilot, screen, "leduc", "cfr+", "seconds", "60")
        await pilot.press("ctrl+s")
        record: RunRecord = screen.book.runs[0]
        await wait_until(pilot, lambda: len(record.history) >= 3 or record.state == "failed")
        assert record.state == "running"
        # the UI answers keys while the solver works: the run lives in its own process and a
        # thread reads its lines, so keys are handled and progress keeps arriving while typing.
        # How fast a key is handled is measured by benchmarks/bench_app.py ("while solving"),
        # not here: on a loaded machine a key takes whatever the scheduler gives it.
        screen.query_one("#solve-options", Input).focus()
        heard = len(record.history)
        started = time.perf_counter()
        for key in "abcdefghij":
            await pilot.press(key)
        typed = time.perf_counter() - started
        assert screen.query_one("#solve-options", Input).value == "abcdefghij"
        # a solver on the event loop would hold the keys until its 60 s ran out
        assert record.state == "running" and typed < 30, typed
        await wait_until(pilot, lambda: len(record.history) > heard)
        before = record.iterations
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: record.state in ("interrupted", "failed"))
        assert record.state == "interrupted" and record.iterations >= before
        await wait_until(pilot, lambda: record.handle is None and record.resumable, 10)
        cancelled_at = len(record.history)
        screen.query_one("#solve-options", Input).value = ""
        screen.query_one("#solve-runs", DataTable).focus()
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: len(record.history) >= cancelled_at + 2)
        assert record.state == "running" and record.history[-1][0] > record.history[0][0]
        screen.book.cancel(record.run_id)
        await wait_until(pilot, lambda: record.handle is None)


async def test_bad_input_and_failure_shown_inline(tmp_path):
    app = make_app(STRATEGIES, tmp_path, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_launcher(pilot, tmp_path)
        error = screen.query_one("#solve-error", Static)
        await fill(pilot, screen, "kuhn", "cfr+", "iterations", "1.5")
        await pilot.press("ctrl+s")
        assert "whole number" in plain(error) and not screen.book.runs
        await fill(pilot, screen, "kuhn(cards=2)", "cfr+", "iterations", "100")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: screen.book.runs[0].state == "failed")
        assert "cards" in plain(error) and "Run 1 failed" in plain(error)
        await fill(pilot, screen, "kuhn", "cfr+", "iterations", "100", "bogus=1")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: screen.book.runs[1].state == "failed")
        assert "bad options for cfr+" in plain(error) and "bogus" in plain(error)
        # a solver dying mid-run: its message is shown and the app carries on
        await fill(pilot, screen, "leduc", "cfr+", "seconds", "60")
        await pilot.press("ctrl+s")
        record = screen.book.runs[2]
        await wait_until(pilot, lambda: record.state == "running" and len(record.history) >= 2)
        record.handle.kill()
        await wait_until(pilot, lambda: record.state == "failed")
        assert "exit code -9" in plain(error)
        assert screen.query_one("#solve-runs", DataTable).get_row("3")[3] == "failed"
        await pilot.press("ctrl+t")
        assert "No running solve" in plain(error)


async def test_runs_survive_leaving_the_launcher(tmp_path):
    app = make_app(STRATEGIES, tmp_path, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_launcher(pilot, tmp_path)
        await fill(pilot, screen, "kuhn", "cfr+", "iterations", "300")
        await pilot.press("ctrl+s", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, SolveScreen)
        record = app.solve_runs.runs[0]
        await wait_until(pilot, lambda: record.valid or record.state == "failed")
        assert record.state == "done" and record.iterations == 300, record.error
        again = await open_launcher(pilot, tmp_path)
        assert again.query_one("#solve-runs", DataTable).get_row("1")[3] == "done ✓"
        assert record.out.name in plain(again.query_one("#solve-files", Static))
        assert app.settings.custom_strategies == [str(record.out)]


async def test_an_update_during_the_launchers_dismissal_still_counts(tmp_path):
    """A run that finishes while its launcher is being dismissed (still attached, its table
    already gone) is recorded as done: the screen's refresh is cosmetic and must not turn into
    the run's failure (the worker reports any exception it sees as the run's error)."""
    app = make_app(STRATEGIES, tmp_path, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_launcher(pilot, tmp_path)
        record = screen.book.add(game="kuhn", algo="cfr+", out=tmp_path / "k.json", options="",
                                 stop=("iterations", 300))  # fmt: skip
        await screen.query_one("#solve-runs", DataTable).remove()
        assert screen.is_attached
        screen.apply_update(SolveUpdate(record.run_id, {"event": "done", "iterations": 300}))
        assert record.state == "done" and record.iterations == 300


def test_progress_updates_collapse_but_others_do_not():
    older = SolveUpdate(1, {"event": "progress", "iterations": 5}, ((1, 0.5),))
    newer = SolveUpdate(1, {"event": "progress", "iterations": 9}, ((1, 0.5), (9, 0.1)))
    assert newer.can_replace(older)  # the newer carries the whole history
    assert not newer.can_replace(SolveUpdate(2, {"event": "progress"}))
    assert not SolveUpdate(1, {"event": "done"}).can_replace(older)
    assert not newer.can_replace(SolveUpdate(1, {"event": "launched"}))


def test_worker_crash_becomes_an_inline_error():
    from pokertui.widgets.solve.follow import follow_run

    sent = []
    follow_run(sent.append, 1, None, False, [])  # not a request: the worker's code fails
    assert sent[-1].event["event"] == "error" and "AttributeError" in sent[-1].event["message"]
    sent.clear()
    request = RunRequest("kuhn(cards=2)", "cfr+", Path("x.json"), iterations=3)
    follow_run(sent.append, 1, request, False, [])  # a game that does not load: its message
    assert sent[-1].event["event"] == "error" and "cards" in sent[-1].event["message"]


def test_a_record_asks_for_its_run_as_typed(tmp_path):
    record = RunRecord(1, "leduc", "dcfr", tmp_path / "r.json", "alpha=2, gamma=3",
                       ("target", Target(0.3, pot_percent=True)))  # fmt: skip
    request = record.request()
    assert request.options == {"alpha": 2.0, "gamma": 3.0}
    assert request.target == Target(0.3, pot_percent=True) and request.iterations is None
    assert RunRequest.from_argv(request.to_argv()) == request
    for options, needle in (("=broken", "key=value"), ("bogus=1", "bogus"), ("alpha=x", "alpha")):
        record.options = options
        try:
            record.request()
        except InputError as exc:
            assert needle in str(exc)
            continue
        raise AssertionError(f"{options} was accepted")


async def test_quitting_stops_runs_cleanly(tmp_path):
    app = make_app(STRATEGIES, tmp_path, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_launcher(pilot, tmp_path)
        await fill(pilot, screen, "leduc", "cfr+", "seconds", "60")
        await pilot.press("ctrl+s")
        record = screen.book.runs[0]
        await wait_until(pilot, lambda: len(record.history) >= 2 or record.state == "failed")
        run = record.handle
    # the worker was cancelled with the app: its watcher interrupted the process cleanly
    assert run.process.wait(10) in (0, 130)
    assert record.out.with_name(record.out.name + ".ckpt.npz").exists()


def test_options_keep_commas_inside_a_value():
    assert split_options("alpha=1.5, seed=3 beta=0") == ["alpha=1.5", "seed=3", "beta=0"]
    assert split_options("alpha=1.5,seed=3") == ["alpha=1.5", "seed=3"]
    assert split_options("opponent=0.5,0.25,0.25 gamma=1") == ["opponent=0.5,0.25,0.25", "gamma=1"]
    betting = "betting=pre=2.5x,a|3x,a;flop=33%,a;turn=a;river=a"
    assert split_options(f"{betting} batch=100") == [betting, "batch=100"]
    cards = "cards=hs2(flop=50,turn=50,river=50)"
    assert split_options(f"{cards}, seed=2") == [cards, "seed=2"]


async def test_full_game_trains_a_blueprint_from_the_launcher(tmp_path):
    from solvers.strategy_file.blueprint_file import read_blueprint

    app = make_app(STRATEGIES, tmp_path, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_launcher(pilot, tmp_path)
        screen.query_one("#solve-game", Select).value = "hunl"
        await pilot.pause()
        assert screen.query_one("#solve-algo", Select).value == "mccfr"
        assert screen.query_one("#solve-stop", Select).value == "seconds"
        options = "cards=hs2(flop=combo,turn=combo,river=combo) betting=pre=a;flop=a;turn=a;river=a"
        await fill(pilot, screen, "hunl(stack_bb=10)", "mccfr", "iterations", "3000", options)
        await pilot.press("ctrl+s")
        record = screen.book.runs[0]
        await wait_until(pilot, lambda: record.valid or record.state == "failed", timeout=240)
        assert (record.state, record.error) == ("done", "")
        assert record.out.suffix == ".npz"
        assert str(record.out) not in app.settings.custom_strategies  # not a tree-game bot
    header = read_blueprint(record.out).header
    assert header["iterations"] == 3000 and header["game"] == "hunl(stack_bb=10)"
