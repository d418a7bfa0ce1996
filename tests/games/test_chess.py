"""Chess on python-chess: perft against the published suite, the end of the game by
every rule, notation round trips, the running evaluation, mates found at the right
distance, and bad input."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

chess = pytest.importorskip("chess")

from plies.engine import Limits, search  # noqa: E402
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError  # noqa: E402
from plies.games import get_game  # noqa: E402
from plies.games.chess._rules import Chess, ChessState, _has_move, _sums  # noqa: E402
from plies.testing import check_game  # noqa: E402

GAME = Chess()
# Beside the checkout (/work/shared for /work/main), found from a worktree too.
SUITES = next(
    (
        parent / "shared" / "chess-testsuites"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "chess-testsuites").is_dir()
    ),
    Path("shared") / "chess-testsuites",
)
PERFT_SUITE = SUITES / "perftsuite-126.epd"


def perft(state: ChessState, depth: int, *, past_dead: bool = False) -> int:
    """Leaves ``depth`` plies below ``state`` through the game's moves. With
    ``past_dead`` a game over by insufficient material goes on with python-chess's
    moves (perft counts know no draw rules)."""
    moves = GAME.legal_moves(state)
    if not moves and past_dead and GAME.outcome(state) == "insufficient material":
        moves = list(state.board.legal_moves)
    if depth == 1:
        return len(moves)
    return sum(perft(GAME.play_unchecked(state, m), depth - 1, past_dead=past_dead) for m in moves)


def suite() -> list[tuple[str, dict[int, int]]]:
    if not PERFT_SUITE.exists():
        pytest.skip(f"{PERFT_SUITE} is not here")
    rows = []
    for line in PERFT_SUITE.read_text().splitlines():
        fen, *fields = line.split(" ;")
        rows.append((fen, {int(f.split()[0][1:]): int(f.split()[1]) for f in fields}))
    return rows


# Lines of the suite, and depths, where no draw rule can end a game early.
@pytest.mark.parametrize(
    ("line", "depth"), [(0, 3), (1, 3), (2, 3), (5, 3), (14, 3), (40, 3), (90, 3), (125, 3)]
)
def test_perft_matches_the_suite(line: int, depth: int) -> None:
    fen, counts = suite()[line]
    assert perft(GAME.parse_position(fen), depth) == counts[depth]


@pytest.mark.parametrize(("line", "depth"), [(10, 2), (37, 3), (64, 3)])
def test_perft_differs_only_by_dead_positions(line: int, depth: int) -> None:
    # Perft counts go on where the game is over by insufficient material: the game's
    # count is smaller, and continuing exactly those games gives the suite's count.
    fen, counts = suite()[line]
    state = GAME.parse_position(fen)
    assert perft(state, depth) < counts[depth]
    assert perft(state, depth, past_dead=True) == counts[depth]


def test_conformance_on_longer_playouts() -> None:
    report = check_game(GAME, playouts=4, seed=11)
    assert report.terminals == 4
    assert report.transpositions > 0


def playout(seed: int, plies: int = 300) -> list[ChessState]:
    rng = random.Random(seed)
    state = GAME.initial_state()
    line = [state]
    while len(line) < plies and not GAME.is_terminal(state):
        state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
        line.append(state)
    return line


def board_fields(board: chess.Board) -> tuple[object, ...]:
    """Everything a python-chess board knows of its position (no move stack)."""
    return (
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        tuple(board.occupied_co), board.occupied, board.promoted, board.ep_square,
        board.castling_rights, board.turn, board.fullmove_number, board.halfmove_clock,
        board.chess960, board.fen(),
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_play_gives_python_chess_push(seed: int) -> None:
    # The game's own push (chess._pushed) against python-chess's, move by move, in
    # random games from the perft suite's positions (castling, en passant, promotion).
    rng = random.Random(seed)
    fens = [fen for fen, _ in suite()]
    for _ in range(12):
        state = GAME.parse_position(rng.choice(fens))
        for _ in range(80):
            moves = GAME.legal_moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            expected = state.board.copy(stack=False)
            expected.push(move)
            state = GAME.play_unchecked(state, move)
            assert board_fields(state.board) == board_fields(expected), move.uci()
            assert not state.board.move_stack


@pytest.mark.parametrize(
    "fen",
    [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate: every king step attacked
        "k7/P7/1K6/8/8/8/8/8 b - - 0 1",  # stalemate by a pawn and the king
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",  # mate
        "6k1/5ppp/8/8/8/8/8/r5K1 w - - 0 1",  # mate on the back rank, king boxed in
        "6rk/6pp/8/8/8/8/8/6RK b - - 0 1",  # only the rook moves: no king step
    ],
)
def test_has_move_in_mates_and_stalemates(fen: str) -> None:
    state = GAME.state_of(chess.Board(fen))
    assert _has_move(state) == any(state.board.legal_moves)
    assert state._check == state.board.is_check()


@pytest.mark.parametrize("seed", range(3))
def test_has_move_agrees_with_python_chess(seed: int) -> None:
    for state in playout(seed + 20):
        fresh = GAME.state_of(state.board)
        assert _has_move(fresh) == any(state.board.legal_moves), state.board.fen()
        assert fresh._check == state.board.is_check()


def test_a_chess960_board_is_played_by_python_chess() -> None:
    # King on e1, rooks on b1 and g1: castling long is e1b1 (the king takes its rook),
    # the king lands on c1 and the rook on d1, not what a standard board would do.
    board = chess.Board("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", chess960=True)
    state = GAME.state_of(board)
    castle = chess.Move.from_uci("e1b1")
    assert castle in GAME.legal_moves(state)
    board.push(castle)
    after = GAME.play(state, castle).board
    assert after.fen() == board.fen()
    assert after.piece_at(chess.C1) == chess.Piece(chess.KING, chess.WHITE)
    assert after.piece_at(chess.D1) == chess.Piece(chess.ROOK, chess.WHITE)


@pytest.mark.parametrize("seed", range(6))
def test_running_evaluation_equals_a_fresh_count(seed: int) -> None:
    for state in playout(seed):
        assert (state.mg, state.eg, state.phase) == _sums(state.board), state.board.fen()


def test_running_evaluation_through_castling_en_passant_and_promotion() -> None:
    fens_and_moves = [
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ["O-O", "O-O-O"]),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ["O-O-O", "O-O"]),
        ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", ["e4", "dxe3"]),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", ["exd6"]),
        ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", ["axb8=N"]),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", ["a8=Q+"]),
    ]
    for fen, moves in fens_and_moves:
        state = GAME.parse_position(fen)
        for text in moves:
            state = GAME.play(state, GAME.parse_move(state, text))
            assert (state.mg, state.eg, state.phase) == _sums(state.board)


def test_evaluation_is_symmetric() -> None:
    # A position and its colour-mirrored twin score the same for the side to move.
    for state in playout(3, 80)[1:]:
        mirrored = GAME.state_of(state.board.mirror())
        assert GAME.evaluate(state, GAME.to_move(state)) == GAME.evaluate(
            mirrored, GAME.to_move(mirrored)
        )


# -- the end of the game ---------------------------------------------------------------


def test_checkmate_is_a_loss_for_the_side_mated() -> None:
    state = GAME.parse_position("f3 e5 g4 Qh4#")
    assert GAME.outcome(state) == "checkmate"
    assert GAME.terminal_value(state) == -1.0
    assert GAME.utility(state, 0) == -1.0
    assert GAME.utility(state, 1) == 1.0
    assert GAME.legal_moves(state) == []


def test_stalemate_is_a_draw() -> None:
    state = GAME.parse_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert GAME.outcome(state) == "stalemate"
    assert GAME.terminal_value(state) == 0.0


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/4K1N1 w - - 0 1",
        "8/3b4/8/4k3/8/8/2B5/4K3 w - - 0 1",
    ],
)
def test_insufficient_material_is_a_draw(fen: str) -> None:
    state = GAME.parse_position(fen)
    assert GAME.outcome(state) == "insufficient material"
    assert GAME.terminal_value(state) == 0.0


@pytest.mark.parametrize(
    ("fen", "white", "black"),
    [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", True, False),  # a bare king cannot mate
        ("4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", False, False),  # nor can one bishop
        ("4k3/4p3/8/8/8/8/8/2B1K3 w - - 0 1", True, True),  # ...with a pawn to help it
        ("8/8/3n4/4k3/8/8/2N5/4K3 w - - 0 1", True, True),  # knights: a helpmate exists
    ],
)
def test_who_can_still_win(fen: str, white: bool, black: bool) -> None:
    state = GAME.parse_position(fen)
    assert (GAME.can_win(state, 0), GAME.can_win(state, 1)) == (white, black)


def test_knight_against_knight_goes_on() -> None:
    # A helpmate exists, so python-chess (and FIDE) let the game go on.
    assert not GAME.is_terminal(GAME.parse_position("8/8/3n4/4k3/8/8/2N5/4K3 w - - 0 1"))


def test_fifty_moves_draw_but_a_mate_on_the_hundredth_ply_wins() -> None:
    state = GAME.parse_position("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
    assert not GAME.is_terminal(state)
    quiet = GAME.play(state, GAME.parse_move(state, "Ra2"))
    assert GAME.outcome(quiet) == "fifty moves"
    mate = GAME.play(state, GAME.parse_move(state, "Ra8#"))
    assert GAME.outcome(mate) == "checkmate"
    assert GAME.terminal_value(mate) == -1.0


def test_threefold_repetition_is_a_draw_and_survives_the_position_text() -> None:
    shuffle = "Nf3 Nf6 Ng1 Ng8 "
    twice = GAME.parse_position(shuffle)
    assert not GAME.is_terminal(twice)
    assert twice.repetitions() == 2
    assert twice.board.fen() == GAME.initial_state().board.fen().replace("0 1", "4 3")
    # The FEN alone would forget the repetition: the text carries the moves.
    text = GAME.format_position(twice)
    assert "moves" in text
    back = GAME.parse_position(text)
    assert GAME.key(back) == GAME.key(twice)
    assert GAME.key(twice) != GAME.key(GAME.parse_position(twice.board.fen()))
    thrice = GAME.parse_position(shuffle * 2)
    assert GAME.outcome(thrice) == "threefold repetition"
    assert GAME.terminal_value(thrice) == 0.0
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.parse_position(shuffle * 2 + "e4")


def test_search_avoids_a_repetition_when_winning_and_takes_it_when_losing() -> None:
    # White is a queen down and can repeat by perpetual check: the draw is the best.
    fen = "6k1/5ppp/8/8/8/8/q4PPP/3R2K1 b - - 0 1"
    state = GAME.parse_position(fen)
    assert not GAME.is_terminal(state)


# -- the search ------------------------------------------------------------------------


def test_mate_in_one_found() -> None:
    state = GAME.parse_position("e4 e5 Qh5 Nc6 Bc4 Nf6")
    result = search(GAME, state, limits=Limits(depth=3))
    assert GAME.format_move(state, result.best_move) == "Qxf7#"
    assert (result.outcome, result.distance) == ("win", 1)


def mates_in(state: ChessState, plies: int) -> bool:
    """Whether the side to move mates within ``plies`` (odd) by brute force on
    python-chess alone: the outside reference for the search."""
    board = state.board.copy()

    def attacker(left: int) -> bool:
        for move in list(board.legal_moves):
            board.push(move)
            try:
                if board.is_checkmate() or (left > 1 and defender(left - 1)):
                    return True
            finally:
                board.pop()
        return False

    def defender(left: int) -> bool:
        replies = list(board.legal_moves)
        if not replies:
            return False  # stalemate
        for move in replies:
            board.push(move)
            try:
                if not attacker(left - 1):
                    return False
            finally:
                board.pop()
        return True

    return attacker(plies)


def test_mate_in_two_found_at_the_right_distance() -> None:
    state = GAME.parse_position("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")
    assert not mates_in(state, 1)
    assert mates_in(state, 3)
    result = search(GAME, state, limits=Limits(depth=4))
    assert (result.outcome, result.distance) == ("win", 3)
    after = GAME.play(state, result.best_move)
    assert all(mates_in(GAME.play(after, reply), 1) for reply in GAME.legal_moves(after))


def test_mated_side_sees_its_loss() -> None:
    state = GAME.parse_position("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")
    state = GAME.play(state, GAME.parse_move(state, "Rb7"))
    result = search(GAME, state, limits=Limits(depth=3))
    assert (result.outcome, result.distance) == ("loss", 2)


def test_search_wins_material() -> None:
    # A hanging queen: a 1-ply search with quiescence takes it.
    state = GAME.parse_position("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    result = search(GAME, state, limits=Limits(depth=2))
    assert GAME.format_move(state, result.best_move) == "Rxd5"


def test_quiescence_moves_are_captures_and_promotions() -> None:
    state = GAME.parse_position("4k3/1P6/8/3q4/8/8/3R4/4K3 w - - 0 1")
    noisy = [GAME.format_move(state, m) for m in GAME.quiescence_moves(state)]
    assert noisy == ["Rxd5", "b8=Q+"]
    ordered = [GAME.format_move(state, m) for m in GAME.order_moves(state, GAME.legal_moves(state))]
    assert ordered[0] == "Rxd5"


# -- notation --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_san_uci_and_fen_round_trips(seed: int) -> None:
    for state in playout(seed, 150):
        if GAME.is_terminal(state):
            break
        for move in GAME.legal_moves(state):
            assert GAME.parse_move(state, GAME.format_move(state, move)) == move
            assert GAME.parse_move(state, GAME.format_uci(state, move)) == move
        back = GAME.parse_position(GAME.format_position(state))
        assert back == state
        assert GAME.key(back) == GAME.key(state)


def test_position_forms() -> None:
    start = GAME.initial_state()
    assert GAME.parse_position("") == start
    assert GAME.parse_position("startpos") == start
    by_uci = GAME.parse_position("startpos moves e2e4 e7e5")
    by_san = GAME.parse_position("e4 e5")
    by_fen = GAME.parse_position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    assert by_uci == by_san == by_fen
    assert (
        GAME.parse_position("8/8/8/4k3/8/8/8/4K2R w").board.fen()
        == "8/8/8/4k3/8/8/8/4K2R w - - 0 1"
    )
    assert "white to move" in GAME.render(start)
    assert GAME.render(start).splitlines()[0] == "8 r n b q k b n r"


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        ("e2e5", IllegalMoveError, "illegal move 'e2e5'"),
        ("Nb5", IllegalMoveError, "illegal move 'Nb5'"),
        ("hello", ParseError, "no move in SAN"),
        ("e9e4", ParseError, "no move"),
        ("", ParseError, "no move"),
    ],
)
def test_bad_moves(text: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        GAME.parse_move(GAME.initial_state(), text)


def test_ambiguous_san_is_refused() -> None:
    state = GAME.parse_position("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(IllegalMoveError, match="ambiguous move 'Rd1'"):
        GAME.parse_move(state, "Rd1")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("rnbqkbnr/ppp w", "bad FEN"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "no legal position"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 banana", "bad FEN"),
        ("startpos e4", "expected 'moves' after 'startpos'"),
    ],
)
def test_bad_positions(text: str, match: str) -> None:
    with pytest.raises(ParseError, match=match):
        GAME.parse_position(text)


def test_bad_move_in_a_position_names_its_place() -> None:
    with pytest.raises(IllegalMoveError, match="move 2 of the POSITION"):
        GAME.parse_position("e4 e4")


def test_play_refuses_what_is_no_legal_move() -> None:
    state = GAME.initial_state()
    with pytest.raises(ArgumentTypeError, match=r"chess\.Move"):
        GAME.play(state, "e2e4")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="e2e5"):
        GAME.play(state, chess.Move.from_uci("e2e5"))
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.play(GAME.parse_position("f3 e5 g4 Qh4#"), chess.Move.from_uci("e2e4"))


def test_registered_with_its_notation() -> None:
    game = get_game("chess")
    assert isinstance(game, Chess)
    assert game.name == "chess"


@pytest.mark.parametrize("argv", [["analyze", "chess", "--depth", "1"], ["uci"]])
def test_missing_python_chess_is_one_clear_line(argv: list[str]) -> None:
    code = (
        "import sys; sys.modules['chess'] = None\n"
        "from plies.cli import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input="uci\n", capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert (
        done.stderr == "error: chess: python-chess is not installed: pip install 'plies[chess]'\n"
    )


@pytest.mark.parametrize("text", ["--", "Z0", "0000"])
def test_a_null_move_is_refused(text: str) -> None:
    # python-chess reads these as Move.null(), which no position of chess allows.
    game = Chess()
    with pytest.raises(IllegalMoveError, match="null move"):
        game.parse_move(game.initial_state(), text)
