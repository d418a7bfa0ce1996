"""Two-dimensional linear programming by Megiddo's prune-and-search, in exact arithmetic.

The problem: maximise or minimise ``p x + q y`` subject to constraints
``a x + b y <= c`` (or ``>=``). The solver:

1. Transforms it to the standard form: maximise ``v`` where ``v`` is the objective
   (negated for ``min``) and ``u`` is ``x`` (or ``y`` when the objective has no ``y``).
   Each constraint then bounds ``v`` from above (``v <= s u + t``: an *upper* one), from
   below (a *lower* one), or bounds ``u`` alone. The feasible ``v`` at each ``u`` lie
   between the lower envelope f(u) (the largest lower line, convex) and the upper one
   g(u) (the smallest upper line, concave); the answer is the largest g(u) with
   f(u) <= g(u).
2. Each round pairs the upper constraints among themselves and the lower ones. Two
   parallel constraints: the looser is redundant. Two lines crossing outside the
   window of ``u`` still possible: one is looser over all of it. The other pairs
   cross inside the window, at ``u_ij``.
3. The median ``u_m`` of those crossings is the *test line* ``u = u_m``: f and g and
   their slopes there tell on which side the optimum lies (or that ``u_m`` is
   optimal, or that no point is feasible). Past every crossing on the far side, one
   line of each pair is looser than the other: that one is discarded. Half the
   crossings are on the far side, so a round discards at least about a quarter of the
   constraints: T(n) <= T(3n/4) + O(n), which is O(n).
4. When at most one upper and one lower constraint are left, the rest is solved
   directly.

Numbers are :class:`~fractions.Fraction`, so ties and degenerate inputs (parallel,
coincident, redundant constraints; a single feasible point) are decided exactly.

>>> from plies.prune import parse_lp
>>> result = solve_lp(parse_lp("max x + y\\nx + 2y <= 4\\n3x + y <= 6\\nx >= 0\\ny >= 0"))
>>> result.status, result.x, result.y, result.value
('optimal', Fraction(8, 5), Fraction(6, 5), Fraction(14, 5))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from plies.prune._numbers import format_exact, listed
from plies.prune._select import select

__all__ = [
    "Constraint",
    "LPResult",
    "LPRound",
    "LinearProgram",
    "Objective",
    "Status",
    "solve_lp",
]

Status = Literal["optimal", "infeasible", "unbounded"]
Side = Literal["above", "below", "here", "infeasible"]


def _term(coefficient: Fraction, name: str, first: bool) -> str:
    """``coefficient`` times variable ``name`` as written in a sum: ``3x``, ``- y``."""
    sign = "-" if coefficient < 0 else ("" if first else "+")
    size = abs(coefficient)
    number = "" if size == 1 else format_exact(size)
    text = f"{sign} {number}{name}" if sign and not first else f"{sign}{number}{name}"
    return text


def linear_text(a: Fraction, b: Fraction) -> str:
    """``a x + b y`` as written: ``2x - y``, ``y``, ``0x`` when both are zero."""
    terms = [(a, "x"), (b, "y")]
    shown = [(c, n) for c, n in terms if c != 0]
    if not shown:
        return "0x"
    return " ".join(_term(c, n, i == 0) for i, (c, n) in enumerate(shown))


@dataclass(frozen=True)
class Constraint:
    """``a x + b y <= c`` (``sense`` ``<=``) or ``>= c``, from ``line`` of the input."""

    a: Fraction
    b: Fraction
    sense: Literal["<=", ">="]
    c: Fraction
    line: int | None = None

    def text(self) -> str:
        """The constraint as written: ``2x + 3y <= 6``."""
        return f"{linear_text(self.a, self.b)} {self.sense} {format_exact(self.c)}"

    def holds(self, x: Fraction, y: Fraction) -> bool:
        """Whether the point (x, y) satisfies the constraint."""
        left = self.a * x + self.b * y
        return left <= self.c if self.sense == "<=" else left >= self.c

    def as_at_most(self) -> tuple[Fraction, Fraction, Fraction]:
        """``(a, b, c)`` of the same half-plane written ``a x + b y <= c``."""
        if self.sense == "<=":
            return self.a, self.b, self.c
        return -self.a, -self.b, -self.c


@dataclass(frozen=True)
class Objective:
    """Maximise (``sense`` ``max``) or minimise ``p x + q y``."""

    sense: Literal["max", "min"]
    p: Fraction
    q: Fraction

    def text(self) -> str:
        """The objective as written: ``max 3x + 2y``."""
        return f"{self.sense} {linear_text(self.p, self.q)}"

    def value(self, x: Fraction, y: Fraction) -> Fraction:
        """``p x + q y`` at (x, y)."""
        return self.p * x + self.q * y


@dataclass(frozen=True)
class LinearProgram:
    """An objective and its constraints (numbered from 1 in narration)."""

    objective: Objective
    constraints: tuple[Constraint, ...]

    def text(self) -> str:
        """The program in the LP file format (:func:`plies.prune.parse_lp` reads it back)."""
        lines = [self.objective.text(), *(c.text() for c in self.constraints)]
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class LPRound:
    """One round of Megiddo's search over the constraints ``upper`` and ``lower`` in
    play (indices into the program's constraints, from 0), within ``window`` (the
    range of ``u`` still possible, ``None`` for no bound).

    ``crossings`` are the pairs crossing inside the window; ``test`` is the test line
    ``u = test`` (their median; ``None`` when no pair crossed inside), and ``side``
    what the test said: the optimum (or every feasible point) lies ``above`` or
    ``below`` it, is ``here`` on it, or nothing is ``infeasible``. ``discarded`` maps
    each constraint thrown away to the reason."""

    upper: tuple[int, ...]
    lower: tuple[int, ...]
    window: tuple[Fraction | None, Fraction | None]
    pairs: tuple[tuple[int, int], ...]
    crossings: tuple[Fraction, ...]
    test: Fraction | None
    side: Side | None
    reason: str
    discarded: dict[int, str] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """How many constraints took part in this round."""
        return len(self.upper) + len(self.lower)

    @property
    def kept_fraction(self) -> float:
        """The fraction of this round's constraints kept for the next."""
        return 1 - len(self.discarded) / self.size if self.size else 1.0

    @property
    def is_last(self) -> bool:
        """Whether the test ended the search (optimal on the test line, or infeasible)."""
        return self.side in ("here", "infeasible")


