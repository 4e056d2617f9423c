"""The clairvoyance river game (Chen & Ankenman; Janda; seeds 002 and 004).

Pot ``P`` is already in the middle. The bettor holds the nuts with probability ``nuts``, else
air; the caller holds a bluff-catcher that beats air only. The bettor checks (showdown) or bets
one of the allowed sizes; the caller calls or folds.

Each player is modelled as having put ``P/2`` in, so payoffs are zero-sum; the bettor's share of
the pot, the usual figure in the literature, is ``value + P/2``. At equilibrium with a bet B the
bettor bluffs ``B/(P+B)`` as often as they bet the nuts, and the caller calls ``P/(P+B)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import Field, field_validator

from solvers.games.base import MAX_CHIPS, MIN_CHIPS, GameParams, NodeKind, TreeBuilder, TreeGame
from solvers.games.spec import register_game


class RiverToyParams(GameParams):
    chip_fields = ("pot", "bets")
    pot: float = Field(4.0, ge=MIN_CHIPS, le=MAX_CHIPS)
    bets: list[float] = Field(default_factory=lambda: [1.0], min_length=1, max_length=32)
    nuts: float = Field(0.2, gt=0, lt=1, description="probability the bettor has the nuts")

    @field_validator("bets", mode="before")
    @classmethod
    def _one_size_is_a_list(cls, value):
        return [value] if isinstance(value, int | float) else value

    @field_validator("bets")
    @classmethod
    def _positive_distinct(cls, value: list[float]) -> list[float]:
        if any(not MIN_CHIPS <= size <= MAX_CHIPS for size in value):
            raise ValueError(f"bet sizes must be positive, between {MIN_CHIPS:g} and {MAX_CHIPS:g}")
        if len(set(value)) != len(value):
            raise ValueError("bet sizes must be distinct")
        return value


@dataclass(frozen=True)
class RiverToyEquilibrium:
    bluff_fraction: float
    """Share of all the bettor's hands that are bluffs."""
    call_probability: float
    bettor_share: float
    """The bettor's expected share of the pot (net value + P/2)."""


def _size_token(size: float) -> str:
    return f"b{int(size)}" if float(size).is_integer() else f"b{size:g}"


@register_game
class RiverToyGame(TreeGame):
    name = "river_toy"
    params_model = RiverToyParams
    params: RiverToyParams
    description = "clairvoyance river game: nuts-or-air bettor vs a bluff-catcher"

    @classmethod
    def from_params(cls, params: RiverToyParams) -> RiverToyGame:
        half = params.pot / 2
        tree = TreeBuilder()
        sizes = tuple(params.bets)
        root = tree.add(
            -1,
            "",
            NodeKind.DECISION,
            contributions=(half, half),
            player=0,
            actions=("check", *(f"bet {s:g}" for s in sizes)),
            tokens=("c", *(_size_token(s) for s in sizes)),
            amounts=(0.0, *sizes),
        )
        tree.add(root, "c", NodeKind.TERMINAL, contributions=(half, half), terminal="showdown")
        for size in sizes:
            facing = tree.add(
                root,
                _size_token(size),
                NodeKind.DECISION,
                contributions=(half + size, half),
                player=1,
                actions=("fold", "call"),
                tokens=("f", "c"),
                amounts=(0.0, size),
            )
            tree.add(
                facing,
                "f",
                NodeKind.TERMINAL,
                contributions=(half + size, half),
                terminal="fold",
                folder=1,
            )
            tree.add(
                facing,
                "c",
                NodeKind.TERMINAL,
                contributions=(half + size, half + size),
                terminal="showdown",
            )
        prior = np.array([[params.nuts], [1.0 - params.nuts]])
        labels = (("nuts", "air"), ("bluff-catcher",))
        return cls(params, labels, prior, tree.finish(), big_blind=params.pot)

    def showdown_sign(self, node):
        return np.array([[1], [-1]])

    def bettor_share(self, value: float) -> float:
        """The bettor's share of the pot from player 0's net value."""
        return value + self.params.pot / 2


def river_toy_equilibrium(pot: float, bet: float, nuts: float) -> RiverToyEquilibrium:
    """The closed form for one bet size (valid while enough air exists to bluff)."""
    bluff = nuts * bet / (pot + bet)
    call = pot / (pot + bet)
    return RiverToyEquilibrium(bluff, call, nuts * (pot + call * bet))
