"""Checkers (English draughts): perft from the start, the rules, notation, solved endgames."""

from __future__ import annotations

import io
import random
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_errors import assert_one_line_error, run
from games import checkers_mailbox as mailbox
from plies.engine import Limits, search, solve
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, UnknownGameError
from plies.games import get_game, parse_game_spec
from plies.games.checkers import Checkers, CheckersState, square_bit
from plies.testing import check_game

GAME = Checkers()
START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def perft(state: CheckersState, depth: int) -> int:
    """Leaf count at ``depth`` plies through legal_moves and (checked) play."""
    moves = GAME.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(GAME.play(state, move), depth - 1) for move in moves)


# Published perft counts of English draughts from the start (depths 1-8; the
# benchmark runs all 8).
@pytest.mark.parametrize(
    ("depth", "leaves"),
    [(1, 7), (2, 49), (3, 302), (4, 1469), (5, 7361), (6, 36768), (7, 179740)],
)
def test_perft_from_the_start(depth: int, leaves: int) -> None:
    assert perft(GAME.initial_state(), depth) == leaves


def moves_of(fen: str) -> list[str]:
    state = GAME.parse_position(fen)
    return [GAME.format_move(state, move) for move in GAME.legal_moves(state)]


def test_the_start_and_the_numbering() -> None:
    start = GAME.initial_state()
    assert GAME.parse_position("") == start == GAME.parse_position(START_FEN)
    assert GAME.format_position(start) == START_FEN
    assert moves_of(START_FEN) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    after = GAME.parse_position("11-15")
    assert moves_of(GAME.format_position(after)) == [
        "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20",
    ]  # fmt: skip
    assert [square_bit(s) for s in (1, 8, 9, 16, 17, 24, 25, 32)] == [0, 7, 9, 16, 18, 25, 27, 34]


def test_render_shows_the_board_with_black_at_the_top() -> None:
    state = GAME.parse_position("W:WK3,18:B1,K30:7")
    assert GAME.render(state) == "\n".join(
        [
            "  b   .   W   .    1- 4",
            ".   .   .   .      5- 8",
            "  .   .   .   .    9-12",
            ".   .   .   .     13-16",
            "  .   w   .   .   17-20",
            ".   .   .   .     21-24",
            "  .   .   .   .   25-28",
            ".   B   .   .     29-32",
            "White to move; 7 of 80 plies without a capture or a man's move",
        ]
    )


# -- the rules ----------------------------------------------------------------------------


def test_capturing_is_compulsory() -> None:
    # Black could step 11-15 or 11-16, but 9 can jump 14 (and must).
    state = GAME.parse_position("B:W14,31:B9,11")
    assert moves_of("B:W14,31:B9,11") == ["9x18"]
    assert moves_of("B:W31:B9,11") == ["9-13", "9-14", "11-15", "11-16"]
    with pytest.raises(IllegalMoveError, match=r"11-15 \(a capture is compulsory; legal: 9x18\)"):
        GAME.parse_move(state, "11-15")
    with pytest.raises(IllegalMoveError, match="a capture is compulsory"):
        GAME.play(state, (9, 13))


def test_a_multiple_jump_is_one_move_and_any_sequence_may_be_chosen() -> None:
    fen = "B:W18,19,26,27:B14,15"
    assert moves_of(fen) == ["14x23x30", "14x23x32", "15x22x31", "15x24x31"]
    state = GAME.parse_position(fen)
    after = GAME.play(state, (14, 23, 32))
    assert GAME.format_position(after) == "W:W19,26:B15,K32"  # 18 and 27 taken, crowned
    # A shorter capture is allowed when it is a whole sequence of its own.
    assert moves_of("B:W17,18,25,26:B13,9") == ["13x22x29", "13x22x31"]
    assert moves_of("B:W14,23:B9,5") == ["9x18x27"]  # 5 cannot capture; 9 jumps on