@dataclass(frozen=True)
class LPResult:
    """The answer: ``status`` and, when optimal, the point (``x``, ``y``) and the
    objective's ``value`` there. ``u_name`` is the variable the search moved along
    (``x``, or ``y`` when the objective has no ``y``), ``setup`` says how the
    constraints were sorted, ``rounds`` records the search and ``finished`` how it
    ended."""

    program: LinearProgram
    status: Status
    x: Fraction | None
    y: Fraction | None
    value: Fraction | None
    u_name: str
    setup: tuple[str, ...]
    rounds: tuple[LPRound, ...]
    finished: str

    @property
    def kept_fractions(self) -> tuple[float, ...]:
        """The fraction of constraints kept by each round a further one follows: the
        measured ``a`` of T(n) = T(a n) + O(n)."""
        return tuple(r.kept_fraction for r in self.rounds if not r.is_last)

    def test_line(self, round_: LPRound) -> tuple[Fraction, Fraction, Fraction] | None:
        """The round's test line as ``(a, b, c)``: the points where ``a x + b y = c``."""
        if round_.test is None:
            return None
        if self.u_name == "x":
            return Fraction(1), Fraction(0), round_.test
        return Fraction(0), Fraction(1), round_.test


# -- the standard form ---------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    """``v = slope u + intercept``: constraint ``index`` in the standard form."""

    slope: Fraction
    intercept: Fraction
    index: int

    def at(self, u: Fraction) -> Fraction:
        """The line's v at ``u``."""
        return self.slope * u + self.intercept


@dataclass
class _Form:
    """The program in the standard form: maximise v subject to the ``upper`` lines
    (v <= line), the ``lower`` ones (v >= line) and ``low <= u <= high``."""

    p: Fraction  # the objective maximised is v = p x + q y
    q: Fraction
    u_name: str
    upper: list[_Line]
    lower: list[_Line]
    low: Fraction | None = None
    high: Fraction | None = None
    contradiction: int | None = None  # a constraint 0 <= c with c < 0

    def point(self, u: Fraction, v: Fraction) -> tuple[Fraction, Fraction]:
        """(x, y) of the point (u, v)."""
        if self.u_name == "x":
            return u, (v - self.p * u) / self.q
        return v / self.p, u

    def is_empty_window(self) -> bool:
        """Whether the bounds on u leave no value for it."""
        return self.low is not None and self.high is not None and self.low > self.high


