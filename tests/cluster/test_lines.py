"""``plies.cluster`` without Dask: scheduler addresses, the serial runner, ``--resume``'s
matching, and that a serial batch never imports Dask."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from cluster_helpers import plies_env
from plies.cli._solve import SolveLines
from plies.cli._tree import TreeLines
from plies.cluster import LineResult, check_scheduler_address, resume_items, run_lines
from plies.errors import PliesError
from plies.lab import LabOptions


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("tls://scheduler.example.org:8786", "tls://scheduler.example.org:8786"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
    ],
)
def test_scheduler_addresses(given: str, expected: str) -> None:
    assert check_scheduler_address(given) == expected


@pytest.mark.parametrize(
    "given",
    [
        "",
        "8786",
        "http://127.0.0.1:8786",
        "ws://h:1",
        "tcp://h:0",
        "tcp://h:99999",
        "a b:1",
        "tcp://h:1/path",
        "ucx://h:1",
    ],
)
def test_bad_scheduler_addresses_are_refused(given: str) -> None:
    with pytest.raises(PliesError, match="expected a scheduler address"):
        check_scheduler_address(given)


def test_serial_run_emits_every_line_in_order() -> None:
    job = SolveLines("nim")
    emitted: list[LineResult] = []
    items = [(1, "1,2,3"), (3, "bad"), (4, "3,4,5 1")]
    run_lines(items, job, emit=emitted.append, stop=threading.Event())
    assert [r.number for r in emitted] == [1, 3, 4]
    assert emitted[0].output == "1,2,3 loss:6" and emitted[0].error is None
    assert emitted[1].output is None and emitted[1].error  # a bad line: stderr only
    assert emitted[2].differs == "line 4: expected 1, got win:11"  # nim keeps no score


def test_a_set_stop_runs_nothing() -> None:
    stop = threading.Event()
    stop.set()
    emitted: list[LineResult] = []
    run_lines([(1, "1,2,3")], SolveLines("nim"), emit=emitted.append, stop=stop)
    assert emitted == []


def test_resume_skips_what_the_output_answers() -> None:
    items = [(1, "44"), (2, "zz"), (4, "45"), (5, "46"), (6, "47")]
    job = SolveLines("connect4")
    # 44 answered, zz bad (no output line), 45 answered: 46 and 47 are left.
    assert resume_items(items, ["44 -1", "45 2"], job) == [(5, "46"), (6, "47")]
    assert resume_items(items, [], job) == items
    with pytest.raises(PliesError, match=r"output line 2 .* answers no line"):
        resume_items(items, ["44 -1", "33 2"], job)
    json_job = SolveLines("connect4", json=True)
    assert resume_items(items, ['{"line": 1}', '{"line": 2, "error": "x"}'], json_job) == items[2:]
    tree_job = TreeLines(LabOptions())
    assert resume_items(items, ['{"line":4,"value":3}'], tree_job) == items[3:]


def test_small_batches_never_import_dask() -> None:
    # Without --workers never; with it, not for a batch done within the head start.
    code = (
        "import sys, io; from plies.cli import main;"
        "sys.stdin = io.StringIO('2252576253462244111563\\n');"
        "status = main(['solve', 'connect4', '--batch', '-', '--workers', '2']);"
        "assert 'distributed' not in sys.modules and 'dask' not in sys.modules, 'dask loaded';"
        "sys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        capture_output=True,
        text=True,
        env=plies_env(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2252576253462244111563 ")
