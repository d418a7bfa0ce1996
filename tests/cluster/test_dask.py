"""Batches on a real Dask LocalCluster of two worker processes: the output equals the
serial run's byte for byte, bad lines stay in place, nothing is lost when a worker or
the driver is killed; a cluster the batch starts takes the lines over from this
process."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cluster_helpers import children, plies_env, pons_lines, run_python
from plies.cli import main
from plies.cli._solve import SolveLines
from plies.cluster import LineResult, run_lines
from plies.cluster import _lines as lines_module
from plies.cluster._lines import LineQueue, _run_local

distributed = pytest.importorskip("distributed")

#: JSON fields that measure time, different in every run (serial ones too).
CLOCK_FIELDS = ("time", "nps")


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def without_clocks(out: str) -> list[Any]:
    """JSON lines with their time-measuring fields removed."""
    records = []
    for line in out.splitlines():
        record = json.loads(line)
        for field in CLOCK_FIELDS:
            record.pop(field, None)
            record.get("stats", {}).pop(field, None)
        records.append(record)
    return records


def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_solve_batch_equals_the_serial_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, address: str
) -> None:
    lines = pons_lines("Test_L3_R1", 300)
    lines[7:7] = ["# a comment", "", "12345678", "4444444"]  # column 8; a full column
    source = write_lines(tmp_path / "set.txt", lines)
    serial = cli(capsys, "solve", "connect4", "--batch", source)
    parallel = cli(capsys, "solve", "connect4", "--batch", source, "--scheduler", address)
    assert parallel[1] == serial[1]  # byte for byte
    assert serial[1].splitlines() == lines[:7] + lines[11:]  # Pons' answers
    assert parallel[0] == serial[0] == 1  # two bad lines
    bad = [line for line in parallel[2].splitlines() if line.startswith("error: line")]
    assert [line.split(":")[1] for line in bad] == [" line 10", " line 11"]
    assert bad == [line for line in serial[2].splitlines() if line.startswith("error: line")]
    serial_json = cli(capsys, "solve", "connect4", "--batch", source, "--json")
    parallel_json = cli(
        capsys, "solve", "connect4", "--batch", source, "--json", "--scheduler", address
    )
    assert without_clocks(parallel_json[1]) == without_clocks(serial_json[1])
    assert len(parallel_json[1].splitlines()) == 302  # the bad lines as JSON objects too


def random_tree(rng: random.Random, depth: int) -> Any:
    if depth == 0:
        return rng.randint(-9, 9)
    return [random_tree(rng, depth - 1) for _ in range(rng.randint(1, 3))]


def test_tree_batch_equals_the_serial_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, address: str
) -> None:
    rng = random.Random(13)
    trees = [json.dumps(random_tree(rng, rng.randint(0, 4))) for _ in range(120)]
    trees[5] = "[[3,12,8],[2,4"  # unbalanced
    source = "@" + write_lines(tmp_path / "trees.txt", trees)
    for options in ([], ["--algorithm", "negamax", "--order", "best"]):
        serial = cli(capsys, "tree", "--batch", source, *options)
        parallel = cli(capsys, "tree", "--batch", source, *options, "--scheduler", address)
        assert parallel == serial
        assert serial[0] == 1 and '"line":6,"error"' in serial[1].splitlines()[5]


def test_analyze_batch_equals_the_serial_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, address: str
) -> None:
    positions = [line.split()[0] for line in pons_lines("Test_L2_R1", 24)]
    positions[3] = "9"
    source = write_lines(tmp_path / "positions.txt", positions)
    for options in (["--depth", "5"], ["--nodes", "1500", "--json"], ["--nodes", "10", "--json"]):
        serial = cli(capsys, "analyze", "connect4", "--batch", source, *options)
        parallel = cli(
            capsys, "analyze", "connect4", "--batch", source, *options, "--scheduler", address
        )
        assert parallel[0] == serial[0] == 1
        assert parallel[2] == serial[2]
        if "--json" in options:
            assert without_clocks(parallel[1]) == without_clocks(serial[1])
            assert len(serial[1].splitlines()) == 24  # every line answered, bad ones too
        else:
            assert parallel[1] == serial[1]
            assert len(serial[1].splitlines()) == 23  # the bad line on stderr only


def test_a_killed_worker_loses_no_line(address: str) -> None:
    # Hard positions (0.1-0.6 s each), so that chunks are running when a worker dies.
    lines = pons_lines("Test_L1_R2", 20)
    items = list(enumerate(lines, start=1))
    with distributed.Client(address) as client:
        pids = client.run(os.getpid)
        killed: list[int] = []
        emitted: list[LineResult] = []

        def emit(result: LineResult) -> None:
            emitted.append(result)
            if not killed:  # a line is back: chunks are out, kill a worker running one
                busy = [w for w, tasks in client.processing().items() if tasks]
                if busy:  # (none at this instant: try again at the next line)
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(pids[busy[0]])

        job = SolveLines("connect4")
        run_lines(items, job, emit=emit, stop=threading.Event(), scheduler=address)
    assert killed
    with pytest.raises(ProcessLookupError):
        for _ in range(50):  # the nanny reaps it
            os.kill(killed[0], 0)
            time.sleep(0.1)
    assert [r.number for r in emitted] == list(range(1, 21))  # each line once, in order
    assert [r.output for r in emitted] == lines


def test_a_killed_driver_resumes_to_the_same_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, address: str
) -> None:
    # Easy lines, then hard ones (0.1-3 s each): the kill comes after the first line
    # is written, long before the last (18 lines of Test_L1_R2 were all written by
    # then once the solver got faster).
    lines = pons_lines("Test_L1_R2", 6) + pons_lines("Test_L1_R3", 3)
    source = write_lines(tmp_path / "set.txt", lines)
    out = tmp_path / "scores.txt"
    command = [sys.executable, "-m", "plies", "solve", "connect4", "--batch", source]
    driver = subprocess.Popen(
        [*command, "--out", str(out), "--scheduler", address],
        env=plies_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and driver.poll() is None:
            if out.exists() and out.read_text().count("\n") >= 1:
                break
            time.sleep(0.05)
        driver.send_signal(signal.SIGKILL)
    finally:
        driver.wait(30)
    written = out.read_text().splitlines()
    assert driver.returncode == -signal.SIGKILL
    assert 1 <= len(written) < len(lines)  # killed mid-run
    with out.open("a") as stream:
        stream.write(lines[len(written)][:5])  # as if killed in the middle of a line
    status, stdout, err = cli(
        capsys, "solve", "connect4", "--batch", source, "--resume", str(out), "--scheduler", address
    )
    assert status == 0, err
    assert stdout == ""
    assert out.read_text() == "\n".join(lines) + "\n"  # the uninterrupted run's file
    assert f"solved {len(lines) - len(written)} positions" in err
    # Resuming a finished file runs nothing; resuming another batch's file is refused.
    assert cli(capsys, "solve", "connect4", "--batch", source, "--resume", str(out))[0] == 0
    other = write_lines(tmp_path / "other.txt", pons_lines("Test_L3_R1", 3))
    status, _, err = cli(capsys, "solve", "connect4", "--batch", other, "--resume", str(out))
    assert status == 1 and "cannot resume: output line 1" in err


def test_ctrl_c_stops_a_batch_on_its_own_cluster_cleanly(tmp_path: Path) -> None:
    # --workers 2: the command starts (and stops) a LocalCluster of its own.
    # Ctrl-C at a terminal reaches every process of the group, the workers too: they
    # printed KeyboardInterrupt tracebacks.
    # Easy lines, then the hardest set's (0.1-3 s each): worth a cluster (60 lines of
    # Test_L1_R2 alone no longer were, once the solver got faster).
    lines = pons_lines("Test_L1_R2", 4) + pons_lines("Test_L1_R3", 24)
    source = write_lines(tmp_path / "set.txt", lines)
    command = [sys.executable, "-m", "plies", "solve", "connect4", "--batch", source]
    driver = subprocess.Popen(
        [*command, "--workers", "2"],
        env=plies_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # unbuffered: readline takes the first line only, communicate the rest
        start_new_session=True,
    )
    try:
        assert driver.stdout is not None
        first = driver.stdout.readline()  # the first answer, found here (a head start)
        deadline = time.monotonic() + 60
        while len(children(driver.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # the cluster's workers are starting
        assert len(children(driver.pid)) >= 2
        os.set_blocking(driver.stdout.fileno(), False)
        first += driver.stdout.read() or b""  # the answers found here
        os.set_blocking(driver.stdout.fileno(), True)
        first += driver.stdout.readline()  # one from the cluster, which is up
        os.killpg(driver.pid, signal.SIGINT)
        rest, errors = driver.communicate(timeout=60)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
    err = errors.decode()
    done = (first + rest).decode().splitlines()
    assert driver.returncode == 130
    assert 1 <= len(done) < len(lines) and done == lines[: len(done)]
    assert "Traceback" not in err
    assert err.splitlines()[-1] == f"error: interrupted after {len(done)} positions"


def test_tls_addresses_take_dasks_tls_configuration() -> None:
    import dask

    from plies.cluster._dask import _security

    settings = {
        "distributed.comm.tls.ca-file": "ca.pem",
        "distributed.comm.tls.client.cert": "client.pem",
        "distributed.comm.tls.client.key": "client.key",
    }
    with dask.config.set(settings):
        security = _security("tls://scheduler.example.org:8786")
        assert _security("tcp://127.0.0.1:8786") is None
    assert security.tls_ca_file == "ca.pem"
    assert (security.tls_client_cert, security.tls_client_key) == ("client.pem", "client.key")


def test_workers_plies_starts_skip_the_blas_probe() -> None:
    # A fresh process: its fork server imports plies.cluster._preload before forking.
    code = (
        "import sys\n"
        "from plies.cluster._dask import cluster_client\n"
        "def probed():\n"
        "    import numba.np.arraymath as arraymath\n"
        "    return arraymath._HAVE_BLAS, 'scipy.linalg.cython_blas' in sys.modules\n"
        "with cluster_client(1, None) as client:\n"
        "    print(list(client.run(probed).values()))\n"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[(False, False)]"


def test_a_local_clusters_workers_keep_dasks_bookkeeping_rare() -> None:
    # The settings reach the worker processes (from their nanny), not only this one.
    code = (
        "import dask\n"
        "from plies.cluster._dask import cluster_client\n"
        "def settings():\n"
        "    return (dask.config.get('distributed.worker.profile.enabled'),\n"
        "            dask.config.get('distributed.admin.tick.interval'))\n"
        "with cluster_client(1, None) as client:\n"
        "    print(list(client.run(settings).values()))\n"
        "print(settings())\n"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    # Dask's defaults again once the cluster is closed: plies changes them for it only.
    assert done.stdout.splitlines() == ["[(False, '1s')]", "(True, '20ms')"]


class RecordingQueue(LineQueue):
    """A LineQueue that notes which thread delivered each line."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.by: dict[int, str] = {}

    def deliver(self, start: int, results: Any, seconds: float) -> None:
        for result in results:
            self.by[result.number] = threading.current_thread().name
        super().deliver(start, results, seconds)


