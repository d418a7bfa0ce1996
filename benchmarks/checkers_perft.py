"""Benchmark: checkers perft from the start, depths 1-8, through the game's own rules.

    python benchmarks/checkers_perft.py [--depth 8] [--reference-depth 6] [--repeat 1]

Counts the leaves of the English draughts game tree from the standard start with
``Checkers.legal_moves`` and ``play`` (the checked move, as a user calls it) and with
``play_unchecked`` (the engine's path), checks every count against the published ones
(7, 49, 302, 1469, 7361, 36768, 179740, 845931), and prints the time and the leaves
and nodes (positions whose moves were generated) per second of each depth.

The reference, timed in the same run on the same depths up to ``--reference-depth``:
the plain 8 x 8 mailbox generator the tests check the bitboards against
(``tests/games/checkers_mailbox.py``: a dict of squares, the rules written out), with
the ratio of its time to the bitboards'. The machine is shared: ``--repeat N`` keeps the
fastest of N runs of each measurement.

With Numba installed, the native port's rules (:mod:`plies.games.checkers._native`:
``legal_moves`` and ``play`` through the kernel's function pointers, called by a
compiled perft) count the same tree, checked against the same numbers; ``native x`` is
the Python (unchecked) time over the native time, at equal nodes. Compiling (or loading
the compiled code) happens before the timing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from plies.engine.native import numba_missing
from plies.games.checkers import Checkers, CheckersState

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from games import checkers_mailbox as mailbox

#: Published perft counts of English draughts from the start, depths 1-8.
PERFT = (7, 49, 302, 1469, 7361, 36768, 179740, 845931)

GAME = Checkers()


def perft(
    state: CheckersState,
    depth: int,
    play: Callable[[CheckersState, tuple[int, ...]], CheckersState],
) -> tuple[int, int]:
    """(leaves, interior nodes) at ``depth`` plies; the last ply is counted, not played."""
    moves = GAME.legal_moves(state)
    if depth == 1:
        return len(moves), 1
    leaves = nodes = 0
    for move in moves:
        below, inner = perft(play(state, move), depth - 1, play)
        leaves += below
        nodes += inner
    return leaves, nodes + 1


def native_perft() -> Callable[[int], int] | None:
    """``depth -> leaves`` through the native port's rules, compiled (None: no Numba)."""
    if numba_missing():
        return None
    import numpy as np

    from plies.games.checkers._native import perft as compiled_perft

    port = GAME.native()
    prepared = port.prepare(GAME.initial_state())
    rules = port.rules()

    def count(depth: int) -> int:
        states = np.zeros((depth + 1, prepared.state.size), np.int64)
        states[0] = prepared.state
        moves = np.zeros((depth + 1, prepared.max_moves), np.int64)
        return int(compiled_perft(rules, prepared.consts, states, moves, 0, depth))

    count(2)  # compile, or load the compiled code
    return count


def fastest(repeat: int, run: Callable[[], object]) -> tuple[float, object]:
    """The shortest wall-clock time of ``repeat`` calls of ``run``, and its result."""
    best = float("inf")
    result: object = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> int:
    """Run perft, check the counts, print the table; exit 1 if a count is wrong."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=8, choices=range(1, 9))
    parser.add_argument("--reference-depth", type=int, default=6, choices=range(0, 9))
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    start = GAME.initial_state()
    native = native_perft()
    print(
        f"{'depth':>5} {'leaves':>9}  {'play s':>7} {'leaves/s':>9} {'nodes/s':>8}  "
        f"{'unchecked s':>11} {'leaves/s':>9} {'nodes/s':>8}  "
        + (f"{'native s':>8} {'nodes/s':>11} {'native x':>8}  " if native else "")
        + f"{'mailbox s':>9} {'ratio':>6}"
    )
    wrong = 0
    totals: list[float] = [0.0, 0.0, 0, 0.0]
    for depth in range(1, args.depth + 1):
        checked_time, checked = fastest(args.repeat, lambda d=depth: perft(start, d, GAME.play))
        fast_time, fast = fastest(args.repeat, lambda d=depth: perft(start, d, GAME.play_unchecked))
        assert isinstance(checked, tuple) and isinstance(fast, tuple)
        leaves, nodes = checked
        if checked != fast or leaves != PERFT[depth - 1]:
            wrong += 1
            print(f"depth {depth}: {leaves} and {fast[0]} leaves, published {PERFT[depth - 1]}")
        line = (
            f"{depth:>5} {leaves:>9,}  {checked_time:>7.3f} {leaves / checked_time:>9,.0f} "
            f"{nodes / checked_time:>8,.0f}  {fast_time:>11.3f} {leaves / fast_time:>9,.0f} "
            f"{nodes / fast_time:>8,.0f}"
        )
        if native is not None:
            native_time, native_leaves = fastest(args.repeat, lambda d=depth: native(d))
            if native_leaves != leaves:
                wrong += 1
                print(f"depth {depth}: the native port counts {native_leaves}")
            line += (
                f"  {native_time:>8.4f} {nodes / native_time:>11,.0f} "
                f"{fast_time / native_time:>7.1f}x"
            )
            totals[3] += native_time
        if depth <= args.reference_depth:
            ref_time, ref = fastest(
                args.repeat, lambda d=depth: mailbox.perft(mailbox.start(), 0, d)
            )
            if ref != leaves:
                wrong += 1
                print(f"depth {depth}: the mailbox reference counts {ref}")
            line += f"  {ref_time:>9.3f} {ref_time / fast_time:>6.1f}"
        totals[0] += checked_time
        totals[1] += fast_time
        totals[2] += leaves
        print(line)
    print(
        f"total {totals[2]:,} leaves: {totals[0]:.2f} s with play, {totals[1]:.2f} s with "
        f"play_unchecked ({totals[2] / totals[1]:,.0f} leaves/s); ratio = mailbox time / "
        "bitboard (unchecked) time"
    )
    if native is not None:
        print(
            f"native: {totals[3]:.3f} s in all ({totals[2] / totals[3]:,.0f} leaves/s), "
            f"{totals[1] / totals[3]:.1f}x the Python (unchecked) speed"
        )
    print("all counts match the published ones" if not wrong else f"{wrong} counts differ")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
