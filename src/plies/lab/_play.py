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

from dataclasses import dataclass
from typing import Any

from plies.book import Book
from plies.engine import DEFAULT_ALGORITHM, Limits, SearchResult, SolveResult, search
from plies.game import BaseGame
from plies.lab._room import Room, RoomError, _after, _need_room
from plies.lab._search import need
from plies.lab._text import format_score, score_of

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


def _search_note(game: BaseGame[Any, Any], result: SearchResult) -> str:
    return (
        f"score {format_score(score_of(game, result))}, depth {result.depth}, "
        f"{result.stats.nodes:,} nodes, {result.stats.time:.2f} s"
    )


def engine_move(
    room: Room,
    *,
    limits: Limits,
    algorithm: str = DEFAULT_ALGORITHM,
    backend: str | None = None,
    book: Book | None = None,
) -> EngineMove:
    """The engine's move in the room's position: the ``book``'s best move when it knows
    the position, else a search within ``limits`` (see :func:`plies.engine.search`).
    Raises :class:`RoomError` when the game is over or a chance event is due."""
    _need_room(room)
    need(limits, Limits, "limits")
    if book is not None:
        need(book, Book, "book")
    game, state = room.game, room.state
    if game.is_terminal(state):
        raise RoomError(f"{game.name}: the game is over, there is nothing to search")
    if room.is_chance():
        raise RoomError(f"{game.name}: a chance event is due first (roll)")
    known = book.answer(state, moves="best") if book is not None else None
    if known is not None:
        text = game.format_move(state, known.best_move)
        return EngineMove(known.best_move, text, _book_note(known), book=known)
    result = search(game, state, limits=limits, algorithm=algorithm, backend=backend)
    text = game.format_move(state, result.best_move)
    return EngineMove(result.best_move, text, _search_note(game, result), search=result)


def play_engine_move(room: Room, chosen: EngineMove) -> Room:
    """``room`` after the engine's move ``chosen`` (from :func:`engine_move`)."""
    _need_room(room)
    need(chosen, EngineMove, "chosen")
    return _after(room, chosen.move)
