"""UCI engines in a match: a tiny fake engine (written here) that misbehaves in each way
an engine can, each misdeed forfeiting the game without hanging the match; and a short
match against Debian's Stockfish, where it is installed."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

from plies.lab import MatchOptions, TimeControl, run_match

pytest.importorskip("chess.engine")

#: A UCI engine that plays the first legal move (by UCI text) until its move number
#: ``after``, then misbehaves as ``mode`` says: ``crash`` (exits), ``hang`` (never
#: answers), ``illegal`` (plays a move that is not legal), ``silent`` (never answers
#: ``uci``), ``slow`` (takes a second a move), ``good`` (never misbehaves). It writes
#: its process id to ``pidfile``, and each ``go`` line it reads to ``pidfile.go``.
FAKE_ENGINE = """
import os, sys, time
import chess

mode, after, pidfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(pidfile, "w") as out:
    out.write(str(os.getpid()))
board, played = chess.Board(), 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        if mode == "silent":
            time.sleep(3600)
        print("id name fake\\noption name Skill type spin default 1 min 0 max 9", flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        at = words.index("moves") if "moves" in words else len(words)
        board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:at]))
        for move in words[at + 1 :]:
            board.push_uci(move)
    elif words[0] == "go":
        with open(pidfile + ".go", "a") as log:
            log.write(line)
        played += 1
        if played > after and mode == "crash":
            sys.exit(3)
        if played > after and mode == "hang":
            time.sleep(3600)
        if played > after and mode == "slow":
            time.sleep(1)
        if played > after and mode == "illegal":
            print("bestmove a1a8", flush=True)
            continue
        best = min(board.legal_moves, key=lambda move: move.uci())
        print(f"bestmove {best.uci()}", flush=True)
    elif words[0] == "quit":
        break
"""


@pytest.fixture
def fake_engine(tmp_path: Path) -> Path:
    """The fake engine's script."""
    script = tmp_path / "fake_uci.py"
    script.write_text(FAKE_ENGINE)
    return script


def _fake(script: Path, mode: str, after: int, pidfile: Path, limit: str = "depth=1") -> str:
    """The fake engine's player spec (with no limit when ``limit`` is '': on a clock)."""
    options = f"Skill=3,{limit}" if limit else "Skill=3"
    return f"uci:{sys.executable} {script} {mode} {after} {pidfile}:{options}"


def _is_gone(pidfile: Path) -> bool:
    """Whether the engine whose id ``pidfile`` holds has ended within 5 s (a zombie
    counts: its parent's event loop reaps it when it gets to it)."""
    status = Path(f"/proc/{pidfile.read_text()}/status")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if "zombie" in status.read_text():
                return True
        except (FileNotFoundError, ProcessLookupError):  # gone, before or while read
            return True
        time.sleep(0.05)
    return False


def test_a_well_behaved_engine_plays_its_games(fake_engine: Path, tmp_path: Path) -> None:
    pid = tmp_path / "pid"
    options = MatchOptions(
        "chess", ("random", _fake(fake_engine, "good", 0, pid)), games=2, max_plies=10
    )
    result = run_match(options)
    assert [g.forfeit for g in result.games] == [None, None]
    assert [len(g.moves) for g in result.games] == [10, 10]
    assert result.games[1].moves[0] == "a3"  # a2a3: the first move by UCI text
    assert _is_gone(pid)


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash", "crashed: the engine ended"),
        ("illegal", "illegal"),
        ("silent", "timed out"),
        ("hang", "timed out: no answer to go within 1.5 s"),
    ],
)
def test_a_misbehaving_engine_forfeits(
    fake_engine: Path, tmp_path: Path, mode: str, reason: str
) -> None:
    pid = tmp_path / "pid"
    engine = _fake(fake_engine, mode, 2, pid)
    options = MatchOptions("chess", (engine, "random"), games=2, max_plies=40, timeout=1.5)
    started = time.monotonic()
    result = run_match(options)
    assert time.monotonic() - started < 15  # two games, each waiting 1.5 s at most
    assert [g.forfeit for g in result.games] == [0, 0]
    assert result.points == (0.0, 2.0)
    assert all(reason in g.reason and g.reason.startswith(engine) for g in result.games)
    if mode != "silent":
        assert [len(g.moves) for g in result.games] == [4, 5]  # its third move was due
    assert _is_gone(pid)  # killed, not left behind


