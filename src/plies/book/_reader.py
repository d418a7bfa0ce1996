"""Answers from a book: values, best moves and solve results of the positions it holds."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from plies.book._store import (
    BookError,
    BookStats,
    check_game,
    connect,
    game_of,
    key_text,
    read_meta,
    read_stats,
)
from plies.engine import WIN, SearchStats, SolveResult, score_distance
from plies.game import BaseGame

__all__ = ["Book", "child_score"]


def child_score(value: int) -> int:
    """The score, for the side to move, of a move to a child whose own value (for
    its side to move) is ``value``: negated, and a win or loss one ply further."""
    if value > 0:
        return 1 - value
    if value < 0:
        return -1 - value
    return 0


class Book:
    """An opening book opened for reading: exact values of the positions it holds.

    Open one with :meth:`open`. A position is *in* the book when it, or a symmetric
    image of it (the game's :meth:`~plies.game.BaseGame.canonical_key`), has a value
    there. :attr:`asked` and :attr:`answered` count the look-ups of :meth:`answer`
    and those the book answered.
    """

    def __init__(
        self, path: Path, connection: sqlite3.Connection, meta: dict[str, str], game: Any
    ) -> None:
        self.path = path
        self.connection = connection
        self.meta = meta
        #: The game of the book (the one given to :meth:`open`, or built from the book).
        self.game: BaseGame[Any, Any] = game
        #: The depth the book was built to, in plies from its root (the start, or the
        #: POSITION it was built from).
        self.plies = int(meta.get("plies", "0"))
        self.asked = 0
        self.answered = 0

    @classmethod
    def open(cls, path: str | Path, game: BaseGame[Any, Any] | None = None) -> Book:
        """Open the book at ``path`` for ``game`` (None: the game the book names).

        Raises :class:`~plies.book.BookError` (a :class:`~plies.errors.PliesError`)
        for a missing file, a file that is not an SQLite plies book, or a book of
        another game.
        """
        path = Path(path)
        connection = connect(path)
        try:
            meta = read_meta(connection, path)
            if not meta:
                raise BookError(f"{path} is not an opening book (empty)")
            if game is None:
                game = game_of(meta, path)
            else:
                check_game(meta, game, path)
        except BookError:
            connection.close()
            raise
        return cls(path, connection, meta, game)

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def __enter__(self) -> Book:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def value(self, state: Any) -> int | None:
        """The exact engine score of ``state`` for the side to move, or None when the
        book does not hold it (nor a mirror image of it) with a value."""
        try:
            row = self.connection.execute(
                "SELECT value FROM positions WHERE key = ?", (key_text(self.game, state),)
            ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise BookError(f"{self.path} cannot be read: {exc}") from None
        return None if row is None or row[0] is None else int(row[0])

    def best_moves(self, state: Any) -> tuple[Any, ...] | None:
        """Every optimal move of ``state``, in the game's move order, when the book
        holds the values of all its children (positions above the deepest level);
        ``()`` at the end of a game; None when it does not know them."""
        game = self.game
        if game.terminal_value(state) is not None:
            return ()
        scores = []
        for move in game.legal_moves(state):
            value = self.value(game.play(state, move))
            if value is None:
                return None
            scores.append((child_score(value), move))
        best = max(score for score, _ in scores)
        return tuple(move for score, move in scores if score == best)

    def line(self, state: Any) -> tuple[tuple[Any, ...], Any]:
        """The optimal line the book knows from ``state`` (the first best move each
        time), and the position where it stops: the end of the game, or a position
        whose best moves the book does not hold."""
        moves: list[Any] = []
        while True:
            best = self.best_moves(state)
            if not best:
                return tuple(moves), state
            moves.append(best[0])
            state = self.game.play(state, best[0])

    def answer(self, state: Any, *, moves: str = "none", weak: bool = False) -> SolveResult | None:
        """The :class:`~plies.engine.SolveResult` of ``state`` from the book, or None.

        ``moves`` as for :func:`plies.engine.solve`: ``"none"`` needs the position's
        value only; ``"best"``, ``"all"`` and ``"line"`` need its best moves too (a
        position above the deepest level). The line is the book's (:meth:`line`): it
        stops where the book does, and a draw's distance (the length of one drawn
        line, for the solver) is None. ``weak`` keeps only win, draw or loss.
        Counted in :attr:`asked` and :attr:`answered`.
        """
        started = time.perf_counter()
        self.asked += 1
        value = self.value(state)
        if value is None:
            return None
        best: tuple[Any, ...] = ()
        pv: tuple[Any, ...] = ()
        if moves != "none":
            known = self.best_moves(state)
            if known is None:
                return None
            best = known if moves == "all" else known[:1]
            pv = best[:1]
            if moves in ("line", "all") and not weak:
                pv = self.line(state)[0]
        self.answered += 1
        stats = SearchStats(time=time.perf_counter() - started)
        return _result(value, best, pv, stats, weak=weak)

    def stats(self) -> BookStats:
        """The book's :class:`~plies.book.BookStats`."""
        try:
            return read_stats(self.connection, self.meta, self.path)
        except sqlite3.DatabaseError as exc:
            raise BookError(f"{self.path} cannot be read: {exc}") from None


def _result(
    value: int,
    best: Sequence[Any],
    pv: tuple[Any, ...],
    stats: SearchStats,
    *,
    weak: bool,
) -> SolveResult:
    """A :class:`SolveResult` (backend ``"book"``) of a value read from a book."""
    sign = (value > 0) - (value < 0)
    result = "win" if sign > 0 else "loss" if sign < 0 else "draw"
    distance = None if weak else score_distance(value)
    utility = float(sign)
    if not weak and distance is not None:
        utility = round((abs(value) + distance) / WIN * 1000) / 1000 * sign
    return SolveResult(
        result=result,
        distance=distance,
        utility=utility,
        value=float(sign) * WIN if weak else float(value),
        best_move=best[0] if best else None,
        pv=pv,
        stats=stats,
        best_moves=tuple(best),
        weak=weak,
        backend="book",
    )
