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


def _path_without_tmux(tmp_path: Path) -> str:
    """A PATH holding only ``dirname`` and an ``apt-get`` that always fails (no tmux)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "dirname").symlink_to(shutil.which("dirname"))
    apt = bin_dir / "apt-get"
    apt.write_text("#!/bin/sh\nexit 100\n")
    apt.chmod(0o755)
    return str(bin_dir)


def test_ci_stops_when_tmux_cannot_be_installed(tmp_path):
    bash = shutil.which("bash")
    result = subprocess.run(
        [bash, str(ROOT / ".ci" / "run")],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": _path_without_tmux(tmp_path)},
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "tmux" in result.stderr and "could not install" in result.stderr


def test_tmux_smoke_fails_rather_than_skips_under_ci(tmp_path):
    env = {"PATH": _path_without_tmux(tmp_path), "CI": "1", "HOME": str(tmp_path)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(ROOT / "tests" / "test_tmux_smoke.py"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert result.returncode == 1, result.stdout
    assert "6 failed" in result.stdout and "skipped" not in result.stdout
    assert "tmux is not installed" in result.stdout
