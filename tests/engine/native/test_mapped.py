"""The generic kernel and the Othello and m,n,k rules mapped from plies' object cache
(``_mapped``): the same values, moves, lines and counters as Numba's on random
positions, searches and solves; a fresh process with the cache loads no Numba; a time
limit stops the mapped kernel in the runner's worker thread; a damaged, stale or
missing cache falls back to Numba."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.native.test_objload import wait_for_writer
from engine.test_native_games import random_position
from plies.engine import Limits, search, solve
from plies.engine.native import _mapped, _objload
from plies.engine.native._runner import INLINE_NODES
from plies.games import parse_game_spec

pytest.importorskip("numba")

OTHELLO = parse_game_spec("othello")
MNK = parse_game_spec("mnk:m=5,n=5,k=4")
PORT_MODULES = ("plies.games.othello._native", "plies.games.mnk._native")

#: A fresh process's one-off searches and solve (printed as JSON, with whether Numba
#: and LLVM were imported).
ONE_OFF = """
import json, sys
from plies.engine import Limits, search, solve
from plies.games import parse_game_spec
found = []
for spec, depth in (("othello", 6), ("mnk:m=5,n=5,k=4", 5)):
    game = parse_game_spec(spec)
    result = search(game, game.initial_state(), limits=Limits(depth=depth), backend="native")
    found.append([result.value, result.best_move, list(result.pv), result.stats.nodes,
                  result.stats.leaves, result.stats.cutoffs, result.stats.tt_hits])
game = parse_game_spec("mnk:m=3,n=3,k=3")
solved = solve(game, game.initial_state(), moves="all", backend="native")
found.append([solved.value, list(solved.best_moves), list(solved.pv), solved.stats.nodes])
print(json.dumps({"found": found, "numba": "numba" in sys.modules,
                  "llvm": "llvmlite" in sys.modules}))
"""


def _one_off(folder: Path, **variables: str) -> dict[str, Any]:
    """Run :data:`ONE_OFF` in a fresh process whose object cache is ``folder``."""
    env = {**os.environ, _objload.DIRECTORY_VARIABLE: str(folder), **variables}
    if not variables:
        env.pop(_objload.DISABLE_VARIABLE, None)
    done = subprocess.run(
        [sys.executable, "-c", ONE_OFF],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the caches, written as on a clean machine: a process finds
    none, searches by Numba and at exit starts a writer process, which writes them."""
    folder = tmp_path_factory.mktemp("objects")
    first = _one_off(folder)
    assert first["numba"]
    wanted = {"native-kernel", "rules-plies-games-othello-_native"}
    wanted |= {"rules-plies-games-mnk-_native", "rules-plies-engine-native-_protocol"}
    wait_for_writer(folder, wanted)
    return folder


def _fresh(monkeypatch: pytest.MonkeyPatch, folder: Path | None) -> None:
    """This process as a new one: no kernel or rules mapped yet, the ports' addresses
    not taken; ``folder`` the object cache (None: the cache off, Numba only)."""
    from plies.games.mnk._native import MNKNative
    from plies.games.othello._native import OthelloNative

    if folder is None:
        monkeypatch.setenv(_objload.DISABLE_VARIABLE, "0")
    else:
        monkeypatch.delenv(_objload.DISABLE_VARIABLE, raising=False)
        monkeypatch.setenv(_objload.DIRECTORY_VARIABLE, str(folder))
    monkeypatch.setattr(_mapped, "_KERNEL", [])
    monkeypatch.setattr(_mapped, "_RULES", {})
    monkeypatch.setattr(_objload, "_PENDING", {})  # nothing written at this one's exit
    for port in (OthelloNative, MNKNative):
        monkeypatch.setattr(port, "_addresses", None)


