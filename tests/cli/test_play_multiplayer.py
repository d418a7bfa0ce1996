"""``plies play`` with more than two players: a person in the seat ``--human N``
names, the engine (Best-Reply Search unless ``--algorithm`` says otherwise) in the
others, and a result naming the winner(s) as the game room does."""

from __future__ import annotations

import io
import re

import pytest

from plies.cli import main
from plies.lab import open_room, room_state, think

#: A Rolit board with four squares left, Red to move.
NEAR_THE_END = "R" * 16 + "Y" * 16 + "G" * 16 + "B" * 12 + "----" + " R"


def test_a_person_takes_one_seat_of_four(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "rolit", "--human", "3", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "Rolit(): Red (engine), Yellow (engine), Green (you), Blue (engine)"
    )
    engine = re.findall(r"(\w+) \(engine\) plays (\S+)  \[score", out)
    assert [seat for seat, _ in engine] == ["Red", "Yellow"]
    assert "Green (you) to move (legal: " in out
    # The engine's moves are Best-Reply Search's, as the room plays them.
    room = open_room("rolit")
    for _, move in engine:
        *_, best = think(room, depth=2)
        assert best["text"] == move
        room = open_room("rolit", "", [*room.texts, move])


def test_engines_finish_a_game_and_name_the_winner(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "rolit", NEAR_THE_END, "--human", "none", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    moves = re.findall(r"\(engine\) plays (\S+)  \[score", out)
    state = room_state(open_room("rolit", NEAR_THE_END, moves))
    assert state["terminal"] and len(moves) == 4 and len(state["winners"]) == 1
    winner = state["players"][state["winners"][0]]
    assert out.rstrip().splitlines()[-1] == f"game over: {winner} (engine) wins"


def test_a_seat_the_game_lacks_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "chinese-checkers:players=3", "--human", "4"]) == 1
    assert capsys.readouterr().err == (
        "error: --human 4: chinese-checkers:players=3 has 3 players (seats 1 to 3)\n"
    )
