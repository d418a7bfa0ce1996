"""Reading numbers and echoing text in the games' notation, safely.

Text typed by a person goes through :func:`read_int` before any ``int()``: Python
refuses to convert more than 4,300 digits (a ValueError with a traceback at the
command line), and no move, heap or score of a built-in game needs more than
:data:`MAX_DIGITS`. :func:`shown` quotes input in error messages, shortened when
it is long, so an error is one readable line whatever was typed. :func:`move_index`
and :data:`ROOM_CELLS` read a move's text and a position's cells for the board a game
draws in the game room (:class:`plies.game.Board`).
"""

from __future__ import annotations

from collections.abc import Mapping

from plies.errors import ArgumentTypeError, ParseError, PliesError

__all__ = [
    "MAX_DIGITS",
    "RESULTS",
    "ROOM_CELLS",
    "check_export",
    "check_player",
    "check_result",
    "clip",
    "int_move_type",
    "move_index",
    "read_int",
    "shown",
    "whole",
]

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


def move_index(text: str) -> int:
    """The 0-based index a move's text names when it is a whole number counted from 1
    (``"3"``: 2), else -1; never an error, whatever the text."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text) - 1
    return -1


#: The game room's cell letters (see :class:`plies.game.Board`) for the ``X``, ``O``
#: and ``-`` (empty) of a game's own text.
ROOM_CELLS = str.maketrans("XO-", "xo.")


def int_move_type(move: object, *, game: str) -> None:
    """Raise :class:`ArgumentTypeError` unless ``move`` is an int (a bool is not)."""
    if type(move) is not int:
        raise ArgumentTypeError(
            f"{game}: a move is an int, got {clip(repr(move))} of type {type(move).__name__}"
        )


def whole(value: object) -> bool:
    """Whether ``value`` is an int (a bool is not): a field of a state, a count."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_player(player: object) -> None:
    """Raise unless ``player`` is 0 or 1 (:class:`ArgumentTypeError` for a non-int)."""
    if not whole(player):
        raise ArgumentTypeError(
            f"a player is 0 or 1, got {clip(repr(player))} of type {type(player).__name__}"
        )
    if player not in (0, 1):
        raise PliesError(f"a player is 0 or 1, got {player}")


#: The results of a solved position.
RESULTS = ("win", "draw", "loss")


def check_result(result: object, distance: object) -> None:
    """Raise unless ``result`` is one of :data:`RESULTS` and ``distance`` an int of 0
    or more (plies to the end)."""
    if not isinstance(result, str):
        raise ArgumentTypeError(f"a result is win, draw or loss, got {clip(repr(result))}")
    if result not in RESULTS:
        raise PliesError(f"a result is win, draw or loss, got {clip(repr(result))}")
    if not whole(distance):
        raise ArgumentTypeError(f"a distance is an int, got {clip(repr(distance))}")
    assert isinstance(distance, int)
    if distance < 0:
        raise PliesError(f"a distance is 0 or more plies, got {distance}")


def check_export(moves: object, headers: object) -> None:
    """Raise :class:`ArgumentTypeError` unless ``moves`` is a list or tuple (of moves,
    checked as they are played) and ``headers`` None or a mapping of strings to
    strings (an exported game's tags)."""
    if not isinstance(moves, list | tuple):
        raise ArgumentTypeError(f"moves must be a list or tuple of moves, got {clip(repr(moves))}")
    if headers is None:
        return
    if not isinstance(headers, Mapping) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in headers.items()
    ):
        raise ArgumentTypeError(
            f"headers must be a mapping of strings to strings, got {clip(repr(headers))}"
        )
