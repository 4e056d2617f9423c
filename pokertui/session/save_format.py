"""The saved-session document, validated field by field before anything is restored.

A save that loads must be usable: every type, range and cross-reference (node keys, hand
indices, cards, the generator state) is checked here, so a corrupt save is a ``SaveError`` at
load time (and the backup is tried) instead of a crash in the play or review screen later.
Unknown top-level fields are ignored, so newer fields (a later version's additions) do not
break older readers within the same ``format_version``; add a field with a default here to
read it.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from solvers.errors import InputError

MAX_CHIPS = 1e9
MAX_HANDS = 1_000_000
MAX_STEPS = 1_000
MAX_ACTIONS = 64
MAX_TEXT = 10_000
U128 = 2**128

Chips = Annotated[float, Field(ge=-MAX_CHIPS, le=MAX_CHIPS, allow_inf_nan=False)]
Card = Annotated[int, Field(ge=0, le=51)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]


class SaveFormatError(InputError):
    """A save whose content is not a valid session; the message says where."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class StepData(_Strict):
    node_key: Text
    seat: Literal[0, 1] | None
    action: Text
    amount: Chips = 0.0
    ev_loss: Chips | None = None
    action_evs: list[Chips] | None = Field(None, max_length=MAX_ACTIONS)
    equilibrium: list[Annotated[float, Field(ge=0, le=1)]] | None = Field(
        None, max_length=MAX_ACTIONS
    )
    off_path: bool = False
    """The strategy file never reaches this node with the human's hand."""
    shown: Text = ""
    """The action as played when it differs from the tree's label (an off-tree amount)."""
    mapped: list[tuple[Text, Annotated[float, Field(ge=0, le=1)]]] | None = Field(
        None, max_length=MAX_ACTIONS
    )
    """For an off-tree bet: each tree action of the translation and its probability."""


class DealData(_Strict):
    hands: tuple[Annotated[int, Field(ge=0, le=10**6)], Annotated[int, Field(ge=0, le=10**6)]]
    hole_cards: tuple[tuple[Card, Card], tuple[Card, Card]] | None = None
    board: list[Card] = Field(default_factory=list, max_length=5)

    @field_validator("board")
    @classmethod
    def _distinct(cls, board: list[int]) -> list[int]:
        if len(set(board)) != len(board):
            raise ValueError("board cards repeat")
        return board


class HandData(_Strict):
    number: int = Field(ge=1, le=10**9)
    human_seat: Literal[0, 1]
    deal: DealData
    steps: list[StepData] = Field(default_factory=list, max_length=MAX_STEPS)
    result: Chips
    ev_adjusted: Chips
    showdown: bool = False


class RngInner(_Strict):
    state: int = Field(ge=0, lt=U128)
    inc: int = Field(ge=0, lt=U128)


class RngState(_Strict):
    bit_generator: Literal["PCG64"]
    state: RngInner
    has_uint32: Literal[0, 1]
    uinteger: int = Field(ge=0, lt=2**32)


class SaveDocument(BaseModel):
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    format_version: int = Field(ge=1)
    kind: Literal["pokertui-session"]
    saved_at: Text = ""
    strategy_file: Text = Field(min_length=1)
    game: Text
    seat_mode: Literal[0, 1] | None
    seed: int = Field(ge=0, lt=2**64)
    bot_mode: Literal["mixed", "purified", "thresholded"]
    threshold: float = Field(ge=0, le=1)
    rng_state: RngState
    hands: list[HandData] = Field(default_factory=list, max_length=MAX_HANDS)


def parse_document(data: Any) -> SaveDocument:
    """The typed document, or ``SaveFormatError`` naming the first few bad fields."""
    try:
        return SaveDocument.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err["loc"]) or "document"
            problems.append(f"{where}: {err['msg']}")
        raise SaveFormatError("; ".join(problems)) from None


def check_against_game(document: SaveDocument, game, holdem_cards: bool) -> None:
    """Cross-checks with the strategy's game: hands, node keys, action lists and cards."""
    for hand in document.hands:
        where = f"hand {hand.number}"
        deal = hand.deal
        for seat in (0, 1):
            if deal.hands[seat] >= game.n_hands[seat]:
                raise SaveFormatError(f"{where}: seat {seat + 1} holds hand {deal.hands[seat]}, "
                                      f"but the game has {game.n_hands[seat]}")  # fmt: skip
        if holdem_cards != (deal.hole_cards is not None):
            raise SaveFormatError(f"{where}: hole cards {'missing' if holdem_cards else 'given'}")
        if deal.hole_cards is not None:
            cards = [*deal.hole_cards[0], *deal.hole_cards[1], *deal.board]
            if len(set(cards)) != len(cards):
                raise SaveFormatError(f"{where}: a card is dealt twice")
        for step in hand.steps:
            try:
                node = game.node_by_key(step.node_key)
            except InputError:
                raise SaveFormatError(
                    f"{where}: no node {step.node_key[:40]!r} in the game"
                ) from None
            for name in ("action_evs", "equilibrium"):
                values = getattr(step, name)
                if values is not None and len(values) != len(node.actions):
                    raise SaveFormatError(
                        f"{where}: {name} has {len(values)} entries for {len(node.actions)} actions"
                    )
            if step.action_evs is not None and not all(map(math.isfinite, step.action_evs)):
                raise SaveFormatError(f"{where}: action EVs are not finite")
