"""Benchmark: the web lab under a class's load (not a test).

Starts ``plies serve`` as a real uvicorn server on a free loopback port, then sends
``--clients`` concurrent clients, each posting ``--requests`` searches to
``/api/search`` (a mix of the AIMA tree, a 1,000-leaf random tree and a CS188-style
labelled tree), and prints p50/p95/max latency, throughput and errors. Traffic goes to
127.0.0.1 only, and the run is bounded in count and time.

Run: ``python benchmarks/web_load.py`` (``--clients 50 --requests 10``).
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import time

import httpx

from plies.trees import format_tree, random_tree

BODIES = [
    {"tree": "[[3,12,8],[2,4,6],[14,5,2]]"},
    {"tree": format_tree(random_tree(branching=10, depth=3, seed=1)), "order": "best"},
    {"tree": "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))", "algorithm": "negamax", "strict": True},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def client(base: str, count: int, offset: int, latencies: list[float]) -> int:
    errors = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for i in range(count):
            body = BODIES[(offset + i) % len(BODIES)]
            start = time.perf_counter()
            response = await http.post("/api/search", json=body)
            latencies.append(time.perf_counter() - start)
            errors += response.status_code != 200
    return errors


async def load(base: str, clients: int, requests: int) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    start = time.perf_counter()
    errors = await asyncio.gather(*(client(base, requests, k, latencies) for k in range(clients)))
    return latencies, sum(errors), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=10, help="requests per client")
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "plies", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()  # "plies web lab at ..." once it listens
        base = f"http://127.0.0.1:{port}"
        latencies, errors, seconds = asyncio.run(load(base, args.clients, args.requests))
    finally:
        server.terminate()
        server.wait(timeout=10)
    ms = sorted(x * 1000 for x in latencies)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{args.clients} concurrent clients x {args.requests} searches = {len(ms)} requests")
    print(
        f"latency ms: p50 {statistics.median(ms):.1f}  p95 {p95:.1f}  max {ms[-1]:.1f};  "
        f"{len(ms) / seconds:.0f} requests/s;  errors {errors}"
    )


if __name__ == "__main__":
    main()
