"""Exact equilibria by the sequence-form linear program (Koller, Megiddo & von Stengel 1996).

A player's strategy is written as a realization plan: one weight per sequence (information set
and action), with flow constraints ``E x = e``; here an information set is (public node, own
hand), so a decision node of player p owns a contiguous block of ``n_hands[p] * n_actions``
sequences. The payoff matrix ``A[seq0, seq1]`` sums, over terminals, player 0's payoff times
the prior and chance weights of the hand pair. Player 0 solves

    max  q[0]   s.t.  E x = e,  x >= 0,  F^T q <= A^T x

whose dual is player 1's minimisation; player 1's plan is read from the duals (or, if they are
not accurate enough, from the mirrored LP). Solved with scipy's HiGHS on sparse matrices, with
the payoffs divided by their largest magnitude first: HiGHS's tolerances are absolute, and a game
played for a million chips otherwise fails or stops short of the equilibrium.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from solvers.errors import InputError
from solvers.games.base import Strategy, TreeGame
from solvers.games.matrix import MatrixGame, solve_matrix_lp

HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


@dataclass(frozen=True)
class LPSolution:
    value: float
    """Game value for player 0 (the first player) in chips."""
    strategy: Strategy
    """An equilibrium profile in the common per-node ``[hands, actions]`` format."""
    seconds: float
    sizes: dict[str, int] = field(default_factory=dict)


@dataclass
class SequenceForm:
    """Per player: sequence offsets of each decision node and the constraint matrices."""

    n_sequences: list[int]
    offsets: list[dict[int, int]]
    """``offsets[p][node_id]``: sequence index of (node, hand 0, action 0); row-major after."""
    constraints: list[sp.csr_matrix]
    payoff: sp.csr_matrix
    """``[S0, S1]`` player 0's expected payoff contribution of each sequence pair."""
    parent_sequence: list[dict[int, tuple[int, int]]]
    """``[p][node_id] = (base, stride)``: p's last sequence before the node for hand h is
    ``base + h * stride`` (``(0, 0)`` is the empty sequence)."""


def build_sequence_form(game: TreeGame) -> SequenceForm:
    n_seq = [1, 1]
    offsets: list[dict[int, int]] = [{}, {}]
    for node in game.decision_nodes():
        p = node.player
        offsets[p][node.id] = n_seq[p]
        n_seq[p] += game.n_hands[p] * len(node.children)

    # Last own sequence above each node as (base, stride): sequence of hand h = base + h*stride.
    last = [[(0, 0)] * len(game.nodes), [(0, 0)] * len(game.nodes)]
    rows: list[list[np.ndarray]] = [[], []]
    cols: list[list[np.ndarray]] = [[], []]
    vals: list[list[np.ndarray]] = [[], []]
    row_count = [1, 1]
    for p in (0, 1):
        rows[p].append(np.array([0]))
        cols[p].append(np.array([0]))
        vals[p].append(np.array([1.0]))
    for node in game.nodes:
        if node.is_terminal:
            continue
        for child_index, child in enumerate(node.children):
            for p in (0, 1):
                last[p][child] = last[p][node.id]
            if node.is_decision:
                p = node.player
                width = len(node.children)
                last[p][child] = (offsets[p][node.id] + child_index, width)
        if node.is_decision:
            p, width, hands = node.player, len(node.children), np.arange(game.n_hands[node.player])
            info_rows = row_count[p] + hands
            row_count[p] += len(hands)
            base, stride = last[p][node.id]
            rows[p] += [np.repeat(info_rows, width), info_rows]
            cols[p] += [offsets[p][node.id] + np.arange(len(hands) * width), base + hands * stride]
            vals[p] += [np.ones(len(hands) * width), -np.ones(len(hands))]
    constraints = [
        sp.csr_matrix(
            (np.concatenate(vals[p]), (np.concatenate(rows[p]), np.concatenate(cols[p]))),
            shape=(row_count[p], n_seq[p]),
        )
        for p in (0, 1)
    ]

    a_rows, a_cols, a_vals = [], [], []
    h0 = np.arange(game.n_hands[0])
    h1 = np.arange(game.n_hands[1])
    for node in game.nodes:
        if not node.is_terminal:
            continue
        mask0, mask1 = game.path_masks[node.id]
        weights = game.terminal_matrix(node) * game.path_chance[node.id]
        weights = weights * np.outer(mask0, mask1)
        nz0, nz1 = np.nonzero(weights)
        if len(nz0) == 0:
            continue
        base0, stride0 = last[0][node.id]
        base1, stride1 = last[1][node.id]
        a_rows.append(base0 + h0[nz0] * stride0)
        a_cols.append(base1 + h1[nz1] * stride1)
        a_vals.append(weights[nz0, nz1])
    payoff = sp.csr_matrix(
        (np.concatenate(a_vals), (np.concatenate(a_rows), np.concatenate(a_cols))),
        shape=(n_seq[0], n_seq[1]),
    )
    parents = [{nid: last[p][nid] for nid in offsets[p]} for p in (0, 1)]
    return SequenceForm(n_seq, offsets, constraints, payoff, parents)


