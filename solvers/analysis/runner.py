"""The analysis of many hands: one task a hand on a ``parallel`` backend, kept in a checkpoint.

Each task is one hand and the seat analysed, sent with the model bot's name (each worker
builds a bot once per depth and keeps it). Finished hands are written to the checkpoint file
at once, atomically, so a killed run resumes where it stopped; a checkpoint made with another
bot or other options is refused rather than mixed in.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from solvers.agents.registry import make_agent
from solvers.analysis.hand_analysis import analyze_hand
from solvers.analysis.hand_record import ImportedHand, SkipTally
from solvers.atomic import atomic_write_text
from solvers.errors import InputError
from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import HunlConfig
from solvers.parallel.backends import check_backend, run_tasks
from solvers.user_files import loads_user_json, read_user_file

CHECKPOINT_KIND = "pokertui-analyze"
MAX_CHECKPOINT_BYTES = 256 * 1024 * 1024
_AGENTS: dict[tuple[str, int], Agent] = {}
"""This process's model bots by (name, stack): building one loads a blueprint file."""


@dataclass(frozen=True)
class Task:
    hand: ImportedHand
    seat: int
    bot: str

    @property
    def key(self) -> str:
        return f"{self.hand.key}@{self.seat}"


def hero_tasks(
    hands: Sequence[ImportedHand],
    heroes: set[str],
    bots: Mapping[int, str | None],
    skipped: SkipTally,
) -> list[Task]:
    """One task a hero seat of each hand whose depth has a model bot; the rest counted in
    ``skipped`` by reason."""
    tasks: list[Task] = []
    for hand in hands:
        seats = [s for s in (0, 1) if hand.names[s] in heroes]
        bot = bots.get(hand.stack)
        if not seats:
            skipped.skip("hero not in the hand")
        elif bot is None:
            skipped.skip("no model bot at this depth")
        elif all(hand.holes[s] is None for s in seats):
            skipped.skip("hero's cards unknown")
        else:
            tasks += [Task(hand, s, bot) for s in seats if hand.holes[s]]
    return tasks


def model_agent(bot: str, stack: int) -> Agent:
    key = (bot, stack)
    if key not in _AGENTS:
        if len(_AGENTS) >= 2:  # a session mixes few depths; a bot holds a blueprint each
            _AGENTS.pop(next(iter(_AGENTS)))
        _AGENTS[key] = make_agent(bot, HunlConfig(stack_bb=stack / 100))
    return _AGENTS[key]


def analyze_task(task: Task, all_sizes: bool) -> list[dict]:
    """One hand's decisions (a worker's task)."""
    return analyze_hand(task.hand, task.seat, model_agent(task.bot, task.hand.stack), all_sizes)


def options_digest(bots: Mapping[int, str | None], all_sizes: bool) -> str:
    """What a checkpoint's hands depend on besides the hand itself."""
    text = json.dumps([sorted((str(k), v) for k, v in bots.items()), all_sizes])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def load_checkpoint(path: str, digest: str) -> dict[str, list[dict]]:
    """The hands a checkpoint holds ({} when the file does not exist yet)."""
    if not os.path.exists(path):
        return {}
    raw = read_user_file(path, MAX_CHECKPOINT_BYTES, "checkpoint")
    try:
        data = loads_user_json(raw.decode("utf-8"), "checkpoint", max_depth=16,
                               allow_non_finite=False)  # fmt: skip
    except UnicodeDecodeError:
        raise InputError(f"checkpoint {path} is not an analysis checkpoint") from None
    if not isinstance(data, dict) or data.get("kind") != CHECKPOINT_KIND:
        raise InputError(f"checkpoint {path} is not an analysis checkpoint")
    if data.get("digest") != digest:
        raise InputError(f"checkpoint {path} was made with another bot or other options: "
                         "remove it, or run with the same options")  # fmt: skip
    done = data.get("hands")
    if not isinstance(done, dict) or not all(isinstance(v, list) for v in done.values()):
        raise InputError(f"checkpoint {path} is damaged: remove it to start again")
    return done


def save_checkpoint(path: str, digest: str, done: Mapping[str, list[dict]]) -> None:
    payload = {"kind": CHECKPOINT_KIND, "digest": digest, "hands": done}
    atomic_write_text(path, json.dumps(_finite(payload)))


def _finite(value):
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def run_analysis(
    tasks: Sequence[Task],
    all_sizes: bool = True,
    *,
    workers: int | None = 1,
    backend: str = "local",
    address: str | None = None,
    checkpoint: str | None = None,
    digest: str = "",
    progress: Callable[[int], None] | None = None,
) -> tuple[dict[str, list[dict]], dict[str, str]]:
    """Each task's decisions by task key, and the tasks that failed with their reason."""
    check_backend(backend, workers, address)
    done = load_checkpoint(checkpoint, digest) if checkpoint else {}
    todo = [t for t in tasks if t.key not in done]
    failed: dict[str, str] = {}
    finished = len(tasks) - len(todo)
    if progress is not None:
        progress(finished)
    items = [(t, all_sizes) for t in todo]
    for index, outcome in run_tasks(analyze_task, items, backend=backend, workers=workers,
                                    address=address):  # fmt: skip
        task = todo[index]
        if outcome.ok:
            done[task.key] = outcome.value
            if checkpoint:
                save_checkpoint(checkpoint, digest, done)
        else:
            failed[task.key] = outcome.error
        finished += 1
        if progress is not None:
            progress(finished)
    return {t.key: done[t.key] for t in tasks if t.key in done}, failed
