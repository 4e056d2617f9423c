"""Damaged files: every kind of file pokertui loads, with bits flipped anywhere (inside
compressed streams too), cut short, zeroed in places or followed by junk, either loads as the
file it was or is refused with exit 2 and a message naming it; never an internal error, never
a traceback, and a bot or spot file whose body changed is never played (its header's SHA-256
of the body, ``solvers/file_reading.py``).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokertui.cli import main, run_reported
from pokertui.session.saves import load_session, save_session
from solvers.abstraction.betting import parse_betting
from solvers.abstraction.betting_tree import DECISION, build_tree, root_state
from solvers.abstraction.buckets import parse_abstraction
from solvers.games.hunl.rules import HunlConfig
from solvers.reports.checkpoint import ChunkCheckpoint, file_digests
from solvers.runs.request import RunRequest
from solvers.runs.solve_run import execute
from solvers.strategy_file import binary_layout as frame
from solvers.strategy_file import load_strategy
from solvers.strategy_file.blueprint_file import (
    DIGEST_KEY,
    quantise_rows,
    read_blueprint,
    write_blueprint,
)
from tests.conftest import STRATEGIES

SPOT = ('nlhe(board="Qs Jh 2h 7s 3h",pot=100,stack=100,oop_range="AA,KK,AKs,T9s",'
        'ip_range="AA,JJ,AQs,98s",river_oop_bet="75%",river_ip_bet="75%")')  # fmt: skip
"""A river spot with a suit swap (no club, no diamond): a binary file of a few KB."""
BETTING = "pre=2.5x,a|a; flop=a|a; turn=a; river=a"
CARDS = "hs2(flop=combo,turn=combo,river=combo)"


def tiny_blueprint(path: Path, seed: int = 0) -> Path:
    """A 10 bb blueprint with random rows (no training: the file is what is tested)."""
    config = HunlConfig(10)
    tree = build_tree(parse_betting(BETTING), root_state(config))
    n_buckets = parse_abstraction(CARDS).n_buckets
    decisions = np.flatnonzero(tree.kind == DECISION)
    rows = np.asarray(n_buckets, dtype=np.int64)[tree.street[decisions].astype(np.int64)]
    lengths = np.repeat(tree.n_actions[decisions].astype(np.int64), rows)
    # few distinct rows: the file stays small, the compressed stream is still a real one
    pick = np.random.default_rng(seed).random((8, int(lengths.max())))
    probabilities = np.concatenate([pick[i % 8, :n] for i, n in enumerate(lengths)])
    header = {"game": "hunl(stack_bb=10)", "stack_bb": 10, "betting": BETTING, "cards": CARDS,
              "iterations": 0, "lbr": {}}  # fmt: skip
    return write_blueprint(path, header, quantise_rows(probabilities, lengths))


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """One small valid file of each kind."""
    folder = tmp_path_factory.mktemp("valid")
    made = {"json": folder / "kuhn.json", "json.gz": folder / "kuhn.json.gz"}
    shutil.copy(STRATEGIES / "kuhn.json", made["json"])
    made["json.gz"].write_bytes(gzip.compress((STRATEGIES / "kuhn.json").read_bytes(), mtime=0))
    made["ptsb"] = folder / "river.ptsb"
    execute(RunRequest(game=SPOT, algo="dcfr", out=made["ptsb"], iterations=20),
            lambda event: None, lambda: False)  # fmt: skip
    made["npz"] = tiny_blueprint(folder / "tiny.npz")
    made["save"] = folder / "save.json"
    from pokertui.session import Session  # noqa: PLC0415

    session = Session(load_strategy(STRATEGIES / "kuhn.json"), seed=3)
    rng = np.random.default_rng(3)
    for _ in range(3):
        session.new_hand()
        while session.human_to_act:
            session.act(str(rng.choice(session.node.actions)))
    save_session(session, made["save"])
    made["ckpt"] = folder / "kuhn.ckpt.npz"
    execute(RunRequest(game="kuhn", algo="cfr+", out=folder / "kuhn_out.json", iterations=5,
                       checkpoint=made["ckpt"]), lambda event: None, lambda: False)  # fmt: skip
    made["chunks"] = folder / "run.json"
    chunks = ChunkCheckpoint(made["chunks"], {"command": "lbr", "game": "hunl(100)",
                                              "seed": 1, "chunk_deals": 2})  # fmt: skip
    chunks.save(0, np.array([[1.0, -2.5], [0.0, 3.0]]))
    chunks.save(1, np.array([[4.0, 1.0], [2.0, 2.0]]))
    return made


def old_blueprint(path: Path, header: dict, strategy: np.ndarray) -> Path:
    """A blueprint as written before the digest (or any header and body, unchecked)."""
    text = json.dumps(header).encode()
    np.savez_compressed(path, header=np.frombuffer(text, dtype=np.uint8), strategy=strategy)
    return path


def _strategy_rows(path: Path) -> list[np.ndarray]:
    loaded = load_strategy(path)
    return [np.asarray(loaded.strategy[n.id]) for n in loaded.game.decision_nodes()]


def _run(call: Callable[[], int | None]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = run_reported(call)
    return code, err.getvalue()


def _cli(*argv: str) -> Callable[[], int]:
    return lambda: main(list(argv))


PLAY = ("play", "--game", "hunl(stack_bb=10)", "--opponent", "call", "--hands", "1", "--json")
RESUME = ("solve", "kuhn", "--algo", "cfr+", "--iterations", "6", "--resume", "--json")
RUNS: dict[str, Callable[[Path, Path], Callable[[], int | None]]] = {
    "json": lambda path, out: _cli("validate", str(path)),
    "json.gz": lambda path, out: _cli("validate", str(path)),
    "ptsb": lambda path, out: _cli("validate", str(path)),
    "npz": lambda path, out: _cli(*PLAY, "--bot", str(path)),
    "save": lambda path, out: lambda: load_session(path) and 0,
    "ckpt": lambda path, out: _cli(*RESUME, "--out", str(out), "--checkpoint", str(path)),
    "chunks": lambda path, out: _cli("pool", str(path)),
}
"""How each kind is loaded: the command that reads it, or the loader as the CLI reports it."""


def body_start(kind: str, path: Path) -> int:
    """Where a file's strategy body begins (its header is most of a small file's bytes)."""
    raw = path.read_bytes()
    if kind == "ptsb":
        head, _ = frame.read_frame(path)
        return min(s["offset"] for s in head["sections"].values())
    if kind == "npz":
        return raw.index(b"strategy.npy")
    return 0


@st.composite
def damage(draw, size: int, body: int) -> list[tuple]:
    """One to three changes, anywhere or in the body: bits flipped, a cut, a range zeroed,
    junk appended."""
    changes = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "flip", "cut", "zero", "junk"]))
        at = draw(st.integers(0, max(size - 1, 0)) | st.integers(min(body, size - 1), size - 1))
        if kind == "flip":
            changes.append(("flip", at, 1 << draw(st.integers(0, 7))))
        elif kind == "cut":
            changes.append(("cut", at))
        elif kind == "zero":
            changes.append(("zero", at, draw(st.integers(1, 64))))
        else:
            changes.append(("junk", draw(st.binary(min_size=1, max_size=64))))
    return changes


def damaged_bytes(raw: bytes, changes: list[tuple]) -> bytes:
    data = bytearray(raw)
    for change in changes:
        if change[0] == "flip" and change[1] < len(data):
            data[change[1]] ^= change[2]
        elif change[0] == "cut":
            del data[change[1] :]
        elif change[0] == "zero":
            span = slice(change[1], change[1] + change[2])
            data[span] = bytes(len(data[span]))
        elif change[0] == "junk":
            data += change[1]
    return bytes(data)


SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip


@pytest.mark.parametrize("kind", list(RUNS))
@SETTINGS
@given(data=st.data())
def test_a_damaged_file_loads_as_itself_or_is_refused_naming_it(files, tmp_path, kind, data):
    raw = files[kind].read_bytes()
    changes = data.draw(damage(len(raw), body_start(kind, files[kind])))
    path = tmp_path / files[kind].name
    path.write_bytes(damaged_bytes(raw, changes))
    code, err = _run(RUNS[kind](path, tmp_path / "out.json"))
    assert "internal error" not in err and "Traceback" not in err, (changes, err)
    assert code in (0, 2), (changes, err)
    if code == 2:
        assert str(path) in err, (changes, err)
    elif kind in ("ptsb", "json.gz"):  # what loads is what was written (JSON has no check)
        for got, want in zip(_strategy_rows(path), _strategy_rows(files[kind]), strict=True):
            np.testing.assert_array_equal(got, want)
    elif kind == "npz":
        assert np.array_equal(read_blueprint(path).strategy, read_blueprint(files[kind]).strategy)


def test_flipped_bits_in_a_blueprints_deflate_stream_exit_2_naming_the_file(files, tmp_path):
    """The stream's damage surfaces when the strategy is inflated, not when the zip opens."""
    raw = bytearray(files["npz"].read_bytes())
    start = raw.index(b"strategy.npy") + len("strategy.npy") + 200
    for k in (0, 40, 80):
        raw[start + k] ^= 0x10
    path = tmp_path / "bot.npz"
    path.write_bytes(bytes(raw))
    code, err = _run(RUNS["npz"](path, tmp_path))
    assert code == 2 and str(path) in err and "damaged" in err, err


