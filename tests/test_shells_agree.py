"""The three shells read the same result the same way (issue 25).

Each position is searched to the same depth by ``plies analyze`` and ``plies play``
(through :func:`plies.cli.main`, output captured), by the web room
(:func:`plies.lab.think`, what ``/api/play`` streams) and, for chess, by the UCI engine
in-process. Each shell's score text is read back with :meth:`Score.parse`: all must
be the same :class:`Score`, the same first move and (where a shell prints it) the
same line. Pig's expected utility was a "win in 407407" in two shells of three.
"""

from __future__ import annotations

import io
import json
import re
import threading
import time
from typing import Any

import pytest

from plies import lab
from plies.cli import main
from plies.engine import Score
from plies.games import get_game

#: (game, position, depth, the score every shell must say)
POSITIONS = [
    pytest.param(("connect4", "4453", 6, None), id="connect4-heuristic"),
    pytest.param(("connect4", "4455", 4, Score.win(3)), id="connect4-won"),
    pytest.param(("tictactoe", "1 2 5 9", 3, Score.win(3)), id="tictactoe-won"),
    pytest.param(("tictactoe", "1 2 5", 5, Score.loss(4)), id="tictactoe-lost"),
    pytest.param(("tictactoe", "", 9, Score.heuristic(0)), id="tictactoe-drawn"),
    pytest.param(("pig", "scores 18,18 total 0 player 1", 4, Score.expected(0.718)), id="pig"),
]
CHESS_POSITIONS = [
    pytest.param(
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
        2,
        Score.win(1),
        id="chess-mate-in-one",
    ),
    pytest.param("k7/8/1K6/8/8/8/8/7R b - - 0 1", 3, Score.loss(2), id="chess-mated"),
]


def analyze(capsys: pytest.CaptureFixture[str], spec: str, position: str, depth: int) -> Any:
    """``plies analyze --json``'s last depth: (score, line)."""
    assert main(["analyze", spec, position, "--depth", str(depth), "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert record["depth"] == depth
    return Score.parse(record["score_text"]), record["pv"]


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    spec: str,
    position: str,
    depth: int,
) -> Any:
    """``plies play``'s engine move from the position (the person, the other side,
    then quits): (score, move)."""
    game = get_game(spec)
    human = "second" if game.to_move(game.parse_position(position)) == 0 else "first"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    argv = ["play", spec, position, "--depth", str(depth), "--human", human, "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    found = re.search(r"\(engine\) plays (.+?)  \[score (.+?), depth (\d+),", out)
    assert found is not None, out
    assert int(found[3]) == depth
    return Score.parse(found[2]), found[1]


def room(spec: str, position: str, depth: int) -> Any:
    """The web room's engine (``think``): (score, line) of its last depth, and the
    best move's (score, text)."""
    items = list(lab.think(lab.open_room(spec, position), depth=depth))
    info = [item for item in items if item["kind"] == "info"][-1]
    best = items[-1]
    assert best["kind"] == "best" and info["depth"] == depth == best["depth"]
    return (Score.parse(info["score"]), info["pv"]), (Score.parse(best["score"]), best["text"])


@pytest.mark.parametrize("case", POSITIONS)
def test_cli_and_room_read_alike(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    case: tuple[str, str, int, Score | None],
) -> None:
    spec, position, depth, expected = case
    analyzed, line = analyze(capsys, spec, position, depth)
    played, move = play(capsys, monkeypatch, spec, position, depth)
    (roomed, room_line), (best, best_text) = room(spec, position, depth)
    if expected is not None and expected.kind == "expected":
        assert str(analyzed) == str(expected)  # the text rounds the utility
    elif expected is not None:
        assert analyzed == expected
    assert analyzed == played == roomed == best
    assert line == room_line and line[0] == move == best_text


class UciSession:
    """The UCI engine in-process, its output kept."""

    def __init__(self) -> None:
        from plies.uci import UciEngine

        self.out: list[str] = []
        self.lock = threading.Lock()
        self.engine = UciEngine(self._send)

    def _send(self, line: str) -> None:
        with self.lock:
            self.out.append(line)

    def go(self, fen: str, depth: int) -> list[str]:
        """The lines of ``position fen FEN`` and ``go depth N`` up to bestmove."""
        for line in ("uci", "isready", "ucinewgame", f"position fen {fen}"):
            self.engine.handle(line)
        start = len(self.out)
        self.engine.handle(f"go depth {depth}")
        end = time.monotonic() + 60
        while not any(line.startswith("bestmove") for line in self.out[start:]):
            assert time.monotonic() < end, self.out[start:]
            time.sleep(0.005)
        return self.out[start:]


@pytest.mark.parametrize(("fen", "depth", "expected"), CHESS_POSITIONS)
def test_uci_reads_like_the_cli_and_the_room(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fen: str,
    depth: int,
    expected: Score,
) -> None:
    pytest.importorskip("chess")
    game = get_game("chess")
    state = game.parse_position(fen)
    lines = UciSession().go(fen, depth)
    info = [line for line in lines if line.startswith(f"info depth {depth} ")][-1]
    found = re.search(r" score (mate -?\d+|cp -?\d+) .* pv (.+)$", info)
    assert found is not None, info
    uci_score = Score.parse(found[1])
    uci_line = lab.format_line(
        game, state, _moves(game, state, found[2].split())
    )  # UCI's moves in SAN
    analyzed, line = analyze(capsys, "chess", fen, depth)
    played, move = play(capsys, monkeypatch, "chess", fen, depth)
    (roomed, room_line), (best, best_text) = room("chess", fen, depth)
    assert analyzed == expected
    assert uci_score == analyzed == played == roomed == best
    assert uci_line == line == room_line and line[0] == move == best_text


def _moves(game: Any, state: Any, texts: list[str]) -> list[Any]:
    moves = []
    for text in texts:
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.play(state, move)
    return moves
