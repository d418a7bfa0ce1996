"""``plies analyze --algorithm mcts``: one info line like the other searches, a proven
win reported as one, seeded runs that repeat, and bad options as one-line errors."""

from __future__ import annotations

import json
import re

import pytest

from cli_errors import assert_one_line_error, run


def test_mcts_prints_one_info_line_and_the_best_move(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "analyze", "connect4", "4453", "--algorithm", "mcts", "--nodes", "20000"
    )
    assert status == 0 and err == ""
    info, best = out.splitlines()
    assert re.fullmatch(
        r"info depth \d+ score playouts [-+]\d\.\d{3} nodes \d+ nps \d+ "
        r"time \d+\.\d{3} pv( [1-7])+",
        info,
    ), info
    assert best == f"bestmove {info.split(' pv ')[1].split()[0]}"


def test_mcts_reports_a_forced_win_as_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "analyze", "tictactoe", "1 2 5 9", "--algorithm", "mcts", "--nodes", "100000"
    )
    assert status == 0
    info, best = out.splitlines()
    assert " score win 3 " in info
    assert best in ("bestmove 4", "bestmove 7")  # the two forks
    record_status, record_out, _ = run(
        capsys,
        "analyze",
        "tictactoe",
        "1 2 5 9",
        "--algorithm",
        "mcts",
        "--nodes",
        "100000",
        "--json",
    )
    record = json.loads(record_out)
    assert record_status == 0
    assert (record["result"], record["distance"], record["exact"]) == ("win", 3, True)
    assert record["algorithm"] == "mcts" and record["pv"][0] == record["best_move"]


def test_the_same_seed_prints_the_same_search(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["analyze", "othello", "--algorithm", "mcts", "--nodes", "5000", "--json"]
    first, second = (json.loads(run(capsys, *argv, "--seed", "5")[1]) for _ in range(2))
    assert (first["pv"], first["score"], first["nodes"]) == (
        second["pv"],
        second["score"],
        second["nodes"],
    )


@pytest.mark.parametrize(
    "extra",
    [["--depth", "3"], ["--nodes", "0"], ["--seed", "-1"]],
)
def test_bad_mcts_options_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    assert_one_line_error(capsys, ["analyze", "connect4", "--algorithm", "mcts", *extra])


def test_native_playouts_repeat_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["analyze", "connect4", "4453", "--algorithm", "mcts", "--iterations", "400"]
    argv += ["--backend", "native", "--seed", "3", "--json"]
    first, second = (json.loads(run(capsys, *argv)[1]) for _ in range(2))
    assert first["pv"] == second["pv"] and first["nodes"] == second["nodes"]
    assert first["nodes"] > 400 * 16  # each new leaf's playouts counted in the kernel


@pytest.mark.parametrize(
    ("game", "says"), [("pig", "without chance only")]
)  # (Rolit's playouts run natively since its port has the N-player rules)
def test_native_playouts_where_they_cannot_run_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], game: str, says: str
) -> None:
    argv = ["analyze", game, "--algorithm", "mcts", "--iterations", "10", "--backend", "native"]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (1, "") and err.startswith("error: ") and says in err
    assert len(err.splitlines()) == 1


def test_iterations_limit_the_playouts_and_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["analyze", "connect4", "4453", "--algorithm", "mcts", "--iterations", "300", "--json"]
    first, second = (json.loads(run(capsys, *argv)[1]) for _ in range(2))
    assert first["stats"]["leaves"] == 300  # one playout (or proven leaf) per iteration
    assert (first["pv"], first["nodes"]) == (second["pv"], second["nodes"])
    fewer = json.loads(run(capsys, *argv[:-2], "100", "--json")[1])
    assert fewer["stats"]["leaves"] == 100 and fewer["nodes"] < first["nodes"]


def test_iterations_without_mcts_are_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_error(capsys, ["analyze", "connect4", "4453", "--iterations", "300"])
    assert_one_line_error(
        capsys, ["analyze", "connect4", "--algorithm", "mcts", "--iterations", "0"]
    )
    assert_one_line_error(capsys, ["play", "tictactoe", "--human", "none", "--iterations", "300"])


def test_a_batch_searches_each_line_within_the_iterations(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("4453\n44\n"))
    argv = ["analyze", "connect4", "--batch", "-", "--algorithm", "mcts", "--iterations", "200"]
    status, out, err = run(capsys, *argv, "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and err == ""
    assert [(r["position"], r["stats"]["leaves"]) for r in records] == [("4453", 200), ("44", 200)]


def test_play_engine_against_itself_within_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "play", "tictactoe", "--human", "none", "--algorithm", "mcts", "--iterations", "400"
    )
    assert status == 0
    moves = [line for line in out.splitlines() if " plays " in line]
    assert 5 <= len(moves) <= 9 and all("nodes" in line for line in moves)
