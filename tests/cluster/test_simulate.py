"""The split solve on simulated workers (:func:`simulate_split`): the serial result
whatever the schedule, and a schedule that depends on nodes only (no Dask needed)."""

from __future__ import annotations

import pytest

from cluster_helpers import answer, random_position
from plies.cluster._simulate import TASK_SECONDS, simulate_split
from plies.cluster._split import SplitReport
from plies.engine import solve
from plies.errors import PliesError
from plies.games import parse_game_spec

#: Entries of each simulated worker's table (saved before each task: small is fast).
SMALL = 1 << 16

#: (game, plies of random moves, seed, backend): positions solved in well under a second.
CASES = [
    ("connect4", 14, 1, None),
    ("connect4", 16, 3, None),
    ("connect4", 16, 2, "python"),
    ("tictactoe", 1, 0, None),
    ("mnk:m=4,n=3,k=3", 2, 1, None),
    ("nim", 1, 0, None),
]


@pytest.mark.parametrize(("spec", "plies", "seed", "backend"), CASES)
@pytest.mark.parametrize(("workers", "split", "rate"), [(2, 1, 20_000), (3, 2, 10_000)])
def test_the_simulated_split_solve_is_the_serial_one(  # noqa: PLR0917
    spec: str, plies: int, seed: int, backend: str | None, workers: int, split: int, rate: int
) -> None:
    # A low rate makes probes "long": they are split and preempted, deep below the root.
    game, state = random_position(spec, plies, seed)
    if game.terminal_value(state) is not None:
        pytest.skip("the random moves ended the game")
    serial = solve(game, state, moves="all", backend=backend)
    report = SplitReport()
    solved = simulate_split(
        game,
        state,
        workers=workers,
        split=split,
        rate=rate,
        backend=backend,
        table_size=SMALL,
        report=report,
    )
    assert answer(solved) == answer(serial), (spec, game.format_position(state))
    assert len(report.worker_nodes) == workers
    assert report.critical_nodes <= report.total_nodes <= workers * report.critical_nodes
    assert report.total_nodes >= 0 and report.tasks >= 1


def test_long_probes_are_split_and_the_answer_kept() -> None:
    game, state = random_position("connect4", 14, 1)
    serial = solve(game, state, moves="all")
    report = SplitReport()
    solved = simulate_split(
        game, state, workers=2, split=1, rate=10_000, table_size=SMALL, report=report
    )
    assert answer(solved) == answer(serial)
    assert report.expansions > 0


def test_one_worker_works_the_whole_time() -> None:
    # One simulated worker never waits: the wall is its nodes plus the tasks' cost.
    game = parse_game_spec("connect4")
    state = game.parse_position("44455554221")
    report = SplitReport()
    simulate_split(game, state, workers=1, rate=10**6, table_size=SMALL, report=report)
    (nodes,) = report.worker_nodes.values()
    assert report.wall == pytest.approx(nodes / 10**6 + report.tasks * TASK_SECONDS)


def test_the_schedule_depends_on_nodes_only() -> None:
    game, state = random_position("connect4", 14, 1)
    runs = []
    for _ in range(2):
        report = SplitReport()
        solved = simulate_split(
            game, state, workers=2, rate=10_000, table_size=SMALL, report=report
        )
        runs.append((answer(solved), solved.stats.nodes, report.worker_nodes, report.wall))
    assert runs[0] == runs[1]


def test_a_weak_solve_is_the_serial_one() -> None:
    game, state = random_position("connect4", 16, 5)
    serial = solve(game, state, weak=True, moves="all")
    assert answer(
        simulate_split(game, state, workers=2, weak=True, rate=10**4, table_size=SMALL)
    ) == answer(serial)


def test_no_workers_is_an_error() -> None:
    game = parse_game_spec("tictactoe")
    with pytest.raises(PliesError, match="at least 1 worker"):
        simulate_split(game, game.initial_state(), workers=0)
