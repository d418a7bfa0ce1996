"""UCI conformance: ``plies uci`` as a subprocess, through python-chess's engine module
(the way a GUI drives it) and through raw protocol lines (where the client would hide or
refuse what is sent), then a seeded fuzz of bad command lines.

What is held: every ``go`` is answered with ``bestmove`` (a legal move whenever one
exists, also in positions drawn by rule; ``0000`` when the last ``position`` was
rejected), ``stop`` answers within 50 ms, ``go mate N`` finds the mate with its whole
line, ``searchmoves`` restricts the root, bad input gets an ``info string`` and never a
traceback, and no read waits without a bound.
"""

from __future__ import annotations

import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

chess = pytest.importorskip("chess")
chess_engine = pytest.importorskip("chess.engine")

SRC = str(Path(__file__).resolve().parents[1] / "src")
COMMAND = [sys.executable, "-m", "plies", "uci"]
WAC = Path(__file__).resolve().parents[1].parent / "shared" / "chess-testsuites" / "wac-300.epd"
#: Seconds python-chess waits for an answer beyond the limit's own time.
CLIENT_TIMEOUT = 30.0


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    return env


#: python-chess's analysis iterators wait without a bound: a watchdog closes the
#: engine (and so fails the test) after this many seconds.
WATCHDOG = 120.0


@pytest.fixture
def engine() -> Iterator[chess_engine.SimpleEngine]:
    client = chess_engine.SimpleEngine.popen_uci(COMMAND, env=environment(), timeout=CLIENT_TIMEOUT)
    watchdog = threading.Timer(WATCHDOG, client.close)
    watchdog.start()
    try:
        yield client
    finally:
        watchdog.cancel()
        client.quit()


# -- python-chess: every limit ------------------------------------------------------

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

LIMITS = {
    "depth 1": chess_engine.Limit(depth=1),
    "depth 3": chess_engine.Limit(depth=3),
    "nodes 1": chess_engine.Limit(nodes=1),
    "nodes 2000": chess_engine.Limit(nodes=2000),
    "time 0.001": chess_engine.Limit(time=0.001),
    "time 0.2": chess_engine.Limit(time=0.2),
    "mate 1": chess_engine.Limit(mate=1),
    "mate 2 and time": chess_engine.Limit(mate=2, time=0.5),
    "clock": chess_engine.Limit(white_clock=2.0, black_clock=2.0),
    "clock with increments": chess_engine.Limit(
        white_clock=1.0, black_clock=1.0, white_inc=0.1, black_inc=0.1
    ),
    "clock, moves to go": chess_engine.Limit(white_clock=0.5, black_clock=0.5, remaining_moves=2),
    "one clock only": chess_engine.Limit(black_clock=1.0),
    "depth and nodes": chess_engine.Limit(depth=20, nodes=500),
}


@pytest.mark.parametrize("name", list(LIMITS))
def test_every_limit_is_answered_with_a_legal_move(
    engine: chess_engine.SimpleEngine, name: str
) -> None:
    limit = LIMITS[name]
    board = chess.Board(KIWIPETE)
    started = time.perf_counter()
    result = engine.play(board, limit)
    elapsed = time.perf_counter() - started
    assert result.move in board.legal_moves
    clock = limit.white_clock or limit.black_clock
    if limit.time is not None:
        assert elapsed < limit.time + 1.0
    if clock is not None:
        assert elapsed < clock


