"""Files of every kind a user can hand a command: only regular files, bounded, linear time.

Also output paths (checked before a solve, links followed, special files refused), unique
temporary names, stale temporaries cleaned, and checkpoints that cannot be resumed from.
"""

import errno
import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from pokertui.cli import main
from solvers import atomic
from solvers.atomic import (
    OutputPathError,
    atomic_write,
    atomic_write_text,
    check_output_path,
    clean_stale_temps,
)
from solvers.user_files import (
    UserFileError,
    json_depth,
    load_user_json,
    loads_user_json,
    read_user_file,
)


@pytest.fixture
def specials(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    return {"fifo": fifo, "folder": folder, "dev_zero": Path("/dev/zero")}


@pytest.mark.parametrize("kind", ["fifo", "folder", "dev_zero"])
def test_only_regular_files_are_read(specials, kind):
    started = time.perf_counter()
    with pytest.raises(UserFileError, match="folder|regular file"):
        read_user_file(specials[kind], 1000)
    assert time.perf_counter() - started < 5  # a FIFO with no writer does not block


def test_reads_are_bounded(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 1001)
    with pytest.raises(UserFileError, match="limit"):
        read_user_file(path, 1000)
    assert read_user_file(path, 1001) == b"x" * 1001
    with pytest.raises(UserFileError, match="cannot read"):
        read_user_file(tmp_path / "missing", 10)
    with pytest.raises(UserFileError, match="cannot read"):
        read_user_file("a\0b", 10)


@pytest.mark.parametrize(
    ("text", "depth"),
    [("1", 0), ("[]", 1), ('{"a": [[1], {"b": 2}]}', 3), ('["[[[[", "]"]', 1), (r'["\"[["]', 1)],
)
def test_json_depth_ignores_brackets_in_strings(text, depth):
    assert json_depth(text) == depth

    def nesting(value) -> int:  # an independent count, on what python's own parser built
        if isinstance(value, dict):
            value = list(value.values())
        if not isinstance(value, list):
            return 0
        return 1 + max((nesting(child) for child in value), default=0)

    assert nesting(json.loads(text)) == depth


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ('{"a": ' * 5000 + "1" + "}" * 5000, "nested"),
        ("[" + "9" * 5000 + "]", "digits"),
        ("[1e999]", "too large"),
        ("[-1e999]", "too large"),
        ("[NaN]", "NaN"),
        ("[Infinity]", "Infinity"),
        ("[1,", "invalid JSON"),
    ],
)
def test_unsafe_json_is_a_clear_error(text, needle):
    with pytest.raises(UserFileError, match=needle):
        loads_user_json(text)


def test_load_user_json_reads_a_file(tmp_path):
    path = tmp_path / "a.json"
    path.write_text('{"x": [1, 2.5, "s"]}')
    assert load_user_json(path, 100) == {"x": [1, 2.5, "s"]}


# --- strategy files through every command that reads them -----------------------------------


def _bad_files(tmp_path, specials) -> dict[str, Path]:
    files = dict(specials)
    big = tmp_path / "big.json"
    with open(big, "wb") as out:
        out.truncate(50 * 2**20)  # 50 MB of NUL bytes
    files["big"] = big
    deep = tmp_path / "deep.json"
    deep.write_text('{"game": "kuhn", "nodes": ' + "[" * 5000 + "]" * 5000 + "}")
    files["deep"] = deep
    deep_game = tmp_path / "deep_game.json"
    deep_game.write_text(json.dumps({"game": "matrix(" + "[" * 3000 + "]" * 3000 + ")"}))
    files["deep_game"] = deep_game
    huge = tmp_path / "huge_int.json"
    huge.write_text('{"game": "kuhn", "format_version": ' + "9" * 5000 + ', "nodes": {}}')
    files["huge_int"] = huge
    inf_game = tmp_path / "inf.json"
    inf_game.write_text('{"game": "kuhn(ante=1e999)", "nodes": {}}')
    files["inf_game"] = inf_game
    nan_header = tmp_path / "nan_header.json"
    nan_header.write_text(
        '{"game": "kuhn", "defaults": "uniform", "nodes": {}, "measured": {"exploitability": '
        'NaN, "nash_conv": 0, "best_response_values": [0, 0], "game_value": 0, '
        '"mbb_per_hand": 0}}'
    )
    files["nan_header"] = nan_header
    return files


