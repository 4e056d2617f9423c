"""``solvers/`` and ``pokertui/`` type-check clean under mypy with the project's ``[tool.mypy]``
settings."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _mypy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_solvers_and_the_app_type_check_clean():
    result = _mypy()  # files = ["solvers", "pokertui"] from pyproject.toml
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues found" in result.stdout


def test_mypy_reports_a_type_error(tmp_path):
    """The check above is live: the same configuration rejects a wrong annotation."""
    bad = tmp_path / "bad_types.py"
    bad.write_text('def half(chips: int) -> int:\n    return chips / 2\n\n\nhalf("ten")\n')
    result = _mypy("--config-file", str(ROOT / "pyproject.toml"), str(bad))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "[return-value]" in result.stdout
    assert "[arg-type]" in result.stdout
