"""Subcommands of the ``pokertui`` CLI: each module has ``register(subparsers)``.

A module's ``register`` adds its parser and sets ``handler=`` to a function taking the parsed
args and returning an exit code. Add a new command by adding its module to the list below.
"""

from pokertui.commands import (
    add_digest,
    analyze,
    batch,
    bots,
    equity,
    games,
    lbr,
    match,
    play,
    pool,
    solve,
    strategy,
    translate,
)

COMMAND_MODULES = [equity, games, play, solve, strategy, bots, lbr, match, pool, translate, batch,
                   add_digest, analyze]  # fmt: skip
