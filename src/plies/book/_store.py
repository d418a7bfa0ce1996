"""The book file: an SQLite database (stdlib :mod:`sqlite3`) and what reads it.

Three tables::

    meta(name, value)            format, game, game_repr, plies, root (POSITION text
                                 of the book's first position, '' for the start),
                                 root_key (its canonical key),
                                 enumerated, solve_wall (seconds the leaf solves took,
                                 wall clock)
    positions(id, key, level, position, leaf, value, seconds)
    levels(level, positions, enumerate_seconds, derive_seconds)

One row of ``positions`` per *canonical key* (:meth:`~plies.game.BaseGame.canonical_key`
as ``repr`` text): mirror images and transpositions are stored once, at the shallowest
``level`` where they occur (plies from the book's root: the start, unless it was built
from a POSITION). ``position`` is the POSITION text of the first state met with that
key (``parse_position`` reads it back), ``leaf`` says whether its value comes from a
solve (the deepest level, or a finished game) or from its children, ``value`` is the
exact engine score for the side to move (see :mod:`plies.engine`: ``u * WIN - d`` for
a win in ``d`` plies, ``u * WIN + d`` for a loss, 0 for a draw), NULL until known, and
``seconds`` the time its solve took.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.errors import PliesError, UnknownGameError
from plies.game import BaseGame
from plies.games import parse_game_spec

__all__ = ["FORMAT", "BookError", "BookStats", "LevelStats", "connect", "key_text", "read_meta"]

#: Seconds a connection waits for another one's lock on the file before giving up.
BUSY_SECONDS = 10.0

#: The ``format`` of the books this version writes and reads.
FORMAT = "plies-book-1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS positions (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    level INTEGER NOT NULL,
    position TEXT NOT NULL,
    leaf INTEGER NOT NULL,
    value INTEGER,
    seconds REAL
);
CREATE TABLE IF NOT EXISTS levels (
    level INTEGER PRIMARY KEY,
    positions INTEGER NOT NULL,
    enumerate_seconds REAL NOT NULL,
    derive_seconds REAL
);
"""


#: The tables of a book (see :data:`SCHEMA`).
TABLES = frozenset({"meta", "positions", "levels"})


class BookError(PliesError):
    """A book file that cannot be used: missing, not SQLite, not a plies book, or a
    book of another game or depth."""


def key_text(game: BaseGame[Any, Any], state: Any) -> str:
    """The canonical key of ``state`` as the book stores it (``repr`` of the key)."""
    key: Hashable = game.canonical_key(state)
    return repr(key)


def connect(path: str | Path, *, create: bool = False) -> sqlite3.Connection:
    """An SQLite connection to the book at ``path`` (read-only unless ``create``).

    Raises :class:`BookError` for a missing file (when not creating), one that is
    not SQLite, or (when creating) an SQLite database that is not a plies book: its
    tables are left as they are. A writer uses WAL with ``synchronous=NORMAL``: each
    result is committed as it arrives, and a killed build loses at most the row being
    written.
    """
    path = Path(path)
    if create and not path.parent.is_dir():
        raise BookError(f"cannot write book {path}: no such directory {path.parent}")
    try:
        if create:
            connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS)
            _check_writable_book(connection, path)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.executescript(SCHEMA)
        else:
            if not path.is_file():
                raise BookError(f"book not found: {path}")
            uri = f"{path.resolve().as_uri()}?mode=ro"
            connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_SECONDS)
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            raise BookError(f"book {path} is in use by another process: {exc}") from None
        raise BookError(f"{path} is not an opening book: {exc}") from None
    except sqlite3.DatabaseError as exc:
        raise BookError(f"{path} is not an opening book: {exc}") from None
    except OSError as exc:
        raise BookError(f"cannot open book {path}: {exc}") from None
    return connection


