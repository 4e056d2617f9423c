"""One solver run from start to strategy file: chunks, progress events, checkpoints, stopping.

``execute`` is what ``pokertui solve`` runs in its own process, for a ``RunRequest``
(``request.py``). Everything a user gave is checked before any work starts: the game, the
algorithm and its options (``registry.py``), the stopping rules and both output paths, so a long
solve never loses its result to a typo at the end. It then builds the solver, resumes from the
checkpoint if asked, runs in short chunks and after each chunk emits a progress event (a dict,
printed by the caller as a JSON line) with the exact exploitability. A checkpoint is written
every ``checkpoint_seconds``, so a ``kill -9`` loses at most that much work. It stops at the
iteration budget, the time budget, the target exploitability or when ``should_stop()`` says so
(Ctrl-C, or a cancel from the TUI); then it writes a checkpoint and, unless interrupted, the
strategy file. Both are written atomically under unique temporary names, and a lock beside the
output keeps two runs from writing the same files at once.

A target is a promise: the file written is rounded, and if rounding to the usual 6 decimals
pushes the measured exploitability above ``--target``, it is rounded finer until it meets it (a
binary file's probabilities from 8 bits to 16); the result says which precision was used and
what rounding added.
"""

from __future__ import annotations

import math
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solvers.algorithms.registry import SolverError
from solvers.atomic import clean_stale_temps
from solvers.errors import InputError
from solvers.runs.request import BINARY_SUFFIX, NON_ITERATIVE, RunRequest
from solvers.runs.run_lock import RunLock

if TYPE_CHECKING:
    from solvers.algorithms.base import Solver

Emit = Callable[[dict[str, Any]], None]

TARGET_PRECISIONS = (6, 8, 10, 12)
"""Decimals tried in turn until the written file meets ``--target``."""
SPARE_COPY_BYTES = 256 << 20
"""A compiled solve's strategy over this size is rounded in place (to 6 decimals only)."""


def pot_fields(game, exploitability: float, game_value: float) -> dict[str, float]:
    """Exploitability in % of the starting pot; for hold'em spots each seat's share of the pot
    (``ev_oop + ev_ip`` is the pot: the chips each put in plus their net value)."""
    pot = float(sum(game.root.contributions))
    fields: dict[str, float] = {}
    if pot > 0:
        fields["exploitability_pot_percent"] = 100.0 * exploitability / pot
    if game.name == "nlhe":
        put0, put1 = game.root.contributions
        fields["ev_oop"] = put0 + game_value
        fields["ev_ip"] = put1 - game_value
    return fields


def _progress(solver, started: float, event: str = "progress") -> dict[str, Any]:
    metrics = solver.metrics()
    extra = solver.progress_info() if hasattr(solver, "progress_info") else {}
    return {
        "event": event,
        **metrics.as_dict(),
        **pot_fields(solver.game, metrics.exploitability, metrics.game_value),
        "wall_seconds": time.perf_counter() - started,
        **extra,
    }


@dataclass
class Prepared:
    """A run's game and (for iterative algorithms) its solver, resumed if asked: everything
    a user's input can break, done before any progress is shown."""

    game: Any
    solver: Any = None
    resumed: bool = False
    target: float | None = None
    """The request's target in chips, for this game's starting pot."""
    options: dict[str, Any] = field(default_factory=dict)
    """The solver's options: the request's, with the lean state chosen where it gave none
    (``lean_options``)."""
    stop_at: float | None = None
    """The float exploitability the solve stops at: the target, less ``QUANTISE_MARGIN`` of it
    when the lean state was chosen (so that the 8-bit file meets the target)."""


