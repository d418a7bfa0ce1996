"""The UCI protocol module: ``go`` options, the time each move may take, and the
engine in-process (a list for its output): what it answers to what."""

from __future__ import annotations

import threading
import time

import pytest

chess = pytest.importorskip("chess")

from plies.uci import (  # noqa: E402  (python-chess first: the chess game needs it)
    MATE_SECONDS,
    MAX_LINE_CHARS,
    MOVE_OVERHEAD,
    GoOptions,
    UciEngine,
    parse_go,
    time_budget,
    time_limit,
)


def test_go_options() -> None:
    assert parse_go([]) == GoOptions()
    assert parse_go(["depth", "5", "nodes", "1000"]) == GoOptions(depth=5, nodes=1000)
    assert parse_go(
        ["wtime", "60000", "btime", "50000", "winc", "1000", "binc", "500", "movestogo", "20"]
    ) == GoOptions(wtime=60000, btime=50000, winc=1000, binc=500, movestogo=20)
    assert parse_go(["infinite"]).infinite
    assert parse_go(["ponder", "wtime", "10"]) == GoOptions(ponder=True, wtime=10)
    assert parse_go(["mate", "3"]).mate == 3
    assert parse_go(["searchmoves", "e2e4", "d2d4", "depth", "2"]) == GoOptions(
        searchmoves=("e2e4", "d2d4"), depth=2
    )


@pytest.mark.parametrize(
    ("words", "expected", "note"),
    [
        (["depth"], GoOptions(depth=1), "depth needs a whole number, got nothing: taken as 1"),
        (["depth", "x"], GoOptions(depth=1), "got 'x': taken as 1"),
        (["depth", "0"], GoOptions(depth=1), "depth 0 taken as 1"),
        (["movetime", "abc"], GoOptions(movetime=1), "got 'abc'"),
        (["nodes", "-3"], GoOptions(nodes=1), "nodes -3 taken as 1"),
        (["mate", "0"], GoOptions(mate=1), "mate 0 taken as 1"),
        (["nodes", "²"], GoOptions(nodes=1), "got '²'"),  # a digit to isdigit(), not int()
        (["depth", "9" * 5000], GoOptions(depth=1), "5,000 characters"),  # never int()-ed
        (["wtime", "-100"], GoOptions(wtime=0), "wtime -100 taken as 0"),
        (["movestogo", "0"], GoOptions(), "movestogo 0 ignored"),
        (["movestogo", "y"], GoOptions(), "got 'y': ignored"),
        (["banana", "depth", "2"], GoOptions(depth=2), "unknown option 'banana' ignored"),
        (["depth", "depth", "2"], GoOptions(depth=2), "got nothing"),
    ],
)
def test_bad_go_options_are_taken_as_the_least_and_noted(
    words: list[str], expected: GoOptions, note: str
) -> None:
    options = parse_go(words)
    assert options.notes and note in " ".join(options.notes)
    assert GoOptions(**{**options.__dict__, "notes": ()}) == expected


def test_time_budget() -> None:
    assert time_budget(GoOptions(), white=True) is None
    assert time_budget(GoOptions(infinite=True, movetime=100), white=True) is None
    assert time_budget(GoOptions(movetime=1000), white=True) == pytest.approx(1 - MOVE_OVERHEAD)
    clock = GoOptions(wtime=60_000, btime=30_000, winc=1000, movestogo=10)
    assert time_budget(clock, white=True) == pytest.approx(6 + 0.8 - MOVE_OVERHEAD)
    assert time_budget(clock, white=False) == pytest.approx(3 - MOVE_OVERHEAD)
    # Never more than a fifth of what is left, and always something.
    assert time_budget(GoOptions(wtime=1000, winc=5000), white=True) <= 0.2
    assert time_budget(GoOptions(wtime=0), white=True) == 0.01
    assert time_budget(GoOptions(wtime=500, movestogo=1), white=True) == pytest.approx(
        0.4 - MOVE_OVERHEAD
    )
    # Only the other side's clock given: that one; a mate search without a time: capped.
    assert time_budget(GoOptions(wtime=10_000), white=False) == pytest.approx(
        10 / 30 - MOVE_OVERHEAD
    )
    assert time_budget(GoOptions(mate=3), white=True) == MATE_SECONDS
    assert time_budget(GoOptions(mate=3, movetime=500), white=True) == pytest.approx(
        0.5 - MOVE_OVERHEAD
    )


