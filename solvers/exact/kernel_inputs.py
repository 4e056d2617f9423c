"""The named inputs of the compiled kernels (``compiled_kernels.py``): a few records of arrays.

The kernels read every field by name (numba passes named tuples of arrays and scalars as typed
records), so adding, removing or reordering a field cannot shift an argument: a kernel that reads
a missing field fails to compile. The records are built only with keywords
(``tests/test_kernel_inputs.py`` checks both). This module loads no numba: the app and the CLI
import it without paying for the compiler.

- ``PlanArrays``: the tree as per-row index arrays, in one storage dtype (``CompiledWalk``).
- ``Schedule``: the lean passes' order, depth first below the first chance nodes.
- ``ShowdownBatches``: the segments of the schedule's rows whose showdowns one sweep values.
- ``StrategySource``: where one player's strategy comes from (regrets, sums or probabilities).
- The terminal tables (``TerminalTables`` and a ``ComboHands`` per player) are records of
  ``games/combo_terminals.py``: the game's terminal kernels read them too.
- ``FusedUpdate``: the arithmetic of one CFR-family update, applied at the walking player's
  decisions inside the value pass. Its numbers (discounts, average weight, floor) are decided
  by the algorithm (``solvers/algorithms/cfr_update.py``); this layer only executes them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class PlanArrays(NamedTuple):
    """Per-row arrays of a ``CompiledPlan`` (rows in ``TreePlan`` order), as the kernels read
    them. "Inner" rows are the non-terminal rows that are walked; they index the
    ``[inner rows, hands]`` reach and value arrays."""

    kind: np.ndarray
    """0 or 1: that player's decision; 2 chance; 3 terminal."""
    child_start: np.ndarray
    """Children of row ``r`` are ``child_rows[child_start[r]:child_start[r + 1]]``."""
    child_rows: np.ndarray
    first_edge: np.ndarray
    """A decision row's first action in its player's per-edge arrays, else -1."""
    chance_mask: np.ndarray
    """A chance outcome row's index in ``masks``, else -1."""
    masks: np.ndarray
    """``[n_masks, 2, max_hands]`` chance masks, in the storage dtype (uint8 when 0/1)."""
    inner_index: np.ndarray
    """A walked non-terminal row's index in the ``[inner rows, hands]`` arrays, else -1."""
    terminal_index: np.ndarray
    """A terminal row's index in ``game.terminal_ids`` order, else -1."""
    terminal_chance: np.ndarray
    """Per terminal, the chance probability of its path."""
    level_rows: np.ndarray
    """``[n_levels, 2]``: each depth's inner rows, ``[start, stop)``."""
    decision_slot: np.ndarray
    """A decision row's slot in its player's decisions (the ``best`` rows), else -1."""
    has_terminal_child: np.ndarray
    has_inner_child: np.ndarray
    doubled: np.ndarray
    """A chance outcome whose suit-swapped twin is not walked: it counts twice."""


class Schedule(NamedTuple):
    """The order of the lean passes (``compiled_kernels.walk_pass``): rows above the cut by
    levels, then each subtree below it parents first in a per-thread scratch
    (``compiled_plan.py``)."""

    top_index: np.ndarray
    """A row above the cut or a subtree's head: its row in the ``[top rows, hands]`` arrays,
    else -1."""
    top_rows: np.ndarray
    """The inner rows above the cut, in level order."""
    top_levels: np.ndarray
    """``[n_levels, 2]``: each depth's span of ``top_rows``, ``[start, stop)``."""
    local_index: np.ndarray
    """A row of a subtree: its row in the subtree's (or group's) scratch (0 at the head of a
    subtree alone), else -1."""
    sub_rows: np.ndarray
    """The subtrees' inner rows, subtree after subtree, each parents first from its head. The
    compiled walk's own schedule groups subtrees (``compiled_walk.showdown_batches``): a
    group's members follow each other, each parents first from its head."""
    sub_start: np.ndarray
    """Subtree (or group) ``s`` is ``sub_rows[sub_start[s]:sub_start[s + 1]]``."""


class ShowdownBatches(NamedTuple):
    """Showdowns the lean pass values together (``showdown_batches.py``): the rows of each
    group of the ``Schedule`` (``sub_rows[sub_start[g]:sub_start[g + 1]]``) fall into
    segments, runs of rows whose showdowns lie on the same boards, and each segment's are
    valued in one sweep of each board (``terminal_kernels.batch_sweep_add``), a column a
    terminal, with each terminal's arithmetic the single sweeps': the same bits."""

    slot: np.ndarray
    """A batched terminal's column in its segment's sweep, else -1 (one per terminal)."""
    seg_start: np.ndarray
    """Group ``g``'s segments are ``seg_start[g]:seg_start[g + 1]``."""
    seg_first: np.ndarray
    """A segment's first row, a position in ``Schedule.sub_rows``."""
    seg_stop: np.ndarray
    """A segment's end, the position after its last row."""
    columns: np.ndarray
    """Per segment, its batched terminals (0: its showdowns are swept one by one)."""
    job_first: np.ndarray
    """Per segment, the first job of one of its batched terminals (-1 when none): the boards
    every batched terminal of the segment sweeps, in order, are ``job_board[job_first +
    j]`` for ``j < jobs``."""
    jobs: np.ndarray
    """Per segment, the boards of each of its batched showdowns (1 for a single board, 48 for
    a turn's showdown over every river; 0 when none)."""
    most: int
    """The largest of ``columns``: the columns of a chunk's scratch."""


class StrategySource(NamedTuple):
    """One player's per-edge ``weights`` and how a decision's strategy is formed from them:
    regret matching (``matching``, plus ``predictions`` when it has rows) or normalisation.
    16-bit weights (``quantised_rows.py``) come with one float32 scale per decision slot in
    ``scales``; float weights with an empty ``scales``."""

    weights: np.ndarray
    predictions: np.ndarray
    matching: bool
    scales: np.ndarray


class FusedUpdate(NamedTuple):
    """One update of the walking player's regrets (its ``StrategySource``'s weights and
    predictions) and ``strategy_sums``, at every decision of the value pass:
    ``regret += instant``; floored at 0 if ``floor``; times ``positive`` or ``negative`` by sign
    if ``discount``; ``sums += sum_weight * own reach * strategy``; predictions ``= instant``.
    16-bit sums (uint16 codes) keep one float32 scale per decision slot in ``sum_scales``
    (empty for float sums), rewritten with the block."""

    strategy_sums: np.ndarray
    sum_scales: np.ndarray
    dither_seed: int
    """16-bit storage: 0 rounds to the nearest code, else the seed of the dithered rounding
    (``quantised_rows.store_block``), a new one every iteration."""
    sum_weight: float
    floor: bool
    discount: bool
    positive: float
    negative: float


def no_update(dtype: np.dtype, quantised: bool = False) -> FusedUpdate:
    """The record passed when the value pass updates nothing, with the types of a real update
    of the same walk: float sums in ``dtype``, or, for 16-bit sources (``quantised``), the
    uint16 codes a 16-bit CFR pass updates. numba compiles a pass once per record type, so an
    idle record typed like the update shares the CFR pass's compile (a 16-bit solve's warm-up
    value pass took a whole compile of its own, about 35 s cold)."""
    return FusedUpdate(
        strategy_sums=np.zeros((0, 0), dtype=np.uint16 if quantised else dtype),
        sum_scales=np.zeros(0, dtype=np.float32),
        dither_seed=0,
        sum_weight=0.0,
        floor=False,
        discount=False,
        positive=1.0,
        negative=1.0,
    )