def prepare(spec: RunRequest, resume: bool = False) -> Prepared:
    """Check the paths, load the game, build the solver and load the checkpoint; ``InputError``
    for any mistake."""
    from solvers.games import load_game  # noqa: PLC0415 - keep importing this module cheap

    spec.check_paths()
    game = load_game(spec.game)
    pot = float(sum(game.root.contributions))
    target = None if spec.target is None else spec.target.chips(pot)
    if spec.algo in NON_ITERATIVE:
        if spec.out.suffix == BINARY_SUFFIX:
            raise InputError(f"{spec.out}: {spec.algo} writes JSON; binary files are for CFR runs")
        return Prepared(game, target=target)
    from solvers.algorithms.base import make_solver  # noqa: PLC0415 - imports the solver only

    solver: Solver
    if resume and not spec.checkpoint_path.exists():
        raise InputError(f"nothing to resume: no checkpoint at {spec.checkpoint_path}")
    options = lean_options(spec, game, resume)
    if spec.lock is not None:
        from solvers.algorithms.locked_cfr import make_locked_solver  # noqa: PLC0415
        from solvers.strategy_file.locks import load_locks  # noqa: PLC0415

        locks, record = load_locks(spec.lock, game)
        solver = make_locked_solver(game, spec.algo, locks, record, **options)
    else:
        solver = make_solver(game, spec.algo, **options)
    if spec.out.suffix == BINARY_SUFFIX:
        _check_binary(spec, game, solver)
    if resume:
        solver.load_checkpoint(spec.checkpoint_path)
    from solvers.games.holdem.memory import give_back  # noqa: PLC0415

    release = getattr(game, "release_build_tables", None)
    if release is not None and getattr(solver, "compiled", None) is not None:
        release()  # a spot's solve reads its terminal tables only
        from solvers.games.holdem import runout_cache  # noqa: PLC0415

        runout_cache.clear()  # the game holds its own copy of the runout matrices
        from solvers.cards.evaluator import release_tables  # noqa: PLC0415

        release_tables()  # nor does it evaluate a hand again
    give_back()  # what building the tree and its tables left in the heap
    stop_at = target
    if target is not None and chooses_form(spec, game):  # so that an 8-bit file meets it
        stop_at = target * (1.0 - QUANTISE_MARGIN)
    return Prepared(game, solver, resume, target, options, stop_at)


LEAN_PRECISION = "16"
"""The state a big flop or turn spot's binary file is solved in when no option says otherwise."""
LEAN_BOARDS = (3, 4)
"""Board sizes (flop, turn) whose binary solves choose their state and file form."""
QUANTISE_MARGIN = 0.05
"""Share of the target such a solve stops below it: what quantising to 8 bits adds (0.005% of
the pot on the benchmark flop at 0.5%, 0.007% on the turn at 0.3%), so that the file meets the
target in 8 bits (49 MB on the flop) instead of 16 (90 MB, and the profile read back)."""


def chooses_form(spec: RunRequest, game) -> bool:
    """Whether this run picks its own state and file form: a flop or turn spot written as a
    binary file by the CFR family with no ``precision`` option (nor a lock, nor the numpy
    walk). Anything the request says wins."""
    from solvers.algorithms.registry import get_algorithm  # noqa: PLC0415

    return not (
        spec.out.suffix != BINARY_SUFFIX
        or spec.lock is not None
        or "precision" in spec.options
        or spec.options.get("walk", "auto") == "numpy"
        or get_algorithm(spec.algo).option("precision") is None
        or getattr(game, "name", "") != "nlhe"
        or len(game.root.board) not in LEAN_BOARDS
    )


def lean_options(spec: RunRequest, game, resume: bool = False) -> dict[str, Any]:
    """The solver's options: the request's, and where the run picks its own state
    (``chooses_form``) the one whose peak memory is least. Writing the file measures the
    decoded profile of both players in the evaluation dtype (``executor.evaluation_dtype``):
    float32 on a big tree (the benchmark flop), 4 bytes a probability, where float32 regrets
    and sums would take 8 during the solve, so 16-bit ones (4, ``exact/quantised_rows.py``)
    lower the peak; float64 on a smaller tree (the benchmark turn), 8 bytes, which float32
    regrets and sums do not exceed, and they converge in fewer iterations (130 against 175 on
    the turn). A resumed run keeps its checkpoint's precision."""
    options = dict(spec.options)
    if not chooses_form(spec, game):
        return options
    precision = _checkpoint_precision(spec.checkpoint_path) if resume else None
    if precision is None:
        from solvers.exact.executor import evaluation_dtype  # noqa: PLC0415

        precision = LEAN_PRECISION if evaluation_dtype(game).itemsize == 4 else None
    if precision is not None:
        options["precision"] = precision
    return options