def test_time_limit() -> None:
    # movetime and mate's own seconds are the limit; on a clock an iteration started
    # within the budget may run to three times it, never past a quarter of the clock.
    movetime = GoOptions(movetime=1000)
    assert time_limit(movetime, time_budget(movetime, white=True), white=True) == 1 - MOVE_OVERHEAD
    assert time_limit(GoOptions(mate=3), MATE_SECONDS, white=True) == MATE_SECONDS
    assert time_limit(GoOptions(), None, white=True) is None
    clock = GoOptions(wtime=60_000, btime=30_000, winc=1000, movestogo=10)
    budget = time_budget(clock, white=True)
    assert budget is not None
    assert time_limit(clock, budget, white=True) == pytest.approx(15 - MOVE_OVERHEAD)
    short = GoOptions(wtime=60_000)
    budget = time_budget(short, white=True)
    assert budget is not None
    assert time_limit(short, budget, white=True) == pytest.approx(3 * budget)
    assert time_limit(GoOptions(wtime=0), 0.01, white=True) == 0.01  # never below the budget


# -- the engine in-process -------------------------------------------------------------


class Session:
    """A :class:`UciEngine` whose output is kept; :meth:`go` waits (bounded) for bestmove."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.lock = threading.Lock()
        self.engine = UciEngine(self._send)

    def _send(self, line: str) -> None:
        with self.lock:
            self.out.append(line)

    def tell(self, *lines: str) -> list[str]:
        """Hand over ``lines``; the output they gave at once."""
        start = len(self.out)
        for line in lines:
            self.engine.handle(line)
        return self.out[start:]

    def go(self, command: str, timeout: float = 30) -> list[str]:
        """``command`` (a go); the output up to its bestmove, which must come in time."""
        start = len(self.out)
        self.engine.handle(command)
        end = time.monotonic() + timeout
        while not any(line.startswith("bestmove") for line in self.out[start:]):
            assert time.monotonic() < end, f"no bestmove within {timeout} s: {self.out[start:]}"
            time.sleep(0.005)
        self.engine.stop()
        return self.out[start:]


def bestmove(lines: list[str]) -> str:
    (best,) = [line for line in lines if line.startswith("bestmove")]
    return best.split()[1]


def strings(lines: list[str]) -> str:
    return " | ".join(line for line in lines if line.startswith("info string"))


def test_a_rejected_position_leaves_no_position() -> None:
    session = Session()
    told = session.tell("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e5")
    assert "e2e5" in strings(told)
    answer = session.go("go depth 2")
    assert bestmove(answer) == "0000"  # was g1f3: the previous position's move
    assert "no position to search" in strings(answer)
    session.tell("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert bestmove(session.go("go depth 1")) != "0000"
    session.tell("position fen nonsense")
    session.tell("ucinewgame")  # the start again
    assert bestmove(session.go("go depth 1")) in {m.uci() for m in chess.Board().legal_moves}


@pytest.mark.parametrize(
    ("position", "reason"),
    [
        ("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "threefold repetition"),
        ("fen 4k3/8/8/8/8/8/3P4/R3K3 w - - 100 80", "fifty moves"),
        ("fen 8/8/4k3/8/8/3NK3/8/8 w - - 0 1", "insufficient material"),
        ("fen 4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", "insufficient material"),
    ],
)
def test_positions_drawn_by_rule_get_a_legal_move(position: str, reason: str) -> None:
    session = Session()
    session.tell(f"position {position}")
    board = session.engine.state.board  # type: ignore[union-attr]
    for go in ("go depth 2", "go nodes 1", "go depth 1 searchmoves " + board.peek().uci()
               if board.move_stack else "go depth 1"):  # fmt: skip
        answer = session.go(go)
        assert chess.Move.from_uci(bestmove(answer)) in board.legal_moves, (go, answer)
        assert f"drawn by {reason}" in strings(answer)


def test_the_fifty_move_draw_does_not_hide_a_mate() -> None:
    session = Session()
    session.tell("position fen 7k/8/6K1/8/8/8/8/R7 w - - 100 80")
    answer = session.go("go depth 2")
    assert bestmove(answer) == "a1a8"
    assert "score mate 1" in answer[-2]


def test_mate_and_stalemate_answer_none() -> None:
    session = Session()
    for fen in ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"):
        session.tell(f"position fen {fen}")
        assert bestmove(session.go("go depth 2")) == "(none)"


def test_searchmoves_restrict_the_root() -> None:
    session = Session()
    session.tell("position fen 4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    assert bestmove(session.go("go depth 2")) == "d2d5"
    answer = session.go("go depth 2 searchmoves e1f1 e1e2 zz")
    assert bestmove(answer) in ("e1f1", "e1e2")
    assert "'zz'" in strings(answer)
    answer = session.go("go depth 1 searchmoves d2d3 0000")
    assert bestmove(answer) == "d2d3"
    answer = session.go("go depth 1 searchmoves e2e4")  # not legal here
    assert "searching every move" in strings(answer)


def test_go_mate_stops_at_the_mate() -> None:
    session = Session()
    session.tell("position fen 7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")
    answer = session.go("go mate 2")
    assert bestmove(answer) in ("a2a7", "b1b7")
    last = [line for line in answer if line.startswith("info depth")][-1]
    assert " score mate 2 " in last
    assert len(last.split(" pv ")[1].split()) == 3
    session.tell("position startpos")
    answer = session.go("go mate 1")
    assert "no mate in 1 found" in strings(answer)


def test_a_mate_beyond_the_horizon_comes_with_its_line() -> None:
    # WAC.263: a mate in 4 proven at depth 3, partly in the quiescence search, whose
    # table holds 6 of its 7 plies: the line is finished by a search.
    session = Session()
    session.tell("position fen rnbqr2k/pppp1Qpp/8/b2NN3/2B1n3/8/PPPP1PPP/R1B1K2R w KQ - 0 1")
    answer = session.go("go depth 3")
    last = [line for line in answer if line.startswith("info depth 3")][-1]
    assert " score mate 4 " in last
    board = chess.Board("rnbqr2k/pppp1Qpp/8/b2NN3/2B1n3/8/PPPP1PPP/R1B1K2R w KQ - 0 1")
    line = last.split(" pv ")[1].split()
    for move in line:
        board.push_uci(move)
    assert len(line) == 7
    assert board.is_checkmate()


def test_stop_ends_a_search_at_once_and_ponderhit_starts_the_clock() -> None:
    session = Session()
    session.tell("position startpos", "go infinite")
    time.sleep(0.2)
    started = time.perf_counter()
    told = session.tell("stop")
    assert time.perf_counter() - started < 0.25  # 50 ms is held by the conformance test
    assert told[-1].startswith("bestmove")
    session.tell("go ponder wtime 1000 btime 1000")
    time.sleep(0.3)
    assert not session.out[-1].startswith("bestmove")
    answer = session.go("ponderhit")
    assert answer[-1].startswith("bestmove")


def test_unknown_and_long_lines_get_an_info_string() -> None:
    session = Session()
    assert (
        strings(session.tell("hello there")) == "info string unknown command 'hello there' ignored"
    )
    assert session.tell("joho isready") == [
        "info string 'joho' ignored before 'isready'",
        "readyok",
    ]
    assert "ignored" in strings(session.tell("x" * (MAX_LINE_CHARS + 1)))
    assert session.tell("", "   ") == []


def test_the_chess_game_plays_on_a_draw_and_restricts_moves() -> None:
    from plies.errors import ArgumentTypeError, IllegalMoveError
    from plies.games import get_game

    game = get_game("chess")
    drawn = game.parse_position("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8")
    assert game.outcome(drawn) == "threefold repetition"
    assert game.legal_moves(drawn) == []
    going = game.unclaimed(drawn)
    assert game.terminal_value(going) is None
    assert set(game.legal_moves(going)) == set(drawn.board.legal_moves)
    assert game.terminal_value(game.play(going, chess.Move.from_uci("g1f3"))) == 0  # again
    start = game.initial_state()
    assert game.unclaimed(start) is start
    mated = game.parse_position("f3 e5 g4 Qh4")
    assert game.unclaimed(mated) is mated
    two = [chess.Move.from_uci("e2e4"), chess.Move.from_uci("d2d4")]
    assert game.legal_moves(game.restricted(start, [*two, two[0]])) == two
    with pytest.raises(IllegalMoveError, match="e2e5"):
        game.restricted(start, [chess.Move.from_uci("e2e5")])
    with pytest.raises(ArgumentTypeError, match=r"chess\.Move"):
        game.restricted(start, ["e2e4"])


def test_the_engine_searches_natively_with_a_table_the_size_of_hash() -> None:
    """Chess has a native port: the kept table is native (a Python one made every
    search fall back to the Python engine), ``Hash`` sizes it by a native entry's
    bytes, the first ``isready`` loads the port, and a mate's line is still whole
    (it is finished on another table: the search holds the kept one)."""
    pytest.importorskip("numba")
    from plies.engine import NativeTable
    from plies.lab import TABLE_ENTRY_BYTES

    session = Session()
    session.tell("setoption name Hash value 8")
    table = session.engine.table
    assert isinstance(table, NativeTable)
    assert table.size >= 8 * 1024 * 1024 // TABLE_ENTRY_BYTES["native"]
    assert session.tell("isready") == ["readyok"]
    session.tell("position fen 5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1")
    lines = session.go("go mate 2")
    assert any(" score mate 2 " in line and line.endswith("c6c4 d6c4 b5c4") for line in lines)
    assert bestmove(lines) == "c6c4"
