"""``kill -9`` at any moment loses at most one checkpoint interval and never a save.

A long solve writes its checkpoint every ``--checkpoint-every`` seconds: killed with SIGKILL,
it resumes from the last one. A process saving a session in a loop, killed at random moments,
always leaves a save or a backup that loads. Concurrent solves with the same ``--out`` never
crash or mix their files: the second one is refused at once.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pokertui.session.saves import load_session
from tests.conftest import STRATEGIES

pytestmark = pytest.mark.slow


def _solve(out: Path, *extra: str) -> subprocess.Popen:
    argv = [sys.executable, "-m", "pokertui", "solve", "leduc", "--algo", "cfr", "--out",
            str(out), "--json", *extra]  # fmt: skip
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(predicate, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


def _iterations(checkpoint: Path) -> int:
    with np.load(checkpoint) as data:
        return int(data["iterations"])


def test_a_killed_solve_resumes_from_its_periodic_checkpoint(tmp_path):
    out = tmp_path / "leduc.json"
    checkpoint = Path(f"{out}.ckpt.npz")
    run = _solve(out, "--iterations", str(10**9), "--checkpoint-every", "0.3", "--every", "0.1")
    try:
        _wait_for(checkpoint.exists, 60)
        first = _iterations(checkpoint)
        _wait_for(lambda: _iterations(checkpoint) > first, 60)  # it keeps checkpointing
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait(30)
    saved = _iterations(checkpoint)
    assert saved > 0 and not out.exists()
    resumed = _solve(out, "--iterations", str(saved + 10), "--resume")
    stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    final = json.loads(stdout.strip().splitlines()[-1])
    assert final["event"] == "done" and final["iterations"] == saved + 10
    assert not [p for p in tmp_path.iterdir() if p.name.endswith((".tmp", ".lock"))]


def test_concurrent_solves_with_one_output_do_not_mix(tmp_path):
    out = tmp_path / "leduc.json"
    first = _solve(out, "--iterations", str(10**9), "--every", "0.1")
    try:
        _wait_for(lambda: (tmp_path / ".leduc.json.lock").exists(), 60)
        second = _solve(out, "--iterations", "5")
        _, stderr = second.communicate(timeout=60)
        assert second.returncode == 2 and "another solve" in stderr
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=60)
    assert first.returncode == 130  # interrupted cleanly, with its checkpoint
    third = _solve(out, "--iterations", "5")
    _, stderr = third.communicate(timeout=60)
    assert third.returncode == 0, stderr


SAVE_LOOP = """
import sys
import numpy as np
from pokertui.session import Session
from pokertui.session.saves import save_session
from solvers.strategy_file import load_strategy

session = Session(load_strategy(sys.argv[1]), seed=5)
rng = np.random.default_rng(5)
print("ready", flush=True)
while True:
    session.new_hand()
    while session.human_to_act:
        session.act(str(rng.choice(session.node.actions)))
    save_session(session, sys.argv[2])
"""


def test_killing_a_save_loop_always_leaves_a_loadable_save(tmp_path):
    path = tmp_path / "loop.json"
    rng = np.random.default_rng(0)
    for _ in range(12):
        loop = subprocess.Popen(
            [sys.executable, "-c", SAVE_LOOP, str(STRATEGIES / "kuhn.json"), str(path)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert loop.stdout.readline().strip() == "ready"
        time.sleep(float(rng.uniform(0.05, 0.4)))
        os.kill(loop.pid, signal.SIGKILL)
        loop.wait(30)
        if not path.exists() and not path.with_suffix(".json.bak").exists():
            continue  # killed before its first save
        session, _ = load_session(path)  # the save, or its backup
        assert session.hands
    from pokertui.session.saves import save_session  # noqa: PLC0415

    save_session(session, path)  # the next save removes what killed writers left behind
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
