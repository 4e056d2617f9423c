"""A real-terminal smoke test: the installed ``pokertui`` under tmux, a Kuhn hand played with
``send-keys``, the screen read back with ``capture-pane``, then quit with ctrl+q.

It catches what pilot tests cannot: the console script, terminal I/O and real key input.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.test_app_flop import FLOP

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"
SCRIPT = Path(sys.executable).parent / "pokertui"

TMUX_MISSING = shutil.which("tmux") is None
# Locally a missing tmux skips; under CI (``.ci/run`` sets CI) the tests run and fail, so a broken
# install cannot pass the smoke test silently.
pytestmark = pytest.mark.skipif(
    TMUX_MISSING and not os.environ.get("CI"), reason="tmux is not installed (set CI to fail)"
)


def tmux(*args: str) -> str:
    """One tmux server per session (``-L`` named after it): under xdist a test whose
    ``kill-session`` shuts a shared server down can race another test's ``new-session``, which
    then talks to the dying server and never shows its screen."""
    assert not TMUX_MISSING, "tmux is not installed; CI needs it for the real-terminal smoke test"
    session = next(args[i + 1] for i, a in enumerate(args) if a in ("-s", "-t"))
    done = subprocess.run(
        ["tmux", "-L", session, *args], capture_output=True, text=True, timeout=10
    )
    if args[0] == "new-session":
        assert done.returncode == 0, f"tmux new-session failed: {done.stderr}"
    return done.stdout


def wait_for(session: str, predicate, timeout: float = 60.0) -> str:
    """Generous by default: a fresh clone compiles the solver on first use while the other
    test worker compiles too, and a met predicate returns at once."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if predicate(screen):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"timed out; the screen was:\n{screen}")


def quit_cleanly(session: str, tmp_path: Path) -> None:
    """ctrl+q, then the shell wrapper's record of the exit code must say 0."""
    tmux("send-keys", "-t", session, "C-q")
    exit_file = tmp_path / "exit.txt"
    deadline = time.monotonic() + 10

    def recorded() -> str:  # the shell creates the file before ``echo`` writes into it
        return exit_file.read_text().strip() if exit_file.exists() else ""

    while not recorded() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert recorded() == "EXITED 0"


def test_kuhn_hand_in_tmux(tmp_path):
    assert SCRIPT.exists(), f"the pokertui console script is not installed next to {sys.executable}"
    session = f"pokertui-smoke-{uuid.uuid4().hex[:8]}"
    command = (
        f"POKERTUI_SAVES={tmp_path} {SCRIPT} play --bot {STRATEGIES / 'kuhn.json'} --seed 1; "
        f"echo EXITED $? > {tmp_path / 'exit.txt'}; sleep 30"
    )
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    try:
        screen = wait_for(session, lambda s: "Hand 1" in s and "to act" in s)
        assert "kuhn" in screen
        for _ in range(4):
            if "next hand" in screen:
                break
            tmux("send-keys", "-t", session, "c")
            time.sleep(0.5)
            screen = tmux("capture-pane", "-p", "-t", session)
        verdicts = ("You win", "You lose", "Split")
        # the action bar and the table repaint separately: wait for both, not the first frame
        screen = wait_for(session, lambda s: "next hand" in s and any(w in s for w in verdicts))
        assert "1 hand ·" in screen
        quit_cleanly(session, tmp_path)
        assert list(tmp_path.glob("session-*.json")), "the hand was not autosaved"
    finally:
        tmux("kill-session", "-t", session)


