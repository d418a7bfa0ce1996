"""Megiddo's LP on many constraints: linear work, and the fraction kept each round."""

from __future__ import annotations

import random

import pytest

from plies.prune import parse_lp, solve_lp
from prune.lp_reference import by_scipy


def test_twenty_thousand_constraints_in_rounds_that_keep_at_most_three_quarters() -> None:
    rng = random.Random(1)
    rows = [f"{rng.randint(-50, 50)}x + {rng.randint(-50, 50)}y <= {rng.randint(100, 999)}"]
    rows += [
        f"{rng.randint(-50, 50)}x + {rng.randint(-50, 50)}y <= {rng.randint(100, 999)}"
        for _ in range(19_999)
    ]
    program = parse_lp("max 2x + 3y\n" + "\n".join(rows))
    result = solve_lp(program)
    assert result.status == "optimal" and result.value is not None
    assert float(result.value) == pytest.approx(by_scipy(program)[1], abs=1e-7)
    assert len(result.setup[1]) < 200  # the setup names 20 constraints, not 20,000
    sizes = [r.size for r in result.rounds]
    assert sizes[0] == sum(c.b != 0 for c in program.constraints)  # the rest bound x alone
    assert all(a <= 0.75 for a in result.kept_fractions)
