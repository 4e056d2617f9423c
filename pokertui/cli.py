"""The ``pokertui`` command: one entry point, with a subcommand per module in ``commands/``.

Every subcommand that prints figures accepts ``--json``. A user's mistake (``InputError``) is
printed to stderr with exit code 2 and never as a traceback; set ``POKERTUI_DEBUG=1`` to see
tracebacks of unexpected failures.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from pokertui.commands import COMMAND_MODULES
from solvers import __version__
from solvers.errors import InputError

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on bad usage already; keep its message short and on stderr."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"pokertui: error: {message}\n")
        raise SystemExit(EXIT_USER_ERROR)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="pokertui",
        description="Play and study heads-up poker against solved strategies.",
    )
    parser.add_argument("--version", action="version", version=f"pokertui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


EXIT_PIPE_CLOSED = 141
"""What a shell reports for a program stopped by SIGPIPE (128 + 13)."""


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # the reader went away (``pokertui ... | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return EXIT_PIPE_CLOSED


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # usage errors (2) and --help (0) return their code
        return exit_.code if isinstance(exit_.code, int) else EXIT_USER_ERROR
    if getattr(args, "handler", None) is None:
        return run_reported(lambda: _no_command(parser))
    return run_reported(lambda: int(args.handler(args) or 0))


def run_reported(call: Callable[[], int | None]) -> int:
    """Run ``call`` as a command runs: its exit code, or an error reported on stderr as the
    command line reports it (exit 2 for a user's mistake or a damaged file)."""
    try:
        return int(call() or 0)
    except InputError as exc:
        sys.stderr.write(f"pokertui: error: {exc}\n")
        return EXIT_USER_ERROR
    except (RecursionError, ValueError, OverflowError) as exc:
        # A last resort: every loader checks its input, but whatever a user's data still
        # trips is reported as a bad input, never as a traceback.
        if os.environ.get("POKERTUI_DEBUG"):
            raise
        sys.stderr.write(f"pokertui: error: bad input ({type(exc).__name__}: {_short(exc)})\n")
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("pokertui: interrupted\n")
        return 130
    except BrokenPipeError:
        raise
    except Exception as exc:  # noqa: BLE001 - last line of defence for the user's terminal
        if os.environ.get("POKERTUI_DEBUG"):
            raise
        sys.stderr.write(
            f"pokertui: internal error: {type(exc).__name__}: {exc}\n"
            "  (this is a bug; rerun with POKERTUI_DEBUG=1 for a traceback)\n"
        )
        return 1


def _short(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) <= 300 else text[:297] + "..."


def _no_command(parser: argparse.ArgumentParser) -> int:
    """Without a subcommand, open the TUI (it needs a terminal)."""
    from pokertui.commands.play import require_terminal  # noqa: PLC0415

    require_terminal()
    from pokertui.app import run_app  # noqa: PLC0415

    return run_app()


if __name__ == "__main__":
    raise SystemExit(main())
