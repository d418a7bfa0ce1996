"""Bad input to the games' API: illegal moves, wrong types, huge numbers, bad parameters.

Each test reproduces a failure seen before the fix (an IndexError, a silently wrong
state, a ValueError traceback from ``int()``, a message quoting ``__init__()``).
"""

from __future__ import annotations

from typing import Any

import pytest

from plies.errors import (
    ArgumentTypeError,
    IllegalMoveError,
    ParseError,
    PliesError,
    UnknownGameError,
)
from plies.games import available_games, get_game, parse_game_spec
from plies.games.nim import NimMove

HUGE = "9" * 5000  # int() refuses more than 4,300 digits


# -- play() refuses illegal moves -------------------------------------------------------


@pytest.mark.parametrize("move", [9, 0, -1, 8])
def test_connect4_play_refuses_a_column_off_the_board(move: int) -> None:
    # Was an IndexError for 9, and -1 silently played column 7.
    game = get_game("connect4")
    with pytest.raises(IllegalMoveError, match=rf"illegal move {move}: the columns are 1-7"):
        game.play(game.initial_state(), move)


def test_connect4_play_refuses_a_full_column_and_a_finished_game() -> None:
    game = get_game("connect4")
    full = game.parse_position("444444")
    with pytest.raises(IllegalMoveError, match="column is full"):
        game.play(full, 4)
    won = game.parse_position("1212121")
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play(won, 3)


WRONG_TYPES: list[Any] = ["4", 4.0, None, True, (4,)]


@pytest.mark.parametrize("name", ["connect4", "tictactoe", "othello"])
@pytest.mark.parametrize("move", WRONG_TYPES, ids=repr)
def test_int_move_games_refuse_other_types(name: str, move: Any) -> None:
    game = get_game(name)
    with pytest.raises(ArgumentTypeError, match="a move is an int"):
        game.play(game.initial_state(), move)


@pytest.mark.parametrize(
    ("name", "position", "move", "reason"),
    [
        ("tictactoe", "", 9, "cells are 0-8"),
        ("tictactoe", "", -1, "cells are 0-8"),
        ("tictactoe", "5", 4, "the cell is taken"),
        ("tictactoe", "14253", 6, "the game is over"),
        ("othello", "", 0, "flips no disc"),
        ("othello", "", 27, "occupied"),
        ("othello", "", 64, "a pass is only legal"),
        ("othello", "", 65, "a square 0-63 or PASS"),
        ("othello", "", -1, "a square 0-63 or PASS"),
    ],
)
def test_play_names_the_move_and_why(name: str, position: str, move: int, reason: str) -> None:
    game = get_game(name)
    with pytest.raises(IllegalMoveError, match=reason):
        game.play(game.parse_position(position), move)


@pytest.mark.parametrize(
    ("move", "error", "reason"),
    [
        (NimMove(3, 1), IllegalMoveError, "no heap 3"),
        (NimMove(-1, 1), IllegalMoveError, "no heap -1"),
        (NimMove(0, 4), IllegalMoveError, "cannot take 4 from heap 0, which holds 3"),
        (NimMove(0, 0), IllegalMoveError, "cannot take 0"),
        (NimMove(0, -2), IllegalMoveError, "cannot take -2"),
        ((0, 1.0), ArgumentTypeError, "heap and take are ints"),
        ((True, 1), ArgumentTypeError, "heap and take are ints"),
        ("1:1", ArgumentTypeError, "NimMove"),
        (None, ArgumentTypeError, "NimMove"),
    ],
)
def test_nim_play_refuses(move: Any, error: type[Exception], reason: str) -> None:
    game = get_game("nim")
    with pytest.raises(error, match=reason):
        game.play(game.initial_state(), move)


def test_nim_play_accepts_a_plain_pair() -> None:
    game = get_game("nim")
    assert game.play(game.initial_state(), (1, 4)).heaps == (3, 0, 5)


@pytest.mark.parametrize(
    ("position", "move", "error", "reason"),
    [
        ("", "hold", IllegalMoveError, "turn total is 0"),
        ("", 3, IllegalMoveError, "a die face only after a roll"),
        ("", "jump", IllegalMoveError, "'roll' or 'hold'"),
        ("roll", "roll", IllegalMoveError, "the die is rolling"),
        ("roll", 7, IllegalMoveError, "face 1-6"),
        ("roll", 0, IllegalMoveError, "face 1-6"),
        ("scores 20,3 total 0 player 2", "roll", IllegalMoveError, "game is over"),
        ("roll", 2.0, ArgumentTypeError, "float"),
        ("roll", True, ArgumentTypeError, "bool"),
        ("", None, ArgumentTypeError, "NoneType"),
    ],
)
def test_pig_play_refuses(position: str, move: Any, error: type[Exception], reason: str) -> None:
    game = get_game("pig")
    with pytest.raises(error, match=reason):
        game.play(game.parse_position(position), move)


