"""Opening books (plies.book): every value equals a direct solve, an interrupted build
resumes to the same book, mirror images are stored once, bad files are refused."""

from __future__ import annotations

import random
import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plies.book import Book, BookError, build_book, child_score
from plies.engine import MAX_PLY, WIN, NativeTable, TranspositionTable, solve
from plies.errors import PliesError
from plies.games import parse_game_spec

C4 = "connect4:width=5,height=4"


def rows(path: Path) -> dict[str, tuple[int, str, int]]:
    """key -> (level, position, value) of every position in a book."""
    with closing(sqlite3.connect(path)) as connection:
        return {
            key: (level, position, value)
            for key, level, position, value in connection.execute(
                "SELECT key, level, position, value FROM positions"
            )
        }


def direct_values(spec: str, positions: list[str]) -> list[int]:
    """The engine values of ``positions``, each solved on its own (an emptied table)."""
    game = parse_game_spec(spec)
    table: Any = NativeTable(1 << 16) if hasattr(game, "native") else TranspositionTable(1 << 16)
    values = []
    for position in positions:
        table.clear()
        values.append(int(solve(game, game.parse_position(position), table=table).value))
    return values


class StopAfter(threading.Event):
    """A stop request (what Ctrl-C sets) that comes after ``checks`` looks at it."""

    def __init__(self, checks: int) -> None:
        super().__init__()
        self.checks = checks

    def is_set(self) -> bool:
        self.checks -= 1
        return self.checks < 0 or super().is_set()


@pytest.fixture(scope="module")
def tictactoe_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("book") / "ttt.sqlite"
    build_book("tictactoe", path, plies=9)
    return path


def test_the_full_tictactoe_book_holds_every_position_once(tictactoe_book: Path) -> None:
    stats = Book.open(tictactoe_book).stats()
    # 5,478 legal positions of tic-tac-toe (the published count), per level as well.
    assert stats.positions == 5478 and stats.complete
    counts = [level.positions for level in stats.levels]
    assert counts == [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]


def test_every_tictactoe_value_equals_a_direct_solve(tictactoe_book: Path) -> None:
    stored = rows(tictactoe_book)
    sample = random.Random(13).sample(sorted(stored), 400)
    positions = [stored[key][1] for key in sample]
    assert [stored[key][2] for key in sample] == direct_values("tictactoe", positions)
    game = parse_game_spec("tictactoe")
    with Book.open(tictactoe_book, game) as book:
        answer = book.answer(game.initial_state(), moves="all")
        direct = solve(game, game.initial_state(), moves="all")
        assert answer is not None and answer.backend == "book"
        assert (answer.result, answer.value, answer.best_moves) == (
            direct.result,
            direct.value,
            direct.best_moves,
        )
        assert len(answer.pv) == 9 and book.answered == book.asked == 1


def test_an_interrupted_connect4_book_resumes_to_the_direct_solves(tmp_path: Path) -> None:
    path = tmp_path / "c4.sqlite"
    stats = build_book(C4, path, plies=5, stop=StopAfter(60))
    assert 0 < stats.solved < stats.positions and not stats.complete
    with Book.open(path) as book:
        assert book.stats().solved == stats.solved  # committed, on disk
    stats = build_book(C4, path, plies=5)  # the same call again: resumes
    assert stats.complete and stats.positions == 1 + 3 + 13 + 49 + 177 + 542
    stored = rows(path)
    positions = [position for _, position, _ in stored.values()]
    # A sample of the stored positions, and mirror images of some, which are not.
    sample = [*random.Random(5).sample(positions, 150), "", "5", "54", "455", "1234"]
    game = parse_game_spec(C4)
    with Book.open(path, game) as book:
        in_book = [book.value(game.parse_position(position)) for position in sample]
    assert in_book == direct_values(C4, sample)


def test_a_book_of_nim_derives_positions_that_recur_at_their_own_level(tmp_path: Path) -> None:
    # Heaps (1,2,4) are reached in two plies from (3,4,5) and in three: a position's
    # children may be on its own level; the derivation finds them all the same.
    path = tmp_path / "nim.sqlite"
    build_book("nim", path, plies=3)
    stored = rows(path)
    positions = [position for _, position, _ in stored.values()]
    assert [value for *_, value in stored.values()] == direct_values("nim", positions)


def test_a_book_from_a_position_holds_what_follows_it(tmp_path: Path) -> None:
    path = tmp_path / "c4.sqlite"
    stats = build_book(C4, path, plies=3, position="3 3")
    assert stats.root == "3 3" and stats.levels[0].positions == 1
    stored = rows(path)
    positions = [position for _, position, _ in stored.values()]
    game = parse_game_spec(C4)
    assert all(game.parse_position(p).ply == 2 + level for level, p, _ in stored.values())
    assert [value for *_, value in stored.values()] == direct_values(C4, positions)
    with pytest.raises(BookError, match="from position '3 3', not ''"):
        build_book(C4, path, plies=3)
    assert build_book(C4, path, plies=3, position="33").complete  # the same root


