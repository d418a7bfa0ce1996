"""Building a book: enumerate the positions, solve the leaves, derive the rest.

Step 1. *Enumerate* every position up to ``plies`` plies from the start, level by
level, one row per canonical key (mirror images and transpositions once), in one
transaction: a build killed here starts again from scratch (it takes seconds).

Step 2. *Solve the leaves*: the positions of the deepest level and the finished games
above it, by :func:`plies.engine.solve` (value only), through
:func:`plies.cluster.run_lines`: here, or on a Dask cluster (``workers``,
``scheduler``). Each result is committed as it arrives; a build run again solves only
the leaves still without a value.

Step 3. *Derive* every other position, deepest level first, by negamax over the book:
a position's value is the best over its moves of the child's value negated and one
ply further (:func:`~plies.book.child_score`). All its children are in the book (one ply
deeper at most), so this is exact, and it costs a few microseconds a position where a
solve of the same position would cost the whole subtree: only the leaves are searched.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.book._reader import child_score
from plies.book._store import (
    FORMAT,
    BookError,
    BookStats,
    check_game,
    connect,
    key_text,
    read_meta,
    read_stats,
)
from plies.cluster import LineResult, run_lines
from plies.engine import (
    NativeTable,
    TranspositionTable,
    choose_backend,
    solve,
    table_for,
    warm_up,
)
from plies.errors import PliesError, SearchError
from plies.game import BaseGame
from plies.games import parse_game_spec

__all__ = ["MAX_PLIES", "BookLeaves", "build_book"]

#: The deepest book :func:`build_book` accepts, in plies.
MAX_PLIES = 64
#: Distinct positions a book may hold: enumerating them keeps each in memory (about
#: 400 bytes apiece), so a book too deep is refused as it grows, not after it has
#: taken the memory (7 x 6 Connect Four passes it at level 10: 0.4 GB by then).
MAX_POSITIONS = 1_000_000

Report = Callable[[str], None]


def build_book(
    game_spec: str,
    path: str | Path,
    *,
    plies: int,
    position: str = "",
    workers: int | None = None,
    scheduler: str | None = None,
    backend: str | None = None,
    table_size: int | None = None,
    stop: threading.Event | None = None,
    report: Report | None = None,
) -> BookStats:
    """Build (or go on building) the book of ``game_spec`` to ``plies`` plies at ``path``.

    ``game_spec`` is GAME as the command line takes it (``connect4:width=5,height=4``):
    Dask workers rebuild the game from it. ``position`` (POSITION text, default the
    start) roots the book elsewhere: it then holds the positions up to ``plies`` plies
    after it. A file that already holds a book of the same game, root and depth is
    resumed: only what it lacks is computed. ``workers`` or
    ``scheduler`` solve the leaves on a Dask cluster (see :func:`plies.cluster.run_lines`);
    ``backend`` and ``table_size`` choose the solver as for :func:`plies.engine.solve`.
    ``stop`` (an Event, set by Ctrl-C) ends the build early with what is committed
    kept; ``report`` receives one line per step. Returns the book's statistics.

    Raises :class:`~plies.book.BookError` for a file that is not a book, or a book of
    another game, root or depth, :class:`~plies.errors.SearchError` for a game with
    chance, the game's errors for a bad ``position``.
    """
    if not 0 <= plies <= MAX_PLIES:
        raise PliesError(f"--plies must be between 0 and {MAX_PLIES}, not {plies}")
    game = parse_game_spec(game_spec)
    if game.has_chance:
        raise SearchError(f"{game.name}: a book needs a game without chance")
    choose_backend(game, backend)  # an impossible --backend fails before any work
    root = game.parse_position(position)
    position = "" if root == game.initial_state() else " ".join(position.split())
    path = Path(path)
    stop = stop if stop is not None else threading.Event()
    say = report if report is not None else (lambda _line: None)
    connection = connect(path, create=True)
    try:
        meta = _start(connection, game, path, plies, position)
        if meta.get("enumerated") != "1":
            _enumerate(connection, game, root, plies, say)
        job = BookLeaves(
            game_spec=game_spec,
            backend=backend,
            table_size=table_size,
        )
        _solve_leaves(connection, job, workers=workers, scheduler=scheduler, stop=stop, say=say)
        if not stop.is_set():
            _derive(connection, game, plies, say)
            connection.execute("PRAGMA journal_mode=DELETE")  # one file again
        return read_stats(connection, read_meta(connection, path), path)
    except sqlite3.DatabaseError as exc:
        raise BookError(f"{path}: {exc}") from None
    finally:
        connection.close()


def _start(
    connection: sqlite3.Connection,
    game: BaseGame[Any, Any],
    path: Path,
    plies: int,
    position: str,
) -> dict[str, str]:
    root_key = key_text(game, game.parse_position(position))
    """Check a book being resumed, or write the ``meta`` of a new one."""
    meta = read_meta(connection, path)
    if meta:
        check_game(meta, game, path)
        if int(meta.get("plies", "-1")) != plies:
            raise BookError(
                f"{path} is a book to {meta.get('plies')} plies, not {plies}: "
                "resume it with the same --plies, or build into a new file"
            )
        if meta.get("root_key", "") != root_key:
            raise BookError(
                f"{path} is a book from position {meta.get('root')!r}, not {position!r}"
            )
        return meta
    with connection:
        connection.execute("BEGIN")
        connection.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [
                ("format", FORMAT),
                ("game", game.name),
                ("game_repr", repr(game)),
                ("plies", str(plies)),
                ("root", position),
                ("root_key", root_key),
                ("enumerated", "0"),
                ("solve_wall", "0"),
            ],
        )
    return read_meta(connection, path)


def _enumerate(
    connection: sqlite3.Connection,
    game: BaseGame[Any, Any],
    start: Any,
    plies: int,
    say: Report,
) -> None:
    """Step 1: every position to ``plies`` plies from ``start``, once per canonical
    key, in one transaction."""
    seen = {key_text(game, start)}
    level_states = [start]
    rows: list[tuple[str, int, str, int]] = []
    timings: list[tuple[int, int, float]] = []
    for level in range(plies + 1):
        started = time.perf_counter()
        following = []
        for state in level_states:
            leaf = level == plies or game.terminal_value(state) is not None
            rows.append((key_text(game, state), level, game.format_position(state), int(leaf)))
            if leaf:
                continue
            for move in game.legal_moves(state):
                child = game.play(state, move)
                key = key_text(game, child)
                if key not in seen:
                    seen.add(key)
                    following.append(child)
                    if len(seen) > MAX_POSITIONS:
                        raise BookError(
                            f"{game.name}: a book of {plies} plies holds more than "
                            f"{MAX_POSITIONS:,} positions (passed at level {level + 1}); "
                            "build fewer plies"
                        )
        timings.append((level, len(level_states), time.perf_counter() - started))
        say(f"level {level}: {len(level_states):,} positions")
        level_states = following
        if not level_states:
            break
    with connection:
        connection.execute("BEGIN")
        connection.execute("DELETE FROM positions")
        connection.execute("DELETE FROM levels")
        connection.executemany(
            "INSERT INTO positions (key, level, position, leaf) VALUES (?, ?, ?, ?)", rows
        )
        connection.executemany(
            "INSERT INTO levels (level, positions, enumerate_seconds) VALUES (?, ?, ?)", timings
        )
        connection.execute("UPDATE meta SET value = '1' WHERE name = 'enumerated'")


def _solve_leaves(
    connection: sqlite3.Connection,
    job: BookLeaves,
    *,
    workers: int | None,
    scheduler: str | None,
    stop: threading.Event,
    say: Report,
) -> None:
    """Step 2: solve the leaves without a value, committing each result."""
    items = [
        (int(row_id), str(position))
        for row_id, position in connection.execute(
            "SELECT id, position FROM positions WHERE leaf = 1 AND value IS NULL ORDER BY id"
        )
    ]
    if not items:
        return
    say(f"solving {len(items):,} leaves")
    started = time.perf_counter()
    wall_before = float(
        connection.execute("SELECT value FROM meta WHERE name = 'solve_wall'").fetchone()[0]
    )

    def store(result: LineResult) -> None:
        if result.error is not None or result.output is None:
            raise PliesError(f"book: a leaf could not be solved: {result.error}")
        _, value = result.output.split()
        wall = wall_before + time.perf_counter() - started
        with connection:
            connection.execute("BEGIN")
            connection.execute(
                "UPDATE positions SET value = ?, seconds = ? WHERE id = ?",
                (int(value), result.seconds, result.number),
            )
            connection.execute("UPDATE meta SET value = ? WHERE name = 'solve_wall'", (repr(wall),))

    run_lines(items, job, emit=store, stop=stop, workers=workers, scheduler=scheduler)
    say(f"leaves solved in {time.perf_counter() - started:.2f} s")


def _derive(
    connection: sqlite3.Connection, game: BaseGame[Any, Any], plies: int, say: Report
) -> None:
    """Step 3: the value of every other position from its children's, deepest first."""
    values: dict[str, int] = {
        str(key): int(value)
        for key, value in connection.execute(
            "SELECT key, value FROM positions WHERE value IS NOT NULL"
        )
    }
    for level in range(plies - 1, -1, -1):
        rows = connection.execute(
            "SELECT id, key, position FROM positions WHERE level = ? AND value IS NULL",
            (level,),
        ).fetchall()
        if not rows:
            continue
        started = time.perf_counter()
        updates = []
        for row_id, key, position in rows:
            value = _negamax(game, game.parse_position(position), str(key), values, set())
            updates.append((value, row_id))
        with connection:
            connection.execute("BEGIN")
            connection.executemany("UPDATE positions SET value = ? WHERE id = ?", updates)
            connection.execute(
                "UPDATE levels SET derive_seconds = ? WHERE level = ?",
                (time.perf_counter() - started, level),
            )
        say(f"level {level}: {len(rows):,} values derived")


