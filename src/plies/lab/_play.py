"""The engine's move in a game room: from an opening book when it knows the position,
else from a search, with one line of text saying where it came from (what ``plies
play`` prints after the move).

>>> from plies.engine import Limits
>>> from plies.lab import load_game, room_of
>>> room = room_of(*load_game("tictactoe", "1 4 2"))
>>> chosen = engine_move(room, limits=Limits(depth=3))
>>> chosen.text, chosen.book is None, chosen.search is not None
('3', True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from plies._arguments import need_object
from plies.book import Book
from plies.engine import DEFAULT_ALGORITHM, Limits, SearchResult, SolveResult
from plies.lab._analyze import Analysis, SearchOptions, SearchTable
from plies.lab._clock import ClockReading
from plies.lab._room import Room, RoomError, _after, _deepen, _need_room, need_player_to_move
from plies.lab._text import format_score

__all__ = ["EngineMove", "engine_move", "play_engine_move"]


@dataclass(frozen=True)
class EngineMove:
    """The move the engine chose in a room's position: the ``move`` (the game's
    object), its ``text``, where it came from in one line (``note``: ``book: win in
    3``, or ``score +0.5, depth 8, 1,234 nodes, 0.12 s``), and the ``search`` that
    found it or the ``book`` answer that knew it (exactly one of the two)."""

    move: Any
    text: str
    note: str
    search: SearchResult | None = None
    book: SolveResult | None = None


def _book_note(known: SolveResult) -> str:
    distance = "" if known.distance is None else f" in {known.distance}"
    return f"book: {known.result}{distance}"


def _search_note(found: Analysis) -> str:
    result = found.result
    return (
        f"score {format_score(found.score)}, depth {result.depth}, "
        f"{result.stats.nodes:,} nodes, {result.stats.time:.2f} s"
    )


def _options(
    options: SearchOptions | None, limits: Limits | None, algorithm: str, backend: str | None
) -> SearchOptions:
    """The search of :func:`engine_move`: ``options``, else one made of the others."""
    if options is not None:
        need_object(options, SearchOptions, "options")
        if limits is not None:
            raise RoomError("give the engine's search as options or as limits, not both")
        return options
    if limits is None:
        raise RoomError("the engine's move needs options (or limits) to search within")
    need_object(limits, Limits, "limits")
    return SearchOptions(
        depth=limits.depth,
        nodes=limits.nodes,
        time=limits.time,
        algorithm=algorithm,
        backend=backend,
    )


def engine_move(
    room: Room,
    options: SearchOptions | None = None,
    *,
    limits: Limits | None = None,
    algorithm: str = DEFAULT_ALGORITHM,
    backend: str | None = None,
    book: Book | None = None,
    table: SearchTable | None = None,
    clock: ClockReading | None = None,
) -> EngineMove:
    """The engine's move in the room's position: the ``book``'s best move when it knows
    the position, else the move the web room's engine plays (:func:`plies.lab.think`): the best
    of the last depth completed within ``options`` (or ``limits`` with ``algorithm``
    and ``backend``), or of one ply when none completed; MCTS searches on from the tree
    of its last move in this game (the move and the reply played since are in it).
    A ``table`` (:func:`plies.lab.search_table`) is searched on and kept for the next
    move, as a match's players keep one. On a ``clock`` (the player to move's reading,
    :mod:`plies.lab._clock`) no depth starts once the move's budget is spent, and the
    search stops at its limit, in place of the options' time (MCTS, which has no
    depths, stops at the budget). Raises :class:`RoomError` when the game is over or a
    chance event is due."""
    _need_room(room)
    options = _options(options, limits, algorithm, backend)
    soft = None
    if clock is not None:
        need_object(clock, ClockReading, "clock")
        if options.algorithm == "mcts":
            options = replace(options, time=clock.budget)
        else:
            options = replace(options, time=clock.limit)
            soft = clock.budget
    if book is not None:
        need_object(book, Book, "book")
    need_player_to_move(room)
    game, state = room.game, room.state
    known = book.answer(state, moves="best") if book is not None else None
    if known is not None:
        text = game.format_move(state, known.best_move)
        return EngineMove(known.best_move, text, _book_note(known), book=known)
    *_, (found, _) = _deepen(room, options, None, table, soft)  # what the web room plays too
    result = found.result
    text = game.format_move(state, result.best_move)
    return EngineMove(result.best_move, text, _search_note(found), search=result)


def play_engine_move(room: Room, chosen: EngineMove) -> Room:
    """``room`` after the engine's move ``chosen`` (from :func:`engine_move`)."""
    _need_room(room)
    need_object(chosen, EngineMove, "chosen")
    return _after(room, chosen.move)
