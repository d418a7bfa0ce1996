"""The native port of m,n,k-games (tic-tac-toe included), boards of up to 63 cells.

The state is ``[x, o, ply, won]`` (the Python state's bitboards as int64s); the
constants are ``[size, line count, lines..., cells in move order..., for each cell
the start of its lines in the list that follows (and the end), lines through each
cell...]``. A move is the 0-based cell, as in Python.

The loops over cells and lines have no data-dependent branches (a cell is written,
then kept or not; a line's test is or-ed in): on random positions of 5,5,4 that made
``legal_moves`` 52 -> 12 ns and ``winning_move`` (one pass over the lines instead of
the lines through every empty cell) 94 -> 9 ns, their own cost nearly all call and
loop (``terminal_value``, a load and a compare, costs 6 ns).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plies.engine.native import NativeGame, Prepared, int64_array, rule
from plies.games.mnk._rules import MNKGame, MNKState

__all__ = ["MNKNative"]

#: Most cells of a board the port takes (bitboards in an int64).
MAX_CELLS = 63

# consts: the header; the lines, the cells in move order and so on follow it.
SIZE, LINES = 0, 1
HEADER = 2


@rule("legal_moves")
def legal_moves(consts: Any, state: Any, out: Any) -> int:
    """Empty cells, most lines through them first; none once someone has won."""
    if state[3] != 0:
        return 0
    order = HEADER + consts[LINES]
    taken = state[0] | state[1]
    count = 0
    for i in range(consts[SIZE]):  # written always, kept if empty: no branch to miss
        cell = consts[order + i]
        out[count] = cell
        count += ((taken >> cell) & 1) ^ 1
    return count


@rule("play")
def play(consts: Any, state: Any, move: int, child: Any) -> None:
    """Mark the cell for the side to move; note whether it completed a line."""
    size, lines = consts[SIZE], consts[LINES]
    starts = HEADER + lines + size
    child[0], child[1], child[2] = state[0], state[1], state[2] + 1
    side = state[2] & 1
    mine = child[side] | (np.int64(1) << move)
    child[side] = mine
    won = False
    first = starts + size + 1
    for i in range(consts[starts + move], consts[starts + move + 1]):
        line = consts[first + i]
        won |= mine & line == line
    child[3] = won


@rule("terminal_value")
def terminal_value(consts: Any, state: Any) -> float:
    """-1 for the side to move after the opponent's winning mark, 0 on a full board."""
    if state[3] != 0:
        return -1.0
    if state[2] == consts[SIZE]:
        return 0.0
    return np.nan


@rule("evaluate")
def evaluate(consts: Any, state: Any) -> float:
    """Open lines of the side to move minus the opponent's (the Python evaluate)."""
    x, o = state[0], state[1]
    score = 0
    for i in range(consts[LINES]):
        line = consts[HEADER + i]
        if line & o == 0:
            if line & x != 0:
                score += 1
        elif line & x == 0:
            score -= 1
    return float(score if state[2] & 1 == 0 else -score)


@rule("key")
def key(consts: Any, state: Any) -> np.uint64:
    """``x | o << size`` while it fits 64 bits, else a hash of the two bitboards."""
    size = consts[SIZE]
    x, o = np.uint64(state[0]), np.uint64(state[1])
    if size <= 32:
        return x | (o << np.uint64(size))
    h = x * np.uint64(0x9E3779B97F4A7C15) ^ o
    h ^= h >> np.uint64(31)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return h ^ (h >> np.uint64(29))


@rule("winning_move")
def winning_move(consts: Any, state: Any) -> int:
    """The first cell (in move order) completing a line for the side to move, or -1."""
    if state[3] != 0:
        return -1
    size, lines = consts[SIZE], consts[LINES]
    theirs = state[(state[2] & 1) ^ 1]
    empty = ~(state[0] | state[1])
    wins = 0  # the empty cell of every line free of theirs with one empty cell
    for i in range(lines):
        line = consts[HEADER + i]
        cells = line & empty  # (none: a line of mine, impossible while the game is on)
        if line & theirs == 0 and cells & (cells - 1) == 0:
            wins |= cells
    if wins == 0:
        return -1
    order = HEADER + lines
    for i in range(size):
        cell = consts[order + i]
        if (wins >> cell) & 1:
            return cell  # type: ignore[no-any-return]
    return -1


class MNKNative(NativeGame[MNKState, int]):
    """The adapter of :class:`~plies.games.mnk.MNKGame` (boards up to 63 cells)."""

    legal_moves = legal_moves
    play = play
    terminal_value = terminal_value
    evaluate = evaluate
    key = key
    winning_move = winning_move

    def __init__(self, game: MNKGame) -> None:
        self.game = game
        self._consts: Any = None

    def problem(self, state: MNKState | None) -> str | None:
        """Boards above :data:`MAX_CELLS` cells have no port."""
        if self.game.size > MAX_CELLS:
            return f"{self.game.name} has no native port: boards of at most {MAX_CELLS} cells"
        return None

    def consts(self) -> Any:
        """The board's constants (made once)."""
        if self._consts is None:
            game = self.game
            lines = list(game._all_lines)
            through = [list(game._lines_through[c]) for c in range(game.size)]
            starts = [0]
            for cell_lines in through:
                starts.append(starts[-1] + len(cell_lines))
            flat = [line for cell_lines in through for line in cell_lines]
            self._consts = int64_array(
                [game.size, len(lines), *lines, *game._order, *starts, *flat]
            )
        return self._consts

    def encode(self, prepared: Prepared, state: MNKState) -> Any:
        """``[x, o, ply, won]``."""
        return int64_array([state.x, state.o, state.ply, int(state.won)])

    def prepare(self, state: MNKState) -> Prepared:
        """The board's constants and the state; moves and plies: the empty cells."""
        size = self.game.size
        prepared = Prepared(self.consts(), None, max_moves=size, max_plies=size - state.ply,
                            move_space=size)  # fmt: skip
        prepared.state = self.encode(prepared, state)
        return prepared

    def encode_move(self, prepared: Prepared, move: int) -> int:
        """The cell."""
        return move

    def decode_move(self, prepared: Prepared, move: int) -> int:
        """The cell."""
        return int(move)
