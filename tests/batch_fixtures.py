"""Small river spots and job files shared by the batch tests."""

from __future__ import annotations

from pathlib import Path

from solvers.batch.jobs import Job, StopRule, read_game, varied

RIVER_SPOT = """\
board = "Qs Jh 2h 8d 3c"
pot = 100
stack = 300
oop_range = "TT+,AQs+,KQs,A5s,QJs,JTs"
ip_range = "99+,AJs+,KQs,QJs,T9s"
[river]
oop_bet = "75%, a"
ip_bet = "75%, a"
oop_raise = "a"
ip_raise = "a"
"""


def river_spot(folder: Path) -> Path:
    path = folder / "river.toml"
    path.write_text(RIVER_SPOT)
    return path


def stack_jobs(folder: Path, stacks=(100, 200, 300, 400), iterations: int = 60) -> list[Job]:
    """One DCFR job per stack depth on the small river spot, a fixed iteration budget each."""
    name, params = read_game(str(river_spot(folder)))
    return [
        Job(f"stack{s}", varied(name, params, "stack", s), "dcfr", StopRule(iterations=iterations),
            {}, {"stack": s})  # fmt: skip
        for s in stacks
    ]


def job_file(folder: Path, values=(100, 200, 300), iterations: int = 60, out: str = "out") -> Path:
    river_spot(folder)
    path = folder / "jobs.toml"
    path.write_text(
        f'algo = "dcfr"\niterations = {iterations}\nout = "{out}"\nspot = "river.toml"\n'
        f'vary = "stack"\nvalues = {list(values)}\n'
    )
    return path
