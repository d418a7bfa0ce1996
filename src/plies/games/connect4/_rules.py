"""Connect Four on bitboards, any width x height (default 7 x 6).

The board uses the classic layout of John Tromp and Pascal Pons: each column takes
``height + 1`` bits, bottom cell first, and the extra bit on top of every column stays
empty (a sentinel that stops shifted lines from wrapping into the next column). A
state holds two integers:

* ``position``: the stones of the side to move,
* ``mask``: every stone on the board,

so the stones of the side that just moved are ``position ^ mask``, and
``position + mask`` is a compact key unique per position (it sets the bit above the
top stone of every column; the side to move is the parity of the stone count).

Moves are 1-based columns, 1 being the leftmost. A position is written as the moves
played from the empty board: ``4453``. On boards wider than 9 columns moves are
separated by commas (``10,4,11``); commas and spaces are accepted on any board.

Besides the game protocol the module offers what an exact solver in the style of Pons
needs: :meth:`Connect4.can_win_next`, :meth:`Connect4.non_losing_moves`,
:meth:`Connect4.move_threats`, :meth:`Connect4.solver_score` and
:meth:`Connect4.score_bounds`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from plies._arguments import need_text
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError
from plies.game import BaseGame, Board
from plies.games.text import check_player, check_result, int_move_type, read_int, shown, whole

__all__ = ["Connect4", "Connect4State"]

#: Smallest and largest width or height accepted (the bitboard itself has no limit;
#: keys fit one 64-bit word when ``width * (height + 1) <= 64``, e.g. 7 x 6 or 8 x 7).
MIN_SIZE = 1
MAX_SIZE = 16

_SEPARATORS = re.compile(r"[\s,]+")


class Connect4State(NamedTuple):
    """An immutable Connect Four position; make states with :class:`Connect4`.

    ``position`` holds the stones of the side to move, ``mask`` every stone, ``ply``
    the number of stones played and ``won`` whether the side that just moved completed
    a line of four (then the side to move has lost). ``ply`` and ``won`` follow from
    ``position`` and ``mask``; they are kept so the search never recomputes them.
    """

    position: int
    mask: int
    ply: int
    won: bool

    @property
    def key(self) -> int:
        """``position + mask``: one integer, unique per position."""
        return self.position + self.mask


# Creating a NamedTuple through tuple.__new__ skips the generated __new__ and its
# argument handling: 0.34 us instead of 0.72 us per state (CPython 3.11).
_new_state = tuple.__new__


def _line_count_table(width: int, height: int) -> list[list[int]]:
    """For every cell (column, row), the number of four-in-a-row lines through it."""
    counts = [[0] * height for _ in range(width)]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for col in range(width):
            for row in range(height):
                end_col, end_row = col + 3 * dc, row + 3 * dr
                if 0 <= end_col < width and 0 <= end_row < height:
                    for i in range(4):
                        counts[col + i * dc][row + i * dr] += 1
    return counts


class Connect4(BaseGame[Connect4State, int]):
    """Connect Four on a ``width`` x ``height`` board (default 7 x 6).

    The first player to line up four stones horizontally, vertically or diagonally
    wins; a full board without a line is a draw. States are :class:`Connect4State`
    tuples; every method takes and returns them without mutating anything.
    """

    name = "connect4"
    #: Connect Four has no chance nodes.
    has_chance = False
    #: Only the stone that completes four wins; a full board is a draw.
    last_mover_wins = True
    state_type = Connect4State

    def __init__(self, width: int = 7, height: int = 6) -> None:
        for label, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ArgumentTypeError(f"connect4 {label} must be an integer, got {value!r}")
            if not MIN_SIZE <= value <= MAX_SIZE:
                raise PliesError(
                    f"connect4 {label} must be between {MIN_SIZE} and {MAX_SIZE}, got {value}"
                )
        self.width = width
        self.height = height
        self.size = width * height
        h1 = height + 1
        self._h1 = h1
        # Shifts for the four directions: vertical, horizontal and both diagonals.
        self._shifts = (1, h1, h1 + 1, h1 - 1)
        self._four_shifts = tuple(k * d for d in self._shifts for k in (1, 2))
        # One, two and three steps along the horizontal and both diagonals.
        self._line_shifts = tuple(k * d for d in (h1, h1 + 1, h1 - 1) for k in (1, 2, 3))
        bottom = sum(1 << (c * h1) for c in range(width))
        self._bottom_mask = bottom
        self._board_mask = bottom * ((1 << height) - 1)
        # Indexed by the 1-based column; index 0 is unused.
        self._bottom = (0, *(1 << (c * h1) for c in range(width)))
        self._top = (0, *(1 << (c * h1 + height - 1) for c in range(width)))
        self._top_mask = sum(self._top)
        self._moves_by_full: dict[int, tuple[int, ...]] = {}
        # forced_moves: a set of landing cells (one per column at most), smeared down
        # to the bottom row by these shifts, keys its centre-first tuple of columns.
        # Together they reach exactly height - 1 rows down: never into the next column.
        smear: list[int] = []
        reach = 0
        while reach < height - 1:
            smear.append(min(reach + 1, height - 1 - reach))
            reach += smear[-1]
        self._smear = tuple(smear)
        self._moves_by_columns: dict[int, tuple[int, ...]] = {}
        # order_moves computes the threats of every move at once on a packed integer:
        # one copy of the board per column, slots far enough apart that no shift of
        # winning_cells carries a bit from one copy into another. Adding the bottom
        # bit of column c in slot c to the copies of the mask lands a stone in column c
        # of copy c (the carry stops at the sentinel), for all columns in one addition.
        slot = width * h1 + 3 * (h1 + 1)
        self._slot_mask = (1 << slot) - 1
        self._slot_shift = (0, *(slot * c for c in range(width)))
        self._replicate = sum(1 << (slot * c) for c in range(width))
        self._slot_bottoms = sum(1 << (slot * c + c * h1) for c in range(width))
        self._slot_columns = sum(
            (((1 << height) - 1) << (c * h1)) << (slot * c) for c in range(width)
        )
        # Key -> winning cells of the side that just moved, as order_moves found them
        # for the child of each move; forced_moves of that child then needs no
        # winning_cells call of its own. Bounded: cleared when it grows past this.
        self._threats: dict[int, int] = {}
        self._threats_capacity = 1 << 16
        self._column_mask = (0, *(((1 << height) - 1) << (c * h1) for c in range(width)))
        # Columns ordered centre first: the move-ordering hint every search wants.
        centre = (width - 1) / 2
        self._centre_order = tuple(
            c + 1 for c in sorted(range(width), key=lambda c: (abs(c - centre), c))
        )
        self._weights = _line_count_table(width, height)
        # The evaluation needs sum(weight of cell) over a set of stones. Splitting each
        # weight into its binary digits turns that into one popcount per digit (5 masks:
        # a cell lies on at most 16 lines) instead of one per distinct weight (9 on 7 x 6).
        weight_bits: list[int] = []
        for bit in range(5):
            m = 0
            for c in range(width):
                for r in range(height):
                    if self._weights[c][r] >> bit & 1:
                        m |= 1 << (c * h1 + r)
            weight_bits.append(m)
        self._weight_bits = tuple(weight_bits)
        self._initial = _new_state(Connect4State, (0, 0, 0, False))

    def __repr__(self) -> str:
        return f"Connect4(width={self.width}, height={self.height})"

    def native(self) -> Any:
        """The native port (:mod:`plies.engine.native`): the compiled search on every
        board, the exact solve by Pons' kernel where the board fits 64 bits."""
        from plies.games.connect4._solve import Connect4Port

        return Connect4Port(self)

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` is a :class:`Connect4State` a game on this board
        reaches: stones in its cells, stacked from the bottom of each column, as many
        for each side as the turn says, ``ply`` counting them and ``won`` saying
        whether the last mover has four in a row (and the other has not)."""
        super().check_state(state)
        assert isinstance(state, Connect4State)
        position, mask, ply, won = state
        if not (whole(position) and whole(mask) and whole(ply) and isinstance(won, bool)):
            problem = "its fields are not three ints and a bool"
        elif position < 0 or mask < 0 or mask & ~self._board_mask or position & ~mask:
            problem = "stones off the board"
        elif (mask + self._bottom_mask) & mask:
            problem = "stones floating above an empty cell"
        elif ply != mask.bit_count() or position.bit_count() != ply // 2:
            problem = f"{mask.bit_count()} stones at ply {ply}"
        elif won != self._has_four(position ^ mask) or self._has_four(position):
            problem = "its won flag does not match the lines on the board"
        else:
            return
        raise PliesError(f"connect4: {shown(repr(state))} is not a position ({problem})")

    def _check_move(self, move: object) -> int:
        """``move``, an int naming a column of the board."""
        int_move_type(move, game="connect4")
        assert isinstance(move, int)
        if not 1 <= move <= self.width:
            raise IllegalMoveError(f"connect4: illegal move {move}: the columns are 1-{self.width}")
        return move

    # -- rules ------------------------------------------------------------------------

    def initial_state(self) -> Connect4State:
        """The empty board, first player to move."""
        return self._initial

    def to_move(self, state: Connect4State) -> int:
        """0 for the first player (X), 1 for the second (O)."""
        if type(state) is not Connect4State:
            self.check_state(state)
        return state.ply & 1

    def legal_moves(self, state: Connect4State) -> tuple[int, ...]:
        """The columns that are not full, centre first; none once the game is over.

        The centre-first order is the move-ordering hint: central columns take part
        in more lines of four. The tuple is shared between calls (it is immutable).
        """
        if type(state) is not Connect4State:
            self.check_state(state)
        if state.won:
            return ()
        # One tuple per set of full columns, built on first use: a dict look-up
        # instead of a loop over the columns (1.7 us -> 0.45 us per call on 7 x 6).
        full = state.mask & self._top_mask
        moves = self._moves_by_full.get(full)
        if moves is None:
            top = self._top
            moves = tuple(c for c in self._centre_order if not full & top[c])
            self._moves_by_full[full] = moves
        return moves

    def play(self, state: Connect4State, move: int) -> Connect4State:
        """The state after dropping a stone in column ``move`` (1-based).

        Raises :class:`ArgumentTypeError` for a move that is not an int and
        :class:`IllegalMoveError` for a column off the board, a full column or a
        finished game.
        """
        self.check_state(state)
        self._check_move(move)
        if self.is_terminal(state):
            raise IllegalMoveError(f"connect4: illegal move {move}: the game is over")
        if state.mask & self._top[move]:
            raise IllegalMoveError(f"connect4: illegal move {move}: the column is full")
        return self.play_unchecked(state, move)

    def play_unchecked(self, state: Connect4State, move: int) -> Connect4State:
        """:meth:`play` for a legal move, without the checks (the engine's path)."""
        try:  # no cost unless raised: a value that is no state, refused by its check
            position, mask, ply, _ = state
            new_mask = mask | (mask + self._bottom[move])
            # Four-in-a-row test of the mover's stones, unrolled, with the shifts and
            # their doubles precomputed and no bool() calls (was a loop over the four
            # shifts calling _has_four: 2.0 us -> 1.8 us -> 1.3 us per play on 7 x 6).
            stones = position | (new_mask ^ mask)
            v1, v2, h1, h2, d1, d2, a1, a2 = self._four_shifts
            m = stones & (stones >> v1)
            if m & (m >> v2):
                won = True
            else:
                m = stones & (stones >> h1)
                if m & (m >> h2):
                    won = True
                else:
                    m = stones & (stones >> d1)
                    if m & (m >> d2):
                        won = True
                    else:
                        m = stones & (stones >> a1)
                        won = m & (m >> a2) != 0
            return _new_state(Connect4State, (position ^ mask, new_mask, ply + 1, won))
        except (AttributeError, TypeError, ValueError):
            self.check_state(state)
            raise

    def is_terminal(self, state: Connect4State) -> bool:
        """Whether somebody has four in a row or the board is full."""
        if type(state) is not Connect4State:
            self.check_state(state)
        return state.won or state.ply == self.size

    def utility(self, state: Connect4State, player: int) -> float:
        """+1 if ``player`` completed four, -1 if the opponent did, 0 for a draw."""
        self.check_state(state)
        check_player(player)
        if not state.won:
            return 0.0
        return 1.0 if (state.ply - 1) & 1 == player else -1.0

    def winner(self, state: Connect4State) -> int | None:
        """The player (0 or 1) who completed four, or None (game on, or a draw)."""
        self.check_state(state)
        return (state.ply - 1) & 1 if state.won else None

    def _has_four(self, stones: int) -> bool:
        """Whether ``stones`` contain four in a row: two shift-and steps per direction."""
        for shift in self._shifts:
            m = stones & (stones >> shift)
            if m & (m >> (2 * shift)):
                return True
        return False

    # -- search hooks -----------------------------------------------------------------

    def key(self, state: Connect4State) -> int:
        """``position + mask``: one integer, unique per position."""
        if type(state) is not Connect4State:
            self.check_state(state)
        return state.position + state.mask

    def canonical_key(self, state: Connect4State) -> int:
        """The smaller of :meth:`key` and the key of the left-right mirror image: a
        board and its mirror have the same value (opening books store them once).

        ``position + mask`` keeps every column's bits inside the column (the carry
        stops at the empty sentinel bit), so mirroring the key column by column is
        the key of the mirrored board.
        """
        self.check_state(state)
        key = state.position + state.mask
        h1 = self._h1
        column = (1 << h1) - 1
        mirrored = 0
        for c in range(self.width):
            mirrored = (mirrored << h1) | ((key >> (c * h1)) & column)
        return min(key, mirrored)

    def terminal_value(self, state: Connect4State) -> float | None:
        """-1 if the side to move has lost, 0 on a full board, None while the game is on."""
        if type(state) is not Connect4State:
            self.check_state(state)
        if state.won:
            return -1.0
        return 0.0 if state.ply == self.size else None

    def evaluate(self, state: Connect4State, player: int) -> float:
        """:meth:`heuristic` seen by ``player`` (cell weights plus threats)."""
        if type(state) is not Connect4State:
            self.check_state(state)
        score = self.heuristic(state)
        return float(score if state.ply & 1 == player else -score)

    def winning_move(self, state: Connect4State) -> int | None:
        """A column where the side to move completes four now, or None."""
        if type(state) is not Connect4State:
            self.check_state(state)
        if state.won:
            return None
        wins = self.winning_cells(state.position, state.mask) & self.playable_cells(state)
        if not wins:
            return None
        return (wins & -wins).bit_length() // self._h1 + 1

    def forced_moves(self, state: Connect4State) -> Sequence[int] | None:
        """The moves that do not give the opponent a win next move (see
        :meth:`non_losing_moves`), centre first; asked once :meth:`winning_move`
        found no win."""
        if type(state) is not Connect4State:
            self.check_state(state)
        position, mask, _, won = state
        if won:
            return None
        playable = (mask + self._bottom_mask) & self._board_mask
        theirs = self._threats.get(position + mask)
        if theirs is None:
            theirs = self.winning_cells(position ^ mask, mask)
        cells = self._non_losing(theirs, playable)
        if cells == playable:  # the usual case: no move loses at once
            moves = self._moves_by_full.get(mask & self._top_mask)  # legal_moves, inlined
            return moves if moves is not None else self.legal_moves(state)
        if not cells:
            return ()
        for shift in self._smear:  # one bit per column, down to the bottom row
            cells |= cells >> shift
        columns = cells & self._bottom_mask
        moves = self._moves_by_columns.get(columns)
        if moves is None:
            bottom = self._bottom
            moves = tuple(c for c in self._centre_order if columns & bottom[c])
            self._moves_by_columns[columns] = moves
        return moves

    def order_moves(self, state: Connect4State, moves: Sequence[int]) -> Sequence[int]:
        """``moves`` by the number of threats each creates, most first, centre first
        among equals (Pons' order): a threat is an empty cell that would complete four
        for the mover.

        Every column is scored at once on a packed integer (one board copy per
        column). The winning cells found are remembered for :meth:`forced_moves` of
        the children.
        """
        if type(state) is not Connect4State:
            self.check_state(state)
        try:  # no cost unless raised
            if len(moves) < 2:
                return moves
            position, mask = state.position, state.mask
            replicate = self._replicate
            masks = mask * replicate
            landings = (masks + self._slot_bottoms) & self._slot_columns
            threats = self._line_ends(position * replicate | landings) & (
                (self._board_mask * replicate ^ masks) ^ landings
            )
            slot_mask, slot_shift = self._slot_mask, self._slot_shift
            cache = self._threats
            if len(cache) > self._threats_capacity:
                cache.clear()
            child_stones = position ^ mask
            bottom = self._bottom
            counts = {}
            for move in moves:
                cells = (threats >> slot_shift[move]) & slot_mask
                counts[move] = cells.bit_count()
                cache[child_stones + (mask | (mask + bottom[move]))] = cells  # the child's key
            return sorted(moves, key=counts.__getitem__, reverse=True)
        except (TypeError, IndexError):
            raise ArgumentTypeError(
                f"connect4: moves must be a sequence of columns 1-{self.width}, got "
                f"{shown(repr(moves))}"
            ) from None

    def remaining_plies(self, state: Connect4State) -> int:
        """The empty cells: the game ends when the board is full, if not before."""
        if type(state) is not Connect4State:
            self.check_state(state)
        return self.size - state.ply

    # -- evaluation -------------------------------------------------------------------

    def winning_cells(self, stones: int, mask: int) -> int:
        """Empty cells (playable or not) that would complete four for ``stones``."""
        try:
            return self._line_ends(stones) & (self._board_mask ^ mask)
        except TypeError:  # no cost unless raised: this is the solver's hot path
            raise ArgumentTypeError(
                f"connect4: stones and mask are ints, got {shown(repr(stones))} and "
                f"{shown(repr(mask))}"
            ) from None

    def _line_ends(self, p: int) -> int:
        """Cells (stones or not) that lie on a four with three stones of ``p``.

        Pons' compute_winning_position before its final mask, unrolled per direction
        with the shifts precomputed and shared (3.2 us -> 2.8 us per call on 7 x 6).
        In each direction, a cell completes a four when two stones lie on one side of
        it and a third beyond them or on the other side.
        """
        s1, s2, s3, t1, t2, t3, u1, u2, u3 = self._line_shifts
        result = (p << 1) & (p << 2) & (p << 3)  # vertical: only the cell on top
        left = p << s1
        right = p >> s1
        result |= (left & (p << s2) & ((p << s3) | right)) | (
            right & (p >> s2) & (left | (p >> s3))
        )
        left = p << t1
        right = p >> t1
        result |= (left & (p << t2) & ((p << t3) | right)) | (
            right & (p >> t2) & (left | (p >> t3))
        )
        left = p << u1
        right = p >> u1
        result |= (left & (p << u2) & ((p << u3) | right)) | (
            right & (p >> u2) & (left | (p >> u3))
        )
        return result

    def heuristic(self, state: Connect4State) -> int:
        """Static score for the side to move, in cell-weight units (positive is good).

        Each stone counts the number of four-lines through its cell (the classic
        3 4 5 7 5 4 3 table on 7 x 6); each empty cell that would complete a four
        counts 16 for its owner, and a threat playable right now by the side to move
        counts 512 (a win next move). Terminal states are not scored here.
        """
        if type(state) is not Connect4State:
            self.check_state(state)
        position, mask, _, _ = state
        opponent = position ^ mask
        # Unrolled over the five binary digits of the weights (1.5 us -> 0.9 us).
        w0, w1, w2, w3, w4 = self._weight_bits
        score = (
            (position & w0).bit_count()
            - (opponent & w0).bit_count()
            + (((position & w1).bit_count() - (opponent & w1).bit_count()) << 1)
            + (((position & w2).bit_count() - (opponent & w2).bit_count()) << 2)
            + (((position & w3).bit_count() - (opponent & w3).bit_count()) << 3)
            + (((position & w4).bit_count() - (opponent & w4).bit_count()) << 4)
        )
        own = self.winning_cells(position, mask)
        theirs = self.winning_cells(opponent, mask)
        if own & (mask + self._bottom_mask):
            score += 512
        return score + 16 * (own.bit_count() - theirs.bit_count())

    # -- solver helpers (Pons) --------------------------------------------------------

    def playable_cells(self, state: Connect4State) -> int:
        """Bitmask of the cells where a stone would land now, one per non-full column."""
        if type(state) is not Connect4State:
            self.check_state(state)
        return (state.mask + self._bottom_mask) & self._board_mask

    def move_bit(self, state: Connect4State, move: int) -> int:
        """The single bit of the cell where a stone dropped in column ``move`` lands."""
        self.check_state(state)
        self._check_move(move)
        return (state.mask + self._bottom[move]) & self._column_mask[move]

    def can_win_next(self, state: Connect4State) -> bool:
        """Whether the side to move can complete four with its next stone."""
        if type(state) is not Connect4State:
            self.check_state(state)
        return bool(self.winning_cells(state.position, state.mask) & self.playable_cells(state))

    def non_losing_moves_mask(self, state: Connect4State) -> int:
        """Bitmask of the landing cells of moves that do not lose at once.

        A move loses at once if it leaves the opponent a direct win: either the
        opponent already threatens a playable cell that we do not block, or our stone
        makes the cell above it playable for an opponent four. Two playable opponent
        threats mean every move loses (empty mask). Meant for states where
        :meth:`can_win_next` is false, as in Pons' solver.
        """
        if type(state) is not Connect4State:
            self.check_state(state)
        theirs = self.winning_cells(state.position ^ state.mask, state.mask)
        return self._non_losing(theirs, self.playable_cells(state))

    def _non_losing(self, theirs: int, playable: int) -> int:
        """Landing cells of the moves that do not lose at once, given the opponent's
        winning cells ``theirs`` and the ``playable`` cells (Pons' possibleNonLosingMoves):
        a threat of theirs must be blocked (two cannot be), and no stone may go right
        under one."""
        forced = playable & theirs
        if forced:
            if forced & (forced - 1):
                return 0
            playable = forced
        return playable & ~(theirs >> 1)

    def non_losing_moves(self, state: Connect4State) -> list[int]:
        """The columns of :meth:`non_losing_moves_mask`, centre first."""
        if type(state) is not Connect4State:
            self.check_state(state)
        cells = self.non_losing_moves_mask(state)
        column_mask = self._column_mask
        return [c for c in self._centre_order if cells & column_mask[c]]

    def move_threats(self, state: Connect4State, move: int) -> int:
        """How many empty cells would complete four for the mover after playing ``move``.

        Pons orders moves by this count (more threats first).
        """
        self.check_state(state)
        self._check_move(move)
        stones = state.position | self.move_bit(state, move)
        return self.winning_cells(stones, state.mask).bit_count()

    def solver_score(self, state: Connect4State) -> int:
        """Exact score of a finished game for the side to move, in Pons' convention.

        A win scores one more than the stones the winner has left to play (on 7 x 6:
        22 minus the stones it has placed), a loss the negation, a draw 0: faster wins
        score higher. Raises :class:`PliesError` if the game is not over.
        """
        self.check_state(state)
        if state.won:  # the winning stone was the ply-th: Pons' (size + 1 - moves) // 2
            return -((self.size + 2 - state.ply) // 2)
        if state.ply == self.size:
            return 0
        raise PliesError("solver_score needs a finished game")

    def exact_score(self, state: Connect4State, result: str, distance: int) -> int:
        """Pons' score of a solved position, from its result and distance in plies.

        The game ends with ``state.ply + distance`` stones on the board; a win scores
        ``(size + 2 - stones at the end) // 2`` for the side to move (on 7 x 6: 22 minus
        the winner's stones, so 18 at most, a win with its fourth stone, and 1 for a
        win with the last stone of the board), a loss the negation, a draw 0.
        :meth:`result_of_score` converts back.
        """
        self.check_state(state)
        check_result(result, distance)
        if result == "draw":
            return 0
        score = (self.size + 2 - state.ply - distance) // 2
        return score if result == "win" else -score

    def result_of_score(self, state: Connect4State, score: int) -> tuple[str, int]:
        """``(result, distance)`` for Pons' ``score`` of ``state``: the inverse of
        :meth:`exact_score` (a draw's distance is the empty cells, the longest game).

        The side to move wins with a stone of its own, an odd number of plies away,
        and loses on an even one. Raises :class:`PliesError` for a score no game from
        ``state`` can have.
        """
        self.check_state(state)
        return self.checked_result_of_score(state, score)

    def checked_result_of_score(self, state: Connect4State, score: int) -> tuple[str, int]:
        """:meth:`result_of_score` of a ``state`` checked already (the native solve's,
        whose argument checks ran before the search: a second check cost 2 us a solve)."""
        if not whole(score):
            raise ArgumentTypeError(f"connect4: a score is an int, got {shown(repr(score))}")
        low, high = self.score_bounds(state)
        if not low <= score <= high:
            raise PliesError(
                f"connect4: score {score} is impossible here (scores run {low} to {high})"
            )
        if score == 0:
            return "draw", self.size - state.ply
        end = self.size + 2 - 2 * abs(score)  # stones at the end, up to one more
        distance = end - state.ply
        if distance % 2 != (1 if score > 0 else 0):
            distance -= 1
        return ("win" if score > 0 else "loss"), distance

    def score_bounds(self, state: Connect4State) -> tuple[int, int]:
        """Bounds ``(lower, upper)`` on the exact score of ``state`` for the side to move.

        ``upper`` is the score of winning with the next stone and ``lower`` that of
        losing to the opponent's next stone; Pons' solver tightens both by one once
        :meth:`can_win_next` is false. For the empty 7 x 6 board: (-21, 21).
        """
        if type(state) is not Connect4State:
            self.check_state(state)
        return (-((self.size - state.ply) // 2), (self.size + 1 - state.ply) // 2)

    # -- notation ---------------------------------------------------------------------

    def format_move(self, state: Connect4State, move: int) -> str:
        """A move as its 1-based column number."""
        self.check_state(state)
        return str(self._check_move(move))

    def parse_move(self, state: Connect4State, text: str) -> int:
        """Read a 1-based column and check that it can be played in ``state``.

        Raises :class:`ParseError` for text that is not a column of this board and
        :class:`IllegalMoveError` for a full column or a finished game.
        """
        need_text(text, "a move's text")
        self.check_state(state)
        return self._parse_move(state, text)

    def _parse_move(self, state: Connect4State, text: str) -> int:
        """:meth:`parse_move` of a state known to be one (parse_position's own)."""
        stripped = text.strip()
        if not (stripped.isascii() and stripped.isdigit()):
            raise ParseError(
                f"connect4: a move is a column number 1-{self.width}, got {shown(text)}"
            )
        move = read_int(stripped, what="a column", game="connect4")
        if not 1 <= move <= self.width:
            raise ParseError(f"connect4: column {move} is not between 1 and {self.width}")
        if self.is_terminal(state):
            raise IllegalMoveError(f"connect4: cannot play column {move}, the game is over")
        if state.mask & self._top[move]:
            raise IllegalMoveError(f"connect4: cannot play column {move}, it is full")
        return move

    def parse_position(self, text: str) -> Connect4State:
        """Read the columns played from the empty board: ``4453`` or ``4,4,5,3``.

        Up to 9 columns every digit is a move and spaces or commas are optional;
        on wider boards moves must be separated by commas or spaces. Raises
        :class:`ParseError` or :class:`IllegalMoveError` naming the bad move.
        """
        text = need_text(text, "a position's text")
        tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
        if self.width <= 9:
            tokens = [digit for token in tokens for digit in token]
        state = self._initial
        for index, token in enumerate(tokens, start=1):
            try:
                move = self._parse_move(state, token)
            except PliesError as exc:
                raise type(exc)(f"{exc} (move {index} of {shown(text.strip())})") from None
            state = self.play_unchecked(state, move)
        return state

    def format_position(self, state: Connect4State) -> str:
        """A move sequence from the empty board reaching ``state``, as POSITION text.

        The state does not remember the order its stones were played in, so this
        rebuilds one order (taking stones off column tops, leftmost first, never
        through a finished game): :meth:`parse_position` reads it back to an equal
        state. Moves are digits, or comma-separated on boards wider than 9.
        """
        self.check_state(state)
        moves = self._move_sequence(state)
        separator = "" if self.width <= 9 else ","
        return separator.join(str(m) for m in moves)

    def _move_sequence(self, state: Connect4State) -> list[int]:
        """Columns leading from the empty board to ``state`` (backward search)."""
        # Undo stones one by one: the last mover's stone on top of some column, such
        # that the earlier position has no four. Dead ends are remembered by key, so
        # the search visits each sub-position at most once (it almost never backtracks).
        failed: set[int] = set()
        undone: list[int] = []

        def undo(mover: int, other: int, ply: int) -> bool:
            if ply == 0:
                return True
            mask = mover | other
            key = other + mask
            if key in failed:
                return False
            for col in range(1, self.width + 1):
                column = mask & self._column_mask[col]
                if not column:
                    continue
                top_stone = 1 << (column.bit_length() - 1)
                if not mover & top_stone:
                    continue
                before = mover ^ top_stone
                if self._has_four(before) or self._has_four(other):
                    continue
                if undo(other, before, ply - 1):
                    undone.append(col)
                    return True
            failed.add(key)
            return False

        last_mover = state.position ^ state.mask
        if not undo(last_mover, state.position, state.ply):
            raise PliesError("connect4: this position cannot arise in a game")
        return undone

    def player_names(self) -> tuple[str, str]:
        """``X (red)`` and ``O (yellow)``."""
        from plies.games.connect4._view import PLAYER_NAMES

        return PLAYER_NAMES

    def board(self, state: Connect4State) -> Board:
        """The board for the game room (see :mod:`._view`)."""
        from plies.games.connect4._view import connect4_board

        return connect4_board(self, state)

    def render(self, state: Connect4State) -> str:
        """The board as text, top row first: ``X`` first player, ``O`` second, ``.`` empty."""
        self.check_state(state)
        first = state.position if state.ply & 1 == 0 else state.position ^ state.mask
        lines = []
        for row in range(self.height - 1, -1, -1):
            cells = []
            for col in range(self.width):
                bit = 1 << (col * self._h1 + row)
                cells.append("." if not state.mask & bit else "X" if first & bit else "O")
            lines.append(" ".join(cells))
        lines.append(" ".join(str(c % 10) for c in range(1, self.width + 1)))
        return "\n".join(lines)
