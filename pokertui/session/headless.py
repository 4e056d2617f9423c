"""Bot against bot (or a simple policy) with no UI: ``pokertui play --hands N``."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pokertui.session.session import Session
from solvers.errors import InputError
from solvers.strategy_file import StrategyFile, load_strategy

Policy = Callable[[Session], str]
SIMPLE_POLICIES = ("random", "call")


def opponent_policy(name: str, bot_file: StrategyFile, rng: np.random.Generator) -> Policy:
    """A policy for the seat facing the bot: another strategy file, ``random`` or ``call``."""
    if name == "random":
        return lambda session: str(rng.choice(session.node.actions))

    if name == "call":

        def calling_station(session: Session) -> str:
            actions = session.node.actions
            for label in ("call", "check"):
                if label in actions:
                    return label
            return next(a for a in reversed(actions) if a != "fold")

        return calling_station

    other = load_strategy(name)
    if other.game.spec_string() != bot_file.game.spec_string():
        raise InputError(
            f"{name} is for {other.game.spec_string()}, but the bot plays "
            f"{bot_file.game.spec_string()}"
        )

    def from_file(session: Session) -> str:
        node = session.node
        probs = other.strategy[node.id][session.hand.deal.hands[session.human_seat]]
        return node.actions[int(rng.choice(len(probs), p=probs / probs.sum()))]

    return from_file


PROGRESS_EVERY = 500
"""Hands between two calls of a match's progress callback."""


def play_match(
    bot_file: StrategyFile,
    opponent: str,
    hands: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> dict:
    """Play ``hands`` hands, alternating seats; the score is the bot's.

    ``progress`` is called with the number of hands played every ``PROGRESS_EVERY`` hands and at
    the end (the CLI draws its progress bar from it).
    """
    if hands < 1:
        raise InputError("play at least one hand")
    # a strategy-file opponent gets each decision's EV loss reviewed (costs one walk a decision)
    reviewed = opponent not in SIMPLE_POLICIES
    session = Session(bot_file, seed=seed, review=reviewed)
    policy = opponent_policy(opponent, bot_file, np.random.default_rng(seed + 1))
    for played in range(1, hands + 1):
        session.new_hand()
        while session.human_to_act:
            session.act(policy(session))
        if progress is not None and (played % PROGRESS_EVERY == 0 or played == hands):
            progress(played)
    summary = session.summary()
    bot_view = bots_view(summary)
    if reviewed:
        bot_view |= {
            "opponent_ev_lost_net": summary["ev_lost_net"],
            "opponent_ev_lost_mean": summary["ev_lost_mean"],
            "opponent_ev_lost_ci95": summary["ev_lost_ci95"],
        }
    return {"bot": bot_file.source, "opponent": opponent, "seed": seed, **bot_view}


def bots_view(summary: dict) -> dict:
    """A session summary (the human seat's figures) turned round to the bot's side."""
    return {
        "hands": summary["hands"],
        "mean": -summary["mean"],
        "ci95": summary["ci95"],
        "ev_adjusted_mean": -summary["ev_adjusted_mean"],
        "ev_adjusted_ci95": summary["ev_adjusted_ci95"],
        "net": -summary["net"],
        "unit": summary["unit"],
    }

