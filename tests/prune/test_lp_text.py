"""The LP file format: what it reads, and the line and column of what it cannot."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given

from plies.errors import ParseError
from plies.prune import Constraint, LinearProgram, Objective, parse_lp
from prune.lp_reference import programs


def test_reads_the_objective_and_constraints_skipping_blanks_and_comments() -> None:
    text = "# a farm\n\nmax 3x + 2y   # profit\nx + y <= 4\n\n2.5x - y/1 >= -1/2\n"
    text = text.replace("y/1", "y")
    program = parse_lp(text)
    assert program.objective == Objective("max", Fraction(3), Fraction(2))
    assert program.constraints == (
        Constraint(Fraction(1), Fraction(1), "<=", Fraction(4), 4),
        Constraint(Fraction(5, 2), Fraction(-1), ">=", Fraction(-1, 2), 6),
    )


@pytest.mark.parametrize(
    ("line", "a", "b", "sense", "c"),
    [
        ("x <= 1", 1, 0, "<=", 1),
        ("-y >= -3", 0, -1, ">=", -3),
        ("2*x - 3 * y <= 1e2", 2, -3, "<=", 100),
        ("y + x ≤ 0.25", 1, 1, "<=", Fraction(1, 4)),
        ("1/3x + 0y => +2", Fraction(1, 3), 0, ">=", 2),
        ("- x - y =< 0", -1, -1, "<=", 0),
        ("5x + -3y <= 2", 5, -3, "<=", 2),
        ("-2x - -3 * y >= -1", -2, 3, ">=", -1),
    ],
)
def test_constraint_forms(line: str, a: object, b: object, sense: str, c: object) -> None:
    (constraint,) = parse_lp(f"min x\n{line}").constraints
    assert (constraint.a, constraint.b, constraint.sense, constraint.c) == (a, b, sense, c)


@given(programs(most=6))
def test_text_reads_back_as_the_same_program(program: LinearProgram) -> None:
    again = parse_lp(program.text())
    assert again.objective == program.objective
    assert [c.as_at_most() for c in again.constraints] == [
        c.as_at_most() for c in program.constraints
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty program: the first line must be 'max ...' or 'min ...'"),
        ("# nothing\n\n", "empty program"),
        ("maximum x", "expected 'max' or 'min' first at column 1, found 'maximum'"),
        ("max", "expected an objective such as '3x + 2y' at column 4, found the end of the line"),
        ("max x\nx + y < 3", "expected '<=' or '>=' at line 2, column 7, found '<'"),
        ("max x\nx + y = 3", "expected '<=' or '>=' at line 2, column 7, found '='"),
        ("max x\n<= 3", "expected a term such as '3x' or 'y' at line 2, column 1, found '<='"),
        ("max x\nx + y 3", "expected '+', '-', '<=' or '>=' at line 2, column 7, found '3'"),
        ("max x\nx + z <= 3", "unknown variable (the variables are x and y) at line 2, column 5"),
        ("max x\nx + x <= 3", "x appears twice at line 2, column 5, found 'x'"),
        ("max x\nx <= 3 4", "expected the end of the constraint at line 2, column 8, found '4'"),
        ("max x\nx <=", "expected a number at line 2, column 5, found the end of the line"),
        ("max x\n2x + 3 <= 4", "expected a variable, x or y at line 2, column 8, found '<='"),
        ("max x\n2x + - y <= 4", "expected a number at line 2, column 8, found 'y'"),
        ("max x\nx <= 1/0", "division by zero at line 2, column 6, found '1/0'"),
        ("max x\nx <= 1e999", "exponent beyond 400 at line 2, column 6"),
        ("max x\nx <= 1.5/2", "not a number at line 2, column 6, found '1.5/2'"),
        ("max x\nx & y <= 1", "unexpected character at line 2, column 3, found '&'"),
        ("max x y", "expected '+' or '-' at column 7, found 'y'"),
        ("max x <= 3", "expected the end of the objective at column 7, found '<='"),
    ],
)
def test_mistakes_name_their_line_and_column(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_lp(text)
    assert str(caught.value).startswith(message)
