"""``plies analyze chess`` and ``plies play chess``, like the other games: a FEN as one
quoted argument or as its words, moves in SAN or UCI at the prompt, one-line errors."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("chess")

from plies.cli import main

MATE_IN_ONE = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3"


@pytest.mark.parametrize("argv", [[MATE_IN_ONE], MATE_IN_ONE.split()])
def test_analyze_a_fen_quoted_or_not(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(["analyze", "chess", *argv, "--depth", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("info depth 1 score win 1 ")
    assert out[-1] == "bestmove Qxf7#"


def test_analyze_json_reports_the_mate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "chess", MATE_IN_ONE, "--depth", "1", "--json"]) == 0
    assert '"best_move": "Qxf7#"' in capsys.readouterr().out


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("rnbqkbnr/ppp w", "error: chess: bad FEN"),
        ("e4 e5 Ke3", "error: chess: illegal move 'Ke3'"),
    ],
)
def test_bad_positions_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], position: str, message: str
) -> None:
    assert main(["analyze", "chess", position, "--depth", "1"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message)
    assert len(captured.err.splitlines()) == 1


def test_play_a_mate_typed_in_uci_after_a_refused_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("Qxf8\nh5f7\n"))
    assert main(["play", "chess", "e4 e5 Qh5 Nc6 Bc4 Nf6", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "not a legal move: chess: illegal move 'Qxf8'" in out
    assert "game over: player 1 (you) wins" in out


def test_engine_plays_both_sides(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A mate in two for white, then the game is over.
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"
    assert main(["play", "chess", fen, "--human", "none", "--depth", "4"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1] == "game over: player 1 (engine) wins"
