"""plies' object cache: compiled code mapped without Numba gives Numba's results.

The cache of Pons' kernel is written once here into a temporary folder, as a clean
machine writes it (a solve by Numba, then :func:`remember_compiled`); the tests then
check the mapped code against Numba's on Pons' test lines, in a fresh process with
neither Numba nor LLVM loaded, and that damaged, stale or foreign objects fall back.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.engine.pons import pons_set

from plies.engine import Limits, solve
from plies.engine.native import NativeTable, _objload
from plies.engine.native._objload import ObjectCacheMissing, ObjectLoadError
from plies.errors import SearchError
from plies.games import parse_game_spec
from plies.games.connect4 import _objects, _pons, _solve
from plies.games.connect4._rules import Connect4
from plies.games.connect4._solve import _Kernel

C4 = Connect4()


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder holding the cache of Pons' kernel, written as on a clean machine: the
    first solve finds none, solves by Numba and writes it."""
    folder = tmp_path_factory.mktemp("objects")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(_objload.DIRECTORY_VARIABLE, str(folder))
        patch.setattr(_objects, "_KERNELS", {})
        assert not _objects.cache_path("uint32").exists()
        patch.setattr(_objload, "_PENDING", {})
        patch.setattr(_solve, "_LOADED", set())  # as in a new process
        result = solve(C4, C4.parse_position("32164625"), backend="native")
        assert result.value > 0
        # Tables of 2**16 entries keep 64-bit keys: their kernel has its own cache.
        solve(C4, C4.parse_position("32164625"), backend="native", table=NativeTable(1 << 16))
        assert not _objects.cache_path("uint32").exists()  # written at exit:
        _objload.write_pending()
        assert _objects.cache_path("uint32").exists()
        assert _objects.cache_path("uint64").exists()
        # A fresh process's numba_missing() writes this (cached in this process).
        _objload.remember_numba_imports()
        yield folder


