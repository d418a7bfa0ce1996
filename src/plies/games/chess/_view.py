"""The chess board as the game room draws it: FEN's piece letters rank 8 first, files
and ranks, the king in check, and each move's from and to square and promotion
(castling is the king's two-square move, as python-chess writes it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.game import Board, Cell

if TYPE_CHECKING:
    from plies.games.chess._rules import ChessState

__all__ = ["PLAYER_NAMES", "chess_board"]

#: What the room calls the two sides.
PLAYER_NAMES = ("White", "Black")
#: FEN's letter of each python-chess piece type (1 pawn .. 6 king).
_LETTERS = " pnbrqk"
FILES = [chr(ord("a") + i) for i in range(8)]
RANKS = [str(8 - i) for i in range(8)]


def cell(square: int) -> Cell:
    """The (row, column) of a python-chess square (a1 = 0, h8 = 63): rank 8 on row 0."""
    return 7 - square // 8, square % 8


def move_detail(move: Any) -> dict[str, Any]:
    """A move's ``path`` (from and to square) and ``promotion`` (a piece letter or None)."""
    path = [list(cell(move.from_square)), list(cell(move.to_square))]
    promotion = _LETTERS[move.promotion] if move.promotion else None
    return {"path": path, "promotion": promotion}


def chess_board(state: ChessState) -> Board:
    """The board of ``state`` from its placement (not the position text: that may be
    an older FEN and the moves since)."""
    placement = state.board.board_fen()
    rows = [
        "".join("." * int(c) if c.isdigit() else c for c in rank) for rank in placement.split("/")
    ]
    king = state.board.king(state.board.turn) if state.in_check() else None
    check = None if king is None else cell(king)
    return Board(rows, "chess", FILES, RANKS, detail_of=move_detail, check=check)
