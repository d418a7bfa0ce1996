"""``plies analyze``: search a position of a built-in game (and helpers ``solve`` shares).

``analyze`` prints one info line per completed depth, like a chess engine, and a
final ``bestmove`` line; with ``--json`` one JSON object per completed depth. Ctrl-C
stops the search, still prints the best move of the last completed depth, and exits
with status 130.

A live progress line (depth, nodes, speed) goes to stderr while a search runs when
stdout is a terminal; scripts that read stdout never see it.
"""

from __future__ import annotations

import argparse
import functools
import json
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from plies.book import Book
from plies.cli._args import add_game_arguments, load_position, note, seconds, whole_number
from plies.cli._batch import (
    add_cluster_arguments,
    keeps_score,
    read_batch,
    run_batch,
    split_expected,
)
from plies.cli._book import add_book_argument, book_summary, count_book_answers, open_book
from plies.cluster import LineResult
from plies.engine import (
    ALGORITHMS,
    BACKENDS,
    CHANCE_MODES,
    DEFAULT_ALGORITHM,
    Limits,
    SearchResult,
    iterate,
)
from plies.errors import PliesError
from plies.game import BaseGame
from plies.lab import GAMES, format_line, format_score, parse_game_spec, score_of

__all__ = ["AnalyzeLines", "register"]

#: Seconds ``analyze`` searches when no limit is given.
DEFAULT_TIME = 10.0


def register(subparsers: Any) -> None:
    """Add the ``analyze`` subcommand."""
    games = ", ".join(entry.name for entry in GAMES)
    analyze = subparsers.add_parser(
        "analyze",
        help="search a position by iterative deepening, one info line per depth",
        description=(
            "Search a position of a built-in game by iterative deepening and print one "
            "line per completed depth (depth, score, nodes, nodes per second, time, "
            "principal variation), then 'bestmove MOVE'. Scores are from the side to "
            "move's view: a number (the game's evaluation) or 'win N'/'loss N' for a "
            "proven result N plies away. Ctrl-C stops, prints the best move of the "
            "last completed depth and exits 130. Without a limit the search runs "
            f"{DEFAULT_TIME:g} s."
        ),
        epilog=f"Games: {games} (see 'plies games'). "
        "Example: plies analyze connect4 4453 --depth 8",
    )
    add_game_arguments(analyze)
    analyze.add_argument("--depth", type=whole_number(1), help="deepest iteration, in plies")
    analyze.add_argument("--time", type=seconds, help="seconds to search at most")
    analyze.add_argument("--nodes", type=whole_number(1), help="nodes to search at most")
    analyze.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default=DEFAULT_ALGORITHM,
        help=f"search algorithm (default {DEFAULT_ALGORITHM})",
    )
    analyze.add_argument(
        "--chance",
        choices=CHANCE_MODES,
        help="chance-node method for negamax, pvs and mtdf (default star1)",
    )
    analyze.add_argument(
        "--seed",
        type=whole_number(0),
        help="break ties between equal moves at random with this seed",
    )
    analyze.add_argument(
        "--backend",
        choices=BACKENDS,
        help="the search: compiled (native: Connect Four, m,n,k, Nim, Othello, "
        "checkers; pvs and negamax; needs "
        "numba) or python (everything); default native where it runs",
    )
    analyze.add_argument(
        "--json", action="store_true", help="print one JSON object per completed depth"
    )
    analyze.add_argument(
        "--batch",
        metavar="FILE",
        help="score every position of FILE ('-': standard input), one a line, at the "
        "--depth, --nodes or --time given: one line '<position> <score> <best move> "
        "<depth>' (or a JSON object with --json) per position; lines are read as solve "
        "--batch reads them ('<position> [<score>]': a test set's expected score is "
        "left out)",
    )
    add_cluster_arguments(analyze)
    add_book_argument(analyze)
    analyze.set_defaults(handler=run_analyze)


def result_record(game: BaseGame[Any, Any], state: Any, result: SearchResult) -> dict[str, Any]:
    """The JSON object of one completed depth (its score read by
    :func:`plies.lab.score_of`, written by :func:`plies.lab.format_score`)."""
    stats = result.stats
    pv = format_line(game, state, result.pv)
    score = score_of(game, result)
    return {
        "depth": result.depth,
        "score": result.value + 0.0,  # + 0.0 turns -0.0 into 0.0
        "score_text": format_score(score, "info"),
        "result": score.outcome,
        "distance": score.plies,
        "best_move": pv[0] if pv else None,
        "pv": pv,
        "nodes": stats.nodes,
        "nps": round(stats.nps),
        "time": round(stats.time, 6),
        "exact": result.exact,
        "algorithm": result.algorithm,
        "stats": stats.as_dict(),
    }


def _info_line(record: dict[str, Any]) -> str:
    return (
        f"info depth {record['depth']} score {record['score_text']} nodes {record['nodes']} "
        f"nps {record['nps']} time {record['time']:.3f} pv {' '.join(record['pv'])}"
    ).rstrip()


