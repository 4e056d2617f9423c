"""The bet-size grammar (PioSolver's conventions) and the chip amounts it gives at a node.

A size list is comma separated: ``33%`` (as a bet, a third of the pot; as a raise, the call plus
a third of the pot after the call), ``2.5x`` (raises only: 2.5 times the opponent's bet or raise
on this street), ``e`` (the geometric size that gets the stacks in by the river with equal pot
fractions), ``a`` (all-in). Amounts round to whole chips; a size over the stack is all-in and
duplicates collapse.

``parse_sizes`` is the one parser: a spot parses each list once into ``Size`` tuples, grouped
per street in a ``StreetSizes``, and ``format_sizes`` spells them back canonically (``33%, a``),
which is how spec strings and strategy files name them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from solvers.errors import InputError


class SizeError(InputError):
    """A size list that does not parse; the message gives the token and its position."""


@dataclass(frozen=True)
class Size:
    kind: str
    """``pct``, ``mult``, ``geo`` or ``allin``."""
    value: float = 0.0

    def text(self) -> str:
        """The canonical token, which ``parse_sizes`` reads back to this size exactly."""
        if self.kind == "allin":
            return "a"
        if self.kind == "geo":
            return "e"
        return _number_text(self.value) + ("%" if self.kind == "pct" else "x")


def _number_text(value: float) -> str:
    """Positional digits that parse back to the same float (``33``, ``12.5``, ``0.00001``)."""
    if value.is_integer():
        return str(int(value))
    return format(Decimal(repr(value)), "f")  # repr is the shortest exact spelling


def format_sizes(sizes: tuple[Size, ...]) -> str:
    """``"33%, 75%, a"``: the canonical spelling of a size list (``""`` for none)."""
    return ", ".join(size.text() for size in sizes)


_PCT = re.compile(r"(\d+(?:\.\d+)?|\.\d+)%")
_MULT = re.compile(r"(\d+(?:\.\d+)?|\.\d+)x")


def parse_sizes(text: str, *, raise_sizes: bool, where: str = "sizes") -> tuple[Size, ...]:
    """Parse ``"33%, 75%, a"``; ``Nx`` is only allowed in raise lists."""
    if not isinstance(text, str):
        raise SizeError(f'{where}: sizes are a string such as "33%, 75%, a"')
    sizes: list[Size] = []
    position = 0
    for chunk in text.split(","):
        token = chunk.strip().lower()
        at = position + len(chunk) - len(chunk.lstrip())
        position += len(chunk) + 1
        if not token:
            if text.strip():
                raise SizeError(f"{where}: empty size at position {at} of {text!r}")
            continue
        size = _parse_token(token)
        if size is None:
            raise SizeError(
                f"{where}: bad size {token!r} at position {at} of {text!r} "
                "(use N% of the pot, Nx for raises, e or a)"
            )
        if size.kind == "mult" and not raise_sizes:
            raise SizeError(f"{where}: {token!r} at position {at}: Nx sizes are for raises only")
        if size.kind in ("pct", "mult") and size.value <= 0:
            raise SizeError(f"{where}: size {token!r} at position {at} must be positive")
        if size.kind == "mult" and size.value <= 1:
            raise SizeError(f"{where}: raise {token!r} at position {at} must be more than 1x")
        sizes.append(size)
    return tuple(sizes)


def _parse_token(token: str) -> Size | None:
    if token in ("a", "allin", "all-in"):
        return Size("allin")
    if token == "e":
        return Size("geo")
    if match := _PCT.fullmatch(token):
        return Size("pct", float(match.group(1)))
    if match := _MULT.fullmatch(token):
        return Size("mult", float(match.group(1)))
    return None


SIZE_KEYS = ("oop_bet", "ip_bet", "oop_raise", "ip_raise", "donk")
STREET_KEYS = (*SIZE_KEYS, "raise_cap")
"""A street's keys, as spot files and spec strings spell them (``[river] oop_bet = ...``)."""


