"""Benchmark: solve Pascal Pons' Connect Four test sets and compare with his C++ solver.

Reads ``../shared/connect4-testsets/Test_*`` (lines ``<moves> <score>``, moves as
1-based columns, score in Pons' convention), solves each position exactly with
``plies.engine.solve`` on the built-in ``connect4`` game (the value only, a fresh
table per position, as Pons' benchmark does), converts the result to Pons' score with
``Connect4.exact_score``, checks it, and prints per set the mean time and mean nodes
per position beside the C++ solver's published means on a machine like ours, and the
peak memory of the process.

Run: ``python benchmarks/connect4.py`` (``--sets Test_L3_R1,Test_L2_R1``, ``--count N``
positions per set, ``--time S`` per position, ``--weak``, ``--table-size ENTRIES``).
Positions that run out of time are counted and reported, not guessed. The machine's
speed varies from run to run (a shared VM): ``--repeat 3`` keeps each set's fastest run.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

from plies.engine import Limits, TranspositionTable, solve
from plies.errors import SearchError
from plies.games.connect4 import Connect4

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "connect4-testsets"

#: Pons' C++ solver, single-threaded (the issue's figures): mean seconds, mean nodes.
PONS = {
    "Test_L3_R1": (20e-6, 51),
    "Test_L2_R1": (0.15e-3, 449),
    "Test_L2_R2": (15e-3, 40_000),
    "Test_L1_R1": (0.8e-3, 3_300),
    "Test_L1_R2": (0.47, 1_200_000),
    "Test_L1_R3": (10.7, 25_600_000),
}
#: Positions per set by default (all 1,000 of the quick sets, the first N of the others).
DEFAULT_COUNT = {"Test_L2_R2": 100, "Test_L1_R2": 10, "Test_L1_R3": 2}


def _seconds(value: float) -> str:
    """A duration in ms below a second, else in s."""
    return f"{value * 1000:.3f}ms" if value < 1 else f"{value:.2f}s"


def run_set(
    game: Connect4, lines: list[str], *, table: TranspositionTable, weak: bool, seconds: float
) -> tuple[list[float], list[int], int, int, int]:
    """Solve ``lines``: (times, nodes, right, wrong, timeouts)."""
    times: list[float] = []
    nodes: list[int] = []
    right = wrong = timeouts = 0
    for line in lines:
        moves, expected = line.split()
        state = game.parse_position(moves)
        table.clear()
        start = time.perf_counter()
        try:
            solved = solve(
                game, state, table=table, weak=weak, moves="none", limits=Limits(time=seconds)
            )
        except SearchError:
            timeouts += 1
            continue
        times.append(time.perf_counter() - start)
        nodes.append(solved.stats.nodes)
        if weak:
            score = {"win": 1, "draw": 0, "loss": -1}[solved.result]
            wanted = (int(expected) > 0) - (int(expected) < 0)
        else:
            score = game.exact_score(state, solved.result, solved.distance or 0)
            wanted = int(expected)
        if score == wanted:
            right += 1
        else:
            wrong += 1
            print(f"  wrong: {moves} expected {wanted}, got {score}")
    return times, nodes, right, wrong, timeouts


def main() -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(PONS), help="comma-separated set names")
    ap.add_argument(
        "--count",
        type=int,
        default=None,
        help="positions per set (default: all, 100 of L2_R2, 10 of L1_R2, 2 of L1_R3)",
    )
    ap.add_argument("--time", type=float, default=300.0, help="seconds per position at most")
    ap.add_argument("--weak", action="store_true", help="decide only win/draw/loss")
    ap.add_argument("--table-size", type=int, default=1 << 20, help="table entries at most")
    ap.add_argument("--repeat", type=int, default=1, help="runs per set; the fastest is kept")
    args = ap.parse_args()
    if not SHARED.is_dir():
        print(f"test sets not found at {SHARED}")
        return 1
    game = Connect4()
    table = TranspositionTable(args.table_size)
    print(f"{'weak' if args.weak else 'strong'} solve, table of {args.table_size:,} entries")
    print(
        f"{'set':<12}{'positions':>10}{'right':>7}{'timeouts':>9}{'mean time':>12}"
        f"{'Pons':>11}{'ratio':>8}{'mean nodes':>12}{'Pons':>11}{'ratio':>7}{'peak RSS':>10}"
    )
    wrong_total = 0
    for name in args.sets.split(","):
        lines = [line for line in (SHARED / name).read_text().splitlines() if line.strip()]
        count = args.count or DEFAULT_COUNT.get(name, len(lines))
        best: tuple[list[float], list[int], int, int, int] | None = None
        for _ in range(max(1, args.repeat)):
            run = run_set(game, lines[:count], table=table, weak=args.weak, seconds=args.time)
            if best is None or sum(run[0]) < sum(best[0]):
                best = run
        assert best is not None
        times, nodes, right, wrong, timeouts = best
        wrong_total += wrong
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        pons_time, pons_nodes = PONS[name]
        if times:
            mean_t, mean_n = statistics.fmean(times), statistics.fmean(nodes)
            print(
                f"{name:<12}{count:>10}{right:>7}{timeouts:>9}{_seconds(mean_t):>12}"
                f"{_seconds(pons_time):>11}{mean_t / pons_time:>7.1f}x{mean_n:>12,.0f}"
                f"{pons_nodes:>11,}{mean_n / pons_nodes:>6.2f}x{peak_mb:>8.0f}MB"
            )
        else:
            print(f"{name:<12}{count:>10}{right:>7}{timeouts:>9}  (every position timed out)")
        sys.stdout.flush()
    print(
        "ratio = plies / Pons (time: plies' Python against his C++; nodes: search size). "
        f"Table entries at the end: {len(table):,}."
    )
    return 1 if wrong_total else 0


if __name__ == "__main__":
    sys.exit(main())
