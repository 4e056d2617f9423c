"""Small wording helpers shared by the app and the command line (no textual, no rich)."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """``1 hand``, ``2 hands``, ``1,200 hands``: a count with its noun, singular for one."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
