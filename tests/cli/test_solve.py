"""``plies solve``: one position, batches in the form of Pons' test sets, the contract."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_errors import assert_one_line_error, run
from plies.cli import main

# Beside the checkout (/work/shared for /work/main), found from a worktree too.
TESTSETS = next(
    (
        parent / "shared" / "connect4-testsets"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "connect4-testsets").is_dir()
    ),
    Path("shared") / "connect4-testsets",
)
# From Pons' Test_L2_R1: score 4, the side to move wins with its 18th stone.
L2_POSITION = "5554224333234511764415115"


def pons_lines(name: str, count: int) -> list[str]:
    path = TESTSETS / name
    if not path.is_file():
        pytest.skip(f"Pons' test set not found at {path} (shared data is not checked in)")
    return path.read_text().splitlines()[:count]


def test_solve_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "tictactoe", "--json")
    assert status == 0
    record = json.loads(out)
    assert record["result"] == "draw" and record["distance"] == 9
    assert record["best_move"] == record["pv"][0] and len(record["pv"]) == 9
    assert sorted(record["best_moves"]) == [str(cell) for cell in range(1, 10)]
    assert record["score"] is None and record["weak"] is False
    status, out, _ = run(capsys, "solve", "nim", "3,4,5", "--json")
    record = json.loads(out)
    assert (record["result"], record["best_moves"]) == ("win", ["1:2"])
    assert record["distance"] == len(record["pv"])
    status, out, _ = run(capsys, "solve", "nim", "1,2,3", "--json")
    assert json.loads(out)["result"] == "loss"


def test_solve_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "tictactoe", "1 2 5 9")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "result win in 3 plies for the side to move"
    assert lines[1] == "best moves 7 4"  # both win in 3, in the game's order


def test_connect4_prints_pons_score_and_best_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "connect4", L2_POSITION)
    assert status == 0
    lines = out.splitlines()
    assert lines[:3] == [
        "result win in 11 plies for the side to move",
        "score 4",
        "best move 6",
    ]
    assert lines[3].startswith("pv 6 ") and len(lines[3].split()) == 12
    status, out, _ = run(capsys, "solve", "connect4", L2_POSITION, "--weak", "--json")
    record = json.loads(out)
    assert (record["result"], record["score"], record["distance"]) == ("win", 1, None)
    assert record["best_move"] is not None


def test_batch_output_diffs_clean_against_the_test_set(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = pons_lines("Test_L2_R1", 40)
    source = tmp_path / "set.txt"
    source.write_text("\n".join(lines) + "\n")
    status, out, err = run(capsys, "solve", "connect4", "--batch", str(source))
    assert status == 0, err
    assert out.splitlines() == lines
    assert "solved 40 positions" in err
    # Weak: the signs, and the expected scores are compared by sign only.
    status, out, _ = run(capsys, "solve", "connect4", "--batch", str(source), "--weak")
    assert status == 0
    for line, expected in zip(out.splitlines(), lines, strict=True):
        score = int(expected.split()[1])
        assert line == f"{expected.split()[0]} {(score > 0) - (score < 0)}"


def test_batch_from_stdin_without_scores_and_as_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = pons_lines("Test_L3_R1", 5)
    positions = [line.split()[0] for line in lines]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(positions) + "\n\n# comment\n"))
    status, out, _ = run(capsys, "solve", "connect4", "--batch", "-")
    assert status == 0 and out.splitlines() == lines
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines[0] + "\n"))
    status, out, _ = run(capsys, "solve", "connect4", "--batch", "-", "--json")
    record = json.loads(out)
    assert record["line"] == 1 and record["input"] == positions[0]
    assert record["score"] == record["expected"] == int(lines[0].split()[1])


def test_batch_reports_bad_lines_and_wrong_scores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good, score = pons_lines("Test_L3_R1", 1)[0].split()
    source = tmp_path / "set.txt"
    source.write_text(f"{good} {score}\n9\n{good} {int(score) + 1}\n")
    status, out, err = run(capsys, "solve", "connect4", "--batch", str(source))
    assert status == 1
    assert out.splitlines() == [f"{good} {score}", f"{good} {score}"]
    assert "error: line 2: connect4: column 9 is not between 1 and 7" in err
    assert "error: 1 of 2 scores differ from the expected ones (first: line 3: expected " in err
    assert "Traceback" not in err


def test_other_games_batch_tokens(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "nim.txt"
    source.write_text("3,4,5\n1,2,3\n0,0\n")
    status, out, _ = run(capsys, "solve", "nim", "--batch", str(source))
    assert status == 0
    assert out.splitlines() == ["3,4,5 win:11", "1,2,3 loss:6", "0,0 loss:0"]


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "pig"],
        ["solve", "shogi"],
        ["solve", "nim", "1:1"],
        ["solve", "connect4", "--nodes", "50"],
        ["solve", "connect4", "44", "--batch", "-"],
        ["solve", "connect4", "--batch", "/no/such/file"],
        ["solve", "pig", "--batch", "-"],
        ["solve", "connect4", "--table-size", "8"],
        ["solve", "connect4", "--table-size", "many"],
        ["solve", "connect4", "--moves", "some"],
        ["solve", "pig", "--backend", "native"],
        ["solve", "connect4:width=8,height=8", "4", "--backend", "native", "--nodes", "50"],
        ["solve", "tictactoe", "--batch", "/no/such/file", "--backend", "native"],
        ["solve", "connect4", "4", "--backend", "fortran"],
    ],
)
def test_errors_are_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert_one_line_error(capsys, argv)


def test_batch_through_the_console_script_with_no_stdin_terminal() -> None:
    lines = pons_lines("Test_L3_R1", 3)
    done = subprocess.run(
        [sys.executable, "-m", "plies", "solve", "connect4", "--batch", "-"],
        input="\n".join(lines),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == lines


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_batch_shows_a_progress_bar_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = tmp_path / "set.txt"
    source.write_text("\n".join(pons_lines("Test_L3_R1", 3)) + "\n")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    status = main(["solve", "connect4", "--batch", str(source)])
    assert status == 0
    assert "solving" in terminal.getvalue() and "3/3" in terminal.getvalue()
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_ctrl_c_stops_a_batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import plies.lab._solve as solve_module  # the module that runs solve

    lines = pons_lines("Test_L3_R1", 5)
    source = tmp_path / "set.txt"
    source.write_text("\n".join(lines) + "\n")
    calls = 0
    real_solve = solve_module.solve

    def interrupted(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += "stop" in kwargs  # the lines' solves (not the warm-up's)
        if calls == 3:
            kwargs["stop"].set()  # type: ignore[attr-defined]  # as the SIGINT handler does
        return real_solve(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solve_module, "solve", interrupted)
    status = main(["solve", "connect4", "--batch", str(source)])
    out, err = capsys.readouterr()
    assert status == 130  # Ctrl-C, as every command (was 1)
    # The third position may finish before the search next looks at the request.
    done = out.splitlines()
    assert done == lines[: len(done)] and 2 <= len(done) <= 3
    assert f"error: interrupted after {len(done)} positions" in err


def test_other_board_size(capsys: pytest.CaptureFixture[str]) -> None:
    # 6 x 5: the side to move holds out to the last cell (30 stones: score -1).
    status, out, _ = run(capsys, "solve", "connect4:width=6,height=5", "44545321111312")
    assert status == 0
    assert out.splitlines()[:3] == [
        "result loss in 16 plies for the side to move",
        "score -1",
        "best move 3",
    ]


def test_position_may_follow_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "connect4", "--weak", L2_POSITION)
    assert status == 0 and out.splitlines()[:2] == ["result win for the side to move", "score 1"]
    status, out, _ = run(capsys, "analyze", "tictactoe", "--depth", "2", "1", "5")
    assert status == 0 and out.splitlines()[-1].startswith("bestmove ")
    assert_one_line_error(capsys, ["solve", "connect4", "--weak", "4", "--bogus"])


# -- the batch contract for scripts, Ctrl-C, and counts ------------------------------------


def test_batch_json_reports_bad_lines_as_json_objects(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bad lines were plain text on stderr only: a JSON reader never saw them.
    monkeypatch.setattr(sys, "stdin", io.StringIO("2252576253462244111563\nzz\n"))
    status, out, err = run(capsys, "solve", "connect4", "--batch", "-", "--json")
    assert status == 1
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["line"] == 1 and first["result"] == "loss"
    assert second == {
        "line": 2,
        "error": "connect4: a move is a column number 1-7, got 'z' (move 1 of 'zz')",
    }
    assert "error: line 2: connect4: a move is a column number 1-7" in err


def test_solve_echoes_the_moves_as_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The JSON 'position' was a move order rebuilt from the board (6756535522424462231112).
    given = "2252576253462244111563"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{given}\n"))
    _, out, _ = run(capsys, "solve", "connect4", "--batch", "-", "--json")
    assert json.loads(out)["position"] == given
    _, out, _ = run(capsys, "solve", "connect4", given, "--json", "--moves", "best")
    assert json.loads(out)["position"] == given
    _, out, _ = run(capsys, "solve", "nim", "--json")
    assert json.loads(out)["position"] == "3,4,5"  # none given: the game writes it


def test_solving_a_win_in_one_reports_its_node(capsys: pytest.CaptureFixture[str]) -> None:
    # 'plies solve nim 1000000' said 'nodes 0'.
    status, out, _ = run(capsys, "solve", "nim", "1000000", "--json")
    assert status == 0 and json.loads(out)["nodes"] >= 1


def test_usage_does_not_call_position_required(capsys: pytest.CaptureFixture[str]) -> None:
    # Was "the following arguments are required: GAME, POSITION".
    status, out, err = run(capsys, "solve")
    assert status == 1 and out == ""
    assert err.startswith("error: the following arguments are required: GAME (see ")


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--table-size", "3", "expected a number of at least 16, not 3"),
        ("--nodes", "0", "expected a number of at least 1, not 0"),
        (
            "--nodes",
            "9" * 5000,
            "expected a whole number of at most 18 digits, not one of 5,000 digits",
        ),
        ("--time", "0", "expected a number of seconds above 0, not '0'"),
    ],
)
def test_minimums_share_one_wording(
    capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    for argv in (["solve", "nim", option, value], ["solve", "nim", f"{option}={value}"]):
        status, out, err = run(capsys, *argv)
        assert status == 1 and out == "" and len(err.splitlines()) == 1
        assert err.startswith(f"error: argument {option}: {message} (see "), err


def test_weak_solve_notes_that_it_finds_no_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "solve", "nim", "--weak", "--moves", "line")
    assert status == 0
    assert err == "note: --moves line finds no line with --weak (only best moves)\n"


def test_ctrl_c_of_one_solve_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import plies.lab._solve as solve_module  # the module that runs solve

    real_solve = solve_module.solve

    def interrupted(*args: object, **kwargs: object) -> object:
        kwargs["stop"].set()  # type: ignore[attr-defined]  # as the SIGINT handler does
        return real_solve(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solve_module, "solve", interrupted)
    status, out, err = run(capsys, "solve", "connect4", "44")
    assert status == 130 and out == ""
    assert err == "error: interrupted before the position was solved\n"


@pytest.mark.parametrize("backend", ["python", "native"])
def test_both_backends_solve_the_batch(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, backend: str
) -> None:
    lines = pons_lines("Test_L2_R1", 20)
    source = tmp_path / "set.txt"
    source.write_text("\n".join(lines) + "\n")
    status, out, err = run(
        capsys, "solve", "connect4", "--batch", str(source), "--backend", backend
    )
    assert status == 0, err
    assert out.splitlines() == lines
    status, out, _ = run(capsys, "solve", "connect4", L2_POSITION, "--json", "--backend", backend)
    record = json.loads(out)
    assert (record["backend"], record["score"], record["best_moves"]) == (backend, 4, ["6"])


def test_default_backend_is_native_where_ported(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "solve", "connect4", L2_POSITION, "--json", "--moves", "none")
    assert status == 0 and json.loads(out)["backend"] == "native"
    status, out, err = run(capsys, "solve", "nim", "3,4,5", "--json")
    assert status == 0 and json.loads(out)["backend"] == "native"
    # 64 cells: no native port (a finished game, solved at once).
    status, out, err = run(capsys, "solve", "mnk:m=8,n=8,k=5", "1 9 2 10 3 11 4 12 5", "--json")
    assert status == 0 and json.loads(out)["backend"] == "python"
    assert err == ""  # no note when the default falls back to python


def test_the_command_line_sizes_each_ports_table() -> None:
    from plies.engine import NativeTable, table_for
    from plies.engine.native import DEFAULT_ENTRIES, SEARCH_ENTRIES
    from plies.games import get_game

    connect4 = table_for(get_game("connect4"), None, None)
    nim = table_for(get_game("nim"), None, None)
    assert isinstance(connect4, NativeTable) and isinstance(nim, NativeTable)
    assert connect4.size >= DEFAULT_ENTRIES > nim.size >= SEARCH_ENTRIES


# -- what a one-off solve imports --------------------------------------------------------

#: Modules a one-off ``plies solve`` has no use for: other commands', batches' and books'
#: (Dask, SQLite, the cluster), the analysis's searches (MCTS, N-player), the trees' and
#: the room's, and the status line's rich (shown on a terminal only). Each cost start-up.
NOT_FOR_ONE_SOLVE = (
    "dask",
    "distributed",
    "rich",
    "sqlite3",
    "plies.book",
    "plies.cluster",
    "plies.cli._analyze",
    "plies.cli._games",
    "plies.engine._mcts",
    "plies.engine._multi",
    "plies.lab._analyze",
    "plies.lab._check",
    "plies.lab._lines",
    "plies.lab._room",
    "plies.trees._search",
    "plies.trees._mcts",
)


def _loaded_by_solve(*argv: str) -> tuple[str, list[str]]:
    """``plies solve ARGV`` in a fresh interpreter: its output and the modules it loaded."""
    code = (
        "import json, sys\n"
        "from plies.cli import main\n"
        f"status = main(['solve', *{list(argv)!r}])\n"
        "print(json.dumps(sorted(sys.modules)))\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    *output, modules = done.stdout.splitlines()
    return "\n".join(output), json.loads(modules)


def _among(modules: list[str], names: tuple[str, ...]) -> list[str]:
    """The ``names`` (packages count with their modules) that ``modules`` hold."""
    return [n for n in names if any(m == n or m.startswith(f"{n}.") for m in modules)]


@pytest.mark.parametrize(
    ("argv", "backend", "score", "also_not"),
    [
        (("tictactoe", "1 2", "--backend", "python"), "python", None, ("numba", "llvmlite")),
        (("connect4", "32164625"), "native", 11, ()),  # Numba unless the object cache loads
    ],
)
def test_a_one_off_solve_loads_only_what_it_uses(
    argv: tuple[str, ...], backend: str, score: int | None, also_not: tuple[str, ...]
) -> None:
    output, modules = _loaded_by_solve(*argv, "--json")
    record = json.loads(output)
    assert (record["backend"], record["score"]) == (backend, score)
    assert _among(modules, (*NOT_FOR_ONE_SOLVE, *also_not)) == []
    assert "plies.lab._solve" in modules  # the solve ran where the test looks
