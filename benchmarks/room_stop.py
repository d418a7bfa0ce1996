"""Benchmark: how fast the game room's engine stops (not a test).

Starts ``plies serve`` as a real uvicorn server on a free loopback port, then
``--runs`` times: streams ``/api/play/think`` on an Othello position with a long time
limit, waits for the first depth, and either posts ``/api/play/stop`` (the Stop
button; the engine then answers with its best move so far) or closes the connection
(the page left; then the server's search thread must end). Prints, for each way, the
median and largest time from the request to the stream's end (stop) or to the next
search being let in on a one-search server (disconnect), in milliseconds. Traffic goes
to 127.0.0.1 only, and the run is bounded in count and time.

Run: ``python benchmarks/room_stop.py`` (``--runs 10``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from web_traffic import free_port

BODY = {"game": "othello", "moves": ["d3", "c3"], "seconds": 7, "play": True}


def stop_once(http: httpx.Client, run: int) -> float:
    body = {**BODY, "id": f"stop-{run}"}
    with http.stream("POST", "/api/play/think", json=body) as answer:
        lines = answer.iter_lines()
        for line in lines:
            if line.startswith("event: info"):
                break
        asked = time.perf_counter()
        assert http.post("/api/play/stop", json={"id": body["id"]}).json()["stopped"]
        events = [line for line in lines if line.startswith("event: ")]
        took = time.perf_counter() - asked
    assert events[-1] == "event: best", events
    return took


def leave_once(http: httpx.Client, run: int) -> float:
    body = {**BODY, "id": f"leave-{run}"}
    with http.stream("POST", "/api/play/think", json=body) as answer:
        for line in answer.iter_lines():
            if line.startswith("event: info"):
                break
    left = time.perf_counter()
    probe = {**BODY, "id": f"probe-{run}", "depth": 1, "play": False}
    while True:  # the server runs one search at a time: wait until it lets the next in
        with http.stream("POST", "/api/play/think", json=probe) as answer:
            if answer.status_code == 200:
                answer.read()
                return time.perf_counter() - left
        time.sleep(0.002)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "plies", "serve", "--port", str(port), "--max-searches", "1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()  # "plies web lab at ..." once it listens
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            stops = [stop_once(http, run) for run in range(args.runs)]
            leaves = [leave_once(http, run) for run in range(args.runs)]
    finally:
        server.terminate()
        server.wait(timeout=10)
    for name, times in (("Stop button", stops), ("client gone", leaves)):
        ms = sorted(t * 1000 for t in times)
        print(f"{name}: {len(ms)} runs, median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
