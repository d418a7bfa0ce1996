"""The UCI protocol module: ``go`` options and the time each move may take."""

from __future__ import annotations

import pytest

from plies.errors import PliesError
from plies.uci import MOVE_OVERHEAD, GoOptions, parse_go, time_budget


def test_go_options() -> None:
    assert parse_go([]) == GoOptions()
    assert parse_go(["depth", "5", "nodes", "1000"]) == GoOptions(depth=5, nodes=1000)
    assert parse_go(
        ["wtime", "60000", "btime", "50000", "winc", "1000", "binc", "500", "movestogo", "20"]
    ) == GoOptions(wtime=60000, btime=50000, winc=1000, binc=500, movestogo=20)
    assert parse_go(["infinite"]).infinite
    assert parse_go(["ponder", "wtime", "10"]).infinite


@pytest.mark.parametrize(
    ("words", "match"),
    [
        (["depth"], "needs a whole number"),
        (["depth", "x"], "whole number"),
        (["depth", "0"], "at least 1"),
        (["banana"], "unknown option"),
    ],
)
def test_bad_go(words: list[str], match: str) -> None:
    with pytest.raises(PliesError, match=match):
        parse_go(words)


def test_time_budget() -> None:
    assert time_budget(GoOptions(), white=True) is None
    assert time_budget(GoOptions(infinite=True, movetime=100), white=True) is None
    assert time_budget(GoOptions(movetime=1000), white=True) == pytest.approx(1 - MOVE_OVERHEAD)
    clock = GoOptions(wtime=60_000, btime=30_000, winc=1000, movestogo=10)
    assert time_budget(clock, white=True) == pytest.approx(6 + 0.8 - MOVE_OVERHEAD)
    assert time_budget(clock, white=False) == pytest.approx(3 - MOVE_OVERHEAD)
    # Never more than a fifth of what is left, and always something.
    assert time_budget(GoOptions(wtime=1000, winc=5000), white=True) <= 0.2
    assert time_budget(GoOptions(wtime=0), white=True) == 0.01
    assert time_budget(GoOptions(wtime=500, movestogo=1), white=True) == pytest.approx(
        0.4 - MOVE_OVERHEAD
    )
