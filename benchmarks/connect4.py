"""Benchmark: solve Pascal Pons' Connect Four test sets and compare with his C++ solver.

Reads ``../shared/connect4-testsets/Test_*`` (lines ``<moves> <score>``, moves as
1-based columns, score in Pons' convention), solves each position exactly with
``plies.engine.solve`` on the built-in ``connect4`` game, converts the result to Pons'
score (see :func:`pons_score`), checks it, and prints per set the mean time and mean
nodes per position beside the C++ solver's published means on a machine like ours.

Run: ``python benchmarks/connect4.py`` (``--sets Test_L3_R1,Test_L2_R1``, ``--count N``
positions per set, ``--time S`` per position; positions that run out of time are
counted and reported, not guessed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from plies.engine import Limits, solve
from plies.errors import SearchError
from plies.games import get_game

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
DEFAULT_COUNT = {"Test_L1_R2": 20, "Test_L1_R3": 3}


def pons_score(result: str, distance: int, moves_played: int, cells: int = 42) -> int:
    """Pons' score for the side to move from a win/draw/loss and its distance in plies.

    A win scores ``cells // 2 + 1`` minus the stones the winner has when it completes
    four (22 minus stones on 7 x 6), a loss the negation of the opponent's such score,
    a draw 0. The side to move has ``moves_played // 2`` stones now and places its
    ``(distance + 1) // 2``-th stone to win; the opponent has ``(moves_played + 1) // 2``.
    """
    top = cells // 2 + 1
    if result == "win":
        return top - (moves_played // 2 + (distance + 1) // 2)
    if result == "loss":
        return -(top - ((moves_played + 1) // 2 + distance // 2))
    return 0


def main() -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(PONS), help="comma-separated set names")
    ap.add_argument(
        "--count",
        type=int,
        default=None,
        help="positions per set (default: all, 20 of L1_R2, 3 of L1_R3)",
    )
    ap.add_argument("--time", type=float, default=60.0, help="seconds per position at most")
    args = ap.parse_args()
    if not SHARED.is_dir():
        print(f"test sets not found at {SHARED}")
        return 1
    game = get_game("connect4")
    print(
        f"{'set':<12}{'positions':>10}{'right':>7}{'timeouts':>9}{'mean time':>12}"
        f"{'Pons':>10}{'ratio':>8}{'mean nodes':>12}{'Pons':>10}{'ratio':>8}"
    )
    wrong_total = 0
    for name in args.sets.split(","):
        lines = (SHARED / name).read_text().split("\n")
        lines = [line for line in lines if line.strip()]
        count = args.count or DEFAULT_COUNT.get(name, len(lines))
        times: list[float] = []
        nodes: list[int] = []
        right = timeouts = 0
        for line in lines[:count]:
            moves, expected = line.split()
            state = game.parse_position(moves)
            start = time.perf_counter()
            try:
                solved = solve(game, state, limits=Limits(time=args.time))
            except SearchError:
                timeouts += 1
                continue
            times.append(time.perf_counter() - start)
            nodes.append(solved.stats.nodes)
            score = pons_score(solved.result, solved.distance, len(moves))
            if score == int(expected):
                right += 1
            else:
                wrong_total += 1
                print(
                    f"  wrong: {moves} expected {expected}, got {score} "
                    f"({solved.result} in {solved.distance})"
                )
        pons_time, pons_nodes = PONS[name]
        if times:
            mean_t, mean_n = statistics.fmean(times), statistics.fmean(nodes)
            print(
                f"{name:<12}{count:>10}{right:>7}{timeouts:>9}{mean_t:>11.4f}s"
                f"{pons_time:>9.5f}s{mean_t / pons_time:>7.0f}x{mean_n:>12,.0f}"
                f"{pons_nodes:>10,}{mean_n / pons_nodes:>7.1f}x"
            )
        else:
            print(f"{name:<12}{count:>10}{right:>7}{timeouts:>9}  (every position timed out)")
        sys.stdout.flush()
    print("ratio = plies / Pons (time: plies' Python against his C++; nodes: search size)")
    return 1 if wrong_total else 0


if __name__ == "__main__":
    sys.exit(main())
