"""Benchmark: Connect Four batches on one core and on a Dask cluster of 1 and 2 workers.

Solves the first 20 lines of Pascal Pons' ``Test_L1_R2`` (hard: about 0.3 s each) and all
1,000 of ``Test_L3_R1`` (easy: well under a millisecond each) three ways, all in the same
run on the same machine, and checks every answer against the set:

* ``serial``: ``plies solve connect4 --batch SET`` (no Dask at all);
* ``--workers N`` for N = 1 and 2: the same command starting its own LocalCluster, timed
  from the command's start to its exit (cluster start-up and shut-down included; a
  batch done within the one-second head start in the command's own process, as
  Test_L3_R1 here, starts no cluster);
* ``on a running cluster of N``: :func:`plies.cluster.run_lines` on a LocalCluster of N
  workers started beforehand (what ``--scheduler`` against a running cluster costs: the
  batch itself, warm-up of the workers included).

Prints the seconds of each and the ratios ``workers 1 / workers 2`` (the speed-up of a
second worker; targets: at least 1.8 on Test_L1_R2, at least 1.0 on Test_L3_R1) and
``serial / workers 2``. The machine's speed varies from run to run (a shared VM):
``--repeat N`` keeps the fastest of N runs of each. Run: ``python benchmarks/cluster.py``
(``--testsets DIR`` where the sets are not beside the checkout).
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from plies.cli._solve import SolveLines
from plies.cluster import LineResult, run_lines

# Beside the checkout (/work/shared for /work/main), found from a worktree too.
SHARED = next(
    (
        parent / "shared" / "connect4-testsets"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "connect4-testsets").is_dir()
    ),
    Path("shared") / "connect4-testsets",
)
#: The sets and how many of their first lines are solved.
SETS = (("Test_L1_R2", 20), ("Test_L3_R1", 1000))


def _env() -> dict[str, str]:
    source = str(Path(__file__).resolve().parents[1] / "src")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    return env


def time_command(path: Path, lines: list[str], extra: list[str]) -> float:
    """Seconds ``plies solve connect4 --batch path`` takes, its output checked."""
    command = [sys.executable, "-m", "plies", "solve", "connect4", "--batch", str(path)]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, *extra], capture_output=True, text=True, env=_env(), check=False
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0 or done.stdout.splitlines() != lines:
        raise SystemExit(f"wrong answers with {extra}: {done.stderr.strip()[:300]}")
    return seconds


def time_on_cluster(lines: list[str], workers: int) -> tuple[float, float]:
    """Seconds :func:`run_lines` takes on a running LocalCluster of ``workers``, and the
    seconds of solving the lines took on the workers, summed (their ratio is how many
    workers were solving at once, on average)."""
    import distributed

    with distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    ) as cluster:
        with distributed.Client(cluster) as client:
            client.wait_for_workers(workers)
        outputs: list[LineResult] = []
        started = time.perf_counter()
        run_lines(
            list(enumerate(lines, start=1)),
            SolveLines("connect4"),
            emit=outputs.append,
            stop=threading.Event(),
            scheduler=cluster.scheduler_address,
        )
        seconds = time.perf_counter() - started
    if [r.output for r in outputs] != lines:
        raise SystemExit(f"wrong answers on a running cluster of {workers}")
    return seconds, sum(r.seconds for r in outputs)


def main() -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--testsets", type=Path, default=SHARED)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} before; "
        f"best of {args.repeat}; seconds (wall clock)"
    )
    header = f"{'set':<12}{'lines':>6}{'serial':>9}{'--workers 1':>13}{'--workers 2':>13}"
    header += f"{'running 1':>11}{'running 2':>11}{'w1/w2':>8}{'run1/run2':>11}{'serial/w2':>11}"
    header += f"{'busy 2':>8}"
    print(header)
    for name, count in SETS:
        path = args.testsets / name
        if not path.is_file():
            print(f"{name}: not found at {path}")
            continue
        lines = path.read_text().splitlines()[:count]
        batch = Path(f"/tmp/plies-bench-{name}-{count}.txt")
        batch.write_text("\n".join(lines) + "\n")
        best: dict[str, float] = {}
        for _ in range(args.repeat):
            r2, busy = time_on_cluster(lines, 2)
            figures = {
                "serial": time_command(batch, lines, []),
                "w1": time_command(batch, lines, ["--workers", "1"]),
                "w2": time_command(batch, lines, ["--workers", "2"]),
                "r1": time_on_cluster(lines, 1)[0],
                "r2": r2,
                "busy": -busy / r2,  # the most overlap is the best: kept by min()
            }
            for key, value in figures.items():
                best[key] = min(best.get(key, value), value)
        print(
            f"{name:<12}{len(lines):>6}{best['serial']:>9.2f}{best['w1']:>13.2f}"
            f"{best['w2']:>13.2f}{best['r1']:>11.2f}{best['r2']:>11.2f}"
            f"{best['w1'] / best['w2']:>8.2f}{best['r1'] / best['r2']:>11.2f}"
            f"{best['serial'] / best['w2']:>11.2f}{-best['busy']:>8.2f}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} after")
    print(
        "w1/w2 and run1/run2: speed-up of a second worker, started by the command and "
        "running beforehand; busy 2: workers solving at once on the running cluster of 2"
    )


if __name__ == "__main__":
    main()
