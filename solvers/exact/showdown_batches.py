"""Which showdowns the lean pass values together, and the order of rows that lets it.

The compiled walk values a showdown by one sweep of its board in strength order
(``terminal_kernels``): a turn's 724 showdowns took 724 sweeps a pass, most of a turn
re-solve's time. ``batch_sweep_add`` sweeps a board once for many showdowns, one column each,
with each column's arithmetic the single sweep's (the same bits): twice as fast at 15 columns
and three times at 30, no faster at 3. So the rows below the lean pass's cut are reordered into
segments, runs of rows whose showdowns lie on the same boards, swept together just before the
values go up through the segment (a showdown over several boards, a turn's checked down over
every river, sweeps each of them in its jobs' order, all columns at once):

- a turn's subtrees are its lines' river cards, two or three showdowns each: the subtrees of
  one river are walked together as one group, one segment (every line's showdowns on that
  river);
- a flop's subtrees are its lines' turn cards, each holding every river: the subtrees of one
  turn card are walked together as one group, the lines' turn rows first, then each river's
  rows of every line, one segment per river (19 showdowns on the benchmark flop, where a
  line's river held 4 to 8 and swept them one by one: an iteration 16% faster);
- a flop whose river is checked down (``resolve(flop-tree=turn)``) has no chance node below
  its turn cards: a turn card's group is one segment whose showdowns all sweep the turn's 48
  rivers (21 columns on K72r, where each showdown swept its 48 rivers alone, 1,029 a pass).

The subtrees of a group are those whose heads are the same outcome of chance nodes sharing
their outcome masks (``CompiledPlan.chance_mask``: one board), and a later card's rows are told
apart the same way.

Parents still come before children (a river's rows after the turn rows above them), so reach
goes down the group's rows in order and values come up them in reverse, segment by segment.
"""

from __future__ import annotations

import numpy as np

from solvers.exact.compiled_plan import CompiledPlan
from solvers.exact.kernel_inputs import Schedule, ShowdownBatches
from solvers.games.combo_terminals import TerminalTables

_CHANCE = 2
MIN_COLUMNS = 8
"""Fewest showdowns a segment sweeps together: below, forming the columns costs what the
shared sweep saves (a flop spot's rivers hold about 4 each, a turn re-solve's 11 to 15)."""


def segment_keys(plan: CompiledPlan) -> np.ndarray:
    """Each row's lowest ancestor-or-self that a chance node deals (itself for the root): the
    rows of one card's subtree share it, down to the next card."""
    rows = np.arange(len(plan.kind))
    parent = plan.parent
    dealt = (parent < 0) | (plan.kind[np.maximum(parent, 0)] == _CHANCE)
    up = np.where(dealt, rows, parent)
    while True:  # pointer jumping: a few passes for any depth
        higher = up[up]
        if np.array_equal(higher, up):
            return up
        up = higher