@pytest.mark.parametrize("field, value", [("flags", 0x1), ("flags", 0x20), ("flags", 0x40),
                                          ("method", 99)])  # fmt: skip
def test_a_zip_directory_bit_that_asks_a_password_or_a_method_exits_2_naming_the_file(
    files, tmp_path, field, value
):  # fmt: skip
    """One flipped bit in the central directory marks a member encrypted (zipfile then asks
    for a password: a RuntimeError), patched or strongly encrypted, or names a compression
    method zipfile lacks (NotImplementedError); numpy writes none of these."""
    raw = bytearray(files["npz"].read_bytes())
    entry = raw.index(b"PK\x01\x02")  # the first member's central directory record
    at = entry + (8 if field == "flags" else 10)
    old = int.from_bytes(raw[at : at + 2], "little")
    raw[at : at + 2] = ((old | value) if field == "flags" else value).to_bytes(2, "little")
    path = tmp_path / "bot.npz"
    path.write_bytes(bytes(raw))
    code, err = _run(RUNS["npz"](path, tmp_path))
    assert code == 2 and str(path) in err and "damaged" in err, err


def test_a_blueprint_with_another_body_in_a_whole_zip_is_refused(files, tmp_path):
    """A random strategy in an intact archive under the original header is not played."""
    loaded = read_blueprint(files["npz"])
    body = np.random.default_rng(1).integers(0, 256, loaded.strategy.size).astype(np.uint8)
    path = old_blueprint(tmp_path / "swapped.npz", loaded.header, body)
    code, err = _run(RUNS["npz"](path, tmp_path))
    assert code == 2 and str(path) in err and "does not match the SHA-256" in err, err