def test_study_equity_and_back_in_tmux(tmp_path):
    session = f"pokertui-study-{uuid.uuid4().hex[:8]}"
    command = f"POKERTUI_SAVES={tmp_path} {SCRIPT}; echo EXITED $? > {tmp_path / 'exit.txt'}"
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command + "; sleep 30")
    try:
        wait_for(session, lambda s: "Heads-up poker against solved bots" in s)
        tmux("send-keys", "-t", session, "t")
        wait_for(session, lambda s: "Range lab" in s and "Explorer" in s)
        tmux("send-keys", "-t", session, "l")
        wait_for(session, lambda s: "Hero range" in s and "F5" in s)
        tmux("send-keys", "-t", session, "F5")
        screen = wait_for(session, lambda s: " win " in s and " tie" in s, 180)
        assert "Hero " in screen and "Villain " in screen
        tmux("send-keys", "-t", session, "Escape")
        wait_for(session, lambda s: "Theory lab" in s)
        tmux("send-keys", "-t", session, "Escape")
        wait_for(session, lambda s: "Heads-up poker against solved bots" in s)
        quit_cleanly(session, tmp_path)
    finally:
        tmux("kill-session", "-t", session)


def test_spot_hand_and_spots_screen_in_tmux(tmp_path):
    """A shipped river spot played to the end with real keys, then the Spots screen listed."""
    session = f"pokertui-spot-{uuid.uuid4().hex[:8]}"
    bot = STRATEGIES / "srp_dry_river.json.gz"
    command = (
        f"POKERTUI_SAVES={tmp_path} {SCRIPT} play --bot {bot} --seed 2; "
        f"echo EXITED $? > {tmp_path / 'exit.txt'}; sleep 30"
    )
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    try:
        screen = wait_for(session, lambda s: "Hand 1" in s and "to act" in s, 180)
        assert "Kd" in screen or "K♦" in screen  # the spot's board is on the table
        for _ in range(8):
            if "next hand" in screen:
                break
            tmux("send-keys", "-t", session, "c")
            time.sleep(0.7)
            screen = tmux("capture-pane", "-p", "-t", session)
        verdicts = ("You win", "You lose", "Split")
        # the action bar and the table repaint separately: wait for both, not the first frame
        screen = wait_for(session, lambda s: "next hand" in s and any(w in s for w in verdicts))
        tmux("send-keys", "-t", session, "Escape")
        wait_for(session, lambda s: "Heads-up poker against solved bots" in s)
        tmux("send-keys", "-t", session, "o")
        screen = wait_for(session, lambda s: "SRP dry river" in s and "0.16%" in s, 180)
        tmux("send-keys", "-t", session, "Escape")
        wait_for(session, lambda s: "Heads-up poker against solved bots" in s)
        quit_cleanly(session, tmp_path)
    finally:
        tmux("kill-session", "-t", session)


def test_full_game_hand_in_tmux(tmp_path):
    """``pokertui play --game 'hunl(...)'``: a hand of the full game called down to the end."""
    session = f"pokertui-hunl-{uuid.uuid4().hex[:8]}"
    command = (
        f"POKERTUI_SAVES={tmp_path} {SCRIPT} play --game 'hunl(stack_bb=20)' --bot call "
        f"--seed 1; echo EXITED $? > {tmp_path / 'exit.txt'}; sleep 30"
    )
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    try:
        screen = wait_for(session, lambda s: "Hand 1" in s and "[c]" in s, 180)
        assert "20bb" in screen
        for _ in range(12):
            if "next hand" in screen:
                break
            tmux("send-keys", "-t", session, "c")
            time.sleep(0.7)
            screen = tmux("capture-pane", "-p", "-t", session)
        screen = wait_for(session, lambda s: "next hand" in s)
        assert any(word in screen for word in ("You win", "You lose", "You split")), screen
        quit_cleanly(session, tmp_path)
        assert list(tmp_path.glob("session-*.json")), "the hand was not autosaved"
    finally:
        tmux("kill-session", "-t", session)


