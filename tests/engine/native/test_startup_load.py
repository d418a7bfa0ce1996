"""Start-up: plies' own process loads cached kernels without Numba's target refresh,
with the same results, and still compiles afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
from types import ModuleType
from typing import Any

from plies.engine import Limits, search, solve
from plies.engine.native import _startup
from plies.games import get_game

LOADS = """
import json, sys
from plies.engine.native._startup import skip_blas_probe
skip_blas_probe()
from plies.engine import Limits, search, solve
from plies.games import get_game
connect4, othello = get_game("connect4"), get_game("othello")
solved = solve(connect4, connect4.parse_position("32164625"), backend="native", moves="all")
found = search(othello, othello.initial_state(), limits=Limits(depth=6), backend="native")
refreshed = "numba.np.polynomial.polynomial_core" in sys.modules  # the refresh imports it
import numpy as np
from numba import njit
compiled = int(njit(lambda a: a.sum())(np.arange(5)))  # a compile after the loads
print(json.dumps({
    "solve": [solved.value, list(solved.best_moves), solved.stats.nodes],
    "search": [found.value, list(found.pv), found.stats.nodes],
    "refreshed": refreshed, "compiled": compiled,
}))
"""


def test_the_loads_skip_the_refresh_and_give_the_same_results() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LOADS], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    there = json.loads(done.stdout.strip().splitlines()[-1])
    connect4, othello = get_game("connect4"), get_game("othello")
    solved = solve(connect4, connect4.parse_position("32164625"), backend="native", moves="all")
    found = search(othello, othello.initial_state(), limits=Limits(depth=6), backend="native")
    assert there["solve"] == [solved.value, list(solved.best_moves), solved.stats.nodes]
    assert there["search"] == [found.value, list(found.pv), found.stats.nodes]
    assert not there["refreshed"]  # the refresh's modules were not imported
    assert there["compiled"] == 10


def test_a_cache_class_it_was_not_written_for_is_left_alone(monkeypatch: Any) -> None:
    monkeypatch.setattr(_startup, "_FULL_LOAD", [])  # as if not patched yet here

    class Cache:
        def load_overload(self, sig: object, target_context: object) -> str:
            return "numba's"

    caching = ModuleType("caching")
    caching.Cache = Cache  # type: ignore[attr-defined]  # no _load_overload: another Numba
    _startup._patch_caching(caching)
    assert Cache().load_overload(None, None) == "numba's"
    assert _startup._FULL_LOAD == []
