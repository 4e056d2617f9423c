"""Checkpointed full-game runs (``--checkpoint``): a stopped match or LBR run resumes from the
chunks it saved and ends with the figures of a run never stopped; more deals extend a finished
run; a file of another run or a broken one is refused with exit 2, and nothing is mixed in."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokertui.cli import main
from solvers.agents.registry import make_agent
from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig
from solvers.reports.checkpoint import ChunkCheckpoint, run_checkpoint
from solvers.reports.hunl_match import play_duplicate
from solvers.reports.lbr.hunl_run import evaluate_hunl

CONFIG = HunlConfig(100)


def match(deals: int, checkpoint=None, seed: int = 3, progress=None) -> dict:
    return play_duplicate(CONFIG, "call", "random-action", make_agent, deals, seed=seed,
                          workers=1, progress=progress, chunk_deals=4,
                          checkpoint=None if checkpoint is None else str(checkpoint))  # fmt: skip


class Stop(Exception):
    pass


def test_a_stopped_match_resumes_from_its_chunks_and_ends_as_if_never_stopped(tmp_path):
    whole = match(20)
    path = tmp_path / "run.json"

    def stop_after_two(done: int) -> None:  # Ctrl-C once two chunks are in
        if done >= 8:
            raise Stop

    with pytest.raises(Stop):
        match(20, path, progress=stop_after_two)
    saved = json.loads(path.read_text())
    assert sorted(saved["chunks"]) == ["0", "1"]
    seen: list[int] = []
    assert match(20, path, progress=seen.append) == whole
    assert seen[0] == 8 and seen[-1] == 20 and len(seen) == 4  # three chunks played, not five
    assert sorted(json.loads(path.read_text())["chunks"], key=int) == ["0", "1", "2", "3", "4"]
    # the saved chunks are what the resumed run uses: a changed chip shows in its mean
    saved = json.loads(path.read_text())
    saved["chunks"]["1"][0][0] += 1000.0
    for index in ("2", "3", "4"):
        del saved["chunks"][index]
    path.write_text(json.dumps(saved))
    assert match(20, path)["chips"] == pytest.approx(whole["chips"] + 1000.0 / 40)


def test_more_deals_extend_a_finished_run(tmp_path):
    path = tmp_path / "run.json"
    match(10, path)  # chunks of 4, 4 and 2 deals
    seen: list[int] = []
    assert match(16, path, progress=seen.append) == match(16)
    assert seen == [8, 12, 16]  # the short last chunk is played again whole, then one more


def test_full_game_lbr_resumes_too(tmp_path):
    path = tmp_path / "lbr.json"

    def lbr(deals: int, checkpoint=None) -> dict:
        return evaluate_hunl(CONFIG, "call", make_agent, "fc", deals, seed=5, workers=1,
                             chunk_deals=2, checkpoint=checkpoint)  # fmt: skip

    lbr(4, str(path))
    assert lbr(6, str(path)) == lbr(6)
    with pytest.raises(InputError, match="another run"):
        evaluate_hunl(CONFIG, "call", make_agent, "fcpa", 6, seed=5, workers=1, chunk_deals=2,
                      checkpoint=str(path))  # fmt: skip


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    return code, *capsys.readouterr()


def test_another_runs_file_or_a_broken_one_exits_2_and_is_left_alone(capsys, tmp_path):
    path = tmp_path / "run.json"
    args = ["match", "hunl(100)", "--bot", "call", "--opponent", "random-action", "--hands", "8",
            "--chunk-deals", "4", "--workers", "1", "--json", "--checkpoint", path]  # fmt: skip
    code, out, _ = run_cli(capsys, *args)
    assert code == 0
    before = path.read_bytes()
    for change in (["--seed", "9"], ["--chunk-deals", "2"], ["--opponent", "call"]):
        code, _, err = run_cli(capsys, *args, *change)
        assert code == 2 and "another run" in err and "Traceback" not in err
        assert path.read_bytes() == before
    run = json.loads(before)
    broken = [{"0": [[1.0, "x"]]}, {"-1": [[1.0, 2.0]]}, {"0": [[1.0, 2.0, 3.0]]}, {"0": []}]
    for text in ("", "not json", "[1, 2]", '{"format": "pokertui-chunks", "version": 7}',
                 *(json.dumps({**run, "chunks": chunks}) for chunks in broken)):  # fmt: skip
        path.write_text(text)
        code, _, err = run_cli(capsys, *args)
        assert code == 2 and "checkpoint" in err and "Traceback" not in err
        assert path.read_text() == text
    for special in (tmp_path, "/dev/null"):
        code, _, err = run_cli(capsys, *args[:-1], special)
        assert code == 2 and "Traceback" not in err
    code, _, err = run_cli(capsys, "lbr", "strategies/kuhn.json", "--checkpoint", path)
    assert code == 2 and "--checkpoint is for the full game" in err


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=4),  # fmt: skip
    max_leaves=12,
)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(chunks=JSON, columns=st.sampled_from([2, 4]))
def test_any_chunks_field_loads_or_is_refused_clearly(tmp_path, chunks, columns):
    """``columns``: 4 for LBR with control variates (both scores of both seats)."""
    identity = {"command": "match", "seed": 1}
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps({"format": "pokertui-chunks", "version": 1, "run": identity,
                                "chunks": chunks}))  # fmt: skip
    try:
        loaded = ChunkCheckpoint(path, identity, columns=columns)
    except InputError as exc:
        assert "checkpoint" in str(exc)
    else:
        for index, rows in loaded.chunks.items():
            assert index >= 0 and rows.ndim == 2 and rows.shape[1] == columns


def test_a_match_killed_mid_run_leaves_a_whole_checkpoint_and_resumes(tmp_path):
    """SIGKILL runs no handler: the file is whole because every save replaces it atomically."""
    path = tmp_path / "killed.json"
    argv = [sys.executable, "-m", "pokertui", "match", "hunl(100)", "--bot", "call",
            "--opponent", "random-action", "--hands", "2000", "--seed", "3", "--chunk-deals",
            "4", "--workers", "1", "--json", "--checkpoint", str(path)]  # fmt: skip
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not path.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)
    time.sleep(0.2)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL  # killed before the end
    saved = ChunkCheckpoint(path, json.loads(path.read_text())["run"]).chunks
    assert 0 < len(saved) < 500
    assert match(2000, path) == match(2000)


def test_a_bot_files_bytes_name_the_run_not_its_path_stamp(tmp_path):
    """A copy or a touch of the same bot file resumes (a clone or a checkout gives every file a
    new time); other bytes are another run; a file named by size and time, as checkpoints were
    before the digests, resumes while its bot file is untouched and is renamed by its next save."""
    bot = tmp_path / "bot.npz"
    bot.write_bytes(b"blueprint bytes")
    path = tmp_path / "run.json"

    def checkpoint():
        return run_checkpoint(str(path), "match", "hunl(100)", {"bot": str(bot)}, 3, 4)

    checkpoint().save(0, np.array([[1.0, -1.0]] * 4))
    for _ in range(2):
        bot.unlink()
        bot.write_bytes(b"blueprint bytes")  # a new file, a new modification time
        os.utime(bot, ns=(1, 1))
        assert checkpoint().known(0, 4) is not None
    saved = path.read_text()
    bot.write_bytes(b"blueprint bytez")
    with pytest.raises(InputError, match="another run.*sha256"):
        checkpoint()
    assert path.read_text() == saved
    # the older naming: size and modification time
    bot.write_bytes(b"blueprint bytes")
    old = json.loads(saved)
    old["run"]["files"] = {str(bot): [bot.stat().st_size, bot.stat().st_mtime_ns]}
    path.write_text(json.dumps(old))
    resumed = checkpoint()
    assert resumed.known(0, 4) is not None
    resumed.save(1, np.array([[2.0, -2.0]] * 4))
    assert json.loads(path.read_text())["run"] == json.loads(saved)["run"]
    path.write_text(json.dumps(old))
    os.utime(bot, ns=(1, 1))
    with pytest.raises(InputError, match="another run"):
        checkpoint()


def test_a_bot_file_that_cannot_be_read_is_a_clear_error(tmp_path):
    """/proc/self/mem is a regular file whose first bytes fail to read (EIO)."""
    with pytest.raises(InputError, match="cannot read the bot file /proc/self/mem"):
        run_checkpoint(str(tmp_path / "run.json"), "lbr", "hunl(100)",
                       {"bot": "resolve:/proc/self/mem"}, 1, 2)  # fmt: skip
