"""Benchmark: plies grade on a class of 100 array-form submissions, default battery.

The class is made of the students' submissions in ``tests/grade/submissions`` (a
correct GeeksforGeeks-style alpha-beta, one for any branching, and the mistakes:
the strict tie rule, no pruning, MIN updating alpha, bounds not passed down, right
to left, an off-by-one value, an endless loop), copied round-robin to 100 files,
each with a comment naming its student so no two files are the same. Each is graded
as ``plies grade FILE --form array --function NAME`` would, in this process (the
grader), each submission in a process of its own.

Printed: wall time per submission (median, 90th percentile, maximum), the time to
import the grader once (a load cost, apart), the grader's peak memory and the largest
peak of a submission's process (``ru_maxrss``), and the target check: at most 2 s per
submission. The endless loop costs its tests' time limits (``--timeout``, 1 s here by
default, as a teacher would set for 8-leaf trees), so it is reported apart.

Run: ``python benchmarks/grade.py`` (``--count``, ``--timeout``).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

SUBMISSIONS = Path(__file__).resolve().parents[1] / "tests" / "grade" / "submissions"
#: The class: file -> function name.
CLASS = {
    "array_gfg.py": "minimax",
    "array_any.py": "alphabeta",
    "array_strict.py": "minimax",
    "array_noprune.py": "minimax",
    "array_min_alpha.py": "minimax",
    "array_no_bounds.py": "minimax",
    "array_right_to_left.py": "minimax",
    "array_off_by_one.py": "minimax",
    "array_loop.py": "minimax",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="submissions (default 100)")
    parser.add_argument("--timeout", type=float, default=1.0, help="seconds per test (default 1)")
    args = parser.parse_args()

    started = time.perf_counter()
    from plies.grade import Limits, grade

    load = time.perf_counter() - started
    limits = Limits(timeout=args.timeout)
    files = list(CLASS)
    times: dict[str, list[float]] = {}
    scores: dict[str, set[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for k in range(args.count):
            name = files[k % len(files)]
            path = folder / f"student{k:03d}_{name}"
            path.write_text(f"# student {k}\n" + (SUBMISSIONS / name).read_text())
            begun = time.perf_counter()
            report = grade(path, form="array", function=CLASS[name], limits=limits)
            times.setdefault(name, []).append(time.perf_counter() - begun)
            scores.setdefault(name, set()).add(report.score)
    everyone = [t for name, ts in times.items() if name != "array_loop.py" for t in ts]
    looping = times.get("array_loop.py", [])
    grader_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    everyone.sort()
    print(f"plies grade, array form, default battery (11 tests), {args.count} submissions")
    print(f"  import plies.grade once: {load:.3f} s (load cost, not in the figures below)")
    p90 = everyone[int(0.9 * (len(everyone) - 1))]
    print(
        f"  per submission that ends: median {statistics.median(everyone):.3f} s, "
        f"90th percentile {p90:.3f} s, max {max(everyone):.3f} s "
        f"({len(everyone)} submissions, {sum(everyone):.1f} s in all)"
    )
    if looping:
        print(
            f"  per endless-loop submission: {statistics.median(looping):.2f} s "
            f"({len(looping)} submissions; each test waits its {args.timeout:g} s limit)"
        )
    print(f"  peak memory: grader {grader_mb:.0f} MB, largest submission process {child_mb:.0f} MB")
    marks = ", ".join(f"{n} {'/'.join(f'{x:.2f}' for x in sorted(s))}" for n, s in scores.items())
    print(f"  marks (of 11): {marks}")
    worst = max(everyone)
    verdict = "met" if worst <= 2.0 else "NOT MET"
    print(f"  {verdict}: every submission that ends graded in at most 2 s (worst {worst:.3f} s)")
    sys.exit(0)


if __name__ == "__main__":
    main()
