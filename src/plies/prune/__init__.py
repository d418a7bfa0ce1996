"""Prune-and-search beyond games: selection (median of medians, randomised quickselect)
and two-dimensional linear programming by Megiddo's method, each round recorded.

Both throw away a fixed fraction of their input each round after linear work, so
their time is T(n) = T(a n) + O(n) for some a < 1, which is O(n): each result keeps
the fraction of every round (``kept_fractions``), the measured ``a``.

>>> from plies import prune
>>> prune.select([5, 1, 4, 2, 3], 2).value
Fraction(2, 1)
>>> result = prune.solve_lp(prune.parse_lp("min x + y\\nx >= 1\\ny >= 2"))
>>> result.status, result.value
('optimal', Fraction(3, 1))
"""

from plies.prune._lp import (
    Constraint,
    LinearProgram,
    LPResult,
    LPRound,
    Objective,
    Status,
    linear_text,
    solve_lp,
)
from plies.prune._lp_text import MAX_CONSTRAINTS, parse_lp
from plies.prune._numbers import format_exact, json_number, listed, ordinal
from plies.prune._select import (
    GROUP,
    METHODS,
    Number,
    SelectionError,
    SelectResult,
    SelectRound,
    exact,
    select,
)

__all__ = [
    "GROUP",
    "MAX_CONSTRAINTS",
    "METHODS",
    "Constraint",
    "LPResult",
    "LPRound",
    "LinearProgram",
    "Number",
    "Objective",
    "SelectResult",
    "SelectRound",
    "SelectionError",
    "Status",
    "exact",
    "format_exact",
    "json_number",
    "linear_text",
    "listed",
    "ordinal",
    "parse_lp",
    "select",
    "solve_lp",
]