def _check_writable_book(connection: sqlite3.Connection, path: Path) -> None:
    """:class:`BookError` (the connection closed) unless the database at ``path`` is
    empty or a plies book: a build must not add its tables to another program's
    database, nor turn on its write-ahead log."""
    tables = {
        str(name)
        for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    if not tables:
        return
    formats: list[tuple[Any, ...]] = [("?",)]
    if tables <= TABLES and "meta" in tables:
        with contextlib.suppress(sqlite3.DatabaseError):  # a table meta of another shape
            formats = connection.execute("SELECT value FROM meta WHERE name = 'format'").fetchall()
    # A book, or the tables of one whose build was killed before its meta was written.
    if formats != [(FORMAT,)] and not (tables == TABLES and not formats):
        connection.close()
        shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise BookError(
            f"{path} is an SQLite database but not a plies book (its tables: {shown}); "
            "it is left as it is: build into a new file"
        )


def read_meta(connection: sqlite3.Connection, path: str | Path) -> dict[str, str]:
    """The ``meta`` table of a book (empty for a new file); :class:`BookError` if the
    file is SQLite but not a plies book."""
    try:
        rows = connection.execute("SELECT name, value FROM meta").fetchall()
    except sqlite3.DatabaseError as exc:
        raise BookError(f"{path} is not an opening book: {exc}") from None
    meta = {str(name): str(value) for name, value in rows}
    if meta and meta.get("format") != FORMAT:
        raise BookError(f"{path} is not an opening book of this plies ({meta.get('format')!r})")
    return meta


def check_game(meta: dict[str, str], game: BaseGame[Any, Any], path: str | Path) -> None:
    """:class:`BookError` unless the book at ``path`` (its ``meta``) is of ``game``."""
    if meta.get("game_repr") != repr(game):
        raise BookError(f"{path} is a book of {meta.get('game')}, not of {game.name}")


def game_of(meta: dict[str, str], path: str | Path) -> BaseGame[Any, Any]:
    """The game a book's ``meta`` names."""
    if "game" not in meta:
        raise BookError(f"{path} is not an opening book (no game recorded)")
    try:
        return parse_game_spec(meta["game"])
    except UnknownGameError as exc:
        raise BookError(f"{path}: {exc}") from None


@dataclass(frozen=True)
class LevelStats:
    """One level of a book: its positions, leaves (solved, not derived), how many
    have a value, the seconds its leaves' solves took (summed over workers), the
    seconds enumerating it and deriving its values from the next took (None: not yet)."""

    level: int
    positions: int
    leaves: int
    solved: int
    solve_seconds: float
    enumerate_seconds: float
    derive_seconds: float | None


@dataclass(frozen=True)
class BookStats:
    """What ``plies book stats`` shows: the game, the depth, the file size, whether
    every position has its value, the wall-clock seconds of the leaf solves (all runs),
    and one :class:`LevelStats` per level."""

    path: str
    game: str
    plies: int
    file_bytes: int
    #: The POSITION the book starts from ('' for the start of the game).
    root: str
    complete: bool
    solve_wall_seconds: float
    levels: tuple[LevelStats, ...]

    @property
    def positions(self) -> int:
        """Positions in the book."""
        return sum(level.positions for level in self.levels)

    @property
    def solved(self) -> int:
        """Positions whose value is known."""
        return sum(level.solved for level in self.levels)


def read_stats(connection: sqlite3.Connection, meta: dict[str, str], path: Path) -> BookStats:
    """The :class:`BookStats` of an open book."""
    rows = connection.execute(
        "SELECT level, count(*), sum(leaf), count(value), "
        "coalesce(sum(seconds), 0) FROM positions GROUP BY level ORDER BY level"
    ).fetchall()
    timing = {
        level: (enumerated, derived)
        for level, enumerated, derived in connection.execute(
            "SELECT level, enumerate_seconds, derive_seconds FROM levels"
        )
    }
    levels = tuple(
        LevelStats(
            level=level,
            positions=count,
            leaves=leaves or 0,
            solved=solved,
            solve_seconds=float(seconds),
            enumerate_seconds=float(timing.get(level, (0.0, None))[0]),
            derive_seconds=timing.get(level, (0.0, None))[1],
        )
        for level, count, leaves, solved, seconds in rows
    )
    total = sum(level.positions for level in levels)
    return BookStats(
        path=str(path),
        game=meta.get("game", "?"),
        plies=int(meta.get("plies", "0")),
        file_bytes=_file_bytes(path),
        root=meta.get("root", ""),
        complete=meta.get("enumerated") == "1"
        and total > 0
        and sum(level.solved for level in levels) == total,
        solve_wall_seconds=float(meta.get("solve_wall", "0")),
        levels=levels,
    )


def _file_bytes(path: Path) -> int:
    """The size of the book with its write-ahead log, if one is left."""
    size = 0
    for part in (path, path.with_name(path.name + "-wal")):
        if part.exists():
            size += part.stat().st_size
    return size
