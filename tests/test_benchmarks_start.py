"""Every benchmark script starts: its imports resolve and its --help prints (argparse formats
help strings with %, so a bare "% of the pot" crashes --help). A renamed module once left
bench_foundation.py unable to import, unnoticed, since no test ran it."""

import subprocess
import sys

import pytest

from tests.conftest import ROOT

SCRIPTS = sorted(p for p in (ROOT / "benchmarks").glob("bench_*.py"))


def test_the_benchmarks_are_found():
    assert len(SCRIPTS) >= 20


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_a_benchmark_prints_its_help(script):
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