def test_quitting_while_the_re_solving_bot_thinks_in_tmux(tmp_path):
    """The re-solving bot's turn think (far more iterations than it will get) shows its
    progress line, and ctrl+q mid-think stops the solve and exits with 0."""
    session = f"pokertui-resolve-{uuid.uuid4().hex[:8]}"
    command = (
        f"POKERTUI_SAVES={tmp_path} {SCRIPT} play --game 'hunl(stack_bb=100)' "
        f"--bot 'resolve(from=turn,iterations=100000):call' --think 600 --seed 4; "
        f"echo EXITED $? > {tmp_path / 'exit.txt'}; sleep 30"
    )
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", command)
    try:
        wait_for(session, lambda s: "Hand 1" in s and "[c]" in s, 180)
        tmux("send-keys", "-t", session, "c")  # limp on the button; the bot checks twice
        wait_for(session, lambda s: "Board (flop)" in s and "[c]" in s, 180)
        tmux("send-keys", "-t", session, "c")  # check back: the bot opens the turn, solving
        screen = wait_for(session, lambda s: "The bot is thinking: turn" in s, 180)
        assert "iterations" in screen
        quit_cleanly(session, tmp_path)
    finally:
        tmux("kill-session", "-t", session)


def press_until(session: str, key: str, predicate, tries: int = 6) -> str:
    """Press ``key`` until the screen shows what it opens: a key that lands while a screen is
    still settling (the Spots table reloading its rows) is dropped."""
    for _ in range(tries):
        tmux("send-keys", "-t", session, key)
        try:
            return wait_for(session, predicate, 10)
        except AssertionError:
            continue
    return wait_for(session, predicate, 1)


def test_flop_practised_and_explored_in_tmux(tmp_path):
    """A flop spot in the user's folder with its binary solution in ``runs/``: practised from
    the Spots screen with real keys until a later street's decision shows its live numbers,
    then explored (the first decision's per-hand frequencies)."""
    for folder in ("spots", "runs"):
        (tmp_path / folder).mkdir()
    (tmp_path / "spots" / "smoke_flop.toml").write_text(FLOP)  # "Small flop"
    out = tmp_path / "runs" / "smoke_flop-1.ptsb"
    solve = [str(SCRIPT), "solve", str(tmp_path / "spots" / "smoke_flop.toml"), "--algo", "dcfr",
             "--iterations", "30", "--out", str(out)]  # fmt: skip
    assert subprocess.run(solve, capture_output=True, timeout=600).returncode == 0
    rows = len(list((Path(__file__).resolve().parent.parent / "spots").glob("*.toml")))
    session = f"pokertui-flop-{uuid.uuid4().hex[:8]}"
    exit_file = tmp_path / "exit.txt"
    command = f"POKERTUI_SAVES={tmp_path} {SCRIPT}; echo EXITED $? > {exit_file}; sleep 30"
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", command)
    try:
        wait_for(session, lambda s: "Heads-up poker against solved bots" in s, 180)
        tmux("send-keys", "-t", session, "o")
        wait_for(session, lambda s: "Small flop" in s and "20bb_flop.toml" in s, 180)
        time.sleep(1)
        for _ in range(rows):  # the user's spots come after the project's
            tmux("send-keys", "-t", session, "Down")
        wait_for(session, lambda s: "solved: smoke_flop-1.ptsb" in s)
        screen = press_until(session, "p", lambda s: "Hand 1" in s and "Action EVs" in s)
        for _ in range(40):  # check or call until a card is dealt and the human acts again
            if "Board:" in screen and "to act" in screen and "computing" not in screen:
                break
            tmux("send-keys", "-t", session, "n" if "next hand" in screen else "c")
            time.sleep(0.7)
            screen = tmux("capture-pane", "-p", "-t", session)
        screen = wait_for(
            session, lambda s: "Board:" in s and "to act" in s and "computing" not in s, 30
        )
        assert "Action EVs" in screen and any(a in screen for a in ("check", "call", "fold"))
        tmux("send-keys", "-t", session, "Escape")  # back to the Spots screen, same row
        wait_for(session, lambda s: "solved: smoke_flop-1.ptsb" in s)
        press_until(session, "e", lambda s: "node ''" in s and "reached" in s and "AKs" in s)
        tmux("send-keys", "-t", session, "Escape")
        wait_for(session, lambda s: "Small flop" in s)
        tmux("send-keys", "-t", session, "Escape")
        wait_for(session, lambda s: "Heads-up poker against solved bots" in s)
        quit_cleanly(session, tmp_path)
    finally:
        tmux("kill-session", "-t", session)