@dataclass(frozen=True)
class StreetSizes:
    """One street's sizes per player, parsed: what the tree builder reads at each node."""

    oop_bet: tuple[Size, ...] = ()
    ip_bet: tuple[Size, ...] = ()
    oop_raise: tuple[Size, ...] = ()
    ip_raise: tuple[Size, ...] = ()
    donk: tuple[Size, ...] | None = None
    """OOP's lead after calling the previous street; ``None`` means the same as ``oop_bet``."""
    raise_cap: int | None = None
    """Most raises per street; ``None`` for no cap."""

    @classmethod
    def parse(cls, values: Mapping[str, Any], where: str) -> StreetSizes:
        """From spelled values keyed as ``STREET_KEYS`` (absent keys take the defaults);
        ``SizeError`` names ``where`` (``river``) and the key."""
        fields: dict[str, Any] = {}
        for key in SIZE_KEYS:
            value = values.get(key)
            if value is not None or key != "donk":
                raise_sizes = key.endswith("raise")
                fields[key] = parse_sizes(
                    "" if value is None else value, raise_sizes=raise_sizes, where=f"{where}.{key}"
                )
        cap = values.get("raise_cap")
        if cap is not None:
            whole = isinstance(cap, int | float) and not isinstance(cap, bool)
            if not whole or not math.isfinite(cap) or cap != int(cap) or cap < 0:
                raise SizeError(f"{where}.raise_cap: a whole number of raises (0 or more), "
                                f"not {cap!r}")  # fmt: skip
            fields["raise_cap"] = int(cap)
        return cls(**fields)

    def texts(self) -> dict[str, str | int | None]:
        """Every key spelled canonically; ``parse`` reads it back to an equal ``StreetSizes``."""
        texts: dict[str, str | int | None] = {
            key: format_sizes(getattr(self, key)) for key in SIZE_KEYS if key != "donk"
        }
        texts["donk"] = None if self.donk is None else format_sizes(self.donk)
        texts["raise_cap"] = self.raise_cap
        return {key: texts[key] for key in STREET_KEYS}

    def bets(self, player: int) -> tuple[Size, ...]:
        return self.oop_bet if player == 0 else self.ip_bet

    def raises(self, player: int) -> tuple[Size, ...]:
        return self.oop_raise if player == 0 else self.ip_raise

    @property
    def lead(self) -> tuple[Size, ...]:
        """OOP's sizes when it leads after calling the street before."""
        return self.oop_bet if self.donk is None else self.donk


def geometric_ratio(behind: float, pot: float, streets_left: int) -> float:
    """Pot fraction per street that puts ``behind`` in over ``streets_left`` equal bets."""
    spr = behind / pot
    return ((2.0 * spr + 1.0) ** (1.0 / streets_left) - 1.0) / 2.0


@dataclass(frozen=True)
class BetContext:
    """What a size needs: contributions so far and what the player can still put in."""

    own: float
    """Acting player's total contribution."""
    opp: float
    """Opponent's total contribution (``>= own``; equal when not facing a bet)."""
    street_start: float
    """Each player's contribution when the street began."""
    cap: float
    """The most either player can contribute (half the starting pot plus the stack)."""
    last_increment: float
    """Size of the last bet or raise on this street (0 if none): the minimum raise."""
    streets_left: int


def target_amount(size: Size, ctx: BetContext) -> float:
    """The acting player's new total contribution for ``size`` (before all-in rules)."""
    pot = ctx.own + ctx.opp
    if size.kind == "allin":
        return ctx.cap
    facing = ctx.opp > ctx.own
    pot_after_call = 2 * ctx.opp
    if size.kind == "pct":
        base = pot_after_call if facing else pot
        extra = size.value / 100.0 * base
    elif size.kind == "geo":
        base = pot_after_call if facing else pot
        extra = geometric_ratio(ctx.cap - ctx.opp, base, ctx.streets_left) * base
    else:  # mult: N times the opponent's bet on this street
        extra = (size.value - 1.0) * (ctx.opp - ctx.street_start)
    amount = ctx.opp + max(int(math.floor(extra + 0.5)), 1)
    if facing:
        amount = max(amount, ctx.opp + ctx.last_increment)
    return min(amount, ctx.cap)


def action_amounts(
    sizes: tuple[Size, ...],
    ctx: BetContext,
    *,
    add_allin: float,
    force_allin: float,
    merging: float,
) -> list[float]:
    """Distinct new total contributions for the bets or raises at a node, ascending."""
    if ctx.opp >= ctx.cap:
        return []
    amounts: set[float] = set()
    for size in sizes:
        amount = target_amount(size, ctx)
        behind_after_call = ctx.cap - amount
        if behind_after_call <= force_allin * (2 * amount):
            amount = ctx.cap
        amounts.add(amount)
    pot = ctx.own + ctx.opp
    if add_allin > 0 and ctx.cap - ctx.own <= add_allin * pot:
        amounts.add(ctx.cap)
    ordered = sorted(amounts, reverse=True)
    if merging > 0:
        ordered = _merge(ordered, ctx, merging)
    return sorted(ordered)


def _merge(descending: list[float], ctx: BetContext, threshold: float) -> list[float]:
    """Drop a smaller size Y after a kept X when ``(100+X)/(100+Y) < 1 + threshold`` (% of pot);
    all-in is always kept."""
    pot = ctx.own + ctx.opp
    kept: list[float] = []
    last_pct: float | None = None
    for amount in descending:
        pct = 100.0 * (amount - ctx.own) / pot
        if amount == ctx.cap:
            kept.append(amount)
            continue
        if last_pct is not None and (100.0 + last_pct) / (100.0 + pct) < 1.0 + threshold:
            continue
        kept.append(amount)
        last_pct = pct
    return kept
