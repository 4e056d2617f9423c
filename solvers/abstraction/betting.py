"""The betting abstraction of the full game: which bet and raise sizes the blueprint considers.

A spec names, per street, the sizes for each bet or raise in turn, in the spot grammar
(``solvers/games/holdem/bet_sizes.py``): ``33%`` of the pot (a raise: of the pot after the
call), ``2.5x`` the opponent's bet on this street, ``a`` all-in. Levels are separated by ``|``:

    pre=2.5x,a|3x,a|2.2x,a|a; flop=33%,75%,a|75%,a|a; turn=50%,100%,a|a; river=50%,100%,a|a

reads "preflop: open 2.5x or all-in, 3-bet 3x or all-in, 4-bet 2.2x or all-in, then only
all-in; on the flop a first bet of 33%, 75% or all-in, ...". A street allows as many bets and
raises as it lists levels (the raise cap); after that only fold and call. Preflop the big
blind's blind is not a bet: the small blind's open is level 1. Amounts are clamped to the legal
range of the rules (a raise of at least the last bet, all-in at most), and equal amounts merge.
The spec string is recorded in the blueprint's header and rebuilds the same tree.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import InputError
from solvers.games.holdem.bet_sizes import BetContext, Size, parse_sizes, target_amount
from solvers.games.hunl.rules import Legal

STREET_KEYS = ("pre", "flop", "turn", "river")
MAX_LEVELS = 8
MAX_SIZES_PER_LEVEL = 8
MAX_SPEC_CHARS = 2_000

DEFAULT_BETTING = (
    "pre=2.5x,a|3x,a|2.2x,a|a; flop=33%,75%,a|75%,a|a; turn=50%,100%,a|a; river=50%,100%,a|a"
)
"""The 100 bb blueprint's sizes: the issue's preflop ladder and two or three postflop bets."""


class BettingSpecError(InputError):
    """A betting abstraction spec that does not parse; the message says where."""


@dataclass(frozen=True)
class BettingAbstraction:
    """Sizes per street and raise level; ``levels[street][k]`` sizes the (k+1)-th bet."""

    levels: tuple[tuple[tuple[Size, ...], ...], ...]
    spec: str

    def sizes(self, street: int, level: int) -> tuple[Size, ...]:
        per_street = self.levels[street]
        return per_street[level] if level < len(per_street) else ()

    def raise_amounts(self, street: int, level: int, ctx: BetContext, legal: Legal) -> list[int]:
        """Distinct legal raise-to totals for the sizes of this level, ascending."""
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return []
        amounts = set()
        for size in self.sizes(street, level):
            amount = int(target_amount(size, ctx))
            amounts.add(min(max(amount, legal.min_raise_to), legal.max_raise_to))
        return sorted(amounts)


def parse_betting(text: str) -> BettingAbstraction:
    """Parse ``pre=...; flop=...; turn=...; river=...`` (every street must be given)."""
    if not isinstance(text, str) or not text.strip():
        raise BettingSpecError('a betting spec is a string such as "pre=2.5x,a|3x,a; flop=..."')
    if len(text) > MAX_SPEC_CHARS:
        raise BettingSpecError(f"betting spec longer than {MAX_SPEC_CHARS} characters")
    found: dict[str, tuple[tuple[Size, ...], ...]] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, body = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in STREET_KEYS:
            raise BettingSpecError(
                f"betting spec: {part.strip()!r} should be street=sizes with street one of "
                f"{', '.join(STREET_KEYS)}"
            )
        if key in found:
            raise BettingSpecError(f"betting spec: {key} is given twice")
        levels = []
        for index, level_text in enumerate(body.split("|")):
            where = f"betting spec, {key} level {index + 1}"
            sizes = parse_sizes(level_text, raise_sizes=True, where=where)
            if not sizes:
                raise BettingSpecError(f"{where}: no sizes (drop the level to cap raises)")
            if len(sizes) > MAX_SIZES_PER_LEVEL:
                raise BettingSpecError(f"{where}: at most {MAX_SIZES_PER_LEVEL} sizes")
            if any(size.kind == "geo" for size in sizes):
                raise BettingSpecError(f"{where}: the geometric size 'e' is not supported here")
            levels.append(sizes)
        if len(levels) > MAX_LEVELS:
            raise BettingSpecError(f"betting spec: {key} has more than {MAX_LEVELS} levels")
        found[key] = tuple(levels)
    missing = [key for key in STREET_KEYS if key not in found]
    if missing:
        raise BettingSpecError(f"betting spec: no sizes for {', '.join(missing)}")
    canonical = "; ".join(
        f"{key}=" + "|".join(",".join(_size_text(s) for s in level) for level in found[key])
        for key in STREET_KEYS
    )
    return BettingAbstraction(tuple(found[key] for key in STREET_KEYS), canonical)


def _size_text(size: Size) -> str:
    if size.kind == "allin":
        return "a"
    suffix = "%" if size.kind == "pct" else "x"
    return f"{size.value:g}{suffix}"
