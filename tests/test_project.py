"""The project's own promises: CI runs the README's test command, and the CLI is installed."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Run the tests", 1)[1]
    return re.search(r"```bash\n(.+?)\n```", section, re.S).group(1).strip()


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert _readme_test_command() in [line.strip() for line in ci]


def test_ruff_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    result = subprocess.run([ruff, "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_console_script_runs():
    exe = Path(sys.executable).parent / "pokertui"
    result = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "equity" in result.stdout


def test_nothing_points_outside_the_repository():
    """Docs and code cite their sources by name; no file refers to folders beside the repo."""
    outside = ".." + "/shared"
    names = ["ORACLES" + ".md", "ARCHITECTURE" + ".md", "STYLE" + ".md"]
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    offenders = []
    for name in tracked:
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".toml", ".tcss", ".txt", ""} or not path.is_file():
            continue
        text = path.read_text(errors="ignore")
        if outside in text or any(n in text for n in names):
            offenders.append(name)
    assert offenders == []
