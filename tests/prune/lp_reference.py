"""Outside answers for 2-D linear programs (vertex enumeration in exact arithmetic,
SciPy's linprog) and the random programs the tests of plies.prune's LP draw."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import strategies as st

from plies.prune import Constraint, LinearProgram, Objective

Answer = tuple[str, Fraction | None]  # status, optimal value


def _boxed(program: LinearProgram, size: int) -> list[tuple[int, int, int]]:
    """The constraints as ``a x + b y <= c`` (whole numbers: the tests' programs have
    integer coefficients) plus the box |x|, |y| <= size."""
    rows = []
    for constraint in program.constraints:
        a, b, c = constraint.as_at_most()
        assert a.denominator == b.denominator == c.denominator == 1
        rows.append((int(a), int(b), int(c)))
    return [*rows, (1, 0, size), (-1, 0, size), (0, 1, size), (0, -1, size)]


def _best_vertex(program: LinearProgram, size: int) -> Fraction | None:
    """The best objective value over the vertices of the boxed program (None: empty).

    A vertex is (X / det, Y / det); it is feasible when a X + b Y <= c det for every
    row (det made positive first), all in whole numbers."""
    rows = _boxed(program, size)
    objective = program.objective
    best: Fraction | None = None
    for (a1, b1, c1), (a2, b2, c2) in combinations(rows, 2):
        det = a1 * b2 - a2 * b1
        if det == 0:
            continue
        big_x, big_y = c1 * b2 - c2 * b1, a1 * c2 - a2 * c1
        if det < 0:
            det, big_x, big_y = -det, -big_x, -big_y
        if all(a * big_x + b * big_y <= c * det for a, b, c in rows):
            value = objective.value(Fraction(big_x, det), Fraction(big_y, det))
            if best is None or (value > best if objective.sense == "max" else value < best):
                best = value
    return best


def by_vertices(program: LinearProgram, box: int = 10**6) -> Answer:
    """Status and value by enumerating every vertex (every pair of constraint lines,
    with a large box around them; a value that moves when the box grows is unbounded)."""
    inner = _best_vertex(program, box)
    if inner is None:
        return "infeasible", None
    if inner != _best_vertex(program, 2 * box):
        return "unbounded", None
    return "optimal", inner


def by_scipy(program: LinearProgram) -> tuple[str, float | None]:
    """Status and value from scipy.optimize.linprog."""
    from scipy.optimize import linprog

    objective = program.objective
    sign = -1 if objective.sense == "max" else 1
    rows = [c.as_at_most() for c in program.constraints]
    result = linprog(
        [sign * float(objective.p), sign * float(objective.q)],
        A_ub=[[float(a), float(b)] for a, b, _ in rows] or None,
        b_ub=[float(c) for _, _, c in rows] or None,
        bounds=[(None, None), (None, None)],
        method="highs",
    )
    status = {0: "optimal", 2: "infeasible", 3: "unbounded"}[result.status]
    return status, (sign * result.fun if status == "optimal" else None)


def program_of(
    objective: tuple[str, int, int], rows: list[tuple[int, int, str, int]]
) -> LinearProgram:
    """A program from plain numbers."""
    sense, p, q = objective
    return LinearProgram(
        Objective(sense, Fraction(p), Fraction(q)),  # type: ignore[arg-type]
        tuple(
            Constraint(Fraction(a), Fraction(b), s, Fraction(c))  # type: ignore[arg-type]
            for a, b, s, c in rows
        ),
    )


coefficient = st.integers(-4, 4)
row = st.tuples(coefficient, coefficient, st.sampled_from(["<=", ">="]), st.integers(-8, 8))
objective = st.tuples(st.sampled_from(["max", "min"]), st.integers(-3, 3), st.integers(-3, 3))


@st.composite
def programs(draw: st.DrawFn, most: int = 10) -> LinearProgram:
    """Random programs, with parallel and repeated constraints mixed in."""
    rows = draw(st.lists(row, max_size=most))
    extra = (
        draw(st.lists(st.tuples(st.sampled_from(rows), st.integers(-2, 3)), max_size=3))
        if rows
        else []
    )
    for (a, b, sense, c), scale in extra:  # parallel: scaled copies, moved or not
        rows.append((a * scale, b * scale, sense, c * scale + draw(st.integers(-2, 2))))
    return program_of(draw(objective), draw(st.permutations(rows)))
