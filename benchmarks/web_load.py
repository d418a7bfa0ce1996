"""Benchmark: the web lab under a class's mixed load, worst requests included, beside
the same load on an earlier version of plies (not a test).

Starts ``plies serve`` as a real server on a free loopback port and sends it
``--requests`` requests from ``--clients`` concurrent clients: the mix of
``tests/web_traffic.py`` (searches, checks, drawings, comparisons, game positions,
exercises, the game room's moves, hints and streamed searches; broken requests; and
``--worst`` of the worst: trees at the node limit, bodies at the byte limit, game trees
of Nim heaps of a million and chess 12 plies deep, drawings at the limit, engine
searches at the time limit). It prints requests per second, p50/p95/max latency, the
statuses, the peak memory of the server's own process (RSS) and of all its processes
(PSS, its workers included), and how long its processes kept the CPU busy after the
last reply.

Then it does the same, in the same run, on ``--baseline`` (a git revision; default
``3f36f93``, main before the web lab's worker processes), checked out in a temporary
worktree and served by the same Python. A server whose processes grow past
``--memory-cap`` GB is killed and reported so (the old server let one request grow it
to 10 GB). Both servers are started, then warmed with one round of valid requests
before the timed run; start-up is reported apart.

Run: ``python benchmarks/web_load.py`` (``--requests 1200 --clients 12 --worst 30``;
``--baseline none`` for this version alone). Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from web_traffic import (  # noqa: E402  (the tests' traffic, from their folder)
    Reply,
    cpu_seconds,
    memory,
    mix,
    send,
    serve,
    valid_calls,
)

MAX_SECONDS = 10.0


def run(label: str, args: argparse.Namespace, src: Path | None) -> dict[str, Any]:
    """One server under the load; its figures."""
    env_path = os.environ.get("PYTHONPATH")
    if src is not None:
        os.environ["PYTHONPATH"] = str(src)
    calls = mix(args.seed, args.requests, max_seconds=MAX_SECONDS, worst=args.worst)
    started = time.monotonic()
    try:
        with serve(cwd=str(src.parent) if src else None) as (process, base):
            start_seconds = time.monotonic() - started
            warm = [c for c in valid_calls(random.Random(1), MAX_SECONDS) if not c.stream]
            for call in warm:
                send(base, call)
            peak = {"own": 0, "tree": 0}
            killed: list[float] = []
            sampling = True

            def sample() -> None:
                while sampling:
                    own, tree = memory(process.pid)
                    peak["own"], peak["tree"] = max(peak["own"], own), max(peak["tree"], tree)
                    if tree > args.memory_cap * 2**30 and not killed:
                        killed.append(tree)
                        process.kill()
                    time.sleep(0.1)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()

            def attempt(call: Any) -> Reply | None:
                try:
                    return send(base, call, timeout=120)
                except OSError:
                    return None  # the server was killed, or refused the connection

            begin = time.monotonic()
            with ThreadPoolExecutor(args.clients) as pool:
                replies = list(pool.map(attempt, calls))
            seconds = time.monotonic() - begin
            busy_after = 0.0
            if not killed:
                while busy_after < 60:
                    before = cpu_seconds(process.pid)
                    time.sleep(1)
                    if cpu_seconds(process.pid) - before < 0.05:
                        break
                    busy_after += 1
            sampling = False
            sampler.join()
    finally:
        if env_path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = env_path
    answered = [r for r in replies if r is not None]
    ms = sorted(r.seconds * 1000 for r in answered) or [0.0]
    return {
        "label": label,
        "start": start_seconds,
        "requests": len(calls),
        "answered": len(answered),
        "seconds": seconds,
        "p50": statistics.median(ms),
        "p95": ms[min(len(ms) - 1, int(0.95 * len(ms)))],
        "max": ms[-1],
        "statuses": Counter(r.status for r in answered),
        "own": peak["own"],
        "tree": peak["tree"],
        "killed": killed[0] if killed else None,
        "busy_after": busy_after,
    }


def show(figures: dict[str, Any]) -> None:
    """Print one server's figures."""
    mb = 2**20
    print(f"\n{figures['label']}")
    print(f"  start-up (until it listens): {figures['start']:.2f} s")
    print(
        f"  {figures['answered']} of {figures['requests']} requests answered in "
        f"{figures['seconds']:.1f} s: {figures['answered'] / figures['seconds']:.1f} requests/s"
    )
    print(
        f"  latency ms: p50 {figures['p50']:.0f}  p95 {figures['p95']:.0f}  "
        f"max {figures['max']:.0f}"
    )
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(figures["statuses"].items()))
    print(f"  statuses: {statuses}")
    print(
        f"  peak memory: server process {figures['own'] / mb:.0f} MB (RSS), all its "
        f"processes {figures['tree'] / mb:.0f} MB (PSS)"
    )
    if figures["killed"]:
        print(f"  KILLED at {figures['killed'] / 2**30:.1f} GB (over --memory-cap)")
    else:
        print(f"  CPU busy after the last reply: {figures['busy_after']:.0f} s")


def baseline_src(revision: str, folder: str) -> Path:
    """``revision`` checked out in a worktree under ``folder``; its ``src``."""
    where = Path(folder) / "baseline"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), revision],
        check=True,
        capture_output=True,
    )
    return where / "src"


def main() -> None:
    """Run the load on this version and on the baseline; print both."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1200)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--worst", type=int, default=30, help="worst requests in the mix")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--baseline", default="3f36f93", help="git revision, or none")
    parser.add_argument("--memory-cap", type=float, default=6.0, metavar="GB")
    args = parser.parse_args()
    this = run("this version (plies serve, defaults)", args, ROOT / "src")
    show(this)
    if args.baseline == "none":
        return
    with tempfile.TemporaryDirectory() as folder:
        try:
            old = run(f"baseline {args.baseline}", args, baseline_src(args.baseline, folder))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", f"{folder}/baseline"],
                check=False,
                capture_output=True,
            )
    show(old)
    print("\nthis version / baseline:")
    rate = this["answered"] / this["seconds"] / (old["answered"] / old["seconds"])
    print(f"  requests/s {rate:.2f}x")
    print(f"  p95 latency {this['p95'] / old['p95']:.2f}x")
    print(f"  peak memory (all processes) {this['tree'] / old['tree']:.2f}x")


if __name__ == "__main__":
    main()
