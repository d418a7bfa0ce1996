"""Game clocks: a time control (``60+0.6``: each player has 60 s for the game and gets
0.6 s back after each of its moves) and how much of its time an engine spends on a
move. ``plies match --tc`` plays on a clock, and plies' UCI engine spends the clock a
GUI gives it the same way (:mod:`plies.uci`).

The budget of a move is about ``remaining / moves to go`` (30 when unknown) plus 80%
of the increment, never more than a fifth of what is left, less
:data:`MOVE_OVERHEAD`. An iterative-deepening search starts no new depth once the
budget is spent, and a depth started before may run on to :data:`LIMIT_FACTOR` times
the budget (never past a quarter of the clock), where the search stops: a depth cut
short is thrown away, so it is better let finish. In self-play at 5+0.05 (100 games,
the native chess search) this scored +49 Elo (95%: +2 .. +97) against stopping at the
budget and starting no depth past 40% of it, which is what plies did before.

>>> control = parse_time_control("60+0.6")
>>> control.base, control.increment, str(control)
(60.0, 0.6, '60+0.6')
>>> round(move_budget(60.0, 0.6), 3), round(move_limit(2.46, 60.0), 3)
(2.46, 7.38)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from plies.errors import PliesError

__all__ = [
    "DEFAULT_MOVES_TO_GO",
    "LEAST_BUDGET",
    "LIMIT_FACTOR",
    "MAX_CLOCK_SECONDS",
    "MOVE_OVERHEAD",
    "ClockReading",
    "TimeControl",
    "move_budget",
    "move_limit",
    "parse_time_control",
]

#: Seconds kept in reserve on every timed move (a pipe, a thread start, a GUI's
#: latency). A UCI ``bestmove`` came 2-12 ms after the budget (``go movetime 100``: at
#: 82-92 ms; Stockfish keeps 10 ms); 50 ms left the search half of a 0.1 s move.
MOVE_OVERHEAD = 0.02
#: Moves still to play when the clock does not say (UCI's ``movestogo``).
DEFAULT_MOVES_TO_GO = 30
#: How far past its budget a move's search may run, finishing a depth it started
#: within the budget (a multiple of the budget).
LIMIT_FACTOR = 3.0
#: The longest base time or increment a time control may give (seconds): a day.
MAX_CLOCK_SECONDS = 86_400.0
#: The least a move's budget is (seconds), however little is left on the clock.
LEAST_BUDGET = 0.01


@dataclass(frozen=True)
class TimeControl:
    """A game clock: each player starts with ``base`` seconds and gets ``increment``
    seconds back after each of its moves; a player whose time runs out loses. Its text
    is PGN's ``TimeControl`` tag: ``60+0.6``, or ``300`` without an increment."""

    base: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        for name, value in (("base", self.base), ("increment", self.increment)):
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not (number and math.isfinite(value) and 0 <= value <= MAX_CLOCK_SECONDS):
                raise PliesError(
                    f"a time control's {name} is a number of seconds up to "
                    f"{MAX_CLOCK_SECONDS:g}, not {value!r:.40}"
                )
        if self.base == 0:
            raise PliesError("a time control's base must be above 0 seconds")
        object.__setattr__(self, "base", float(self.base))
        object.__setattr__(self, "increment", float(self.increment))

    def __str__(self) -> str:
        base = f"{self.base:g}"
        return f"{base}+{self.increment:g}" if self.increment else base


def parse_time_control(text: str) -> TimeControl:
    """The time control ``text`` names: ``BASE`` or ``BASE+INCREMENT``, in seconds
    (``60+0.6``, ``300``); :class:`plies.errors.PliesError` saying what is wrong with
    another text."""
    if not isinstance(text, str) or len(text) > 40:
        raise PliesError(f"a time control is BASE+INCREMENT in seconds (60+0.6), not {text!r:.40}")
    base, plus, increment = text.strip().partition("+")
    try:
        numbers = (float(base), float(increment) if plus else 0.0)
    except ValueError:
        raise PliesError(
            f"a time control is BASE+INCREMENT in seconds (60+0.6), not {text!r:.40}"
        ) from None
    return TimeControl(*numbers)


def move_budget(remaining: float, increment: float, moves_to_go: int | None = None) -> float:
    """Seconds to spend on a move with ``remaining`` seconds on the clock, ``increment``
    to come back after it and ``moves_to_go`` before the clock is filled again (None:
    :data:`DEFAULT_MOVES_TO_GO`): see the module. At least :data:`LEAST_BUDGET`."""
    left = max(0.0, remaining)
    moves = moves_to_go or DEFAULT_MOVES_TO_GO
    budget = left / moves + 0.8 * max(0.0, increment)
    budget = min(budget, left / 5 if moves > 1 else left * 0.8)
    return max(LEAST_BUDGET, budget - MOVE_OVERHEAD)


@dataclass(frozen=True)
class ClockReading:
    """The clocks as a player sees them when it is to move: each seat's ``remaining``
    seconds (seat 0 first), the ``increment`` each move gets back, and the ``seat`` of
    the player to move."""

    remaining: tuple[float, ...]
    increment: float
    seat: int

    @property
    def left(self) -> float:
        """The seconds left on the clock of the player to move."""
        return self.remaining[self.seat]

    @property
    def budget(self) -> float:
        """The seconds the player to move spends on this move (:func:`move_budget`):
        no depth of its search starts past them."""
        return move_budget(self.left, self.increment)

    @property
    def limit(self) -> float:
        """The seconds after which its search stops (:func:`move_limit`)."""
        return move_limit(self.budget, self.left)


def move_limit(budget: float, remaining: float) -> float:
    """Seconds after which a search on a clock stops, ``budget`` being its move's budget
    and ``remaining`` the seconds on its clock: :data:`LIMIT_FACTOR` times the budget,
    at most a quarter of what is left less :data:`MOVE_OVERHEAD`, never below the
    budget."""
    return max(budget, min(LIMIT_FACTOR * budget, remaining / 4 - MOVE_OVERHEAD))
