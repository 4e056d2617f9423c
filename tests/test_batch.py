"""Batches of river solves on the local pool: outputs, summaries checked against independent
code, skipping finished jobs, retrying a failure, resuming after ``kill -9``, bad input."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pokertui.cli import main
from solvers.batch.jobs import Job, StopRule, load_job_file
from solvers.batch.runner import read_summary, run_batch
from solvers.cards.equity import equity
from solvers.cards.ranges import parse_range
from solvers.reports.aggregate import load_batch, select, weighted
from solvers.reports.strategy_report import node_report
from solvers.strategy_file import load_strategy
from tests.batch_fixtures import job_file, river_spot, stack_jobs

ROOT = Path(__file__).resolve().parent.parent


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def solved_batch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("batch")
    jobs = stack_jobs(folder)
    result = run_batch(jobs, folder / "out", workers=2)
    return jobs, folder / "out", result


def test_every_job_writes_a_valid_file_and_summary(solved_batch):
    jobs, out, result = solved_batch
    assert sorted(result.done) == sorted(j.name for j in jobs) and not result.failed
    for job in jobs:
        loaded = load_strategy(out / job.output_name)
        summary = read_summary(job, out)
        assert summary is not None
        assert loaded.game.params.stack == job.meta["stack"]
        assert loaded.solver.iterations == 60
        # the summary's figures are those of the file as written
        assert summary["result"]["exploitability"] == pytest.approx(
            loaded.measured.exploitability, rel=1e-9
        )
        assert summary["result"]["ev_oop"] + summary["result"]["ev_ip"] == pytest.approx(100.0)


def test_summaries_agree_with_the_explorer_and_the_equity_calculator(solved_batch):
    jobs, out, _ = solved_batch
    job = jobs[2]
    loaded = load_strategy(out / job.output_name)
    report = read_summary(job, out)["report"]
    root = node_report(loaded.game, loaded.strategy, "")  # the reach walk, not the prior
    assert list(report["root"].values()) == pytest.approx(list(root.aggregate), abs=1e-9)
    after = node_report(loaded.game, loaded.strategy, "x")
    assert list(report["after_check"].values()) == pytest.approx(list(after.aggregate), abs=1e-9)
    assert report["after_check"] != report["root"]
    params = loaded.game.params
    exact = equity(parse_range(params.oop_range), parse_range(params.ip_range),
                   loaded.game.root.board, method="exact")  # fmt: skip
    assert report["equity_oop"] == pytest.approx(exact.equity[0], abs=1e-9)


def test_a_rerun_skips_finished_jobs_and_redoes_a_damaged_one(solved_batch, tmp_path):
    jobs, solved, _ = solved_batch
    out = shutil.copytree(solved, tmp_path / "copy")
    again = run_batch(jobs, out, workers=1)
    assert sorted(again.skipped) == sorted(j.name for j in jobs) and not again.done
    damaged = out / jobs[0].output_name
    data = damaged.read_bytes()
    damaged.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    again = run_batch(jobs, out, workers=1)
    assert again.done == [jobs[0].name] and len(again.skipped) == len(jobs) - 1
    load_strategy(damaged)
    # a changed job (another iteration budget) is not taken for the finished one
    longer = [Job(j.name, j.game, j.algo, StopRule(iterations=61), j.options, j.meta)
              for j in jobs[:1]]  # fmt: skip
    assert run_batch(longer, out, workers=1).done == [jobs[0].name]


def test_a_failing_job_is_retried_once_and_reported_while_the_others_finish(tmp_path):
    jobs = stack_jobs(tmp_path, stacks=(150,))
    broken = Job("broken", "nlhe(board=\"Qs Jh 2h 8d 3c\",oop_range=\"ZZ\")", "dcfr",
                 StopRule(iterations=5))  # fmt: skip
    result = run_batch([broken, *jobs], tmp_path / "out", workers=2)
    assert result.done == ["stack150"]
    assert result.retried == ["broken"]
    assert list(result.failed) == ["broken"] and "oop_range" in result.failed["broken"]


def test_aggregates_weight_each_row(solved_batch):
    _, out, _ = solved_batch
    report = load_batch(out)
    assert len(report.rows) == 4 and report.missing == []
    rows = select(report.rows, sort="ev_oop", descending=True)
    evs = [r.ev_oop for r in rows]
    assert evs == sorted(evs, reverse=True)
    weights = np.array([1.0, 3.0])
    picked = rows[:2]
    picked = [type(r)(**{**r.__dict__, "weight": w}) for r, w in zip(picked, weights, strict=True)]
    mean = weighted(picked)
    expected = (picked[0].ev_oop * 1 + picked[1].ev_oop * 3) / 4
    assert mean["ev_oop"] == pytest.approx(expected)
    bet = next(a for a in picked[0].root if a.startswith("bet"))
    assert mean["root"][bet] == pytest.approx(
        (picked[0].root[bet] + 3 * picked[1].root[bet]) / 4
    )


def test_cli_report_json_and_csv(solved_batch, capsys, tmp_path):
    _, out, _ = solved_batch
    code, text, _ = run_cli(capsys, "batch", "report", out, "--sort", "equity_oop", "--json")
    assert code == 0
    data = json.loads(text)
    assert [r["name"] for r in data["rows"]] and data["textures"]["all"]["flops"] == 4
    csv_path = tmp_path / "rows.csv"
    code, text, _ = run_cli(capsys, "batch", "report", out, "--csv", csv_path)
    assert code == 0 and "after check" in text and "█" in text
    lines = csv_path.read_text().splitlines()
    assert len(lines) == 5 and lines[0].startswith("name,weight,stack,ev_oop")


def test_cli_runs_a_job_file(tmp_path, capsys):
    path = job_file(tmp_path, values=(120, 240), iterations=20)
    jobs, folder = load_job_file(path)
    assert [j.meta for j in jobs] == [{"stack": 120}, {"stack": 240}]
    code, text, _ = run_cli(capsys, "batch", path, "--workers", "1", "--json")
    assert code == 0
    result = json.loads(text)
    assert len(result["done"]) == 2 and Path(result["folder"]) == folder.resolve()
    code, text, _ = run_cli(capsys, "batch", path, "--workers", "1", "--json")
    assert len(json.loads(text)["skipped"]) == 2


BAD_JOB_FILES = {
    "bad toml": "algo = \n",
    "missing vary": 'algo = "dcfr"\niterations = 5\nspot = "river.toml"\nvalues = [1]\n',
    "unknown key": 'algo = "dcfr"\niterations = 5\nspot = "river.toml"\nvary = "stack"\n'
    "values = [100]\ncolour = 1\n",
    "no stop": 'algo = "dcfr"\nspot = "river.toml"\nvary = "stack"\nvalues = [100]\n',
    "bad field": 'algo = "dcfr"\niterations = 5\nspot = "river.toml"\nvary = "colour"\n'
    "values = [100]\n",
    "bad value": 'algo = "dcfr"\niterations = 5\nspot = "river.toml"\nvary = "stack"\n'
    "values = [-5]\n",
    "bad algo": 'algo = "nope"\niterations = 5\nspot = "river.toml"\nvary = "stack"\n'
    "values = [100]\n",
    "missing spot": 'algo = "dcfr"\niterations = 5\nspot = "gone.toml"\nvary = "stack"\n'
    "values = [100]\n",
}


@pytest.mark.parametrize("case", sorted(BAD_JOB_FILES))
def test_bad_job_files_exit_2(tmp_path, capsys, case):
    river_spot(tmp_path)
    path = tmp_path / "jobs.toml"
    path.write_text(BAD_JOB_FILES[case])
    code, _, err = run_cli(capsys, "batch", path, "--out", tmp_path / "o")
    assert code == 2 and "error" in err and "Traceback" not in err


def test_bad_options_exit_2(tmp_path, capsys):
    spot = river_spot(tmp_path)
    flop = tmp_path / "flop.toml"
    flop.write_text((ROOT / "spots/batch/srp_flop_small.toml").read_text())
    jobs = job_file(tmp_path)
    (tmp_path / "afile").write_text("x")
    cases = [
        ("batch", jobs, "--backend", "spark"),
        ("batch", jobs, "--address", "127.0.0.1:1"),
        ("batch", "flops", flop, "--flops", "7", "--out", tmp_path / "f", "--iterations", "1"),
        ("batch", "flops", spot, "--flops", "25", "--out", tmp_path / "f", "--iterations", "1"),
        ("batch", "flops", flop, "--flops", "25", "--out", tmp_path / "f"),
        ("batch", "flops", flop, "--flops", "25", "--iterations", "1"),
        ("batch", "flops", flop, "--out", tmp_path / "afile", "--iterations", "1"),
        ("batch", "report", tmp_path / "nothing-here"),
        ("batch", "report", tmp_path),
        ("batch", "report", tmp_path / "afile"),
        ("batch", tmp_path / "missing.toml", "--out", tmp_path / "o"),
        ("lbr", ROOT / "strategies/push_fold_10bb.json", "--backend", "spark"),
        ("lbr", ROOT / "strategies/push_fold_10bb.json", "--address", "127.0.0.1:1"),
    ]
    for argv in cases:
        code, _, err = run_cli(capsys, *argv)
        assert code == 2, argv
        assert "Traceback" not in err


def test_a_batch_killed_mid_job_resumes_with_every_output_valid(tmp_path):
    path = job_file(tmp_path, values=(100, 140, 180, 220, 260, 300), iterations=20000)
    folder = tmp_path / "out"
    command = [sys.executable, "-m", "pokertui", "batch", str(path), "--workers", "1", "--json"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list(folder.glob("*.summary.json")):
        assert process.poll() is None, process.stderr.read().decode()
        time.sleep(0.05)
    time.sleep(0.3)  # into the next job: each job is seconds of solving, so one is running
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    jobs, _ = load_job_file(path)
    finished = [j for j in jobs if read_summary(j, folder) is not None]
    assert 1 <= len(finished) < len(jobs)
    for written in folder.glob("*.json.gz"):  # atomic writes: whatever exists is whole
        load_strategy(written)
    result = run_batch(jobs, folder, workers=1)
    assert sorted(result.skipped) == sorted(j.name for j in finished)
    assert len(result.done) == len(jobs) - len(finished) and not result.failed
    for job in jobs:
        assert read_summary(job, folder) is not None
        load_strategy(folder / job.output_name)
    assert not list(folder.glob(".*.tmp")) and not list(folder.glob("*.ckpt.npz"))


def _marked_processes(marker: str) -> list[int]:
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if f"POKERTUI_TEST_MARK={marker}".encode() in (proc / "environ").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_sigterm_stops_the_workers_too(tmp_path):
    (tmp_path / "big.toml").write_text((ROOT / "spots/river.toml").read_text())
    path = tmp_path / "jobs.toml"
    path.write_text(
        'algo = "dcfr"\niterations = 3000\nout = "out"\nspot = "big.toml"\nvary = "stack"\n'
        "values = [100, 150, 200, 250, 300, 350, 400, 450]\n"
    )
    marker = f"{os.getpid()}-{time.monotonic_ns()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "POKERTUI_TEST_MARK": marker}
    command = [sys.executable, "-m", "pokertui", "batch", str(path), "--workers", "2"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list((tmp_path / "out").glob("*.summary.json")):
        assert process.poll() is None, process.stderr.read().decode()
        time.sleep(0.05)
    assert len(_marked_processes(marker)) >= 3  # the command and its two workers
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 130
    deadline = time.monotonic() + 30
    while _marked_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _marked_processes(marker) == []


def wait_in_worker(seconds: float) -> float:
    """A pool task that only waits (picklable: module level)."""
    time.sleep(seconds)
    return seconds


_ORPHAN_SCRIPT = """
from solvers.parallel.backends import run_tasks
from tests.test_batch import wait_in_worker
print("started", flush=True)
for _ in run_tasks(wait_in_worker, [(600.0,), (600.0,)], workers=2):
    pass
