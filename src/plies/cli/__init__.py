"""The ``plies`` command line.

Each subcommand lives in its own module under :mod:`plies.cli` and exposes
``register(subparsers)``, which adds its parser and sets ``handler`` to a
function taking the parsed arguments and returning an exit status. :data:`COMMANDS`
names every command, its module and its one-line help, so ``plies --help`` and
``plies --version`` import no command module, and a command imports only its own
(start-up time is what a user waits for on every call).

Arguments are read in the way people type them on a shell:

* options and positionals may come in any order (``plies solve connect4 --weak 4453``);
* an option's value may start with ``-`` (``--leaves -1,2,3,4``, ``--window -3,3``);
* a positional may start with ``-`` (an Othello board ``---...X``), with or without
  ``--`` before it;

Any :class:`plies.errors.PliesError` escaping a handler becomes one line on
stderr (``error: ...``) and exit status 1, never a traceback; Ctrl-C exits 130.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from plies import __version__
from plies.errors import PliesError

__all__ = [
    "COMMANDS",
    "COMMAND_MODULES",
    "PROCESS_ENVIRONMENT",
    "build_parser",
    "command_parser",
    "main",
    "normalize",
]

#: Every command: name -> (module that registers it, one-line help), in the order
#: ``plies --help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "tree": ("plies.cli._tree", "search an explicit game tree and show every step"),
    "demo": ("plies.cli._demo", "solve AIMA Figure 5.2 with alpha-beta and show every step"),
    "games": ("plies.cli._games", "list the built-in games and their notation"),
    "play": ("plies.cli._games", "play a built-in game against the engine"),
    "analyze": (
        "plies.cli._analyze",
        "search a position by iterative deepening, one info line per depth",
    ),
    "solve": ("plies.cli._solve", "find the exact value of a position (win, draw or loss)"),
    "book": ("plies.cli._book", "build an opening book of exact scores, or show its stats"),
    "complexity": (
        "plies.cli._complexity",
        "leaves and nodes of minimax and alpha-beta by depth and move ordering",
    ),
    "match": (
        "plies.cli._match",
        "play engines against each other: score, Elo and its 95%% interval, SPRT",
    ),
    "bench": ("plies.cli._bench", "run a fixed set of searches and print a node-count fingerprint"),
    "serve": ("plies.cli._serve", "serve the alpha-beta lab in a browser (needs plies[web])"),
    "site": (
        "plies.cli._site",
        "write the lab and the practice room as a static site that runs plies in the browser",
    ),
    "uci": ("plies.cli._uci", "play chess through the UCI protocol (needs plies[chess])"),
    "grade": (
        "plies.cli._grade",
        "grade a student's own alpha-beta code: value, leaves in order, windows",
    ),
    "select": (
        "plies.cli._select",
        "the K-th smallest of numbers by prune-and-search, round by round",
    ),
    "lp": (
        "plies.cli._lp",
        "solve a 2-D linear program by Megiddo's prune-and-search, round by round",
    ),
    "worksheet": (
        "plies.cli._worksheet",
        "make worksheets with answer keys, Moodle XML or QTI from a seed",
    ),
}

#: What plies' own process sets in its environment unless it is set already: NumPy's
#: OpenBLAS starts a thread per core when NumPy loads, and plies computes nothing with
#: BLAS (its kernels are its own). One thread spared a fresh ``plies solve`` 5-50 ms of
#: start-up on a busy two-core machine; the processes it starts (a cluster's workers)
#: inherit it.
PROCESS_ENVIRONMENT = {"OPENBLAS_NUM_THREADS": "1"}

#: The modules behind :data:`COMMANDS`, each once, in order.
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(m for m, _ in COMMANDS.values()))


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit with status 1 in one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(1, f"error: {message} (see '{self.prog} --help')\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser. Only ``command``'s module is imported and registers its
    full parser; the other commands are listed by name and help alone."""
    return _build(command)[0]