@pytest.fixture
def in_cache(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache folder in use, and no kernel chosen yet in this process."""
    monkeypatch.setenv(_objload.DIRECTORY_VARIABLE, str(cache_dir))
    monkeypatch.setattr(_objects, "_KERNELS", {})
    return cache_dir


def _solve_root(kernel: Any, moves: str, entries: int) -> tuple[int, int, list[int], int]:
    """``(score, nodes, principal line's cells, best moves' count)`` by ``kernel``
    (None: the one the table's key type gets) on a new table of ``entries`` entries."""
    state = C4.parse_position(moves)
    run = _Kernel(C4, NativeTable(entries), Limits(), None, None)
    kernel = kernel or run.kernel
    position, mask = np.uint64(state.position), np.uint64(state.mask)
    score = int(run.run(kernel.solve_root, position, mask, state.ply, False))
    nodes = run.nodes
    line = np.zeros(C4.size - state.ply, np.uint64)
    length = run.run(kernel.principal_line, position, mask, state.ply, score, line)
    found = np.zeros(C4.width, np.uint64)
    count = run.run(kernel.best_moves, position, mask, state.ply, score, False, found)
    return score, nodes, [int(cell) for cell in line[:length]], int(count)


@pytest.mark.parametrize(
    ("name", "entries"),
    [
        ("Test_L3_R1", 1 << 17),
        ("Test_L2_R1", 1 << 17),
        ("Test_L2_R2", 1 << 17),
        ("Test_L1_R1", 1 << 16),
    ],
)
def test_mapped_kernel_gives_numbas_scores_nodes_and_lines(
    in_cache: Path, name: str, entries: int
) -> None:
    """Tables of 2**17 entries have uint32 keys, of 2**16 uint64 keys: both mapped."""
    keys = NativeTable(entries).arrays(C4.width * (C4.height + 1))[0]
    assert isinstance(_objects.kernel_for(keys, np.zeros(1, np.int8)), _objects.ObjectKernel)
    every = 10 if name in {"Test_L3_R1", "Test_L2_R1"} else 50
    for moves, score in pons_set(name, every):
        by_mapped = _solve_root(None, moves, entries)
        assert by_mapped == _solve_root(_pons, moves, entries), moves
        assert by_mapped[0] == score, moves


def test_fresh_process_solves_without_numba_or_llvm(in_cache: Path) -> None:
    program = (
        "import json, sys\n"
        "from plies.engine import solve\n"
        "from plies.games import parse_game_spec\n"
        "game = parse_game_spec('connect4')\n"
        "result = solve(game, game.parse_position('32164625'), backend='native')\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('numba.', 'llvmlite')))\n"
        "print(json.dumps([result.value, list(result.pv), result.stats.nodes, loaded]))\n"
    )
    env = {**_environment(), _objload.DIRECTORY_VARIABLE: str(in_cache)}
    output = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, check=True
    ).stdout
    value, pv, nodes, loaded = json.loads(output)
    # Only Numba's two C helper modules, loaded by file: not Numba, not LLVM.
    assert loaded == ["numba._helperlib", "numba.core.runtime._nrt_python"]
    game = parse_game_spec("connect4")
    expected = solve(game, game.parse_position("32164625"), backend="native")
    assert (value, tuple(pv), nodes) == (expected.value, expected.pv, expected.stats.nodes)


def test_a_clean_machines_first_process_starts_a_writer_for_the_next(tmp_path: Path) -> None:
    program = (
        "import sys\n"
        "from plies.engine import solve\n"
        "from plies.games import parse_game_spec\n"
        "game = parse_game_spec('connect4')\n"
        "result = solve(game, game.parse_position('32164625'), backend='native')\n"
        "print(result.value, 'numba' in sys.modules)\n"
    )
    env = {**_environment(), _objload.DIRECTORY_VARIABLE: str(tmp_path)}

    def run() -> str:
        command = [sys.executable, "-c", program]
        return subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout

    value = solve(C4, C4.parse_position("32164625"), backend="native").value
    assert run() == f"{value} True\n"  # no cache: Numba solves, a writer starts at exit
    wait_for_writer(tmp_path, {"connect4-pons-uint32"})
    assert [p.name.split(".")[0] for p in tmp_path.glob("*.objects")] == ["connect4-pons-uint32"]
    assert run() == f"{value} False\n"


def wait_for_writer(folder: Path, wanted: set[str], timeout: float = 300.0) -> None:
    """Wait until the caches named ``wanted`` are in ``folder`` and no writer holds a
    lock there (a writer process compiles them again: seconds)."""
    deadline = time.monotonic() + timeout
    names: set[str] = set()
    while time.monotonic() < deadline:
        names = {path.name.split(".", 1)[0] for path in folder.glob("*.objects")}
        if wanted <= names and not list(folder.glob("*.writing")):
            return
        time.sleep(0.2)
    raise AssertionError(f"no writer wrote {sorted(wanted - names)} in {timeout} s")


def test_a_time_limit_stops_the_mapped_kernel_in_its_worker_thread(in_cache: Path) -> None:
    started = time.perf_counter()
    with pytest.raises(SearchError, match="time limit"):
        solve(C4, C4.parse_position("4"), backend="native", limits=Limits(time=0.2), moves="none")
    assert time.perf_counter() - started < 1.5
    assert isinstance(_objects._KERNELS["uint32"], _objects.ObjectKernel)


def _environment() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != _objload.DISABLE_VARIABLE}


