"""The prune-and-search lab: selection and 2-D linear programming, step by step.

Text and options go in (numbers typed or drawn from a seed; a program in the LP file
format); the result comes out with one :class:`PruneStep` per round (its narration
lines and its drawing), the measured ``a`` of T(n) = T(a n) + O(n) and a JSON record.
The command line (``plies select``, ``plies lp``) and the web lab's stepper call
:func:`select_lab` and :func:`lp_lab` and only print or serve what they return.

>>> run = select_lab("9 1 8 2 7 3 6 4 5 0 11 10", 4, drawings=False)
>>> run.result.value, len(run.steps)
(Fraction(3, 1), 4)
>>> run.steps[0].narration[0]
'Round 1: 12 numbers, the 4th smallest sought.'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from plies._arguments import need_choice, need_int, need_text
from plies.draw import DrawError, lp_svg, select_finish_svg, select_svg, svg_to_png
from plies.errors import ParseError, PliesError
from plies.prune import (
    METHODS,
    LPResult,
    LPRound,
    SelectResult,
    SelectRound,
    format_exact,
    json_number,
    listed,
    ordinal,
    parse_lp,
    select,
    solve_lp,
)

__all__ = [
    "MAX_NUMBERS",
    "MAX_RANDOM_CONSTRAINTS",
    "LPRun",
    "Measured",
    "PruneStep",
    "SelectRun",
    "lp_lab",
    "random_lp",
    "random_numbers",
    "read_numbers",
    "select_lab",
    "write_lp_drawing",
]

#: The most numbers a selection may be asked about.
MAX_NUMBERS = 100_000
#: The most constraints :func:`random_lp` draws.
MAX_RANDOM_CONSTRAINTS = 1000
#: Desktop width of the drawings (a phone asks for 360).
WIDTH = 640
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?(?:/\d+)?")
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True)
class PruneStep:
    """One step of the stepper: a round (or the end), its narration lines and its
    drawing (SVG; empty when drawings were not asked for)."""

    title: str
    narration: tuple[str, ...]
    svg: str


@dataclass(frozen=True)
class Measured:
    """The measured ``a`` of T(n) = T(a n) + O(n): the fraction kept by each round that
    another follows, its ``largest`` and ``mean`` (``None`` without such a round)."""

    fractions: tuple[float, ...]

    @property
    def largest(self) -> float | None:
        """The largest fraction kept by a round: the ``a`` the recurrence needs."""
        return max(self.fractions) if self.fractions else None

    @property
    def mean(self) -> float | None:
        """The mean fraction kept over the rounds."""
        return sum(self.fractions) / len(self.fractions) if self.fractions else None

    def line(self, guarantee: str) -> str:
        """The recurrence with the measured ``a``, in one line."""
        if self.largest is None or self.mean is None:
            return (
                "T(n) = T(a n) + O(n): no round was followed by another, so a is not "
                "measured (the search ended in its first round, or before any)"
            )
        total = 1 / (1 - self.largest) if self.largest < 1 else float("inf")
        return (
            f"T(n) = T(a n) + O(n) with measured a = {self.largest:.2f} at most, "
            f"{self.mean:.2f} on average over {len(self.fractions)} "
            f"round{'s' * (len(self.fractions) != 1)} ({guarantee}): "
            f"the work is at most about n (1 + a + a^2 + ...) = n / (1 - a) = {total:.1f} n"
        )

    def record(self) -> dict[str, Any]:
        """JSON-ready: the fractions, the largest and the mean."""
        return {"a_max": self.largest, "a_mean": self.mean, "kept": list(self.fractions)}


# -- selection -----------------------------------------------------------------------


@dataclass(frozen=True)
class SelectRun:
    """A selection with its steps and the measured ``a``."""

    result: SelectResult
    steps: tuple[PruneStep, ...]
    measured: Measured
    recurrence: str

    def summary(self) -> str:
        """One line: the answer and how it was found."""
        result = self.result
        how = "median of medians" if result.method == "medians" else f"random, seed {result.seed}"
        rounds = len(result.rounds)
        return (
            f"{format_exact(result.value)}: the {ordinal(result.k)} smallest of {result.n} "
            f"({rounds} round{'s' * (rounds != 1)}, {how})"
        )

    def record(self) -> dict[str, Any]:
        """JSON-ready: ``value`` first, then the rounds and the recurrence."""
        result = self.result
        return {
            "value": json_number(result.value),
            "exact": format_exact(result.value),
            "k": result.k,
            "n": result.n,
            "method": result.method,
            "seed": result.seed,
            "rounds": [_select_round_record(r) for r in result.rounds],
            "finished": result.finished,
            "recurrence": self.measured.record() | {"text": self.recurrence},
        }


def read_numbers(text: str) -> list[Fraction]:
    """The numbers in ``text``, separated by spaces, commas or semicolons: whole
    numbers, decimals (``2.5``, ``1e3``) or fractions (``1/3``), read exactly."""
    need_text(text, "numbers")
    numbers: list[Fraction] = []
    for match in re.finditer(r"[^\s,;]+", text):
        token = match.group()
        if _NUMBER.fullmatch(token) is None:
            found = repr(token if len(token) <= 20 else token[:17] + "...")
            raise ParseError(
                f"not a number (the {ordinal(len(numbers) + 1)} value)",
                column=match.start() + 1,
                found=found,
            )
        try:
            numbers.append(Fraction(token))
        except ZeroDivisionError:
            column = match.start() + 1
            raise ParseError("division by zero", column=column, found=repr(token)) from None
        if len(numbers) > MAX_NUMBERS:
            raise PliesError(f"more than {MAX_NUMBERS:,} numbers")
    if not numbers:
        raise ParseError("no numbers given")
    return numbers


def random_numbers(count: int, seed: int, *, high: int = 99) -> str:
    """``count`` whole numbers from 0 to ``high`` drawn with ``seed``, as text."""
    need_int(count, "count", minimum=1, maximum=MAX_NUMBERS)
    rng = random.Random(need_int(seed, "seed"))
    return " ".join(str(rng.randint(0, high)) for _ in range(count))


def select_lab(
    numbers: str | Sequence[str],
    k: int,
    *,
    method: str = "medians",
    seed: int = 0,
    drawings: bool = True,
    width: int = WIDTH,
) -> SelectRun:
    """The ``k``-th smallest of ``numbers`` (text, or a list of texts) by ``method``,
    every round narrated and (with ``drawings``) drawn ``width`` pixels wide."""
    text = numbers if isinstance(numbers, str) else " ".join(numbers)
    values = read_numbers(text)
    need_choice(method, "method", METHODS)
    result = select(values, k, method=method, seed=seed)
    steps = [
        PruneStep(
            f"Round {i + 1}",
            _select_narration(result, round_, i),
            select_svg(result, i, width=width) if drawings else "",
        )
        for i, round_ in enumerate(result.rounds)
    ]
    end = (
        f"The {ordinal(result.k)} smallest is {format_exact(result.value)}.",
        f"{result.finished[0].upper()}{result.finished[1:]}.",
    )
    steps.append(
        PruneStep("Answer", end, select_finish_svg(result, width=width) if drawings else "")
    )
    measured = Measured(result.kept_fractions)
    guarantee = (
        "the median of medians keeps at most 7n/10 + 6; with the selection of the medians, "
        "T(n) <= T(n/5) + T(7n/10) + O(n), and 1/5 + 7/10 < 1"
        if method == "medians"
        else "a random pivot keeps 3/4 on average"
    )
    return SelectRun(result, tuple(steps), measured, measured.line(guarantee))


def _select_narration(result: SelectResult, round_: SelectRound, index: int) -> tuple[str, ...]:
    head = f"Round {index + 1}: {round_.size} numbers, the {ordinal(round_.rank)} smallest sought."
    parts = (
        f"{round_.smaller} smaller, {round_.equal} equal, {round_.larger} larger than the pivot."
    )
    kept = (
        f"Kept {round_.kept_size} of {round_.size} ({round_.kept_fraction:.0%}), "
        f"discarded {round_.size - round_.kept_size} ({round_.discarded_fraction:.0%})."
    )
    lines = [head, f"Pivot {format_exact(round_.pivot)}: {round_.how}."]
    if round_.medians:
        medians = listed(round_.medians, 20, format_exact)
        lines.append(f"Group medians: {medians}.")
    return (*lines, parts, f"Why: {round_.why}.", kept)


def _select_round_record(round_: SelectRound) -> dict[str, Any]:
    return {
        "size": round_.size,
        "rank": round_.rank,
        "pivot": json_number(round_.pivot),
        "how": round_.how,
        "medians": [json_number(m) for m in round_.medians],
        "smaller": round_.smaller,
        "equal": round_.equal,
        "larger": round_.larger,
        "kept": round_.kept,
        "kept_fraction": round_.kept_fraction,
        "discarded_fraction": round_.discarded_fraction,
        "why": round_.why,
    }


# -- linear programming --------------------------------------------------------------


@dataclass(frozen=True)
class LPRun:
    """A linear program solved, with its steps and the measured ``a``."""

    result: LPResult
    steps: tuple[PruneStep, ...]
    measured: Measured
    recurrence: str

    def summary(self) -> str:
        """One line: the status, and the optimum where there is one."""
        result = self.result
        rounds = f"{len(result.rounds)} round{'s' * (len(result.rounds) != 1)}"
        if result.value is None or result.x is None or result.y is None:
            return f"{result.status} ({rounds})"
        return (
            f"optimal: {_both(result.value)} at x = {_both(result.x)}, "
            f"y = {_both(result.y)} ({rounds})"
        )

    def record(self) -> dict[str, Any]:
        """JSON-ready: ``status``, ``value``, ``x``, ``y`` (null unless optimal), the
        exact values, the rounds and the recurrence."""
        result = self.result
        point = (result.value, result.x, result.y)
        return {
            "status": result.status,
            "value": None if result.value is None else json_number(result.value),
            "x": None if result.x is None else json_number(result.x),
            "y": None if result.y is None else json_number(result.y),
            "exact": {
                name: None if v is None else format_exact(v)
                for name, v in zip(("value", "x", "y"), point, strict=True)
            },
            "rounds": [_lp_round_record(result, r) for r in result.rounds],
            "setup": list(result.setup),
            "finished": result.finished,
            "recurrence": self.measured.record() | {"text": self.recurrence},
        }

    def drawing(self, *, width: int = WIDTH) -> str:
        """SVG of the whole search: the constraints, those it discarded, the optimum."""
        return lp_svg(self.result, None, width=width)


def random_lp(count: int, seed: int) -> str:
    """A program in the LP file format with ``count`` constraints drawn with ``seed``:
    lines around the origin facing every way (so usually bounded), and an objective."""
    need_int(count, "count", minimum=1, maximum=MAX_RANDOM_CONSTRAINTS)
    rng = random.Random(need_int(seed, "seed"))
    sense = rng.choice(["max", "min"])
    lines = [f"{sense} {_linear(rng.randint(1, 5), rng.randint(-5, 5))}"]
    for _ in range(count):
        a, b = rng.randint(-9, 9), rng.randint(-9, 9)
        a, b = (a, b) if (a, b) != (0, 0) else (1, 1)
        lines.append(f"{_linear(a, b)} <= {rng.randint(10, 60)}")
    return "\n".join(lines) + "\n"


def _linear(a: int, b: int) -> str:
    """``a x + b y`` as a person writes it: ``x - 3y``, ``-y``, ``2x``."""
    terms = [(a, "x"), (b, "y")]
    text = ""
    for coefficient, name in terms:
        if coefficient == 0:
            continue
        size = "" if abs(coefficient) == 1 else str(abs(coefficient))
        if not text:
            text = ("-" if coefficient < 0 else "") + size + name
        else:
            text += (" - " if coefficient < 0 else " + ") + size + name
    return text


def lp_lab(text: str, *, drawings: bool = True, width: int = WIDTH) -> LPRun:
    """Solve the program ``text`` (the LP file format) by Megiddo's prune-and-search,
    every round narrated and (with ``drawings``) drawn ``width`` pixels wide."""
    result = solve_lp(parse_lp(need_text(text, "text")))
    steps = [
        PruneStep(
            f"Round {i + 1}",
            _lp_narration(result, round_, i),
            lp_svg(result, i, width=width) if drawings else "",
        )
        for i, round_ in enumerate(result.rounds)
    ]
    if steps:  # how the constraints were sorted, before the first round
        steps[0] = PruneStep(steps[0].title, (*result.setup, *steps[0].narration), steps[0].svg)
    ended_by_test = bool(result.rounds) and result.rounds[-1].is_last
    finished = () if ended_by_test else (f"{result.finished[0].upper()}{result.finished[1:]}.",)
    end = (*(() if steps else result.setup), *finished, _lp_answer(result))
    steps.append(PruneStep("Answer", end, lp_svg(result, None, width=width) if drawings else ""))
    measured = Measured(result.kept_fractions)
    guarantee = (
        "Megiddo: half the crossings lie beyond the test line, so each round discards "
        "about a quarter or more, a <= 3/4"
    )
    return LPRun(result, tuple(steps), measured, measured.line(guarantee))


def _lp_answer(result: LPResult) -> str:
    if result.value is None or result.x is None or result.y is None:
        return f"The program is {result.status}."
    return (
        f"Optimal: {result.program.objective.text()} = {_both(result.value)} "
        f"at x = {_both(result.x)}, y = {_both(result.y)}."
    )


def _lp_narration(result: LPResult, round_: LPRound, index: int) -> tuple[str, ...]:
    name = result.u_name
    low, high = round_.window
    window = (
        f"{'-inf' if low is None else format_exact(low)} <= {name} <= "
        f"{'+inf' if high is None else format_exact(high)}"
    )
    lines = [
        f"Round {index + 1}: {round_.size} constraints in play ({len(round_.upper)} upper, "
        f"{len(round_.lower)} lower), {window}.",
        f"Pairs: {_pairs_text(round_.pairs)}; {len(round_.crossings)} "
        f"cross{'es' * (len(round_.crossings) == 1)} inside the window.",
    ]
    if round_.test is not None:
        lines.append(
            f"Test line {name} = {format_exact(round_.test)} (the median crossing): "
            f"{round_.reason}."
        )
    else:
        lines.append(f"No test: {round_.reason}.")
    constraints = result.program.constraints
    for number, why in sorted(round_.discarded.items()):
        lines.append(f"Discarded {number + 1} ({constraints[number].text()}): {why}.")
    kept = round_.size - len(round_.discarded)
    lines.append(
        f"Kept {kept} of {round_.size} ({round_.kept_fraction:.0%}), "
        f"discarded {len(round_.discarded)} ({1 - round_.kept_fraction:.0%})."
    )
    return tuple(lines)


def _pairs_text(pairs: Sequence[tuple[int, int]]) -> str:
    return listed(pairs, 12, lambda pair: f"({pair[0] + 1}, {pair[1] + 1})") or "none"


def _lp_round_record(result: LPResult, round_: LPRound) -> dict[str, Any]:
    constraints = result.program.constraints
    low, high = round_.window
    test = None
    if round_.test is not None:
        test = {
            "line": f"{result.u_name} = {format_exact(round_.test)}",
            "at": json_number(round_.test),
            "side": round_.side,
            "reason": round_.reason,
        }
    return {
        "constraints": round_.size,
        "upper": [i + 1 for i in round_.upper],
        "lower": [i + 1 for i in round_.lower],
        "window": [None if v is None else format_exact(v) for v in (low, high)],
        "crossings": [format_exact(c) for c in round_.crossings],
        "test": test,
        "discarded": [
            {"constraint": i + 1, "text": constraints[i].text(), "why": why}
            for i, why in sorted(round_.discarded.items())
        ],
        "kept_fraction": round_.kept_fraction,
    }


def write_lp_drawing(run: LPRun, path: str | Path, *, width: int = WIDTH) -> Path:
    """Write the whole search's drawing to ``path``: ``.svg``, or ``.png`` (needs
    resvg-py: ``pip install 'plies[draw]'``)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise DrawError(f"the drawing is .svg or .png, not '{path}'")
    svg = run.drawing(width=width)
    data = svg.encode("utf-8") if suffix == ".svg" else svg_to_png(svg, dpi=192)
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise DrawError(f"cannot write '{path}': {exc.strerror or exc}") from None
    return path


def _both(value: Fraction) -> str:
    """Exact, with the decimal beside a fraction: ``14/5``, ``1/3 (0.333333)``."""
    text = format_exact(value)
    return f"{text} ({float(value):.6g})" if "/" in text else text
