"""Full-game matches with no UI: ``pokertui play --game 'hunl(...)' --bot B --opponent O``.

The opponent takes the human's seat of a ``HunlSession`` (seats alternate, so each plays the
button half of the time) and acts through the same ``act`` a person uses, so a headless match
exercises exactly the rules and scoring of the app. The score is the bot's.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pokertui.session.headless import bots_view
from pokertui.session.hunl_session import HunlSession
from solvers.cards.deck import COMBO_INDEX
from solvers.errors import InputError
from solvers.games.holdem.memory import give_back
from solvers.games.hunl.agent import Agent, forget_deal
from solvers.games.hunl.rules import HunlConfig


def play_hunl_match(
    config: HunlConfig,
    bot: Agent,
    opponent: Agent,
    hands: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    names: tuple[str, str] = ("bot", "opponent"),
) -> tuple[dict, HunlSession]:
    """Play ``hands`` hands; the report (the bot's score in bb/100) and the session played.
    ``progress`` hears the number of hands played before the first and after each (a
    re-solving bot plays one in seconds)."""
    if hands < 1:
        raise InputError("play at least one hand")
    session = HunlSession(config, bot, bot_name=names[0], seed=seed, review=False)
    session.freezes = True
    rng = np.random.default_rng([seed, 1])
    if progress is not None:
        progress(0)  # a re-solving bot's first hand takes seconds: show the bar before it
    for played in range(1, hands + 1):
        session.new_hand()
        while session.human_to_act:
            hole = session.hand.hole[session.human_seat]
            board = np.array(session.board, dtype=np.intp)
            session.act(opponent.act(session.state, board, int(COMBO_INDEX[hole]), rng))
        if forget_deal(opponent):  # the session forgets the bot's solves; this, the opponent's
            give_back()
        if progress is not None:
            progress(played)
    summary = session.summary()
    report = {
        "game": None,
        "bot": names[0],
        "opponent": names[1],
        "seed": seed,
        **bots_view(summary),
    }
    return report, session