def test_short_form_of_a_jump_when_unambiguous() -> None:
    state = GAME.parse_position("B:W18,19,26,27:B14,15")
    assert GAME.parse_move(state, "14x32") == (14, 23, 32)
    assert GAME.parse_move(state, " 14 X 23 x 32 ") == (14, 23, 32)
    assert GAME.parse_move(state, "14-23-32") == (14, 23, 32)
    with pytest.raises(IllegalMoveError, match=r"15x31 is ambiguous: .*\(15x22x31 15x24x31\)"):
        GAME.parse_move(state, "15x31")


def test_crowning_ends_the_move() -> None:
    # The man on 22 takes 26 and is crowned on 31; a king there could take 27 too,
    # and a king starting on 22 does.
    assert moves_of("B:W26,27:B22") == ["22x31"]
    crowned = GAME.play(GAME.parse_position("B:W26,27:B22"), (22, 31))
    assert GAME.format_position(crowned) == "W:W27:BK31"
    assert GAME.to_move(crowned) == 1
    assert moves_of("B:W26,27:BK22") == ["22x31x24"]
    # A man stepping onto the far row is crowned too, and White's men crown on 1-4.
    assert GAME.format_position(GAME.play(GAME.parse_position("W:W5:B26"), (5, 1))) == "B:WK1:B26"


def test_a_king_goes_round_and_the_two_ways_are_one_move() -> None:
    fen = "B:W14,15,22,23:BK10"
    assert moves_of(fen) == ["10x17x26x19x10"]
    state = GAME.parse_position(fen)
    move = GAME.legal_moves(state)[0]
    assert GAME.parse_move(state, "10x19x26x17x10") == move  # the other way round
    assert GAME.format_position(GAME.play(state, move)) == "W:W:BK10"
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(state, "10x17x26x17x10")  # 22 jumped twice


def test_kings_move_both_ways_and_men_only_forward() -> None:
    assert moves_of("B:W32:B14") == ["14-17", "14-18"]
    assert moves_of("B:W32:BK14") == ["14-9", "14-10", "14-17", "14-18"]
    assert moves_of("W:W14:B1") == ["14-9", "14-10"]
    assert moves_of("B:W32:BK5") == ["5-1", "5-9"]  # an edge square: one diagonal


def test_no_move_loses() -> None:
    no_pieces = GAME.parse_position("W:W:B1")
    assert GAME.is_terminal(no_pieces) and GAME.legal_moves(no_pieces) == []
    assert GAME.utility(no_pieces, 1) == -1.0 and GAME.utility(no_pieces, 0) == 1.0
    # White's man on 29 can neither step to 25 nor jump it (22 is taken): lost.
    blocked = GAME.parse_position("W:W29:B25,22")
    assert GAME.is_terminal(blocked) and GAME.terminal_value(blocked) == -1.0
    # Blocking wins (18-23 or 25-30 would let White move), and the solver sees it.
    state = GAME.parse_position("B:W29:B25,18")
    assert GAME.play(state, (18, 22)) == blocked
    solved = solve(GAME, state, moves="all")
    assert (solved.result, solved.distance, solved.best_moves) == ("win", 1, ((18, 22),))


def test_the_draw_rule_counts_plies_without_a_capture_or_a_man_move() -> None:
    state = GAME.parse_position("B:WK32:BK1,12:78")
    assert GAME.play(state, (12, 16)).quiet == 0  # a man's move resets the count
    king_move = GAME.play(state, (1, 5))
    assert king_move.quiet == 79 and not GAME.is_terminal(king_move)
    drawn = GAME.play(king_move, (32, 28))
    assert drawn.quiet == 80 and GAME.is_terminal(drawn) and GAME.is_draw_by_rule(drawn)
    assert GAME.legal_moves(drawn) == [] and GAME.utility(drawn, 0) == 0.0
    assert GAME.format_position(drawn) == "B:WK28:BK5,12:80"
    # A capture resets the count; the count is part of the key.
    capture = GAME.parse_position("B:W6:BK1:50")
    assert GAME.play(capture, (1, 10)).quiet == 0
    assert GAME.key(GAME.parse_position("B:W6:BK1:50")) != GAME.key(
        GAME.parse_position("B:W6:BK1:51")
    )
    # The ply that reaches the limit still wins if it leaves the other side no move.
    last = GAME.play(GAME.parse_position("B:W29:B25,K18:79"), (18, 22))
    assert last.quiet == 80 and GAME.terminal_value(last) == -1.0
    assert not GAME.is_draw_by_rule(last) and GAME.utility(last, 0) == 1.0