def _checkpoint_precision(path) -> str | None:
    """The ``precision`` a checkpoint was solved in, if it says (a damaged file is left to the
    resume's own checks)."""
    import numpy as np  # noqa: PLC0415

    from solvers.file_reading import DAMAGE  # noqa: PLC0415

    try:
        with np.load(path, allow_pickle=False) as saved:
            return str(saved["precision"]) if "precision" in saved else None
    except (*DAMAGE, RuntimeError, NotImplementedError):  # zipfile: a password, a method
        return None


JSON_BYTES_PER_CELL = {".json": 12.1, ".json.gz": 2.4}
"""Bytes a strategy file takes per probability (decision edge and hand), by form: measured on
the benchmark flop solved to 0.5% of the pot (146 M probabilities, 1.76 GB of JSON, 354 MB
gzip-compressed)."""
JSON_WARNING_BOARD = 3
"""Spots on this many board cards (flops) are warned about before a JSON file is solved."""


def json_warning(spec: RunRequest, game) -> str | None:
    """For a flop spot written as JSON: one line giving the file's estimated size and the
    binary form's command (``None`` for anything else)."""
    import dataclasses  # noqa: PLC0415
    import shlex  # noqa: PLC0415

    name = spec.out.name
    form = next((f for f in JSON_BYTES_PER_CELL if name.endswith(f)), None)
    if form is None or getattr(game, "name", "") != "nlhe":
        return None
    if len(game.root.board) != JSON_WARNING_BOARD:
        return None
    size = json_file_bytes(game, form)
    binary = spec.out.with_name(name[: -len(form)] + BINARY_SUFFIX)
    command = shlex.join(["pokertui", "solve", *dataclasses.replace(spec, out=binary).to_argv()])
    return (
        f"pokertui: warning: {spec.out} will be about {_megabytes(size)} and take minutes to "
        f"open; the binary form {BINARY_SUFFIX} is a fraction of that: {command}"
    )


def json_file_bytes(game, form: str) -> int:
    """Estimated bytes of ``game``'s strategy file in ``form`` (``.json`` or ``.json.gz``):
    every probability of every decision written out (``JSON_BYTES_PER_CELL``)."""
    cells = sum(len(n.children) * game.n_hands[n.player] for n in game.nodes if n.is_decision)
    return int(cells * JSON_BYTES_PER_CELL[form])


def _megabytes(size: int) -> str:
    return f"{size / 1e9:,.1f} GB" if size >= 1e9 else f"{size / 1e6:,.0f} MB"


def _check_binary(spec: RunRequest, game, solver) -> None:
    """A binary file holds a hold'em spot's compiled solve, one row per pair of suit twins."""
    if getattr(solver, "compiled", None) is None:
        raise InputError(
            f"{spec.out}: binary strategy files ({BINARY_SUFFIX}) are for hold'em spots solved "
            "by the full-width CFR family (locks on the first street only); write .json or "
            ".json.gz"
        )
    if spec.lock is not None:
        from solvers.exact.compiled_locks import suit_symmetric  # noqa: PLC0415

        if not suit_symmetric(game, solver.locks):
            raise InputError(
                f"{spec.out}: the lock plays two suit twins differently (hands that differ only "
                "in two suits the board leaves interchangeable) and a binary file keeps one row "
                "for both; lock the twins alike, or write .json or .json.gz"
            )


def execute(
    spec: RunRequest,
    emit: Emit,
    should_stop: Callable[[], bool],
    resume: bool = False,
    prepared: Prepared | None = None,
):
    """Run to a stopping rule; returns the final event (``done`` or ``interrupted``)."""
    with RunLock(spec.out):
        prepared = prepared or prepare(spec, resume)
        for path in (spec.out, spec.checkpoint_path):
            clean_stale_temps(path)
        if spec.algo in NON_ITERATIVE:
            return _execute_lp(spec, prepared.game, emit, time.perf_counter())
        return _execute_iterative(spec, prepared, emit, should_stop)


