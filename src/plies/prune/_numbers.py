"""Exact numbers as people write them, and as JSON; ordinals and short lists in sentences."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

__all__ = ["format_exact", "json_number", "listed", "ordinal"]

T = TypeVar("T")


def format_exact(value: Fraction) -> str:
    """``value`` written exactly: ``3``, ``-2.5``, ``0.125``, else as a fraction ``1/3``.

    >>> format_exact(Fraction(-5, 2)), format_exact(Fraction(1, 3))
    ('-2.5', '1/3')
    """
    if value.denominator == 1:
        return str(value.numerator)
    twos = fives = 0
    rest = value.denominator
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    if rest != 1 or max(twos, fives) > 12:  # not a short finite decimal
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value.numerator) * 10**places // value.denominator
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}".rstrip("0")


def json_number(value: Fraction) -> int | float:
    """``value`` for JSON: an int when whole, else the nearest float."""
    return value.numerator if value.denominator == 1 else float(value)


def ordinal(n: int) -> str:
    """``n`` as an ordinal: ``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``...

    >>> ordinal(1), ordinal(12), ordinal(23)
    ('1st', '12th', '23rd')
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def listed(items: Sequence[T], limit: int, show: Callable[[T], str] = str) -> str:
    """The first ``limit`` of ``items`` shown in a sentence, the rest counted ('' for none).

    >>> listed([1, 2, 3], 2), listed(["a"], 2)
    ('1, 2 and 1 more', 'a')
    """
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(show(item) for item in items[:limit]) + more