def test_the_draw_rule_is_a_parameter() -> None:
    short = parse_game_spec("checkers:draw_moves=2")
    assert short.name == "checkers:draw_moves=2" and repr(short) == "Checkers(draw_moves=2)"
    state = short.parse_position("B:WK32:BK1")
    for move in ((1, 5), (32, 28), (5, 1), (28, 32)):
        assert not short.is_terminal(state)
        state = short.play(state, move)
    assert short.is_terminal(state) and short.utility(state, 0) == 0.0
    with pytest.raises(UnknownGameError, match="between 1 and 1000, got 0"):
        parse_game_spec("checkers:draw_moves=0")
    with pytest.raises(ArgumentTypeError, match="must be an integer"):
        Checkers(draw_moves="40")  # type: ignore[arg-type]


# -- the protocol, notation and the engine ------------------------------------------------


def test_conformance_with_the_default_and_a_short_draw_rule() -> None:
    assert check_game(GAME, playouts=12, seed=3).terminals == 12
    report = check_game(Checkers(draw_moves=3), playouts=12, seed=4)
    assert report.transpositions > 0


def mirrored(state: CheckersState) -> CheckersState:
    """The position turned round (square s to 33 - s) with the colours swapped."""

    def turn(mask: int) -> int:
        return sum(1 << square_bit(33 - s) for s in range(1, 33) if mask >> square_bit(s) & 1)

    return CheckersState(
        turn(state.white), turn(state.black), turn(state.kings), 1 - state.player, state.quiet
    )


def playout(seed: int, plies: int) -> list[CheckersState]:
    """The states of a random game from the start, at most ``plies`` moves long."""
    rng = random.Random(seed)
    states = [GAME.initial_state()]
    for _ in range(plies):
        moves = GAME.legal_moves(states[-1])
        if not moves:
            break
        states.append(GAME.play(states[-1], rng.choice(moves)))
    return states


PLAYOUTS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PLAYOUTS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 150))
def test_notation_round_trips_on_random_games(seed: int, plies: int) -> None:
    states = playout(seed, plies)
    line = []
    for before, after in pairwise(states):
        for move in GAME.legal_moves(before):
            assert GAME.parse_move(before, GAME.format_move(before, move)) == move
        [move] = [m for m in GAME.legal_moves(before) if GAME.play(before, m) == after]
        line.append(GAME.format_move(before, move))
    for state in states:
        assert GAME.parse_position(GAME.format_position(state)) == state
    assert GAME.parse_position(" ".join(line)) == states[-1]


@PLAYOUTS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_turning_the_board_round_changes_nothing(seed: int, plies: int) -> None:
    for state in playout(seed, plies)[::7]:
        other = mirrored(state)
        assert len(GAME.legal_moves(other)) == len(GAME.legal_moves(state))
        assert GAME.terminal_value(other) == GAME.terminal_value(state)
        if GAME.terminal_value(state) is None:
            assert GAME.evaluate(other, 1 - state.player) == GAME.evaluate(state, state.player)
            assert GAME.evaluate(state, 0) == -GAME.evaluate(state, 1)


def board_of(state: CheckersState) -> mailbox.Board:
    """The pieces of ``state`` in the mailbox reference's form."""
    board: mailbox.Board = {}
    for square in range(1, 33):
        bit = square_bit(square)
        for mask, man in ((state.black, "b"), (state.white, "w")):
            if mask >> bit & 1:
                board[mailbox.place_of(square)] = man.upper() if state.kings >> bit & 1 else man
    return board


@st.composite
def positions(draw: st.DrawFn) -> str:
    """Random FEN positions: any pieces anywhere (men are kings on their far row)."""
    pieces: dict[str, list[str]] = {"W": [], "B": []}
    # Crowded boards and sparse ones (where long multiple jumps happen).
    kinds = "." * draw(st.sampled_from([4, 8, 12])) + "bwBW"
    for square in range(1, 33):
        kind = draw(st.sampled_from(kinds))
        if kind == ".":
            continue
        far = square >= 29 if kind.lower() == "b" else square <= 4
        king = kind.isupper() or far
        pieces[kind.upper()].append(("K" if king else "") + str(square))
    side = draw(st.sampled_from("BW"))
    return f"{side}:W{','.join(pieces['W'])}:B{','.join(pieces['B'])}"