def _execute_iterative(spec: RunRequest, prepared: Prepared, emit: Emit, should_stop):
    from solvers.games.holdem.memory import trim_heap  # noqa: PLC0415

    started = time.perf_counter()
    game, solver = prepared.game, prepared.solver
    checkpoint = spec.checkpoint_path
    target = prepared.target
    if prepared.resumed:
        emit({"event": "resumed", "checkpoint": str(checkpoint), **solver.metrics().as_dict()})
    estimate = getattr(solver, "memory_estimate_mb", None)  # at the run's precision
    memory = {"memory_mb": estimate} if estimate is not None else {}
    emit(
        {
            "event": "started",
            "game": game.spec_string(),
            "algo": spec.algo,
            **memory,
            **prepared.options,
        }
    )
    chunk = 1
    seen: list[tuple[int, float]] = []  # (iterations, exploitability) at each check
    reason = "iterations"
    last_checkpoint = time.perf_counter()
    while True:
        if spec.iterations is not None and solver.iterations >= spec.iterations:
            break
        if spec.seconds is not None and solver.elapsed_seconds >= spec.seconds:
            reason = "seconds"
            break
        if should_stop():
            solver.save_checkpoint(checkpoint)
            event = {**_progress(solver, started, "interrupted"), "checkpoint": str(checkpoint)}
            emit(event)
            return event
        budget = chunk
        if spec.iterations is not None:
            budget = min(budget, spec.iterations - solver.iterations)
        remaining = None if spec.seconds is None else spec.seconds - solver.elapsed_seconds
        if remaining is not None:
            remaining = min(remaining, spec.checkpoint_seconds)
        tick = time.perf_counter()
        solver.run(iterations=budget, seconds=remaining)
        took = time.perf_counter() - tick
        measuring = time.perf_counter()
        progress = _progress(solver, started)
        trim_heap()
        measured = time.perf_counter() - measuring
        per_iteration = max(took, 1e-6) / max(budget, 1)
        chunk = _next_chunk(chunk, per_iteration, measured, spec)
        if min(spec.report_seconds, spec.checkpoint_seconds) > 0 and prepared.stop_at is not None:
            seen.append((solver.iterations, progress["exploitability"]))
            chunk = min(chunk, _iterations_to(seen, prepared.stop_at) or chunk)
        emit(progress)
        if prepared.stop_at is not None and progress["exploitability"] <= prepared.stop_at:
            reason = "target"
            break
        if time.perf_counter() - last_checkpoint >= spec.checkpoint_seconds:
            solver.save_checkpoint(checkpoint)
            last_checkpoint = time.perf_counter()
    solver.save_checkpoint(checkpoint)
    info = _solver_info(spec, solver)
    # what rounding adds is measured in the file's own game: a locked run's unlocked gap
    unrounded = (solver.metrics() if spec.lock is None else solver.unlocked()).exploitability
    compiled = getattr(solver, "compiled", None) is not None
    if spec.lock is not None:
        target = None  # --target is the locked game's: the file's own gap is not held to it
    binary = spec.out.suffix == BINARY_SUFFIX
    if compiled and binary:
        # the final checkpoint holds the state: the file is written in the memory it held
        written = _write_binary(spec, game, solver, info, unrounded, target)
    elif compiled:
        compact = solver.compiled_output(release=True)
        written = _write_compiled(spec, game, solver, compact, info, unrounded, target)
    else:
        written = _write_strategy(spec, game, solver.strategy(), info, unrounded, target)
    metrics = solver.metrics().as_dict()
    if spec.lock is not None:  # the locked game's gap; the file's own is reported beside it
        written["exploitability_unlocked"] = written.pop("exploitability")
    pot = pot_fields(game, written.get("exploitability", metrics["exploitability"]),
                     written["game_value"])  # fmt: skip
    event = {
        "event": "done",
        **metrics,
        **written,  # the exploitability of the rounded file, as written
        **pot,
        "file_bytes": spec.out.stat().st_size,
        "stopped_by": reason,
        "out": str(spec.out),
        "checkpoint": str(checkpoint),
    }
    emit(event)
    return event


CHECK_SHARE = 16.0
"""Between two exact checks the solve runs at least this many times as long as a check takes
(a flop's check is three passes, an iteration's time and a half), unless the target is near:
the check that stops a run falls where the power law through the last two puts the target
(``_iterations_to``), so checks further apart cost no iterations. At 8 a turn spot's 130
iterations took 12 to 14 checks of 85 ms, at 16 eight."""


