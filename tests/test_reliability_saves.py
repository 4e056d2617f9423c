"""Saves and settings: every corruption is a ``SaveError`` (so the backup runs), a save that loads
is fully usable, newer saves are never overwritten, and settings never stop the app."""

import copy
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokertui.cli import main
from pokertui.screens.review import decision_table
from pokertui.session import Session
from pokertui.session.saves import SaveError, load_session, save_session, session_document
from pokertui.settings import Settings, load_settings, save_settings
from pokertui.widgets.hand_log import hand_lines
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES, plain_text


def _played(name="leduc.json", hands=6, seed=3):
    session = Session(load_strategy(STRATEGIES / name), seed=seed, review=True)
    rng = np.random.default_rng(seed)
    for _ in range(hands):
        session.new_hand()
        while session.human_to_act:
            session.act(str(rng.choice(session.node.actions)))
    return session


@pytest.fixture(scope="module")
def leduc_document():
    return session_document(_played())


def _write(path: Path, document) -> Path:
    path.write_text(json.dumps(document))
    return path


def _usable(session: Session) -> None:
    """Everything the play and review screens read from a restored session, read."""
    for hand in session.hands:
        hand_lines(session, hand)
        for step in hand.steps:
            plain_text(decision_table(session, step), 80)
    session.new_hand()
    while session.human_to_act:
        session.act(session.node.actions[0])
    session.summary()


def test_a_round_trip_restores_a_usable_session(tmp_path, leduc_document):
    path = _write(tmp_path / "s.json", leduc_document)
    session, warning = load_session(path)
    assert warning is None and len(session.hands) == len(leduc_document["hands"])
    _usable(session)


MUTATIONS = {
    "float for cards": lambda d: d["hands"][0]["deal"].__setitem__("hands", 1.5),
    "hand index too big": lambda d: d["hands"][0]["deal"].__setitem__("hands", [0, 99]),
    "string result": lambda d: d["hands"][0].__setitem__("result", "lots"),
    "missing result": lambda d: d["hands"][0].pop("result"),
    "unknown node": lambda d: d["hands"][0]["steps"][0].__setitem__("node_key", "zz/zz"),
    "short action evs": lambda d: next(
        s for s in d["hands"][0]["steps"] if s["action_evs"] is not None
    ).__setitem__("action_evs", [0.0]),
    "negative rng state": lambda d: d["rng_state"]["state"].__setitem__("state", -1),
    "huge rng state": lambda d: d["rng_state"]["state"].__setitem__("inc", 2**200),
    "other bit generator": lambda d: d["rng_state"].__setitem__("bit_generator", "MT19937"),
    "seat 7": lambda d: d.__setitem__("seat_mode", 7),
    "bad bot mode": lambda d: d.__setitem__("bot_mode", "evil"),
    "threshold 2": lambda d: d.__setitem__("threshold", 2.0),
    "hands not a list": lambda d: d.__setitem__("hands", {"a": 1}),
    "steps not a list": lambda d: d["hands"][0].__setitem__("steps", 3),
    "strategy is a folder": lambda d: d.__setitem__("strategy_file", "/"),
    "strategy is a device": lambda d: d.__setitem__("strategy_file", "/dev/zero"),
    "strategy missing": lambda d: d.__setitem__("strategy_file", "/no/such.json"),
    "other game": lambda d: d.__setitem__("game", "kuhn(cards=3,ante=1,bet=1)"),
    "negative seed": lambda d: d.__setitem__("seed", -4),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_each_corruption_is_a_save_error_and_the_backup_is_used(tmp_path, leduc_document, name):
    path = tmp_path / "s.json"
    bad = copy.deepcopy(leduc_document)
    MUTATIONS[name](bad)
    _write(path, bad)
    with pytest.raises(SaveError):
        load_session(path)
    _write(path.with_suffix(".json.bak"), leduc_document)
    session, warning = load_session(path)
    assert "backup" in warning
    _usable(session)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"kind": "pokertui-session", "format_version": ' + "9" * 5000 + "}",
        '{"kind": "pokertui-session", "format_version": 1, "threshold": 1e999}',
        '{"kind": "pokertui-session", "format_version": 1, "threshold": NaN}',
        "\udcff not utf-8",
        "",
    ],
)
def test_unparseable_saves_are_save_errors(tmp_path, text):
    path = tmp_path / "s.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(SaveError):
        load_session(path)


def test_a_fifo_save_is_an_error_not_a_hang(tmp_path):
    path = tmp_path / "s.json"
    os.mkfifo(path)
    with pytest.raises(SaveError):
        load_session(path)