def _standard_form(program: LinearProgram) -> _Form:
    """``program`` as 'maximise v' over (u, v) (see the module's docstring)."""
    objective = program.objective
    sign = 1 if objective.sense == "max" else -1
    p, q = sign * objective.p, sign * objective.q
    if p == 0 and q == 0:  # any feasible point is optimal: search for the highest y
        p, q = Fraction(0), Fraction(1)
    form = _Form(p, q, "x" if q != 0 else "y", [], [])
    for index, constraint in enumerate(program.constraints):
        a, b, c = constraint.as_at_most()
        if q != 0:  # u = x, y = (v - p u) / q
            alpha, beta = a - b * p / q, b / q
        else:  # u = y, x = v / p
            alpha, beta = b, a / p
        _place(form, index, alpha, beta, c)
    return form


def _place(form: _Form, index: int, alpha: Fraction, beta: Fraction, gamma: Fraction) -> None:
    """Sort the constraint ``alpha u + beta v <= gamma`` into ``form``."""
    if beta > 0:
        form.upper.append(_Line(-alpha / beta, gamma / beta, index))
    elif beta < 0:
        form.lower.append(_Line(-alpha / beta, gamma / beta, index))
    elif alpha > 0:
        bound = gamma / alpha
        form.high = bound if form.high is None else min(form.high, bound)
    elif alpha < 0:
        bound = gamma / alpha
        form.low = bound if form.low is None else max(form.low, bound)
    elif gamma < 0 and form.contradiction is None:
        form.contradiction = index


def _setup_lines(program: LinearProgram, form: _Form) -> tuple[str, ...]:
    """What the transformation to the standard form did, in words."""
    objective = program.objective
    if objective.p == 0 and objective.q == 0:
        head = "The objective is constant: any feasible point is optimal; v = y is searched."
    else:
        negated = " (negated: min is -max of the negation)" if objective.sense == "min" else ""
        head = f"v = {linear_text(form.p, form.q)} is maximised{negated}; u = {form.u_name}."
    enveloped = {line.index for line in form.upper + form.lower}
    bounds = [i for i in range(len(program.constraints)) if i not in enveloped]
    return (
        head,
        f"Upper constraints (v <= s u + t): {_numbers(line.index for line in form.upper)}.",
        f"Lower constraints (v >= s u + t): {_numbers(line.index for line in form.lower)}.",
        f"Constraints on {form.u_name} alone: {_numbers(bounds)}"
        f"; {form.u_name} in {_window_text((form.low, form.high), form.u_name)}.",
    )


def _numbers(indices: Iterable[int]) -> str:
    """Constraint numbers (from 1) in a sentence, the first 20 of them, or 'none'."""
    return listed([i + 1 for i in indices], 20) or "none"


def _window_text(window: tuple[Fraction | None, Fraction | None], name: str) -> str:
    """``[0, 5]``, ``(-inf, 3]``, ``all values``."""
    low, high = window
    if low is None and high is None:
        return "all values"
    left = "(-inf" if low is None else f"[{format_exact(low)}"
    right = "+inf)" if high is None else f"{format_exact(high)}]"
    return f"{left}, {right}"


# -- the search ----------------------------------------------------------------------


def solve_lp(program: LinearProgram) -> LPResult:
    """Solve ``program`` by Megiddo's prune-and-search, every round recorded."""
    form = _standard_form(program)
    setup = _setup_lines(program, form)
    if form.contradiction is not None:
        n = form.contradiction + 1
        return _infeasible(program, form, setup, (), f"constraint {n} says 0 <= a negative number")
    if form.is_empty_window():
        return _infeasible(program, form, setup, (), f"no {form.u_name} fits its bounds")
    if not form.upper:
        u = form.low if form.low is not None else (form.high or Fraction(0))
        v = max((line.at(u) for line in form.lower), default=Fraction(0))
        return _unbounded(
            program, form, setup, (), finished="no constraint bounds v from above", u=u, v=v
        )
    rounds: list[LPRound] = []
    while len(form.upper) > 1 or len(form.lower) > 1:
        round_ = _round(form)
        rounds.append(round_)
        if round_.side == "infeasible":
            return _infeasible(program, form, setup, tuple(rounds), round_.reason)
        if round_.side == "here":
            assert round_.test is not None
            v = min(line.at(round_.test) for line in form.upper)
            return _optimal(
                program, form, setup, tuple(rounds), u=round_.test, v=v, finished=round_.reason
            )
    return _base_case(program, form, setup, tuple(rounds))


