"""Megiddo's 2-D LP agrees with SciPy's linprog (HiGHS), a solver written elsewhere."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from plies.prune import LinearProgram, solve_lp
from prune.lp_reference import by_scipy, programs


@settings(max_examples=600)
@given(programs(most=25))
def test_agrees_with_scipy(program: LinearProgram) -> None:
    result = solve_lp(program)
    status, value = by_scipy(program)
    assert result.status == status
    if status == "optimal":
        assert result.value is not None and value is not None
        assert float(result.value) == pytest.approx(value, abs=1e-7)