def _build(command: str | None) -> tuple[argparse.ArgumentParser, dict[str, _Parser]]:
    """The top-level parser and its command parsers by name."""
    parser = _Parser(
        prog="plies",
        description="Adversarial game-tree search: minimax, alpha-beta and their family.",
        epilog="Run 'plies COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"plies {__version__}")
    subparsers = parser.add_subparsers(
        title="commands", metavar="COMMAND", parser_class=_Parser, dest="command"
    )
    wanted = COMMANDS[command][0] if command in COMMANDS else None
    for module_name in COMMAND_MODULES:
        if module_name == wanted:
            importlib.import_module(module_name).register(subparsers)
            continue
        for name, (owner, help_text) in COMMANDS.items():
            if owner == module_name:
                subparsers.add_parser(name, help=help_text, add_help=False)
    return parser, subparsers.choices


def command_parser(command: str) -> argparse.ArgumentParser:
    """The full parser of one command (``plies COMMAND ...``)."""
    return _build(command)[1][command]


def _command_of(argv: Sequence[str]) -> str | None:
    """The command word: the first argument that is not a top-level option."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg
        if arg == "--":
            return None
    return None


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The parser's option strings and their actions."""
    return {s: a for a in parser._actions for s in a.option_strings}


def _option_named(word: str, options: dict[str, argparse.Action]) -> argparse.Action | None:
    """The action ``word`` names: exactly, or by an unambiguous ``--prefix`` as
    argparse allows."""
    if word in options:
        return options[word]
    if word.startswith("--"):
        matches = {a for s, a in options.items() if s.startswith(word)}
        if len(matches) == 1:
            return matches.pop()
    return None


_OPTION_WORD = re.compile(r"--[a-z][a-z0-9-]{0,40}")


def _is_option_like(word: str, options: dict[str, argparse.Action]) -> bool:
    """Whether ``word`` is meant as an option (known or not): ``--name`` or a known
    short option. Anything else starting with '-' is data: ``-1,2``, ``---XO--``."""
    name = word.split("=", 1)[0]
    if _option_named(name, options) is not None:
        return True
    if name.startswith("--"):  # options are lowercase words: '--X--O...' is a board
        return _OPTION_WORD.fullmatch(name) is not None
    return len(name) == 2 and name[1].isalpha()


def normalize(argv: Sequence[str], parser: argparse.ArgumentParser) -> list[str]:
    """Rewrite ``argv`` for ``parser`` so that argparse reads it as a person meant it:
    an option's value that starts with '-' is joined to it (``--leaves=-1,2``), and
    every positional goes after one ``--`` at the end, in its order, so that a
    positional starting with '-' is never taken for an option."""
    options = _options(parser)
    flags: list[str] = []
    positionals: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            positionals.extend(args[i:])
            break
        if arg == "-" or not arg.startswith("-") or not _is_option_like(arg, options):
            positionals.append(arg)
            continue
        action = _option_named(arg, options) if "=" not in arg else None
        if action is not None and action.nargs is None and i < len(args):
            flags.append(f"{arg}={args[i]}")  # one value, whatever its first character
            i += 1
        else:
            flags.append(arg)
    return [*flags, "--", *positionals] if positionals else flags


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status (``argv`` None: this process
    is plies' own, run with ``sys.argv``, and ends with that status once its exit
    handlers have run; see :func:`_exit_now`)."""
    if argv is None:
        import atexit

        from plies.engine.native import skip_blas_probe

        status: list[int] = []  # main's, once it has returned
        atexit.register(_exit_now, status)  # the first handler: the last to run
        for variable, value in PROCESS_ENVIRONMENT.items():
            os.environ.setdefault(variable, value)
        skip_blas_probe()
        status.append(_main(None))
        return status[0]
    return _main(argv)


def _exit_now(status: list[int]) -> None:
    """At exit, after every other exit handler (non-daemon threads joined, the cluster
    closed, the output files closed): end the process at once with ``status``, its
    output flushed. Python would otherwise free every object one by one first: 0.15 s
    after a kernel solve, 0.3-1 s after a Dask cluster ran (the modules of Numba and
    Dask). An uncaught exception (``status`` empty) gets Python's own exit."""
    if not status:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # a reader that closed early, as in _main: not an error
        pass
    except OSError as exc:  # what was still buffered is lost: say so, and fail
        with contextlib.suppress(OSError, ValueError):
            print(f"error: {_unwritten(exc)}", file=sys.stderr)
        status[0] = status[0] or 1
    except ValueError:  # a closed stream
        pass
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(status[0])


def _unwritten(exc: OSError) -> str:
    """One line for an OSError no command turned into plies' own error: the output
    that could not be written, or the file named."""
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    return f"the output could not be written: {reason}"


def _main(argv: Sequence[str] | None) -> int:
    """:func:`main`'s work."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command_of(argv)
    try:
        parser, commands = _build(command)
        if command not in COMMANDS:
            parser.parse_args(argv)  # --help, --version, or a usage error: exits
            parser.print_help()  # no command at all
            return 1
        sub = commands[command]
        rest = argv[argv.index(command) + 1 :]
        args = sub.parse_args(normalize(rest, sub))
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 1
    except KeyboardInterrupt:
        return 130
    handler: Callable[[argparse.Namespace], int] = args.handler
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
    except OSError as exc:  # the output could not be written: a full disk, /dev/full
        print(f"error: {_unwritten(exc)}", file=sys.stderr)
        return 1
