"""The terminal tables a game with two-card hands gives the compiled walk
(``solvers/exact/compiled_walk.py``): folds by card removal, showdowns as sorted sweeps."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class ComboTerminals(NamedTuple):
    """Terminal tables of a game whose hands are two-card combos (hold'em spots).

    Terminal ``t`` follows ``game.terminal_ids``. A fold pays ``fold_pay0[t]`` to player 0 (the
    negative to player 1); a showdown is the jobs ``job_ptr[t]:job_ptr[t + 1]``, each a 5-card
    board and a scale (the chips won, times the board's share of the runouts). Per player ``x``
    and board ``b``: ``sorted_hands_x[b, :n_live_x[b]]`` are the hands the board leaves, by
    strength, with ``sorted_strength_x`` beside them.
    """

    is_fold: np.ndarray
    fold_pay0: np.ndarray
    job_ptr: np.ndarray
    job_board: np.ndarray
    job_scale: np.ndarray
    cards0: np.ndarray
    cards1: np.ndarray
    same0: np.ndarray
    """For each hand of player 0, player 1's index of the same combo, or -1."""
    same1: np.ndarray
    weights0: np.ndarray
    weights1: np.ndarray
    normaliser: float
    sorted_hands0: np.ndarray
    sorted_strength0: np.ndarray
    sorted_cards0: np.ndarray
    """``[boards, hands, 2]`` int8: the cards of ``sorted_hands0`` in that order."""
    n_live0: np.ndarray
    sorted_hands1: np.ndarray
    sorted_strength1: np.ndarray
    sorted_cards1: np.ndarray
    n_live1: np.ndarray
