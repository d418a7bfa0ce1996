"""Why a chess move is illegal, in words a player understands.

python-chess says only that a move is illegal; a player who typed or dragged it wants
to know why: no piece there, the other side's piece, a piece that does not move that
way, a king left in check, a castling right lost, a promotion not named.
"""

from __future__ import annotations

import re

import chess

__all__ = ["illegal_reason", "illegal_san_reason"]


def _side(color: chess.Color) -> str:
    return "white" if color else "black"


def illegal_reason(board: chess.Board, move: chess.Move) -> str:
    """Why ``move`` is not legal on ``board`` (a clause, no final period); ``move`` is
    assumed illegal there."""
    mover = _side(board.turn)
    piece = board.piece_at(move.from_square)
    start, end = chess.square_name(move.from_square), chess.square_name(move.to_square)
    if piece is None:
        return f"there is no piece on {start}"
    name = chess.piece_name(piece.piece_type)
    if piece.color != board.turn:
        return f"the {name} on {start} is {_side(piece.color)}'s, and {mover} is to move"
    if move.promotion is None and piece.piece_type == chess.PAWN:
        promoted = chess.Move(move.from_square, move.to_square, chess.QUEEN)
        if board.is_legal(promoted):
            return (
                "a pawn reaching the last rank must become a piece: "
                f"add q, r, b or n ({promoted.uci()})"
            )
    if move.promotion is not None and not (
        piece.piece_type == chess.PAWN and chess.square_rank(move.to_square) in (0, 7)
    ):
        return "only a pawn reaching the last rank is promoted"
    if piece.piece_type == chess.KING and abs(move.to_square - move.from_square) == 2:
        return _castling_reason(board, move)
    if board.is_pseudo_legal(move):  # it moves so, but the king is then attacked
        if piece.piece_type == chess.KING:
            return f"the king would be in check on {end}"
        if board.is_check():
            return f"{mover} is in check, and this move does not get out of it"
        if board.is_pinned(board.turn, move.from_square):
            return f"the {name} on {start} is pinned: moving it leaves {mover}'s king in check"
        return f"it would leave {mover}'s king in check"
    if board.color_at(move.to_square) == board.turn:
        return f"{end} holds {mover}'s own piece"
    return f"a {name} on {start} does not move to {end}"


def _castling_reason(board: chess.Board, move: chess.Move) -> str:
    """Why the king's two-square move (an attempted castling) is illegal."""
    color = board.turn
    kingside = move.to_square > move.from_square
    wing = "kingside" if kingside else "queenside"
    rights = (
        board.has_kingside_castling_rights(color)
        if kingside
        else board.has_queenside_castling_rights(color)
    )
    if not rights:
        return f"{_side(color)} may no longer castle {wing} (the king or that rook has moved)"
    if board.is_check():
        return "a king in check cannot castle"
    rook = chess.square(7 if kingside else 0, chess.square_rank(move.from_square))
    low, high = sorted((move.from_square, rook))
    if any(board.piece_at(square) for square in range(low + 1, high)):
        return f"the squares between the king and the rook must be empty to castle {wing}"
    return "the king may not pass through or land on an attacked square"


#: SAN's piece letter (none for a pawn), its target square and a promotion.
_SAN = re.compile(r"^([NBRQK])?[a-h]?[1-8]?x?([a-h][1-8])(?:=?([NBRQnbrq]))?[+#]?[!?]*$")


def illegal_san_reason(board: chess.Board, token: str) -> str:
    """Why the SAN move ``token`` (which python-chess found illegal) cannot be played
    on ``board``: a clause naming what went wrong, as :func:`illegal_reason`."""
    mover = _side(board.turn)
    text = token.strip().rstrip("+#!?")
    if text in ("O-O", "0-0", "O-O-O", "0-0-0"):
        rank = 0 if board.turn else 7
        king = chess.square(4, rank)
        target = chess.square(6 if len(text) == 3 else 2, rank)
        if board.piece_at(king) != chess.Piece(chess.KING, board.turn):
            return f"{mover}'s king is not on its starting square"
        return _castling_reason(board, chess.Move(king, target))
    match = _SAN.match(token.strip())
    if match is None:
        return f"{token!r} does not name a move"
    letter, square, promotion = match.groups()
    piece_type = chess.PIECE_SYMBOLS.index(letter.lower()) if letter else chess.PAWN
    target = chess.parse_square(square)
    promote = chess.PIECE_SYMBOLS.index(promotion.lower()) if promotion else None
    candidates = [
        move
        for move in board.pseudo_legal_moves
        if move.to_square == target
        and board.piece_type_at(move.from_square) == piece_type
        and move.promotion == promote
    ]
    if candidates:  # it moves so, but not legally
        return illegal_reason(board, candidates[0])
    if (
        piece_type == chess.PAWN
        and promote is None
        and any(
            move.to_square == target and move.promotion is not None
            for move in board.pseudo_legal_moves
        )
    ):
        return f"a pawn reaching the last rank must become a piece: write {square}=Q (R, B, N)"
    name = chess.piece_name(piece_type)
    if board.is_check():
        return f"{mover} is in check, and no {mover} {name} can move to {square} out of it"
    return f"no {mover} {name} can move to {square}"
