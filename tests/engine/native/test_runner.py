"""The runner of kernel calls: a call that spends the time limit in its inline part (no
clock is read there) is stopped by the time limit, not run again in a thread."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from plies.engine import Limits
from plies.engine.native import KernelStopped, Runner
from plies.engine.native._table import NODE_LIMIT, NODES, STOP


def _control() -> Any:
    return np.zeros(8, np.int64)


def test_an_inline_call_past_the_deadline_is_not_run_again() -> None:
    calls: list[int] = []

    def slow(control: Any) -> int:  # a search that reaches its inline node budget
        calls.append(int(control[NODE_LIMIT]))
        time.sleep(0.06)
        control[NODES] = control[NODE_LIMIT]
        control[STOP] = 2
        return 0

    runner = Runner(_control(), Limits(time=0.05), None, None)
    with pytest.raises(KernelStopped, match="time limit"):
        runner.run(slow, runner.control)
    assert len(calls) == 1


def test_an_inline_call_within_the_time_goes_on_in_a_thread() -> None:
    calls: list[int] = []

    def budgeted(control: Any) -> int:  # stops at the inline budget, finishes after
        calls.append(int(control[NODE_LIMIT]))
        if len(calls) == 1:
            control[NODES] = control[NODE_LIMIT]
            control[STOP] = 2
        return len(calls)

    runner = Runner(_control(), Limits(time=30.0), None, None)
    assert runner.run(budgeted, runner.control) == 2
    assert runner.threaded and len(calls) == 2


def test_calls_that_each_end_inline_stop_at_the_time_limit() -> None:
    """On a deep table a settled position's iterations can each end in a few nodes,
    never reaching the thread that watches the clock: the next call sees the time."""
    calls: list[int] = []

    def quick(control: Any) -> int:
        calls.append(1)
        control[NODES] += 10
        time.sleep(0.01)
        return 0

    runner = Runner(_control(), Limits(time=0.05), None, None)
    with pytest.raises(KernelStopped, match="time limit"):
        for _ in range(1000):
            runner.run(quick, runner.control)
    assert 3 <= len(calls) <= 10
