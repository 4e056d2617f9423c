"""The repository describes the product as it is: no file names the work session that made a
change, the re-solving bot's manual stays a manual, and the history lives in ``CHANGELOG.md``.
"""

from __future__ import annotations

import re
import subprocess

from tests.conftest import ROOT

SESSION_WORDS = re.compile("sessions?" + " [0-9]+", re.IGNORECASE)
"""A work session by number (built in two parts so that this file does not match itself)."""
BINARY_ENDINGS = (".npz", ".ptsb", ".gz", ".svg", ".png", ".jpg", ".pdf", ".zip")
MANUAL_LINES = 400
DATED_SECTION = re.compile(r"^## \[(\d{4}-\d{2}-\d{2})\]$", re.MULTILINE)


def repository_files() -> list[str]:
    """Tracked files and new ones not ignored, as git lists them from the repository's root."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    return sorted({name for name in listed.split("\0") if name})


def text_of(name: str) -> str | None:
    """The file's text, or None for a binary file or one listed but deleted."""
    path = ROOT / name
    if name.endswith(BINARY_ENDINGS) or not path.is_file():
        return None
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def session_words(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of every line that names a work session."""
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
            if SESSION_WORDS.search(line)]  # fmt: skip


def test_the_pattern_finds_what_it_should():
    gap = " "  # written apart, as in SESSION_WORDS
    text = f"a\nfixed in Session{gap}12, since\nsessions{gap}15 to 17\nplay sessions are saved\n"
    assert [number for number, _ in session_words(text)] == [2, 3]


def test_no_file_names_a_work_session():
    files = repository_files()
    assert "docs/resolve.md" in files and "tests/test_repository_words.py" in files
    found = [f"{name}:{number}: {line[:100]}"
             for name in files if (text := text_of(name)) is not None
             for number, line in session_words(text)]  # fmt: skip
    assert not found, "files that name a work session:\n" + "\n".join(found)


def test_the_manual_is_short_and_the_history_is_dated():
    manual = (ROOT / "docs" / "resolve.md").read_text().splitlines()
    assert len(manual) <= MANUAL_LINES, f"docs/resolve.md has {len(manual)} lines"
    changelog = ROOT / "CHANGELOG.md"
    assert changelog.is_file(), "CHANGELOG.md is missing"
    text = changelog.read_text()
    dates = DATED_SECTION.findall(text)
    assert dates, "CHANGELOG.md has no dated section (## [YYYY-MM-DD])"
    assert dates == sorted(dates, reverse=True), "dated sections go newest first"
    assert text.index("## [Unreleased]") < text.index(f"## [{dates[0]}]")
