"""``plies play`` plays through the game room of plies.lab: the same moves, dice and
results as the room gives for the same game."""

from __future__ import annotations

import io
import random
import re

import pytest

from plies.cli import main
from plies.engine import Limits
from plies.errors import LimitError
from plies.lab import (
    engine_move,
    load_game,
    open_room,
    outcome,
    play_engine_move,
    play_move,
    roll,
    room_of,
    room_state,
)


def test_a_game_at_the_keyboard_is_the_rooms_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "tictactoe", "--human", "none", "--depth", "9"]) == 0
    out = capsys.readouterr().out
    moves = re.findall(r"\(engine\) plays (\S+)  \[score", out)
    state = room_state(open_room("tictactoe", "", moves))
    assert (state["terminal"], state["result"]) == (True, "draw")
    assert out.rstrip().splitlines()[-1] == "game over: draw"


def test_dice_and_engine_moves_replay_in_the_room(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    args = ["play", "pig:target=6", "--human", "none", "--depth", "2", "--seed", "3"]
    assert main(args) == 0
    printed = re.findall(
        r"^(?:chance: (\S+)|.*\(engine\) plays (\S+)  \[)", capsys.readouterr().out, re.M
    )
    room, dice, texts = room_of(*load_game("pig:target=6")), random.Random(3), []
    while outcome(room) is None:
        if room.is_chance():
            room = roll(room, dice)
        else:
            room = play_engine_move(room, engine_move(room, limits=Limits(depth=2)))
        texts.append(room.texts[-1])
    assert [chance or move for chance, move in printed] == texts


def test_a_room_at_the_keyboard_takes_any_move_text() -> None:
    bounded = room_of(*load_game("tictactoe"))
    with pytest.raises(LimitError, match="more than 100"):
        play_move(bounded, "1" * 101)
    with pytest.raises(Exception, match="tictactoe") as refused:
        play_move(room_of(*load_game("tictactoe"), bounded=False), "1" * 101)
    assert not isinstance(refused.value, LimitError)
