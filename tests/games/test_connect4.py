"""Connect Four: rules, notation, solver helpers, and Pascal Pons' test positions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from plies import engine
from plies.errors import IllegalMoveError, ParseError, PliesError
from plies.games import get_game, parse_game_spec
from plies.games.connect4 import Connect4, Connect4State

GAME = Connect4()
TESTSETS = Path(__file__).resolve().parents[2].parent / "shared" / "connect4-testsets"

# A 42-move game that fills the 7 x 6 board without four in a row.
FULL_BOARD_DRAW = "651571711647275143456752146343223234367265"


def naive_winner(game: Connect4, moves: list[int]) -> int | None:
    """Who has four in a row, from a plain 2-D grid (independent of the bitboards)."""
    grid = [[None] * game.height for _ in range(game.width)]
    heights = [0] * game.width
    for ply, move in enumerate(moves):
        grid[move - 1][heights[move - 1]] = ply % 2
        heights[move - 1] += 1
    for col in range(game.width):
        for row in range(game.height):
            owner = grid[col][row]
            if owner is None:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + i * dc, row + i * dr) for i in range(4)]
                if all(
                    0 <= c < game.width and 0 <= r < game.height and grid[c][r] == owner
                    for c, r in cells
                ):
                    return owner
    return None


@pytest.mark.parametrize(
    ("moves", "direction"),
    [
        ("1212121", "vertical"),
        ("1122334", "horizontal"),
        ("12233434474", "diagonal up-right"),
        ("76655454414", "diagonal up-left"),
    ],
)
def test_four_in_a_row_in_every_direction_wins(moves: str, direction: str) -> None:
    state = GAME.parse_position(moves)
    assert state.won, direction
    assert GAME.is_terminal(state)
    assert GAME.winner(state) == 0
    assert GAME.utility(state, 0) == 1.0
    assert GAME.utility(state, 1) == -1.0
    assert GAME.terminal_value(state) == -1.0
    assert GAME.legal_moves(state) == ()
    before = GAME.parse_position(moves[:-1])
    assert not before.won
    assert GAME.winning_move(before) == int(moves[-1])


def test_second_player_can_win_too() -> None:
    state = GAME.parse_position("71212121")
    assert GAME.winner(state) == 1
    assert GAME.utility(state, 1) == 1.0


def test_lines_do_not_wrap_across_columns() -> None:
    # X holds the top two cells of column 1 and the bottom two of column 2: four
    # consecutive bits were it not for the sentinel bit on top of each column.
    moves = [1, 1, 1, 1, 2, 1, 2, 1]
    state = GAME.parse_position("".join(map(str, moves)))
    assert naive_winner(GAME, moves) is None
    assert not state.won


@pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 4), (5, 8), (10, 3), (1, 5)])
def test_win_detection_agrees_with_a_plain_grid(width: int, height: int) -> None:
    game = Connect4(width, height)
    rng = random.Random(width * 100 + height)
    for _ in range(60):
        state, moves = game.initial_state(), []
        while not game.is_terminal(state):
            move = rng.choice(game.legal_moves(state))
            moves.append(move)
            state = game.play(state, move)
            expected = naive_winner(game, moves)
            assert state.won == (expected is not None), moves
            assert game.winner(state) == expected


def test_full_board_is_a_draw() -> None:
    state = GAME.initial_state()
    for index, move in enumerate(FULL_BOARD_DRAW, start=1):
        assert not GAME.is_terminal(state)
        state = GAME.play(state, GAME.parse_move(state, move))
        assert not state.won, index
    assert state.ply == 42
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == ()
    assert GAME.utility(state, 0) == GAME.utility(state, 1) == 0.0
    assert GAME.terminal_value(state) == 0.0
    assert GAME.solver_score(state) == 0
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.parse_move(state, "4")


def test_legal_moves_are_centre_first_and_skip_full_columns() -> None:
    assert GAME.legal_moves(GAME.initial_state()) == (4, 3, 5, 2, 6, 1, 7)
    assert Connect4(6, 6).legal_moves(Connect4(6, 6).initial_state()) == (3, 4, 2, 5, 1, 6)
    state = GAME.parse_position("444444")
    assert GAME.legal_moves(state) == (3, 5, 2, 6, 1, 7)


def test_key_is_position_plus_mask_and_merges_transpositions() -> None:
    a = GAME.parse_position("4453")
    b = GAME.parse_position("4354")
    assert a == b
    assert GAME.key(a) == GAME.key(b) == a.position + a.mask
    assert GAME.key(GAME.parse_position("4435")) != GAME.key(a)  # colours swapped


def test_states_are_immutable() -> None:
    state = GAME.parse_position("44")
    with pytest.raises(AttributeError):
        state.mask = 0  # type: ignore[misc]


def test_parse_errors_name_the_bad_move() -> None:
    with pytest.raises(ParseError, match="column 8 is not between 1 and 7"):
        GAME.parse_position("448")
    with pytest.raises(ParseError, match="column number"):
        GAME.parse_move(GAME.initial_state(), "x")
    with pytest.raises(IllegalMoveError, match=r"column 1, it is full \(move 7 of '1111111'\)"):
        GAME.parse_position("1111111")
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.parse_position("12121212")


def test_separators_and_wide_boards() -> None:
    assert GAME.parse_position("4, 4 5,3") == GAME.parse_position("4453")
    wide = Connect4(12, 5)
    state = wide.parse_position("10,11 12,1")
    assert state.ply == 4
    # The rebuilt order takes stones off the leftmost columns first.
    assert wide.format_position(state) == "12,11,10,1"
    assert wide.parse_position("12,11,10,1") == state
    with pytest.raises(ParseError, match="column 13"):
        wide.parse_position("13")


def test_format_position_rebuilds_a_move_order() -> None:
    rng = random.Random(11)
    for _ in range(80):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
            assert GAME.parse_position(GAME.format_position(state)) == state
    assert GAME.format_position(GAME.initial_state()) == ""


def test_render() -> None:
    assert GAME.render(GAME.parse_position("4453")).splitlines()[-3:] == [
        ". . . O . . .",
        ". . O X X . .",
        "1 2 3 4 5 6 7",
    ]


def test_registry_spellings() -> None:
    game = get_game("connect4", width=6, height=5)
    assert isinstance(game, Connect4)
    assert (game.width, game.height) == (6, 5)
    spec = parse_game_spec("connect4:width=8,height=7")
    assert isinstance(spec, Connect4)
    assert (spec.width, spec.height) == (8, 7)
    with pytest.raises(PliesError, match="width must be between"):
        Connect4(0, 6)


def test_evaluation_prefers_the_centre_and_is_zero_sum() -> None:
    assert GAME._weights[3] == [7, 10, 13, 13, 10, 7]  # the classic centre column
    centre = GAME.parse_position("4")
    edge = GAME.parse_position("1")
    assert GAME.evaluate(centre, 0) > GAME.evaluate(edge, 0)
    assert GAME.evaluate(centre, 0) == -GAME.evaluate(centre, 1)
    # O to move with three stacked in column 7 (a playable four) outweighs X's row.
    threat = GAME.parse_position("1727376")
    assert GAME.evaluate(threat, 1) > 400


def test_solver_helpers() -> None:
    empty = GAME.initial_state()
    assert GAME.score_bounds(empty) == (-21, 21)
    assert not GAME.can_win_next(empty)
    # X on 1 2 3 of the bottom row, O stacked on 7: X completes four in column 4.
    state = GAME.parse_position("172737")
    assert GAME.can_win_next(state)
    assert GAME.winning_move(state) == 4
    # One move earlier O must block column 4: every other move loses at once.
    assert GAME.non_losing_moves(GAME.parse_position("17273")) == [4]
    assert list(GAME.forced_moves(GAME.parse_position("17273")) or ()) == [4]
    # X on 2 3 of the bottom row: playing 4 opens both ends (two threats).
    assert GAME.move_threats(GAME.parse_position("2233"), 4) == 2
    assert GAME.move_threats(GAME.parse_position("2233"), 7) == 0
    # Two playable threats for the opponent: every move loses.
    double = GAME.parse_position("2737")
    assert GAME.non_losing_moves(GAME.play(double, 4)) == []


def solve(game: Connect4, state: Connect4State, alpha: int, beta: int, pruned: bool) -> int:
    """Exact Pons score by plain alpha-beta negamax (``pruned``: use the helpers)."""
    if game.is_terminal(state):
        return game.solver_score(state)
    moves = game.legal_moves(state)
    if pruned:
        win = game.winning_move(state)
        if win is not None:
            return -game.solver_score(game.play(state, win))
        forced = game.forced_moves(state)
        assert forced is not None
        if not forced:  # every move hands the opponent a win
            return -((game.size - state.ply) // 2)
        moves = forced
    best = -1000
    for move in moves:
        best = max(best, -solve(game, game.play(state, move), -beta, -alpha, pruned))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def pons_positions(name: str, max_empty: int) -> Iterator[tuple[str, int]]:
    """Lines of a test set whose board has at most ``max_empty`` empty cells."""
    path = TESTSETS / name
    if not path.is_file():
        pytest.skip(f"Pons' test set not found at {path} (shared data is not checked in)")
    for line in path.read_text().splitlines():
        moves, score = line.split()
        if 42 - len(moves) <= max_empty:
            yield moves, int(score)


def test_pons_end_game_positions_solve_to_their_scores() -> None:
    checked = 0
    for moves, expected in pons_positions("Test_L3_R1", max_empty=8):
        state = GAME.parse_position(moves)
        assert not GAME.is_terminal(state)
        assert not GAME.can_win_next(state)  # as the test set's README promises
        low, high = GAME.score_bounds(state)
        assert low <= expected <= high
        assert solve(GAME, state, -100, 100, pruned=False) == expected, moves
        assert solve(GAME, state, -100, 100, pruned=True) == expected, moves
        checked += 1
    assert checked > 400


def expected_outcome(moves: str, score: int) -> tuple[str, int | None]:
    """Pons' score as (result, plies to the end under perfect play) for the side to move."""
    played = len(moves)
    if score > 0:  # the side to move wins with its (22 - score)-th stone
        return "win", 2 * (22 - score - played // 2) - 1
    if score < 0:  # the opponent wins with its (22 + score)-th stone
        return "loss", 2 * (22 + score - (played - played // 2))
    return "draw", None


def test_the_engine_solves_pons_end_games() -> None:
    # Cross-checks the engine's solve (with winning_move and forced_moves) and the
    # game: result and distance must match Pons' exact scores.
    checked = 0
    for moves, score in pons_positions("Test_L3_R1", max_empty=9):
        result = engine.solve(GAME, GAME.parse_position(moves))
        expected = expected_outcome(moves, score)
        assert (result.result, result.distance if score else None) == expected, moves
        checked += 1
    assert checked > 500
