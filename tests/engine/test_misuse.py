"""The engine and the Python API hold: misuse ends in plies' own one-line errors, at
once, and never in a hang or a foreign exception (issue 24).

Each test reproduces a report: a weak solve of a mate in one that never ended, an
aspiration window of NaN that widened for ever, tables larger than the machine built
(or their prime looked for) before failing, AttributeErrors and Numba typing errors
from misused arguments, and the kernel's load counted as search time.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from plies.engine import (
    Limits,
    NativeTable,
    TranspositionTable,
    iterate,
    search,
    solve,
    table_for,
    warm_up,
)
from plies.errors import ArgumentTypeError, LimitError, PliesError, SearchError
from plies.games import get_game, parse_game_spec
from plies.games.connect4 import Connect4

TTT = get_game("tictactoe")
MATE_IN_ONE = "7k/8/5KQ1/8/8/8/8/8 w - - 0 1"


class _TooSlow(BaseException):
    pass


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Fail (instead of hanging) when the block runs longer than ``seconds``."""

    def alarm(signum: int, frame: Any) -> None:
        raise _TooSlow

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _TooSlow:
        pytest.fail(f"still running after {seconds} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def plies(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m plies ARGV`` in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "plies", *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


# -- hangs ------------------------------------------------------------------------------


def test_a_weak_solve_of_a_mate_in_one_ends_at_once() -> None:
    # It never ended: --weak found every move that keeps the win, each king and queen
    # move of KQ v K proven a win to its end.
    pytest.importorskip("chess")
    started = time.monotonic()
    done = plies("solve", "chess", MATE_IN_ONE, "--weak")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("result win for the side to move\nbest move ")
    assert time.monotonic() - started < 30


def test_a_weak_solve_finds_one_best_move_unless_asked_for_all() -> None:
    done = plies("solve", "tictactoe", "1 5", "--weak", "--json")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["best_moves"]) == 1
    done = plies("solve", "tictactoe", "1 5", "--weak", "--json", "--moves", "all")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["best_moves"]) > 1


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("aspiration", [math.nan, math.inf, -1.0])
def test_an_aspiration_window_that_cannot_narrow_is_refused(
    backend: str, aspiration: float
) -> None:
    # NaN looped for ever on both backends (no window contains NaN; the width grew).
    state = TTT.parse_position("5")
    with within(10), pytest.raises(SearchError, match="aspiration"):
        search(TTT, state, limits=Limits(depth=3), aspiration=aspiration, backend=backend)
    with within(10), pytest.raises(SearchError, match="aspiration"):
        iterate(TTT, state, limits=Limits(depth=3), aspiration=aspiration, backend=backend)


@pytest.mark.parametrize(
    "make",
    [
        lambda: NativeTable(10**18),
        lambda: NativeTable(999_999_999_999_999_999),
        lambda: TranspositionTable(10**12),
        lambda: table_for(TTT, "native", 10**18),
        lambda: table_for(TTT, "python", 10**18),
        lambda: table_for(Connect4(), None, 10**15),
    ],
)
def test_a_table_larger_than_memory_is_refused_before_anything_is_made(
    make: Callable[[], object],
) -> None:
    # 10**18 entries: 46 s of CPU looking for the next prime, then a NumPy traceback.
    started = time.monotonic()
    with within(10), pytest.raises(LimitError, match=r"more than the .* of memory this machine"):
        make()
    assert time.monotonic() - started < 2


def test_the_memory_check_follows_the_address_space_limit() -> None:
    # A table that fits the machine but not a process limited to 1 GB (ulimit -v).
    code = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from plies.engine import NativeTable\n"
        "from plies.errors import LimitError\n"
        "try:\n"
        "    NativeTable(1 << 28)\n"
        "except LimitError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "needs 1.34 GB, more than the 1.07 GB of memory" in done.stdout


def test_a_table_of_the_search_is_checked_when_its_arrays_are_made() -> None:
    # Pons' keys and values take 5 bytes an entry, the search's arrays 33: a table
    # that fits the first may not fit the second, and is refused before allocating.
    table = NativeTable(3)
    table.size = 10**12  # as if made for a machine with more memory
    with pytest.raises(LimitError, match="a native table of 1,000,000,000,000 entries"):
        table.search_arrays()
    assert table.search is None


