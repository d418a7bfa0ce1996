"""Why a chess move is illegal: each reason a player can meet, through the game's
parse_move as the CLI, the room and UCI users see it; and, on random positions, every
illegal move of the moving side's pieces gets a reason that names no legal move."""

from __future__ import annotations

import random

import pytest

chess = pytest.importorskip("chess")

from plies.errors import IllegalMoveError  # noqa: E402
from plies.games.chess import Chess  # noqa: E402

GAME = Chess()
START = chess.STARTING_FEN


@pytest.mark.parametrize(
    ("fen", "move", "reason"),
    [
        (START, "e3e4", "there is no piece on e3"),
        (START, "e7e5", "the pawn on e7 is black's, and white is to move"),
        (START, "e2e5", "a pawn on e2 does not move to e5"),
        (START, "d1d2", "d2 holds white's own piece"),
        (START, "e1g1", "the squares between the king and the rook must be empty"),
        ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", "the knight on e2 is pinned"),
        ("4k3/4r3/8/8/8/8/8/R3K3 w - - 0 1", "a1a2", "white is in check, and this move"),
        ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1e2", "the king would be in check on e2"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "a pawn reaching the last rank must .* add q"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4q", "only a pawn reaching the last rank"),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "e1g1", "white may no longer castle kingside"),
        ("4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1", "e1g1", "the king may not pass through or land on"),
        ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1c1", "a king in check cannot castle"),
        # SAN
        (START, "Nf6", "no white knight can move to f6"),
        (START, "O-O", "the squares between the king and the rook must be empty"),
        ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", "the knight on e2 is pinned"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", "a pawn reaching the last rank must .* a8=Q"),
        ("4k3/4r3/8/8/8/8/8/R3K3 w - - 0 1", "Ra2", "white is in check"),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O-O", "white may no longer castle queenside"),
        (START, "a1a1", "no white pawn can move to a1"),
    ],
)
def test_an_illegal_move_is_refused_with_its_reason(fen: str, move: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError, match=f"illegal move '{move}': {reason}"):
        GAME.parse_move(GAME.parse_position(fen), move)


@pytest.mark.parametrize("seed", range(6))
def test_every_illegal_move_of_a_random_position_has_a_reason(seed: int) -> None:
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(rng.randrange(10, 60)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    if board.is_game_over():
        return
    state = GAME.parse_position(board.fen())
    legal = {move.uci() for move in board.legal_moves}
    for start in chess.SquareSet(board.occupied_co[board.turn]):
        for end in chess.SQUARES:
            text = chess.Move(start, end).uci()
            if start == end or text in legal or f"{text}q" in legal:
                continue
            with pytest.raises(IllegalMoveError) as refused:
                GAME.parse_move(state, text)
            message = str(refused.value)
            assert message.startswith(f"chess: illegal move '{text}': ")
            assert len(message.splitlines()) == 1
