"""Heads-up no-limit hold'em rules, preflop to river, as the ACPC competition plays them.

Chips follow the ACPC game: blinds 50/100 and stacks of ``stack_bb * 100`` chips, reset every
hand (so both stacks are equal at the start of every hand). Seat 0 is the small blind and the
button: it acts first preflop and last on the flop, turn and river. Seat 1 is the big blind.

A raise names the total its player will have put in over the whole hand ("raise to"), as in
ACPC betting strings: ``r300`` makes the raiser's total 300. No-limit rules: a raise adds at
least the previous bet or raise of this street (at least a big blind), all-in is always allowed
(even below a full raise), and any whole-chip amount in between is legal. A street ends when both
players have acted and their totals are equal; once a player is all-in and called, the rest of
the board is dealt with no more decisions.

The state holds only public betting; cards are dealt by whoever owns the hand (a session, a
solver, LBR), which asks ``board_cards_needed`` how many board cards the state calls for.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from solvers.errors import InputError

SMALL_BLIND_SEAT = 0
"""The small blind, who is also the button."""
BIG_BLIND_SEAT = 1
STREET_NAMES = ("preflop", "flop", "turn", "river", "showdown")
SHOWDOWN = 4
"""``street`` of a hand whose betting is over without a fold."""
BOARD_CARDS = (0, 3, 4, 5, 5)
"""Board cards dealt by the start of each street (the showdown has all five)."""
MIN_STACK_BB = 10.0
MAX_STACK_BB = 250.0

FOLD, CALL, RAISE = "f", "c", "r"


class IllegalAction(InputError):
    """An action that the rules do not allow in this state; the message says what is legal."""


@dataclass(frozen=True)
class HunlConfig:
    """The game: stack depth in big blinds and the blinds in chips (ACPC: 50/100)."""

    stack_bb: float = 100.0
    small_blind: int = 50
    big_blind: int = 100

    def __post_init__(self) -> None:
        depth = self.stack_bb
        if not isinstance(depth, int | float) or not MIN_STACK_BB <= depth <= MAX_STACK_BB:
            raise InputError(
                f"stack depth must be between {MIN_STACK_BB:g} and {MAX_STACK_BB:g} big blinds, "
                f"not {depth!r}"
            )
        for name in ("small_blind", "big_blind"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**6:
                raise InputError(f"{name} must be a whole number of chips from 1 to 10^6")
        if self.small_blind > self.big_blind:
            raise InputError("the small blind cannot be larger than the big blind")

    @property
    def stack(self) -> int:
        """Each player's stack in chips at the start of every hand."""
        return int(round(self.stack_bb * self.big_blind))


@dataclass(frozen=True)
class Action:
    """``f`` fold, ``c`` check or call, ``r`` raise (or bet) to ``to`` chips in total."""

    kind: str
    to: int = 0

    def __str__(self) -> str:
        return f"r{self.to}" if self.kind == RAISE else self.kind


@dataclass(frozen=True)
class Legal:
    """What the player to act may do."""

    can_fold: bool
    """Only when facing a bet: folding when a check is free is not offered."""
    call_amount: int
    """Chips needed to call; 0 means the call is a check."""
    min_raise_to: int | None
    """Smallest legal raise-to total (all-in when the stack is short of a full raise), or None
    when no raise is possible (the opponent is all-in, or calling puts us all-in)."""
    max_raise_to: int | None
    """All-in: the whole stack."""


