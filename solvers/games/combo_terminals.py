"""The terminal tables a game with two-card hands gives the compiled walk
(``solvers/exact/compiled_walk.py``) and its own terminal kernels
(``holdem/terminal_kernels.py``): folds by card removal, showdowns as sorted sweeps."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class ComboHands(NamedTuple):
    """One player's hands in the terminal tables. Per board ``b``,
    ``sorted_hands[b, :n_live[b]]`` are the hands the board leaves, by strength, with
    ``sorted_strength`` and ``sorted_cards`` beside them. The compiled kernels read it by field
    name (``exact/kernel_inputs.py``)."""

    cards: np.ndarray
    """``[hands, 2]`` the cards of each hand."""
    same: np.ndarray
    """For each hand, the other player's index of the same combo, or -1."""
    weights: np.ndarray
    """The range weight of each hand."""
    sorted_hands: np.ndarray
    sorted_strength: np.ndarray
    sorted_cards: np.ndarray
    """``[boards, hands, 2]`` int8: the cards of ``sorted_hands`` in that order."""
    n_live: np.ndarray


class ComboTerminals(NamedTuple):
    """Terminal tables of a game whose hands are two-card combos (hold'em spots).

    Terminal ``t`` follows ``game.terminal_ids``. A fold pays ``fold_pay0[t]`` to player 0 (the
    negative to player 1); a showdown is the jobs ``job_ptr[t]:job_ptr[t + 1]``, each a 5-card
    board and a scale (the chips won, times the board's share of the runouts).
    """

    is_fold: np.ndarray
    fold_pay0: np.ndarray
    job_ptr: np.ndarray
    job_board: np.ndarray
    job_scale: np.ndarray
    normaliser: float
    hands: tuple[ComboHands, ComboHands]
    """Per player."""
    dense_of: np.ndarray
    """Per terminal, its ``dense`` matrix, or -1: showdowns over many runouts of one board."""
    dense_scale: np.ndarray
    """Per dense terminal, its jobs' scale (the same for every runout)."""
    dense: tuple[np.ndarray, np.ndarray]
    """Per player, ``[groups, own hands, opp hands]`` float32: per board, the runouts where the
    player's hand beats the opponent's less those where it loses (pairs sharing a card 0; exact
    integers; player 1's is minus the transpose of player 0's)."""


class TerminalTables(NamedTuple):
    """The terminals' part of ``ComboTerminals`` seen from the player whose values are computed,
    as the compiled kernels read it; each player's hands are a ``ComboHands`` record, passed
    beside it (numba's parallel loops take records of arrays and scalars, not of records)."""

    is_fold: np.ndarray
    fold_pay: np.ndarray
    """Chips the fold pays to the player whose values are computed (the sign applied)."""
    job_start: np.ndarray
    """Showdown jobs of terminal ``t`` are ``job_start[t]:job_start[t + 1]``."""
    job_board: np.ndarray
    job_scale: np.ndarray
    scale: float
    """1 / the prior's normaliser: values are chips per deal."""
    dense_of: np.ndarray
    dense_scale: np.ndarray
    dense: np.ndarray
    """``[groups, own hands, opp hands]``: the player's ``ComboTerminals.dense``. A dense
    terminal's value is ``dense_scale`` times its product with the opponent weight, where the
    sorted sweep would take every runout in turn."""


def terminal_tables(tables: ComboTerminals, player: int) -> TerminalTables:
    """A game's ``ComboTerminals`` seen from ``player``."""
    sign = 1.0 if player == 0 else -1.0
    return TerminalTables(
        is_fold=tables.is_fold,
        fold_pay=tables.fold_pay0 * sign,
        job_start=tables.job_ptr,
        job_board=tables.job_board,
        job_scale=tables.job_scale,
        scale=1.0 / tables.normaliser,
        dense_of=tables.dense_of,
        dense_scale=tables.dense_scale,
        dense=tables.dense[player],
    )
