"""Hold'em spot views of a strategy: the numbers behind the solver-style explorer and the CLI.

- ``class_mix``: the 13x13 grid's content, each class's reach-weighted action mix and its share
  of the range;
- ``class_combos``: one class's live combos with their strategy, EV and equity;
- ``distributions``: histograms of EV and equity over the acting player's range;
- ``spot_node_view``: all of the above for one node, as the explorer's Spot tab shows it.

The by-card report of a deal is in ``solvers.reports.by_card``.

Everything is vectorised over hands. A spot game's hands are the live combos in
``game.hand_combos``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import CLASS_LABELS, COMBO_CLASS, N_CLASSES, card_str, class_index
from solvers.errors import InputError
from solvers.games.base import Node, TreeGame, spot_hand_combos
from solvers.reports.spot_equity import equity_vs_range, spot_equity
from solvers.reports.strategy_report import NodeReport, node_report


def hand_classes(game: TreeGame, player: int) -> np.ndarray:
    """``[n_hands]`` class index (0..168, ``CLASS_LABELS`` order) of each live combo."""
    return COMBO_CLASS[spot_hand_combos(game)[player]]


@dataclass(frozen=True)
class ClassMix:
    mix: np.ndarray
    """``[169, n_actions]`` each class's action frequencies, reach-weighted over its combos
    (NaN rows: the class is not in the range here)."""
    weight: np.ndarray
    """``[169]`` each class's share of the acting player's range at the node (sums to 1)."""


def class_mix(game: TreeGame, report: NodeReport) -> ClassMix:
    return class_frequencies(game, report.player, report.reach_weight, report.probs)


def class_frequencies(
    game: TreeGame, player: int, reach: np.ndarray, probs: np.ndarray
) -> ClassMix:
    """Per-combo reach and action probabilities ``[n_hands, n_actions]`` summed into the 169
    classes (the grid of the explorer and of ``pokertui show``)."""
    classes = hand_classes(game, player)
    weight = np.bincount(classes, weights=reach, minlength=N_CLASSES)
    per_action = np.stack(
        [
            np.bincount(classes, weights=reach * probs[:, a], minlength=N_CLASSES)
            for a in range(probs.shape[1])
        ],
        axis=1,
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        mix = np.where(weight[:, None] > 0, per_action / weight[:, None], np.nan)
    total = weight.sum()
    return ClassMix(mix, weight / total if total > 0 else weight)


def node_evs(report: NodeReport) -> np.ndarray:
    """``[n_hands]`` each combo's EV at the node under the strategy (NaN: cannot be here)."""
    evs = np.where(report.probs > 0, report.action_evs, 0.0)
    value = (report.probs * evs).sum(axis=1)
    return np.where(np.isnan(report.action_evs).all(axis=1), np.nan, value)


def node_equities(game: TreeGame, node: Node, report: NodeReport) -> np.ndarray:
    """``[n_hands]`` each combo's equity against the opponent's range at the node, over every
    runout (NaN where the opponent never gets here or no compatible hand is left)."""
    opponent = 1 - report.player
    opp_range = report.ranges[opponent]
    if opp_range is None:
        return np.full(len(report.hands), np.nan)
    board = tuple(int(c) for c in node.board)
    fast = spot_equity(game, board, report.player, opp_range)
    if fast is not None:
        return fast
    combos = spot_hand_combos(game)
    return equity_vs_range(board, combos[report.player], combos[opponent], opp_range)


@dataclass(frozen=True)
class ClassCombos:
    label: str
    hands: tuple[str, ...]
    indices: np.ndarray
    """Their positions in the acting player's hands."""
    probs: np.ndarray
    """``[k, n_actions]``."""
    evs: np.ndarray
    """``[k]`` EV in chips at the node."""
    equities: np.ndarray
    """``[k]`` equity against the opponent's range at the node."""
    reach: np.ndarray
    """``[k]`` share of the acting player's range at the node."""


def class_combos(
    game: TreeGame, report: NodeReport, label: str, equities: np.ndarray
) -> ClassCombos:
    """The live combos of class ``label`` (e.g. ``AKs``) at the node."""
    classes = hand_classes(game, report.player)
    return _combos(report, classes, label, node_evs(report), equities)


def _combos(report: NodeReport, classes, label: str, evs, equities) -> ClassCombos:
    try:
        wanted = class_index(label.strip())
    except (InputError, KeyError, ValueError):
        raise InputError(f"{label!r} is not a hand class such as AA, AKs or T9o") from None
    indices = np.flatnonzero((classes == wanted) & report.possible)
    total = report.reach_weight.sum()
    return ClassCombos(
        label=CLASS_LABELS[wanted],
        hands=tuple(report.hands[i] for i in indices),
        indices=indices,
        probs=report.probs[indices],
        evs=evs[indices],
        equities=equities[indices],
        reach=report.reach_weight[indices] / total if total > 0 else report.reach_weight[indices],
    )


@dataclass(frozen=True)
class Histogram:
    edges: np.ndarray
    """``[bins + 1]``."""
    shares: np.ndarray
    """``[bins]`` share of the range (reach-weighted) in each bin; sums to 1."""


def histogram(values: np.ndarray, weights: np.ndarray, bins: int, span=None) -> Histogram:
    """A reach-weighted histogram of the finite values (an empty range gives zeros)."""
    keep = np.isfinite(values) & (weights > 0)
    if span is None:
        low, high = (values[keep].min(), values[keep].max()) if keep.any() else (0.0, 1.0)
        span = (float(low), float(high) if high > low else float(low) + 1.0)
    counts, edges = np.histogram(values[keep], bins=bins, range=span, weights=weights[keep])
    total = counts.sum()
    return Histogram(edges, counts / total if total > 0 else counts)


def distributions(
    report: NodeReport, equities: np.ndarray, bins: int = 10
) -> tuple[Histogram, Histogram]:
    """EV (chips) and equity (0 to 1) histograms over the acting player's range at the node."""
    weights = report.reach_weight
    return (
        histogram(node_evs(report), weights, bins),
        histogram(equities, weights, bins, span=(0.0, 1.0)),
    )


def board_text(node: Node) -> str:
    return " ".join(card_str(int(c)) for c in node.board)


@dataclass(frozen=True)
class SpotNodeView:
    """Everything the explorer's spot view shows for one decision node."""

    report: NodeReport
    board: str
    mix: ClassMix
    evs: np.ndarray
    """``[n_hands]`` EV in chips of each combo at the node."""
    equities: np.ndarray
    """``[n_hands]`` equity of each combo against the opponent's range there."""
    ev_histogram: Histogram
    equity_histogram: Histogram
    classes: np.ndarray
    """``[n_hands]`` class index of each combo."""

    def combos(self, label: str) -> ClassCombos:
        """One class's combos with strategy, EV and equity (``InputError`` for a bad label)."""
        return _combos(self.report, self.classes, label, self.evs, self.equities)


def spot_node_view(game: TreeGame, strategy: Mapping[int, np.ndarray], node: Node) -> SpotNodeView:
    """One node report, its class grid, EVs, equities (every runout) and their histograms."""
    report = node_report(game, strategy, node)
    equities = node_equities(game, node, report)
    ev_hist, equity_hist = distributions(report, equities)
    return SpotNodeView(
        report=report,
        board=board_text(node),
        mix=class_mix(game, report),
        evs=node_evs(report),
        equities=equities,
        ev_histogram=ev_hist,
        equity_histogram=equity_hist,
        classes=hand_classes(game, report.player),
    )
