"""Hold'em spot views of a strategy: the numbers behind the solver-style explorer and the CLI.

- ``class_mix``: the 13x13 grid's content, each class's reach-weighted action mix and its share
  of the range;
- ``class_combos``: one class's live combos with their strategy, EV and equity;
- ``distributions``: histograms of EV and equity over the acting player's range;
- ``by_next_card``: for every card a chance node can deal, the frequency and EV of each action
  at the same decision after that card (which turns favour the bettor), from one walk per
  player for all the cards at once.

Everything is vectorised over hands; ``is_spot`` tells a spot game (its hands are the live
combos in ``game.hand_combos``) from the other games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import CLASS_LABELS, COMBO_CLASS, N_CLASSES, card_str, class_index
from solvers.errors import InputError
from solvers.exact.evaluation import walk
from solvers.games.base import Node, TreeGame
from solvers.reports.spot_equity import equity_vs_range
from solvers.reports.strategy_report import NodeReport, node_report


def is_spot(game: TreeGame) -> bool:
    return getattr(game, "hand_combos", None) is not None


def hand_classes(game: TreeGame, player: int) -> np.ndarray:
    """``[n_hands]`` class index (0..168, ``CLASS_LABELS`` order) of each live combo."""
    return COMBO_CLASS[game.hand_combos[player]]


@dataclass(frozen=True)
class ClassMix:
    mix: np.ndarray
    """``[169, n_actions]`` each class's action frequencies, reach-weighted over its combos
    (NaN rows: the class is not in the range here)."""
    weight: np.ndarray
    """``[169]`` each class's share of the acting player's range at the node (sums to 1)."""


def class_mix(game: TreeGame, report: NodeReport) -> ClassMix:
    classes = hand_classes(game, report.player)
    reach = report.reach_weight
    weight = np.bincount(classes, weights=reach, minlength=N_CLASSES)
    per_action = np.stack(
        [
            np.bincount(classes, weights=reach * report.probs[:, a], minlength=N_CLASSES)
            for a in range(len(report.actions))
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
    return equity_vs_range(
        tuple(node.board),
        game.hand_combos[report.player],
        game.hand_combos[opponent],
        opp_range,
    )


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


# --- by the next card -----------------------------------------------------------------------


@dataclass(frozen=True)
class ByCard:
    key: str
    """The chance node (or the pattern with ``*``) the report is for."""
    player: int
    """Who acts at the nodes after the card."""
    actions: tuple[str, ...]
    cards: tuple[str, ...]
    node_keys: tuple[str, ...]
    reach: np.ndarray
    """``[n_cards]`` probability of each card given the chance node (or pattern prefix) is
    reached under the strategy; sums to 1 over the cards whose node exists."""
    frequency: np.ndarray
    """``[n_cards, n_actions]`` each action's frequency over the actor's range there."""
    action_ev: np.ndarray
    """``[n_cards, n_actions]`` EV in chips of each action for the hands that take it (NaN
    where none does)."""
    ev: np.ndarray
    """``[n_cards]`` the actor's EV at the node, averaged over their range there."""


def _targets(game: TreeGame, key: str) -> tuple[list[str], list[Node], Node]:
    """The decision node after each card, for a chance node key or a pattern with one ``*``."""
    if key.count("*") > 1:
        raise InputError("a --by-card pattern has one '*' for the card, e.g. x/b75/c/*/x")
    if "*" in key:
        head, _, tail = key.partition("*")
        chance = game.node_by_key(head.rstrip("/"))
        suffix = tail
    else:
        chance, suffix = game.node_by_key(key), ""
    if not chance.is_chance:
        raise InputError(
            f"node {key!r} deals no card: give the chance node (e.g. x/x on a turn spot) or a "
            "pattern with '*' for the card"
        )
    cards, nodes = [], []
    for card, child in zip(chance.actions, chance.children, strict=True):
        target_key = game.nodes[child].key + suffix
        try:
            target = game.node_by_key(target_key)
        except InputError:
            continue
        if target.is_decision:
            cards.append(card)
            nodes.append(target)
    if not nodes:
        raise InputError(f"no decision node after the cards of {key!r}")
    return cards, nodes, chance


def by_next_card(game: TreeGame, strategy: Mapping[int, np.ndarray], key: str) -> ByCard:
    """Frequencies and EVs of the same decision after every card; one walk for all cards."""
    cards, nodes, _ = _targets(game, key)
    player = nodes[0].player
    actions = nodes[0].actions
    if any(n.player != player or n.actions != actions for n in nodes):
        raise InputError(f"the nodes after the cards of {key!r} differ in actor or actions")
    done = walk(game, strategy)
    plan = done.plan
    n_own, n_opp = game.n_hands[player], game.n_hands[1 - player]
    rows = plan.row_of_node[[n.id for n in nodes]]
    own = done.reach[rows, player, :n_own]  # [k, n_own]
    opp = done.reach[rows, 1 - player, :n_opp]
    prior = game.prior if player == 0 else game.prior.T
    opp_weight = (opp @ prior.T) * game.path_chance[[n.id for n in nodes]][:, None]
    values = done.values(game, player)
    children = np.array([n.children for n in nodes])  # [k, n_actions]
    child_cfv = values[plan.row_of_node[children], :n_own]  # [k, n_actions, n_own]
    probs = np.stack([np.asarray(strategy[n.id]).T for n in nodes])  # [k, n_actions, n_own]
    reach = own * opp_weight  # the actor's Bayes weight of each hand there, unnormalised
    mass = reach.sum(axis=1)
    taken = (probs * reach[:, None, :]).sum(axis=2)  # [k, n_actions]
    # action EV over the hands that take it: sum_h own * p_a * cfv_a / sum_h own * p_a * oppw
    earned = (probs * own[:, None, :] * child_cfv).sum(axis=2)
    node_ev = earned.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        frequency = taken / mass[:, None]
        action_ev = np.where(taken > 0, earned / taken, np.nan)
        ev = node_ev / mass
    total = mass.sum()
    return ByCard(
        key=key,
        player=player,
        actions=actions,
        cards=tuple(cards),
        node_keys=tuple(n.key for n in nodes),
        reach=mass / total if total > 0 else mass,
        frequency=frequency,
        action_ev=action_ev,
        ev=ev,
    )


def by_card_payload(report: ByCard) -> dict:
    """The report as JSON-able data (``pokertui show --by-card --json``)."""

    def number(x: float) -> float | None:
        return None if not np.isfinite(x) else float(x)

    return {
        "key": report.key,
        "player": report.player,
        "seat": "OOP" if report.player == 0 else "IP",
        "actions": list(report.actions),
        "cards": [
            {
                "card": card,
                "node": node_key,
                "reach": number(report.reach[i]),
                "ev": number(report.ev[i]),
                "frequency": {
                    a: number(report.frequency[i, j]) for j, a in enumerate(report.actions)
                },
                "action_ev": {
                    a: number(report.action_ev[i, j]) for j, a in enumerate(report.actions)
                },
            }
            for i, (card, node_key) in enumerate(zip(report.cards, report.node_keys, strict=True))
        ],
    }


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