@settings(max_examples=300, deadline=None)
@given(fen=positions())
def test_moves_agree_with_a_plain_mailbox_generator(fen: str) -> None:
    state = GAME.parse_position(fen)
    board = board_of(state)
    reference = mailbox.moves(board, state.player)
    found = {}
    for move in GAME.legal_moves(state):
        after = GAME.play(state, move)
        gone = board.keys() - board_of(after).keys() - {mailbox.place_of(move[0])}
        taken = frozenset(mailbox.square_of(*place) for place in gone)
        found[move[0], move[-1], taken] = after
    assert len(found) == len(GAME.legal_moves(state))
    assert set(found) == {(path[0], path[-1], taken) for path, taken in reference}
    for path, taken in reference:
        after = found[path[0], path[-1], taken]
        assert board_of(after) == mailbox.play(board, state.player, (path, taken))


def test_the_mailbox_reference_agrees_on_perft() -> None:
    assert [mailbox.perft(mailbox.start(), 0, depth) for depth in (1, 2, 3, 4)] == [
        7, 49, 302, 1469,
    ]  # fmt: skip


def test_order_moves_puts_the_biggest_captures_and_crowning_first() -> None:
    state = GAME.parse_position("B:W19,K27,14,23:B10,15")
    assert moves_of("B:W19,K27,14,23:B10,15") == ["10x17", "15x24x31"]
    ordered = GAME.order_moves(state, GAME.legal_moves(state))
    assert [GAME.format_move(state, m) for m in ordered] == ["15x24x31", "10x17"]
    steps = GAME.parse_position("B:W5:B26,K14,9")
    ordered = GAME.order_moves(steps, GAME.legal_moves(steps))
    assert [GAME.format_move(steps, m) for m in ordered] == [
        "26-30", "26-31", "9-13", "14-10", "14-17", "14-18",
    ]  # fmt: skip
    assert GAME.quiescence_moves(steps) == ()
    assert list(GAME.quiescence_moves(state)) == list(
        GAME.order_moves(state, GAME.legal_moves(state))
    )


# -- solved endgames -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "result", "distance"),
    [
        ("B:WK32:BK1", "draw", 80),  # king against king in the double corners: drawn
        ("B:WK29:BK4", "win", 11),  # a lone king in the single corner is trapped
        ("W:WK32:BK19,K24", "loss", 16),  # two kings beat one in the double corner
        ("B:WK28:BK19,K23", "win", 15),
    ],
)
def test_small_endgames_solved_exactly(fen: str, result: str, distance: int) -> None:
    state = GAME.parse_position(fen)
    solved = solve(GAME, state, moves="line")
    assert (solved.result, solved.distance) == (result, distance)
    # The line is legal and ends as solved.
    for move in solved.pv:
        state = GAME.play(state, move)
    assert len(solved.pv) == distance and GAME.is_terminal(state)


