"""Benchmark: solve Pascal Pons' Connect Four test sets, optionally beside a reference solver.

Reads ``../shared/connect4-testsets/Test_*`` (lines ``<moves> <score>``, moves as
1-based columns, score in Pons' convention), solves each position exactly with
``plies.engine.solve`` on the built-in ``connect4`` game (the value only, a fresh
table per position, as Pons' benchmark does), converts the result to Pons' score with
``Connect4.exact_score``, checks it, and prints per set the positions, the right answers,
the timeouts, the mean wall time, CPU time (process time: the machine may be shared) and
nodes per position and the peak memory of the process.

``--reference PATH`` (repeatable: ``--reference pons=PATH --reference c4=PATH``) runs
reference solvers in the same run, on the same machine: any binary that reads ``<moves>``
lines and prints ``<moves> <score> <nodes> <microseconds>``, e.g. a small driver around
Pascal Pons' Solver (anything after the first space of a line ignored, a fresh table per
position, one answer line per line, flushed). Each is started once and, after plies has
solved a set, given the same lines one at a time, each answer read before the next line;
its scores are checked too, and the table adds a row per reference with its right answers,
mean time (the microseconds it reports) and mean nodes, and the ratios plies / reference
of the time and of the nodes. With ``--weak`` only the sign of a reference's score is
checked (it may solve strongly). Without a reference no ratio is printed: figures
measured elsewhere are not comparable.

``--processes K`` times whole processes too, as a user at a shell meets them: the first K
lines of each set, each solved by a fresh ``plies solve connect4 MOVES`` and by a fresh
process of each reference given that one line, wall time from start to exit (the load of
Python, plies and the compiled kernel included, the reference's table set-up included).

Run: ``python benchmarks/connect4.py`` (``--sets Test_L3_R1,Test_L2_R1``, ``--count N``
positions per set, ``--start N`` to begin at line N of each set (lines a change was not
tuned on), ``--time S`` per position, ``--weak``, ``--table-size ENTRIES``,
``--reference [NAME=]PATH``, ``--processes K``, ``--backend python|native`` (default
native when Numba imports), ``--testsets DIR`` where the sets are not beside the
checkout, as from a git worktree).
Positions that run out of time are counted and reported, not guessed. The machine's
speed varies from run to run (a shared VM): ``--repeat 3`` keeps each set's fastest run
(of plies and of each reference, each on its own).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from plies.engine import Limits, TranspositionTable, solve
from plies.engine.native import numba_missing
from plies.errors import SearchError
from plies.games.connect4 import Connect4

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "connect4-testsets"

#: The sets, quickest first.
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
#: The untimed first solve (Test_L3_R1's first line: easy for either backend).
WARM_UP = "2252576253462244111563365343671351441"
#: Positions per set by default (all 1,000 of the quick sets, the first N of the others).
DEFAULT_COUNT = {"Test_L2_R2": 100, "Test_L1_R2": 10, "Test_L1_R3": 2}


class BackendRefused(Exception):
    """``solve`` refused the ``backend`` keyword or its value."""


class ReferenceError_(Exception):
    """The reference solver died or answered outside the line protocol."""


class Solved(NamedTuple):
    """One position: seconds (wall), nodes, whether the score was right, and the
    process (CPU) seconds of plies' solve (a reference's: its own reported time)."""

    seconds: float
    nodes: int
    right: bool
    cpu: float


class Reference:
    """A long-lived reference solver: one ``<moves>`` line in, one answer line out."""

    def __init__(self, name: str, path: str) -> None:
        self.name = name
        self.path = path
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, line: str) -> tuple[int, int, float]:
        """Send ``line``, read its answer: (score, nodes, seconds)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        moves = line.split(maxsplit=1)[0]
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except BrokenPipeError as error:
            raise ReferenceError_(f"{self.path} exited") from error
        answer = self.process.stdout.readline()
        if not answer:
            raise ReferenceError_(f"{self.path} exited without answering {moves}")
        fields = answer.split()
        try:
            if len(fields) != 4 or fields[0] != moves:
                raise ValueError
            return int(fields[1]), int(fields[2]), float(fields[3]) / 1e6
        except ValueError:
            raise ReferenceError_(f"{self.path} answered {answer.strip()!r} to {moves}") from None

    def close(self) -> None:
        """End the process: its stdin closed, then terminated if it lingers."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            self.process.wait()


def _seconds(value: float) -> str:
    """A duration in ms below a second, else in s."""
    return f"{value * 1000:.3f}ms" if value < 1 else f"{value:.2f}s"


def _wanted(expected: str, *, weak: bool) -> int:
    """The expected score of a test line, its sign only when ``weak``."""
    score = int(expected)
    return (score > 0) - (score < 0) if weak else score


def run_set(
    game: Connect4,
    lines: list[str],
    *,
    table: Any,
    weak: bool,
    seconds: float,
    backend: dict[str, Any],
    references: list[Reference],
) -> tuple[list[Solved | None], list[list[Solved]]]:
    """Solve ``lines``: plies' results (None on a timeout) and each reference's, by
    position. plies solves the whole set, then each reference does: taken line by line
    in turn, a reference's reset (a memset of its 40 MB table before every position)
    emptied the caches plies had warmed, and Test_L3_R1's easy positions measured 3x
    slower than plies takes on them alone (93 against 31 us)."""
    mine: list[Solved | None] = []
    for line in lines:
        moves, expected = line.split()[:2]
        wanted = _wanted(expected, weak=weak)
        state = game.parse_position(moves)
        table.clear()
        start_cpu = time.process_time()
        start = time.perf_counter()
        try:
            solved = solve(
                game,
                state,
                table=table,
                weak=weak,
                moves="none",
                limits=Limits(time=seconds),
                **backend,
            )
        except SearchError:
            mine.append(None)
        except (TypeError, ValueError, ImportError) as error:
            if backend:
                raise BackendRefused(str(error)) from error
            raise
        else:
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - start_cpu
            if weak:
                score = {"win": 1, "draw": 0, "loss": -1}[solved.result]
            else:
                score = game.exact_score(state, solved.result, solved.distance or 0)
            mine.append(Solved(elapsed, solved.stats.nodes, score == wanted, cpu))
            if score != wanted:
                print(f"  wrong: {moves} expected {wanted}, got {score}")
    return mine, [_reference_set(reference, lines, weak=weak) for reference in references]


def _reference_set(reference: Reference, lines: list[str], *, weak: bool) -> list[Solved]:
    """``reference``'s answers to ``lines``, each checked."""
    theirs: list[Solved] = []
    for line in lines:
        moves, expected = line.split()[:2]
        wanted = _wanted(expected, weak=weak)
        score, nodes, taken = reference.ask(line)
        if weak:  # the reference may solve strongly: its sign is checked
            score = (score > 0) - (score < 0)
        theirs.append(Solved(taken, nodes, score == wanted, taken))
        if score != wanted:
            print(f"  {reference.name} wrong: {moves} expected {wanted}, got {score}")
    return theirs