def test_a_file_without_a_digest_says_how_to_get_one_and_add_digest_gives_it(files, tmp_path):
    """Blueprint and binary spot: refused with the commands that rebuild it; ``add-digest``
    checks it and writes the digest, the body unchanged, and it plays again."""
    loaded = read_blueprint(files["npz"])
    header = {k: v for k, v in loaded.header.items() if k != DIGEST_KEY}
    old_npz = old_blueprint(tmp_path / "old.npz", header, loaded.strategy)
    head, _ = frame.read_frame(files["ptsb"])
    first = min(s["offset"] for s in head["sections"].values())
    body = files["ptsb"].read_bytes()[first:]
    old_ptsb = tmp_path / "old.ptsb"
    named = {name: np.frombuffer(body, dtype=np.dtype(s["dtype"]), offset=s["offset"] - first,
                                 count=int(np.prod(s["shape"]))).reshape(s["shape"])
             for name, s in head.pop("sections").items()}  # fmt: skip
    head.pop(frame.DIGEST_KEY)
    prefix, _ = frame.frame(named, head)
    old_ptsb.write_bytes(prefix + body)
    for path, rebuild in ((old_npz, "build-bots --part hunl"), (old_ptsb, "pokertui solve")):
        run = RUNS["npz" if path.suffix == ".npz" else "ptsb"](path, tmp_path)
        code, err = _run(run)
        assert code == 2 and str(path) in err and rebuild in err, err
        assert f"pokertui add-digest {path}" in err
        assert _run(_cli("add-digest", str(path)))[0] == 0
        assert _run(run)[0] == 0
    assert np.array_equal(read_blueprint(old_npz).strategy, loaded.strategy)
    head, _ = frame.read_frame(old_ptsb)
    start = min(s["offset"] for s in head["sections"].values())
    assert old_ptsb.read_bytes()[start:] == body
    strategy = loaded.strategy.copy()
    strategy[:3] = 0  # rows not summing to 255: not given a digest
    rows = old_blueprint(tmp_path / "rows.npz", header, strategy)
    code, err = _run(_cli("add-digest", str(rows)))
    assert code == 2 and "do not sum to 255" in err and str(rows) in err, err