def _round(form: _Form) -> LPRound:
    """One round: pair, test the median crossing, discard; ``form`` is updated."""
    upper = tuple(line.index for line in form.upper)
    lower = tuple(line.index for line in form.lower)
    window = (form.low, form.high)
    discarded: dict[int, str] = {}
    crossings: list[tuple[Fraction, _Line, _Line, bool]] = []
    pairs: list[tuple[int, int]] = []
    for lines, is_upper in ((form.upper, True), (form.lower, False)):
        for first, second in zip(lines[0::2], lines[1::2], strict=False):
            pairs.append((first.index, second.index))
            crossing = _pair(form, first, second, is_upper, discarded)
            if crossing is not None:
                crossings.append((crossing, first, second, is_upper))
    if not crossings:
        _drop(form, discarded)
        reason = "no pair crosses inside the window: no test needed"
        return LPRound(upper, lower, window, tuple(pairs), (), None, None, reason, discarded)
    places = [c[0] for c in crossings]
    test = select(places, (len(places) + 1) // 2).value
    side, reason = _test(form, test)
    if side in ("above", "below"):
        _discard_beyond(test, side, crossings, discarded, form.u_name)
        if side == "above":
            form.low = test
        else:
            form.high = test
        _drop(form, discarded)
    return LPRound(upper, lower, window, tuple(pairs), tuple(places), test, side, reason, discarded)


def _pair(
    form: _Form, first: _Line, second: _Line, is_upper: bool, discarded: dict[int, str]
) -> Fraction | None:
    """Where two lines of the same kind cross inside the window, or ``None`` after
    discarding the looser one when they do not (parallel, or crossing outside)."""
    tighter = min if is_upper else max
    if first.slope == second.slope:
        keep = tighter(first, second, key=lambda line: line.intercept)
        loose = second if keep is first else first
        discarded[loose.index] = f"parallel to {keep.index + 1} and looser"
        return None
    crossing = (second.intercept - first.intercept) / (first.slope - second.slope)
    if form.low is not None and crossing <= form.low:
        keep = tighter(first, second, key=lambda line: line.slope)  # on the right
    elif form.high is not None and crossing >= form.high:
        keep = tighter(first, second, key=lambda line: -line.slope)  # on the left
    else:
        return crossing
    loose = second if keep is first else first
    discarded[loose.index] = (
        f"crosses {keep.index + 1} outside the window, looser than it all over the window"
    )
    return None


def _test(form: _Form, u: Fraction) -> tuple[Side, str]:
    """On which side of the test line ``u`` the optimum lies, and why."""
    g, g_slopes = _envelope(form.upper, u, min)
    g_right, g_left = min(g_slopes), max(g_slopes)  # g's slope just right/left of u
    here = format_exact(u)
    at = f"at {form.u_name} = {here}"
    if not form.lower:
        f = None
        f_left = f_right = Fraction(0)
    else:
        f, f_slopes = _envelope(form.lower, u, max)
        f_right, f_left = max(f_slopes), min(f_slopes)
    name = form.u_name
    if f is None or f <= g:
        up = form.high is None or u < form.high
        down = form.low is None or u > form.low
        room = f is None or f < g
        if g_right > 0 and up and (room or f_right <= g_right):
            return (
                "above",
                f"feasible {at}, and v grows with {name}: the optimum has {name} > {here}",
            )
        if g_left < 0 and down and (room or f_left >= g_left):
            return (
                "below",
                f"feasible {at}, and v falls as {name} grows: the optimum has {name} < {here}",
            )
        return "here", f"feasible {at}, and v cannot grow on either side: optimal"
    if f_right < g_right and (form.high is None or u < form.high):
        return (
            "above",
            f"infeasible {at}, the gap closes as {name} grows: any solution has {name} > {here}",
        )
    if f_left > g_left and (form.low is None or u > form.low):
        return (
            "below",
            f"infeasible {at}, the gap closes as {name} falls: any solution has {name} < {here}",
        )
    return "infeasible", f"infeasible {at}, and the gap only widens on either side: no solution"


def _envelope(
    lines: list[_Line], u: Fraction, pick: Callable[[list[Fraction]], Fraction]
) -> tuple[Fraction, list[Fraction]]:
    """The envelope of ``lines`` at ``u`` (``pick`` is ``min`` for the upper one, ``max``
    for the lower) and the slopes of the lines that make it there, each line
    evaluated once."""
    heights = [line.at(u) for line in lines]
    height = pick(heights)
    return height, [line.slope for line, h in zip(lines, heights, strict=True) if h == height]


def _discard_beyond(
    test: Fraction,
    side: Side,
    crossings: list[tuple[Fraction, _Line, _Line, bool]],
    discarded: dict[int, str],
    name: str,
) -> None:
    """For each pair crossing on the near side of the test line, discard the line that
    is looser all over the far side."""
    for crossing, first, second, is_upper in crossings:
        if side == "above" and crossing <= test:
            steeper = first if first.slope > second.slope else second  # higher on the right
        elif side == "below" and crossing >= test:
            steeper = first if first.slope < second.slope else second  # higher on the left
        else:
            continue
        loose = steeper if is_upper else (second if steeper is first else first)
        keep = second if loose is first else first
        far = f"{name} {'>' if side == 'above' else '<'} {format_exact(test)}"
        discarded[loose.index] = (
            f"crosses {keep.index + 1} at {name} = {format_exact(crossing)}: "
            f"looser than it where {far}"
        )


def _drop(form: _Form, discarded: dict[int, str]) -> None:
    """Remove the ``discarded`` constraints from ``form``."""
    form.upper = [line for line in form.upper if line.index not in discarded]
    form.lower = [line for line in form.lower if line.index not in discarded]


def _base_case(
    program: LinearProgram, form: _Form, setup: tuple[str, ...], rounds: tuple[LPRound, ...]
) -> LPResult:
    """At most one upper and one lower line: solve directly."""
    (top,) = form.upper
    low, high = form.low, form.high
    left = "1 upper constraint" + (" and 1 lower" if form.lower else "")
    if form.lower:  # where bottom(u) <= top(u): (bottom.slope - top.slope) u <= gap
        (bottom,) = form.lower
        slope_gap = bottom.slope - top.slope
        gap = top.intercept - bottom.intercept
        if slope_gap > 0:
            high = gap / slope_gap if high is None else min(high, gap / slope_gap)
        elif slope_gap < 0:
            low = gap / slope_gap if low is None else max(low, gap / slope_gap)
        elif gap < 0:
            text = f"{left} left, parallel with no room between them"
            return _infeasible(program, form, setup, rounds, text)
    if low is not None and high is not None and low > high:
        text = f"{left} left, and they meet nowhere {form.u_name} may be"
        return _infeasible(program, form, setup, rounds, text)
    anywhere = low if low is not None else (high if high is not None else Fraction(0))
    if (top.slope > 0 and high is None) or (top.slope < 0 and low is None):
        text = f"{left} left: v grows without end"
        return _unbounded(
            program, form, setup, rounds, finished=text, u=anywhere, v=top.at(anywhere)
        )
    u = high if top.slope > 0 else (low if top.slope < 0 else anywhere)
    assert u is not None
    text = f"{left} left: v is largest at {form.u_name} = {format_exact(u)}"
    return _optimal(program, form, setup, rounds, u=u, v=top.at(u), finished=text)


def _optimal(
    program: LinearProgram,
    form: _Form,
    setup: tuple[str, ...],
    rounds: tuple[LPRound, ...],
    *,
    u: Fraction,
    v: Fraction,
    finished: str,
) -> LPResult:
    """The optimum (u, v), in x and y."""
    x, y = form.point(u, v)
    value = program.objective.value(x, y)
    return LPResult(program, "optimal", x, y, value, form.u_name, setup, rounds, finished)


def _infeasible(
    program: LinearProgram,
    form: _Form,
    setup: tuple[str, ...],
    rounds: tuple[LPRound, ...],
    finished: str,
) -> LPResult:
    return LPResult(program, "infeasible", None, None, None, form.u_name, setup, rounds, finished)


def _unbounded(
    program: LinearProgram,
    form: _Form,
    setup: tuple[str, ...],
    rounds: tuple[LPRound, ...],
    *,
    finished: str,
    u: Fraction,
    v: Fraction,
) -> LPResult:
    """Unbounded, (u, v) being a feasible point; a constant objective makes any
    feasible point optimal (value 0)."""
    objective = program.objective
    if objective.p == 0 and objective.q == 0:
        return _optimal(
            program, form, setup, rounds, u=u, v=v, finished=f"{finished}; any point is optimal"
        )
    return LPResult(program, "unbounded", None, None, None, form.u_name, setup, rounds, finished)
