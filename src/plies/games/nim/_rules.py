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

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import Any, NamedTuple, overload

from plies._arguments import need_text
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError
from plies.game import BaseGame
from plies.games.text import check_player, clip, read_int, shown, whole

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


# tuple.__new__ skips the NamedTuple's generated __new__ (about half the cost).
_new_move = tuple.__new__


class NimMoves(Sequence[NimMove]):
    """The legal moves of a Nim position, made one by one as they are asked for.

    Two heaps of 100,000 have 200,000 moves: building them as a list took 80 ms per
    position, longer than a search may spend between two looks at its clock. This
    sequence holds the heaps only: length, indexing and ``in`` take constant time
    (``in`` logarithmic for indexing), and iteration makes each move when it is
    reached, so a cut-off after the first few moves costs only those. Order: heaps
    left to right, larger takes first. Compares equal to a list of the same moves.
    """

    __slots__ = ("_heaps", "_starts")

    def __init__(self, heaps: tuple[int, ...]) -> None:
        self._heaps = heaps
        #: Index of the first move of each heap, then the total.
        self._starts = (0, *accumulate(heaps))

    def __len__(self) -> int:
        return self._starts[-1]

    @overload
    def __getitem__(self, index: int) -> NimMove: ...

    @overload
    def __getitem__(self, index: slice) -> list[NimMove]: ...

    def __getitem__(self, index: int | slice) -> NimMove | list[NimMove]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(f"move index {index} out of range (0-{size - 1})")
        heap = bisect_right(self._starts, index) - 1
        return _new_move(NimMove, (heap, self._heaps[heap] - (index - self._starts[heap])))

    def __iter__(self) -> Iterator[NimMove]:
        for heap, size in enumerate(self._heaps):
            for take in range(size, 0, -1):
                yield _new_move(NimMove, (heap, take))

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, tuple) or len(move) != 2:
            return False
        heap, take = move
        return (
            type(heap) is int
            and type(take) is int
            and 0 <= heap < len(self._heaps)
            and 1 <= take <= self._heaps[heap]
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking: like a list

    def __repr__(self) -> str:
        return f"NimMoves(heaps={self._heaps}, {len(self)} moves)"


class Nim(BaseGame[NimState, NimMove]):
    """Nim on any heaps; ``heaps`` gives the default start (3,4,5)."""

    name = "nim"
    #: Normal play: whoever takes the last object wins.
    last_mover_wins = True
    state_type = NimState

    def __init__(self, heaps: Sequence[int] = (3, 4, 5)) -> None:
        if isinstance(heaps, int) and not isinstance(heaps, bool):
            heaps = (heaps,)  # one heap, as 'nim:heaps=7' gives it
        if isinstance(heaps, str | bytes) or not isinstance(heaps, Sequence):
            raise ArgumentTypeError(
                f"nim: heaps must be a sequence of ints such as (3, 4, 5), got {clip(repr(heaps))}"
            )
        self._initial = NimState(_check_heaps(tuple(heaps), clip(repr(heaps))), 0)

    def __repr__(self) -> str:
        return f"Nim(heaps={self._initial.heaps})"

    def native(self) -> Any:
        """The native port (:mod:`plies.games.nim._native`): the rules compiled."""
        from plies.games.nim._native import NimNative

        return NimNative(self)

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` is a :class:`NimState`: a tuple of 1 to
        :data:`MAX_HEAPS` heap sizes from 0 to :data:`MAX_HEAP`, player 0 or 1."""
        super().check_state(state)
        assert isinstance(state, NimState)
        heaps, player = state
        if not isinstance(heaps, tuple):
            problem = "its heaps are no tuple of ints"
        elif not 1 <= len(heaps) <= MAX_HEAPS or not all(
            whole(size) and 0 <= size <= MAX_HEAP for size in heaps
        ):
            problem = f"want 1 to {MAX_HEAPS} heaps of 0 to {MAX_HEAP:,}"
        elif not whole(player) or player not in (0, 1):
            problem = "its player is not 0 or 1"
        else:
            return
        raise PliesError(f"nim: {shown(repr(state))} is not a position ({problem})")

    @staticmethod
    def _check_move(move: object) -> tuple[int, int]:
        """``move`` as ``(heap, take)``; raise :class:`ArgumentTypeError` unless it is a
        pair of ints."""
        if not isinstance(move, tuple) or len(move) != 2:
            raise ArgumentTypeError(
                f"nim: a move is a NimMove(heap, take) pair, got {clip(repr(move))}"
            )
        heap, take = move
        if type(heap) is not int or type(take) is not int:
            raise ArgumentTypeError(f"nim: a move's heap and take are ints, got {clip(repr(move))}")
        return heap, take

    # -- rules ----------------------------------------------------------------------

    def initial_state(self) -> NimState:
        """The default heaps, player 0 to move."""
        return self._initial

    def to_move(self, state: NimState) -> int:
        """The player to move."""
        if type(state) is not NimState:
            self.check_state(state)
        return state.player

    def legal_moves(self, state: NimState) -> NimMoves:
        """Every (heap, count): heaps left to right, larger takes first (made lazily,
        see :class:`NimMoves`)."""
        if type(state) is not NimState:
            self.check_state(state)
        return NimMoves(state.heaps)

    def play(self, state: NimState, move: NimMove) -> NimState:
        """Remove ``move.take`` objects from heap ``move.heap``; the turn passes.

        Raises :class:`ArgumentTypeError` unless ``move`` is a pair of ints and
        :class:`IllegalMoveError` for a heap that does not exist or holds fewer.
        """
        self.check_state(state)
        heap, take = self._check_move(move)
        if not 0 <= heap < len(state.heaps):
            raise IllegalMoveError(
                f"nim: illegal move {clip(repr(move))}: no heap {heap} "
                f"(0-based, there are {len(state.heaps)})"
            )
        if not 1 <= take <= state.heaps[heap]:
            raise IllegalMoveError(
                f"nim: illegal move {clip(repr(move))}: cannot take {take} from heap "
                f"{heap}, which holds {state.heaps[heap]}"
            )
        return self.play_unchecked(state, _new_move(NimMove, (heap, take)))

    def play_unchecked(self, state: NimState, move: NimMove) -> NimState:
        """:meth:`play` for a legal move, without the checks."""
        try:  # no cost unless raised: a value that is no state, refused by its check
            heaps = list(state.heaps)
            heaps[move.heap] -= move.take
            return NimState(tuple(heaps), 1 - state.player)
        except (AttributeError, TypeError, ValueError):
            self.check_state(state)
            raise

    def remaining_plies(self, state: NimState) -> int:
        """The objects left: every move takes at least one."""
        if type(state) is not NimState:
            self.check_state(state)
        return sum(state.heaps)

    def is_terminal(self, state: NimState) -> bool:
        """Whether every heap is empty."""
        if type(state) is not NimState:
            self.check_state(state)
        return not any(state.heaps)

    def utility(self, state: NimState, player: int) -> float:
        """-1 for the player facing empty heaps (the other took the last object), +1 else."""
        self.check_state(state)
        check_player(player)
        return -1.0 if player == state.player else 1.0

    # -- search hooks ---------------------------------------------------------------

    def key(self, state: NimState) -> tuple[int, ...]:
        """The heaps: the value for the side to move does not depend on who that is.

        (Sorting the heaps would merge more states, but the table's moves name heaps
        by position, so states with one key must have the same moves.)
        """
        if type(state) is not NimState:
            self.check_state(state)
        return state.heaps

    def terminal_value(self, state: NimState) -> float | None:
        """-1 (a loss for the side to move) when every heap is empty, else None."""
        if type(state) is not NimState:
            self.check_state(state)
        return None if any(state.heaps) else -1.0

    def winning_move(self, state: NimState) -> NimMove | None:
        """Take the whole heap when only one heap is left (the last object wins)."""
        if type(state) is not NimState:
            self.check_state(state)
        non_empty = [i for i, size in enumerate(state.heaps) if size]
        if len(non_empty) == 1:
            return NimMove(non_empty[0], state.heaps[non_empty[0]])
        return None

    # -- notation -------------------------------------------------------------------

    def format_move(self, state: NimState, move: NimMove) -> str:
        """``H:N``: take N from heap H (1-based)."""
        self.check_state(state)
        heap, take = self._check_move(move)
        return f"{heap + 1}:{take}"

    def parse_move(self, state: NimState, text: str) -> NimMove:
        """Read ``H:N`` and check that heap H holds at least N objects."""
        heap_text, sep, count_text = need_text(text, "a move's text").strip().partition(":")
        self.check_state(state)
        if not sep:
            raise ParseError(f"nim: a move is HEAP:COUNT such as 2:3, got {shown(text)}")
        heap = read_int(heap_text, what="the heap of a move", game="nim") - 1
        count = read_int(count_text, what="the count of a move", game="nim")
        if not 0 <= heap < len(state.heaps):
            raise IllegalMoveError(f"nim: no heap {heap + 1} (heaps are 1-{len(state.heaps)})")
        if not 1 <= count <= state.heaps[heap]:
            raise IllegalMoveError(
                f"nim: cannot take {count} from heap {heap + 1}, which holds {state.heaps[heap]}"
            )
        return NimMove(heap, count)

    def parse_position(self, text: str) -> NimState:
        """Read heap sizes (``3,4,5``); empty text is the default start."""
        tokens = need_text(text, "a position's text").replace(",", " ").split()
        if not tokens:
            return self._initial
        if not all(token.isascii() and token.isdigit() for token in tokens):
            raise ParseError(f"nim: a position is heap sizes such as 3,4,5, got {shown(text)}")
        if len(tokens) > MAX_HEAPS:
            raise PliesError(f"nim: want 1 to {MAX_HEAPS} heaps, got {len(tokens):,}")
        sizes = tuple(read_int(t, what="a heap size", game="nim") for t in tokens)
        return NimState(_check_heaps(sizes, shown(text)), 0)

    def format_position(self, state: NimState) -> str:
        """The heap sizes joined by commas."""
        self.check_state(state)
        return ",".join(map(str, state.heaps))

    def render(self, state: NimState) -> str:
        """One line per heap: its number, size and objects."""
        self.check_state(state)
        return "\n".join(
            f"heap {i + 1}: {size:>2} {'|' * min(size, 60)}" for i, size in enumerate(state.heaps)
        )


def _check_heaps(heaps: tuple[int, ...], text: str) -> tuple[int, ...]:
    """Validate heap sizes; raise :class:`PliesError` naming ``text``."""
    if not heaps or len(heaps) > MAX_HEAPS:
        raise PliesError(f"nim: want 1 to {MAX_HEAPS} heaps, got {len(heaps)}: {text}")
    for size in heaps:
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MAX_HEAP:
            raise PliesError(f"nim: heap sizes must be integers 0-{MAX_HEAP}, got {text}")
    return heaps