@pytest.mark.parametrize("threads", [False, True])
def test_a_local_cluster_takes_the_lines_over_from_this_process(
    threads: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --workers 2 as the command runs it: lines are solved here while the cluster
    # starts (its fork server with the kernel loaded), then on its workers. Here on
    # this thread alone or, as native lines are, on two (then only a longer batch
    # is worth a cluster).
    # A cluster is worth it sooner than for the command (1.5 s of lines left): on an
    # idle machine the first 20 lines took less than that here, and no cluster started.
    monkeypatch.setattr(lines_module, "CLUSTER_WORTH", 0.5)
    if not threads:
        monkeypatch.setattr(SolveLines, "threads", lambda self: False)
    # Lines of the hardest set (0.1-3 s each here): the solver got fast enough that 20
    # lines of Test_L1_R2 were done here before a cluster could start.
    lines = pons_lines("Test_L1_R3", 14 if threads else 10)
    emitted: list[LineResult] = []

    def emit(result: LineResult) -> None:
        assert threading.current_thread() is threading.main_thread()  # the caller's
        emitted.append(result)

    queue = RecordingQueue(list(enumerate(lines, start=1)), emit, threading.Event())
    _run_local(queue, SolveLines("connect4"), threading.Event(), 2)
    assert [r.number for r in emitted] == list(range(1, len(lines) + 1))  # once, in order
    assert [r.output for r in emitted] == lines  # Pons' scores
    assert queue.by[1] in {"MainThread", "plies-lines"}  # a cluster starts after a sample
    assert ("plies-lines" in queue.by.values()) is threads
    assert "plies-cluster" in queue.by.values()


def test_workers_of_a_batchs_cluster_start_with_its_kernel_loaded() -> None:
    # A fresh process: its fork server warms the batch's job up before forking.
    code = (
        "from plies.cli._solve import SolveLines\n"
        "from plies.cluster._dask import cluster_client\n"
        "from plies.cluster._forkserver import start_fork_server\n"
        "def loaded():\n"
        "    from plies.games.connect4 import _objects, _pons\n"
        "    kernels = _objects._KERNELS.values()\n"
        "    mapped = any(isinstance(k, _objects.ObjectKernel) for k in kernels)\n"
        "    return mapped or len(_pons.solve_root.overloads) == 1\n"
        "start_fork_server(SolveLines('connect4'))\n"
        "with cluster_client(1, None) as client:\n"
        "    print(list(client.run(loaded).values()))\n"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    # Loaded, though no task ran there: by Numba, or mapped from plies' object cache.
    assert done.stdout.strip() == "[True]"
