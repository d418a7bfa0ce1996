"""``plies match``: the table, the JSON object, the games written as PGN, and one-line
errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_errors import assert_one_line_error, run


def test_the_table_says_who_won(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "match", "tictactoe", "pvs:depth=9", "random", "--games", "4")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "tictactoe: 4 games"
    row = next(line for line in lines if "pvs:depth=9" in line and "│" in line)
    cells = [cell.strip() for cell in row.split("│")[1:9]]
    assert cells == ["pvs:depth=9", "4", "4", "100.0%", "4", "0", "0", "0"]
    assert "Elo of pvs:depth=9 against random: +inf (95%: +inf to +inf)" in out
    assert "Pentanomial (0-2 points a pair): [0, 0, 0, 0, 2]" in out


def test_json_for_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "tictactoe", "pvs:depth=9", "alphabeta:depth=9", "--games", "2", "--json"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    record = json.loads(out)
    assert {k: record[k] for k in ("games", "wins", "draws", "losses", "elo", "sprt")} == {
        "games": 2,
        "wins": 0,
        "draws": 2,
        "losses": 0,
        "elo": 0.0,
        "sprt": None,
    }
    assert record["elo_ci"] == [0.0, 0.0]  # two draws: no spread at all
    assert record["pentanomial"] == [0, 0, 1, 0, 0]


def test_json_with_an_sprt(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "connect4", "pvs:depth=4", "random", "--games", "40", "--random-plies", "2"]
    status, out, _ = run(capsys, *argv, "--sprt", "0,100", "--json")
    assert status == 0
    record = json.loads(out)
    assert record["sprt"]["verdict"] == "H1" and record["games"] < 40
    assert record["sprt"]["llr"] >= record["sprt"]["upper"] == pytest.approx(2.944, abs=1e-3)
    assert record["sprt"]["model"] == "normalized"


def test_the_games_are_written_as_pgn(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    argv = ["match", "connect4", "pvs:depth=2", "random", "--games", "2", "--pgn", str(pgn)]
    status, _, _ = run(capsys, *argv)
    assert status == 0
    text = pgn.read_text()
    assert text.count('[Event "plies match"]') == 2
    assert '[Round "1"]' in text and '[Round "2"]' in text and '[Game "connect4"]' in text
    assert text.count("\n\n[Event") == 1 and text.endswith("\n\n")


def test_a_pgn_file_of_chess_games_reads_back_game_by_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    chess_pgn = pytest.importorskip("chess.pgn")
    pgn = tmp_path / "games.pgn"
    argv = ["match", "chess", "random", "random", "--games", "4", "--max-plies", "10"]
    status, _, _ = run(capsys, *argv, "--pgn", str(pgn))
    assert status == 0
    games = []
    with pgn.open() as handle:
        while (game := chess_pgn.read_game(handle)) is not None:
            games.append(game)
    assert [game.headers["Round"] for game in games] == ["1", "2", "3", "4"]
    assert all(not game.errors and len(list(game.mainline_moves())) == 10 for game in games)


def test_openings_come_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\n44\n3 5\n")
    argv = ["match", "connect4", "random", "random", "--games", "4", "--json"]
    status, out, _ = run(capsys, *argv, "--openings", str(openings))
    assert status == 0
    assert [g["opening"] for g in json.loads(out)["game_list"]] == ["44", "44", "3 5", "3 5"]


def test_games_lost_or_drawn_on_time_are_listed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # White has a queen, black a bare king, and pvs a millisecond for the game: out of
    # time with the queen it draws (black cannot mate), with the bare king it loses.
    openings = tmp_path / "openings.txt"
    openings.write_text("4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n")
    argv = ["match", "chess", "pvs:depth=9", "random", "--games", "2", "--tc", "0.001"]
    status, out, err = run(capsys, *argv, "--openings", str(openings))
    assert status == 0, err
    listed = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(listed) == 2
    assert listed[0].startswith("game 1: pvs:depth=9 is out of time (its move took")
    assert listed[0].endswith("a draw, as no other player can win")
    assert listed[1].startswith("game 2: pvs:depth=9 loses on time: its move took")
    status, out, err = run(capsys, *argv, "--openings", str(openings), "--json")
    assert [g["out_of_time"] for g in json.loads(out)["game_list"]] == [0, 0]


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "connect4", "random", "random", "--games", "3"],
        ["match", "connect4", "random", "--games", "2"],
        ["match", "connect4", "random", "telepathy", "--games", "2"],
        ["match", "connect4", "random", "pvs", "--games", "2"],
        ["match", "connect4", "random", "random", "--games", "2", "--sprt", "5,0"],
        ["match", "connect4", "random", "random", "--games", "2", "--openings", "/no/such/file"],
        ["match", "connect4", "random", "random", "--games", "2", "--scheduler", "nowhere"],
        ["match", "tictactoe", "random", "uci:stockfish:time=1", "--games", "2"],
        ["match", "nosuchgame", "random", "random", "--games", "2"],
        ["match", "connect4", "random", "random"],
    ],
)
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert_one_line_error(capsys, argv)


def test_a_bad_openings_line_names_its_number(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("44\n9\n")
    argv = ["match", "connect4", "random", "random", "--games", "2", "--openings", str(openings)]
    assert_one_line_error(capsys, argv)