def _negamax(
    game: BaseGame[Any, Any], state: Any, key: str, values: dict[str, int], path: set[str]
) -> int:
    """The value of ``state`` (key ``key``) from the values of its children in
    ``values``, derived recursively where a child has none yet (in games where a
    position can recur at its own level, as heaps do in Nim); memoised in ``values``."""
    known = values.get(key)
    if known is not None:
        return known
    if key in path:
        raise BookError(f"{game.name}: a position repeats; a book needs a game without cycles")
    path.add(key)
    best: int | None = None
    for move in game.legal_moves(state):
        child = game.play(state, move)
        score = child_score(_negamax(game, child, key_text(game, child), values, path))
        if best is None or score > best:
            best = score
    path.discard(key)
    if best is None:
        raise BookError(f"{game.name}: a position without moves has no value in the book")
    values[key] = best
    return best


# -- the leaves' job --------------------------------------------------------------------


@dataclass(frozen=True)
class BookLeaves:
    """The line job of a book's leaves (:class:`plies.cluster.LineJob`): a line is the
    POSITION text of a leaf, numbered by its row id, and its output ``<id> <value>``,
    the exact engine score. Each worker keeps its solver's table between leaves: its
    entries hold for any root (keys name positions, win distances count from the
    entry's node), and neighbours share subtrees (it halves the nodes of a 5 x 4
    Connect Four book)."""

    game_spec: str
    backend: str | None = None
    table_size: int | None = None

    def warm(self) -> None:
        """Build the game and the table and load the solver, once per process
        (:func:`plies.engine.warm_up`)."""
        game, table = _solver(self)
        warm_up(game, table)

    def threads(self) -> bool:
        """Yes on the native backend: its kernel releases the GIL (a table per thread)."""
        return isinstance(_solver(self)[1], NativeTable)

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """Solve the leaf ``text`` (row ``number``); ``stop`` abandons it."""
        game, table = _solver(self)
        try:
            state = game.parse_position(text)
            solved = solve(game, state, table=table, moves="none", stop=stop)
        except PliesError as exc:
            if stop is not None and stop.is_set():
                return LineResult(number, abandoned=True)
            return LineResult(number, error=f"{text}: {exc}")
        stats = solved.stats
        return LineResult(
            number, output=f"{number} {int(solved.value)}", nodes=stats.nodes, seconds=stats.time
        )

    def item_key(self, number: int, text: str) -> str:
        """The row id."""
        return str(number)

    def output_key(self, output: str) -> str:
        """The row id an output line answers."""
        return output.split(" ", 1)[0]


_SOLVERS = threading.local()


def _solver(job: BookLeaves) -> tuple[BaseGame[Any, Any], TranspositionTable | NativeTable]:
    """The game and table of ``job``, made once per process and thread."""
    made: dict[BookLeaves, Any] = _SOLVERS.__dict__.setdefault("made", {})
    if job not in made:
        game = parse_game_spec(job.game_spec)
        made.clear()
        made[job] = game, table_for(game, job.backend, job.table_size)
    return made[job]  # type: ignore[no-any-return]
