"""The chess evaluation's positional terms: each term on a position built to show it,
and colour symmetry on random positions; the static exchange evaluation on exchanges
with known outcomes."""

from __future__ import annotations

import random

import pytest

chess = pytest.importorskip("chess")

from plies.games.chess._eval import (  # noqa: E402
    _FORKED,
    _MOBILITY_EG,
    _MOBILITY_MG,
    _TEMPO,
    _THREATENED_MOVING,
    _THREATENED_WAITING,
    exchange_value,
    pawn_attacks,
    pawn_king_terms,
    piece_terms,
)


def terms(fen: str) -> tuple[int, int]:
    return pawn_king_terms(chess.Board(fen))


def test_a_passed_pawn_scores_more_the_further_it_is() -> None:
    # The kings in the corners (no shield there to speak of), one white pawn.
    _, on_fourth = terms("7k/8/8/8/4P3/8/8/K7 w - - 0 1")
    _, on_sixth = terms("7k/8/4P3/8/8/8/8/K7 w - - 0 1")
    assert 0 < on_fourth < on_sixth


def test_a_pawn_in_front_or_beside_stops_a_passer() -> None:
    _, free = terms("7k/8/8/8/4P3/8/8/K7 w - - 0 1")
    _, blocked = terms("7k/4p3/8/8/4P3/8/8/K7 w - - 0 1")
    _, watched = terms("7k/5p2/8/8/4P3/8/8/K7 w - - 0 1")
    # Each side has one pawn in the last two: the same structure for both colours
    # except for passing, so white's edge is gone.
    assert free > 0
    assert blocked == 0
    assert watched == 0


def test_doubled_and_isolated_pawns_cost() -> None:
    # White: c2 and d2 (a pair); then d2 and d3 (doubled and isolated). Black: the
    # same pawns as the pair, mirrored, so a sound pair scores zero.
    pair = terms("k7/2pp4/8/8/8/8/2PP4/K7 w - - 0 1")
    doubled = terms("k7/2pp4/8/8/8/3P4/3P4/K7 w - - 0 1")
    assert pair == (0, 0)
    assert doubled[0] < 0
    assert doubled[1] < 0


def test_a_king_behind_its_pawns_is_safer() -> None:
    sheltered, _ = terms("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1")
    open_g, _ = terms("6k1/5ppp/8/8/8/6P1/5P1P/6K1 w - - 0 1")
    bare, _ = terms("6k1/5ppp/8/8/8/8/PPP5/6K1 w - - 0 1")
    assert sheltered == 0  # the same shelter on both sides
    assert bare < open_g < sheltered


@pytest.mark.parametrize("seed", range(3))
def test_terms_change_sign_with_the_colours(seed: int) -> None:
    # Mirroring the board top to bottom and swapping the colours negates the terms.
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(120):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        mirrored = board.mirror()
        mg, eg = pawn_king_terms(board)
        assert pawn_king_terms(mirrored) == (-mg, -eg), board.fen()
        mg, eg = piece_terms(board)
        assert piece_terms(mirrored) == (-mg, -eg), board.fen()


def pieces(fen: str) -> tuple[int, int]:
    return piece_terms(chess.Board(fen))


def test_pawn_attacks_stay_on_the_board() -> None:
    assert pawn_attacks(chess.BB_A2 | chess.BB_H2, True) == chess.BB_B3 | chess.BB_G3
    assert pawn_attacks(chess.BB_A7 | chess.BB_H7, False) == chess.BB_B6 | chess.BB_G6


def test_a_free_piece_is_worth_more_than_a_shut_in_one() -> None:
    # The white knight in the centre against the black knight in the corner.
    centre = pieces("n6k/8/8/8/3N4/8/8/7K w - - 0 1")
    # 8 squares against 2 (b6, c7), from the usual number: a difference of 6 squares;
    # and white's move.
    knight = chess.KNIGHT
    assert centre == (6 * _MOBILITY_MG[knight] + _TEMPO[0], 6 * _MOBILITY_EG[knight] + _TEMPO[1])
    # The same bishop, its diagonals blocked by its own pawns, then open.
    blocked = pieces("7k/8/8/8/8/1P1P4/2B5/7K w - - 0 1")
    free = pieces("7k/8/8/8/8/8/2B5/7K w - - 0 1")
    assert blocked[0] < free[0] and blocked[1] < free[1]


