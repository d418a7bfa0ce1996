"""The work on one line of a batch (``analyze --batch``, ``solve --batch``): a line job
(:class:`plies.cluster.LineJob`), a pure function of the line and its options, run the
same way in the shell's process and on a Dask worker.

A line is ``<position> [<score>]``, the form of Pascal Pons' test sets
(:func:`split_expected`); its output is one line of text or a JSON object, a bad
line's error is said, never raised.

>>> job = SolveLines("tictactoe", moves="none")
>>> job(1, "1 4 2 3").output
'1 4 2 3 win:3'
>>> AnalyzeLines("tictactoe", depth=3)(2, "1 4 2 3").output
'1 4 2 3 win:3 5 3'
"""

from __future__ import annotations

import functools
import json
import threading
from dataclasses import dataclass, fields
from typing import Any

from plies.book import Book
from plies.cluster import LineResult
from plies.engine import DEFAULT_ALGORITHM, NativeTable
from plies.errors import PliesError
from plies.game import BaseGame
from plies.games import parse_game_spec
from plies.lab._analyze import SearchOptions, analysis_record, analyze
from plies.lab._expected import keeps_score, split_expected
from plies.lab._solve import (
    SolveOptions,
    SolverTable,
    book_answer,
    book_record,
    score_token,
    solve_position,
    solve_record,
    solver_table,
    warm_solver,
)
from plies.lab._text import format_score

__all__ = ["AnalyzeLines", "SolveLines", "game_of"]


@functools.lru_cache(maxsize=4)
def game_of(spec: str) -> BaseGame[Any, Any]:
    """A game by its spec, made once per process (a batch's lines share it)."""
    return parse_game_spec(spec)


@functools.lru_cache(maxsize=4)
def _book_of(path: str, game: BaseGame[Any, Any]) -> Book:
    """A batch's ``--book``, opened once per process."""
    return Book.open(path, game)


def _option_fields(kind: Any, source: Any) -> dict[str, Any]:
    """The fields a ``kind`` of options is made of (:class:`SearchOptions`,
    :class:`SolveOptions`), read from ``source``: those options, or a line job holding
    them as its own fields."""
    return {field.name: getattr(source, field.name) for field in fields(kind) if field.init}


def _bad_line(
    number: int, exc: PliesError, stop: threading.Event | None, *, as_json: bool
) -> LineResult:
    """The result of a line that failed with ``exc``: abandoned after a ``stop``, else
    its error (and, ``as_json``, a JSON output line saying it)."""
    if stop is not None and stop.is_set():
        return LineResult(number, abandoned=True)
    error = json.dumps({"line": number, "error": str(exc)}) if as_json else None
    return LineResult(number, output=error, error=str(exc))


def _json_line_number(output: str) -> str:
    """The ``line`` field of a JSON output line, as text ('' if there is none)."""
    try:
        return str(json.loads(output).get("line", ""))
    except (ValueError, AttributeError):
        return ""


@dataclass(frozen=True)
class AnalyzeLines:
    """The work on one line of ``analyze --batch``: search the position to the limits
    and keep the last completed depth; a pure function of the line (given a depth or
    node or iteration limit: a time limit depends on the machine), run the same way here and on a
    Dask worker (:mod:`plies.cluster`).

    Its output is ``<position> <score> <best move> <depth>`` (score ``win:N``,
    ``loss:N`` or the evaluation; best move ``(none)`` at the end of a game) or, with
    ``json``, the last depth's JSON object with ``line`` and ``position``; a bad
    position, or a limit reached before depth 1, is a bad line. A line is read as
    ``solve --batch`` reads it: ``<position> [<score>]``, where the score a test set
    expects (:func:`split_expected`) is not part of the position.
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
    #: MCTS's iterations per position (``--iterations``; deterministic, as ``nodes``).
    iterations: int | None = None

    @classmethod
    def of(
        cls, game_spec: str, options: SearchOptions, *, json: bool = False, book: str | None = None
    ) -> AnalyzeLines:
        """The job searching each line of a batch of ``game_spec`` with ``options``."""
        return cls(game_spec, **_option_fields(SearchOptions, options), json=json, book=book)

    def warm(self) -> None:
        """Build the game, once per process."""
        game_of(self.game_spec)

    def threads(self) -> bool:
        """No: a process's lines share one game and one book connection."""
        return False

    def position_of(self, text: str) -> str:
        """The POSITION of a line (without the score a test set's line ends with)."""
        return split_expected(text, scored=keeps_score(game_of(self.game_spec)))[0]

    def options(self) -> SearchOptions:
        """The search of each line."""
        return SearchOptions(**_option_fields(SearchOptions, self))

    def _book_line(self, number: int, text: str) -> LineResult | None:
        """The line (its POSITION, ``text``) answered from the book, or None."""
        if self.book is None:
            return None
        game = game_of(self.game_spec)
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
        game = game_of(self.game_spec)
        position = self.position_of(text)
        try:
            answered = self._book_line(number, position)
            if answered is not None:
                return answered
            state = game.parse_position(position)
            last = None
            for last in analyze(game, state, self.options(), stop=stop):  # noqa: B007
                pass  # the last completed depth is the answer
            if last is None:
                raise PliesError(f"no depth completed within {self._limits_text()}")
        except PliesError as exc:
            return _bad_line(number, exc, stop, as_json=self.json)
        stats = last.result.stats
        if self.json:
            record = analysis_record(last)
            output = json.dumps({"line": number, "position": position, **record})
        else:
            score = format_score(last.score, "token")
            output = f"{position} {score} {last.best_text or '(none)'} {last.result.depth}"
        return LineResult(number, output=output, nodes=stats.nodes, seconds=stats.time)

    def _limits_text(self) -> str:
        given = {
            "depth": self.depth,
            "nodes": self.nodes,
            "time": self.time,
            "iterations": self.iterations,
        }
        return " ".join(f"--{name} {value:g}" for name, value in given.items() if value)

    def item_key(self, number: int, text: str) -> str:
        """The line number (JSON output) or the position (text output)."""
        return str(number) if self.json else self.position_of(text)

    def output_key(self, output: str) -> str:
        """The ``line`` of a JSON output line, or the position of a text one."""
        if not self.json:
            return output.rsplit(" ", 3)[0]
        return _json_line_number(output)