def _process_seconds(command: list[str], stdin: str | None = None) -> float:
    """Wall time of one whole process, from start to exit; it must succeed."""
    start = time.perf_counter()
    subprocess.run(command, input=stdin, text=True, capture_output=True, check=True)
    return time.perf_counter() - start


def process_times(
    lines: list[str], references: list[Reference], backend: str
) -> list[tuple[str, float]]:
    """Mean wall time of a fresh process solving one line, for plies (``plies solve``
    in a new Python) and for each reference (a new process given the one line), over
    ``lines`` taken in turn."""
    plies = [sys.executable, "-m", "plies", "solve", "connect4", "--backend", backend]
    totals = dict.fromkeys(["plies", *(r.name for r in references)], 0.0)
    for line in lines:
        moves = line.split()[0]
        totals["plies"] += _process_seconds([*plies, moves])
        for reference in references:
            totals[reference.name] += _process_seconds([reference.path], moves + "\n")
    return [(name, total / len(lines)) for name, total in totals.items()]


def main() -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    ap.add_argument(
        "--count",
        type=int,
        default=None,
        help="positions per set (default: all, 100 of L2_R2, 10 of L1_R2, 2 of L1_R3)",
    )
    ap.add_argument(
        "--start",
        type=int,
        default=1,
        metavar="N",
        help="begin at line N (1-based) of each set, to check changes on lines not tuned on",
    )
    ap.add_argument("--time", type=float, default=300.0, help="seconds per position at most")
    ap.add_argument("--weak", action="store_true", help="decide only win/draw/loss")
    ap.add_argument(
        "--table-size",
        type=int,
        default=None,
        help="table entries (default: 1,048,576 for python, a prime near 2^23 for native)",
    )
    ap.add_argument("--repeat", type=int, default=1, help="runs per set; the fastest is kept")
    ap.add_argument(
        "--reference",
        metavar="[NAME=]PATH",
        action="append",
        default=[],
        help="a solver binary reading <moves> lines, printing <moves> <score> <nodes> <us> "
        "(repeatable)",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=0,
        metavar="K",
        help="also time K whole processes per set (plies solve, each reference), one line each",
    )
    ap.add_argument(
        "--backend",
        choices=("python", "native"),
        help="the solver (default: native when Numba imports, as solve() picks)",
    )
    ap.add_argument(
        "--testsets", type=Path, default=SHARED, help=f"the sets' directory (default {SHARED})"
    )
    args = ap.parse_args()
    if args.start < 1:
        print(f"--start counts lines from 1, not {args.start}")
        return 1
    if not args.testsets.is_dir():
        print(f"test sets not found at {args.testsets}")
        return 1
    if args.backend is None:  # solve()'s own choice, named (it decides the table's kind)
        args.backend = "python" if numba_missing() else "native"
    backend: dict[str, Any] = {"backend": args.backend}
    references: list[Reference] = []
    try:
        for spec in args.reference:
            name, _, path = spec.rpartition("=")
            try:
                references.append(Reference(name or Path(path).name, path))
            except OSError as error:
                print(f"reference {path} cannot be started: {error}")
                return 1
        return _benchmark(args, backend, references)
    except BackendRefused as error:
        print(f"solve() refused backend={args.backend!r}: {error}")
        return 2
    except ReferenceError_ as error:
        print(f"reference failed: {error}")
        return 1
    except subprocess.CalledProcessError as error:
        print(f"a timed process failed: {' '.join(error.cmd)}: {error.stderr.strip()}")
        return 1
    finally:
        for reference in references:
            reference.close()


