"""A pooled full-game run killed by SIGTERM (a scheduler's stop, ``kill``) stops its workers,
keeps its finished chunks in the checkpoint and says "interrupted" (exit 130) with no worker's
traceback; the checkpoint it leaves is whole (``commands/interrupt.py``)."""

import json
import os
import signal
import subprocess
import sys
import time

from tests.conftest import ROOT


def _chunks(path) -> int:
    try:
        return len(json.loads(path.read_text())["chunks"])
    except (OSError, ValueError, KeyError):  # not written yet, or being replaced
        return 0


def test_a_match_killed_by_sigterm_keeps_its_chunks_and_resumes(tmp_path):
    checkpoint = tmp_path / "match.json"
    command = [sys.executable, "-m", "pokertui", "match", "hunl(100)", "--bot", "call",
               "--opponent", "random-action", "--hands", "200000", "--chunk-deals", "20",
               "--workers", "2", "--checkpoint", str(checkpoint), "--json"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while _chunks(checkpoint) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "pokertui: interrupted" in err and "Traceback" not in err, err
    kept = _chunks(checkpoint)
    assert 2 <= kept < 200_000 // 20

    pool = [sys.executable, "-m", "pokertui", "pool", str(checkpoint), "--json"]
    pooled = subprocess.run(pool, cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert pooled.returncode == 0, pooled.stderr  # a whole file, every kept chunk readable
    assert json.loads(pooled.stdout)["pooled"]["deals"] == 20 * kept
