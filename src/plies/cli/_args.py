"""Argument types and notes shared by every command, in one light module (importing a
command's own module would load what that command needs, at every start)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from plies.games._text import MAX_DIGITS, shown

__all__ = ["note", "seconds", "whole_number"]


def whole_number(minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number (of at least ``minimum``, at most ``maximum``),
    its length checked before ``int()`` (which refuses more than 4,300 digits) and long
    input quoted short: "expected a number of at least N, not X" in every command."""

    def convert(text: str) -> int:
        digits = text.strip().removeprefix("-").removeprefix("+")
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"expected a whole number, not {shown(text)}")
        if len(digits) > MAX_DIGITS:
            raise argparse.ArgumentTypeError(
                f"expected a whole number of at most {MAX_DIGITS} digits, "
                f"not one of {len(digits):,} digits"
            )
        value = int(text)
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(
                f"expected a number of at least {minimum}, not {value}"
            )
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"expected a number of at most {maximum}, not {value}")
        return value

    return convert


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, not {shown(text)}"
        ) from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {shown(text)}")
    return value


def note(message: str) -> None:
    """One ``note:`` line on stderr: an option given has no effect here."""
    print(f"note: {message}", file=sys.stderr)