@dataclass(frozen=True)
class HunlState:
    """The public state of one hand: whose turn it is and what each player has put in."""

    config: HunlConfig
    street: int
    committed: tuple[int, int]
    """Chips each seat has put in over the whole hand (blinds included)."""
    to_act: int
    """Seat to act, or -1 when the hand's betting is over."""
    last_raise: int
    """The size of the last bet or raise on this street: the smallest increment of a raise."""
    street_actions: int
    """Actions taken on this street so far."""
    folded: int = -1
    """The seat that folded, or -1."""
    history: tuple[str, ...] = ("",)
    """ACPC betting per street so far, e.g. ``("r250c", "cr500c", "")``."""

    @classmethod
    def initial(cls, config: HunlConfig | None = None) -> HunlState:
        config = config or HunlConfig()
        blinds = (config.small_blind, config.big_blind)
        return cls(config, 0, blinds, SMALL_BLIND_SEAT, config.big_blind, 0)

    # --- what the state is -------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.to_act < 0

    @property
    def pot(self) -> int:
        return self.committed[0] + self.committed[1]

    def stack_left(self, seat: int) -> int:
        return self.config.stack - self.committed[seat]

    @property
    def board_cards_needed(self) -> int:
        """Board cards the state calls for (3 on the flop, 5 at a showdown)."""
        return BOARD_CARDS[self.street]

    @property
    def all_in(self) -> bool:
        return max(self.committed) >= self.config.stack

    def to_call(self, seat: int | None = None) -> int:
        seat = self.to_act if seat is None else seat
        return max(self.committed[1 - seat] - self.committed[seat], 0)

    def legal(self) -> Legal:
        if self.is_over:
            raise IllegalAction("the hand is over: nobody is to act")
        seat = self.to_act
        call = self.to_call(seat)
        stack = self.config.stack
        facing_total = self.committed[1 - seat]
        if facing_total >= stack:
            return Legal(call > 0, call, None, None)
        full_raise = facing_total + max(self.last_raise, self.config.big_blind)
        return Legal(call > 0, call, min(full_raise, stack), stack)

    # --- moving on -----------------------------------------------------------------------
    def apply(self, action: Action) -> HunlState:
        """The state after ``action``; an illegal one raises ``IllegalAction`` saying why."""
        legal = self.legal()
        seat = self.to_act
        if action.kind == FOLD:
            if not legal.can_fold:
                raise IllegalAction("folding is not offered when checking is free")
            return replace(self, to_act=-1, folded=seat, history=self._logged("f"))
        if action.kind == CALL:
            committed = list(self.committed)
            committed[seat] += legal.call_amount
            moved = replace(
                self,
                committed=(committed[0], committed[1]),
                street_actions=self.street_actions + 1,
                history=self._logged("c"),
            )
            if moved.street_actions >= 2 and committed[0] == committed[1]:
                return moved._next_street()
            return replace(moved, to_act=1 - seat)
        if action.kind == RAISE:
            if legal.min_raise_to is None or legal.max_raise_to is None:
                raise IllegalAction("no raise is possible here: the opponent is all-in")
            to = action.to
            if isinstance(to, bool) or not isinstance(to, int):
                raise IllegalAction(f"a raise is a whole number of chips, not {to!r}")
            if not legal.min_raise_to <= to <= legal.max_raise_to:
                raise IllegalAction(
                    f"a raise must be to between {legal.min_raise_to} and "
                    f"{legal.max_raise_to} chips, not {to}"
                )
            committed = list(self.committed)
            committed[seat] = to
            return replace(
                self,
                committed=(committed[0], committed[1]),
                to_act=1 - seat,
                last_raise=max(to - self.committed[1 - seat], self.last_raise),
                street_actions=self.street_actions + 1,
                history=self._logged(f"r{to}"),
            )
        raise IllegalAction(f"unknown action {action.kind!r} (use f, c or r<total>)")

    def _logged(self, token: str) -> tuple[str, ...]:
        return (*self.history[:-1], self.history[-1] + token)

    def _next_street(self) -> HunlState:
        if self.all_in or self.street == 3:
            return replace(self, street=SHOWDOWN, to_act=-1)
        return replace(
            self,
            street=self.street + 1,
            to_act=BIG_BLIND_SEAT,
            last_raise=self.config.big_blind,
            street_actions=0,
            history=(*self.history, ""),
        )

    # --- results -------------------------------------------------------------------------
    def payoff(self, showdown_winner: int | None) -> tuple[int, int]:
        """Net chips of each seat at the end of the hand. ``showdown_winner`` is the seat with
        the better hand, or None for a split; it is ignored when somebody folded."""
        if not self.is_over:
            raise IllegalAction("the hand is not over")
        if self.folded >= 0:
            loser = self.folded
        elif showdown_winner is None:
            return (0, 0)
        else:
            loser = 1 - showdown_winner
        won = self.committed[loser]
        return (won, -won) if loser == 1 else (-won, won)

    @property
    def betting(self) -> str:
        """The ACPC betting string, streets separated by ``/``."""
        return "/".join(self.history)


def parse_action(text: str) -> Action:
    """``f``, ``c`` (or ``k``, ``x`` for a check) or ``r<total>``, as typed or in ACPC strings."""
    token = text.strip().lower()
    if token in ("f", "fold"):
        return Action(FOLD)
    if token in ("c", "call", "k", "x", "check"):
        return Action(CALL)
    if token.startswith("r") and token[1:].isdigit() and len(token) <= 12:
        return Action(RAISE, int(token[1:]))
    raise IllegalAction(f"cannot read the action {text!r} (use f, c or r<total chips>)")


def replay(betting: str, config: HunlConfig | None = None) -> HunlState:
    """The state after an ACPC betting string such as ``r250c/cr500c/c``."""
    if len(betting) > 10_000:
        raise IllegalAction("betting string too long")
    state = HunlState.initial(config)
    for street_index, street in enumerate(betting.split("/")):
        if street_index != state.street:
            raise IllegalAction(f"street {street_index + 1} of {betting!r} is not reached yet")
        for token in betting_tokens(street):
            state = state.apply(parse_action(token))
    return state


def betting_tokens(street: str) -> Iterator[str]:
    """The actions of one street's ACPC betting: ``"cr500c"`` gives ``c``, ``r500``, ``c``."""
    position = 0
    while position < len(street):
        end = position + 1
        if street[position] == "r":
            while end < len(street) and street[end].isdigit():
                end += 1
        yield street[position:end]
        position = end
