"""``--scheduler``: a batch on a real cluster started as a person would, with a
``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cluster_helpers import plies_env, pons_lines, stop_processes
from plies.cli import main

pytest.importorskip("distributed")


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[str]:
    """The address of a ``dask scheduler`` with two ``dask worker`` processes."""
    info = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    started = [
        subprocess.Popen(
            [
                *dask,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(info),
            ],
            env=plies_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for name in ("w1", "w2"):
            started.append(
                subprocess.Popen(
                    [
                        *dask,
                        "worker",
                        address,
                        "--nthreads",
                        "1",
                        "--name",
                        name,
                        "--no-dashboard",
                        "--host",
                        "127.0.0.1",
                    ],
                    env=plies_env(),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
        yield address
    finally:
        stop_processes(started)


def test_a_batch_on_a_dask_scheduler_and_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, scheduler: str
) -> None:
    lines = pons_lines("Test_L2_R1", 200)
    source = tmp_path / "set.txt"
    source.write_text("\n".join(lines) + "\n")
    status = main(["solve", "connect4", "--batch", str(source), "--scheduler", scheduler])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out.splitlines() == lines  # Pons' answers, in order


def test_an_unreachable_scheduler_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import plies.cluster._dask

    monkeypatch.setattr(plies.cluster._dask, "CONNECT_SECONDS", 1)  # retries for 1 s
    source = tmp_path / "nim.txt"
    source.write_text("1,2,3\n")
    status = main(["solve", "nim", "--batch", str(source), "--scheduler", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    assert len(err.splitlines()) == 1