@contextmanager
def stop_on_interrupt() -> Iterator[threading.Event]:
    """An Event set by Ctrl-C (SIGINT) while the block runs (main thread only)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


class _Progress:
    """A live status line on stderr (rich), shown only when stdout is a terminal."""

    def __init__(self, label: str) -> None:
        self.enabled = sys.stdout.isatty() and sys.stderr.isatty()
        self.label = label
        self.detail = ""
        self.started = time.perf_counter()
        self._last = 0.0
        self._status: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console

            self._status = Console(stderr=True).status(self.label)
            self._status.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.__exit__(None, None, None)

    def nodes(self, count: int) -> None:
        """Progress hook for the engine: refresh at most ten times a second."""
        if self._status is None:
            return
        now = time.perf_counter()
        if now - self._last < 0.1:
            return
        self._last = now
        elapsed = now - self.started
        self._status.update(
            f"{self.label}{self.detail}  nodes {count:,}  {count / elapsed:,.0f} n/s  "
            f"{elapsed:.1f} s  (Ctrl-C stops)"
        )


def _analyze_notes(game: BaseGame[Any, Any], args: argparse.Namespace) -> None:
    """A ``note:`` for each option given that cannot change this search."""
    if args.chance is not None:
        if not game.has_chance:
            note(f"--chance has no effect: {game.name} has no chance nodes")
        elif args.algorithm in ("minimax", "expectiminimax", "alphabeta"):
            note(
                f"--chance has no effect with --algorithm {args.algorithm} "
                "(it averages every outcome; --chance is for negamax, pvs and mtdf)"
            )


def run_analyze(args: argparse.Namespace) -> int:
    """Handle ``plies analyze``: exit 0, or 130 after Ctrl-C (the best move of the
    last completed depth printed all the same)."""
    if args.batch is not None:
        return _run_batch(args)
    for option in ("workers", "scheduler", "out", "resume"):
        if getattr(args, option) is not None:
            raise PliesError(f"--{option} works with --batch only")
    game, state = load_position(args)
    _analyze_notes(game, args)
    book = open_book(args.book, game)
    if book is not None and _from_book(book, game, state, args):
        return 0
    if args.depth is None and args.time is None and args.nodes is None:
        args.time = DEFAULT_TIME
    limits = Limits(depth=args.depth, nodes=args.nodes, time=args.time)
    last: SearchResult | None = None
    with stop_on_interrupt() as stop, _Progress(f"analysing {game.name}") as progress:
        results = iterate(
            game,
            state,
            limits=limits,
            algorithm=args.algorithm,
            chance=args.chance or "star1",
            seed=args.seed,
            stop=stop,
            progress=progress.nodes,
            backend=args.backend,
        )
        for result in results:
            last = result
            progress.detail = f"  depth {result.depth + 1}"
            record = result_record(game, state, result)
            print(json.dumps(record) if args.json else _info_line(record), flush=True)
    if not args.json:
        if last is None or not last.pv:
            print("bestmove (none)" if game.terminal_value(state) is not None else "bestmove ?")
        else:
            print(f"bestmove {game.format_move(state, last.pv[0])}")
    book_summary(book)
    if stop.is_set():
        if not args.json:
            print("stopped by Ctrl-C: best move of the last completed depth", file=sys.stderr)
        return 130
    return 0


def book_record(game: BaseGame[Any, Any], state: Any, book: Book) -> dict[str, Any] | None:
    """The JSON object of a position answered by ``--book`` (its exact score and the
    book's line), or None where the book does not know its best move."""
    solved = book.answer(state, moves="best")
    if solved is None:
        return None
    moves, _ = book.line(state)
    pv = format_line(game, state, moves)
    return {
        "depth": None,
        "score": solved.value + 0.0,
        "score_text": format_score(score_of(game, solved), "info"),
        "result": solved.result,
        "distance": solved.distance,
        "best_move": pv[0] if pv else None,
        "pv": pv,
        "nodes": 0,
        "book": str(book.path),
    }


def _from_book(book: Book, game: BaseGame[Any, Any], state: Any, args: argparse.Namespace) -> bool:
    """Answer one position from ``--book``: an ``info book`` line and the best move;
    False where the book does not know the position's best move (then search)."""
    record = book_record(game, state, book)
    if record is None:
        return False
    book_summary(book)
    if args.json:
        print(json.dumps(record))
    else:
        print(f"info book score {record['score_text']} pv {' '.join(record['pv'])}".rstrip())
        print(f"bestmove {record['best_move'] or '(none)'}")
    return True


# -- batches --------------------------------------------------------------------------


@dataclass(frozen=True)
class AnalyzeLines:
    """The work on one line of ``analyze --batch``: search the position to the limits
    and keep the last completed depth; a pure function of the line (given a depth or
    node limit: a time limit depends on the machine), run the same way here and on a
    Dask worker (:mod:`plies.cluster`).

    Its output is ``<position> <score> <best move> <depth>`` (score ``win:N``,
    ``loss:N`` or the evaluation; best move ``(none)`` at the end of a game) or, with
    ``json``, the last depth's JSON object with ``line`` and ``position``; a bad
    position, or a limit reached before depth 1, is a bad line. A line is read as
    ``solve --batch`` reads it: ``<position> [<score>]``, where the score a test set
    expects (:func:`~plies.cli._batch.split_expected`) is not part of the position.
    """

    game_spec: str
    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    algorithm: str = DEFAULT_ALGORITHM
    chance: str = "star1"
    seed: int | None = None
    json: bool = False
    backend: str | None = None
    #: An opening book (``--book``) answering the positions whose best move it knows.
    book: str | None = None

    def warm(self) -> None:
        """Build the game, once per process."""
        _game_of(self.game_spec)

    def threads(self) -> bool:
        """No: a process's lines share one game and one book connection."""
        return False

    def position_of(self, text: str) -> str:
        """The POSITION of a line (without the score a test set's line ends with)."""
        return split_expected(text, scored=keeps_score(_game_of(self.game_spec)))[0]

    def _book_line(self, number: int, text: str) -> LineResult | None:
        """The line (its POSITION, ``text``) answered from the book, or None."""
        if self.book is None:
            return None
        game = _game_of(self.game_spec)
        record = book_record(game, game.parse_position(text), _book_of(self.book, game))
        if record is None:
            return None
        if self.json:
            record = {"line": number, "position": text, **record}
            return LineResult(number, output=json.dumps(record))
        score = record["score_text"].replace(" ", ":")
        return LineResult(number, output=f"{text} {score} {record['best_move'] or '(none)'} book")

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """Search one line's position (Ctrl-C, ``stop``, abandons it)."""
        game = _game_of(self.game_spec)
        position = self.position_of(text)
        try:
            answered = self._book_line(number, position)
            if answered is not None:
                return answered
            state = game.parse_position(position)
            last = None
            for last in iterate(  # noqa: B007  # the last completed depth is the answer
                game,
                state,
                limits=Limits(depth=self.depth, nodes=self.nodes, time=self.time),
                algorithm=self.algorithm,
                chance=self.chance,
                seed=self.seed,
                stop=stop,
                backend=self.backend,
            ):
                pass
            if last is None:
                raise PliesError(f"no depth completed within {self._limits_text()}")
        except PliesError as exc:
            if stop is not None and stop.is_set():
                return LineResult(number, abandoned=True)
            error = json.dumps({"line": number, "error": str(exc)}) if self.json else None
            return LineResult(number, output=error, error=str(exc))
        stats = last.stats
        record = result_record(game, state, last)
        if self.json:
            output = json.dumps({"line": number, "position": position, **record})
        else:
            score = format_score(score_of(game, last), "token")
            best = record["best_move"] or "(none)"
            output = f"{position} {score} {best} {last.depth}"
        return LineResult(number, output=output, nodes=stats.nodes, seconds=stats.time)

    def _limits_text(self) -> str:
        given = {"depth": self.depth, "nodes": self.nodes, "time": self.time}
        return " ".join(f"--{name} {value:g}" for name, value in given.items() if value)

    def item_key(self, number: int, text: str) -> str:
        """The line number (JSON output) or the position (text output)."""
        return str(number) if self.json else self.position_of(text)

    def output_key(self, output: str) -> str:
        """The ``line`` of a JSON output line, or the position of a text one."""
        if not self.json:
            return output.rsplit(" ", 3)[0]
        try:
            return str(json.loads(output).get("line", ""))
        except (ValueError, AttributeError):
            return ""


@functools.lru_cache(maxsize=4)
def _book_of(path: str, game: BaseGame[Any, Any]) -> Book:
    """A batch's ``--book``, opened once per process."""
    return Book.open(path, game)


@functools.lru_cache(maxsize=4)
def _game_of(spec: str) -> BaseGame[Any, Any]:
    """A game by its spec, made once per process."""
    return parse_game_spec(spec)


def _run_batch(args: argparse.Namespace) -> int:
    if args.position:
        raise PliesError("give positions in the --batch file, not on the command line")
    game = parse_game_spec(args.game)
    _analyze_notes(game, args)
    if args.depth is None and args.time is None and args.nodes is None:
        raise PliesError("--batch needs a limit per position: --depth, --nodes or --time")
    job = AnalyzeLines(
        game_spec=args.game,
        depth=args.depth,
        nodes=args.nodes,
        time=args.time,
        algorithm=args.algorithm,
        chance=args.chance or "star1",
        seed=args.seed,
        json=args.json,
        backend=args.backend,
        book=args.book,
    )
    items = read_batch(args.batch)
    searched = bad = 0
    book = open_book(args.book, game)  # a bad book fails here, once

    def count(result: LineResult) -> None:
        nonlocal searched, bad
        if result.error is None:
            searched += 1
        else:
            bad += 1
            print(f"error: line {result.number}: {result.error}", file=sys.stderr)

    on_result = count_book_answers(
        book, game, items, count, needs_moves=True, position_of=job.position_of
    )
    interrupted = run_batch(args, items, job, label="analysing", on_result=on_result)
    book_summary(book)
    if interrupted:
        print(f"error: interrupted after {searched} positions", file=sys.stderr)
        return 130
    return 1 if bad else 0