@pytest.mark.parametrize("name", available_games())
def test_every_legal_move_is_still_played(name: str) -> None:
    game = get_game(name)
    state = game.initial_state()
    for move in game.legal_moves(state):
        assert game.play(state, move) == game.play_unchecked(state, move)


# -- numbers of any length ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        ("connect4:width=12", f"1,{HUGE}"),
        ("tictactoe", f"1 {HUGE}"),
        ("mnk:m=4,n=4,k=3", f"1 {HUGE}"),
        ("nim", HUGE),
        ("nim", f"3,{HUGE},5"),
        ("pig", f"roll {HUGE}"),
        ("pig", f"scores {HUGE},1 total 0 player 1"),
        ("pig", f"scores 1,1 total {HUGE} player 1"),
    ],
)
def test_a_huge_number_in_a_position_is_a_parse_error(spec: str, text: str) -> None:
    # Was "ValueError: Exceeds the limit (4300 digits) for integer string conversion".
    game = parse_game_spec(spec)
    with pytest.raises(ParseError, match="5,000 digits") as info:
        game.parse_position(text)
    assert len(str(info.value)) < 300  # the input is not echoed whole


@pytest.mark.parametrize(
    ("spec", "text"),
    [("connect4:width=12", HUGE), ("tictactoe", HUGE), ("nim", f"{HUGE}:1"), ("nim", f"1:{HUGE}")],
)
def test_a_huge_number_as_a_move_is_a_parse_error(spec: str, text: str) -> None:
    game = parse_game_spec(spec)
    with pytest.raises(ParseError, match="5,000 digits"):
        game.parse_move(game.initial_state(), text)


def test_a_long_malformed_position_is_quoted_short() -> None:
    game = get_game("othello")
    with pytest.raises(ParseError) as info:
        game.parse_position("X" * 100_000)
    assert "100,000 characters" in str(info.value) and len(str(info.value)) < 300


# -- game parameters ----------------------------------------------------------------------


def test_an_unknown_parameter_lists_the_parameters() -> None:
    # Was "connect4: bad parameters {'depth': 3} (Connect4.__init__() got an unexpected...".
    with pytest.raises(
        UnknownGameError, match=r"connect4: unknown parameter 'depth' \(parameters: width, height\)"
    ):
        parse_game_spec("connect4:depth=3")
    with pytest.raises(
        UnknownGameError, match=r"othello: unknown parameter 'size' \(parameters: none\)"
    ):
        parse_game_spec("othello:size=10")
    with pytest.raises(UnknownGameError, match=r"parameters: m, n, k\)"):
        parse_game_spec("tictactoe:name=3")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("connect4:width=0", "between 1 and 16, got 0"),
        ("connect4:height=-3", "between 1 and 16, got -3"),
        ("connect4:width=100000", "between 1 and 16"),
        ("mnk:m=0", "from 1 to 16, got 0"),
        ("mnk:m=1000000", "from 1 to 16"),
        ("mnk:m=3,n=3,k=4", "k must be from 1 to 3"),
        ("pig:target=0", "between 1 and 1000"),
        ("pig:faces=1", "between 2 and 100"),
        ("nim:heaps=-1", "0-1000000"),
        ("nim:heaps=10000000", "0-1000000"),
        (f"connect4:width={HUGE}", "5,000 digits"),
    ],
)
def test_bad_parameter_values_give_the_range(spec: str, message: str) -> None:
    with pytest.raises(UnknownGameError, match=message):
        parse_game_spec(spec)


def test_mnk_is_named_as_asked() -> None:
    # Was "tictactoe: no cell 10" for the game asked for as mnk.
    with pytest.raises(IllegalMoveError, match=r"^mnk: no cell 10"):
        parse_game_spec("mnk").parse_move(get_game("mnk").initial_state(), "10")
    assert parse_game_spec("tictactoe").name == "tictactoe"
    assert parse_game_spec("mnk:m=4").name == "mnk:m=4"
    with pytest.raises(UnknownGameError, match=r"^tictactoe:m=0: mnk: m must be"):
        parse_game_spec("tictactoe:m=0")


def test_parameter_errors_are_plies_errors() -> None:
    with pytest.raises(ArgumentTypeError):
        get_game("connect4", width="7")  # type: ignore[arg-type]
    with pytest.raises(PliesError):
        get_game("nim", heaps="345")  # type: ignore[arg-type]


