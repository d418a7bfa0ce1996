"""The LP file format: the objective on the first line, then one constraint a line.

::

    # a comment; blank lines are ignored
    max 3x + 2y
    x + y <= 4
    x + 3y <= 6
    x >= 0
    y >= 0

The objective is ``max`` or ``min`` and a linear expression in ``x`` and ``y``; a
constraint is such an expression, ``<=`` or ``>=`` (also written ``≤``, ``≥``), and a
number. A coefficient is an integer, a decimal (``0.5``, ``1e3``) or a fraction
(``2/3``), written before its variable with or without ``*``; each variable appears
at most once a side. Numbers are read exactly (as fractions).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Literal

from plies.errors import ParseError
from plies.prune._lp import Constraint, LinearProgram, Objective

__all__ = ["MAX_CONSTRAINTS", "parse_lp"]

#: The most constraints a program may have.
MAX_CONSTRAINTS = 100_000

_TOKEN = re.compile(
    r"\s*(?:(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?:/\d+)?)"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<op><=|>=|=<|=>|≤|≥|[-+*=<>]))"
)
_SENSES: dict[str, Literal["<=", ">="]] = {
    "<=": "<=", "=<": "<=", "≤": "<=", ">=": ">=", "=>": ">=", "≥": ">=",
}  # fmt: skip
_MAX_EXPONENT = 400  # 1e400 is fine exactly; 1e100000000 would take the machine's memory


class _Line:
    """The tokens of one line, read left to right, with their columns."""

    def __init__(self, text: str, number: int):
        self.text = text
        self.number = number
        self.tokens: list[tuple[str, str, int]] = []  # (kind, text, column from 1)
        position = 0
        while position < len(text) and not text[position:].isspace():
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                column = len(text[position:]) - len(text[position:].lstrip()) + position + 1
                raise self.error("unexpected character", column, repr(text[column - 1]))
            kind = match.lastgroup
            assert kind is not None
            self.tokens.append((kind, match.group(kind), match.start(kind) + 1))
            position = match.end()
        self.place = 0

    def error(
        self, message: str, column: int | None = None, found: str | None = None
    ) -> ParseError:
        """A ParseError at ``column`` of this line (its end when ``None``)."""
        if column is None:
            column = len(self.text.rstrip()) + 1
        return ParseError(message, line=self.number, column=column, found=found)

    def peek(self) -> tuple[str, str, int] | None:
        """The next token, ``None`` at the end of the line."""
        return self.tokens[self.place] if self.place < len(self.tokens) else None

    def take(self) -> tuple[str, str, int] | None:
        """The next token, moving past it; ``None`` at the end of the line."""
        token = self.peek()
        self.place += token is not None
        return token

    def expected(self, what: str) -> ParseError:
        """'expected WHAT' at the next token, naming it, or at the end of the line."""
        token = self.peek()
        if token is None:
            return self.error(f"expected {what}", found="the end of the line")
        return self.error(f"expected {what}", token[2], repr(token[1]))


def parse_lp(text: str) -> LinearProgram:
    """Read a program in the LP file format (see the module's docstring); a mistake
    raises :class:`~plies.errors.ParseError` naming its line and column."""
    objective: Objective | None = None
    constraints: list[Constraint] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        content = raw.split("#", 1)[0]
        if not content.strip():
            continue
        line = _Line(content, number)
        if objective is None:
            objective = _objective(line)
            continue
        constraints.append(_constraint(line))
        if len(constraints) > MAX_CONSTRAINTS:
            raise ParseError(f"more than {MAX_CONSTRAINTS:,} constraints", line=number)
    if objective is None:
        raise ParseError("empty program: the first line must be 'max ...' or 'min ...'")
    return LinearProgram(objective, tuple(constraints))


def _objective(line: _Line) -> Objective:
    token = line.take()
    assert token is not None  # the line is not blank
    kind, word, column = token
    sense = {"max": "max", "maximize": "max", "min": "min", "minimize": "min"}.get(word.lower())
    if kind != "word" or sense is None:
        raise line.error("expected 'max' or 'min' first", column, repr(word))
    if line.peek() is None:
        raise line.expected("an objective such as '3x + 2y'")
    p, q = _expression(line, "'+' or '-'")
    if line.peek() is not None:
        raise line.expected("the end of the objective")
    return Objective("max" if sense == "max" else "min", p, q)


def _constraint(line: _Line) -> Constraint:
    a, b = _expression(line, "'+', '-', '<=' or '>='")
    token = line.take()
    if token is None or token[1] not in _SENSES:
        line.place -= token is not None
        raise line.expected("'<=' or '>='")
    sense = _SENSES[token[1]]
    c = _signed_number(line)
    if line.peek() is not None:
        raise line.expected("the end of the constraint")
    return Constraint(a, b, sense, c, line.number)


def _expression(line: _Line, next_: str) -> tuple[Fraction, Fraction]:
    """``p x + q y``: the coefficients of x and y (0 for one left out); after a term,
    ``next_`` is expected."""
    coefficients: dict[str, Fraction] = {}
    first = True
    while True:
        token = line.peek()
        if token is None or token[1] in _SENSES or token[1] in ("=", "<", ">"):
            if first:
                raise line.expected("a term such as '3x' or 'y'")
            break
        sign = 1
        if token[1] in ("+", "-"):
            sign = -1 if token[1] == "-" else 1
            line.take()
        elif not first:
            raise line.expected(next_)
        name, coefficient, column = _term(line)
        if name in coefficients:
            raise line.error(f"{name} appears twice", column, repr(name))
        coefficients[name] = sign * coefficient
        first = False
    return coefficients.get("x", Fraction(0)), coefficients.get("y", Fraction(0))


def _term(line: _Line) -> tuple[str, Fraction, int]:
    """A term ``3x``, ``3 * x``, ``x``, or with a signed coefficient after the
    operator (``+ -3y``, as programs writing programs put it): its variable,
    coefficient and column."""
    token = line.peek()
    coefficient = Fraction(1)
    if token is not None and token[1] in ("+", "-"):
        coefficient = _signed_number(line)
        if (star := line.peek()) is not None and star[1] == "*":
            line.take()
    elif token is not None and token[0] == "number":
        coefficient = _number(line)
        if (star := line.peek()) is not None and star[1] == "*":
            line.take()
    token = line.take()
    if token is None or token[0] != "word":
        line.place -= token is not None
        raise line.expected("a variable, x or y")
    if token[1] not in ("x", "y"):
        raise line.error("unknown variable (the variables are x and y)", token[2], repr(token[1]))
    return token[1], coefficient, token[2]


def _signed_number(line: _Line) -> Fraction:
    token = line.peek()
    sign = 1
    if token is not None and token[1] in ("+", "-"):
        sign = -1 if token[1] == "-" else 1
        line.take()
    return sign * _number(line)


def _number(line: _Line) -> Fraction:
    token = line.take()
    if token is None or token[0] != "number":
        line.place -= token is not None
        raise line.expected("a number")
    text, column = token[1], token[2]
    exponent = re.search(r"[eE]([+-]?\d+)", text)
    if exponent is not None and abs(int(exponent.group(1))) > _MAX_EXPONENT:
        raise line.error(f"exponent beyond {_MAX_EXPONENT}", column, repr(text))
    try:
        return Fraction(text)
    except ZeroDivisionError:
        raise line.error("division by zero", column, repr(text)) from None
    except ValueError:  # '1.5/2': a fraction is of whole numbers
        raise line.error("not a number", column, repr(text)) from None
