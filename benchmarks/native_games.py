"""Benchmark: the native search against the Python engine on every ported game.

Each case is one ``plies.engine.search`` (PVS, the default table, iterative
deepening to the depth given or to the end) run on both backends in the same run.
The native search visits the same nodes as the Python one (the script checks the
counts are equal, and the values, moves and lines), so the ratio of nodes per
second is the ratio of times. Each backend's best of ``--repeat`` runs, or of as many
as fit in half a second, is kept (a shared VM's speed varies); the native time
includes the Python driver around the kernel (one call per iteration and window).

``--compile`` also measures what the first native search costs in a fresh process:
with an empty Numba cache (a temporary ``NUMBA_CACHE_DIR``: everything compiled) and
then with that cache warm (everything loaded), the import of plies and Numba included.

Run: ``python benchmarks/native_games.py`` (``--repeat N``, ``--compile``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from plies.engine import Limits, search
from plies.games import parse_game_spec


class Case(NamedTuple):
    """One search: a game spec, a POSITION and a depth (None: to the end)."""

    label: str
    game: str
    position: str
    depth: int | None


#: A random game's first 52 moves: 12 empty squares, black to move (and lose).
OTHELLO_ENDGAME = (
    "c4c5f6c3b6f5g6e3f4d3e6c6b2f3f2a7b7g1b5g5h5c2d2f7e7d7"
    "f1c1d8a8b3g2h1a6b4h7g7e2c7f8b8g4b1a3h4h8a1a4"
)

CASES = (
    Case("tic-tac-toe, to the end", "tictactoe", "", None),
    Case("m,n,k 4,4,3 depth 9", "mnk:m=4,n=4,k=3", "", 9),
    Case("m,n,k 5,5,4 depth 6", "mnk:m=5,n=5,k=4", "", 6),
    Case("m,n,k 5,5,4 depth 8", "mnk:m=5,n=5,k=4", "", 8),
    Case("m,n,k 7,6,4 depth 5", "mnk:m=7,n=6,k=4", "", 5),
    Case("nim 3,4,5, to the end", "nim", "3,4,5", None),
    Case("nim 2,3,4,5 depth 8", "nim", "2,3,4,5", 8),
    Case("nim 1,2,3,4,5,6 depth 6", "nim", "1,2,3,4,5,6", 6),
    Case("nim 2,3,4,5,6 depth 10", "nim", "2,3,4,5,6", 10),
    Case("othello start depth 10", "othello", "", 10),
    Case("othello midgame depth 7", "othello", "f5f6e6f4g6d7c3c4e3d3c5b3g4g7c8c6b5h4b2c2", 7),
    Case("othello 12 empties, to end", "othello", OTHELLO_ENDGAME, None),
    Case("checkers start depth 10", "checkers", "", 10),
    Case("checkers 2K v 1K depth 16", "checkers", "B:WK28:BK19,K23", 16),
    Case("connect4 7x6 4453 depth 10", "connect4", "4453", 10),
    Case("connect4 9x7 4453 depth 8", "connect4:width=9,height=7", "4453", 8),
)


#: Seconds of searches each backend gets per case at least: a search of a
#: millisecond is timed a few hundred times, not ``--repeat`` times only.
MIN_SECONDS = 0.5


def best_run(case: Case, backend: str, repeat: int) -> Any:
    """The fastest of at least ``repeat`` searches of ``case`` on ``backend``, and of
    as many more as fit in :data:`MIN_SECONDS`."""
    game = parse_game_spec(case.game)
    state = game.parse_position(case.position)
    best = None
    runs = 0
    started = time.perf_counter()
    while runs < repeat or time.perf_counter() - started < MIN_SECONDS:
        result = search(game, state, limits=Limits(depth=case.depth), backend=backend)
        if best is None or result.stats.time < best.stats.time:
            best = result
        runs += 1
    return best


def run_cases(repeat: int) -> int:
    """Print a row per case and the ratios; 1 if the backends disagreed."""
    best_run(CASES[0], "native", 1)  # load the compiled code before timing anything
    print(f"{'case':<26} {'nodes':>10} {'python n/s':>12} {'native n/s':>12} {'ratio':>7}")
    status = 0
    ratios = []
    for case in CASES:
        python = best_run(case, "python", repeat)
        native = best_run(case, "native", repeat)
        same = (python.value, python.best_move, python.pv, python.stats.nodes) == (
            native.value,
            native.best_move,
            native.pv,
            native.stats.nodes,
        )
        python_nps = python.stats.nodes / python.stats.time
        native_nps = native.stats.nodes / native.stats.time
        ratio = native_nps / python_nps
        ratios.append(ratio)
        print(
            f"{case.label:<26} {native.stats.nodes:>10,} {python_nps:>12,.0f} "
            f"{native_nps:>12,.0f} {ratio:>6.1f}x" + ("" if same else "  DIFFERENT RESULTS"),
            flush=True,
        )
        if not same:
            status = 1
    print(f"native / python nodes per second: {min(ratios):.1f}x to {max(ratios):.1f}x")
    return status


_FIRST_SEARCH = """
import time
started = time.perf_counter()
from plies.engine import search, solve
from plies.games import get_game
for name in ("tictactoe", "nim"):
    game = get_game(name)
    search(game, game.initial_state(), backend="native")
    solve(game, game.initial_state(), backend="native")
print(time.perf_counter() - started)
"""


def measure_compile() -> None:
    """The first native search and solve in a fresh process, cold cache then warm."""
    src = Path(__file__).resolve().parents[1] / "src"
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(src)}
        for label in ("cold cache (compiles)", "warm cache (loads)"):
            started = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-c", _FIRST_SEARCH],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            wall = time.perf_counter() - started
            print(
                f"first native search + solve, {label}: {float(out.stdout):.2f} s "
                f"({wall:.2f} s with the interpreter's start)"
            )


def main() -> int:
    """Parse the arguments, run the cases (and the compile measurement)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case and backend")
    parser.add_argument("--compile", action="store_true", help="measure the compile cost too")
    args = parser.parse_args()
    status = run_cases(max(args.repeat, 1))
    if args.compile:
        measure_compile()
    return status


if __name__ == "__main__":
    sys.exit(main())