@pytest.mark.parametrize("tail", ["cut", "junk"])
def test_a_gzip_strategy_is_read_to_its_end(files, tmp_path, tail):
    """A ``.json.gz`` cut before its trailer (the CRC is never checked) or followed by other
    bytes is damaged, though the JSON inside inflates whole."""
    raw = files["json.gz"].read_bytes()
    path = tmp_path / "kuhn.json.gz"
    path.write_bytes(raw[:-8] if tail == "cut" else raw + b"\x00junk")
    code, err = _run(RUNS["json.gz"](path, tmp_path))
    assert code == 2 and str(path) in err and "gzip" in err, err


def test_checkpoints_name_a_bot_file_by_its_body(files, tmp_path):
    """A header rewritten (a figure recorded) keeps the run; other bytes of the body do not."""
    bot = tmp_path / "bot.npz"
    shutil.copy(files["npz"], bot)
    before = file_digests([str(bot)])[str(bot)]
    assert before == "body-" + read_blueprint(bot).header[DIGEST_KEY]
    from solvers.strategy_file.blueprint_file import record_lbr  # noqa: PLC0415

    record_lbr(bot, {"fc 3-4": {"mbb_per_hand": 1.0}})
    assert file_digests([str(bot)])[str(bot)] == before
    tiny_blueprint(bot, seed=1)
    assert file_digests([str(bot)])[str(bot)] != before


def test_an_array_header_naming_more_data_than_its_member_is_refused_before_allocating(
    files, tmp_path
):
    """numpy allocates what a ``.npy`` header names before reading: a flipped shape could ask
    for terabytes (a MemoryError, an internal error) before the zip's CRC is ever checked."""
    made = tmp_path / "made.npz"
    np.savez(made, regrets=np.zeros(100_000))  # past the zip reader's first read: no CRC yet
    raw = made.read_bytes()
    at = raw.index(b"'shape': (") + len(b"'shape': (")
    end = raw.index(b")", at)
    wanted = b"99999999999999,"
    grown = raw[:at] + wanted + raw[end:]
    pad = grown.index(b"\n", at)  # the header's padding absorbs the longer shape
    grown = grown[: pad - (len(wanted) - (end - at))] + grown[pad:]
    assert len(grown) == len(raw)
    path = tmp_path / "big.ckpt.npz"
    path.write_bytes(grown)
    code, err = _run(RUNS["ckpt"](path, tmp_path / "out.json"))
    assert code == 2 and str(path) in err and "more data than it holds" in err, err


def test_a_checkpoint_naming_a_bot_by_its_whole_file_resumes(files, tmp_path):
    """A run's checkpoint written when bot files were named by all their bytes resumes while
    the file is unchanged, and its next save names the bot by its body."""
    from solvers.reports.checkpoint import run_checkpoint  # noqa: PLC0415

    bot = tmp_path / "bot.npz"
    shutil.copy(files["npz"], bot)
    path = tmp_path / "run.json"

    def checkpoint():
        return run_checkpoint(str(path), "match", "hunl(10)", {"bot": str(bot)}, 3, 2)

    checkpoint().save(0, np.array([[1.0, -1.0]] * 2))
    document = json.loads(path.read_text())
    whole = file_digests([str(bot)], whole=True)
    assert whole[str(bot)].startswith("sha256:")
    document["run"]["files"] = whole
    path.write_text(json.dumps(document))
    resumed = checkpoint()
    assert resumed.known(0, 2) is not None
    resumed.save(1, np.array([[2.0, -2.0]] * 2))
    assert json.loads(path.read_text())["run"]["files"][str(bot)].startswith("body-sha256:")