def test_a_command_that_does_not_exist_forfeits(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-engine"
    options = MatchOptions("chess", ("random", f"uci:{missing}:time=0.1"), games=2)
    result = run_match(options)
    assert [g.forfeit for g in result.games] == [1, 1]
    assert result.games[0].reason.endswith(f"cannot start {missing}: No such file or directory")


def test_an_option_the_engine_refuses_forfeits(fake_engine: Path, tmp_path: Path) -> None:
    spec = f"uci:{sys.executable} {fake_engine} good 0 {tmp_path / 'pid'}:Skill=99,depth=1"
    result = run_match(MatchOptions("chess", ("random", spec), games=2))
    assert "Skill" in result.games[0].reason and result.games[0].forfeit == 1


def _stockfish() -> str:
    found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if found is None:
        pytest.skip("Stockfish is not installed (Debian: apt-get install stockfish)")
    return found


def test_plies_plays_stockfish_through_uci() -> None:
    stockfish = _stockfish()
    weak = f"uci:{stockfish}:UCI_LimitStrength=true,UCI_Elo=1350,time=0.01"
    options = MatchOptions("chess", ("pvs:depth=1", weak), games=2, max_plies=30)
    result = run_match(options)
    assert [g.forfeit for g in result.games] == [None, None]
    assert all(len(g.moves) >= 2 for g in result.games)
    assert result.pentanomial is not None and result.pentanomial.pairs == 1


# -- on a clock ---------------------------------------------------------------------------


def test_on_a_clock_the_engine_gets_both_clocks(fake_engine: Path, tmp_path: Path) -> None:
    pid = tmp_path / "pid"
    engine = _fake(fake_engine, "good", 0, pid, limit="")
    control = TimeControl(30, 0.5)
    options = MatchOptions(
        "chess", ("pvs:depth=1", engine), games=2, max_plies=8, time_control=control
    )
    result = run_match(options)
    assert [g.forfeit for g in result.games] == [None, None]
    lines = [line.split() for line in Path(f"{pid}.go").read_text().splitlines()]
    assert len(lines) == 8  # four moves a game
    for words in lines:
        clocks = dict(zip(words[1::2], map(int, words[2::2]), strict=True))
        assert sorted(clocks) == ["binc", "btime", "winc", "wtime"]
        assert clocks["winc"] == clocks["binc"] == 500
        # 30 s, less what the moves took, plus 0.5 s after each (at most four a side)
        assert 29_000 < clocks["wtime"] <= 32_000 and 29_000 < clocks["btime"] <= 32_000
    # Game 1: the engine is Black, so its first go sees White's clock after one move
    # (30 s less the move plus the increment) and its own untouched.
    first = dict(zip(lines[0][1::2], map(int, lines[0][2::2]), strict=True))
    assert first["btime"] == 30_000 and 29_500 < first["wtime"] <= 30_500
    assert all(total.turns == 8 for total in result.totals)


def test_an_engine_whose_time_runs_out_loses_on_time(fake_engine: Path, tmp_path: Path) -> None:
    pid = tmp_path / "pid"
    engine = _fake(fake_engine, "slow", 1, pid, limit="")
    options = MatchOptions(
        "chess", (engine, "random"), games=2, max_plies=40, time_control=TimeControl(1.5)
    )
    result = run_match(options)
    assert [g.forfeit for g in result.games] == [0, 0]  # its second and third moves: 2 s
    assert all(f"{engine} loses on time: its move took 1." in g.reason for g in result.games)
    assert all("with 0." in g.reason for g in result.games)  # 1.5 s less its first move's
    assert result.points == (0.0, 2.0)
