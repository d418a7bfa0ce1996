"""A second, deliberately plain English draughts move generator, to check the bitboards.

The board is a dict from (row, column) on the 8 x 8 board (row 0 at the top, Black's
side) to a piece letter: ``b``/``w`` men, ``B``/``W`` kings. Nothing is shared with
:mod:`plies.games.checkers` but the square numbering of checkers literature (square 1
at row 0, column 1). The rules are written out as a player reads them: men step and
jump diagonally forward, kings both ways, a capture must be taken and goes on while it
can, a man that reaches the far row is crowned and stops, jumped pieces stay on the
board until the move ends and none is jumped twice. The tests compare it with the
bitboard game on random positions; ``benchmarks/checkers_perft.py`` times its perft.
"""

from __future__ import annotations

Board = dict[tuple[int, int], str]
#: A move: the squares visited (1-32), and the squares of the pieces it takes.
Move = tuple[tuple[int, ...], frozenset[int]]

KING_DIRECTIONS = ((1, -1), (1, 1), (-1, -1), (-1, 1))
DIRECTIONS = {
    "b": KING_DIRECTIONS[:2],  # Black moves down the board
    "w": KING_DIRECTIONS[2:],
    "B": KING_DIRECTIONS,
    "W": KING_DIRECTIONS,
}


def square_of(row: int, col: int) -> int:
    """The number (1-32) of the dark square at ``row``, ``col``."""
    return row * 4 + col // 2 + 1


def place_of(square: int) -> tuple[int, int]:
    """The (row, column) of square ``square``: odd columns on even rows, and back."""
    row = (square - 1) // 4
    return row, 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)


def on_board(row: int, col: int) -> bool:
    """Whether (row, col) is a square of the board."""
    return 0 <= row < 8 and 0 <= col < 8


def is_mine(piece: str | None, player: int) -> bool:
    """Whether ``piece`` belongs to ``player`` (0 Black, 1 White)."""
    return piece is not None and piece.lower() == "bw"[player]


def moves(board: Board, player: int) -> list[Move]:
    """Every legal move of ``player``: the captures if any, else the steps."""
    captures: dict[tuple[int, int, frozenset[int]], tuple[int, ...]] = {}
    for place, piece in sorted(board.items(), key=lambda item: square_of(*item[0])):
        if not is_mine(piece, player):
            continue
        rest = dict(board)
        del rest[place]  # the moving piece has left its square
        found: list[tuple[list[tuple[int, int]], set[tuple[int, int]]]] = []
        _jumps(rest, piece, [place], set(), found)
        for path, taken in found:
            squares = tuple(square_of(*p) for p in path)
            taken_squares = frozenset(square_of(*p) for p in taken)
            captures.setdefault((squares[0], squares[-1], taken_squares), squares)
    if captures:
        return [(path, taken) for (_, _, taken), path in captures.items()]
    steps: list[Move] = []
    for place, piece in board.items():
        if not is_mine(piece, player):
            continue
        for dr, dc in DIRECTIONS[piece]:
            target = (place[0] + dr, place[1] + dc)
            if on_board(*target) and target not in board:
                steps.append(((square_of(*place), square_of(*target)), frozenset()))
    return steps


def _jumps(
    board: Board,
    piece: str,
    path: list[tuple[int, int]],
    taken: set[tuple[int, int]],
    found: list[tuple[list[tuple[int, int]], set[tuple[int, int]]]],
) -> None:
    """Extend the jump ``path`` of ``piece`` every way it can go; record the ends."""
    player = 0 if piece.lower() == "b" else 1
    row, col = path[-1]
    went_on = False
    for dr, dc in DIRECTIONS[piece]:
        over, land = (row + dr, col + dc), (row + 2 * dr, col + 2 * dc)
        if not on_board(*land) or land in board or over in taken:
            continue
        if not is_mine(board.get(over), 1 - player):
            continue
        went_on = True
        crowned = piece.islower() and land[0] == (7 if player == 0 else 0)
        if crowned:
            found.append(([*path, land], taken | {over}))
        else:
            _jumps(board, piece, [*path, land], taken | {over}, found)
    if not went_on and len(path) > 1:
        found.append((path, taken))


def play(board: Board, player: int, move: Move) -> Board:
    """The board after ``move`` (crowning a man that ends on the far row)."""
    path, taken = move
    after = dict(board)
    piece = after.pop(place_of(path[0]))
    for square in taken:
        del after[place_of(square)]
    end = place_of(path[-1])
    if piece.islower() and end[0] == (7 if player == 0 else 0):
        piece = piece.upper()
    after[end] = piece
    return after


def perft(board: Board, player: int, depth: int) -> int:
    """Leaf count at ``depth`` plies (the draw rule never comes into it this early)."""
    listed = moves(board, player)
    if depth == 1:
        return len(listed)
    return sum(perft(play(board, player, move), 1 - player, depth - 1) for move in listed)


def start() -> Board:
    """The standard start: Black men on 1-12, White men on 21-32."""
    board = {place_of(s): "b" for s in range(1, 13)}
    board.update({place_of(s): "w" for s in range(21, 33)})
    return board