def _next_chunk(chunk: int, per_iteration: float, measured: float, spec: RunRequest) -> int:
    """Iterations before the next check: growing fourfold from one, so a progress event comes
    about every ``report_seconds`` and a plot of the first checks spreads over the
    iterations, but never so few that the exact check (``measured`` seconds, an iteration and
    a quarter on the benchmark flop) takes more than a seventeenth of the run (``CHECK_SHARE``): a
    flop checked at 1, 5 and 21 iterations spent two checks in its first five iterations."""
    wanted = min(spec.report_seconds, spec.checkpoint_seconds)
    if wanted <= 0:  # --every 0 asks for a check after every iteration
        return 1
    wanted = max(wanted, CHECK_SHARE * measured)
    least = int(CHECK_SHARE * measured / per_iteration)
    return max(1, min(max(chunk * 4, least), int(wanted / per_iteration)))


PAST_THE_LAW = 1.1
"""The iterations ``_iterations_to`` predicts, times this: DCFR's decline slows as it goes, so
the power law through two checks falls short, and a check that misses costs more than the
iteration or two past the target it saves (on the benchmark flop a check is an iteration and a
quarter; replayed on its curve, the law alone checked at 36, 54 and 60 before the target at 61,
a tenth more at 36, 55 and 61)."""


def _iterations_to(seen: list[tuple[int, float]], stop_at: float) -> int | None:
    """Iterations left until the exploitability reaches ``stop_at``, on the power law through
    the last two checks (``e ~ t^-k``: DCFR's decline near a target), a tenth more
    (``PAST_THE_LAW``); None while the last two do not decline (early iterations jump about)
    or the target is met."""
    if len(seen) < 2:
        return None
    (t1, e1), (t2, e2) = seen[-2], seen[-1]
    if not (t2 > t1 > 0 and e1 > e2 > stop_at > 0):
        return None
    power = math.log(e1 / e2) / math.log(t2 / t1)
    return max(1, math.ceil((t2 * (e2 / stop_at) ** (1.0 / power) - t2) * PAST_THE_LAW))


def _solver_info(spec: RunRequest, solver):
    from solvers.strategy_file import SolverInfo  # noqa: PLC0415

    return SolverInfo(
        algorithm=spec.algo,
        settings={k: v for k, v in solver.settings().items() if k != "algorithm"},
        iterations=solver.iterations,
        seed=spec.options.get("seed"),
    )


def _write_strategy(
    spec: RunRequest, game, strategy, info, unrounded: float, target: float | None
) -> dict[str, Any]:
    """Round, measure and write; finer rounding while the rounded file misses ``--target``."""
    import numpy as np  # noqa: PLC0415

    from solvers.atomic import atomic_write_text  # noqa: PLC0415
    from solvers.strategy_file import dumps_document, measure, rounded_strategy, to_document  # noqa: PLC0415

    if not all(np.isfinite(np.asarray(rows)).all() for rows in strategy.values()):
        raise SolverError(
            f"{spec.algo} diverged (its strategy holds NaN or infinity); nothing was written. "
            "Try other options."
        )
    for precision in TARGET_PRECISIONS:
        rounded = rounded_strategy(game, strategy, precision)
        measured = measure(game, rounded)
        if target is None or measured.exploitability <= target:
            break
    document = to_document(game, rounded, solver=info, measured=measured, arrays=True)
    atomic_write_text(spec.out, dumps_document(document))
    return _written(measured, precision, unrounded, target)


def _written(
    measured, precision: int | None, unrounded: float, target: float | None
) -> dict[str, Any]:
    """What the ``done`` event says of the file: its measure, and what rounding added
    (``precision``: the decimals rounded to, None for a quantised binary file)."""
    result: dict[str, Any] = {
        "exploitability": measured.exploitability,
        "game_value": measured.game_value,
        "precision": precision,
        "exploitability_unrounded": unrounded,
        "rounding_added": measured.exploitability - unrounded,
    }
    if target is not None and measured.exploitability > target:
        result["target_missed_by_rounding"] = True
    return result


