"""One position solved on a LocalCluster of two workers (:func:`solve_parallel`): the
serial solver's value, distance, best moves and line, whatever the workers did."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cluster_helpers import answer, children, plies_env, pons_lines, random_position
from plies.cli import main
from plies.cluster import solve_parallel
from plies.cluster._split import SplitReport
from plies.engine import Limits, solve
from plies.errors import PliesError, SearchError
from plies.games import parse_game_spec

pytest.importorskip("distributed")


#: (game, plies of random moves, seeds): positions each solved in well under a second.
CASES = [
    ("connect4", 14, range(3)),
    ("tictactoe", 1, range(2)),
    ("mnk:m=4,n=3,k=3", 3, range(2)),
    ("nim", 0, range(1)),
    ("nim", 2, range(1)),
]


@pytest.mark.parametrize(
    ("spec", "plies", "seed"),
    [(spec, plies, seed) for spec, plies, seeds in CASES for seed in seeds],
)
def test_the_split_solve_is_the_serial_one(spec: str, plies: int, seed: int, address: str) -> None:
    game, state = random_position(spec, plies, seed)
    for moves in ("all", "line"):
        serial = solve(game, state, moves=moves)
        split = solve_parallel(game, state, scheduler=address, moves=moves)
        assert answer(split) == answer(serial), (spec, game.format_position(state), moves)
        assert split.stats.nodes > 0


def test_the_report_counts_every_worker(address: str) -> None:
    game, state = random_position("connect4", 12, 4)
    report = SplitReport()
    solved = solve_parallel(game, state, scheduler=address, moves="all", report=report)
    assert answer(solved) == answer(solve(game, state, moves="all"))
    assert len(report.worker_nodes) == 2  # both asked, whether they worked or not
    assert report.total_nodes >= solved.stats.nodes > 0  # cancelled probes count too
    assert report.critical_nodes <= report.total_nodes
    assert set(report.phases) == {"value", "line", "best moves"}
    assert report.tasks >= 1 and report.probes >= report.tasks - 1  # the line: no probe


def test_positions_whose_best_move_is_not_the_first_in_order(address: str) -> None:
    # Connect Four positions where the first move in the game's order is not best (the
    # split solve must still pick the serial solver's moves), at several split depths.
    game = parse_game_spec("connect4")
    found = []
    for seed in range(200):
        _, state = random_position("connect4", 16, seed)
        if game.terminal_value(state) is not None or game.winning_move(state) is not None:
            continue
        serial = solve(game, state, moves="all")
        first = game.order_moves(state, game.legal_moves(state))[0]
        if first not in serial.best_moves:
            found.append((state, serial))
        if len(found) == 3:
            break
    assert len(found) == 3
    for (state, serial), split in zip(found, (1, 2, 3), strict=True):
        solved = solve_parallel(game, state, scheduler=address, moves="all", split=split)
        assert answer(solved) == answer(serial)


def test_weak_and_python_solves_are_the_serial_ones(address: str) -> None:
    game, state = random_position("connect4", 18, 7)
    for backend in ("python", None):
        for moves in ("best", "none"):
            serial = solve(game, state, weak=True, moves=moves, backend=backend)
            split = solve_parallel(
                game, state, scheduler=address, weak=True, moves=moves, backend=backend
            )
            assert answer(split) == answer(serial)
    game, state = random_position("tictactoe", 2, 1)
    serial = solve(game, state, weak=True, moves="all")
    assert answer(solve_parallel(game, state, scheduler=address, weak=True, moves="all")) == (
        answer(serial)
    )


def test_an_easy_position_starts_no_local_cluster() -> None:
    # Solved within the head start here: no Dask at all (a cluster takes seconds).
    code = (
        "import sys; from plies.cli import main;"
        "status = main(['solve', 'connect4', '44455554221', '--workers', '2']);"
        "assert 'distributed' not in sys.modules; sys.exit(status)"
    )
    before = _tables()
    done = subprocess.run(
        [sys.executable, "-c", code], env=plies_env(), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("result ")
    assert _tables() <= before  # the table it solved on (the workers' to be) is gone


def test_a_decided_position_is_solved_without_the_cluster() -> None:
    # A win in one and a finished game need no worker: no scheduler is even asked.
    game = parse_game_spec("connect4")
    for position in ("445566", "4455667"):
        state = game.parse_position(position)
        solved = solve_parallel(game, state, scheduler="tcp://127.0.0.1:1")
        assert answer(solved) == answer(solve(game, state, moves="line"))


def test_limits_stop_the_split_solve(address: str) -> None:
    game = parse_game_spec("connect4")
    state = game.parse_position("4453")
    with pytest.raises(SearchError, match=r"solve stopped \(node limit\) before the value"):
        solve_parallel(game, state, scheduler=address, limits=Limits(nodes=50_000))
    with pytest.raises(SearchError, match=r"solve stopped \(stop requested\)"):
        solve_parallel(game, state, scheduler=address, stop=lambda: True)


def test_bad_arguments_are_errors() -> None:
    game = parse_game_spec("tictactoe")
    state = game.initial_state()
    with pytest.raises(PliesError, match="workers or a scheduler"):
        solve_parallel(game, state)
    with pytest.raises(PliesError, match="split"):
        solve_parallel(game, state, workers=2, split=0)
    with pytest.raises(SearchError, match="without chance"):
        pig = parse_game_spec("pig")
        solve_parallel(pig, pig.initial_state(), workers=2)


def test_the_command_prints_the_serial_answer(
    capsys: pytest.CaptureFixture[str], address: str
) -> None:
    argv = ["solve", "connect4", "44455554221", "--json"]
    assert main(argv) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main([*argv, "--scheduler", address]) == 0
    split = json.loads(capsys.readouterr().out)
    for record in (serial, split):
        for field in ("nodes", "nps", "time", "backend"):
            record.pop(field)
    assert split == serial


def test_an_unreachable_scheduler_is_one_error_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import plies.cluster._dask

    monkeypatch.setattr(plies.cluster._dask, "CONNECT_SECONDS", 1)  # retries for 1 s
    status = main(["solve", "connect4", "4453", "--scheduler", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    assert len(err.splitlines()) == 1
    status = main(["solve", "connect4", "4453", "--scheduler", "http://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert status == 1 and len(err.splitlines()) == 1 and err.startswith("error: ")


def test_ctrl_c_while_the_local_cluster_starts_exits_at_once(tmp_path: Path) -> None:
    # Ctrl-C at a terminal reaches every process of the group. It was ignored until
    # the LocalCluster was up (seconds); now the command stops at once, with one line,
    # and the workers (forked from a server that ignores SIGINT) print nothing.
    # A hard position (20 s here): the cluster starts after the second of head start.
    command = [sys.executable, "-m", "plies", "solve", "connect4", "13712", "--workers", "2"]
    driver = subprocess.Popen(
        command,
        env=plies_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not children(driver.pid) and time.monotonic() < deadline:
            time.sleep(0.02)  # the fork server: the cluster is starting
        assert children(driver.pid), "the cluster did not start"
        os.killpg(driver.pid, signal.SIGINT)
        interrupted = time.monotonic()
        assert driver.stderr is not None
        first = driver.stderr.readline()  # the command's answer to Ctrl-C
        seconds = time.monotonic() - interrupted
        out, err = driver.communicate(timeout=120)  # the cluster's start is undone
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
    assert driver.returncode == 130, err
    assert out == b""
    assert (first + err).decode().splitlines() == [
        "error: interrupted before the position was solved"
    ]
    assert seconds < 10  # a generous bound: it came within 0.1 s; a start took 3 to 15 s


def _tables() -> set[Path]:
    from plies.cluster._shared import SHM

    return set(SHM.glob("plies-table-*"))


@pytest.mark.parametrize("shared", [True, False])
def test_helpers_on_a_shared_table_keep_the_serial_answer(
    shared: bool, address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Connect Four's workers on one machine share a table, and one with nothing as
    wanted to do helps a probe out (its search in another order); without sharing,
    none does. The answer is the serial one either way, and no table file is left."""
    from plies.cluster import _split

    monkeypatch.setattr(_split, "SHARE_TABLE", shared)
    game = parse_game_spec("connect4")
    before = _tables()
    helpers = 0
    for line in pons_lines("Test_L1_R2", 2):
        state = game.parse_position(line.split()[0])
        report = SplitReport()
        solved = solve_parallel(game, state, scheduler=address, moves="all", report=report)
        assert answer(solved) == answer(solve(game, state, moves="all")), line
        helpers += report.helpers
    assert (helpers > 0) == shared
    assert _tables() <= before


def test_a_worker_killed_mid_solve_changes_no_answer(address: str) -> None:
    """A worker killed while it writes to the shared table (its entries may be torn:
    the seal refuses them) and runs probes (run again elsewhere): the serial answer."""
    import distributed

    game = parse_game_spec("connect4")
    state = game.parse_position("4444")  # 6 s here serially (moves="all")
    killed: list[int] = []
    with distributed.Client(address) as client:
        pids = client.run(os.getpid)
        started = time.monotonic()

        def progress(nodes: int) -> None:
            if not killed and time.monotonic() - started > 1.5:
                busy = [w for w, tasks in client.processing().items() if tasks]
                if busy:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(pids[busy[0]])

        solved = solve_parallel(game, state, scheduler=address, moves="all", progress=progress)
    assert killed
    assert answer(solved) == answer(solve(game, state, moves="all"))
    with distributed.Client(address) as client:
        client.wait_for_workers(2, timeout=60)  # the nanny's new worker, for the next tests