def test_the_table_size_option_is_checked_against_memory() -> None:
    # A NumPy traceback for large values; 999999999999999999 after 46 s of CPU.
    for size in ("999999999999999999", "100000000000"):
        for backend in ("native", "python"):
            started = time.monotonic()
            done = plies("solve", "connect4", "4453", "--table-size", size, "--backend", backend)
            assert time.monotonic() - started < 30
            assert done.returncode == 1
            assert done.stdout == ""
            assert done.stderr.count("\n") == 1
            assert "of memory this machine has; give fewer entries" in done.stderr or (
                "give a smaller capacity" in done.stderr
            )


# -- the Python API's arguments ---------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "named"),
    [
        (lambda: parse_game_spec(None), ArgumentTypeError, "a game spec is text"),
        (lambda: Connect4().parse_position(None), ArgumentTypeError, "position's text"),
        (lambda: solve(TTT, TTT.initial_state(), weak=b"x"), ArgumentTypeError, "weak"),
        (lambda: solve(TTT, TTT.initial_state(), limits=5), ArgumentTypeError, "limits"),
        (lambda: solve(TTT, None), ArgumentTypeError, "a state must be of type MNKState"),
        (lambda: search(TTT, None), ArgumentTypeError, "a state must be of type MNKState"),
        (lambda: solve("tictactoe", None), ArgumentTypeError, "game must be a plies game"),
        (lambda: search(TTT, TTT.initial_state(), stop=True), ArgumentTypeError, "stop"),
        (lambda: search(TTT, TTT.initial_state(), seed=1.5), ArgumentTypeError, "seed"),
        (lambda: search(TTT, TTT.initial_state(), use_table="no"), ArgumentTypeError, "use_table"),
        (lambda: solve(TTT, TTT.initial_state(), moves=None), ArgumentTypeError, "moves option"),
        (lambda: solve(TTT, TTT.initial_state(), backend=3), ArgumentTypeError, "backend"),
        (lambda: solve(TTT, TTT.initial_state(), progress=3), ArgumentTypeError, "progress"),
        (lambda: table_for(TTT, None, 2.5), ArgumentTypeError, "entries"),
        (lambda: warm_up(TTT, None), ArgumentTypeError, "table"),
        (lambda: TTT.legal_moves(get_game("nim").initial_state()), ArgumentTypeError, "NimState"),
    ],
)
def test_misused_arguments_raise_plies_errors_naming_them(
    call: Callable[[], object], error: type[PliesError], named: str
) -> None:
    with pytest.raises(error, match=named):
        call()


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_state_of_another_board_is_refused_before_the_search(backend: str) -> None:
    # A 5 x 4 position solved as a 7 x 6 one ran for minutes on both backends (stones
    # floating in the air of the larger board).
    small = parse_game_spec("connect4:width=5,height=4")
    state = small.parse_position("33")
    with within(10), pytest.raises(PliesError, match="stones floating above an empty cell"):
        solve(Connect4(), state, backend=backend)


def test_a_weak_solve_takes_no_typing_error_from_numba() -> None:
    for weak in (b"x", 1, None, "yes"):
        with pytest.raises(ArgumentTypeError, match="weak must be True or False"):
            solve(Connect4(), Connect4().parse_position("4453"), weak=weak, backend="native")


# -- the kernel's load is no search -----------------------------------------------------


def test_the_first_native_search_does_not_count_the_kernel_load(tmp_path: Path) -> None:
    # The first search after install reported 'time 4.97 nps 2': the kernel compiled
    # (here too: Numba's cache is an empty directory) inside the search's clock.
    code = (
        "import time\n"
        "from plies.engine import Limits, search, solve\n"
        "from plies.games import get_game\n"
        "game = get_game('tictactoe')\n"
        "started = time.perf_counter()\n"
        "result = search(game, game.initial_state(), limits=Limits(depth=1), backend='native')\n"
        "print(result.stats.time, time.perf_counter() - started)\n"
        "started = time.perf_counter()\n"
        "solved = solve(game, game.parse_position('5 1'), moves='best', backend='native')\n"
        "print(solved.stats.time, time.perf_counter() - started)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PLIES_OBJECT_CACHE": "0"},
    )
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        counted, wall = map(float, line.split())
        assert wall > 1 and counted < 0.5, (counted, wall)  # compiling takes seconds
