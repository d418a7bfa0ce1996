"""``plies book build|stats`` and ``--book`` on solve, analyze and play: the book's
answers equal the solver's, the count of answers is said, a killed build resumes."""

from __future__ import annotations

import io
import json
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from cli_errors import assert_one_line_error, run
from cluster_helpers import plies_env
from plies.engine import NativeTable, solve
from plies.games import parse_game_spec

C4 = "connect4:width=5,height=4"


@pytest.fixture(scope="module")
def c4_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Connect Four 5 x 4 book to 4 plies, built by the command."""
    path = tmp_path_factory.mktemp("book") / "c4.sqlite"
    from plies.cli import main

    assert main(["book", "build", C4, "--plies", "4", "--out", str(path)]) == 0
    return path


def test_build_prints_the_stats_and_stats_prints_them_again(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "ttt.sqlite"
    status, out, err = run(capsys, "book", "build", "tictactoe", "--plies", "3", "--out", str(path))
    assert status == 0, err
    assert "solving 252 leaves" in err
    assert "positions 334, solved 334, complete" in out
    status, again, _ = run(capsys, "book", "stats", str(path))
    assert status == 0 and again == out
    assert again.splitlines()[1:3] == ["game tictactoe", "plies 3"]
    level_rows = again.splitlines()[-4:]
    assert [row.split()[:4] for row in level_rows] == [
        ["0", "1", "0", "1"],
        ["1", "9", "0", "9"],
        ["2", "72", "0", "72"],
        ["3", "252", "252", "252"],
    ]
    # Built again: nothing left to do, the same book.
    assert run(capsys, "book", "build", "tictactoe", "--plies", "3", "--out", str(path))[1] == out


@pytest.mark.parametrize("position", ["", "3", "5", "34", "251"])
def test_solve_with_a_book_answers_as_the_solver_does(
    capsys: pytest.CaptureFixture[str], c4_book: Path, position: str
) -> None:
    status, plain, _ = run(capsys, "solve", C4, position, "--json")
    assert status == 0
    status, booked, err = run(capsys, "solve", C4, position, "--json", "--book", str(c4_book))
    assert status == 0
    assert err == f"book: 1 of 1 positions answered from {c4_book}\n"
    expected, got = json.loads(plain), json.loads(booked)
    assert got["backend"] == "book"
    for field in ("result", "score", "best_moves"):
        assert got[field] == expected[field]
    if expected["result"] != "draw":  # a draw's line is one of many
        assert got["distance"] == expected["distance"]


def test_at_the_deepest_level_the_book_gives_the_value_not_the_moves(
    capsys: pytest.CaptureFixture[str], c4_book: Path
) -> None:
    book = ["--book", str(c4_book)]
    status, out, err = run(capsys, "solve", C4, "2514", "--moves", "none", "--json", *book)
    assert status == 0 and json.loads(out)["backend"] == "book"
    assert err == f"book: 1 of 1 positions answered from {c4_book}\n"
    status, out, err = run(capsys, "solve", C4, "2514", "--json", *book)  # every best move
    assert status == 0 and json.loads(out)["backend"] == "native"
    assert err == f"book: 0 of 1 positions answered from {c4_book}\n"


def test_solve_batch_with_a_book_says_how_many_lines_it_answered(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, c4_book: Path
) -> None:
    batch = tmp_path / "lines.txt"
    batch.write_text("3\n12\n\n34125\n1\n5 -2\n")  # 34125 is deeper than the book
    status, plain, _ = run(capsys, "solve", C4, "--batch", str(batch))
    assert status == 1  # the expected score of the last line is wrong
    status, booked, err = run(capsys, "solve", C4, "--batch", str(batch), "--book", str(c4_book))
    assert status == 1 and booked == plain
    assert f"book: 4 of 5 positions answered from {c4_book}" in err


def test_analyze_with_a_book(capsys: pytest.CaptureFixture[str], c4_book: Path) -> None:
    status, out, err = run(capsys, "analyze", C4, "34", "--book", str(c4_book))
    assert status == 0
    solved = json.loads(run(capsys, "solve", C4, "34", "--json")[1])
    lines = out.splitlines()
    assert lines[0].startswith("info book score ")
    assert lines[1].split()[1] in solved["best_moves"]
    assert err == f"book: 1 of 1 positions answered from {c4_book}\n"
    # At the deepest level the book knows no best move: analyze searches.
    status, out, err = run(capsys, "analyze", C4, "3412", "--depth", "2", "--book", str(c4_book))
    assert status == 0 and out.startswith("info depth 1")
    assert err == f"book: 0 of 1 positions answered from {c4_book}\n"


def test_analyze_batch_with_a_book(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, c4_book: Path
) -> None:
    batch = tmp_path / "lines.txt"
    batch.write_text("3\n3412\n")
    status, out, err = run(
        capsys, "analyze", C4, "--batch", str(batch), "--depth", "2", "--book", str(c4_book)
    )
    assert status == 0, err
    first, second = out.splitlines()
    assert first.startswith("3 ") and first.endswith(" book")
    assert second.startswith("3412 ") and second.endswith(" 2")
    assert f"book: 1 of 2 positions answered from {c4_book}" in err


def test_play_with_a_book(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, c4_book: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n2\n4\n"))
    status, out, err = run(capsys, "play", C4, "--book", str(c4_book), "--depth", "2")
    assert status == 1  # the input ended
    assert out.count("[book: ") == 2  # after 1 and 3 plies; at 5 the engine searched
    assert f"book: 2 of 3 engine moves answered from {c4_book}" in err


def test_bad_books_and_options_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, c4_book: Path
) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("no database here\n" * 200)
    for argv in (
        ["solve", C4, "3", "--book", str(junk)],
        ["solve", "connect4", "3", "--book", str(c4_book)],
        ["solve", C4, "--batch", str(junk), "--book", str(tmp_path / "missing")],
        ["analyze", C4, "3", "--book", str(junk)],
        ["play", "tictactoe", "--book", str(c4_book)],
        ["book", "stats", str(junk)],
        ["book", "stats", str(c4_book), "--plies", "3"],
        ["book", "build", C4, "--out", str(tmp_path / "x.sqlite")],
        ["book", "build", C4, "--plies", "2"],
        ["book", "build", C4, "--plies", "5", "--out", str(c4_book)],
        ["book", "build", "pig", "--plies", "2", "--out", str(tmp_path / "p.sqlite")],
        ["book", "build", C4, "--plies", "2", "--out", str(junk)],
    ):
        assert_one_line_error(capsys, argv)


def test_a_killed_build_resumes_to_the_direct_solves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "c4.sqlite"
    command = [sys.executable, "-m", "plies", "book", "build", C4, "--plies", "7"]
    builder = subprocess.Popen(
        [*command, "--out", str(path)],
        env=plies_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and builder.poll() is None:
            if solved(path) >= 20:
                break
            time.sleep(0.02)
        builder.send_signal(signal.SIGKILL)
    finally:
        builder.wait(30)
    assert builder.returncode == -signal.SIGKILL
    before = solved(path)
    status, out, err = run(capsys, *command[3:], "--out", str(path))
    assert status == 0, err
    assert "complete" in out and "level 0: 1 positions" not in err  # not enumerated again
    with closing(sqlite3.connect(path)) as connection:
        total = connection.execute("SELECT count(*) FROM positions").fetchone()[0]
        sample = connection.execute(
            "SELECT position, value FROM positions ORDER BY id % 101, id LIMIT 60"
        ).fetchall()
    assert 20 <= before < total  # killed mid-build
    game = parse_game_spec(C4)
    table = NativeTable(1 << 16)
    for position, value in sample:
        table.clear()
        assert solve(game, game.parse_position(position), table=table).value == value, position


def solved(path: Path) -> int:
    """Positions with a value in the book being built (0 before its leaves start)."""
    if not path.exists():
        return 0
    try:
        with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as connection:
            return int(connection.execute("SELECT count(value) FROM positions").fetchone()[0])
    except sqlite3.DatabaseError:
        return 0