COMMANDS = [
    ["validate"],
    ["exploit"],
    ["show"],
    ["convert", "--to", "readable"],
    ["export-openspiel", "--out", "{out}"],
    ["play", "--hands", "3", "--bot"],
    ["play", "--hands", "3", "--opponent"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_every_command_refuses_bad_files_with_exit_2(tmp_path, specials, capsys, command):
    for name, path in _bad_files(tmp_path, specials).items():
        argv = [part.replace("{out}", str(tmp_path / "o.json")) for part in command]
        if argv[0] == "play" and argv[-1] == "--opponent":
            argv = [*argv, str(path)]
        else:
            argv = [*argv, str(path)] if argv[0] == "play" else [argv[0], str(path), *argv[1:]]
        started = time.perf_counter()
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2, (name, argv, err[-300:])
        assert "Traceback" not in err and "internal error" not in err, (name, err[-300:])
        assert time.perf_counter() - started < 30, name


def test_validation_time_is_linear_and_problems_are_capped(tmp_path, capsys):
    def make(count):
        path = tmp_path / f"keys{count}.json"
        nodes = {f"bad{i}": {} for i in range(count)}
        path.write_text(json.dumps({"game": "kuhn", "nodes": nodes}, indent=1))
        return path

    small, large = make(6_800), make(68_000)
    timings = []
    for path in (small, large):
        started = time.perf_counter()
        assert main(["validate", str(path), "--json"]) == 2
        timings.append(time.perf_counter() - started)
        report = json.loads(capsys.readouterr().out)
        assert len(report["problems"]) == 100
        assert report["problem_count"] == int(path.stem.removeprefix("keys")) + 4
    assert timings[1] < 30.0
    assert timings[1] < 20 * timings[0] + 2.0  # about linear (10x the keys), not quadratic
    assert main(["validate", str(large)]) == 2
    err = capsys.readouterr().err  # 68,000 extra nodes and the 4 real ones missing
    assert "(68004 problems)" in err and "... and 67954 more" in err


SPOTS = Path(__file__).parent.parent / "spots"
SMALL_INPUTS = [
    ["batch", "{in}"],
    ["batch", "flops", str(SPOTS / "flop.toml"), "--out", "{out}", "--flops", "{in}"],
    ["solve", str(SPOTS / "river.toml"), "--algo", "dcfr", "--iterations", "2", "--out",
     "{out}", "--lock", "{in}"],
]  # fmt: skip
"""Commands reading a small text file beside their main input: a job file, a flop list, a
lock file."""


@pytest.mark.parametrize("command", SMALL_INPUTS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("kind", ["fifo", "folder", "dev_zero"])
def test_small_inputs_are_read_only_from_regular_files(tmp_path, specials, capsys, command, kind):
    """``/dev/zero`` as a job file or a flop list was read until the memory ran out."""
    argv = [part.replace("{in}", str(specials[kind])).replace("{out}", str(tmp_path / "o"))
            for part in command]  # fmt: skip
    started = time.perf_counter()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert ("regular file" in err or "a folder" in err) and "internal error" not in err, err
    assert time.perf_counter() - started < 30


# --- output paths -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make_out", "needle"),
    [
        (lambda d: d, "folder"),
        (lambda d: d / "missing" / "x.json", "does not exist"),
        (lambda d: d / ("n" * 250 + ".json"), "too long"),
        (lambda d: d / "fifo", "regular file"),
    ],
)
def test_bad_outputs_are_refused_before_the_solve(tmp_path, specials, capsys, make_out, needle):
    out = make_out(tmp_path)
    code = main(["solve", "leduc", "--algo", "cfr", "--iterations", "1000000", "--out",
                 str(out), "--json"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 2 and needle in captured.err
    assert captured.out == ""  # refused before the first progress line: no work was done
    code = main(["solve", "kuhn", "--algo", "cfr", "--iterations", "1000000", "--out",
                 str(tmp_path / "ok.json"), "--checkpoint", str(out), "--json"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 2 and needle in captured.err and captured.out == ""
    assert not (tmp_path / "ok.json").exists()


def test_out_and_checkpoint_must_differ(tmp_path, capsys):
    out = tmp_path / "x.json"
    assert main(["solve", "kuhn", "--algo", "cfr", "--iterations", "3", "--out", str(out),
                 "--checkpoint", str(out)]) == 2  # fmt: skip
    assert "different" in capsys.readouterr().err


def test_writing_through_a_symlink_updates_its_target(tmp_path, capsys):
    target = tmp_path / "real" / "kuhn.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main(["solve", "kuhn", "--algo", "cfr+", "--iterations", "20", "--out", str(link),
                 "--json"]) == 0  # fmt: skip
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text())["game"].startswith("kuhn")
    atomic_write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_check_output_path_follows_links_and_refuses_specials(tmp_path, specials):
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere.json")
    assert check_output_path(dangling) == tmp_path / "nowhere.json"
    to_fifo = tmp_path / "to_fifo"
    to_fifo.symlink_to(specials["fifo"])
    with pytest.raises(OutputPathError, match="regular file"):
        check_output_path(to_fifo)
    with pytest.raises(OSError):  # code that handles failed writes handles these too
        atomic_write_text(specials["folder"], "x")
    with pytest.raises(OutputPathError, match="regular file"):
        check_output_path("/dev/null")  # checked only: a regression must not replace a device


NO_NEW_FILES = Path("/proc/pokertui-output.json")
"""A path whose folder takes no new file whoever asks, root included (its permission bits
say root may write there)."""


KUHN = str(Path(__file__).parent.parent / "strategies" / "kuhn.json")


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    "command",
    [
        ["lbr", "hunl(100)", "--bot", "call", "--hands", "2", "--json", "--checkpoint"],
        ["match", "hunl(100)", "--bot", "call", "--opponent", "call", "--hands", "2", "--json",
         "--checkpoint"],
        ["solve", "kuhn", "--algo", "cfr", "--iterations", "1000000", "--json", "--out"],
        ["play", "--game", "hunl(100)", "--bot", "call", "--opponent", "call", "--hands", "2",
         "--json", "--history"],
        ["export-openspiel", KUHN, "--out"],
    ],
)  # fmt: skip
def test_a_folder_that_takes_no_new_file_is_refused_before_any_work(capsys, command):
    assert main([*command, str(NO_NEW_FILES)]) == 2
    captured = capsys.readouterr()
    assert "does not take new files" in captured.err and "internal error" not in captured.err
    assert captured.out == ""  # no deal played, no iteration run, nothing exported


def test_a_write_that_fails_midway_keeps_the_last_version(tmp_path):
    out = tmp_path / "x.json"
    atomic_write_text(out, "good")

    def fill_the_disk(handle):
        handle.write(b"half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(OutputPathError, match="No space left"):
        atomic_write(out, fill_the_disk)
    assert out.read_text() == "good" and [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_a_checkpoint_that_fails_mid_run_exits_2_with_the_chunks_before_it_kept(
    tmp_path, capsys, monkeypatch
):
    path = tmp_path / "run.json"
    command = ["lbr", "hunl(100)", "--bot", "call", "--chunk-deals", "1", "--workers", "1",
               "--checkpoint", str(path), "--json"]  # fmt: skip
    assert main([*command, "--hands", "1"]) == 0
    kept = path.read_bytes()
    capsys.readouterr()
    made = atomic._temporary

    def full_after_the_probe(target, directory):
        if len(calls) == 1:  # the check before the run passes; the first save finds it full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        calls.append(target)
        return made(target, directory)

    calls: list[Path] = []
    monkeypatch.setattr(atomic, "_temporary", full_after_the_probe)
    assert main([*command, "--hands", "3"]) == 2
    err = capsys.readouterr().err
    assert "No space left" in err and "internal error" not in err
    assert path.read_bytes() == kept  # the deal finished before is still there
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_temporary_names_are_unique_and_stale_ones_are_cleaned(tmp_path):
    out = tmp_path / "x.json"
    dead_pid = 2**22 + 12345  # above the kernel's pid limit: never a live process
    stale = tmp_path / f".x.json.{dead_pid}.abcd1234.tmp"
    stale.write_text("half")
    live = tmp_path / f".x.json.{os.getpid()}.efgh5678.tmp"
    live.write_text("mine")
    assert clean_stale_temps(out) == [stale]
    assert not stale.exists() and live.exists()


# --- checkpoints that cannot be resumed from ------------------------------------------------


def _checkpoint_variants(tmp_path, good: Path) -> dict[str, Path]:
    data = good.read_bytes()
    with np.load(good) as loaded:
        arrays = {k: loaded[k] for k in loaded.files}
    variants = {}

    def write(name, payload):
        path = tmp_path / f"{name}.npz"
        if isinstance(payload, bytes):
            path.write_bytes(payload)
        else:
            np.savez(path, **payload)
        variants[name] = path

    write("truncated", data[: len(data) // 2])
    write("garbage", os.urandom(2000))
    write("empty", b"")
    key = next(k for k in arrays if k.startswith("state/"))
    write("nan", {**arrays, key: np.full_like(arrays[key], np.nan)})
    write("negative_iterations", {**arrays, "iterations": np.array(-5)})
    write("foreign_game", {**arrays, "game": np.array("leduc(ante=2,raises=[2,4],max_raises=2)")})
    write("foreign_solver", {**arrays, "settings": np.array("[('algorithm', 'dcfr')]")})
    write("missing_key", {k: v for k, v in arrays.items() if k != "game"})
    write("wrong_shape", {**arrays, key: np.zeros(3)})
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, **arrays, extra=np.array([{"evil": 1}], dtype=object))
    variants["pickled"] = pickled
    single = tmp_path / "single.npy"
    np.save(single, np.zeros(3))
    variants["single_array"] = single
    return variants


def test_unusable_checkpoints_exit_2_with_a_message(tmp_path, specials, capsys):
    out = tmp_path / "kuhn.json"
    base = ["solve", "kuhn", "--algo", "cfr+", "--json", "--out", str(out)]
    assert main([*base, "--iterations", "10"]) == 0
    good = Path(f"{out}.ckpt.npz")
    capsys.readouterr()
    variants = _checkpoint_variants(tmp_path, good)
    variants.update(fifo=specials["fifo"], folder=specials["folder"])
    before = out.read_bytes()
    for name, path in variants.items():
        code = main([*base, "--iterations", "20", "--resume", "--checkpoint", str(path)])
        err = capsys.readouterr().err
        assert code == 2, (name, err)
        assert "internal error" not in err and "error:" in err, (name, err)
        assert out.read_bytes() == before, name  # a failed resume writes nothing
    assert main([*base, "--iterations", "20", "--resume"]) == 0  # the good one still works


def test_recording_lbr_into_a_full_disk_says_why_and_keeps_the_file(tmp_path, monkeypatch):
    """``lbr --record`` rewrites the strategy file: a failed write said "cannot write F: None"
    once the write raised ``OutputPathError`` (whose ``strerror`` is unset)."""
    from solvers.reports.lbr.record import record_lbr  # noqa: PLC0415

    path = tmp_path / "push_fold.json"
    path.write_bytes((Path(KUHN).parent / "push_fold_10bb.json").read_bytes())
    before = path.read_bytes()

    def full(target, directory):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_temporary", full)
    result = {"action_set": "fc", "streets": ["preflop"], "exact": True, "unit": "mbb_per_hand",
              "value": 1.0, "ci95": 0.0, "seat_values": [2.0, 0.0], "river_resolve": None}
    with pytest.raises(OutputPathError, match="No space left") as raised:
        record_lbr(path, result)
    assert "None" not in str(raised.value) and path.read_bytes() == before
