"""The chess evaluation's positional terms: each term on a position built to show it,
and colour symmetry on random positions."""

from __future__ import annotations

import random

import pytest

chess = pytest.importorskip("chess")

from plies.games.chess._eval import pawn_king_terms  # noqa: E402


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