def _benchmark(
    args: argparse.Namespace, backend: dict[str, Any], references: list[Reference]
) -> int:
    """Solve the sets and print the table; 1 if any score was wrong."""
    game = Connect4()
    table: Any
    if args.backend == "native":  # the kernel keeps its own table, sized as Pons' by default
        from plies.engine import NativeTable

        table = NativeTable(args.table_size) if args.table_size else NativeTable()
        size = table.size
    else:
        size = args.table_size or 1 << 20
        table = TranspositionTable(size)
    # Untimed warm-up: the kernel's compiled code is loaded from the disk cache (or
    # compiled) on its first call, once per process.
    solve(game, game.parse_position(WARM_UP), table=table, moves="none", **backend)
    if args.backend == "native":  # mapped whole now, as the reference's reset does
        table.touch()
    table.clear()
    print(
        f"{'weak' if args.weak else 'strong'} solve, table of {size:,} entries"
        + (f", backend {args.backend}" if args.backend else "")
        + "".join(f", {r.name} = {r.path}" for r in references)
    )
    header = f"{'set':<12}{'solver':<8}{'positions':>10}{'right':>7}{'timeouts':>9}"
    header += f"{'mean time':>12}{'mean CPU':>11}{'mean nodes':>13}"
    if references:
        header += f"{'time':>9}{'nodes':>8}"
    print(header + f"{'peak RSS':>10}")
    wrong_total = 0
    for name in args.sets.split(","):
        lines = [line for line in (args.testsets / name).read_text().splitlines() if line.strip()]
        count = args.count or DEFAULT_COUNT.get(name, len(lines))
        lines = lines[args.start - 1 : args.start - 1 + count]
        best_mine: list[Solved | None] | None = None
        best_theirs: list[list[Solved] | None] = [None] * len(references)
        for _ in range(max(1, args.repeat)):
            mine, theirs = run_set(
                game,
                lines,
                table=table,
                weak=args.weak,
                seconds=args.time,
                backend=backend,
                references=references,
            )
            if best_mine is None or _total(mine) < _total(best_mine):
                best_mine = mine
            for i, run in enumerate(theirs):
                best = best_theirs[i]
                if best is None or _total(run) < _total(best):
                    best_theirs[i] = run
        assert best_mine is not None
        solved = [s for s in best_mine if s is not None]
        right = sum(s.right for s in solved)
        timeouts = len(best_mine) - len(solved)
        wrong_total += len(solved) - right
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        row = f"{name:<12}{'plies':<8}{len(lines):>10}{right:>7}{timeouts:>9}"
        if not solved:
            print(row + "  (every position timed out)")
            continue
        mean_t = statistics.fmean(s.seconds for s in solved)
        mean_n = statistics.fmean(s.nodes for s in solved)
        mean_cpu = statistics.fmean(s.cpu for s in solved)
        row += f"{_seconds(mean_t):>12}{_seconds(mean_cpu):>11}{mean_n:>13,.0f}"
        print(row + (" " * 17 if references else "") + f"{peak_mb:>8.0f}MB")
        for reference, theirs_best in zip(references, best_theirs, strict=True):
            assert theirs_best is not None
            wrong_total += sum(not s.right for s in theirs_best)
            # Means over the positions plies solved in time, so that the ratios pair them.
            paired = [t for m, t in zip(best_mine, theirs_best, strict=True) if m is not None]
            ref_t = statistics.fmean(s.seconds for s in paired)
            ref_n = statistics.fmean(s.nodes for s in paired)
            time_ratio = f"{mean_t / ref_t:,.2f}x" if ref_t else "-"
            node_ratio = f"{mean_n / ref_n:.2f}x" if ref_n else "-"
            print(
                f"{'':<12}{reference.name:<8}{len(lines):>10}"
                f"{sum(s.right for s in theirs_best):>7}{0:>9}{_seconds(ref_t):>12}{'':>11}"
                f"{ref_n:>13,.0f}{time_ratio:>9}{node_ratio:>8}"
            )
        if args.processes:
            for solver, seconds in process_times(lines[: args.processes], references, args.backend):
                print(
                    f"{'':<12}{solver:<8}  whole process, {args.processes} lines: "
                    f"{_seconds(seconds)} a line"
                )
        sys.stdout.flush()
    footer = (
        f"Table memory: {table.nbytes / 2**20:.0f} MB."
        if args.backend == "native"
        else f"Table entries at the end: {len(table):,}."
    )
    if references:
        footer = (
            "time, nodes = plies / that reference, means over the positions plies solved in "
            "time; a reference's time is the one it reports (its own clock); the ratio is of "
            "plies' wall time (its CPU time beside it: the machine may be shared). " + footer
        )
    print(footer)
    return 1 if wrong_total else 0


def _total(results: list[Solved | None] | list[Solved]) -> float:
    """The seconds a run took over the positions it solved, infinite if none."""
    times = [s.seconds for s in results if s is not None]
    return sum(times) if times else float("inf")


if __name__ == "__main__":
    sys.exit(main())
