"""A match played on Dask gives the serial match's games: on a local cluster of worker
processes (``workers``) and on a real ``dask scheduler`` with two ``dask worker``
processes (``scheduler``), as ``plies match --workers/--scheduler`` plays it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cluster_helpers import plies_env, stop_processes
from plies.lab import MatchOptions, run_match

pytest.importorskip("distributed")
pytestmark = pytest.mark.cluster

#: Games whose searches take a few seconds in all, so that a local cluster is worth
#: starting (see plies.cluster.run_lines); deterministic limits only.
OPTIONS = MatchOptions(
    "connect4", ("pvs:depth=5", "mcts:iterations=200"), games=4, random_plies=2, seed=5
)


@pytest.fixture(scope="module")
def serial_games() -> tuple[object, ...]:
    """The match's games played here."""
    return run_match(OPTIONS).games


def test_workers_play_the_serial_games(
    serial_games: tuple[object, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The cluster starts at once, not only once the games left are worth its start
    # (games are still played here until its workers are up, as a batch's lines are;
    # the scheduler's test below plays every game on Dask's workers).
    monkeypatch.setattr("plies.cluster._lines.CLUSTER_WORTH", 0.0)
    monkeypatch.setattr("plies.cluster._lines.SAMPLE_SECONDS", 0.0)
    assert run_match(OPTIONS, workers=2).games == serial_games


@pytest.fixture
def address(tmp_path: Path) -> Iterator[str]:
    """The address of a ``dask scheduler`` with two single-threaded ``dask worker``s."""
    info = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    quiet = {"env": plies_env(), "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
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
            start_new_session=True,
            **quiet,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        found = json.loads(info.read_text())["address"]
        for name in ("w1", "w2"):
            started.append(
                subprocess.Popen(
                    [
                        *dask,
                        "worker",
                        found,
                        "--nthreads",
                        "1",
                        "--name",
                        name,
                        "--no-dashboard",
                        "--host",
                        "127.0.0.1",
                    ],
                    start_new_session=True,
                    **quiet,
                )
            )
        yield found
    finally:
        stop_processes(started)


def test_a_dask_scheduler_plays_the_serial_games(
    address: str, serial_games: tuple[object, ...]
) -> None:
    result = run_match(OPTIONS, scheduler=address)
    assert result.games == serial_games