"""


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_pool_workers_end_when_the_parent_is_killed():
    """SIGKILL runs no ``finally``: the workers must still end (they follow their parent)."""
    marker = f"orphan-{os.getpid()}-{time.monotonic_ns()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "POKERTUI_TEST_MARK": marker}
    process = subprocess.Popen([sys.executable, "-c", _ORPHAN_SCRIPT], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.monotonic() + 120
    while len(_marked_processes(marker)) < 3 and time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode()
        time.sleep(0.1)
    workers = [pid for pid in _marked_processes(marker) if pid != process.pid]
    assert len(workers) >= 2  # the two workers (and spawn's resource tracker, if any)
    process.kill()
    process.wait()
    deadline = time.monotonic() + 30
    while _marked_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _marked_processes(marker) == []


def walk_threads() -> tuple[str | None, int]:
    """In a pool worker: the threads numba was told to use, and the compiled walk's count."""
    from solvers.exact import compiled_kernels  # noqa: PLC0415 - numba loads here, after setup

    return os.environ.get("NUMBA_NUM_THREADS"), compiled_kernels.ALL_THREADS


def test_pool_workers_share_the_cores_instead_of_each_taking_all_of_them():
    """Two workers each running the compiled walk on every core made each parallel region wait
    for a descheduled thread (a turn re-solve 15 times slower an iteration): a local worker runs
    on its share of the cores, and the parent keeps its own threads."""
    from solvers.parallel.backends import run_tasks

    before = os.environ.get("NUMBA_NUM_THREADS")
    share = max(1, (os.cpu_count() or 1) // 2)
    found = [outcome for _, outcome in run_tasks(walk_threads, [(), ()], workers=2)]
    assert all(o.ok for o in found), [o.error for o in found]
    assert [o.value for o in found] == [(str(share), share)] * 2
    assert os.environ.get("NUMBA_NUM_THREADS") == before  # set in the workers only


@pytest.mark.parametrize(
    ("manifest", "why"),
    [
        (b'{"jobs": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested"),
        (b'{"jobs": [], "about": {"name": "caf\xe9"}}', "not UTF-8"),
        (b'{"jobs": 3}', "not a batch manifest"),
    ],
    ids=["deep", "latin-1", "jobs-not-a-list"],
)
def test_a_damaged_manifest_is_refused_by_name(tmp_path, capsys, manifest, why):
    (tmp_path / "batch.json").write_bytes(manifest)
    code, _, err = run_cli(capsys, "batch", "report", tmp_path)
    assert code == 2 and "batch.json" in err and why in err and "Traceback" not in err


def test_a_deep_job_summary_counts_as_unfinished(solved_batch, tmp_path):
    import shutil  # noqa: PLC0415

    from solvers.reports.aggregate import load_batch  # noqa: PLC0415

    folder = tmp_path / "copy"
    shutil.copytree(solved_batch[1], folder)
    report = load_batch(folder)
    summary = next(folder.rglob("*.summary.json"))
    summary.write_text('{"result": ' + "[" * 5000 + "]" * 5000 + "}")
    damaged = load_batch(folder)
    assert len(damaged.rows) == len(report.rows) - 1 and len(damaged.missing) == 1


@pytest.mark.ray
def test_a_ray_address_nobody_answers_is_refused_at_once(tmp_path, capsys):
    """Ray's own client retries such an address for minutes; batch and LBR refuse it at once,
    naming it."""
    pytest.importorskip("ray")
    jobs = job_file(tmp_path)
    for argv in (("batch", jobs, "--backend", "ray", "--address", "127.0.0.1:1"),
                 ("lbr", ROOT / "strategies/push_fold_10bb.json", "--backend", "ray",
                  "--address", "127.0.0.1:1")):  # fmt: skip
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and "cannot reach the Ray cluster at 127.0.0.1:1" in err, err
        assert "Traceback" not in err