def test_squares_enemy_pawns_attack_do_not_count() -> None:
    watched = pieces("7k/8/2p1p3/8/3N4/8/8/7K w - - 0 1")  # c6, e6 take b5 and f5..
    free = pieces("7k/8/8/8/3N4/8/8/7K w - - 0 1")
    assert watched[0] == free[0] - 2 * _MOBILITY_MG[chess.KNIGHT]


def test_a_rook_likes_an_open_file_then_a_half_open_one() -> None:
    # The white rook on d1 against the black rook on a8 behind its own pawn; the
    # kings and the other pawns the same.
    closed = pieces("r6k/p7/8/8/8/3P4/P7/3R3K w - - 0 1")
    half_open = pieces("r6k/p7/8/8/8/8/P2p4/3R3K w - - 0 1")
    open_file = pieces("r6k/p7/8/8/8/8/P7/3R3K w - - 0 1")
    # Mobility aside (the rook sees d2 .. d8 or less), the file's bonus.
    assert closed[0] < half_open[0] < open_file[0]


def test_threats_count_by_whose_move_it_is() -> None:
    # A black pawn on e5 attacks the white knight on d4 (and the one on f4); on h6 it
    # attacks neither, and neither knight's squares change: only the threat differs.
    def threat(placed: str, turn: str) -> tuple[int, int]:
        mg, eg = pieces(f"7k/8/8/4p3/{placed}/8/8/K7 {turn} - - 0 1")
        free_mg, free_eg = pieces(f"7k/8/7p/8/{placed}/8/8/K7 {turn} - - 0 1")
        return mg - free_mg, eg - free_eg

    moving, forked, waiting = _THREATENED_MOVING, _FORKED, _THREATENED_WAITING
    assert threat("3N4", "w") == (-moving[0], -moving[1])
    assert threat("3N1N2", "w") == (-2 * moving[0] - forked[0], -2 * moving[1] - forked[1])
    assert threat("3N4", "b") == (-waiting[0], -waiting[1])
    # A knight threatens a rook and a queen but not a bishop; a rook, a queen.
    for fen, count in (
        ("k7/8/8/1r1b4/8/2N5/8/K7 b - - 0 1", 1),
        ("k7/8/8/1q6/8/2N5/8/K6R b - - 0 1", 1),
        ("k6q/8/8/8/8/8/8/K6R b - - 0 1", 1),
        ("k6b/8/8/8/8/8/8/K6R b - - 0 1", 0),
    ):
        board = chess.Board(fen)
        with_threat = piece_terms(board)
        board.turn = chess.WHITE
        both_moves = piece_terms(board)
        # From white's view, black to move: black's threatened pieces are the moving
        # side's, a gain (less the tempo); white to move: the waiting side's.
        assert with_threat[0] - both_moves[0] == (
            count * moving[0] - 2 * _TEMPO[0] - count * waiting[0]
        ), fen


@pytest.mark.parametrize(
    ("fen", "move", "value"),
    [
        # A pawn takes a knight a pawn defends: a knight for a pawn.
        ("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 200),
        # A queen takes a pawn a pawn defends: the queen for a pawn.
        ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -800),
        # An undefended rook: all of it.
        ("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1", "d1d5", 500),
        # A rook takes a pawn defended by a rook, backed by a rook behind it (an
        # x-ray): RxP RxR RxR wins the pawn and a rook for a rook.
        ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100),
        # Without the rook behind, the pawn costs the rook.
        ("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", -400),
        # The king may not take a defended piece: the defender decides.
        ("4k3/8/8/8/8/2b5/3n4/4K3 w - - 0 1", "e1d2", -19700),
        # Black to move: the knight takes a pawn two pawns defend.
        ("4k3/8/8/2n5/8/3P4/2P1P3/4K3 b - - 0 1", "c5d3", -200),
    ],
)
def test_exchange_values_of_known_exchanges(fen: str, move: str, value: int) -> None:
    board = chess.Board(fen)
    assert exchange_value(board, chess.Move.from_uci(move)) == value
