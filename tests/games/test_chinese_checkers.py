"""Chinese Checkers: the star board, steps and chains of jumps, the target-corner win
with the anti-blocking rule, the draw by ply limit, notation, and the native port.

Hand-checked positions are on the 37-hole board (``size=2``, 3 pieces a player),
whose holes are numbered::

                        1
                     2     3
      4     5     6     7     8     9    10
        11    12    13    14    15    16
           17    18    19    20    21
        22    23    24    25    26    27
     28    29    30    31    32    33    34
                    35    36
                       37
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from plies.engine import Limits, best_reply, maxn, paranoid, search
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, PliesError, SearchError
from plies.games.chinese_checkers import PASS, ChineseCheckers, ChineseCheckersState
from plies.testing import check_game


def small(players: int = 2, turns: int = 100) -> ChineseCheckers:
    return ChineseCheckers(players=players, size=2, turns=turns)


def place(game: ChineseCheckers, holes: dict[int, int], ply: int = 0) -> ChineseCheckersState:
    """A position from ``{hole (1-based): player (1-based)}``."""
    pieces = [0] * game.num_players
    for hole, player in holes.items():
        pieces[player - 1] |= 1 << (hole - 1)
    state = ChineseCheckersState(tuple(pieces), ply % game.num_players, ply)
    game.check_state(state)
    return state


def texts(game: ChineseCheckers, state: ChineseCheckersState) -> list[str]:
    return [game.format_move(state, move) for move in game.legal_moves(state)]


def reach(game: ChineseCheckers, state: ChineseCheckersState, hole: int) -> set[int]:
    """The 1-based holes the piece on ``hole`` can end a move on."""
    occupied = sum(state.pieces)
    mask = game.destinations(occupied, hole - 1)
    return {h + 1 for h in range(game.star.holes) if mask >> h & 1}


# -- the board --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "holes", "pieces"), [(1, 13, 1), (2, 37, 3), (3, 73, 6), (4, 121, 10), (5, 181, 15)]
)
def test_the_star_has_the_holes_and_corners_of_the_literature(
    size: int, holes: int, pieces: int
) -> None:
    game = ChineseCheckers(size=size)
    assert game.star.holes == holes
    assert [len(corner) for corner in game.star.corners] == [pieces] * 6
    assert game.pieces_each == pieces


def test_the_start_of_the_three_player_game_on_73_holes() -> None:
    game = ChineseCheckers(players=3)
    assert game.render(game.initial_state()).splitlines() == [
        " 1          .",
        " 2         . .",
        " 4        . . .",
        " 7 2 2 2 . . . . 3 3 3",
        "17  2 2 . . . . . 3 3",
        "26   2 . . . . . . 3",
        "34    . . . . . . .",
        "41   . . . . . . . .",
        "49  . . . . . . . . .",
        "58 . . . . . . . . . .",
        "68        1 1 1",
        "71         1 1",
        "73          1",
        "player 1 to move (ply 0 of 300)",
    ]


# -- moves ------------------------------------------------------------------------------


def test_the_first_moves_are_four_steps_and_two_jumps() -> None:
    game = small()
    assert texts(game, game.initial_state()) == [
        "35-30",
        "35-31",
        "36-31",
        "36-32",
        "37x30",
        "37x32",
    ]


def test_a_lone_piece_steps_to_its_six_neighbours() -> None:
    game = small()
    state = place(game, {19: 1, 36: 1, 37: 1, 1: 2, 2: 2, 3: 2})
    assert reach(game, state, 19) == {13, 14, 18, 20, 24, 25}


def test_jumps_chain_over_single_pieces_of_any_player() -> None:
    game = small()
    # 30 jumps 24 (its own) to 19, then 14 (the opponent's) to 8.
    state = place(game, {30: 1, 24: 1, 37: 1, 14: 2, 1: 2, 2: 2})
    assert {19, 8} <= reach(game, state, 30)
    move = game.parse_move(state, "30x19x8")
    assert move == (29, 7)
    assert game.format_move(state, move) == "30x19x8"
    assert game.parse_move(state, "30-8") == move  # any move by its two ends
    after = game.play(state, move)
    assert after.pieces[0] == state.pieces[0] ^ (1 << 29) ^ (1 << 7)
    assert after.pieces[1] == state.pieces[1]  # nothing is captured
    assert game.to_move(after) == 1


def test_no_jump_over_two_pieces_in_a_row() -> None:
    game = small()
    state = place(game, {30: 1, 24: 1, 19: 2, 37: 1, 1: 2, 2: 2})
    assert 14 not in reach(game, state, 30)  # would jump 24 and 19 at once
    assert 19 not in reach(game, state, 30)  # taken
    with pytest.raises(IllegalMoveError, match="no jump from hole 30 to hole 14"):
        game.parse_move(state, "30x14")


def test_a_chain_may_come_back_to_its_start_but_not_end_there() -> None:
    game = small()
    # 19x8 and back 8x19 is a chain; 19 is no destination, 8 and 17 are.
    state = place(game, {19: 1, 18: 1, 37: 1, 14: 2, 1: 2, 2: 2})
    assert reach(game, state, 19) == {8, 17, 13, 20, 24, 25}
    assert all(move[0] != move[1] for move in game.legal_moves(state))


def test_a_blocked_player_passes() -> None:
    # The 13-hole board, six players: player 1's piece on the bottom tip (13) has both
    # neighbours (10, 11) taken and the holes beyond them (6, 8) too.
    game = ChineseCheckers(size=1, players=6)
    state = place(game, {13: 1, 10: 2, 11: 3, 6: 4, 8: 5, 12: 6})
    assert game.legal_moves(state) == [PASS]
    assert game.format_move(state, PASS) == "pass"
    assert game.parse_move(state, "pass") == PASS
    after = game.play(state, PASS)
    assert after == ChineseCheckersState(state.pieces, 1, 1)
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        game.parse_move(game.initial_state(), "pass")


# -- the end --------------------------------------------------------------------------


def test_the_start_corner_full_of_the_opponent_is_no_win() -> None:
    game = small()
    start = game.initial_state()
    assert not game.is_terminal(start)
    assert game.winner(start) is None


def test_filling_the_target_with_one_own_piece_wins_despite_blockers() -> None:
    game = small()
    # Player 2 still holds 2 and 3 of player 1's target (1, 2, 3): jumping 6x1 fills it.
    state = place(game, {6: 1, 35: 1, 36: 1, 2: 2, 3: 2, 20: 2})
    after = game.play(state, game.parse_move(state, "6x1"))
    assert game.is_terminal(after) and game.winner(after) == 0
    assert game.utilities(after) == (1.0, -1.0)
    assert game.terminal_value(after) == -1.0  # the side to move lost
    assert game.legal_moves(after) == []
    assert game.render(after).splitlines()[-1] == "player 1 wins"
    with pytest.raises(IllegalMoveError, match="after the game is over"):
        game.play(after, (34, 28))


def test_with_three_players_the_winner_gets_one_and_the_others_nothing() -> None:
    game = small(players=3)
    # Player 3 (upper right) aims for the lower left corner: 22, 28, 29.
    goal = {hole + 1 for hole in game.goal_holes(2)}
    assert goal == {22, 28, 29}
    state = place(game, {22: 3, 28: 3, 17: 3, 35: 1, 36: 1, 37: 1, 4: 2, 5: 2, 11: 2}, ply=2)
    after = game.play(state, game.parse_move(state, "17-23"))
    assert not game.is_terminal(after)
    state = place(game, {22: 3, 28: 3, 30: 3, 35: 1, 36: 1, 37: 1, 4: 2, 5: 2, 11: 2}, ply=2)
    after = game.play(state, game.parse_move(state, "30-29"))
    assert game.utilities(after) == (0.0, 0.0, 1.0)
    assert game.utility(after, 2) == 1.0


def test_the_ply_limit_draws() -> None:
    game = small(turns=1)
    state = game.initial_state()
    for text in ("35-30", "2-7"):
        assert not game.is_terminal(state)
        assert game.remaining_plies(state) == 2 - state.ply
        state = game.play(state, game.parse_move(state, text))
    assert game.is_terminal(state) and game.winner(state) is None
    assert game.utilities(state) == (0.0, 0.0)
    assert game.terminal_value(state) == 0.0
    assert game.render(state).splitlines()[-1] == "draw: 1 moves each"


def test_with_turn_gives_the_turn_and_keeps_the_draw_count() -> None:
    game = small(players=3, turns=2)
    start = game.initial_state()
    turned = game.with_turn(start, 2)
    assert turned == ChineseCheckersState(start.pieces, 2, 0)
    assert game.to_move(turned) == 2 and game.remaining_plies(turned) == 6
    after = game.play(turned, game.legal_moves(turned)[0])
    assert (after.turn, after.ply) == (0, 1)
    drawn = ChineseCheckersState(start.pieces, 0, 6)
    assert game.is_terminal(drawn) and game.with_turn(drawn, 1) is None


# -- the evaluation and the searches ------------------------------------------------------


def test_the_evaluation_is_zero_sum_and_rewards_progress() -> None:
    game = ChineseCheckers(players=3)
    start = game.initial_state()
    assert game.evaluations(start) == (0.0, 0.0, 0.0)
    after = game.play(start, game.parse_move(start, "71x61"))
    values = game.evaluations(after)
    assert values[0] > 0 > values[1] and sum(values) == 0
    assert values == tuple(game.evaluate(after, p) for p in range(3))


def test_every_search_takes_the_winning_jump() -> None:
    game = small(players=3)
    state = place(game, {22: 3, 28: 3, 30: 3, 35: 1, 36: 1, 37: 1, 4: 2, 5: 2, 11: 2}, ply=2)
    for run in (maxn, paranoid, best_reply):
        result = run(game, state, limits=Limits(depth=2))
        assert game.format_move(state, result.best_move) == "30-29", run.__name__
    two = small()
    won = place(two, {6: 1, 35: 1, 36: 1, 2: 2, 3: 2, 20: 2})
    assert two.format_move(won, search(two, won, limits=Limits(depth=3)).best_move) == "6x1"


# -- notation and bad input -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 6])
def test_moves_and_positions_read_back(players: int) -> None:
    game = small(players=players)
    rng = random.Random(players)
    state = game.initial_state()
    played = []
    for _ in range(40):
        if game.is_terminal(state):
            break
        for move in game.legal_moves(state):
            assert game.parse_move(state, game.format_move(state, move)) == move
        move = rng.choice(game.legal_moves(state))
        played.append(game.format_move(state, move))
        state = game.play(state, move)
        assert game.parse_position(game.format_position(state)) == state
    assert game.parse_position(" ".join(played)) == state


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("35-99", ParseError, "hole 99 is not on the board"),
        ("abc", ParseError, "a move is 'a-b'"),
        ("35-19", IllegalMoveError, "neither next to hole 35 nor reached by jumps"),
        ("1-4", IllegalMoveError, "no piece of the player to move"),
        ("37x31", IllegalMoveError, "no jump from hole 37 to hole 31"),
        ("pass", IllegalMoveError, "cannot pass"),
        ("35-" + "9" * 30, ParseError, "digits"),
    ],
)
def test_bad_moves_are_one_line_errors(text: str, error: type[Exception], message: str) -> None:
    game = small()
    with pytest.raises(error, match=message) as caught:
        game.parse_move(game.initial_state(), text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2/22/......./....../...../....../......./11 1 0", "a board has 9 rows"),
        ("2/22/......./....../..../....../......./11/1 1 0", "row 5 has 5 holes"),
        ("2/22/......./....../....3/....../......./11/1 1 0", "'3' is no hole"),
        ("2/22/......./....../....1/....../......./11/1 1 0", "not 3 a player"),
        ("2/22/......./....../...../....../......./11/1 1 999", "ply 999"),
        ("2/22/......./....../...../....../......./11/1 3 0", "the player to move is 1-2, got 3"),
        ("2/22/......./....../...../....../......./11/1 0", "a board position is"),
        ("35-30 35-31", "illegal move"),
    ],
)
def test_bad_positions_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(PliesError, match=message) as caught:
        small().parse_position(text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"players": 5}, PliesError, "players must be 2, 3, 4 or 6"),
        ({"size": 9}, PliesError, "size must be between 1 and 5"),
        ({"turns": 0}, PliesError, "turns must be between 1 and 1000"),
        ({"players": "3"}, ArgumentTypeError, "must be an integer"),
    ],
)
def test_bad_options_are_refused(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        ChineseCheckers(**options)


def test_bad_states_and_moves_are_refused() -> None:
    game = small()
    start = game.initial_state()
    with pytest.raises(ArgumentTypeError):
        game.play(start, "35-30")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        game.legal_moves(None)  # type: ignore[arg-type]
    with pytest.raises(PliesError, match="3 players, not 2"):
        game.legal_moves(ChineseCheckersState((*start.pieces, 0), 0, 0))
    with pytest.raises(PliesError, match="turn 2: the players are 0-1"):
        game.legal_moves(ChineseCheckersState(start.pieces, 2, 0))
    with pytest.raises(PliesError, match="a player is 0 to 1"):
        game.evaluate(start, 2)


def test_the_board_for_the_room_names_the_holes_of_a_move() -> None:
    game = small()
    state = game.initial_state()
    board = game.board(state)
    assert board.rows[8] == "      x      " and board.rows[0] == "      o      "
    assert board.numbers is not None and board.numbers[8][6] == "37"
    assert list(board.cells_of("37x30")) == [(8, 6), (6, 4)]
    assert list(board.cells_of("nonsense")) == []


# -- conformance and the native port --------------------------------------------------------


def test_two_players_conform_with_the_native_port_agreeing() -> None:
    pytest.importorskip("numba")
    report = check_game(small(turns=30), playouts=12, seed=1)
    assert report.terminals == 12 and report.transpositions > 0
    assert report.native_states > 500


@pytest.mark.parametrize("players", [3, 4, 6])
def test_more_players_conform(players: int) -> None:
    report = check_game(small(players=players, turns=15), playouts=4, seed=players)
    assert report.terminals == 4


def _native_agrees(game: ChineseCheckers, seed: int, states: int) -> None:
    """Play random games comparing the port's rules with the Python ones at every
    state until ``states`` were compared."""
    import numpy as np

    from plies.engine.native import describe_state, play_move

    port = game.native()
    prepared = port.prepare(game.initial_state())
    moves = np.zeros(prepared.max_moves, np.int64)
    kept = np.zeros(prepared.max_moves, np.int64)
    numbers = np.zeros(5, np.float64)
    rng = random.Random(seed)
    state, compared = game.initial_state(), 0
    while compared < states:
        encoded = port.encode(prepared, state)
        describe_state(port.rules(), prepared.consts, encoded, moves, kept, numbers)
        native = [port.decode_move(prepared, int(m)) for m in moves[: int(numbers[0])]]
        assert native == game.legal_moves(state)
        value = game.terminal_value(state)
        assert (None if np.isnan(numbers[1]) else numbers[1]) == value
        compared += 1
        if value is not None:
            state = game.initial_state()
            continue
        assert numbers[2] == game.evaluate(state, game.to_move(state))
        move = rng.choice(native)
        child = np.zeros_like(encoded)
        play_move(port.rules(), prepared.consts, encoded, port.encode_move(prepared, move), child)
        state = game.play(state, move)
        assert np.array_equal(child, port.encode(prepared, state))


@pytest.mark.parametrize(("players", "size"), [(3, 2), (3, 3), (6, 2), (4, 4)])
def test_the_native_rules_agree_for_more_players(players: int, size: int) -> None:
    pytest.importorskip("numba")
    game = ChineseCheckers(players=players, size=size, turns=20)
    _native_agrees(game, seed=players, states=400)
    assert game.native().tasks == ()  # the kernel's searches are two-player
    assert check_game(game, playouts=2, seed=players).native_states > 0
    with pytest.raises(SearchError, match="search is for two-player games"):
        search(game, game.initial_state(), limits=Limits(depth=1), backend="native")


def test_a_native_search_equals_the_python_one() -> None:
    pytest.importorskip("numba")
    game = ChineseCheckers()  # two players, 73 holes
    state = game.parse_position("70-64")
    python = search(game, state, limits=Limits(depth=4), backend="python")
    native = search(game, state, limits=Limits(depth=4), backend="native")
    assert native.value == python.value != 0
    assert native.best_move == python.best_move
    assert native.stats.nodes == python.stats.nodes
