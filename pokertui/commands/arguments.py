"""argparse types that refuse what a number option must never be: NaN, infinity, out of range.

argparse turns the ``ArgumentTypeError`` these raise into a usage message and exit code 2.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

MAX_SEED = 2**63 - 1


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An int in ``[low, high]``."""

    def parse(text: str) -> int:
        raw = text.strip()
        if len(raw) > 30 or not raw.lstrip("+-").isdigit():
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text[:40]!r}")
        value = int(raw)
        if not low <= value <= high:
            if low == 1:
                raise argparse.ArgumentTypeError(
                    f"expected a positive whole number, at most {high:,}"
                )
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def bounded_float(low: float, high: float, open_low: bool = False) -> Callable[[str], float]:
    """A finite float in ``[low, high]`` (``(low, high]`` with ``open_low``)."""

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, not {text[:40]!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, not {text[:40]!r}")
        if value < low or (open_low and value == low) or value > high:
            if open_low and low == 0:
                raise argparse.ArgumentTypeError(f"expected a positive number, at most {high:g}")
            raise argparse.ArgumentTypeError(f"expected a number from {low:g} to {high:g}")
        return value

    parse.__name__ = "number"
    return parse


seed = bounded_int(0, MAX_SEED)
"""A random seed: what ``numpy.random.default_rng`` accepts, as one non-negative 64-bit int."""


def add_chunk_pool_arguments(
    parser: argparse.ArgumentParser,
    workers_type=int,
    workers_help: str = "processes (default: one per core)",
) -> None:
    """``--workers``, ``--chunk-deals``, ``--backend`` and ``--address`` of the commands that
    play seeded chunks of duplicate deals (full-game ``lbr``, ``match``)."""
    parser.add_argument("--workers", type=workers_type, help=workers_help)
    parser.add_argument(
        "--chunk-deals",
        type=bounded_int(1, 100_000),
        help="full game: deals per chunk of the pool (default 500, 5 with a re-solving bot); "
        "with the seed it fixes the cards, so equal values compare bots on the same deals",
    )
    parser.add_argument(
        "--backend", default="local", help="local (process pool, default) or ray: same figures"
    )
    parser.add_argument("--address", help="Ray cluster to join, HOST:PORT (default: start one)")
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="full game: keep each finished chunk in FILE; the same command again resumes "
        "there, and more --hands extend the run without playing its deals twice",
    )
