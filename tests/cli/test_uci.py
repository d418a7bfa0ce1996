"""``plies uci`` as a real subprocess, driven by python-chess's UCI client (the way a
GUI drives it) and by raw lines where the client would hide what is sent."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

chess = pytest.importorskip("chess")
chess_engine = pytest.importorskip("chess.engine")

SRC = str(Path(__file__).resolve().parents[2] / "src")
COMMAND = [sys.executable, "-m", "plies", "uci"]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture
def engine() -> Iterator[chess_engine.SimpleEngine]:
    client = chess_engine.SimpleEngine.popen_uci(COMMAND, env=environment(), timeout=30)
    try:
        yield client
    finally:
        client.quit()


def test_identifies_itself_with_the_hash_option(engine: chess_engine.SimpleEngine) -> None:
    assert engine.id["name"].startswith("plies")
    assert "author" in engine.id
    option = engine.options["Hash"]
    assert option.type == "spin"
    assert option.min == 1
    engine.configure({"Hash": 16})


def test_plays_a_short_game_with_movetime_and_depth(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board()
    for ply in range(8):
        limit = chess_engine.Limit(time=0.1) if ply % 2 else chess_engine.Limit(depth=2)
        result = engine.play(board, limit)
        assert result.move in board.legal_moves
        board.push(result.move)
    assert len(board.move_stack) == 8


def warmed(engine: chess_engine.SimpleEngine, board: Any, game: str) -> None:
    """Start ``game`` with a one-ply move: its ``ucinewgame`` and ``isready`` (which
    loads the search, from Numba's cache or compiling it on a clean machine, outside
    any clock, as GUIs send it) are behind; later moves of ``game`` are timed alone."""
    engine.play(board, chess_engine.Limit(depth=1), game=game)


def test_movetime_is_honoured(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    warmed(engine, board, "honoured")
    started = time.perf_counter()
    result = engine.play(board, chess_engine.Limit(time=0.5), game="honoured")
    elapsed = time.perf_counter() - started
    assert result.move in board.legal_moves
    assert elapsed < 0.5 + 0.4  # generous: the pipe and a loaded CI machine


def test_a_clock_is_never_overstepped(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board()
    warmed(engine, board, "clock")
    started = time.perf_counter()
    result = engine.play(board, chess_engine.Limit(white_clock=1.0, black_clock=1.0), game="clock")
    assert time.perf_counter() - started < 1.0
    assert result.move in board.legal_moves


def test_analysis_info_parses(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board()
    info = engine.analyse(board, chess_engine.Limit(depth=3))
    assert info["depth"] == 3
    assert info["seldepth"] >= 3
    assert info["nodes"] > 0
    assert "nps" in info
    assert "time" in info
    assert isinstance(info["score"], chess_engine.PovScore)
    assert info["score"].white().score() is not None
    assert info["pv"] and info["pv"][0] in board.legal_moves


def test_mate_is_reported_as_mate(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")  # mate in 2
    info = engine.analyse(board, chess_engine.Limit(depth=4))
    assert info["score"].relative == chess_engine.Mate(2)
    board.push_san("Rb7")
    info = engine.analyse(board, chess_engine.Limit(depth=4))
    assert info["score"].relative == chess_engine.Mate(-1)


def test_stop_ends_an_infinite_search_at_once(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        started = time.perf_counter()
        analysis.stop()
        best = analysis.wait()
        elapsed = time.perf_counter() - started
    assert best.move in board.legal_moves
    assert elapsed < 0.5  # 50 ms is the aim; a generous bound for loaded machines


def test_game_over_positions_have_no_best_move(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    result = engine.play(board, chess_engine.Limit(depth=2))
    assert result.move is None


def talk(lines: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``plies uci`` on ``lines`` (stdin closed after them)."""
    return subprocess.run(
        COMMAND,
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        env=environment(),
        timeout=60,
        check=False,
    )


def test_garbage_lines_get_a_line_each_and_quit_ends() -> None:
    done = talk(
        [
            "hello there",
            "",
            "   ",
            "\x00\x01 binary",
            "uci",
            "go banana depth 1",
            "setoption name Nope value 3",
            "setoption name Hash value 0",
            "position fen not/a/fen w - - 0 1",
            "position startpos moves e2e4 e7e5 e1e3",
            "position",
            "isready",
            "go depth 1",  # the last position was rejected: none to search
            "position startpos moves e2e4",
            "go depth 1",
            "isready",
            "quit",
            "isready",  # never read: quit ended the session
        ]
    )
    assert done.returncode == 0
    assert done.stderr == ""
    out = done.stdout.splitlines()
    assert out[:2] == [
        "info string unknown command 'hello there' ignored",
        "info string unknown command '\\x00\\x01 binary' ignored",
    ]
    assert "uciok" in out
    assert out.count("readyok") == 2
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 5
    assert any("e1e3" in line for line in errors)
    assert "info string go: unknown option 'banana' ignored" in out
    best = [line.split()[1] for line in out if line.startswith("bestmove")]
    assert len(best) == 3
    assert chess.Move.from_uci(best[0]) in chess.Board().legal_moves
    assert best[1] == "0000"
    board = chess.Board()
    board.push_san("e4")
    assert chess.Move.from_uci(best[2]) in board.legal_moves  # black's move


def test_end_of_input_ends_the_session() -> None:
    done = talk(["uci", "isready"])
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "readyok"
