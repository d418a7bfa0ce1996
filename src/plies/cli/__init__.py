"""The ``plies`` command line.

Each subcommand lives in its own module under :mod:`plies.cli` and exposes
``register(subparsers)``, which adds its parser and sets ``handler`` to a
function taking the parsed arguments and returning an exit status. The modules
are listed in :data:`COMMAND_MODULES`; a module whose optional dependencies are
missing is skipped rather than breaking the whole CLI.

Any :class:`plies.errors.PliesError` escaping a handler becomes one line on
stderr (``error: ...``) and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from plies import __version__
from plies.errors import PliesError

__all__ = ["COMMAND_MODULES", "main"]

#: Modules that register subcommands, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "plies.cli._tree",
    "plies.cli._demo",
    "plies.cli._games",
    "plies.cli._analyze",
    "plies.cli._solve",
    "plies.cli._bench",
)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit with status 1 in one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(1, f"error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every available subcommand."""
    parser = _Parser(
        prog="plies",
        description="Adversarial game-tree search: minimax, alpha-beta and their family.",
        epilog="Run 'plies COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"plies {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra is not installed: leave its command out
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    parser = build_parser()
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            position = getattr(args, "position", None)
            if isinstance(position, list) and not any(e.startswith("-") for e in extras):
                # A POSITION written after options ('plies solve connect4 --weak 4453'):
                # argparse gives an optional-length positional out before options.
                position.extend(extras)
            else:
                parser.error(f"unrecognized arguments: {' '.join(extras)}")
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 1
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 1
    try:
        return handler(args)
    except PliesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into 'head' and closed early: not an error
        sys.stderr.close()
        return 0