@pytest.fixture
def mapped(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The caches in use, checked to load."""
    _fresh(monkeypatch, cache_dir)
    assert isinstance(_mapped.mapped_kernel(), _mapped.MappedKernel)
    for module in PORT_MODULES:
        assert _mapped.mapped_rules(module) is not None
    yield cache_dir


def _searched(game: Any, state: Any, depth: int) -> tuple[Any, ...]:
    result = search(game, state, limits=Limits(depth=depth), backend="native")
    stats = result.stats
    return (
        result.value, result.best_move, result.pv, result.depth, result.exact, stats.nodes,
        stats.leaves, stats.cutoffs, stats.first_move_cutoffs, stats.tt_probes,
        stats.tt_hits, stats.seldepth, stats.ebf,
    )  # fmt: skip


def _solved(game: Any, state: Any) -> tuple[Any, ...]:
    result = solve(game, state, moves="all", backend="native")
    stats = result.stats
    return (result.value, result.best_moves, result.pv, stats.nodes, stats.leaves,
            stats.cutoffs, stats.tt_probes, stats.tt_hits)  # fmt: skip


CASES = [
    (OTHELLO, seed, plies, depth)
    for seed, plies, depth in ((1, 0, 7), (2, 9, 6), (3, 20, 6), (4, 31, 5), (5, 44, 8))
] + [(MNK, seed, plies, depth) for seed, plies, depth in ((6, 0, 7), (7, 3, 6), (8, 8, 7))]


def test_mapped_searches_give_numbas_values_lines_and_counters(
    mapped: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    positions = [
        (game, random_position(game, seed, plies), depth) for game, seed, plies, depth in CASES
    ]
    by_cache = [_searched(game, state, depth) for game, state, depth in positions]
    _fresh(monkeypatch, None)
    assert _mapped.mapped_kernel() is None
    by_numba = [_searched(game, state, depth) for game, state, depth in positions]
    assert by_cache == by_numba


def test_mapped_solves_give_numbas_values_moves_lines_and_counters(
    mapped: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Othello with 11-12 empty squares; m,n,k 3x3 and 4x4 (3 in a row) just begun.
    positions = [(OTHELLO, random_position(OTHELLO, seed, 50 + seed)) for seed in (1, 2)]
    for spec, seed, plies in (("mnk:m=3,n=3,k=3", 3, 1), ("mnk:m=3,n=3,k=3", 4, 2),
                              ("mnk:m=4,n=4,k=3", 5, 1)):  # fmt: skip
        game = parse_game_spec(spec)
        positions.append((game, random_position(game, seed, plies)))
    by_cache = [_solved(game, state) for game, state in positions]
    _fresh(monkeypatch, None)
    by_numba = [_solved(game, state) for game, state in positions]
    assert by_cache == by_numba


def test_rules_addresses_are_the_mapped_symbols(mapped: Path) -> None:
    port = OTHELLO.native()  # type: ignore[attr-defined]
    rules = _mapped.mapped_rules("plies.games.othello._native")
    assert rules is not None
    mapped_addresses = {_objload_address(function) for function in rules.values()}
    assert int(port.rules()[0]) in mapped_addresses  # legal_moves
    assert int(port.rules()[1]) in mapped_addresses  # play


def _objload_address(function: Any) -> int:
    import ctypes

    return int(ctypes.cast(function, ctypes.c_void_p).value or 0)


def test_a_fresh_process_with_the_cache_loads_neither_numba_nor_llvm(cache_dir: Path) -> None:
    by_cache = _one_off(cache_dir)
    assert not by_cache["numba"] and not by_cache["llvm"]
    by_numba = _one_off(cache_dir, PLIES_OBJECT_CACHE="0")
    assert by_numba["numba"]
    assert by_cache["found"] == by_numba["found"]


def test_a_time_limit_stops_the_mapped_kernel_in_its_worker_thread(mapped: Path) -> None:
    started = time.perf_counter()
    result = search(
        OTHELLO, OTHELLO.initial_state(), limits=Limits(depth=40, time=0.3), backend="native"
    )
    elapsed = time.perf_counter() - started
    assert not result.completed and result.best_move is not None
    assert result.stats.nodes > INLINE_NODES  # beyond the inline part: the worker ran
    assert elapsed < 2.0, elapsed


def _copy(cache_dir: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "copy"
    shutil.copytree(cache_dir, folder)
    return folder


def test_a_damaged_kernel_cache_falls_back_to_numba(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy(cache_dir, tmp_path)
    (kernel,) = folder.glob("native-kernel.*.objects")
    kernel.write_bytes(kernel.read_bytes()[:-100])
    _fresh(monkeypatch, folder)
    assert _mapped.mapped_kernel() is None
    state = random_position(OTHELLO, 9, 12)
    assert _searched(OTHELLO, state, 5)[:2] == _searched_by_numba(monkeypatch, state)[:2]


def _searched_by_numba(monkeypatch: pytest.MonkeyPatch, state: Any) -> tuple[Any, ...]:
    _fresh(monkeypatch, None)
    return _searched(OTHELLO, state, 5)


def test_a_stale_or_missing_kernel_cache_is_not_used(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy(cache_dir, tmp_path)
    (kernel,) = folder.glob("native-kernel.*.objects")
    kernel.rename(folder / "native-kernel.000000000000000000000000.objects")  # another key
    _fresh(monkeypatch, folder)
    assert _mapped.mapped_kernel() is None
    _fresh(monkeypatch, tmp_path / "empty")
    assert _mapped.mapped_kernel() is None


def test_damaged_rules_fall_back_to_numba(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy(cache_dir, tmp_path)
    (rules,) = folder.glob("rules-plies-games-othello-_native.*.objects")
    data = bytearray(rules.read_bytes())
    data[-50] ^= 0xFF  # an object's digest no longer matches
    rules.write_bytes(bytes(data))
    _fresh(monkeypatch, folder)
    assert _mapped.mapped_rules("plies.games.othello._native") is None
    assert isinstance(_mapped.mapped_kernel(), _mapped.MappedKernel)
    port = OTHELLO.native()  # type: ignore[attr-defined]
    assert int(port.rules()[0]) == int(type(port).legal_moves.compiled().address)
    state = random_position(OTHELLO, 10, 14)
    assert _searched(OTHELLO, state, 5) == _searched_by_numba(monkeypatch, state)


def test_the_rules_key_follows_the_modules_the_port_imports() -> None:
    sources = _mapped.rule_sources("plies.games.othello._native")
    names = [path.name for path in sources]
    assert names[0] == "_native.py" and "_rules.py" in names  # Othello's constants
    assert {"_protocol.py", "_pointers.py", "_bits.py"} <= set(names)
    assert all(path.is_file() for path in sources)


def test_a_helper_called_from_python_is_numbas_function() -> None:
    import numpy as np

    from plies.games.othello._native import move_mask
    from plies.games.othello._rules import _move_mask

    start = OTHELLO.initial_state()
    mask = move_mask(np.uint64(start.mover), np.uint64(start.opponent))
    assert int(mask) == _move_mask(start.mover, start.opponent)


def test_a_port_compiles_from_scratch_with_the_lazy_intrinsics(tmp_path: Path) -> None:
    # Numba's cache empty: the rules are typed, reading native.popcount and
    # native.trailing_zeros (which the package exports lazily) from compiled code, in
    # a rule (Connect Four's evaluate) and in a helper (Othello's).
    code = (
        "from plies.games.connect4._native import Connect4Native\n"
        "from plies.games.othello._native import OthelloNative\n"
        "print(Connect4Native.evaluate.compiled().address > 0,"
        " OthelloNative.legal_moves.compiled().address > 0)\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), _objload.DISABLE_VARIABLE: "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


#: Two more ports: (game, the module of its rules, (seed, plies, depth) of each search).
OTHER_PORTS = [
    ("checkers", "plies.games.checkers._native", ((11, 6, 6), (12, 30, 6))),
    ("chess", "plies.games.chess._native", ((13, 4, 4), (14, 20, 3))),
]


@pytest.mark.parametrize("case", OTHER_PORTS, ids=[spec for spec, _, _ in OTHER_PORTS])
def test_other_ports_mapped_give_numbas_searches(
    case: tuple[str, str, tuple[tuple[int, int, int], ...]],
    cache_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec, module, cases = case
    import importlib

    from plies.engine.native._protocol import compile_rules

    game = parse_game_spec(spec)
    port = type(game.native())  # type: ignore[attr-defined]
    folder = _copy(cache_dir, tmp_path)
    monkeypatch.setenv(_objload.DIRECTORY_VARIABLE, str(folder))
    importlib.import_module(module)
    _objload.write_cache(_mapped.rule_cache_path(module), *compile_rules(module))
    positions = [(random_position(game, seed, plies), depth) for seed, plies, depth in cases]
    _fresh(monkeypatch, folder)
    monkeypatch.setattr(port, "_addresses", None)
    assert _mapped.mapped_rules(module) is not None
    by_cache = [_searched(game, state, depth) for state, depth in positions]
    _fresh(monkeypatch, None)
    monkeypatch.setattr(port, "_addresses", None)
    by_numba = [_searched(game, state, depth) for state, depth in positions]
    assert by_cache == by_numba
