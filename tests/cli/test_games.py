"""``plies games`` and ``plies play``: the list, the game loop, bad input, end of input."""

from __future__ import annotations

import io
import re

import pytest

from plies.cli import main
from plies.games import available_games


def run_main(argv: list[str]) -> int:
    """``main(argv)``, with argparse's exit (usage error, --help) as a status."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str,
    *args: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = run_main(["play", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_games_lists_every_game_with_its_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for name in available_games():
        assert f"{name}  " in out
    assert "parameters: connect4:width=7,height=6" in out
    assert out.count("notation:") == len(available_games()) + 1  # and openspiel:GAME


def test_engine_against_engine_plays_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = play(
        capsys, monkeypatch, "", "connect4:width=5,height=4", "--human", "none", "--depth", "3"
    )
    assert status == 0, err
    assert "player 1 (engine) plays 3" in out  # the centre column first
    assert out.rstrip().splitlines()[-1].startswith("game over: ")
    assert err == ""


def test_human_moves_are_reasked_with_the_reason(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = play(capsys, monkeypatch, "9\nabc\n\n4\n", "connect4", "--depth", "2")
    assert status == 1  # the input ends before the game does
    assert "not a legal move: connect4: column 9 is not between 1 and 7" in out
    assert "not a legal move: connect4: a move is a column number 1-7, got 'abc'" in out
    assert out.count("player 1 (you) to move (legal: 4 3 5 2 6 1 7)") == 5
    assert "player 2 (engine) plays " in out
    assert ". . . X . . ." in out
    assert err == "error: end of input, game abandoned\n"


def test_end_of_input_at_once_ends_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = play(capsys, monkeypatch, "", "othello", "--human", "second", "--depth", "1")
    assert status == 1
    assert "player 1 (engine) plays " in out
    assert "Traceback" not in err
    assert err == "error: end of input, game abandoned\n"


def test_two_humans_play_a_whole_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = "1\n7\n1\n7\n1\n9\n9\n7\n1\n"  # the first player completes column 1 on its 4th
    status, out, err = play(capsys, monkeypatch, moves, "connect4", "--human", "both")
    assert status == 0, err
    assert "not a legal move: connect4: cannot play column 9" not in out
    assert out.count("not a legal move: connect4: column 9 is not between 1 and 7") == 2
    assert "game over: player 1 (human) wins" in out


def test_illegal_move_in_a_position_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = play(capsys, monkeypatch, "hold\nquit\n", "pig", "--seed", "1")
    assert status == 0  # 'quit' is the user's choice, not a failure (was exit 1)
    assert "not a legal move: pig: hold: the turn total is 0" in out
    assert err == "game abandoned (quit)\n"


def test_dice_are_seeded(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("pig:target=10", "--human", "none", "--depth", "2", "--seed", "5")
    first = play(capsys, monkeypatch, "", *args)
    second = play(capsys, monkeypatch, "", *args)
    assert first[0] == 0
    assert "dice seed 5 (replay with --seed 5)" in first[1]
    assert "chance: " in first[1]
    # Equal games: the same rolls and moves (search times aside).
    assert re.sub(r"\[.*\]", "", first[1]) == re.sub(r"\[.*\]", "", second[1])


def test_a_finished_position_just_shows_the_result(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = play(capsys, monkeypatch, "", "connect4", "1212121")
    assert status == 0
    assert out.rstrip().endswith("game over: player 1 (you) wins")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nosuchgame",), "error: unknown game 'nosuchgame'"),
        (("connect4", "448"), "error: connect4: column 8 is not between 1 and 7"),
        (
            ("connect4", "--depth", "0"),
            "error: argument --depth: expected a number of at least 1, not 0",
        ),
        (
            ("connect4", "--time", "-1"),
            "error: argument --time: expected a number of seconds above 0, not '-1'",
        ),
        (("connect4", "--human", "third"), "error: argument --human: invalid choice"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    message: str,
) -> None:
    status, _, err = play(capsys, monkeypatch, "", *args)
    assert status == 1
    assert err.startswith(message)
    assert len(err.strip().splitlines()) == 1


def test_help_lists_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--human", "--depth", "--time", "--algorithm", "--seed", "POSITION"):
        assert option in out


def test_on_a_terminal_the_board_is_a_rich_panel(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.console import Console

    monkeypatch.setattr(
        "plies.cli._games.output_console",
        lambda: Console(force_terminal=True, color_system=None, width=60, soft_wrap=True),
    )
    status, out, _ = play(capsys, monkeypatch, "", "connect4", "1212121")
    assert status == 0
    lines = out.splitlines()
    assert lines[1] == "╭── connect4 ───╮"
    assert lines[5] == "│ X O . . . . . │"
    assert lines[9] == "╰───────────────╯"
    assert lines[-1] == "game over: player 1 (you) wins"


class _CtrlCAfter(io.StringIO):
    """Standard input that gives its text, then raises KeyboardInterrupt (Ctrl-C)."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_exits_130_with_the_position_reached(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Was "error: interrupted" alone: the game so far was lost.
    monkeypatch.setattr("sys.stdin", _CtrlCAfter("4\n"))
    status = run_main(["play", "connect4", "--depth", "1"])
    out, err = capsys.readouterr()
    assert status == 130
    assert "player 2 (engine) plays" in out
    assert re.fullmatch(r"error: interrupted; to go on from here: plies play connect4 \d\d\n", err)
    resume = err.split()[-1]
    assert sorted(resume) == sorted("4" + out.split("player 2 (engine) plays ")[1][0])


def test_play_notes_options_without_effect(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = play(capsys, monkeypatch, "quit\n", "connect4", "--seed", "3")
    assert status == 0
    assert err.splitlines()[0] == "note: --seed has no effect: connect4 has no dice"
    args = ("nim", "--human", "both", "--depth", "2", "--time", "1")
    status, _, err = play(capsys, monkeypatch, "quit\n", *args)
    assert err.splitlines()[0] == (
        "note: --depth, --time have no effect with --human both: the engine never moves"
    )


def test_play_takes_a_position_of_several_words_starting_with_a_dash(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An Othello board and its side to move are two words; POSITION took one.
    board = "---------------------------OX------XXX-------------------------- O"
    args = ("othello", *board.split(), "--human", "second", "--depth", "1")
    status, out, _ = play(capsys, monkeypatch, "f6\nquit\n", *args)
    assert status == 0
    assert "O (white) to move" in out and "not a legal move" not in out
    assert "player 1 (engine) plays" in out  # after the human's f6


@pytest.mark.parametrize(
    "args",
    [("nim", "9" * 5000), ("connect4", "--depth", "9" * 5000), ("pig", "--seed", "9" * 5000)],
)
def test_huge_numbers_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    status, out, err = play(capsys, monkeypatch, "", *args)
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and "5,000 digits" in err and len(err) < 300, err


def test_a_huge_move_at_the_prompt_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = play(capsys, monkeypatch, "9" * 5000 + "\nquit\n", "mnk:m=4,n=4,k=3")
    assert status == 0
    assert "not a legal move: mnk:m=4,n=4,k=3: a cell has 5,000 digits" in out