def _write_compiled(spec: RunRequest, game, solver, compact, info, unrounded: float, target):
    """``_write_strategy`` for a solver on the compiled walk, in bounded memory: rounding and
    the exact measure work on the walked edges (a flop spot's full profile would take GBs),
    and the file is streamed node by node."""
    import numpy as np  # noqa: PLC0415

    from solvers.atomic import atomic_write_chunks  # noqa: PLC0415
    from solvers.exact.compiled_walk import Source  # noqa: PLC0415
    from solvers.exact.evaluation import (  # noqa: PLC0415
        exploitability_of_sources,
        exploitability_per_edge,
    )
    from solvers.exact.executor import evaluation_dtype  # noqa: PLC0415
    from solvers.exact.walk import build_plan  # noqa: PLC0415
    from solvers.strategy_file import (  # noqa: PLC0415
        document_chunks,
        measured_from,
        round_rows,
        to_document,
    )

    if not all(np.isfinite(x).all() for x in compact):
        raise SolverError(
            f"{spec.algo} diverged (its strategy holds NaN or infinity); nothing was written. "
            "Try other options."
        )
    walk = solver.compiled
    cp = walk.plan
    # Finer rounding while the file misses --target needs the unrounded strategy kept beside
    # the rounded one; a flop spot rounds in place to 6 decimals instead (memory).
    in_place = sum(x.nbytes for x in compact) > SPARE_COPY_BYTES
    for precision in TARGET_PRECISIONS[:1] if in_place else TARGET_PRECISIONS:
        dtype = np.float32 if precision <= 6 else np.float64  # float32 holds 6 decimals
        rounded = []
        for p in (0, 1):
            out = compact[p] if in_place else np.empty(compact[p].shape, dtype=dtype)
            for first, count in zip(cp.slot_first[p], cp.slot_actions[p], strict=True):
                block = compact[p][first : first + count].T.astype(np.float64)
                out[first : first + count] = round_rows(block, precision).T
            rounded.append(out)
        if evaluation_dtype(game) == np.float64:  # exact: the full tree in float64, as exploit
            walk.release()  # the solver's own (float32) buffers are not needed for that
            spread = [  # the decimals the file holds
                np.round(cp.full_edges(p, rounded[p]).astype(np.float64), precision) for p in (0, 1)
            ]
            report = exploitability_per_edge(game, spread)
        else:  # a flop spot: its own walk (float32, suit isomorphism), in the memory it has
            report = exploitability_of_sources(game, [Source(x) for x in rounded], walk=walk)
        measured = measured_from(report)
        if target is None or measured.exploitability <= target:
            break
    head = to_document(game, {}, solver=info, measured=measured, head_only=True)
    plan = build_plan(game)
    slots = [{n: k for k, n in enumerate(e.decision_nodes)} for e in plan.edges]

    def nodes():
        for node in game.decision_nodes():
            p = node.player
            edges = plan.edges[p]
            slot = slots[p][node.id]
            first = edges.first_edge[slot]
            source, swapped = cp.expand[p] if cp.isomorphic else (None, None)
            span = np.arange(first, first + edges.n_actions[slot])
            rows = rounded[p][span if source is None else source[span]].T
            if swapped is not None and swapped[first]:
                rows = rows[cp.hand_swap[p]]
            yield (
                node.key,
                {
                    "actions": list(node.actions),
                    "probs": np.round(rows.astype(np.float64), precision),
                },
            )

    atomic_write_chunks(spec.out, document_chunks(head, nodes()))
    return _written(measured, precision, unrounded, target)