def showdown_batches(
    plan: CompiledPlan, tables: TerminalTables
) -> tuple[Schedule, ShowdownBatches]:
    """The lean pass's schedule regrouped and reordered into segments, and the columns of each
    segment's shared sweep (see the module's docstring)."""
    schedule = plan.schedule
    counts = np.diff(schedule.sub_start)
    n_sub = len(counts)
    key = segment_keys(plan)
    sub_of_row = np.full(len(plan.kind), -1, dtype=np.int64)
    sub_of_row[schedule.sub_rows] = np.repeat(np.arange(n_sub), counts)
    # the swept showdowns below the cut, by the segment of their decision
    rows = np.flatnonzero(plan.terminal_index >= 0)
    terminal = plan.terminal_index[rows]
    above = plan.parent[rows]
    swept = (sub_of_row[above] >= 0) & ~tables.is_fold[terminal]
    swept &= (tables.dense_of[terminal] < 0) & (np.diff(tables.job_start)[terminal] > 0)
    terminal = terminal[swept]
    board = board_sets(tables, terminal)
    # the subtrees whose heads are one card of chance nodes sharing their outcomes (one board:
    # a turn spot's river, a flop's turn card, across the lines into it) walk as one group
    head = schedule.sub_rows[schedule.sub_start[:-1]]
    _, group = np.unique(plan.chance_mask[head], return_inverse=True)
    group = group.ravel().astype(np.int64)
    n_groups = int(group.max(initial=-1)) + 1
    # rows: group after group; in a group, its heads' rows first (member after member), then
    # each later card's rows across the members: its segment. The sort is stable, so each
    # member keeps its own order and parents still come first
    label = np.full(len(plan.kind), -1, dtype=np.int64)  # the card a row's segment is under
    below_head = schedule.sub_rows[key[schedule.sub_rows] != head[sub_of_row[schedule.sub_rows]]]
    label[below_head] = plan.chance_mask[key[below_head]]
    old_rows = schedule.sub_rows
    sub_rows = old_rows[np.lexsort((label[old_rows], group[sub_of_row[old_rows]]))]
    group_size = np.bincount(group, weights=counts, minlength=n_groups).astype(np.int64)
    sub_start = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(group_size, out=sub_start[1:])
    local_index = np.full(len(plan.kind), -1, dtype=np.int64)
    local_index[sub_rows] = np.arange(len(sub_rows)) - np.repeat(sub_start[:-1], group_size)
    grouped = schedule._replace(sub_rows=sub_rows, sub_start=sub_start, local_index=local_index)
    # segments: runs of one label in the new order
    row_group = np.repeat(np.arange(n_groups), group_size)
    row_label = label[sub_rows]
    change = np.ones(len(sub_rows), dtype=bool)
    change[1:] = (row_label[1:] != row_label[:-1]) | (row_group[1:] != row_group[:-1])
    seg_first = np.flatnonzero(change).astype(np.int64)
    seg_stop = np.append(seg_first[1:], len(sub_rows)).astype(np.int64)
    seg_start = np.searchsorted(seg_first, sub_start).astype(np.int64)
    segment_of_row = np.full(len(plan.kind), -1, dtype=np.int64)
    segment_of_row[sub_rows] = np.cumsum(change) - 1
    # the columns: a segment's showdowns on one set of boards, at least MIN_COLUMNS
    where = segment_of_row[above[swept]]
    n_seg = len(seg_first)
    seg_board = _one_board(where, board, n_seg)
    count = np.bincount(where, minlength=n_seg).astype(np.int64)
    count[(seg_board < 0) | (count < MIN_COLUMNS)] = 0
    keep = count[where] > 0
    terminal, where = terminal[keep], where[keep]
    by = np.lexsort((terminal, where))
    terminal, where = terminal[by], where[by]
    before = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    slot = np.full(len(tables.is_fold), -1, dtype=np.int64)
    slot[terminal] = np.arange(len(terminal)) - before[where]
    first_terminal = np.zeros(n_seg, dtype=np.int64)  # a batched segment's first terminal
    seen, first_at = np.unique(where, return_index=True)
    first_terminal[seen] = terminal[first_at]
    batched = count > 0
    batches = ShowdownBatches(
        slot=slot,
        seg_start=seg_start,
        seg_first=seg_first,
        seg_stop=seg_stop,
        columns=count,
        job_first=np.where(batched, tables.job_start[first_terminal], -1).astype(np.int64),
        jobs=np.where(batched, np.diff(tables.job_start)[first_terminal], 0).astype(np.int64),
        most=int(count.max(initial=0)),
    )
    return grouped, batches


def board_sets(tables: TerminalTables, terminals: np.ndarray) -> np.ndarray:
    """Per showdown terminal, a number for the boards its jobs sweep, in order: the board
    itself for one board; above every board, one number per distinct sequence of several
    (a turn's showdowns over every river share their turn's)."""
    start = tables.job_start[terminals]
    jobs = tables.job_start[terminals + 1] - start
    out = tables.job_board[start].astype(np.int64)
    next_id = int(tables.job_board.max(initial=-1)) + 1
    for n in np.unique(jobs[jobs > 1]):  # one pass per job count: a few
        mine = np.flatnonzero(jobs == n)
        sequences = tables.job_board[start[mine, None] + np.arange(n)]
        _, ids = np.unique(sequences, axis=0, return_inverse=True)
        out[mine] = next_id + ids.ravel()
        next_id += int(ids.max()) + 1
    return out


def _one_board(segment: np.ndarray, board: np.ndarray, n_rows: int) -> np.ndarray:
    """Per segment (``segment``: each showdown's), the one board set of its showdowns
    (``board_sets``), or -1 (none, or several)."""
    low = np.full(n_rows, np.iinfo(np.int64).max)
    high = np.full(n_rows, -1)
    np.minimum.at(low, segment, board)
    np.maximum.at(high, segment, board)
    return np.where(low == high, high, -1)