def _solve_side(payoff: sp.csr_matrix, own: sp.csr_matrix, opp: sp.csr_matrix):
    """Maximise the guaranteed payoff ``q[0]``; returns (value, own plan, opponent plan|None)."""
    n_own, n_q = own.shape[1], opp.shape[0]
    scale = float(abs(payoff).max()) or 1.0  # the plans do not change; the value scales back
    payoff = payoff / scale
    cost = np.zeros(n_own + n_q)
    cost[n_own] = -1.0
    a_ub = sp.hstack([-payoff.T, opp.T]).tocsr()
    a_eq = sp.hstack([own, sp.csr_matrix((own.shape[0], n_q))]).tocsr()
    b_eq = np.zeros(own.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * n_own + [(None, None)] * n_q
    res = linprog(
        cost,
        A_ub=a_ub,
        b_ub=np.zeros(a_ub.shape[0]),
        A_eq=a_eq,
        b_eq=b_eq,
        bounds=bounds,
        method="highs",
        options=HIGHS_OPTIONS,
    )
    if res.status != 0:
        raise InputError(
            f"the sequence-form LP failed: HiGHS could not solve it ({res.message}); this game's "
            "chip amounts are probably too far apart for its tolerances"
        )
    opp_plan = None
    marginals = getattr(getattr(res, "ineqlin", None), "marginals", None)
    if marginals is not None:
        candidate = -np.asarray(marginals)
        target = np.zeros(opp.shape[0])
        target[0] = 1.0
        if candidate.min() > -1e-9 and np.abs(opp @ candidate - target).max() < 1e-8:
            opp_plan = np.clip(candidate, 0, None)
    return -res.fun * scale, np.clip(res.x[:n_own], 0, None), opp_plan


def plan_to_strategy(game: TreeGame, form: SequenceForm, player: int, plan: np.ndarray):
    """Behavioural strategy from a realization plan; unreached hands get the uniform row."""
    out: Strategy = {}
    for nid, offset in form.offsets[player].items():
        width = len(game.nodes[nid].children)
        block = plan[offset : offset + game.n_hands[player] * width].reshape(-1, width)
        totals = block.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[nid] = np.where(totals > 1e-300, block / totals, 1.0 / width)
    return out


def strategy_to_plan(game: TreeGame, form: SequenceForm, player: int, strategy: Strategy):
    """The realization plan of a behavioural strategy (inverse of ``plan_to_strategy``)."""
    plan = np.zeros(form.n_sequences[player])
    plan[0] = 1.0
    hands = np.arange(game.n_hands[player])
    for nid, offset in form.offsets[player].items():  # parents come first
        base, stride = form.parent_sequence[player][nid]
        reach = plan[base + hands * stride]
        block = reach[:, None] * strategy[nid]
        plan[offset : offset + block.size] = block.ravel()
    return plan


def solve_lp(game: TreeGame) -> LPSolution:
    """Game value for player 0 and an equilibrium profile, exactly (to LP tolerance)."""
    started = time.perf_counter()
    if isinstance(game, MatrixGame):
        value, strategy = solve_matrix_lp(game)
        sizes = {"rows": game.payoff.shape[0], "columns": game.payoff.shape[1]}
        return LPSolution(value, strategy, time.perf_counter() - started, sizes)
    form = build_sequence_form(game)
    value, plan0, plan1 = _solve_side(form.payoff, form.constraints[0], form.constraints[1])
    if plan1 is None:
        _, plan1, _ = _solve_side(-form.payoff.T.tocsr(), form.constraints[1], form.constraints[0])
    strategy = {
        **plan_to_strategy(game, form, 0, plan0),
        **plan_to_strategy(game, form, 1, plan1),
    }
    sizes = {
        "sequences_0": form.n_sequences[0],
        "sequences_1": form.n_sequences[1],
        "payoff_nonzeros": int(form.payoff.nnz),
    }
    return LPSolution(float(value), strategy, time.perf_counter() - started, sizes)
