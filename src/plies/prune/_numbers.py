"""Exact numbers as people write them, and as JSON."""

from __future__ import annotations

from fractions import Fraction

__all__ = ["format_exact", "json_number"]


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
