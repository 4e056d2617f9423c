"""The blueprint trained in rounds on several workers (``solvers/runs/blueprint_rounds.py``).

The small game of ``tests/blueprint_fixtures.py`` has a fixed board and lossless buckets, so
``blueprint_exact`` gives the exact exploitability of a trained profile. Workers run one thread
each, so a round's deltas are reproducible bit for bit and the local pool and Ray give the same
arrays. Rounds cost some convergence: a worker does not see the other workers' updates until
the merge. On this game two workers with rounds of 100 deals each ended 6% to 17% above one
process at 30,000 iterations over three seeds (docs/blueprint.md), so the tolerance is a quarter
of the single process's figure: a uniform profile and a run of half the iterations (about 50%
above) both fall outside it.
"""

from __future__ import annotations

import functools
import os
import signal

import numba
import numpy as np
import pytest

from pokertui.cli import main
from solvers.algorithms.blueprint_deals import FixedBoardDeals
from solvers.algorithms.blueprint_exact import exact_figures
from solvers.algorithms.blueprint_mccfr import REGRET_FLOOR, BlueprintMCCFR
from solvers.parallel.backends import WorkerPool
from solvers.runs import blueprint_build
from solvers.runs.blueprint_build import ShippedBlueprint, train
from solvers.runs.blueprint_rounds import (
    RoundTrainer,
    TrainerRecipe,
    WorkersFailed,
    plan_round,
    run_share,
)
from tests.blueprint_fixtures import TINY_SPEC, failing_share, small_game, worker_threads

ITERATIONS = 30_000
ROUND = 100
"""Deals per worker per round, and the batch size."""
TOLERANCE = 0.25
"""Relative to the single process's exploitability."""


def exploitability(trainer: BlueprintMCCFR) -> float:
    assert isinstance(trainer.deals, FixedBoardDeals)
    return exact_figures(trainer.tree, trainer.deals, trainer.node_rows).exploitability


def rounds_on(pool: WorkerPool, seed: int = 0) -> RoundTrainer:
    return RoundTrainer(small_game(seed, ROUND), pool, TrainerRecipe(small_game, (seed, ROUND)),
                        per_worker=ROUND)  # fmt: skip


@pytest.fixture(scope="module")
def local_pool():
    """One thread a worker, as on Ray and as two workers get on two cores: bit-reproducible."""
    with WorkerPool("local", 2, threads=1) as pool:
        yield pool


@pytest.fixture(scope="module")
def ray_pool():
    ray = pytest.importorskip("ray")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with WorkerPool("ray", 2) as pool:
            yield pool
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def local_run(local_pool):
    return rounds_on(local_pool).run(iterations=ITERATIONS).trainer


@pytest.fixture
def one_thread():
    """In-process shares on one thread, as a worker runs them (bit-reproducible)."""
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(threads)