def test_a_game_on_a_clock_with_increments(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board()
    clocks = [3.0, 3.0]
    for _ in range(6):
        side = 0 if board.turn else 1
        limit = chess_engine.Limit(
            white_clock=clocks[0], black_clock=clocks[1], white_inc=0.05, black_inc=0.05
        )
        started = time.perf_counter()
        result = engine.play(board, limit, game="one game")
        clocks[side] += 0.05 - (time.perf_counter() - started)
        assert clocks[side] > 0
        assert result.move in board.legal_moves
        board.push(result.move)


def test_infinite_analysis_stops_at_once(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board(KIWIPETE)
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        started = time.perf_counter()
        analysis.stop()
        best = analysis.wait()
        elapsed = time.perf_counter() - started
    assert best.move in board.legal_moves
    assert elapsed < 0.5  # through python-chess's event loop; raw timing below


def test_analysis_with_a_depth_limit_ends_by_itself(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board()
    with engine.analysis(board, chess_engine.Limit(depth=2)) as analysis:
        best = analysis.wait()
    assert best.move in board.legal_moves
    assert analysis.info["depth"] == 2


def test_multipv_is_refused_by_the_client_and_the_engine_goes_on(
    engine: chess_engine.SimpleEngine,
) -> None:
    # plies declares no MultiPV option: python-chess refuses before sending anything.
    with pytest.raises(chess_engine.EngineError, match="MultiPV"):
        engine.analyse(chess.Board(), chess_engine.Limit(depth=1), multipv=2)
    info = engine.analyse(chess.Board(), chess_engine.Limit(depth=1), multipv=1)
    assert info[0]["pv"]


# -- searchmoves (root_moves) -------------------------------------------------------


def test_root_moves_restrict_the_search(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board(KIWIPETE)
    allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("g2g3")]
    for limit in (chess_engine.Limit(depth=2), chess_engine.Limit(nodes=1)):
        result = engine.play(board, limit, root_moves=allowed)
        assert result.move in allowed
    # Taking the queen is far better, but only the king's step may be searched.
    queen = chess.Board("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    step = chess.Move.from_uci("e1f1")
    info = engine.analyse(queen, chess_engine.Limit(depth=2), root_moves=[step])
    assert info["pv"][0] == step
    assert engine.play(queen, chess_engine.Limit(depth=2)).move == chess.Move.from_uci("d2d5")


def test_empty_and_illegal_root_moves_search_every_move(
    engine: chess_engine.SimpleEngine,
) -> None:
    board = chess.Board()
    result = engine.play(board, chess_engine.Limit(depth=1), root_moves=[])
    assert result.move in board.legal_moves
    illegal = [chess.Move.from_uci("e2e5")]
    result = engine.play(
        board, chess_engine.Limit(depth=1), root_moves=illegal, info=chess_engine.INFO_ALL
    )
    assert result.move in board.legal_moves


# -- mates: the score and the whole line ---------------------------------------------


def wac(number: int) -> chess.Board:
    """Win At Chess position ``number``."""
    wanted = f'id "WAC.{number:03d}"'
    for line in WAC.read_text().splitlines():
        if wanted in line:
            board = chess.Board()
            board.set_epd(line)
            return board
    raise AssertionError(f"{wanted} not in {WAC}")


def assert_mates(board: chess.Board, pv: list[chess.Move], moves: int) -> None:
    """``pv`` is legal from ``board``, has 2 * moves - 1 plies and ends in mate."""
    assert len(pv) == 2 * moves - 1, [move.uci() for move in pv]
    played = board.copy()
    for move in pv:
        assert move in played.legal_moves
        played.push(move)
    assert played.is_checkmate()


# Mates in 2, 3 and 4 of Win At Chess (the engine's own mates, proven at depth 3-4);
# 35, 103, 215, 253 and 298 are mates in 4.
WAC_MATES = {1: 2, 5: 2, 50: 3, 79: 3, 158: 3, 35: 4, 103: 4, 215: 4, 253: 4, 263: 4, 298: 4}


@pytest.mark.skipif(not WAC.exists(), reason="the shared WAC suite is not there")
@pytest.mark.parametrize(("number", "moves"), sorted(WAC_MATES.items()))
def test_go_mate_finds_the_mate_with_its_whole_line(
    engine: chess_engine.SimpleEngine, number: int, moves: int
) -> None:
    board = wac(number)
    info = engine.analyse(board, chess_engine.Limit(mate=moves, time=20))
    assert info["score"].relative == chess_engine.Mate(moves)
    assert_mates(board, info["pv"], moves)


def test_being_mated_comes_with_the_whole_line(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")  # mate in 2
    board.push_san("Ra7")
    info = engine.analyse(board, chess_engine.Limit(depth=3))
    assert info["score"].relative == chess_engine.Mate(-1)
    played = board.copy()
    for move in info["pv"]:
        played.push(move)
    assert len(info["pv"]) == 2
    assert played.is_checkmate()


# -- positions drawn by rule, mate, stalemate, bad positions -------------------------


def threefold() -> chess.Board:
    board = chess.Board()
    for _ in range(2):
        for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
            board.push_san(san)
    assert board.can_claim_threefold_repetition()
    return board


DRAWN = {
    "threefold repetition": threefold,
    "fifty moves": lambda: chess.Board("4k3/8/8/8/8/8/3P4/R3K3 w - - 100 80"),
    "K+N v K": lambda: chess.Board("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"),
    "K+B v K+B, same colours": lambda: chess.Board("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"),
}


@pytest.mark.parametrize("name", list(DRAWN))
def test_positions_drawn_by_rule_still_get_a_move(
    engine: chess_engine.SimpleEngine, name: str
) -> None:
    board = DRAWN[name]()
    result = engine.play(board, chess_engine.Limit(depth=2), info=chess_engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert "drawn by" in result.info.get("string", "")  # python-chess keeps the last one
    assert engine.play(board, chess_engine.Limit(nodes=1)).move in board.legal_moves


def test_fifty_moves_drawn_still_finds_the_mate(engine: chess_engine.SimpleEngine) -> None:
    board = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 100 80")  # Ra8# on the 101st ply
    result = engine.play(board, chess_engine.Limit(depth=2))
    assert result.move == chess.Move.from_uci("a1a8")


def test_mate_and_stalemate_have_no_move(engine: chess_engine.SimpleEngine) -> None:
    for fen in ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"):
        result = engine.play(chess.Board(fen), chess_engine.Limit(depth=2))
        assert result.move is None


BAD_BOARDS = {
    "no kings": "8/8/8/8/8/8/8/8 w - - 0 1",
    "two white kings": "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
    "side not to move in check": "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
    "pawn on the first rank": "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
}


@pytest.mark.parametrize("name", list(BAD_BOARDS))
def test_a_rejected_position_is_not_searched(engine: chess_engine.SimpleEngine, name: str) -> None:
    engine.play(chess.Board(), chess_engine.Limit(depth=1))  # a position to fall back on
    board = chess.Board(BAD_BOARDS[name])
    result = engine.play(board, chess_engine.Limit(depth=2), info=chess_engine.INFO_ALL)
    assert not result.move  # bestmove 0000: python-chess reads the null move
    assert "no position" in result.info.get("string", "")
    good = chess.Board()
    assert engine.play(good, chess_engine.Limit(depth=1)).move in good.legal_moves


def test_an_illegal_move_in_position_leaves_no_position(
    engine: chess_engine.SimpleEngine,
) -> None:
    board = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    board.push(chess.Move.from_uci("e2e5"))  # push does not check legality
    result = engine.play(board, chess_engine.Limit(depth=2), info=chess_engine.INFO_ALL)
    assert not result.move
    assert "e2e5" in result.info.get("string", "")


def test_ucinewgame_between_games(engine: chess_engine.SimpleEngine) -> None:
    for game in ("first", "second"):
        board = chess.Board()
        for _ in range(2):
            move = engine.play(board, chess_engine.Limit(depth=1), game=game).move
            assert move in board.legal_moves
            board.push(move)


def test_quit_during_a_search_through_the_client() -> None:
    client = chess_engine.SimpleEngine.popen_uci(COMMAND, env=environment(), timeout=30)
    watchdog = threading.Timer(WATCHDOG, client.close)
    watchdog.start()
    try:
        client.analysis(chess.Board())
        time.sleep(0.3)
        started = time.perf_counter()
        client.quit()
        assert time.perf_counter() - started < 5
    finally:
        watchdog.cancel()
        client.close()


# -- raw protocol --------------------------------------------------------------------


@dataclass
class Raw:
    """``plies uci`` on pipes; every read waits a bounded time."""

    process: subprocess.Popen[bytes]
    lines: queue.Queue[tuple[float, str | None]] = field(default_factory=queue.Queue)
    stderr: list[bytes] = field(default_factory=list)

    @classmethod
    def start(cls) -> Raw:
        process = subprocess.Popen(
            COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment(),
        )
        raw = cls(process)
        threading.Thread(target=raw._read_stdout, daemon=True).start()
        threading.Thread(target=raw._read_stderr, daemon=True).start()
        raw.send("uci")  # started: Python, plies and python-chess loaded
        raw.expect(lambda line: line == "uciok", 60)
        return raw

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put((time.perf_counter(), line.decode("utf-8", "replace").rstrip("\n")))
        self.lines.put((time.perf_counter(), None))  # end of output

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self.stderr.extend(self.process.stderr)

    def send(self, line: str | bytes) -> float:
        """Write one line; the time it was written (None of the engine's lines lost)."""
        data = line if isinstance(line, bytes) else line.encode()
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(data + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the engine is gone: the next expect() says so
        return time.perf_counter()

    def expect(self, wanted: Callable[[str], bool], timeout: float) -> tuple[float, str, list[str]]:
        """The first line ``wanted`` accepts within ``timeout`` seconds, with its time
        and the lines before it; AssertionError if none comes or the output ends."""
        end = time.perf_counter() + timeout
        seen: list[str] = []
        while True:
            try:
                at, line = self.lines.get(timeout=max(0.0, end - time.perf_counter()))
            except queue.Empty:
                raise AssertionError(
                    f"nothing wanted within {timeout} s after {seen[-5:]}"
                ) from None
            if line is None:
                raise AssertionError(f"the engine ended its output after {seen[-5:]}")
            if wanted(line):
                return at, line, seen
            seen.append(line)

    def close(self, timeout: float = 10) -> int:
        """Send ``quit``; the exit status (killed, and failing, after ``timeout``)."""
        self.send("quit")
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout)
            raise AssertionError(f"no exit within {timeout} s of quit") from None
        finally:
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()


def is_best(line: str) -> bool:
    return line.startswith("bestmove")


@pytest.fixture
def raw() -> Iterator[Raw]:
    engine = Raw.start()
    try:
        yield engine
    finally:
        if engine.process.poll() is None:
            engine.close()


def test_stop_answers_within_50_ms(raw: Raw) -> None:
    raw.send(f"position fen {KIWIPETE}")
    delays = []
    for _ in range(7):
        raw.send("go infinite")
        raw.expect(lambda line: line.startswith("info depth 2"), 20)
        sent = raw.send("stop")
        at, line, _ = raw.expect(is_best, 5)
        delays.append(at - sent)
        assert chess.Move.from_uci(line.split()[1]) in chess.Board(KIWIPETE).legal_moves
    assert statistics.median(delays) < 0.05, delays
    assert max(delays) < 0.5, delays


def test_isready_during_a_search_and_quit_during_a_search(raw: Raw) -> None:
    raw.send("position startpos")
    raw.send("go infinite")
    raw.expect(lambda line: line.startswith("info depth 1"), 20)
    sent = raw.send("isready")
    at, _, seen = raw.expect(lambda line: line == "readyok", 2)
    assert at - sent < 0.5
    assert not any(is_best(line) for line in seen)  # still searching
    started = time.perf_counter()
    assert raw.close() == 0
    assert time.perf_counter() - started < 2
    assert b"".join(raw.stderr) == b""


def test_infinite_and_ponder_wait_for_stop_or_ponderhit(raw: Raw) -> None:
    raw.send("position fen 7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")  # mate in 2: search ends early
    raw.send("go infinite")
    with pytest.raises(AssertionError, match="nothing wanted"):
        raw.expect(is_best, 1.0)
    raw.send("stop")
    raw.expect(is_best, 2)
    raw.send("go ponder wtime 2000 btime 2000")
    with pytest.raises(AssertionError, match="nothing wanted"):
        raw.expect(is_best, 0.5)
    sent = raw.send("ponderhit")
    at, line, _ = raw.expect(is_best, 3)
    assert line.split()[1] in {"a2a7", "b1b7"}  # each mates in 2 (Ra7 or Rb7, then mate)
    assert at - sent < 2000 / 5 / 1000 + 0.3  # the clock starts at ponderhit


def test_go_mate_depth_zero_and_friends_are_answered(raw: Raw) -> None:
    raw.send("position startpos")
    for go in (
        "go mate 1",
        "go mate 0",
        "go depth 0",
        "go movetime 0",
        "go movetime abc",
        "go nodes 0",
        "go nodes -3 depth x",
        "go wtime -100 btime -100",
        "go depth 1 banana",
        "go depth 1 searchmoves",
        "go depth 1 searchmoves e2e4 zz e7e5",
        "go depth 99999999999999999999999",
        "go nodes ²",
    ):
        raw.send(go)
        if "99999" in go:
            raw.expect(lambda line: line.startswith("info depth 1"), 20)
            raw.send("stop")
        _, line, _ = raw.expect(is_best, 20)
        assert chess.Move.from_uci(line.split()[1]) in chess.Board().legal_moves, go
    assert raw.close() == 0
    assert b"".join(raw.stderr) == b""


def test_bad_commands_each_get_an_info_string(raw: Raw) -> None:
    bad = [
        "hello",
        "setoption name Nope value 3",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999999999999999999999999999999999999",
        "setoption",
        "position",
        "position fen",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves 0000",
        "position startpos banana",
    ]
    for line in bad:
        raw.send(line)
        _, answer, _ = raw.expect(lambda text: text.startswith("info string"), 2)
        assert len(answer) < 400, answer
    raw.send("joho isready")  # words before a command are skipped, as UCI says
    raw.expect(lambda text: text == "readyok", 2)
    raw.send(b"\xff\xfe\x00 isready")
    raw.expect(lambda text: text == "readyok", 2)
    raw.send("x" * (2 << 20))  # longer than a line may be: refused, never held
    raw.expect(lambda text: "ignored" in text, 5)
    raw.send("go depth 1")
    _, line, _ = raw.expect(is_best, 5)
    assert line == "bestmove 0000"  # the last position was rejected
    assert raw.close() == 0
    assert b"".join(raw.stderr) == b""


# -- the fuzz ------------------------------------------------------------------------

FUZZ_SEED = 24
FUZZ_COMMANDS = 400
#: A go whose bestmove has not come after this long is sent ``stop``.
FUZZ_PATIENCE = 0.3

_NUMBERS = ["-5", "0", "1", "2", "3", "40", "abc", "1e3", "+2", "99999999999999999999", "²", "-"]
_GO_WORDS = ["depth", "nodes", "movetime", "mate", "wtime", "btime", "winc", "binc", "movestogo"]
_FENS = [
    "startpos",
    f"fen {KIWIPETE}",
    "fen 7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",
    "fen 8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
    "fen 4k3/8/8/8/8/8/3P4/R3K3 w - - 100 80",
    "fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
    "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "fen 4k3/8/8/8/8/8/8/4K3 w - - -1 0",
    "fen",
    "fen moves",
    "",
]
_MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "e1e3", "a7a8q", "0000", "Nf3", "zz", "e2e4e5"]
_JUNK = ["hello", "joho", "xyzzy", "-", "=", "moves", "value", "name", "fen", "\u00e9\u00e8", "\t"]


def _number(rng: random.Random) -> str:
    return rng.choice(_NUMBERS)


def fuzz_line(rng: random.Random) -> str | bytes:
    """One command line: a mangled UCI command, or junk with no command word."""
    kind = rng.random()
    if kind < 0.3:
        words = ["go"]
        for _ in range(rng.randint(0, 4)):
            pick = rng.random()
            if pick < 0.6:
                words += [rng.choice(_GO_WORDS), _number(rng)]
            elif pick < 0.7:
                words.append(rng.choice(["infinite", "ponder"]))
            elif pick < 0.8:
                words += ["searchmoves", *rng.sample(_MOVES, rng.randint(0, 3))]
            else:
                words.append(rng.choice(_JUNK))
        return " ".join(words)
    if kind < 0.55:
        words = ["position", rng.choice(_FENS)]
        if rng.random() < 0.6:
            words += ["moves", *rng.sample(_MOVES, rng.randint(0, 3))]
        return " ".join(words)
    if kind < 0.65:
        name = rng.choice(["Hash", "hash", "MultiPV", "Nope", ""])
        return f"setoption name {name} value {_number(rng)}"
    if kind < 0.8:
        return rng.choice(
            ["isready", "ucinewgame", "stop", "ponderhit", "debug on", "register later", "uci"]
        )
    if kind < 0.9:
        return bytes(rng.choice([0, 1, 0x1B, 0x7F, 0xC3, 0xFF, 0x20, 0x2D]) for _ in range(8))
    return " ".join(rng.choice(_JUNK) for _ in range(rng.randint(1, 4)))


def fuzz_corpus() -> list[str | bytes]:
    rng = random.Random(FUZZ_SEED)
    return [fuzz_line(rng) for _ in range(FUZZ_COMMANDS)]


def run_fuzz(lines: list[str | bytes]) -> list[str]:
    """Write ``lines`` to ``plies uci`` one at a time; what went wrong, one line each.

    After a ``go`` a ``bestmove`` must come (``stop`` is sent after
    :data:`FUZZ_PATIENCE` s if it has not); after any other line ``isready`` must be
    answered within 5 s. A dead engine is restarted (each death is a failure); its
    standard error must stay empty.
    """
    failures: list[str] = []
    engine = Raw.start()
    for line in lines:
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        try:
            engine.send(line)
            if text.split()[:1] == ["go"]:
                try:
                    engine.expect(is_best, FUZZ_PATIENCE)
                except AssertionError:
                    engine.send("stop")
                    engine.expect(is_best, 5)
            else:
                engine.send("isready")
                engine.expect(lambda answer: answer == "readyok", 5)
        except AssertionError as exc:
            failures.append(f"{text!r}: {exc}")
            engine.process.kill()
            engine.process.wait(10)
            engine = Raw.start()
    status = engine.close()
    if status != 0:
        failures.append(f"exit status {status}")
    stderr = b"".join(engine.stderr).decode("utf-8", "replace")
    if stderr:
        failures.append(f"standard error: {stderr[-300:]}")
    return failures


def test_fuzzed_command_lines_never_break_the_engine() -> None:
    failures = run_fuzz(fuzz_corpus())
    assert failures == []


if __name__ == "__main__":  # count the failures (on another checkout: PYTHONPATH)
    corpus = fuzz_corpus()
    found = run_fuzz(corpus)
    print(f"{len(corpus)} fuzz lines, {len(found)} failures")
    for failure in found:
        print(" ", failure[:200])
