"""``plies book``: build an opening book of exact scores, and show what one holds.

``plies book build GAME --plies D --out BOOK`` solves every distinct position up to
D plies (see :mod:`plies.book`); run again, the same command resumes an interrupted
build. ``plies book stats BOOK`` prints the game, the depth, the positions and solved
ones per level, the file size and the time each level took. ``--book BOOK`` on
``solve``, ``analyze`` and ``play`` answers from a book (see :func:`open_book`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from plies.cli._args import whole_number
from plies.cli._batch import add_cluster_arguments
from plies.cli._progress import stop_on_interrupt
from plies.errors import PliesError
from plies.game import BaseGame

if TYPE_CHECKING:  # books and the cluster load when a command uses them, not at its start
    from plies.cluster import LineResult
    from plies.lab import Book, BookStats

__all__ = ["add_book_argument", "book_summary", "open_book", "register"]

ACTIONS = ("build", "stats")


def register(subparsers: Any) -> None:
    """Add the ``book`` subcommand."""
    book = subparsers.add_parser(
        "book",
        help="build an opening book of exact scores (SQLite), or show one's statistics",
        description=(
            "'plies book build GAME [POSITION] --plies D --out BOOK' solves every distinct "
            "position up to D plies from the start (or from POSITION), mirror images "
            "and transpositions once, and stores its exact score in the SQLite file "
            "BOOK: the deepest level is solved, "
            "on a Dask cluster with --workers or --scheduler, and every shallower "
            "position follows from its children. Results are committed as they arrive: "
            "the same command run again resumes an interrupted build. 'plies book stats "
            "BOOK' prints what a book holds. Use a book with --book on solve, analyze "
            "and play."
        ),
        epilog="Examples: plies book build connect4 --plies 6 --out c4.sqlite --workers 2;  "
        "plies book stats c4.sqlite;  plies solve connect4 4453 --book c4.sqlite",
    )
    book.add_argument("action", choices=ACTIONS, help="build a book, or show its stats")
    book.add_argument(
        "target", metavar="GAME|BOOK", help="the game to build a book of; the book for stats"
    )
    book.add_argument(
        "position",
        metavar="POSITION",
        nargs="*",
        help="build: the position the book starts from (default: the start of the game)",
    )
    book.add_argument(
        "--plies", type=whole_number(0, 64), metavar="D", help="depth of the book (build)"
    )
    book.add_argument(
        "--backend",
        choices=("native", "python"),
        help="the solver of the leaves (default native where the game has a port)",
    )
    book.add_argument(
        "--table-size",
        type=whole_number(16),
        metavar="ENTRIES",
        help="transposition-table entries of each worker's solver",
    )
    add_cluster_arguments(book)
    helps = {
        "workers": "solve the leaves on a local Dask cluster of N worker processes (needs "
        "plies[cluster]); the book is the serial one",
        "out": "build: the book's file (created, or resumed when it holds this build)",
        "resume": "build: the same as --out (a build always resumes its file)",
    }
    for action in book._actions:
        action.help = helps.get(action.dest, action.help)
    book.set_defaults(handler=run_book)


def run_book(args: argparse.Namespace) -> int:
    """Handle ``plies book``: exit 0, 1 for an error, 130 after Ctrl-C."""
    if args.action == "stats":
        for option in ("plies", "workers", "scheduler", "resume", "out", "backend", "table_size"):
            if getattr(args, option) is not None:
                raise PliesError(f"--{option.replace('_', '-')} works with 'book build' only")
        if args.position:
            raise PliesError("book stats takes one BOOK, no POSITION")
        return _stats(args.target)
    return _build(args)


def _build(args: argparse.Namespace) -> int:
    from plies.cluster import check_scheduler_address
    from plies.lab import build_book

    if args.plies is None:
        raise PliesError("book build needs --plies D, the depth of the book")
    path = args.out or args.resume
    if path is None:
        raise PliesError("book build needs --out BOOK, the file to write (or resume)")
    scheduler = check_scheduler_address(args.scheduler) if args.scheduler else None
    with stop_on_interrupt() as stop:
        stats = build_book(
            args.target,
            path,
            plies=args.plies,
            position=" ".join(args.position),
            workers=args.workers,
            scheduler=scheduler,
            backend=args.backend,
            table_size=args.table_size,
            stop=stop,
            report=lambda line: print(line, file=sys.stderr, flush=True),
        )
    if stop.is_set():
        print(
            f"error: interrupted with {stats.solved:,} of {stats.positions:,} positions "
            "solved; run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    print(_stats_text(stats))
    return 0


def _stats(path: str) -> int:
    from plies.lab import open_book as _open_book

    with _open_book(path) as book:
        print(_stats_text(book.stats()))
    return 0


def _stats_text(stats: BookStats) -> str:
    """``plies book stats`` output: a head, then one row per level."""
    state = "complete" if stats.complete else "incomplete (resume with the same build command)"
    lines = [
        f"book {stats.path}",
        f"game {stats.game}",
        f"plies {stats.plies}" + (f" from position {stats.root}" if stats.root else ""),
        f"positions {stats.positions:,}, solved {stats.solved:,}, {state}",
        f"file {stats.file_bytes:,} bytes",
        f"leaf solves {stats.solve_wall_seconds:.2f} s wall clock",
        "level  positions     leaves     solved   solve s  derive s  enumerate s",
    ]
    for level in stats.levels:
        derive = "-" if level.derive_seconds is None else f"{level.derive_seconds:.3f}"
        lines.append(
            f"{level.level:5d}  {level.positions:9,d}  {level.leaves:9,d}  {level.solved:9,d}"
            f"  {level.solve_seconds:8.2f}  {derive:>8}  {level.enumerate_seconds:11.3f}"
        )
    return "\n".join(lines)


# -- --book on solve, analyze and play ----------------------------------------------------


def add_book_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--book BOOK`` option of ``solve``, ``analyze`` and ``play``."""
    parser.add_argument(
        "--book",
        metavar="BOOK",
        help="answer from this opening book (plies book build) where it holds the "
        "position or its mirror image; says on stderr how often it did",
    )


def open_book(path: str | None, game: BaseGame[Any, Any]) -> Book | None:
    """The :class:`plies.book.Book` at ``path`` for ``game``, or None without
    ``--book``; a missing, corrupt or other game's book is a one-line error."""
    if path is None:
        return None
    from plies.lab import open_book as _open_book

    return _open_book(path, game)


def book_summary(book: Book | None, what: str = "positions") -> None:
    """The line on stderr that says how often the book answered."""
    if book is not None:
        print(
            f"book: {book.answered} of {book.asked} {what} answered from {book.path}",
            file=sys.stderr,
        )


def count_book_answers(
    book: Book | None,
    game: BaseGame[Any, Any],
    items: list[tuple[int, str]],
    then: Callable[[LineResult], None],
    *,
    needs_moves: bool = False,
    position_of: Callable[[str], str] = str.strip,
) -> Callable[[LineResult], None]:
    """The ``on_result`` of a batch with ``--book``: ``then``, after counting in
    ``book`` the lines it answered (looked up again here: the answers may come from
    Dask workers). ``needs_moves``: the book answers only where it knows the best
    moves; ``position_of`` takes a line's POSITION out of its text."""
    if book is None:
        return then
    texts = dict(items)

    def count(result: LineResult) -> None:
        if result.error is None:
            state = game.parse_position(position_of(texts[result.number]))
            book.answer(state, moves="best" if needs_moves else "none")  # counts it
        then(result)

    return count
