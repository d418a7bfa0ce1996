"""m,n,k-games: tic-tac-toe and its larger relatives.

Two players (``x`` moves first, then ``o``) take turns marking empty cells of a board
``m`` columns wide and ``n`` rows high; the first to get ``k`` marks in a row
(horizontally, vertically or diagonally) wins, a full board without one is a draw.
Tic-tac-toe is the 3,3,3 game.

Cells are numbered 1 to ``m * n`` row by row from the top left, so tic-tac-toe reads::

    1 2 3
    4 5 6
    7 8 9

A POSITION is either the moves played from the empty board (``5 1 9``; on boards of
at most nine cells the spaces may be left out: ``519``) or a board, rows from the top
joined by ``/`` with ``x``, ``o`` and ``.`` (``x.o/.x./..o``).

Internally a move is the 0-based cell index and a state holds two bitboards.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from plies._arguments import need_text
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError
from plies.game import BaseGame, Board
from plies.games.text import check_player, int_move_type, read_int, shown, whole

__all__ = ["MNKGame", "MNKState"]

_MARKS = ".xo"

#: Longest side of a board (256 cells; a guard against typos, not a rule).
MAX_SIDE = 16


class MNKState(NamedTuple):
    """A position: ``x`` and ``o`` are bitboards (bit ``i`` = cell ``i + 1``).

    ``ply`` counts the marks on the board (``x`` moves when it is even) and ``won``
    tells whether the player who just moved completed ``k`` in a row.
    """

    x: int
    o: int
    ply: int
    won: bool


# tuple.__new__ skips the NamedTuple's generated __new__ (about half the cost).
_new_state = tuple.__new__


class MNKGame(BaseGame[MNKState, int]):
    """The m,n,k-game on ``m`` columns x ``n`` rows, ``k`` in a row wins (default 3,3,3)."""

    name = "mnk"
    #: Only the mark completing k in a row wins; a full board is a draw.
    last_mover_wins = True
    state_type = MNKState

    def __init__(self, m: int = 3, n: int = 3, k: int = 3) -> None:
        for label, value in (("m", m), ("n", n), ("k", k)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ArgumentTypeError(f"mnk: {label} must be an integer, got {value!r}")
            if not 1 <= value <= MAX_SIDE:
                raise PliesError(f"mnk: {label} must be from 1 to {MAX_SIDE}, got {value}")
        if k > max(m, n):
            raise PliesError(
                f"mnk: k must be from 1 to {max(m, n)} on a {m}x{n} board (the longer side), "
                f"got {k}"
            )
        self.m, self.n, self.k = m, n, k
        self.size = m * n
        #: The name in messages: the customary one (``tictactoe`` for 3,3,3); the
        #: registry renames the game as it was asked for (``mnk:m=4,n=4,k=3``).
        self.name = "tictactoe" if (m, n, k) == (3, 3, 3) else f"mnk:m={m},n={n},k={k}"
        lines = _lines(m, n, k)
        self._all_lines = tuple(lines)
        #: For each cell, the bitmasks of the k-lines through it.
        self._lines_through = tuple(
            tuple(line for line in lines if line >> cell & 1) for cell in range(self.size)
        )
        # Cells through which most lines pass first (centre, then corners on 3x3): a
        # static move order that lets alpha-beta cut early.
        self._order = tuple(
            sorted(range(self.size), key=lambda c: (-len(self._lines_through[c]), c))
        )
        self._full = (1 << self.size) - 1
        self._initial = _new_state(MNKState, (0, 0, 0, False))

    def __repr__(self) -> str:
        return f"MNKGame(m={self.m}, n={self.n}, k={self.k})"

    def native(self) -> Any:
        """The native port (:mod:`plies.games.mnk._native`): the rules compiled."""
        from plies.games.mnk._native import MNKNative

        return MNKNative(self)

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` is an :class:`MNKState` that a game on this board
        reaches: marks on its cells only, never two on one, as many x as o or one
        more, ``ply`` counting them and ``won`` saying whether the last mover has
        k in a row (and the other has not)."""
        super().check_state(state)
        assert isinstance(state, MNKState)
        x, o, ply, won = state
        if not (whole(x) and whole(o) and whole(ply) and isinstance(won, bool)):
            raise PliesError(f"{self.name}: {shown(repr(state))} is not a position (field types)")
        nx, no = x.bit_count(), o.bit_count()
        problem = None
        if x < 0 or o < 0 or (x | o) >> self.size or x & o:
            problem = "marks off the board or on one another"
        elif nx - no not in (0, 1) or ply != nx + no:
            problem = f"{nx} x and {no} o marks at ply {ply}"
        elif won != (self._has_line(o if ply & 1 == 0 else x)) or self._has_line(
            x if ply & 1 == 0 else o
        ):
            problem = "its won flag does not match the lines on the board"
        if problem:
            raise PliesError(f"{self.name}: {shown(repr(state))} is not a position ({problem})")

    def _check_move(self, move: object) -> None:
        """Raise unless ``move`` is an int naming a cell of the board."""
        int_move_type(move, game=self.name)
        assert isinstance(move, int)
        if not 0 <= move < self.size:
            raise IllegalMoveError(
                f"{self.name}: no cell {move} (cells are 0-{self.size - 1}, 0-based)"
            )

    # -- rules ----------------------------------------------------------------------

    def initial_state(self) -> MNKState:
        """The empty board, ``x`` to move."""
        return self._initial

    def to_move(self, state: MNKState) -> int:
        """0 (``x``) when an even number of marks is down, else 1 (``o``)."""
        if type(state) is not MNKState:
            self.check_state(state)
        return state.ply & 1

    def legal_moves(self, state: MNKState) -> list[int]:
        """Empty cells, most lines through them first; none once the game is over."""
        if type(state) is not MNKState:
            self.check_state(state)
        if state.won:
            return []
        taken = state.x | state.o
        return [c for c in self._order if not taken >> c & 1]

    def play(self, state: MNKState, move: int) -> MNKState:
        """Mark cell ``move`` (0-based) for the side to move.

        Raises :class:`ArgumentTypeError` for a move that is not an int and
        :class:`IllegalMoveError` for a cell off the board, a taken cell or a
        finished game.
        """
        self.check_state(state)
        int_move_type(move, game=self.name)
        if not 0 <= move < self.size:
            raise IllegalMoveError(
                f"{self.name}: illegal move {move}: cells are 0-{self.size - 1} "
                f"(0-based; cell {move + 1} in the notation)"
            )
        if self.is_terminal(state):
            raise IllegalMoveError(f"{self.name}: illegal move {move}: the game is over")
        if (state.x | state.o) >> move & 1:
            raise IllegalMoveError(f"{self.name}: illegal move {move}: the cell is taken")
        return self.play_unchecked(state, move)

    def play_unchecked(self, state: MNKState, move: int) -> MNKState:
        """:meth:`play` for a legal move, without the checks (the engine's path)."""
        try:  # no cost unless raised: a value that is no state, refused by its check
            x, o, ply, _ = state
            bit = 1 << move
            if ply & 1:
                o |= bit
                mine = o
            else:
                x |= bit
                mine = x
            won = False
            for line in self._lines_through[move]:
                if mine & line == line:
                    won = True
                    break
            return _new_state(MNKState, (x, o, ply + 1, won))
        except (AttributeError, TypeError, ValueError):
            self.check_state(state)
            raise

    def is_terminal(self, state: MNKState) -> bool:
        """Whether someone has ``k`` in a row or the board is full."""
        if type(state) is not MNKState:
            self.check_state(state)
        return state.won or state.ply == self.size

    def utility(self, state: MNKState, player: int) -> float:
        """+1 if ``player`` completed a line, -1 if the opponent did, 0 otherwise."""
        self.check_state(state)
        check_player(player)
        if not state.won:
            return 0.0
        return 1.0 if (state.ply - 1) & 1 == player else -1.0

    # -- search hooks ---------------------------------------------------------------

    def key(self, state: MNKState) -> int:
        """One integer: the ``x`` bits, then the ``o`` bits above them."""
        if type(state) is not MNKState:
            self.check_state(state)
        return state.x | state.o << self.size

    def remaining_plies(self, state: MNKState) -> int:
        """The empty cells: the game ends when the board is full, if not before."""
        if type(state) is not MNKState:
            self.check_state(state)
        return self.size - state.ply

    def terminal_value(self, state: MNKState) -> float | None:
        """-1 for the side to move if the last move won, 0 on a full board, else None."""
        if type(state) is not MNKState:
            self.check_state(state)
        if state.won:
            return -1.0
        if state.ply == self.size:
            return 0.0
        return None

    def evaluate(self, state: MNKState, player: int) -> float:
        """Open lines: lines holding marks of ``player`` only, minus the opponent's."""
        if type(state) is not MNKState:
            self.check_state(state)
        x, o = state.x, state.o
        score = 0
        for line in self._all_lines:
            if not line & o:
                score += bool(line & x)
            elif not line & x:
                score -= 1
        return float(score if player == 0 else -score)

    def winning_move(self, state: MNKState) -> int | None:
        """A cell that completes ``k`` in a row for the side to move, if there is one."""
        if type(state) is not MNKState:
            self.check_state(state)
        if state.won:
            return None
        mine = state.o if state.ply & 1 else state.x
        taken = state.x | state.o
        for cell in self._order:
            if taken >> cell & 1:
                continue
            with_cell = mine | 1 << cell
            for line in self._lines_through[cell]:
                if with_cell & line == line:
                    return cell
        return None

    # -- notation -------------------------------------------------------------------

    def format_move(self, state: MNKState, move: int) -> str:
        """The 1-based cell number."""
        self.check_state(state)
        self._check_move(move)
        return str(move + 1)

    def parse_move(self, state: MNKState, text: str) -> int:
        """Read a 1-based cell number and check that the cell is free."""
        need_text(text, "a move's text")
        self.check_state(state)
        return self._parse_move(state, text)

    def _parse_move(self, state: MNKState, text: str) -> int:
        """:meth:`parse_move` of a state known to be one (parse_position's own)."""
        stripped = text.strip()
        if not (stripped.isascii() and stripped.isdigit()):
            raise ParseError(
                f"{self.name}: a move is a cell number 1-{self.size}, got {shown(text)}"
            )
        cell = read_int(stripped, what="a cell", game=self.name) - 1
        if not 0 <= cell < self.size:
            raise IllegalMoveError(f"{self.name}: no cell {stripped} (cells are 1-{self.size})")
        if self.is_terminal(state):
            raise IllegalMoveError(f"{self.name}: cannot play {stripped}: the game is over")
        if (state.x | state.o) >> cell & 1:
            raise IllegalMoveError(f"{self.name}: cannot play {stripped}: the cell is taken")
        return cell

    def parse_position(self, text: str) -> MNKState:
        """Read moves (``5 1 9``, ``519``) or a board (``x.o/.x./..o``); empty = start."""
        stripped = need_text(text, "a position's text").strip()
        if any(ch in stripped.lower() for ch in "xo./"):
            return self._parse_board(stripped)
        tokens = stripped.replace(",", " ").split()
        if len(tokens) == 1 and self.size <= 9 and len(tokens[0]) > 1:
            tokens = list(tokens[0])
        state = self._initial
        for token in tokens:
            state = self.play_unchecked(state, self._parse_move(state, token))
        return state

    def _parse_board(self, text: str) -> MNKState:
        rows = text.lower().split("/")
        if len(rows) != self.n or any(len(row) != self.m for row in rows):
            raise ParseError(
                f"{self.name}: a board is {self.n} rows of {self.m} cells joined by '/', "
                f"got {shown(text)}"
            )
        x = o = 0
        for cell, ch in enumerate("".join(rows)):
            if ch not in _MARKS:
                raise ParseError(
                    f"{self.name}: unexpected {ch!r} in board {shown(text)}", column=cell + 1
                )
            if ch == "x":
                x |= 1 << cell
            elif ch == "o":
                o |= 1 << cell
        nx, no = x.bit_count(), o.bit_count()
        if nx not in (no, no + 1):
            raise IllegalMoveError(f"{self.name}: board {shown(text)} has {nx} x and {no} o marks")
        x_won, o_won = self._has_line(x), self._has_line(o)
        if (x_won and o_won) or (x_won and nx == no) or (o_won and nx > no):
            raise IllegalMoveError(f"{self.name}: board {shown(text)} cannot arise in a game")
        return _new_state(MNKState, (x, o, nx + no, x_won or o_won))

    def _has_line(self, marks: int) -> bool:
        return any(marks & line == line for line in self._all_lines)

    def format_position(self, state: MNKState) -> str:
        """The board, rows from the top joined by ``/`` (``x.o/.x./..o``)."""
        self.check_state(state)
        cells = "".join(
            "x" if state.x >> c & 1 else "o" if state.o >> c & 1 else "." for c in range(self.size)
        )
        return "/".join(cells[r * self.m : (r + 1) * self.m] for r in range(self.n))

    def player_names(self) -> tuple[str, str]:
        """``X`` and ``O``."""
        from plies.games.mnk._view import PLAYER_NAMES

        return PLAYER_NAMES

    def board(self, state: MNKState) -> Board:
        """The board for the game room (see :mod:`._view`)."""
        from plies.games.mnk._view import mnk_board

        return mnk_board(self, state)

    def render(self, state: MNKState) -> str:
        """The board as a grid; empty cells show their number."""
        self.check_state(state)
        width = len(str(self.size))
        lines = []
        for r in range(self.n):
            row = []
            for c in range(r * self.m, (r + 1) * self.m):
                mark = "X" if state.x >> c & 1 else "O" if state.o >> c & 1 else str(c + 1)
                row.append(mark.rjust(width))
            lines.append(" ".join(row))
        return "\n".join(lines)


def _lines(m: int, n: int, k: int) -> list[int]:
    """Bitmasks of every run of ``k`` cells in a row on an ``m`` x ``n`` board."""
    lines = []
    for row in range(n):
        for col in range(m):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                end_col, end_row = col + (k - 1) * dc, row + (k - 1) * dr
                if 0 <= end_col < m and 0 <= end_row < n:
                    lines.append(sum(1 << ((row + i * dr) * m + col + i * dc) for i in range(k)))
    return lines