json_leaf = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_randomly_mutated_saves_load_fully_or_raise_save_error(tmp_path_factory, data):
    """Replace one value anywhere in a real save by a random one: the result loads into a
    session that the screens can use, or is a ``SaveError``."""
    document = session_document(_played("kuhn.json", hands=3, seed=1))
    paths = []

    def collect(value, path):
        paths.append(path)
        if isinstance(value, dict | list):
            children = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in children:
                collect(child, (*path, key))

    collect(document, ())
    where = data.draw(st.sampled_from(paths[1:]))
    replacement = data.draw(json_leaf | st.lists(json_leaf, max_size=3))
    target = document
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = replacement
    path = tmp_path_factory.mktemp("save") / "s.json"
    path.write_text(json.dumps(document))
    try:
        session, _ = load_session(path)
    except SaveError:
        return
    _usable(session)


def test_newer_saves_are_never_overwritten(tmp_path, leduc_document):
    path = tmp_path / "s.json"
    newer = {**leduc_document, "format_version": 99, "future": "data"}
    _write(path, newer)
    before = path.read_bytes()
    session = _played()
    for _ in range(2):  # the old bug: two autosaves destroyed it (save, then the .bak)
        with pytest.raises(SaveError, match="newer"):
            save_session(session, path)
    assert path.read_bytes() == before
    assert not path.with_suffix(".json.bak").exists()


def test_a_corrupt_save_never_replaces_a_good_backup(tmp_path, leduc_document):
    path = tmp_path / "s.json"
    session = _played()
    save_session(session, path)
    save_session(session, path)
    good_backup = path.with_suffix(".json.bak").read_bytes()
    path.write_text("{broken")
    save_session(session, path)
    assert path.with_suffix(".json.bak").read_bytes() == good_backup
    load_session(path)


def test_the_strategy_path_is_stored_resolved(tmp_path, monkeypatch):
    monkeypatch.chdir(STRATEGIES)
    session = Session(load_strategy("kuhn.json"), seed=1)
    path = save_session(session, tmp_path / "s.json")
    stored = json.loads(path.read_text())["strategy_file"]
    assert Path(stored).is_absolute() and Path(stored) == (STRATEGIES / "kuhn.json").resolve()
    monkeypatch.chdir(tmp_path)
    load_session(path)


def test_play_resume_with_a_bad_save_exits_2_without_opening_the_app(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("POKERTUI_SAVES", str(tmp_path))
    (tmp_path / "broken.json").write_text("{")
    for name in ("missing", "broken", "../etc", "x" * 100):
        assert main(["play", "--resume", name]) == 2
        err = capsys.readouterr().err
        assert "error:" in err and "internal" not in err
    assert main(["play"]) == 2  # no terminal under pytest: a message, not a hang
    assert "terminal" in capsys.readouterr().err


# --- settings --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"seed": ' + "9" * 5000 + "}",
        '{"seed": 1e999, "hints": NaN}',
        '{"seed": -1, "seat": 3, "bot_mode": [], "hints": "yes", "last_bot": 5}',
        '{"custom_strategies": [1, null, "' + "x" * 5000 + '", "ok.json"]}',
        "null",
        "\x00\x01",
    ],
)
def test_settings_never_stop_the_app(tmp_path, text):
    (tmp_path / "settings.json").write_text(text)
    loaded = load_settings(tmp_path)
    assert isinstance(loaded.seed, int) and 0 <= loaded.seed < 2**63
    assert isinstance(loaded.hints, bool) and loaded.seat in ("alternate", "1", "2")
    assert all(isinstance(p, str) for p in loaded.custom_strategies)


def test_settings_keep_good_fields_and_survive_special_files(tmp_path):
    (tmp_path / "settings.json").write_text('{"seed": 7, "hints": "no", "bot_mode": "purified"}')
    loaded = load_settings(tmp_path)
    assert (loaded.seed, loaded.hints, loaded.bot_mode) == (7, True, "purified")
    os.remove(tmp_path / "settings.json")
    os.mkfifo(tmp_path / "settings.json")
    assert load_settings(tmp_path) == Settings()
    save_settings(tmp_path, Settings(seed=3))  # refused quietly: the FIFO stays a FIFO
    assert not (tmp_path / "settings.json").is_file()


def test_the_resume_list_labels_a_special_or_damaged_save_without_reading_it_whole(tmp_path):
    """A FIFO named like a save would have blocked the resume screen on its read for ever."""
    from pokertui.screens.resume import save_label  # noqa: PLC0415

    good = tmp_path / "good.json"
    save_session(_played(hands=2), good)
    fifo = tmp_path / "stuck.json"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(os.urandom(300))
    assert save_label(good).startswith("good · leduc") and "2 hands" in save_label(good)
    for path in (fifo, folder, garbage):
        assert save_label(path) == f"{path.stem} · unreadable save"
