"""A flop library: one job per flop of a subset, the spot's board replaced by each flop."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solvers.batch.jobs import Job, StopRule, varied
from solvers.cards.deck import card_str
from solvers.cards.flops import Flop
from solvers.errors import InputError
from solvers.games.holdem.spot import board_cards, load_spot_params


def flop_board(flop: Flop) -> str:
    return " ".join(card_str(c) for c in flop.cards)


def flop_jobs(
    spot: str | Path,
    flops: Sequence[Flop],
    algo: str,
    stop: StopRule,
    options: dict[str, Any] | None = None,
) -> list[Job]:
    """A job per flop; each is named by its flop and carries its weight and texture."""
    params = load_spot_params(spot)
    if len(board_cards(params)) != 3:
        raise InputError(f"spot {spot}: a flop batch needs a flop spot (a board of three cards), "
                         f"not {params.board!r}")  # fmt: skip
    jobs = []
    for flop in flops:
        try:
            game = varied("nlhe", params, "board", flop_board(flop))
        except InputError as exc:
            raise InputError(f"spot {spot} on flop {flop.name}: {exc}") from None
        meta = {
            "flop": flop.name,
            "weight": flop.weight,
            "texture": flop.texture,
            "high_card": flop.high_card,
            "connected": flop.connected,
        }
        jobs.append(Job(flop.name, game, algo, stop, dict(options or {}), meta))
    return jobs