def test_pool_workers_run_on_their_share_of_the_cores(local_pool):
    """Two workers on two cores each taking both would make every parallel batch wait for a
    descheduled thread; the driver keeps its own threads."""
    assert WorkerPool("local", 2).threads == max(1, (os.cpu_count() or 1) // 2)
    before = os.environ.get("NUMBA_NUM_THREADS")
    found = [outcome for _, outcome in local_pool.run(worker_threads, [(), ()])]
    assert [o.value for o in found] == [("1", 1)] * 2, [o.error for o in found]
    assert os.environ.get("NUMBA_NUM_THREADS") == before


def test_two_local_workers_reach_the_single_process_exploitability(local_run, one_thread):
    single = exploitability(small_game(0, ROUND).run(iterations=ITERATIONS))
    half = exploitability(small_game(0, ROUND).run(iterations=ITERATIONS // 2))
    trainer = local_run
    assert isinstance(trainer.deals, FixedBoardDeals)
    uniform = exact_figures(trainer.tree, trainer.deals, lambda node: np.full(
        (trainer.deals.n_buckets[0], int(trainer.tree.n_actions[node])),
        1.0 / int(trainer.tree.n_actions[node]))).exploitability  # fmt: skip
    parallel = exploitability(trainer)
    assert trainer.iterations == ITERATIONS and trainer.batches == ITERATIONS // ROUND
    assert abs(parallel - single) <= TOLERANCE * single, (parallel, single)
    for other in (uniform, half):  # the tolerance tells a trained profile from these
        assert abs(other - single) > TOLERANCE * single, (other, single)


@pytest.mark.ray
def test_two_ray_workers_train_the_same_arrays_as_two_local_workers(ray_pool, local_run):
    trainer = rounds_on(ray_pool).run(iterations=ITERATIONS).trainer
    assert trainer.iterations == local_run.iterations == ITERATIONS
    np.testing.assert_array_equal(trainer.regret, local_run.regret)
    np.testing.assert_array_equal(trainer.strategy_sum, local_run.strategy_sum)
    assert exploitability(trainer) == exploitability(local_run)


def test_a_round_adds_each_workers_deltas(local_pool, one_thread):
    trainer = small_game(3, ROUND).run(iterations=2_000)
    recipe = TrainerRecipe(small_game, (3, ROUND))
    regret, sums = trainer.regret.copy(), trainer.strategy_sum.copy()
    shares = plan_round(trainer, 2, 3 * ROUND)
    assert [s.batches for s in shares] == [((20, 100), (21, 100), (22, 100)),
                                           ((23, 100), (24, 100), (25, 100))]  # fmt: skip
    deltas = [run_share(regret.copy(), recipe, share) for share in shares]
    dense = [delta.dense(trainer.slots) for delta in deltas]
    assert not np.array_equal(dense[0][0], dense[1][0])  # different deals, different deltas
    report = RoundTrainer(trainer, local_pool, recipe, per_worker=3 * ROUND).round()
    assert report is not None and report.iterations == 600 and report.lost == 0
    expected = np.maximum(regret + dense[0][0] + dense[1][0], np.float32(REGRET_FLOOR))
    np.testing.assert_array_equal(trainer.regret, expected)
    np.testing.assert_array_equal(trainer.strategy_sum, sums + dense[0][1] + dense[1][1])
    assert not np.array_equal(trainer.regret, regret + dense[0][0])  # both were merged
    assert trainer.iterations == 2_600 and trainer.batches == 26
    assert report.delta_bytes == sum(delta.nbytes for delta in deltas) > 0


def test_a_failed_worker_loses_only_its_share(local_pool, one_thread):
    trainer = small_game(5, ROUND).run(iterations=1_000)
    recipe = TrainerRecipe(small_game, (5, ROUND))
    failures: list[tuple] = []
    for how in ("exit", "raise"):  # a worker process that dies, a task that raises
        regret, sums = trainer.regret.copy(), trainer.strategy_sum.copy()
        shares = plan_round(trainer, 2, 2 * ROUND)
        kept = run_share(regret.copy(), recipe, shares[1]).dense(trainer.slots)
        task = functools.partial(failing_share, batch=shares[0].batches[0][0], how=how)
        rounds = RoundTrainer(trainer, local_pool, recipe, per_worker=2 * ROUND, task=task,
                              on_failure=lambda *failure: failures.append(failure))  # fmt: skip
        before, batches = trainer.iterations, trainer.batches
        report = rounds.round()
        assert report is not None and report.lost == 200 and report.iterations == 200
        assert trainer.iterations == before + 200  # only the merged share counts
        assert trainer.batches == batches + 4  # the lost batches are not dealt again
        np.testing.assert_array_equal(trainer.regret, regret + kept[0])
        np.testing.assert_array_equal(trainer.strategy_sum, sums + kept[1])
    assert [deals for _, deals in failures] == [200, 200]
    assert "worker process died" in failures[0][0] and "batch 14 failed" in failures[1][0]
    # the run goes on with both workers (the dead one replaced)
    report = RoundTrainer(trainer, local_pool, recipe, per_worker=2 * ROUND).round()
    assert report is not None and report.iterations == 400 and report.lost == 0
    assert trainer.iterations == 1_800


def test_rounds_in_which_every_worker_fails_stop_the_run(local_pool):
    trainer = small_game(6, ROUND)
    task = functools.partial(failing_share, batch=None, how="raise")
    rounds = RoundTrainer(trainer, local_pool, TrainerRecipe(small_game, (6, ROUND)),
                          per_worker=ROUND, task=task)  # fmt: skip
    failed = "3 rounds in a row: RuntimeError: the share from batch [45] failed"
    with pytest.raises(WorkersFailed, match=failed):
        rounds.run(iterations=10 * ROUND)
    assert len(rounds.rounds) == 3 and trainer.iterations == 0 and trainer.batches == 6
    assert not trainer.regret.any() and not trainer.strategy_sum.any()


def _checkpointed(tmp_path, name: str, legs) -> BlueprintMCCFR:
    """``TINY_SPEC`` trained in legs ``(iterations, pool or None for one local worker)``, each
    resuming the previous leg's checkpoint."""
    trainer = None
    for iterations, pool in legs:
        trainer = train(TINY_SPEC, tmp_path / f"{name}.npz", tmp_path / f"{name}.ckpt.npz",
                        iterations=iterations, pool=pool, round_iterations=500)  # fmt: skip
    assert trainer is not None
    return trainer


@pytest.mark.ray
def test_checkpoints_resume_on_either_backend_and_any_worker_count(local_pool, ray_pool,
                                                                   tmp_path):  # fmt: skip
    straight = _checkpointed(tmp_path, "straight", [(4_000, local_pool)])
    to_ray = _checkpointed(tmp_path, "to_ray", [(2_000, local_pool), (2_000, ray_pool)])
    assert to_ray.iterations == straight.iterations == 4_000
    np.testing.assert_array_equal(to_ray.regret, straight.regret)
    np.testing.assert_array_equal(to_ray.strategy_sum, straight.strategy_sum)
    # back from Ray to one local worker: the single-process loop continues the checkpoint
    regret = to_ray.regret.copy()
    one = _checkpointed(tmp_path, "to_ray", [(1_000, None)])
    assert one.iterations == 5_000 and one.batches == 10
    assert not np.array_equal(one.regret, regret)


@pytest.mark.ray
def test_build_bots_trains_a_blueprint_on_ray_workers(ray_pool, tmp_path, monkeypatch, capsys):
    tiny = ShippedBlueprint("tiny.npz", TINY_SPEC, 60.0, "a tiny blueprint")
    monkeypatch.setattr(blueprint_build, "SHIPPED_BLUEPRINTS", (tiny,))
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        code = main(["build-bots", "--part", "hunl", "--out", str(tmp_path), "--backend",
                     "ray", "--workers", "2", "--iterations", "2000", "--round-iterations",
                     "500"])  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, handlers[0])
        signal.signal(signal.SIGTERM, handlers[1])
    out = capsys.readouterr().out
    assert code == 0, out
    assert '"workers": 2, "backend": "ray"' in out and '"event": "done", "iterations": 2000' in out
    assert (tmp_path / "tiny.npz").exists() and (tmp_path / "tiny.ckpt.npz").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--part", "hunl", "--workers", "0"], "--workers must be from 1"),
        (["--part", "hunl", "--backend", "spark"], "unknown backend 'spark'"),
        (["--part", "hunl", "--address", "127.0.0.1:1"], "use it with --backend ray"),
        (["--part", "hunl", "--round-iterations", "0"], "--round-iterations must be from 1"),
        (["--part", "toys", "--workers", "2"], "trains the full game"),
    ],
)
def test_bad_training_options_exit_2_with_one_line(tmp_path, capsys, argv, message):
    assert main(["build-bots", "--out", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.ray
def test_an_unreachable_cluster_exits_2_with_one_line(tmp_path, capsys):
    pytest.importorskip("ray")
    for address, message in [("127.0.0.1:1", "cannot reach the Ray cluster at 127.0.0.1:1"),
                             ("nowhere", "--address must be HOST:PORT")]:  # fmt: skip
        argv = ["build-bots", "--part", "hunl", "--out", str(tmp_path), "--backend", "ray",
                "--address", address]  # fmt: skip
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
