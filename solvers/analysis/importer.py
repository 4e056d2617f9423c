"""Hand-history files read through pokerkit's parsers: sites' text, PHH and ACPC logs.

A file is refused whole, with one clear ``InputError``, when it cannot be read as a hand
history (missing, over ``MAX_FILE_BYTES``, not text in its encoding, no site's hands in it);
within a readable file each hand that the game cannot hold is skipped and counted by reason
(``hand_record.SKIP_REASONS``). pokerkit's parsers print a traceback and warn on a hand they
cannot read; both are kept off the terminal and the hand is counted instead.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import re
import tomllib
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from pathlib import Path
from typing import Any

from pokerkit import Automation, NoLimitTexasHoldem
from pokerkit.notation import (
    AbsolutePokerParser,
    ACPCProtocolParser,
    FullTiltPokerParser,
    HandHistory,
    IPokerNetworkParser,
    OngameNetworkParser,
    PartyPokerParser,
    PokerStarsParser,
)
from pokerkit.utilities import parse_value

from solvers.analysis.conversion import convert
from solvers.analysis.hand_record import HandSkipped, ImportedHand, SkipTally
from solvers.errors import InputError
from solvers.user_files import read_user_file

MAX_FILE_BYTES = 32 * 1024 * 1024
"""A year of heads-up play is a few megabytes; anything bigger is refused before reading."""
ACPC_STACK_BB = 200.0
"""ACPC logs do not state the stacks: the ACPC competition's 20,000 chips at blinds 50/100."""

SITES: dict[str, Any] = {
    "PokerStars": PokerStarsParser,
    "Full Tilt": FullTiltPokerParser,
    "iPoker": IPokerNetworkParser,
    "Ongame": OngameNetworkParser,
    "PartyPoker": PartyPokerParser,
    "Absolute": AbsolutePokerParser,
}
"""Sites' text formats pokerkit reads, by the name the report gives them."""
FORMATS = (*SITES, "PHH", "ACPC")
PHH_SUFFIXES = (".phh", ".phhs")


@dataclass
class Imported:
    """The hands of a set of files, the hands left out by reason, and each file's format."""

    hands: list[ImportedHand] = field(default_factory=list)
    skipped: SkipTally = field(default_factory=SkipTally)
    formats: dict[str, str] = field(default_factory=dict)


def decode(raw: bytes, path: str, encoding: str | None = None) -> str:
    """The text of a file: UTF-8 (a byte-order mark allowed), UTF-16 with its mark, or the
    ``encoding`` named; anything else is refused with the way out."""
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise InputError(f"unknown encoding {encoding[:40]!r}") from None
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            raise InputError(f"{path} is not {encoding} text") from None
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise InputError(f"{path} is not UTF-16 text, though it starts like it") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text (byte {exc.start:,}); give its encoding "
                         "with --encoding, e.g. --encoding cp1252") from None  # fmt: skip


def read_hands(
    paths: Sequence[str], encoding: str | None = None, acpc_stack_bb: float = ACPC_STACK_BB
) -> Imported:
    """Every hand of ``paths``, duplicates (the same hand id twice) counted and left out."""
    found = Imported()
    seen: set[str] = set()
    for path in paths:
        text = decode(read_user_file(path, MAX_FILE_BYTES, "hand history"), path, encoding)
        kind = detect_format(text, path)
        found.formats[path] = kind
        for hand in _hands(text, kind, Path(path).name, acpc_stack_bb, found.skipped):
            if hand.key in seen:
                found.skipped.skip("duplicate hand id")
                continue
            seen.add(hand.key)
            found.hands.append(hand)
    return found


def detect_format(text: str, path: str) -> str:
    """The file's format: PHH by its name, an ACPC log by its lines, else the site whose hand
    headers it holds most of; ``InputError`` when none."""
    if Path(path).suffix.lower() in PHH_SUFFIXES:
        return "PHH"
    counts = {site: len(parser.HAND.findall(_padded(text))) for site, parser in SITES.items()}
    best = max(counts, key=counts.__getitem__)
    if counts[best] == 0 and ACPC_LINE.search(text):
        return "ACPC"
    if counts[best] == 0:
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        raise InputError(f"{path}: no hand history of a known format ({', '.join(FORMATS)}); "
                         f"it starts {first[:60]!r}")  # fmt: skip
    return best


def _padded(text: str) -> str:
    """Several sites' hand patterns end at a blank line: the last hand needs one too."""
    return text.replace("\r\n", "\n") + "\n\n\n"


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """pokerkit prints a traceback and warns for a hand it cannot parse: the tally says it."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def _hands(text: str, kind: str, source: str, acpc_stack_bb: float,
           skipped: SkipTally) -> Iterator[ImportedHand]:  # fmt: skip
    if kind == "PHH":
        parsed = _phh(text, source)
    elif kind == "ACPC":
        parsed = _acpc(text, acpc_stack_bb)
    else:
        parsed = _site(text, SITES[kind])
    for read in parsed:
        try:
            yield convert(read(), kind, source)
        except HandSkipped as exc:
            skipped.skip(exc.reason)


def _guarded(parse: Callable[[], Any]) -> Callable[[], Any]:
    """``parse`` with pokerkit's failures (any exception of its checks) as a skipped hand."""

    def read() -> Any:
        with _quiet():
            try:
                return parse()
            except HandSkipped:
                raise
            except Exception as exc:  # noqa: BLE001 - a third party's checks of its input
                raise HandSkipped("unreadable hand", type(exc).__name__) from None

    return read


def _site(text: str, parser_type: Any) -> Iterator[Callable[[], Any]]:
    parser = parser_type()
    for chunk in parser.HAND.findall(_padded(text)):
        if parser.VARIANT.search(chunk) is None:
            yield _refused("not no-limit hold'em")
            continue
        yield _guarded(partial(_parsed, parser, chunk))


def _parsed(parser: Any, text: str) -> Any:
    """The one hand history pokerkit's ``parser`` reads from ``text``."""
    return _only(parser(text, error_status=True))


def _only(histories: Iterator[Any]) -> Any:
    found = list(histories)
    if len(found) != 1:
        raise HandSkipped("unreadable hand")
    return found[0]


def _refused(reason: str) -> Callable[[], Any]:
    def read() -> Any:
        raise HandSkipped(reason)

    return read


PHH_FIELDS = frozenset(f.name for f in fields(HandHistory))


def _phh(text: str, source: str) -> Iterator[Callable[[], Any]]:
    try:
        data = tomllib.loads(text, parse_float=parse_value)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as exc:
        raise InputError(f"{source} is not PHH (TOML): {str(exc)[:80]}") from None
    tables = [data] if "variant" in data else [v for v in data.values() if isinstance(v, dict)]
    if not tables:
        raise InputError(f"{source} holds no PHH hand (no table with a variant)")
    for table in tables:
        known = {k: v for k, v in table.items() if k in PHH_FIELDS}
        yield _guarded(partial(HandHistory, **known))


ACPC_LINE = re.compile("|".join(re.sub(r"\?P<\w+>", "", p.pattern)
                                 for p in ACPCProtocolParser.HAND), re.M)  # fmt: skip


def _acpc(text: str, stack_bb: float) -> Iterator[Callable[[], Any]]:
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    game = NoLimitTexasHoldem(automations, True, 0, (50, 100), 100)
    parser = ACPCProtocolParser(game, int(round(stack_bb * 100)))
    for line in _acpc_lines(text):
        yield _guarded(partial(_parsed, parser, line))


def _acpc_lines(text: str) -> list[str]:
    return [m.group(0) for m in ACPC_LINE.finditer(text)]
