"""The object-cache writer process's jobs (``_objwriter``) and the writers' lock
(``_objload.write_missing``): only plies' own functions run, a fresh lock keeps a
second writer out, a stale one does not, and a present cache is not written again."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from plies.engine.native import _objload, _objwriter


def test_only_plies_functions_run_and_bad_jobs_are_skipped(tmp_path: Path) -> None:
    keep = tmp_path / "keep"
    keep.mkdir()
    jobs: list[Any] = [
        ["shutil", "rmtree", [str(keep)]],  # not plies': never run
        ["plies.engine.native._objload", "cache_enabled", []],
        ["plies.engine.native._objload", "no_such_function", []],
        "not a job",
    ]
    assert _objwriter.run_jobs(jobs) == 1
    assert keep.is_dir()


def test_main_takes_bad_json_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_objload, "_WRITER", [])
    assert _objwriter.main(["{not json"]) == 0
    assert _objwriter.main([json.dumps({"a": 1})]) == 0
    assert _objload._WRITER == [True]  # a writer asks for no writer at its exit


def _objects() -> tuple[list[bytes], dict[str, tuple[int, _objload.CEntry]]]:
    return [b"\x7fELF-not-mapped-here"], {"f": (0, _objload.CEntry("f", "q"))}


def test_a_fresh_lock_keeps_a_second_writer_out(tmp_path: Path) -> None:
    path = tmp_path / "cache.0123.objects"
    lock = tmp_path / "cache.0123.objects.writing"
    lock.touch()
    _objload.write_missing(path, _objects)
    assert not path.exists() and lock.exists()


def test_a_stale_lock_is_taken_over_and_released(tmp_path: Path) -> None:
    path = tmp_path / "cache.0123.objects"
    lock = tmp_path / "cache.0123.objects.writing"
    lock.touch()
    old = time.time() - _objload.STALE_LOCK - 60
    os.utime(lock, (old, old))
    _objload.write_missing(path, _objects)
    assert _objload.read_cache(path) == _objects()
    assert not lock.exists()


def test_a_present_cache_is_not_compiled_again(tmp_path: Path) -> None:
    path = tmp_path / "cache.0123.objects"
    _objload.write_cache(path, *_objects())

    def compile_again() -> Any:
        raise AssertionError("compiled again")

    _objload.write_missing(path, compile_again)


def test_a_writer_asks_for_no_writer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_objload, "_PENDING", {})
    monkeypatch.setattr(_objload, "_WRITER", [True])
    monkeypatch.delenv(_objload.DISABLE_VARIABLE, raising=False)
    _objload.write_at_exit(tmp_path / "c.objects", ("plies.x", "f", ()))
    assert _objload._PENDING == {}
