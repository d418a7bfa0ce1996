"""The top-level command line: reading arguments as people type them, lazy imports,
and the exit statuses of the script contract."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli_errors import assert_one_line_error, run
from cluster_helpers import plies_env, run_python
from plies.cli import COMMANDS, command_parser, normalize

OTHELLO_START = "-" * 27 + "XO------OX" + "-" * 27 + "X"


@pytest.mark.parametrize(
    "option",
    [
        ["--leaves", "-1,2,3,4", "--branching", "2"],
        ["--leaves=-1,2,3,4", "--branching", "2"],
        ["[[-1,2],[3,4]]", "--window", "-3,3"],
        ["[[-1,2],[3,4]]", "--bounds", "-10,10", "--algorithm", "expectiminimax"],
        ["--random", "--values", "-5,5", "--seed", "1"],
        ["--random", "--values", "-5,-1", "--seed", "-3"],
    ],
)
def test_option_values_may_start_with_a_minus(
    capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    status, out, err = run(capsys, "tree", *option, "--json")
    assert status == 0, err
    assert "value" in json.loads(out)


def test_negative_leaves_are_read_as_leaves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tree", "--leaves", "-1,2,3,4", "--branching", "2", "--json")
    assert status == 0
    assert json.loads(out)["value"] == 3


def test_a_positional_may_start_with_a_minus(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tree", "-5", "--json")
    assert status == 0
    assert json.loads(out)["value"] == -5


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "othello", OTHELLO_START, "--depth", "2"],
        ["analyze", "othello", "--depth", "2", "--", OTHELLO_START],
        ["analyze", "--depth", "2", "othello", OTHELLO_START],
    ],
)
def test_othello_boards_starting_with_a_minus(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert out.splitlines()[-1].startswith("bestmove ")


def test_positions_may_follow_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "tictactoe", "1", "--weak", "5", "9")
    assert status == 0
    assert out.startswith("result ")


def test_normalize_joins_dash_values_and_moves_positionals_last() -> None:
    sub = command_parser("tree")
    assert normalize(["T", "--leaves", "-1,2", "--json", "-x9"], sub) == [
        "--leaves=-1,2",
        "--json",
        "--",
        "T",
        "-x9",
    ]
    # A known short option stays an option; an unknown --word is left to argparse.
    assert normalize(["-h"], sub) == ["-h"]
    assert normalize(["--nonsense"], sub) == ["--nonsense"]


@pytest.mark.parametrize(
    "argv",
    [
        ["bogus"],
        ["tree", "--nonsense"],
        ["tree", "[1,2]", "--order", "sideways"],
        ["tree", "--branching", "0", "--leaves", "1,2"],
        ["tree", "[1,2]", "--seed", "9" * 5000],
        ["tree", "[1,2]", "--draw", "x.svg", "--max-nodes", "9" * 5000],
    ],
)
def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert_one_line_error(capsys, argv)


def test_no_command_prints_the_help_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys)
    assert status == 1
    for name in COMMANDS:
        assert name in out


def test_help_lists_every_command_without_importing_them() -> None:
    code = (
        "import sys\n"
        "from plies.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "finally:\n"
        "    loaded = [m for m in sys.modules if m.startswith('plies.cli._')]\n"
        "    print(loaded, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == "[]"
    for name in COMMANDS:
        assert name in done.stdout


def test_each_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for name in COMMANDS:
        status, out, _ = run(capsys, name, "--help")
        assert status == 0
        assert out.startswith(f"usage: plies {name}")


def test_a_board_starting_with_two_dashes_and_a_letter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    board = "--X" + OTHELLO_START[3:]  # black on c1 as well
    status, out, err = run(capsys, "analyze", "othello", board, "--depth", "1")
    assert status == 0, err
    assert out.splitlines()[-1].startswith("bestmove ")


def _as_plies_process(command: str) -> subprocess.CompletedProcess[str]:
    """A new process run as plies' own (``main()`` without arguments, as the ``plies``
    script does), its command's work (``_main``) replaced by the body ``command``."""
    code = (
        "import atexit, sys\n"
        "from plies import cli\n"
        "def command(argv):\n"
        + "".join(f"    {line}\n" for line in command.splitlines())
        + "cli._main = command\n"
        "raise SystemExit(cli.main())\n"
    )
    return run_python(code)


def test_plies_own_process_ends_after_its_exit_handlers_without_teardown() -> None:
    # A handler registered while the command runs still runs, the output is flushed,
    # the status is main's, and the objects left are not freed one by one (no __del__).
    done = _as_plies_process(
        "class Freed:\n"
        "    def __del__(self):\n"
        "        print('freed', file=sys.stderr)\n"
        "cli.LEFT = Freed()\n"
        "atexit.register(print, 'handler ran', file=sys.stderr)\n"
        "print('x' * 100000, end='')\n"
        "return 3"
    )
    assert done.returncode == 3
    assert done.stdout == "x" * 100000
    assert done.stderr == "handler ran\n"


def test_an_uncaught_exception_gets_pythons_own_exit() -> None:
    done = _as_plies_process("raise RuntimeError('bug')")
    assert done.returncode == 1
    assert "RuntimeError: bug" in done.stderr


@pytest.mark.parametrize(("given", "seen"), [(None, "1"), ("3", "3")])
def test_plies_own_process_runs_blas_on_one_thread_unless_told_otherwise(
    given: str | None, seen: str
) -> None:
    # NumPy's OpenBLAS would start a thread per core at NumPy's import: plies needs none.
    code = (
        "import os\n"
        "from plies import cli\n"
        "cli._main = lambda argv: print(os.environ.get('OPENBLAS_NUM_THREADS')) or 0\n"
        "raise SystemExit(cli.main())\n"
    )
    env = {k: v for k, v in plies_env().items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, f"{seen}\n"), done.stderr


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "argv",
    [
        ["tree", "[1,2]"],
        ["tree", "[1,2]", "--json"],
        ["solve", "connect4", "4453"],
        ["games"],
    ],
)
def test_output_that_cannot_be_written_is_one_line_and_status_1(argv: list[str]) -> None:
    """A full disk (/dev/full) under the output: one line on stderr and status 1, not a
    traceback, nor a status 0 with the output lost."""
    from cluster_helpers import plies_env

    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "plies", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=plies_env(),
            timeout=120,
            check=False,
        )
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        "error: the output could not be written: No space left on device"
    ]
