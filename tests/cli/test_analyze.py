"""``plies analyze`` and ``plies bench``: output and the script contract."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_errors import assert_one_line_error, run
from plies.cli import main


def test_analyze_prints_one_info_line_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "analyze", "connect4", "4453", "--depth", "4")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 5
    for depth, line in enumerate(lines[:4], start=1):
        assert re.fullmatch(
            rf"info depth {depth} score \S+ nodes \d+ nps \d+ time \d+\.\d{{3}} pv( [1-7])+", line
        ), line
    assert re.fullmatch(r"bestmove [1-7]", lines[-1])


def test_analyze_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "tictactoe", "5", "1", "9", "--depth", "3", "--json")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["depth"] for r in records] == [1, 2, 3]
    for record in records:
        assert {"depth", "score", "best_move", "pv", "nodes", "nps", "time"} <= set(record)
        assert record["pv"][0] == record["best_move"]
        assert record["best_move"] in {"2", "3", "4", "6", "7", "8"}


def test_analyze_finds_a_proven_win(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "tictactoe", "1 2 5 9", "--depth", "6")
    assert status == 0
    assert "score win 3" in out.splitlines()[-2]
    assert out.splitlines()[-1] == "bestmove 4"


@pytest.mark.parametrize("algorithm", ["pvs", "negamax", "mtdf", "alphabeta", "minimax"])
def test_analyze_algorithms(capsys: pytest.CaptureFixture[str], algorithm: str) -> None:
    status, out, _ = run(
        capsys, "analyze", "nim", "1,2,3", "--depth", "3", "--algorithm", algorithm, "--json"
    )
    assert status == 0
    assert json.loads(out.splitlines()[-1])["algorithm"] == algorithm


def test_analyze_node_and_time_limits(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "connect4", "--nodes", "3000", "--json")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records and all(r["nodes"] <= 3000 for r in records)
    status, out, _ = run(capsys, "analyze", "othello", "--time", "0.2")
    assert status == 0 and out.splitlines()[-1].startswith("bestmove ")


def test_analyze_pig_with_chance(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "pig", "--depth", "3", "--chance", "star2")
    assert status == 0 and out.splitlines()[-1] == "bestmove roll"


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "shogi", "--depth", "2"],
        ["analyze", "tictactoe", "5 5", "--depth", "2"],
        ["analyze", "tictactoe", "zz", "--depth", "2"],
        ["analyze", "nim", "3,x", "--depth", "2"],
        ["analyze", "connect4", "48", "--depth", "2"],
        ["analyze", "tictactoe", "--depth", "0"],
        ["analyze", "tictactoe", "--depth", "two"],
        ["analyze", "tictactoe", "--time", "-1"],
        ["analyze", "tictactoe", "--nodes", "0"],
        ["analyze", "tictactoe", "--algorithm", "sss"],
        ["analyze", "mnk:m=2,n=2,k=5", "--depth", "2"],
        ["analyze", "mnk:m", "--depth", "2"],
    ],
)
def test_errors_are_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert_one_line_error(capsys, argv)


def test_bench_prints_a_fingerprint(capsys: pytest.CaptureFixture[str]) -> None:
    from plies.cli import _bench

    row = _bench.run_case(_bench.BENCH[0])
    assert row["label"] == "tic-tac-toe solve" and row["nodes"] > 0
    again = _bench.run_case(_bench.BENCH[0])
    assert again["nodes"] == row["nodes"]  # deterministic: a fingerprint


def help_text(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    try:
        main(argv)
    except SystemExit as exc:
        assert exc.code == 0
    return capsys.readouterr().out


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text(capsys, ["--help"])
    for command in ("analyze", "solve", "bench"):
        assert command in out
        assert "usage: plies " + command in help_text(capsys, [command, "--help"])


def test_ctrl_c_prints_the_best_move_of_the_last_completed_depth() -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    # Without plies' object cache: a process that loaded Numba writes the cache as it
    # exits (a few seconds, once per machine), which would be timed here as the stop.
    process = subprocess.Popen(
        [sys.executable, "-m", "plies", "analyze", "connect4", "--time", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PLIES_OBJECT_CACHE": "0"},
    )
    first = process.stdout.readline() if process.stdout else ""  # a depth is done
    time.sleep(0.5)
    started = time.perf_counter()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert time.perf_counter() - started < 3  # generous: other tests may load the machine
    assert process.returncode == 130, err  # Ctrl-C, with the finished depths kept
    lines = [first, *out.splitlines()]
    assert first.startswith("info depth 1 ")
    assert lines[-1].startswith("bestmove ")
    last_info = [line for line in lines if line.startswith("info")][-1]
    assert lines[-1].split()[1] == last_info.split(" pv ")[1].split()[0]
    assert "stopped by Ctrl-C" in err


# -- limits and Ctrl-C on a position with 200,000 moves; positions starting with '-' ------


def test_a_time_limit_holds_on_a_position_with_200000_moves() -> None:
    # 'plies analyze nim 100000,100000 --time 1' took 12.9 s: the clock was read every
    # 256 nodes, and a node here generated and sorted 200,000 moves.
    import subprocess
    import sys
    import time

    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "plies", "analyze", "nim", "100000,100000", "--time", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("bestmove ")
    assert time.perf_counter() - started < 6  # a generous bound: it was 12.9 s


def test_ctrl_c_acts_at_once_on_a_position_with_200000_moves() -> None:
    # Ctrl-C took 8.6 s to act here: the stop request was read with the clock.
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "plies", "analyze", "nim", "100000,100000", "--time", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = process.stdout.readline() if process.stdout else ""  # depth 1 is done
    time.sleep(1.0)
    started = time.perf_counter()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert time.perf_counter() - started < 4  # a generous bound: it was 8.6 s
    assert process.returncode == 130, err
    assert first.startswith("info depth 1 ")
    assert out.splitlines()[-1].startswith("bestmove ")


OTHELLO_F5 = "---------------------------OX------XXX-------------------------- O"


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "othello", *OTHELLO_F5.split(), "--depth", "1"],
        ["analyze", "othello", "--depth", "1", "--", *OTHELLO_F5.split()],
        ["analyze", "othello", "--depth", "1", OTHELLO_F5],
    ],
)
def test_an_othello_board_starting_with_a_dash_is_a_position(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # Needs main() to hand words starting with '-' to POSITION (the lead's change).
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert out.splitlines()[-1] == "bestmove f6"


def test_usage_does_not_call_position_required(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "analyze")
    assert status == 1
    assert err.startswith("error: the following arguments are required: GAME (see ")


def test_options_without_effect_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "analyze", "connect4", "--depth", "1", "--chance", "star2")
    assert status == 0
    assert err == "note: --chance has no effect: connect4 has no chance nodes\n"
    args = ("analyze", "pig", "--depth", "1", "--algorithm", "minimax", "--chance", "plain")
    status, _, err = run(capsys, *args)
    assert status == 0 and err.startswith("note: --chance has no effect with --algorithm minimax")


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "nim", "9" * 5000, "--depth", "1"],
        ["analyze", "nim", "--depth", "9" * 5000],
        ["analyze", "nim", "--seed", "9" * 5000, "--depth", "1"],
        ["analyze", f"connect4:width={'9' * 5000}"],
        ["analyze", "nim", "1", "--nodes", "-" + "9" * 5000],
    ],
)
def test_huge_numbers_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # Each was a ValueError traceback from int() (or a 5,000-digit error line).
    status, out, err = run(capsys, *argv)
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and "5,000 digits" in err and len(err) < 300, err


def test_a_batch_searches_each_line_with_the_backend_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    positions = tmp_path / "positions.txt"
    positions.write_text("roll 4\nroll 4 hold\n")
    assert main(["analyze", "pig", "--batch", str(positions), "--depth", "2"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    argv = ["analyze", "pig", "--batch", str(positions), "--depth", "2", "--backend", "native"]
    assert main(argv) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"error: line {n}: pig has no native port" for n in (1, 2)]