def _write_binary(spec: RunRequest, game, solver, info, unrounded: float, target):
    """A binary strategy file (``strategy_file/binary.py``): probabilities quantised to 8 bits
    (16 when 8 would miss ``--target``) at the decisions each hand can reach; the header's
    exploitability is the exact one of the decoded profile (the float one is kept beside it).

    In the memory the solve held: the solver's state goes as the output is formed, each player
    is encoded on its own (its profile, its live hands from a lean reach pass, its sections),
    and only the measure holds both decoded profiles. The finer try reads the solve's own
    profile again from the checkpoint, one player and the arrays it needs at a time."""
    from solvers.exact.compiled_walk import compiled_walk  # noqa: PLC0415
    from solvers.exact.executor import evaluation_dtype  # noqa: PLC0415
    from solvers.games.holdem.memory import give_back  # noqa: PLC0415
    from solvers.strategy_file import measured_from  # noqa: PLC0415
    from solvers.strategy_file.binary import TARGET_BITS, write_binary  # noqa: PLC0415
    from solvers.strategy_file.binary_codec import canonical_plan  # noqa: PLC0415
    from solvers.strategy_file.binary_eval import (  # noqa: PLC0415
        encode_player,
        sections_exploitability,
    )

    plan = canonical_plan(game)
    walk = compiled_walk(game, evaluation_dtype(game), isomorphic=True)
    if walk is not solver.compiled:
        solver.compiled.release()

    def encoded(outputs, bits: int) -> list[dict]:
        sections = []
        outputs = iter(outputs)
        for p in (0, 1):  # not enumerate(), whose reused tuple keeps the last output alive
            compact = next(outputs)
            if solver.compiled.plan is not plan and plan.isomorphic:
                compact = compact[~plan.expand[p][1]]  # a walk without suit isomorphism
            if not _finite(compact):
                raise SolverError(
                    f"{spec.algo} diverged (its strategy holds NaN or infinity); nothing was "
                    "written. Try other options."
                )
            sections.append(encode_player(game, p, compact, bits, walk))
            del compact
        give_back()
        return sections

    # the sections wait on disk while the measure holds both decoded profiles
    with tempfile.TemporaryDirectory(dir=spec.out.parent, prefix=f".{spec.out.name}.") as spill:
        spilled = _Spilled(Path(spill))
        spilled.keep(encoded(solver.compiled_outputs(release=True), TARGET_BITS[0]))
        for bits in TARGET_BITS:  # finer while the quantised file misses --target
            if bits != TARGET_BITS[0]:
                spilled.keep(encoded(solver.checkpoint_outputs(spec.checkpoint_path), bits))
            measured = measured_from(sections_exploitability(game, spilled, bits, walk))
            give_back()
            if target is None or measured.exploitability <= target:
                break
        write_binary(
            spec.out, game, [spilled[0], spilled[1]], bits, solver=info, measured=measured,
            float_exploitability=unrounded,
        )  # fmt: skip
    return {**_written(measured, None, unrounded, target), "bits": bits}  # quantised


class _Spilled:
    """Both players' sections of a binary file, the big ones kept in ``folder`` (``.npy``
    files) and read back memory-mapped, one player at a time: a flop's are 50 MB at 8 bits,
    100 MB at 16."""

    SPILL_BYTES = 1 << 20
    """Sections from this size on wait on disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.kept: list[dict] = [{}, {}]

    def keep(self, sections: list[dict]) -> None:
        import numpy as np  # noqa: PLC0415

        for p in (0, 1):
            self.kept[p] = {}
            for name, array in sections[p].items():
                if array.nbytes < self.SPILL_BYTES:
                    self.kept[p][name] = array
                else:
                    path = self.folder / f"{name}{p}.npy"
                    np.save(path, array, allow_pickle=False)
                    self.kept[p][name] = path
        sections.clear()

    def __getitem__(self, player: int) -> dict:
        import numpy as np  # noqa: PLC0415

        return {
            name: np.load(kept, mmap_mode="r") if isinstance(kept, Path) else kept
            for name, kept in self.kept[player].items()
        }


def _finite(array) -> bool:
    """No NaN or infinity in ``array``, checked a block of rows at a time (a flop's output is
    180 MB a player; a whole-array check would take a quarter of that again)."""
    import numpy as np  # noqa: PLC0415

    step = max(1, (1 << 22) // max(1, array.shape[-1]))
    return all(np.isfinite(array[i : i + step]).all() for i in range(0, len(array), step))


def _execute_lp(spec: RunRequest, game, emit: Emit, started: float):
    from solvers.exact.lp import solve_lp  # noqa: PLC0415
    from solvers.strategy_file import SolverInfo, save_strategy  # noqa: PLC0415

    emit({"event": "started", "game": game.spec_string(), "algo": "lp"})
    solution = solve_lp(game)
    saved = save_strategy(
        spec.out,
        game,
        solution.strategy,
        solver=SolverInfo(algorithm="lp", settings={"method": "sequence-form, HiGHS"}),
    )
    assert saved.measured is not None  # save_strategy measures by default
    event = {
        "event": "done",
        "iterations": 1,
        "seconds": solution.seconds,
        "ms_per_iteration": 1000 * solution.seconds,
        "exploitability": saved.measured.exploitability,
        "game_value": saved.measured.game_value,
        **pot_fields(game, saved.measured.exploitability, saved.measured.game_value),
        "wall_seconds": time.perf_counter() - started,
        "stopped_by": "exact",
        "file_bytes": spec.out.stat().st_size,
        "out": str(spec.out),
    }
    emit(event)
    return event
