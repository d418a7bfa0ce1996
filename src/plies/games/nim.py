"""Nim under the normal play convention.

A position is a row of heaps of objects. The player to move takes any positive number
of objects from one heap; whoever takes the last object wins (so a player facing only
empty heaps has lost). By Bouton's theorem the player to move wins exactly when the
XOR of the heap sizes (the nim-sum) is not zero. The engine does not know that: the
tests use it to check the engine.

Notation: a POSITION is the heap sizes separated by commas or spaces (``3,4,5``;
empty = the game's default heaps, 3,4,5). A move ``H:N`` takes ``N`` objects from
heap ``H``, heaps numbered from 1 (``2:3`` takes 3 from the second heap).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from plies.errors import IllegalMoveError, ParseError, PliesError
from plies.game import BaseGame

__all__ = ["Nim", "NimMove", "NimState"]

#: Largest heap and most heaps a POSITION may have (a guard against typos, not a rule).
MAX_HEAP = 1_000_000
MAX_HEAPS = 64


class NimState(NamedTuple):
    """Heap sizes and the player to move (0 or 1)."""

    heaps: tuple[int, ...]
    player: int


class NimMove(NamedTuple):
    """Take ``take`` objects from heap ``heap`` (0-based index)."""

    heap: int
    take: int


class Nim(BaseGame[NimState, NimMove]):
    """Nim on any heaps; ``heaps`` gives the default start (3,4,5)."""

    name = "nim"
    #: Normal play: whoever takes the last object wins.
    last_mover_wins = True

    def __init__(self, heaps: Sequence[int] = (3, 4, 5)) -> None:
        self._initial = NimState(_check_heaps(tuple(heaps), repr(heaps)), 0)

    def __repr__(self) -> str:
        return f"Nim(heaps={self._initial.heaps})"

    # -- rules ----------------------------------------------------------------------

    def initial_state(self) -> NimState:
        """The default heaps, player 0 to move."""
        return self._initial

    def to_move(self, state: NimState) -> int:
        """The player to move."""
        return state.player

    def legal_moves(self, state: NimState) -> list[NimMove]:
        """Every (heap, count): heaps left to right, larger takes first."""
        return [
            NimMove(index, count)
            for index, size in enumerate(state.heaps)
            for count in range(size, 0, -1)
        ]

    def play(self, state: NimState, move: NimMove) -> NimState:
        """Remove ``move.take`` objects from heap ``move.heap``; the turn passes."""
        heaps = list(state.heaps)
        heaps[move.heap] -= move.take
        return NimState(tuple(heaps), 1 - state.player)

    def remaining_plies(self, state: NimState) -> int:
        """The objects left: every move takes at least one."""
        return sum(state.heaps)

    def is_terminal(self, state: NimState) -> bool:
        """Whether every heap is empty."""
        return not any(state.heaps)

    def utility(self, state: NimState, player: int) -> float:
        """-1 for the player facing empty heaps (the other took the last object), +1 else."""
        return -1.0 if player == state.player else 1.0

    # -- search hooks ---------------------------------------------------------------

    def key(self, state: NimState) -> tuple[int, ...]:
        """The heaps: the value for the side to move does not depend on who that is.

        (Sorting the heaps would merge more states, but the table's moves name heaps
        by position, so states with one key must have the same moves.)
        """
        return state.heaps

    def terminal_value(self, state: NimState) -> float | None:
        """-1 (a loss for the side to move) when every heap is empty, else None."""
        return None if any(state.heaps) else -1.0

    def winning_move(self, state: NimState) -> NimMove | None:
        """Take the whole heap when only one heap is left (the last object wins)."""
        non_empty = [i for i, size in enumerate(state.heaps) if size]
        if len(non_empty) == 1:
            return NimMove(non_empty[0], state.heaps[non_empty[0]])
        return None

    # -- notation -------------------------------------------------------------------

    def format_move(self, state: NimState, move: NimMove) -> str:
        """``H:N``: take N from heap H (1-based)."""
        return f"{move.heap + 1}:{move.take}"

    def parse_move(self, state: NimState, text: str) -> NimMove:
        """Read ``H:N`` and check that heap H holds at least N objects."""
        heap_text, sep, count_text = text.strip().partition(":")
        if not sep or not heap_text.strip().isdigit() or not count_text.strip().isdigit():
            raise ParseError(f"nim: a move is HEAP:COUNT such as 2:3, got {text!r}")
        heap, count = int(heap_text) - 1, int(count_text)
        if not 0 <= heap < len(state.heaps):
            raise IllegalMoveError(f"nim: no heap {heap + 1} (heaps are 1-{len(state.heaps)})")
        if not 1 <= count <= state.heaps[heap]:
            raise IllegalMoveError(
                f"nim: cannot take {count} from heap {heap + 1}, which holds {state.heaps[heap]}"
            )
        return NimMove(heap, count)

    def parse_position(self, text: str) -> NimState:
        """Read heap sizes (``3,4,5``); empty text is the default start."""
        tokens = text.replace(",", " ").split()
        if not tokens:
            return self._initial
        if not all(token.isdigit() for token in tokens):
            raise ParseError(f"nim: a position is heap sizes such as 3,4,5, got {text!r}")
        return NimState(_check_heaps(tuple(int(t) for t in tokens), repr(text)), 0)

    def format_position(self, state: NimState) -> str:
        """The heap sizes joined by commas."""
        return ",".join(map(str, state.heaps))

    def render(self, state: NimState) -> str:
        """One line per heap: its number, size and objects."""
        return "\n".join(
            f"heap {i + 1}: {size:>2} {'|' * min(size, 60)}" for i, size in enumerate(state.heaps)
        )


def _check_heaps(heaps: tuple[int, ...], text: str) -> tuple[int, ...]:
    """Validate heap sizes; raise :class:`PliesError` naming ``text``."""
    if not heaps or len(heaps) > MAX_HEAPS:
        raise PliesError(f"nim: want 1 to {MAX_HEAPS} heaps, got {text}")
    for size in heaps:
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MAX_HEAP:
            raise PliesError(f"nim: heap sizes must be integers 0-{MAX_HEAP}, got {text}")
    return heaps
