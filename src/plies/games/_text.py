"""Reading numbers and echoing text in the games' notation, safely.

Text typed by a person goes through :func:`read_int` before any ``int()``: Python
refuses to convert more than 4,300 digits (a ValueError with a traceback at the
command line), and no move, heap or score of a built-in game needs more than
:data:`MAX_DIGITS`. :func:`shown` quotes input in error messages, shortened when
it is long, so an error is one readable line whatever was typed.
"""

from __future__ import annotations

from plies.errors import ArgumentTypeError, ParseError

__all__ = ["MAX_DIGITS", "clip", "int_move_type", "read_int", "shown"]

#: The most digits a number in a move or POSITION may have (a billion billion).
MAX_DIGITS = 18

#: Characters of input quoted in an error message before it is cut short.
_SHOWN = 40


def shown(text: str) -> str:
    """``repr(text)``, or its first characters and its length when it is long."""
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:_SHOWN]!r}... ({len(text):,} characters)"


def clip(text: str) -> str:
    """``text`` itself, or its first characters and its length when it is long."""
    if len(text) <= _SHOWN:
        return text
    return f"{text[:_SHOWN]}... ({len(text):,} characters)"


def read_int(text: str, *, what: str, game: str) -> int:
    """The whole number written in ``text`` (ASCII digits, spaces around ignored).

    Raises :class:`ParseError` naming ``game`` and ``what`` the number is, for text
    that is not digits or has more than :data:`MAX_DIGITS` of them; ``int()`` never
    sees unchecked text.
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise ParseError(f"{game}: {what} must be a whole number, got {shown(text)}")
    if len(digits) > MAX_DIGITS:
        raise ParseError(
            f"{game}: {what} has {len(digits):,} digits, more than any game allows "
            f"(at most {MAX_DIGITS})"
        )
    return int(digits)


def int_move_type(move: object, *, game: str) -> None:
    """Raise :class:`ArgumentTypeError` unless ``move`` is an int (a bool is not)."""
    if type(move) is not int:
        raise ArgumentTypeError(
            f"{game}: a move is an int, got {clip(repr(move))} of type {type(move).__name__}"
        )
