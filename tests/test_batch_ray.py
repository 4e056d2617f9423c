"""The Ray backend on a local cluster (loopback only): the same seeded jobs write the same bytes
as on the local pool, and LBR gives the same figures. Skipped where Ray is not installed."""

from __future__ import annotations

import os
import shutil

import pytest

from solvers.batch.runner import run_batch
from solvers.reports.lbr.spot_run import evaluate
from tests.batch_fixtures import stack_jobs
from tests.conftest import STRATEGIES
from tests.test_batch import walk_threads

pytestmark = pytest.mark.ray
ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    """One local Ray cluster for the module; files carry a fixed date so bytes can match."""
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def test_ray_and_the_local_pool_write_the_same_files(cluster, tmp_path):
    jobs = stack_jobs(tmp_path, stacks=(100, 200, 300), iterations=40)
    local = run_batch(jobs, tmp_path / "local", backend="local", workers=2)
    remote = run_batch(jobs, tmp_path / "ray", backend="ray", workers=2)
    assert sorted(local.done) == sorted(remote.done) == sorted(j.name for j in jobs)
    for job in jobs:
        a = (tmp_path / "local" / job.output_name).read_bytes()
        b = (tmp_path / "ray" / job.output_name).read_bytes()
        assert a == b, job.name
    # and Ray resumes like the pool: a deleted output is the only job solved again
    (tmp_path / "ray" / jobs[1].output_name).unlink()
    again = run_batch(jobs, tmp_path / "ray", backend="ray", workers=2)
    assert again.done == [jobs[1].name] and len(again.skipped) == 2
    shutil.rmtree(tmp_path / "local")


def test_lbr_on_ray_gives_the_local_figures(cluster):
    path = STRATEGIES / "push_fold_10bb.json"
    local = evaluate(path, "fcpa", 1700, 11, workers=2, backend="local")
    remote = evaluate(path, "fcpa", 1700, 11, workers=2, backend="ray")
    assert remote == local
    assert local["deals"] == 1700 and local["ci95"] > 0


def test_ray_tasks_run_the_compiled_walk_on_the_one_core_they_ask_for(cluster):
    """A task asks Ray for one core; numba would otherwise start a thread per core in every
    worker, and the walk's parallel regions wait for threads other tasks hold."""
    from solvers.parallel.backends import run_tasks

    found = [outcome for _, outcome in run_tasks(walk_threads, [(), ()], backend="ray",
                                                 workers=2)]  # fmt: skip
    assert all(o.ok for o in found), [o.error for o in found]
    assert [o.value for o in found] == [("1", 1)] * 2