# -- states: None, another game's, none that a game reaches --------------------------------

#: A position of each game a few moves in.
POSITIONS = {
    "tictactoe": "5 1",
    "nim": "3,4,5",
    "connect4": "4453",
    "othello": "f5d6",
    "checkers": "11-15",
    "pig": "roll 4",
    "chess": "e4 e5",
}


def _position(name: str) -> Any:
    if name == "chess":
        pytest.importorskip("chess")
    return get_game(name).parse_position(POSITIONS[name])


#: Methods every game has that take a state (and nothing else but a player).
STATE_METHODS = [
    "to_move",
    "legal_moves",
    "is_terminal",
    "terminal_value",
    "key",
    "canonical_key",
    "format_position",
    "render",
    "winning_move",
    "remaining_plies",
    "is_chance",
]


@pytest.mark.parametrize("name", POSITIONS)
@pytest.mark.parametrize("method", STATE_METHODS)
def test_every_method_refuses_none_and_another_games_state(name: str, method: str) -> None:
    # Was an AttributeError ('NoneType' object has no attribute 'won'), or a silently
    # wrong answer for another game's tuple of the same length.
    game = get_game(name)
    other = _position("nim" if name != "nim" else "tictactoe")
    for bad in (None, other, "4453", (0, 0, 0, False)):
        with pytest.raises(ArgumentTypeError, match=f"{game.name}: a state must be of type"):
            getattr(game, method)(bad)


@pytest.mark.parametrize("name", POSITIONS)
def test_moves_and_text_of_the_wrong_type_are_refused(name: str) -> None:
    game = get_game(name)
    state = _position(name)
    with pytest.raises(ArgumentTypeError):
        game.play(None, game.legal_moves(state)[0] if game.legal_moves(state) else 1)
    with pytest.raises(ArgumentTypeError):
        game.parse_move(state, None)
    with pytest.raises(ArgumentTypeError):
        game.parse_position(b"4453")
    with pytest.raises(ArgumentTypeError):
        game.format_move(state, object())
    with pytest.raises(PliesError):
        game.utility(state, "x")


@pytest.mark.parametrize(
    ("name", "make", "problem"),
    [
        ("tictactoe", lambda s: s._replace(ply=5), "1 x and 1 o marks at ply 5"),
        ("tictactoe", lambda s: s._replace(o=s.x), "marks off the board or on one another"),
        ("tictactoe", lambda s: s._replace(won=True), "won flag"),
        ("connect4", lambda s: s._replace(mask=s.mask << 1), "stones"),
        ("connect4", lambda s: s._replace(ply=None), "fields"),
        ("othello", lambda s: s._replace(opponent=s.mover), "on one another"),
        ("othello", lambda s: s._replace(player=2), "player 2"),
        ("checkers", lambda s: s._replace(kings=1 << 40), "kings that are no pieces"),
        ("checkers", lambda s: s._replace(quiet=-1), "draw count -1"),
        ("nim", lambda s: s._replace(player=2), "its player is not 0 or 1"),
        ("nim", lambda s: s._replace(heaps=[1, 2]), "its heaps are no tuple"),
        ("pig", lambda s: s._replace(total=-4), "turn total -4"),
    ],
)
def test_a_state_no_game_reaches_is_refused(name: str, make: Any, problem: str) -> None:
    game = get_game(name)
    bad = make(_position(name))
    with pytest.raises(PliesError, match=problem):
        game.check_state(bad)
    with pytest.raises(PliesError, match="is not a position"):
        game.format_position(bad)


def test_a_chance_outcome_of_a_game_without_chance_is_an_error() -> None:
    # Was NotImplementedError, as for a game that forgot to implement it.
    game = get_game("tictactoe")
    with pytest.raises(PliesError, match="tictactoe has no chance nodes"):
        game.chance_outcomes(game.initial_state())


@pytest.mark.parametrize("name", ["connect4", "checkers", "chess"])
def test_order_moves_refuses_what_is_no_list_of_moves(name: str) -> None:
    game = get_game(name)
    state = _position(name)
    for bad in (None, 3, [None, None], ["x", "y"]):
        with pytest.raises(ArgumentTypeError, match="moves must be"):
            game.order_moves(state, bad)


@pytest.mark.parametrize("spec", [None, 3, b"connect4", ["connect4"]])
def test_a_game_spec_that_is_no_text_is_an_argument_type_error(spec: Any) -> None:
    # Was AttributeError: 'NoneType' object has no attribute 'strip'.
    with pytest.raises(ArgumentTypeError, match="a game spec is text"):
        parse_game_spec(spec)
