"""Run a batch of jobs into a folder: skip finished ones, retry a failure once, go on.

The folder holds ``batch.json`` (the jobs, written first), and per job its strategy file and
``NAME.summary.json``: one line with the job's identity, the solve's final figures and the
spot's report figures (``reports/batch_summary.py``), plus the size and SHA-256 of the strategy
file. Both are written atomically, the summary last, so a job is finished exactly when its
summary parses, names the same job and matches the file beside it; a ``kill -9`` leaves at most
a checkpoint or a strategy file without a summary, and the re-run solves that job again
(resuming from its checkpoint). Each job runs through ``solve_run.execute``, the loop
``pokertui solve`` runs, in a worker process of the backend.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.atomic import atomic_write_text
from solvers.batch.jobs import Job
from solvers.errors import InputError
from solvers.games.spec import forget_built_games, load_game
from solvers.parallel.backends import Outcome, check_backend, run_tasks
from solvers.reports.batch_summary import spot_summary, summary_nodes
from solvers.runs.request import RunRequest, Target
from solvers.runs.solve_run import execute
from solvers.strategy_file.node_subset import load_nodes

MANIFEST = "batch.json"
SUMMARY_SUFFIX = ".summary.json"
RESULT_KEYS = ("iterations", "seconds", "exploitability", "exploitability_pot_percent",
               "game_value", "ev_oop", "ev_ip", "stopped_by", "file_bytes")  # fmt: skip


@dataclass
class BatchResult:
    total: int
    skipped: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    retried: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def run_spec(job: Job, folder: Path) -> RunRequest:
    """The checked ``RunRequest`` of a job (``InputError`` for a bad algorithm, option, rule
    or output path)."""
    stop = job.stop
    target = None
    if stop.target is not None:
        target = Target(stop.target)
    elif stop.target_pot_percent is not None:
        target = Target(stop.target_pot_percent, pot_percent=True)
    request = RunRequest(game=job.game, algo=job.algo, out=folder / job.output_name,
                         options=dict(job.options), iterations=stop.iterations,
                         seconds=stop.seconds, target=target, report_seconds=2.0)  # fmt: skip
    request.check_paths()
    return request


def summary_path(job: Job, folder: Path) -> Path:
    return folder / (job.name + SUMMARY_SUFFIX)


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def read_summary(job: Job, folder: Path) -> dict[str, Any] | None:
    """The job's summary if the job is finished (summary valid, file beside it matching)."""
    path, out = summary_path(job, folder), folder / job.output_name
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
        if summary.get("job") != json.loads(json.dumps(job.identity())):
            return None
        if out.stat().st_size != summary["bytes"] or _digest(out) != summary["sha256"]:
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return summary


def solve_job(job: Job, folder: str) -> dict[str, Any]:
    """In a worker: solve the job (resuming a checkpoint a killed run left), write the summary."""
    started, cpu = time.perf_counter(), time.process_time()
    where = Path(folder)
    spec = run_spec(job, where)
    resume = spec.checkpoint_path.exists()
    try:
        final = execute(spec, lambda event: None, lambda: False, resume=resume)
    except InputError:
        if not resume:
            raise
        final = execute(spec, lambda event: None, lambda: False)  # a stale checkpoint
    solved = time.perf_counter() - started
    spec.checkpoint_path.unlink(missing_ok=True)
    figures = _report_figures(job, spec.out)
    forget_built_games()  # a worker solves one big spot after another
    summary = {
        "name": job.name,
        "job": job.identity(),
        "meta": job.meta,
        "out": job.output_name,
        "bytes": spec.out.stat().st_size,
        "sha256": _digest(spec.out),
        "result": {k: final[k] for k in RESULT_KEYS if k in final},
        "report": figures,
        "solve_seconds": solved,
        "job_seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu,  # all the worker's threads
    }
    atomic_write_text(summary_path(job, where), json.dumps(summary) + "\n")
    return summary


def _report_figures(job: Job, out: Path) -> dict[str, Any]:
    """The aggregate report's figures of a solved spot, from two nodes of its file (a flop
    file loads whole in tens of seconds); checks the file's head and those nodes as it goes."""
    game = load_game(job.game)  # the solve just built it: cached
    if game.name != "nlhe":
        return {}
    nodes = summary_nodes(game)
    rows = load_nodes(out, game, [node.key for node in nodes])
    return spot_summary(game, {node.id: rows[node.key] for node in nodes})


def _prepare_folder(folder: Path) -> Path:
    folder = folder.expanduser().resolve()
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--out {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make the batch folder {folder}: {exc.strerror}") from None
    return folder


def write_manifest(jobs: Sequence[Job], folder: Path, about: dict[str, Any]) -> None:
    listed = [{"name": j.name, "out": j.output_name, "summary": j.name + SUMMARY_SUFFIX,
               "game": j.game, "meta": j.meta} for j in jobs]  # fmt: skip
    atomic_write_text(folder / MANIFEST, json.dumps({"about": about, "jobs": listed}, indent=1))


def run_batch(
    jobs: Sequence[Job],
    folder: str | Path,
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    about: dict[str, Any] | None = None,
    progress: Callable[[str, Outcome | None], None] | None = None,
) -> BatchResult:
    """Every unfinished job of ``jobs`` into ``folder``; ``progress(name, outcome)`` after each
    (``None`` for a job skipped as finished)."""
    check_backend(backend, workers, address)
    names = [job.name for job in jobs]
    if len(set(names)) != len(names):
        raise InputError("two jobs of the batch have the same name")
    if not jobs:
        raise InputError("the batch has no jobs")
    started = time.perf_counter()
    target = _prepare_folder(Path(folder))
    for job in jobs:  # every mistake in a job is found before any solve starts
        run_spec(job, target)
    write_manifest(jobs, target, about or {})
    result = BatchResult(len(jobs))
    pending = []
    for job in jobs:
        if read_summary(job, target) is not None:
            result.skipped.append(job.name)
            if progress:
                progress(job.name, None)
        else:
            pending.append(job)
    for attempt in (1, 2):
        failed: list[Job] = []
        items = [(job, str(target)) for job in pending]
        tasks = run_tasks(solve_job, items, backend=backend, workers=workers, address=address)
        for index, outcome in tasks:
            job = pending[index]
            if outcome.ok:
                result.done.append(job.name)
            elif attempt == 1:
                failed.append(job)
                result.retried.append(job.name)
            else:
                result.failed[job.name] = outcome.error
            if progress and (outcome.ok or attempt == 2):
                progress(job.name, outcome)
        pending = failed
        if not pending:
            break
    result.seconds = time.perf_counter() - started
    return result
