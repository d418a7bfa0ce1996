"""Rolit: four-player Othello, as the Maastricht papers play it (Schadd and Winands
2011, Nijssen and Winands), on 64-bit bitboards.

Four players, Red (0), Yellow (1), Green (2) and Blue (3), move in that order, Red
first. Each starts with one disc in the centre square: Red on d4, Yellow on e4, Blue
on d5 and Green on e5 (so the turn goes round the square). A move places one disc of
the player's colour on an empty square:

* if the player can capture, it must: the disc must outflank at least one line of
  other players' discs (any colours, no gap) against a disc of its own, as in
  Othello, and every outflanked disc in every direction turns to its colour;
* otherwise (no capture exists, say because it has no disc left) it may place the
  disc on any empty square next to a disc (in any of the eight directions).

So a player always has a move until the board is full, and the game ends then, after
60 moves. Payoffs (our choice, documented in :meth:`Rolit.utility`): the players with
the most discs share a payoff of 1 equally, the others get 0.

Squares are written ``a1`` to ``h8`` as in Othello: files a-h left to right, ranks
1-8 top to bottom; ``a1`` is bit 0, ``h8`` bit 63. A move is a square index 0-63.

A POSITION is either the moves from the start (``f4 c3 ...``, with or without spaces
or commas, any case) or a board: 64 characters ``R``, ``Y``, ``G``, ``B`` and ``-``
or ``.`` (rank 1 first, ``/`` and spaces between ranks allowed) and then the player to
move ``R``, ``Y``, ``G`` or ``B``. :meth:`Rolit.format_position` writes the board.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from plies._arguments import need_text
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError
from plies.game import BaseGame, Board
from plies.games.text import clip, int_move_type, shown, whole

__all__ = ["COLOURS", "PLAYERS", "Rolit", "RolitState", "format_square", "parse_square"]

#: The players' colours, in turn order, and their letters in a POSITION.
COLOURS = ("Red", "Yellow", "Green", "Blue")
LETTERS = "RYGB"
PLAYERS = len(COLOURS)

SQUARES = 64
_FULL = (1 << SQUARES) - 1
_NOT_A = 0xFEFEFEFEFEFEFEFE  # every square but file a: where an eastward step lands
_NOT_H = 0x7F7F7F7F7F7F7F7F  # every square but file h: where a westward step lands

#: The eight directions as (shift, landing mask): a positive shift moves towards h8.
_DIRECTIONS = (
    (1, _NOT_A),  # east
    (-1, _NOT_H),  # west
    (8, _FULL),  # south (towards rank 8)
    (-8, _FULL),  # north
    (9, _NOT_A),  # south-east
    (-9, _NOT_H),  # north-west
    (7, _NOT_H),  # south-west
    (-7, _NOT_A),  # north-east
)

_CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
#: What a corner disc adds to its owner's evaluation besides itself: a corner can
#: never be outflanked, so it is worth several ordinary discs.
CORNER_BONUS = 4

#: The start: Red d4, Yellow e4, Green e5, Blue d5.
_START = (1 << 27, 1 << 28, 1 << 36, 1 << 35)

_MOVE_TOKEN = re.compile(r"\s*(?:,\s*)?([a-h][1-8])", re.IGNORECASE)
_BOARD_CHARS = re.compile(r"[RYGB.\-]+")


class RolitState(NamedTuple):
    """A Rolit position: each player's discs (a 64-bit mask, in player order) and
    the player to move (0 Red, 1 Yellow, 2 Green, 3 Blue)."""

    discs: tuple[int, int, int, int]
    player: int


def format_square(square: int) -> str:
    """A square index 0-63 as ``a1``-``h8``."""
    return "abcdefgh"[square & 7] + str((square >> 3) + 1)


def parse_square(text: str) -> int:
    """``a1``-``h8`` (any case) as a square index 0-63."""
    token = text.strip().lower()
    if len(token) == 2 and token[0] in "abcdefgh" and token[1] in "12345678":
        return (int(token[1]) - 1) * 8 + "abcdefgh".index(token[0])
    raise ParseError(f"rolit: a move is a square a1-h8, got {shown(text)}")


def _step(mask: int, shift: int, landing: int) -> int:
    """``mask`` moved one square in a direction, squares that wrap a file dropped."""
    moved = mask << shift if shift > 0 else mask >> -shift
    return moved & landing


def _captures(mine: int, others: int) -> int:
    """The empty squares where a disc of ``mine`` outflanks some of ``others``."""
    empty = ~(mine | others) & _FULL
    found = 0
    for shift, landing in _DIRECTIONS:
        run = _step(mine, shift, landing) & others
        for _ in range(5):  # a run of other discs is at most 6 long
            run |= _step(run, shift, landing) & others
        found |= _step(run, shift, landing) & empty
    return found


def _neighbours(occupied: int) -> int:
    """The empty squares next to a disc."""
    near = 0
    for shift, landing in _DIRECTIONS:
        near |= _step(occupied, shift, landing)
    return near & ~occupied & _FULL


def _flips(mine: int, others: int, square: int) -> int:
    """The discs of ``others`` that a disc of ``mine`` on ``square`` outflanks."""
    flipped = 0
    for shift, landing in _DIRECTIONS:
        run = 0
        probe = _step(1 << square, shift, landing)
        while probe & others:
            run |= probe
            probe = _step(probe, shift, landing)
        if probe & mine:
            flipped |= run
    return flipped


def _squares(mask: int) -> list[int]:
    """The set squares of ``mask``, a1 first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class Rolit(BaseGame[RolitState, int]):
    """Rolit, four-player Othello on 8 x 8 (see the module documentation)."""

    name = "rolit"
    num_players = PLAYERS
    state_type = RolitState

    def __repr__(self) -> str:
        return "Rolit()"

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` is a :class:`RolitState`: four disjoint sets of
        discs on the 64 squares and the player 0 to 3."""
        super().check_state(state)
        assert isinstance(state, RolitState)
        discs, player = state
        if not (isinstance(discs, tuple) and len(discs) == PLAYERS and all(map(whole, discs))):
            problem = "its discs are not four ints"
        elif not whole(player) or player not in range(PLAYERS):
            problem = f"player {player!r}, not 0 to 3"
        elif (
            any(mask < 0 or mask & ~_FULL for mask in discs)
            or sum(mask.bit_count() for mask in discs)
            != (discs[0] | discs[1] | discs[2] | discs[3]).bit_count()
        ):
            problem = "discs off the board or on one another"
        else:
            return
        raise PliesError(f"rolit: {clip(repr(state))} is not a position ({problem})")

    # -- rules ------------------------------------------------------------------------

    def initial_state(self) -> RolitState:
        """The start: one disc each in the centre, Red to move."""
        return RolitState(_START, 0)

    def to_move(self, state: RolitState) -> int:
        """The player to move: 0 Red, 1 Yellow, 2 Green, 3 Blue."""
        if type(state) is not RolitState:
            self.check_state(state)
        return state.player

    def _move_mask(self, state: RolitState) -> int:
        """The squares the player to move may fill: its captures, or if it has none,
        every empty square next to a disc."""
        discs, player = state
        occupied = discs[0] | discs[1] | discs[2] | discs[3]
        mine = discs[player]
        captures = _captures(mine, occupied & ~mine) if mine else 0
        return captures or _neighbours(occupied)

    def legal_moves(self, state: RolitState) -> list[int]:
        """The squares the player to move may fill, a1 first (empty when the board is
        full)."""
        if type(state) is not RolitState:
            self.check_state(state)
        return _squares(self._move_mask(state))

    def play(self, state: RolitState, move: int) -> RolitState:
        """Place a disc on ``move`` and turn the outflanked discs.

        Raises :class:`ArgumentTypeError` for a move that is not an int and
        :class:`IllegalMoveError` (with the reason) for one that is not legal.
        """
        self.check_state(state)
        int_move_type(move, game="rolit")
        if not 0 <= move < SQUARES or not self._move_mask(state) >> move & 1:
            raise IllegalMoveError(self._illegal_reason(state, move))
        return self.play_unchecked(state, move)

    def play_unchecked(self, state: RolitState, move: int) -> RolitState:
        """:meth:`play` for a legal move, without the checks (the engine's path)."""
        discs, player = state
        mine = discs[player]
        flipped = _flips(mine, (discs[0] | discs[1] | discs[2] | discs[3]) & ~mine, move)
        after = tuple(
            (mask | flipped | 1 << move) if owner == player else (mask & ~flipped)
            for owner, mask in enumerate(discs)
        )
        return RolitState(after, (player + 1) % PLAYERS)  # type: ignore[arg-type]

    def is_terminal(self, state: RolitState) -> bool:
        """Whether the board is full."""
        if type(state) is not RolitState:
            self.check_state(state)
        discs = state.discs
        return discs[0] | discs[1] | discs[2] | discs[3] == _FULL

    def disc_counts(self, state: RolitState) -> tuple[int, ...]:
        """Every player's number of discs, in player order."""
        self.check_state(state)
        return tuple(mask.bit_count() for mask in state.discs)

    def utilities(self, state: RolitState) -> tuple[float, ...]:
        """The payoffs of a finished game: 1 shared equally by the players with the
        most discs, 0 for the others."""
        counts = self.disc_counts(state)
        most = max(counts)
        winners = counts.count(most)
        return tuple(1.0 / winners if count == most else 0.0 for count in counts)

    def utility(self, state: RolitState, player: int) -> float:
        """``player``'s payoff (see :meth:`utilities`): 1 for the sole winner, 1/k to
        each of k players tied for the most discs, 0 for the others."""
        return self.utilities(state)[self._player(player)]

    def utility_bounds(self) -> tuple[float, float]:
        """Payoffs lie between 0 and 1."""
        return (0.0, 1.0)

    @staticmethod
    def _player(player: object) -> int:
        """``player``, which must be 0 to 3."""
        if not whole(player):
            raise ArgumentTypeError(f"rolit: a player is 0 to 3, got {clip(repr(player))}")
        assert isinstance(player, int)
        if player not in range(PLAYERS):
            raise PliesError(f"rolit: a player is 0 to 3, got {player}")
        return player

    # -- search hooks -----------------------------------------------------------------

    def key(self, state: RolitState) -> int:
        """One integer: the four masks and the player to move."""
        if type(state) is not RolitState:
            self.check_state(state)
        red, yellow, green, blue = state.discs
        return red | yellow << 64 | green << 128 | blue << 192 | state.player << 256

    def evaluate(self, state: RolitState, player: int) -> float:
        """``player``'s discs, a corner counting :data:`CORNER_BONUS` more (a corner
        disc can never be turned)."""
        if type(state) is not RolitState:
            self.check_state(state)
        mine = state.discs[self._player(player)]
        return float(mine.bit_count() + CORNER_BONUS * (mine & _CORNERS).bit_count())

    def evaluations(self, state: RolitState) -> tuple[float, ...]:
        """:meth:`evaluate` for every player, in player order."""
        return tuple(self.evaluate(state, player) for player in range(PLAYERS))

    def with_turn(self, state: RolitState, player: int) -> RolitState:
        """The same discs with ``player`` to move (Best-Reply Search's passes)."""
        self.check_state(state)
        return RolitState(state.discs, self._player(player))

    # -- notation ---------------------------------------------------------------------

    def format_move(self, state: RolitState, move: int) -> str:
        """A square as ``d3``."""
        self.check_state(state)
        int_move_type(move, game="rolit")
        if not 0 <= move < SQUARES:
            raise IllegalMoveError(f"rolit: {move} is no square (0-63)")
        return format_square(move)

    def parse_move(self, state: RolitState, text: str) -> int:
        """Read ``d3`` and check it is legal in ``state``; raises :class:`ParseError`
        for malformed text and :class:`IllegalMoveError` with the reason."""
        move = parse_square(need_text(text, "a move's text"))
        self.check_state(state)
        if self._move_mask(state) >> move & 1:
            return move
        raise IllegalMoveError(self._illegal_reason(state, move))

    def _illegal_reason(self, state: RolitState, move: int) -> str:
        """The message for ``move``, which is not legal in ``state``."""
        if not 0 <= move < SQUARES:
            return f"rolit: illegal move {move}: a move is a square 0-63"
        legal = self._move_mask(state)
        if not legal:
            return f"rolit: {format_square(move)}: the game is over"
        discs = state.discs
        occupied = discs[0] | discs[1] | discs[2] | discs[3]
        if occupied >> move & 1:
            reason = "the square is occupied"
        elif legal != _neighbours(occupied):  # the legal moves are captures
            reason = "it captures nothing, and a capture is possible"
        else:
            reason = "it is next to no disc"
        listed = " ".join(format_square(square) for square in _squares(legal))
        return f"rolit: illegal move {format_square(move)} ({reason}; legal: {listed})"

    def parse_position(self, text: str) -> RolitState:
        """Read a move list from the start or a board with the player to move (see
        the module documentation). Raises :class:`ParseError` for text in neither
        form and :class:`IllegalMoveError` for an illegal move."""
        compact = re.sub(r"[\s/]+", "", need_text(text, "a position's text")).upper()
        if _BOARD_CHARS.fullmatch(compact) and len(compact) > 2:
            return self._parse_board(compact, text)
        state = self.initial_state()
        position, count = 0, 1
        stripped = text.rstrip()
        while position < len(stripped):
            match = _MOVE_TOKEN.match(stripped, position)
            if match is None:
                raise ParseError(
                    "rolit: expected a square a1-h8 in the move list",
                    column=position + 1,
                    found=repr(stripped[position : position + 8]),
                )
            try:
                move = self.parse_move(state, match.group(1))
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"{exc} (move {count} of the POSITION)") from None
            state = self.play_unchecked(state, move)
            position, count = match.end(), count + 1
        return state

    def _parse_board(self, compact: str, text: str) -> RolitState:
        """A board of 64 cells and the player to move (``compact``: upper case, no
        separators)."""
        if len(compact) != SQUARES + 1 or compact[SQUARES] not in LETTERS:
            raise ParseError(
                "rolit: a board is 64 characters R, Y, G, B, - or . and then the player "
                f"to move R, Y, G or B, got {len(compact):,} characters: {shown(text.strip())}"
            )
        discs = tuple(
            sum(1 << i for i, cell in enumerate(compact[:SQUARES]) if cell == letter)
            for letter in LETTERS
        )
        state = RolitState(discs, LETTERS.index(compact[SQUARES]))  # type: ignore[arg-type]
        if not any(discs):
            raise ParseError("rolit: a board needs at least one disc")
        return state

    def format_position(self, state: RolitState) -> str:
        """The board as 64 characters ``R``/``Y``/``G``/``B``/``-`` (rank 1 first), a
        space and the player to move's letter."""
        self.check_state(state)
        return f"{''.join(self._cells(state))} {LETTERS[state.player]}"

    def _cells(self, state: RolitState) -> list[str]:
        """Each square's letter (``-`` empty), a1 first."""
        cells = ["-"] * SQUARES
        for letter, mask in zip(LETTERS, state.discs, strict=True):
            for square in _squares(mask):
                cells[square] = letter
        return cells

    def render(self, state: RolitState) -> str:
        """The board with files and ranks, the disc counts and the player to move."""
        cells = "".join(self._cells(state)).replace("-", ".")
        lines = ["  a b c d e f g h"]
        for rank in range(8):
            lines.append(f"{rank + 1} {' '.join(cells[rank * 8 : rank * 8 + 8])}")
        counts = ", ".join(
            f"{colour} {count}"
            for colour, count in zip(COLOURS, self.disc_counts(state), strict=True)
        )
        over = self.is_terminal(state)
        lines.append(f"{counts}; {'game over' if over else COLOURS[state.player] + ' to move'}")
        return "\n".join(lines)

    def native(self) -> Any:
        """The native rules (:mod:`plies.games.rolit._native`), compiled with Numba
        when first asked for; they take no task of the two-player kernel."""
        from plies.games.rolit._native import RolitNative

        return RolitNative(self)

    def player_names(self) -> tuple[str, ...]:
        """The colours, in player order: Red, Yellow, Green, Blue."""
        return COLOURS

    def board(self, state: RolitState) -> Board:
        """The board for the game room (see :mod:`._view`)."""
        from plies.games.rolit._view import rolit_board

        return rolit_board(self, state)
