"""The head start of a split solve: the serial solve in a thread of plies' own process,
while a local cluster is not there yet."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from cluster_helpers import answer
from plies.cluster import solve_parallel
from plies.cluster._head import HeadStart
from plies.cluster._probe import pons_table
from plies.cluster._shared import release
from plies.cluster._split import SplitReport
from plies.engine import Limits, solve
from plies.errors import SearchError
from plies.game import BaseGame
from plies.games import parse_game_spec

Game = BaseGame[Any, Any]

HARD = "13712"  # Test_L1_R3: 4 s here on one core
EASY = "44455554221"  # milliseconds once the kernel is loaded


@pytest.fixture(scope="module")
def game() -> Game:
    game = parse_game_spec("connect4")
    solve(game, game.parse_position(EASY))  # the kernel loaded
    return game


def test_an_easy_position_is_solved_by_the_head_start(game: Game) -> None:
    state = game.parse_position(EASY)
    head = HeadStart(game, state, None, moves="all")
    assert head.wait(60)
    assert answer(head.result()) == answer(solve(game, state, moves="all"))


def test_a_stopped_head_start_leaves_its_work_in_the_workers_table(game: Game) -> None:
    """What plies' own process proves while a local cluster starts is in the table the
    workers map, not lost."""
    token = uuid.uuid4().hex
    try:
        here = pons_table(game, 100_003, token)
        head = HeadStart(game, game.parse_position(HARD), None, table=here)
        # Some work stored (under load the head start may not have begun in 0.2 s).
        deadline = time.monotonic() + 60
        while not here.values.any() and time.monotonic() < deadline:
            assert not head.wait(0.05)
        assert not head.wait(0.05)
        head.stop()
        assert head.result() is None  # stopped for the cluster: no error
        worker = pons_table(game, 100_003, token)
        assert worker.values is not here.values and worker.values.any()
    finally:
        release(token)


def test_a_stop_request_or_a_limit_is_raised_not_taken_for_the_clusters_stop(
    game: Game,
) -> None:
    state = game.parse_position(HARD)
    asked = HeadStart(game, state, lambda: True)
    assert asked.wait(60)
    asked.stop()
    with pytest.raises(SearchError, match="stop requested"):
        asked.result()
    limited = HeadStart(game, state, None, limits=Limits(nodes=10_000))
    assert limited.wait(60)
    limited.stop()  # after the limit: the limit is still the reason
    with pytest.raises(SearchError, match="node limit"):
        limited.result()


def test_the_time_limit_counts_the_head_starts_time(game: Game) -> None:
    head = HeadStart(game, game.parse_position(HARD), None, limits=Limits(time=100))
    time.sleep(0.3)
    head.stop()
    left = head.limits_left().time
    assert left is not None and 99 < left <= 99.7


def test_the_head_start_goes_on_while_the_local_cluster_starts(game: Game) -> None:
    # A position of 4 s here on one core (Test_L1_R3's 751321 took 1.7 s, less than the
    # cluster's start): the cluster starts, then its workers take over.
    state = game.parse_position(HARD)
    report = SplitReport()
    solved = solve_parallel(
        game,
        state,
        workers=2,
        moves="none",
        head_start=0.01,
        report=report,
    )
    assert report.tasks > 0  # the workers solved it
    # Pons' score 3: the side to move wins with stone 38, 33 plies after the 5 played
    # (Pons' score of a win with stone n is (43 - (n - 1)) // 2).
    assert (solved.result, solved.distance) == ("win", 33)


def test_a_position_the_head_start_solves_while_the_cluster_starts(game: Game) -> None:
    # Solved in milliseconds, after the head start's time: the cluster's start is
    # abandoned, and the answer is the serial one.
    state = game.parse_position(EASY)
    report = SplitReport()
    started = time.monotonic()
    solved = solve_parallel(game, state, workers=2, moves="all", head_start=1e-6, report=report)
    assert report.tasks == 0  # no worker asked
    assert answer(solved) == answer(solve(game, state, moves="all"))
    assert time.monotonic() - started < 5
