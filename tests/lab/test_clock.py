"""Game clocks: time controls read and written, a move's budget and limit, and a
search on a clock (no depth starts past the budget; one started runs to the limit)."""

from __future__ import annotations

from typing import Any

import pytest

from plies.errors import PliesError
from plies.lab import (
    LIMIT_FACTOR,
    MOVE_OVERHEAD,
    ClockReading,
    SearchOptions,
    TimeControl,
    engine_move,
    load_game,
    move_budget,
    move_limit,
    parse_time_control,
    room_of,
)
from plies.lab._clock import DEFAULT_MOVES_TO_GO, LEAST_BUDGET
from plies.lab._room import _deepen


@pytest.mark.parametrize(
    ("text", "base", "increment", "written"),
    [
        ("60+0.6", 60.0, 0.6, "60+0.6"),
        (" 300 ", 300.0, 0.0, "300"),
        ("0.5+0", 0.5, 0.0, "0.5"),
        ("10+1", 10.0, 1.0, "10+1"),
    ],
)
def test_a_time_control_reads_and_writes_pgns_tag(
    text: str, base: float, increment: float, written: str
) -> None:
    control = parse_time_control(text)
    assert (control.base, control.increment, str(control)) == (base, increment, written)
    assert parse_time_control(str(control)) == control


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "BASE\\+INCREMENT"),
        ("60+", "BASE\\+INCREMENT"),
        ("a+1", "BASE\\+INCREMENT"),
        ("60+0.6+1", "BASE\\+INCREMENT"),
        ("0+1", "base must be above 0"),
        ("-5", "base is a number of seconds up to 86400, not -5.0"),
        ("60+-1", "increment is a number of seconds up to 86400"),
        ("nan", "base is a number"),
        ("inf+0", "base is a number"),
        ("1e6", "up to 86400"),
        ("9" * 50, "BASE\\+INCREMENT"),
    ],
)
def test_bad_time_controls_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PliesError, match=message):
        parse_time_control(text)


def test_a_time_control_is_numbers_of_seconds() -> None:
    with pytest.raises(PliesError, match="base"):
        TimeControl(True)  # type: ignore[arg-type]
    with pytest.raises(PliesError, match="increment"):
        TimeControl(60, "1")  # type: ignore[arg-type]


def test_the_budget_is_a_share_of_the_clock_plus_most_of_the_increment() -> None:
    assert move_budget(60, 0.6) == pytest.approx(60 / DEFAULT_MOVES_TO_GO + 0.48 - MOVE_OVERHEAD)
    assert move_budget(60, 0.6, moves_to_go=10) == pytest.approx(6 + 0.48 - MOVE_OVERHEAD)
    # Never more than a fifth of what is left, however large the increment.
    assert move_budget(1, 5) == pytest.approx(0.2 - MOVE_OVERHEAD)
    # The last move before the clock is filled again may take most of it.
    assert move_budget(0.5, 0, moves_to_go=1) == pytest.approx(0.4 - MOVE_OVERHEAD)
    # A clock at or below zero still gives the least budget, never a negative one.
    assert move_budget(0, 0) == move_budget(-3, 0) == LEAST_BUDGET
    reading = ClockReading((10.0, 50.0), 0.5, seat=1)
    assert reading.left == 50 and reading.budget == move_budget(50, 0.5)
    assert reading.limit == move_limit(reading.budget, 50)


def test_the_limit_lets_a_started_depth_finish_within_a_quarter_of_the_clock() -> None:
    assert move_limit(2, 60) == LIMIT_FACTOR * 2
    assert move_limit(2, 20) == pytest.approx(5 - MOVE_OVERHEAD)  # a quarter of the clock
    assert move_limit(0.01, 0) == 0.01  # never below the budget


def test_on_a_clock_no_depth_starts_past_the_soft_share() -> None:
    room = room_of(*load_game("connect4"))
    options = SearchOptions(depth=6)
    depths = [found.result.depth for found, stopped in _deepen(room, options, None)]
    assert depths == [1, 2, 3, 4, 5, 6, 6]  # each depth, then the one played
    # With no time to spare, the search ends after its first depth.
    found = list(_deepen(room, options, None, soft=0.0))
    assert [f.result.depth for f, _ in found] == [1, 1] and found[-1][1] is True


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float | None, float | None]]:
    """The time limit and the soft stop (seconds) of each search engine_move runs."""
    import plies.lab._play as play

    found: list[tuple[float | None, float | None]] = []

    def deepen(*args: Any) -> Any:
        found.append((args[1].time, args[-1]))
        return _deepen(*args)

    monkeypatch.setattr(play, "_deepen", deepen)
    return found


def test_on_a_clock_the_search_stops_at_the_limit(seen: list[tuple[float, float]]) -> None:
    room = room_of(*load_game("chess"))
    clock = ClockReading((3.0, 3.0), 0.0, seat=0)
    # Options with no limit at all: the clock alone ends the search.
    chosen = engine_move(room, SearchOptions(), clock=clock)
    assert chosen.search is not None and chosen.search.depth >= 1
    assert seen == [(clock.limit, clock.budget)]  # the time limit, then the soft stop
    assert chosen.search.stats.time < 2  # stopped (the limit is 0.24 s)
    with pytest.raises(PliesError, match="clock"):
        engine_move(room, SearchOptions(), clock=0.2)  # type: ignore[arg-type]


def test_mcts_on_a_clock_stops_at_the_budget(seen: list[tuple[float, None]]) -> None:
    room = room_of(*load_game("connect4"))
    clock = ClockReading((1.0, 1.0), 0.0, seat=0)
    engine_move(room, SearchOptions(algorithm="mcts", iterations=50), clock=clock)
    assert seen == [(clock.budget, None)]  # no depths: the budget is its time limit