def test_the_search_agrees_with_the_solver() -> None:
    state = GAME.parse_position("B:WK29:BK4")
    result = search(GAME, state, limits=Limits(depth=12))
    assert result.score_text == "win in 11"
    assert result.pv[:2] == solve(GAME, state, moves="line").pv[:2] == ((4, 8), (29, 25))


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a move is squares 1-32 joined by '-' or 'x'"),
        ("11", "a move is squares 1-32"),
        ("11-", "a move is squares 1-32"),
        ("a1-b2", "a move is squares 1-32"),
        ("11-33", "squares are 1-32, got 33"),
        ("0-4", "squares are 1-32, got 0"),
        ("11-" + "9" * 5000, "5,000 digits"),
    ],
)
def test_malformed_moves_are_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as info:
        GAME.parse_move(GAME.initial_state(), text)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11-17", r"illegal move 11-17 \(not a legal move; legal: 9-13 9-14 "),
        ("22-18", r"no Black piece on 22"),
        ("11x18", r"illegal move 11x18"),
    ],
)
def test_illegal_moves_name_the_legal_ones(text: str, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        GAME.parse_move(GAME.initial_state(), text)


@pytest.mark.parametrize("move", ["11-15", [11, 15], (11.0, 15.0), (11, True), None, 1115])
def test_play_refuses_values_that_are_no_move(move: Any) -> None:
    with pytest.raises(ArgumentTypeError, match="a move is a tuple of squares"):
        GAME.play(GAME.initial_state(), move)


@pytest.mark.parametrize("move", [(11, 16, 20), (), (11,), (40, 44), (11, 15, 11)])
def test_play_refuses_tuples_that_are_not_legal(move: tuple[int, ...]) -> None:
    with pytest.raises(IllegalMoveError):
        GAME.play(GAME.initial_state(), move)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("B:W21:B21", "square 21 holds a black and a white piece"),
        ("B:W33:B1", "squares are 1-32"),
        ("B:W21,21:B1", "square 21 is listed twice"),
        ("B:W2:B9", "a white man on 2 would be a king"),
        ("B:W21:B30", "a black man on 30 would be a king"),
        ("B:W21", "needs both the W and the B pieces"),
        ("B:W21:B1:W22", "lists the W pieces twice"),
        ("B:W21:B1:81", "the draw count 81 is above the limit"),
        ("B:W21:B1:Q", "got field 'Q'"),
        ("B:W21:B1:5:6", "got field '5'"),
        ("W:W12-9:B1", "ranges low-high"),
        ("11-15 11-15", "move 2 of the POSITION"),
        ("11-15 xyz", "a move is squares 1-32"),
    ],
)
def test_bad_positions_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises((ParseError, IllegalMoveError), match=message) as info:
        GAME.parse_position(text)
    assert "\n" not in str(info.value)


def test_fen_variants_are_read() -> None:
    assert GAME.parse_position("w : b1-3 , k5 : w k32.") == GAME.parse_position("W:WK32:B1,2,3,K5")
    assert GAME.parse_position("B:B1-12:W21-32") == GAME.initial_state()
    assert GAME.parse_position("1. 11-15 23-19 2. 8-11") == GAME.parse_position("11-15 23-19 8-11")


# -- the command line -------------------------------------------------------------------------


def test_cli_analyze_and_solve(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "checkers", "--depth", "4")
    assert status == 0
    assert out.splitlines()[-1].split()[1] in moves_of(START_FEN)
    status, out, _ = run(capsys, "solve", "checkers", "B:WK29:BK4")
    assert status == 0
    assert out.splitlines()[0] == "result win in 11 plies for the side to move"
    assert "pv 4-8 29-25" in out


def test_cli_games_lists_checkers(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "games")
    assert status == 0
    assert "checkers  English draughts" in out
    assert "parameters: checkers:draw_moves=40" in out


def test_cli_play_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:

    monkeypatch.setattr("sys.stdin", io.StringIO("12-16\n14-17\n14x23\n"))
    status, out, err = run(capsys, "play", "checkers", "B:W18:B14", "--depth", "4")
    assert status == 0, err
    assert "not a legal move: checkers: illegal move 12-16 (no Black piece on 12" in out
    assert "illegal move 14-17 (a capture is compulsory; legal: 14x23)" in out
    assert "game over: player 1 (you) wins" in out
    status, out, err = run(
        capsys, "play", "checkers", "B:WK29:BK4", "--human", "none", "--depth", "12"
    )
    assert status == 0, err
    assert "player 1 (engine) plays 4-8" in out
    assert "game over: player 1 (engine) wins" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "checkers", "B:W33:B1"],
        ["solve", "checkers", "11-17"],
        ["play", "checkers", "B:W21"],
        ["analyze", "checkers:draw_moves=0"],
    ],
)
def test_cli_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert_one_line_error(capsys, argv)


def test_registry_builds_the_game() -> None:
    game = get_game("checkers")
    assert isinstance(game, Checkers) and game.draw_plies == 80
