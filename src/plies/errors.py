"""Error types raised by plies.

Every error plies raises on purpose is a :class:`PliesError`, which is a
:class:`ValueError`, so callers can catch one type. An argument of the wrong type
raises :class:`ArgumentTypeError`, which is a :class:`TypeError` too. Messages name
the argument or input that was wrong and what was wrong with it. The command line turns any
:class:`PliesError` into one line on stderr and exit status 1.
"""

from __future__ import annotations

__all__ = [
    "ArgumentTypeError",
    "IllegalMoveError",
    "LimitError",
    "ParseError",
    "PliesError",
    "SearchError",
    "TreeError",
    "UnknownGameError",
]


class PliesError(ValueError):
    """Base class of every error plies raises on bad input or bad options."""


class ParseError(PliesError):
    """Text in some notation could not be read.

    ``line`` and ``column`` are 1-based and point at the offending character
    when known; ``found`` says what stood there. The message already names them:
    ``expected ',' or ']' at column 14, found ')'``.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        found: str | None = None,
    ):
        self.reason = message
        self.line = line
        self.column = column
        self.found = found
        if column is not None and line is not None and line > 1:
            message = f"{message} at line {line}, column {column}"
        elif column is not None:
            message = f"{message} at column {column}"
        elif line is not None:
            message = f"{message} at line {line}"
        if found is not None:
            message = f"{message}, found {found}"
        super().__init__(message)


class TreeError(PliesError):
    """A tree is well formed as text but not usable (bad probabilities, bounds, ...)."""


class SearchError(PliesError):
    """Search options do not fit the tree or game (e.g. chance nodes for alpha-beta)."""


class IllegalMoveError(PliesError):
    """A move (or a move in a POSITION) is well formed but not legal where it is played."""


class UnknownGameError(PliesError):
    """No game is registered under the requested name, or its parameters are wrong."""


class ArgumentTypeError(PliesError, TypeError):
    """An argument of a public function has the wrong type (``strict="yes"``, a
    string where a :class:`~plies.trees.Tree` is expected). Both a
    :class:`PliesError` (so a :class:`ValueError`) and a :class:`TypeError`."""


class LimitError(PliesError):
    """A job is larger than a limit allows (a drawing too big to read, too many
    frames, a runaway expansion). The message names the limit and, where there is one,
    the option or argument that raises it; the check runs before any work starts.

    ``fact`` is which limit was passed; ``advice`` (None if there is none) how to stay
    under it in the command line's and Python's terms, so that another shell (the web
    lab) can give its own instead: the message is ``"{fact}; {advice}"``."""

    def __init__(self, fact: str, *, advice: str | None = None) -> None:
        self.fact = fact
        self.advice = advice
        super().__init__(fact if advice is None else f"{fact}; {advice}")
