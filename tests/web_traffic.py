"""Requests of every shape for the web lab, and a real ``plies serve`` to send them to.

Used by the fuzz/soak test (``tests/web/test_soak.py``) and by
``benchmarks/web_load.py``. A mix holds:

* ``valid`` requests a student or teacher sends: searches, checks, drawings in every
  format, comparisons, game positions, exercises, the game room's moves, hints and
  streamed searches (some stopped, some left by their client);
* ``bad`` ones: a valid request with a field dropped, of the wrong type or absurd
  (huge numbers, NaN, lone surrogates, long text, deep nesting), bodies that are not
  JSON or are over the limit, unknown paths, wrong methods;
* ``worst`` ones: the largest work the limits let in or must refuse (a tree at the
  node limit searched by minimax, a body at the byte limit, game trees of Nim heaps of
  a million, chess and Connect Four 12 plies deep, drawings at the drawing limit,
  engine searches at the time limit).

Everything is made from a seed, so a failing mix can be sent again.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from plies.trees import format_tree, random_tree

DATA = Path(__file__).parent / "trees" / "data"

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"
CHANCE = (
    '{"tree": {"label": "A", "children": [{"kind": "chance", "children": '
    '[{"p": 0.5, "value": 3}, {"p": 0.5, "value": 5}]}, {"kind": "chance", "static": 2, '
    '"children": [{"p": 0.9, "value": 1}, {"p": 0.1, "value": 20}]}]}, "bounds": [0, 20]}'
)


@dataclass
class Call:
    """One request: ``kind`` is valid, bad or worst; ``stream`` reads an event stream
    (``leave``: the client goes away after the first event)."""

    kind: str
    method: str
    path: str
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    stream: bool = False
    leave: bool = False

    def describe(self) -> str:
        shown = (self.body or b"")[:160]
        return f"{self.kind} {self.method} {self.path} {shown!r}"


@dataclass
class Reply:
    """What came back: status, content type, the body (events of a stream) and how
    long the whole reply took."""

    call: Call
    status: int
    content_type: str
    body: bytes
    seconds: float


def _post(kind: str, path: str, data: Any, **extra: Any) -> Call:
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return Call(kind, "POST", path, body, {"Content-Type": "application/json"}, **extra)


def _get(kind: str, path: str, query: dict[str, Any]) -> Call:
    return Call(kind, "GET", f"{path}?{urlencode(query)}")


def _trees(rng: random.Random) -> list[str]:
    return [
        AIMA,
        LABELLED,
        CHANCE,
        (DATA / "aima-two-agents.test").read_text(encoding="utf-8"),
        format_tree(random_tree(branching=3, depth=4, seed=rng.randrange(1000))),
        format_tree(random_tree(branching=2, depth=5, seed=rng.randrange(1000), ragged=True)),
        format_tree(random_tree(branching=2, depth=3, seed=rng.randrange(1000), chance=True)),
    ]


ROOMS: list[dict[str, Any]] = [
    {"game": "tictactoe", "moves": ["5", "1"]},
    {"game": "connect4", "position": "44", "moves": ["3"]},
    {"game": "connect4:width=5,height=4"},
    {"game": "othello", "moves": ["d3"]},
    {"game": "checkers", "moves": ["11-15"]},
    {"game": "chess", "moves": ["e4", "e5"], "names": ["Ann", "plies"]},
    {"game": "nim", "position": "3,4,5"},
    {"game": "pig", "moves": ["roll"]},
    {"game": "mnk:m=4,n=4,k=3"},
]


def valid_calls(rng: random.Random, max_seconds: float) -> list[Call]:
    """Requests a class sends, one of each shape (trees and rooms drawn by ``rng``)."""
    calls: list[Call] = []
    for text in _trees(rng):
        options = rng.choice(
            [{}, {"order": "best"}, {"strict": True}, {"algorithm": "minimax"}, {"root": "min"}]
        )
        if "chance" in text:
            options = {}
        body = {"tree": text, **options}
        calls.append(_post("valid", "/api/search", body))
        calls.append(_post("valid", "/api/tree", body))
        calls.append(_post("valid", "/api/compare", body))
        calls.append(_post("valid", "/api/check", {**body, "answer": {"value": 3}}))
        fmt = rng.choice(["svg", "png", "html", "tex", "dot", "mmd", "md", "csv"])
        calls.append(_post("valid", "/api/render", {**body, "format": fmt}))
    for spec, depth in [("tictactoe:5 1 9", 2), ("connect4", 2), ("nim:3,4,5", 2), ("pig", 2)]:
        calls.append(_get("valid", "/api/game-tree", {"game": spec, "depth": depth}))
    calls.append(_get("valid", "/api/exercise", {"seed": rng.randrange(10**6)}))
    calls.append(
        _get("valid", "/api/exercise", {"branching": 3, "depth": 3, "seed": rng.randrange(99)})
    )
    for room in ROOMS:
        calls.append(_post("valid", "/api/play/state", room))
    calls.append(_post("valid", "/api/play/move", {**ROOMS[0], "move": "9"}))
    calls.append(_post("valid", "/api/play/undo", ROOMS[1]))
    calls.append(_post("valid", "/api/play/roll", ROOMS[7]))
    calls.append(_post("valid", "/api/play/hint", {**ROOMS[0], "depth": 4}))
    calls.append(_post("valid", "/api/play/hint", {**ROOMS[1], "seconds": 0.2}))
    name = f"s{rng.randrange(10**9)}"
    calls.append(
        _post(
            "valid",
            "/api/play/think",
            {**ROOMS[3], "seconds": min(0.5, max_seconds / 2), "id": name, "play": True},
            stream=True,
        )
    )
    calls.append(
        _post(
            "valid",
            "/api/play/think",
            {**ROOMS[4], "seconds": max_seconds * 0.8, "id": name + "x"},
            stream=True,
            leave=True,
        )
    )
    calls.append(_post("valid", "/api/play/stop", {"id": "nobody"}))
    for page in ("/", "/practice", "/play", "/api", "/api/openapi.json", "/static/lab.js"):
        calls.append(Call("valid", "GET", page))
    return calls


JUNK: list[Any] = [
    None,
    True,
    -1,
    0,
    2**70,
    1e308,
    -1e308,
    "",
    "x" * 5000,
    "\ud800",
    "a\udc00b",
    [],
    [1, [2, [3]]],
    {},
    {"a": {"b": None}},
    "inf",
    "-inf",
    "nan",
    "<!--<script>",
    "=HYPERLINK(1)",
    "Ωü",
    "1,2,3",
    "5,1",
]


def _json_text(value: Any) -> str:
    """JSON text that may hold what Python's json.dumps refuses: NaN, Infinity and
    lone surrogates are spelled as JSON readers accept them."""
    return json.dumps(value, ensure_ascii=True, allow_nan=True)


def bad_call(rng: random.Random, base: Call) -> Call:
    """``base`` broken one way: a field dropped or replaced by junk, the body not JSON
    or over the limit, the path unknown, the method wrong."""
    way = rng.randrange(10)
    if way == 0:
        return Call("bad", "GET" if base.method == "POST" else "POST", base.path.split("?")[0])
    if way == 1:
        return Call("bad", rng.choice(["GET", "POST"]), f"/api/{rng.choice(['x', 'search/1', ''])}")
    if way == 2:
        garbage = rng.choice([b"", b"[1,2]", b"{", b"\xff\xfe", b'"t"', b"{" * 5000, b"1" * 5000])
        return Call("bad", "POST", base.path.split("?")[0], garbage)
    if way == 3 and base.method == "POST":
        return Call("bad", "POST", base.path, b'{"tree": "' + b"1," * 600_000 + b'1"}')
    if base.method == "GET" and "?" in base.path:
        path, _, query = base.path.partition("?")
        params = dict(pair.split("=", 1) for pair in query.split("&") if "=" in pair)
        key = rng.choice([*params, "seed", "depth", "values", "game"])
        params[key] = str(rng.choice(JUNK))
        return Call("bad", "GET", f"{path}?{urlencode(params, errors='surrogatepass')}")
    if base.method != "POST" or not base.body:
        return Call("bad", "GET", "/api/nowhere")
    data = json.loads(base.body)
    key = rng.choice([*data, "answer", "format", "seed", "window", "bounds", "moves", "count"])
    if way == 4 and key in data:
        del data[key]
    else:
        data[key] = rng.choice(JUNK)
    if way == 5 and isinstance(data.get("answer"), dict):
        data["answer"] = {
            rng.choice(["value", "values", "evaluated", "pruned", "alpha", "beta", "grade"]): (
                rng.choice(JUNK)
            )
        }
    text = _json_text(data).replace('"nan"', "NaN") if way == 6 else _json_text(data)
    return Call("bad", "POST", base.path, text.encode("utf-8"), base.headers)


def worst_calls(max_seconds: float, max_nodes: int, max_step_nodes: int) -> list[Call]:
    """The largest work the limits let in, or must refuse."""
    big = format_tree(random_tree(branching=2, depth=16, seed=1))  # 131,071 nodes
    over = format_tree(random_tree(branching=4, depth=9, seed=2))  # 349,525 nodes
    drawn = format_tree(random_tree(branching=3, depth=6, seed=3))  # 1,093 nodes
    heaps = ",".join(["1000000"] * 8)
    calls = [
        _post("worst", "/api/search", {"tree": big, "algorithm": "minimax"}),
        _post("worst", "/api/check", {"tree": big, "answer": {"value": 1}}),
        _post("worst", "/api/search", {"tree": over}),
        _post("worst", "/api/search", {"tree": "[" * 400_000 + "1" + "]" * 400_000}),
        _post("worst", "/api/render", {"tree": drawn, "format": "html"}),
        _post("worst", "/api/render", {"tree": drawn, "format": "png"}),
        _post("worst", "/api/render", {"tree": drawn, "format": "svg"}),
        _post("worst", "/api/compare", {"tree": drawn}),
        _post("worst", "/api/tree", {"tree": drawn}),
        _get("worst", "/api/game-tree", {"game": f"nim:{heaps}", "depth": 2}),
        _get("worst", "/api/game-tree", {"game": "chess", "depth": 12}),
        _get("worst", "/api/game-tree", {"game": "connect4", "depth": 12}),
        _get("worst", "/api/game-tree", {"game": "othello", "depth": 4}),
        _get("worst", "/api/game-tree", {"game": "nim:1000,1000", "depth": 1}),
        _get("worst", "/api/exercise", {"branching": 9, "depth": 3, "seed": 5}),
        _post("worst", "/api/play/state", {"game": "nim", "position": heaps}),
        _post(
            "worst",
            "/api/play/state",
            {"game": "nim", "position": "1000000", "moves": ["1:1"] * 2000},
        ),
        _post(
            "worst",
            "/api/play/hint",
            {"game": "nim", "position": heaps, "seconds": max_seconds * 0.8},
        ),
        _post("worst", "/api/play/hint", {"game": "connect4", "seconds": max_seconds * 0.8}),
        _post("worst", "/api/play/hint", {"game": "chess", "depth": 64}),
        _post(
            "worst",
            "/api/play/think",
            {"game": "othello", "seconds": max_seconds * 0.8, "id": "w1", "play": True},
            stream=True,
        ),
    ]
    return calls


def mix(seed: int, count: int, *, max_seconds: float, worst: int) -> list[Call]:
    """``count`` requests: about half valid, the rest bad, and ``worst`` of the worst
    spread among them."""
    rng = random.Random(seed)
    calls: list[Call] = []
    while len(calls) < count - worst:
        shapes = valid_calls(rng, max_seconds)
        for call in shapes:
            calls.append(call if rng.random() < 0.5 else bad_call(rng, call))
    calls = calls[: count - worst]
    worst_ones = worst_calls(max_seconds, 200_000, 2_000)
    for k in range(worst):
        calls.insert(rng.randrange(len(calls) + 1), worst_ones[k % len(worst_ones)])
    return calls


# -- a real server --------------------------------------------------------------------


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(*options: str, python: str = sys.executable, cwd: str | None = None) -> Iterator[Any]:
    """``plies serve`` in a process of its own on a free port: yields (its process,
    its base URL) once it listens, and stops it (Ctrl-C) at the end."""
    port = free_port()
    env = dict(os.environ)
    process = subprocess.Popen(
        [python, "-m", "plies", "serve", "--port", str(port), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("plies web lab at"):
            process.kill()
            raise RuntimeError(f"plies serve did not start: {line!r} {process.stderr.read()!r}")
        yield process, f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def send(base: str, call: Call, timeout: float = 60) -> Reply:
    """Send ``call``; its reply (a stream read to its end, or to its first event when
    the client leaves)."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    start = time.monotonic()
    try:
        connection.request(call.method, call.path, body=call.body, headers=call.headers)
        response = connection.getresponse()
        if call.stream and call.leave and response.status == 200:
            body = response.readline() + response.readline()
        else:
            body = response.read()
        return Reply(
            call,
            response.status,
            response.getheader("Content-Type") or "",
            body,
            time.monotonic() - start,
        )
    finally:
        connection.close()


# -- the server's processes -------------------------------------------------------------


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                parent = int(stat.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(parent, []).append(int(entry))
    return kids


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (Linux)."""
    kids = _children()
    found, todo = [], [pid]
    while todo:
        here = todo.pop()
        found.append(here)
        todo.extend(kids.get(here, []))
    return found


def memory(pid: int) -> tuple[int, int]:
    """(resident bytes of ``pid`` itself, proportional set size of its whole tree):
    PSS shares each page among the processes mapping it, so forked workers sharing
    the fork server's pages are not counted twice."""
    own = 0
    total = 0
    for member in process_tree(pid):
        try:
            with open(f"/proc/{member}/smaps_rollup", encoding="ascii") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                    elif line.startswith("Rss:") and member == pid:
                        own = int(line.split()[1]) * 1024
        except (OSError, ValueError):
            continue
    return own, total


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by ``pid`` and its descendants alive now."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for member in process_tree(pid):
        try:
            with open(f"/proc/{member}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return total / ticks