def test_a_damaged_cache_falls_back_to_numba(
    in_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = bytearray(_objects.cache_path("uint32").read_bytes())
    data[-100] ^= 0xFF  # a byte of the last object
    monkeypatch.setenv(_objload.DIRECTORY_VARIABLE, str(tmp_path))
    damaged = _objects.cache_path("uint32")
    damaged.write_bytes(bytes(data))
    with pytest.raises(ObjectCacheMissing, match="digest differs"):
        _objload.read_cache(damaged)
    assert _objects.kernel_for(np.zeros(1, np.uint32), np.zeros(1, np.int8)) is _pons
    result = solve(C4, C4.parse_position("32164625"), backend="native")
    assert result.value > 0


def test_a_file_of_another_key_is_stale(in_cache: Path, tmp_path: Path) -> None:
    stale = tmp_path / "connect4-pons-uint32.0123456789abcdef01234567.objects"
    stale.write_bytes(_objects.cache_path("uint32").read_bytes())
    with pytest.raises(ObjectCacheMissing, match="another key"):
        _objload.load_entries(stale)


def test_the_key_follows_the_sources(tmp_path: Path) -> None:
    source = tmp_path / "kernel.py"
    source.write_text("x = 1\n")
    before = _objload.cache_key([source])
    source.write_text("x = 2\n")
    assert _objload.cache_key([source]) != before


def test_disabled_cache_leaves_numba(in_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_objload.DISABLE_VARIABLE, "0")
    assert _objects.kernel_for(np.zeros(1, np.uint32), np.zeros(1, np.int8)) is _pons


def _first_object(cache_dir: Path) -> bytes:
    objects, _entries = _objload.read_cache(_objects.cache_path("uint32"))
    return objects[0]


def test_an_unknown_relocation_is_refused(in_cache: Path) -> None:
    data = bytearray(_first_object(in_cache))
    sections = _objload._sections(bytes(data))
    rela = next(s for s in sections if s.kind == 4 and s.size)
    data[rela.offset + 8 : rela.offset + 12] = (99).to_bytes(4, "little")  # r_info's type
    with pytest.raises(ObjectLoadError, match="unsupported relocation type 99"):
        _objload.map_object(bytes(data), _objload.runtime_symbol)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: b"\x7fELF\x01" + d[5:], "not a little-endian ELF64"),
        (lambda d: d[:18] + (183).to_bytes(2, "little") + d[20:], "machine 183"),
        (lambda d: d[:200], "truncated"),
    ],
)
def test_a_foreign_object_is_refused(in_cache: Path, change: Any, message: str) -> None:
    with pytest.raises(ObjectLoadError, match=message):
        _objload.map_object(change(_first_object(in_cache)), _objload.runtime_symbol)


def test_a_missing_symbol_is_refused(in_cache: Path) -> None:
    def nothing(name: str) -> int:
        raise ObjectLoadError(f"no {name}")

    with pytest.raises(ObjectLoadError, match="no "):
        _objload.map_object(_first_object(in_cache), nothing)


def test_small_code_model_calls_go_through_stubs() -> None:
    """An object of LLVM's default (small, PIC) code model: a call through the PLT
    (a stub here), a GOT load and PC-relative data, all resolved."""
    import ctypes

    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    ir = """
    declare i64 @labs(i64)
    @table = internal constant [2 x i64] [i64 -5, i64 -7]
    define i64 @pick(i64 %i) {
      %p = getelementptr [2 x i64], ptr @table, i64 0, i64 %i
      %v = load i64, ptr %p
      %a = call i64 @labs(i64 %v)
      ret i64 %a
    }
    """
    module = llvm.parse_assembly(ir)
    machine = llvm.Target.from_default_triple().create_target_machine(reloc="pic")
    mapped = _objload.map_object(machine.emit_object(module), _objload.runtime_symbol)
    pick = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(mapped.symbols["pick"])
    assert (pick(0), pick(1)) == (5, 7)


def test_the_cli_solve_matches_with_and_without_the_cache(in_cache: Path) -> None:
    game = parse_game_spec("connect4")
    state = game.parse_position("4455")
    mapped = solve(game, state, backend="native", limits=Limits(nodes=10_000_000))
    assert isinstance(_objects._KERNELS["uint32"], _objects.ObjectKernel)
    _objects._KERNELS["uint32"] = _pons
    by_numba = solve(game, state, backend="native", limits=Limits(nodes=10_000_000))
    assert (mapped.value, mapped.pv, mapped.best_moves, mapped.stats.nodes) == (
        by_numba.value,
        by_numba.pv,
        by_numba.best_moves,
        by_numba.stats.nodes,
    )