@dataclass(frozen=True)
class SolveLines:
    """The work on one line of ``solve --batch``: a pure function of the line (with
    these options), run the same way here and on a Dask worker (:mod:`plies.cluster`).

    A line is ``<position> [<score>]``; its output is ``<position> <score>`` or a JSON
    object (``--json``), a bad line's a JSON ``{"line": N, "error": ...}`` or nothing.
    """

    game_spec: str
    weak: bool = False
    moves: str = "none"
    backend: str | None = None
    table_size: int | None = None
    nodes: int | None = None
    time: float | None = None
    json: bool = False
    #: An opening book (``--book``) answering the positions it holds.
    book: str | None = None

    @classmethod
    def of(
        cls, game_spec: str, options: SolveOptions, *, json: bool = False, book: str | None = None
    ) -> SolveLines:
        """The job solving each line of a batch of ``game_spec`` with ``options``."""
        return cls(game_spec, **_option_fields(SolveOptions, options), json=json, book=book)

    def options(self) -> SolveOptions:
        """The solve of each line."""
        return SolveOptions(**_option_fields(SolveOptions, self))

    def warm(self) -> None:
        """Build the game and the table and load the solver, once per process
        (:func:`plies.lab.warm_solver`)."""
        game, table = _solver(self)
        warm_solver(game, table, self.options())

    def threads(self) -> bool:
        """Yes on the native backend: its kernel releases the GIL (a table per thread)."""
        return isinstance(_solver(self)[1], NativeTable)

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """Solve one line (Ctrl-C, ``stop``, abandons it)."""
        game, table = _solver(self)
        position, expected = self.split(text)
        # A stop that never comes where none is given (a Dask worker): the native
        # solver counts nodes a little differently unwatched, and JSON shows them.
        stop = stop if stop is not None else threading.Event()
        try:
            state = game.parse_position(position)
            options = self.options()
            book = _batch_book(self, game)
            solved = book_answer(book, state, options) if book is not None else None
            if solved is None:
                table.clear()  # every position from scratch, as Pons' benchmark does
                solved = solve_position(game, state, options, table=table, stop=stop)
        except PliesError as exc:
            return _bad_line(number, exc, stop, as_json=self.json)
        token = score_token(game, state, solved)
        differs = None
        if expected is not None and not _agrees(expected, token, weak=self.weak):
            differs = f"line {number}: expected {expected}, got {token}"
        if self.json:
            record = solve_record(game, state, solved, position=position)
            record["line"] = number
            record["input"] = position
            record["expected"] = expected
            output = json.dumps(record)
        else:
            output = f"{position} {token}"
        stats = solved.stats
        return LineResult(
            number, output=output, differs=differs, nodes=stats.nodes, seconds=stats.time
        )

    def split(self, text: str) -> tuple[str, int | None]:
        """A line's ``(position, expected score or None)`` (:func:`split_expected`)."""
        return split_expected(text, scored=keeps_score(game_of(self.game_spec)))

    def position_of(self, text: str) -> str:
        """The POSITION of a line (without its expected score)."""
        return self.split(text)[0]

    def item_key(self, number: int, text: str) -> str:
        """The line number (JSON output) or the position (text output)."""
        return str(number) if self.json else self.position_of(text)

    def output_key(self, output: str) -> str:
        """The ``line`` of a JSON output line, or the position of a text one."""
        if self.json:
            return _json_line_number(output)
        return output.rsplit(" ", 1)[0]


_SOLVERS = threading.local()


def _solver(lines: SolveLines) -> tuple[BaseGame[Any, Any], SolverTable]:
    """The game and the table of a batch, made once per process and thread (a table
    serves one solve at a time: a Dask worker may still run a cancelled line beside)."""
    made: dict[SolveLines, Any] = _SOLVERS.__dict__.setdefault("made", {})
    if lines not in made:
        game = parse_game_spec(lines.game_spec)
        made.clear()  # one batch at a time: the tables of earlier ones are let go
        made[lines] = game, solver_table(game, lines.options())
    return made[lines]  # type: ignore[no-any-return]


_BOOKS = threading.local()


def _batch_book(lines: SolveLines, game: BaseGame[Any, Any]) -> Book | None:
    """The ``--book`` of a batch, opened once per process and thread."""
    opened: dict[str, Book] = _BOOKS.__dict__.setdefault("opened", {})
    if lines.book is None:
        return None
    if lines.book not in opened:
        opened[lines.book] = Book.open(lines.book, game)
    return opened[lines.book]


def _agrees(expected: int, token: str, *, weak: bool) -> bool:
    """Whether a computed score token matches an expected integer score."""
    try:
        score = int(token)
    except ValueError:
        return False
    if weak:
        return (expected > 0) - (expected < 0) == score
    return expected == score
