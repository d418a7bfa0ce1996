"""The lab's web operations run on plies' pure-Python path: reading a request and
answering it for /api/search, /api/check, /api/exercise and /api/render needs no
Starlette, no NumPy, no Numba and no ``resource`` module, and no thread (what a
browser running plies under Pyodide has not: issue 27). Checked in a fresh process
in which those modules cannot be imported and no thread can start."""

from __future__ import annotations

import json
import subprocess
import sys

BLOCKED = ("numpy", "numba", "starlette", "uvicorn", "llvmlite", "resource")

SCRIPT = f"""
import json, sys
for name in {BLOCKED!r}:
    sys.modules[name] = None  # any import of it fails
import threading

def no_thread(self):
    raise RuntimeError("can't start new thread")

threading.Thread.start = no_thread  # as in Pyodide
from plies.web import _jobs
from plies.web._request import exercise_shape, read_tree_request

deep = "[" * 700 + "1, 2" + "]" * 700  # deeper than half the recursion limit
assert _jobs.search(read_tree_request({{"tree": deep}}, max_text=10000), 1000)["value"] == 1
body = {{"tree": "[[3,12,8],[2,4,6],[14,5,2]]", "algorithm": "alphabeta"}}
req = read_tree_request(body, max_text=10000)
doc = _jobs.search(req, 1000)
verdict = _jobs.check(req, {{"value": 3, "evaluated": [0, 1, 2, 3, 6, 7, 8]}}, 1000)
svg = _jobs.render(req, 1000, "svg", False)
shape = exercise_shape({{"seed": "4", "branching": "2", "depth": "3"}})
exercise = _jobs.exercise(shape)
from plies.web._api import Limits, answer

limits = Limits(100000, 1000, 1000)
answers = [answer(op, data, limits) for op, data in (
    ("search", body), ("check", {{**body, "answer": {{"value": 3}}}}),
    ("render", {{**body, "format": "svg"}}), ("compare", body), ("tree", body),
    ("exercise", {{"seed": "4"}}), ("search", {{"tree": "[[1,"}}))]
assert [a.status for a in answers] == [200] * 6 + [400], [a.body[:80] for a in answers]
print(json.dumps({{
    "value": doc["value"], "score": verdict["score"], "svg": svg[:5].decode(),
    "exercise": sorted(exercise),
    "loaded": sorted(m for m in {BLOCKED!r} if sys.modules.get(m) is not None),
}}))
"""


def test_the_web_operations_need_no_starlette_numpy_or_numba() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["value"] == 3 and got["score"] == 1.0 and got["svg"] in ("<svg ", "<?xml")
    assert got["exercise"] and got["loaded"] == []