def test_mirror_images_are_stored_once_and_both_answered(tmp_path: Path) -> None:
    path = tmp_path / "c4.sqlite"
    stats = build_book(C4, path, plies=3)
    assert [level.positions for level in stats.levels] == [1, 3, 13, 49]
    game = parse_game_spec(C4)
    with Book.open(path, game) as book:
        for left, right in (("1", "5"), ("12", "54"), ("21", "45")):
            a, b = game.parse_position(left), game.parse_position(right)
            assert book.value(a) == book.value(b) is not None
            # The best moves are the mirror images of each other.
            best_a, best_b = book.best_moves(a), book.best_moves(b)
            assert best_a is not None and best_b is not None
            assert sorted(6 - m for m in best_a) == sorted(best_b)


@given(st.lists(st.integers(1, 7), max_size=30))
def test_connect4_canonical_key_merges_exactly_a_board_and_its_mirror(moves: list[int]) -> None:
    game = parse_game_spec("connect4")
    state = mirror = game.initial_state()
    for move in moves:
        if game.terminal_value(state) is not None or move not in game.legal_moves(state):
            break
        state, mirror = game.play(state, move), game.play(mirror, 8 - move)
    assert game.canonical_key(state) == game.canonical_key(mirror)
    assert game.canonical_key(state) in (game.key(state), game.key(mirror))


@given(
    st.integers(-1000, 1000),  # the utility in thousandths
    st.integers(1, MAX_PLY - 1),  # plies to the end
)
def test_child_score_negates_and_moves_a_result_one_ply_away(milli: int, plies: int) -> None:
    # An engine score: u * WIN - d for a win in d plies, u * WIN + d for a loss, 0 a draw.
    unit = int(WIN) // 1000 * abs(milli)
    value = 0 if milli == 0 else (unit - plies if milli > 0 else plies - unit)
    score = child_score(value)
    assert (score > 0) == (value < 0) and (score < 0) == (value > 0)
    assert score == (0 if milli == 0 else -value + (1 if value > 0 else -1))
    assert abs(score) == unit - plies - 1 or milli == 0  # one ply further from the end


def test_the_parallel_book_equals_the_serial_one(tmp_path: Path, address: str) -> None:
    serial, parallel = tmp_path / "serial.sqlite", tmp_path / "parallel.sqlite"
    build_book(C4, serial, plies=4)
    stats = build_book(C4, parallel, plies=4, scheduler=address)
    assert stats.complete
    assert rows(parallel) == rows(serial)


def test_bad_books_are_refused_in_one_line(tmp_path: Path, tictactoe_book: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all, not even close" * 100)
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).execute("CREATE TABLE t (x)").connection.close()
    cases = [
        (lambda: Book.open(junk), "is not an opening book"),
        (lambda: Book.open(empty), "is not an opening book"),
        (lambda: Book.open(tmp_path / "missing.sqlite"), "book not found"),
        (lambda: Book.open(tictactoe_book, parse_game_spec(C4)), "is a book of tictactoe"),
        (lambda: build_book(C4, tictactoe_book, plies=9), "is a book of tictactoe"),
        (lambda: build_book("tictactoe", tictactoe_book, plies=3), "to 9 plies, not 3"),
        (lambda: build_book("tictactoe", junk, plies=3), "is not an opening book"),
        (lambda: build_book("pig", tmp_path / "pig.sqlite", plies=1), "without chance"),
        (lambda: build_book("tictactoe", tmp_path / "no" / "b.sqlite", plies=1), "no such"),
    ]
    for call, message in cases:
        with pytest.raises(PliesError, match=message) as caught:
            call()
        assert "\n" not in str(caught.value)
    assert issubclass(BookError, PliesError)


def schema_of(path: Path) -> list[tuple[str, str]]:
    """The type and name of everything in an SQLite file, and its journal mode."""
    with closing(sqlite3.connect(path)) as connection:
        found = connection.execute("SELECT type, name FROM sqlite_master ORDER BY name")
        return [
            *found.fetchall(),
            ("journal", connection.execute("PRAGMA journal_mode").fetchone()[0]),
        ]


@pytest.mark.parametrize(
    "tables",
    [
        ["CREATE TABLE contacts (name TEXT, phone TEXT)"],
        ["CREATE TABLE positions (x)"],  # a name a book uses, no more
        [
            "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT)",
            "INSERT INTO meta VALUES ('a', 'b')",
        ],
        ["CREATE TABLE meta (other)"],  # a table meta of another shape
    ],
)
def test_a_build_never_writes_into_another_programs_database(
    tmp_path: Path, tables: list[str]
) -> None:
    other = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(other)) as connection:
        for statement in tables:
            connection.execute(statement)
        connection.commit()
    before, data = schema_of(other), other.read_bytes()
    with pytest.raises(BookError, match="is an SQLite database but not a plies book") as caught:
        build_book("tictactoe", other, plies=2)
    assert "\n" not in str(caught.value)
    assert schema_of(other) == before and other.read_bytes() == data  # untouched


def test_a_build_goes_on_in_an_empty_database_or_a_killed_build(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()  # an SQLite file of no table
    assert build_book("tictactoe", empty, plies=2).complete
    # Killed after the tables were made, before its meta was written.
    killed = tmp_path / "killed.sqlite"
    from plies.book._store import SCHEMA

    with closing(sqlite3.connect(killed)) as connection:
        connection.executescript(SCHEMA)
    assert build_book("tictactoe", killed, plies=2).complete


def test_a_book_too_large_is_refused_as_it_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plies.book import _build

    monkeypatch.setattr(_build, "MAX_POSITIONS", 100)
    with pytest.raises(BookError, match="more than 100 positions"):
        build_book("tictactoe", tmp_path / "big.sqlite", plies=9)
