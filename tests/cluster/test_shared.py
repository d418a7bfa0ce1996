"""The table the workers of one machine share (:mod:`plies.cluster._shared`)."""

from __future__ import annotations

import multiprocessing
import stat
import uuid
from pathlib import Path

import pytest

from plies.cluster import _shared
from plies.cluster._shared import release, shared_table

pytest.importorskip("numba")
if not _shared.SHM.is_dir():
    pytest.skip("no /dev/shm here", allow_module_level=True)

from plies.engine.native import NativeTable  # after the skip

BITS = 49  # 7 x 6 Connect Four keys


def token() -> str:
    return uuid.uuid4().hex


def test_two_tables_of_one_solve_are_one() -> None:
    name = token()
    first, second = NativeTable(1009), NativeTable(1009)
    try:
        assert shared_table(name, first, BITS) and shared_table(name, second, BITS)
        first.values[5] = 7
        first.keys[5] = 1234
        assert second.values[5] == 7 and second.keys[5] == 1234
        path = _shared.SHM / f"plies-table-{name}"
        assert path.stat().st_size == first.shared_bytes(BITS) == 1009 * 9
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        other = NativeTable(1013)  # another size: not this solve's table
        assert not shared_table(name, other, BITS) and other.keys is None
    finally:
        release(name)
    assert not path.exists()
    release(name)  # twice: nothing to do


def test_release_lets_the_next_solve_start_afresh() -> None:
    name = token()
    table = NativeTable(1009)
    assert shared_table(name, table, BITS)
    table.values[3] = 9
    release(name)
    fresh = NativeTable(1009)
    try:
        assert shared_table(name, fresh, BITS) and not fresh.values.any()
        assert table.values[3] == 9  # the old map stays valid for whoever holds it
    finally:
        release(name)


def _map_and_mark(name: str, index: int) -> None:
    table = NativeTable(1009)
    assert shared_table(name, table, BITS)
    table.values[index] = index + 1


def test_processes_starting_at_once_map_one_file() -> None:
    name = token()
    context = multiprocessing.get_context("fork")
    started = [context.Process(target=_map_and_mark, args=(name, i)) for i in range(6)]
    for process in started:
        process.start()
    for process in started:
        process.join(30)
        assert process.exitcode == 0
    table = NativeTable(1009)
    try:
        assert shared_table(name, table, BITS)
        assert list(table.values[:6]) == [1, 2, 3, 4, 5, 6]
        assert [p.name for p in _shared.SHM.glob(f"plies-table-{name}*")] == [
            f"plies-table-{name}"
        ]  # no file of a loser of the race is left
    finally:
        release(name)


def test_without_dev_shm_a_worker_keeps_its_own_table(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(_shared, "SHM", tmp_path / "missing")
    table = NativeTable(1009)
    assert not shared_table(token(), table, BITS) and table.keys is None


def test_a_token_names_no_other_file() -> None:
    with pytest.raises(ValueError, match="alphanumeric"):
        shared_table("../x", NativeTable(1009), BITS)


def test_a_full_dev_shm_leaves_a_table_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int, offset: int, length: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_shared.os, "posix_fallocate", full)
    name = token()
    table = NativeTable(1009)
    assert not shared_table(name, table, BITS) and table.keys is None
    assert not list(_shared.SHM.glob(f"plies-table-{name}*"))  # nothing half made
