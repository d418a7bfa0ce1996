"""OpenSpiel's games through the adapter: conformance, agreement with plies' own
games, refusals, the command line."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from plies.cli import main
from plies.engine import Limits, search, solve
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, UnknownGameError
from plies.games import get_game, parse_game_spec
from plies.testing import check_game

pytest.importorskip("pyspiel")

#: The games the issue lists, and one with chance nodes.
SERVED = [
    "tic_tac_toe",
    "connect_four",
    "checkers",
    "breakthrough(rows=6,columns=5)",
    "hex(board_size=5)",
    "go(board_size=5,komi=0.5)",
    "pig(winscore=12)",
]


@pytest.mark.parametrize("spec", SERVED)
def test_served_games_conform(spec: str) -> None:
    report = check_game(get_game(f"openspiel:{spec}"), playouts=6, seed=2)
    assert report.terminals == 6


def test_tic_tac_toe_is_a_draw_and_the_engine_plays_it() -> None:
    game = get_game("openspiel:tic_tac_toe")
    assert solve(game, game.initial_state()).result == "draw"
    # x in the centre, o on an edge: x wins (OpenSpiel's cells 0-8 row by row).
    state = game.parse_position("4 1")
    assert solve(game, state).result == "win"
    best = search(game, state, limits=Limits(depth=5)).best_move
    assert game.format_move(state, best).startswith("x(")


def test_connect_four_agrees_with_plies_own_on_random_positions() -> None:
    ours, theirs = get_game("connect4"), get_game("openspiel:connect_four")
    rng = random.Random(11)
    checked = 0
    while checked < 6:
        state, columns = ours.initial_state(), []
        for _ in range(30):
            if ours.is_terminal(state):
                break
            move = rng.choice(list(ours.legal_moves(state)))
            columns.append(move)
            state = ours.play(state, move)
        if ours.is_terminal(state):
            continue
        other = theirs.parse_position(" ".join(str(c - 1) for c in columns))
        mine, spiel = solve(ours, state), solve(theirs, other)
        assert (mine.result, mine.distance) == (spiel.result, spiel.distance), columns
        checked += 1


def test_chance_nodes_are_searched_by_expectation() -> None:
    game = get_game("openspiel:pig(winscore=6)")
    state = game.initial_state()
    assert game.has_chance
    rolled = game.play(state, game.parse_move(state, "roll"))
    assert game.is_chance(rolled) and game.to_move(rolled) == 0
    assert abs(sum(p for _, p in game.chance_outcomes(rolled)) - 1) < 1e-12
    result = search(game, state, limits=Limits(depth=4))
    assert result.best_move in game.legal_moves(state)


def test_moves_and_positions_read_back() -> None:
    game = get_game("openspiel:tic_tac_toe")
    state = game.parse_position("4, 0")
    assert game.format_position(state) == "4 0"
    assert game.parse_move(state, "x(0,2)") == 2  # OpenSpiel's text, as written
    with pytest.raises(ParseError, match=r"case sensitive: did you mean 'x\(0,2\)'"):
        game.parse_move(state, "X(0,2)")
    assert game.parse_move(state, "8") == 8  # or the action id
    with pytest.raises(ParseError, match="no legal move"):
        game.parse_move(state, "x(9,9)")
    with pytest.raises(ParseError, match="action 4 is not legal"):
        game.parse_move(state, "4")
    with pytest.raises(IllegalMoveError):
        game.play(state, 4)
    with pytest.raises(ParseError, match="item 2"):
        game.parse_position("4 4")
    with pytest.raises(ParseError, match="not an action id"):
        game.parse_position("4 x(0,0)")


def test_moves_are_read_case_sensitively_as_san_is() -> None:
    # 1. e4 c5 2. b3 c4 (OpenSpiel's action ids): the pawn b3 and the bishop f1 both
    # take on c4. Read case-blind, 'bxc4' and 'Bxc4' were one and the same move.
    game = get_game("openspiel:chess")
    state = game.parse_position("2426 1258 673 1403")
    texts = [game.format_move(state, move) for move in game.legal_moves(state)]
    assert "bxc4" in texts and "Bxc4" in texts
    pawn, bishop = game.parse_move(state, "bxc4"), game.parse_move(state, "Bxc4")
    assert pawn != bishop
    assert game.format_move(state, pawn) == "bxc4"
    assert game.format_move(state, bishop) == "Bxc4"


@pytest.mark.parametrize("spec", ["chess", "crazyhouse"])
def test_every_move_text_reads_back_to_its_move(spec: str) -> None:
    game = get_game(f"openspiel:{spec}")
    rng = random.Random(7)
    checked = 0
    for _ in range(4):
        state = game.initial_state()
        for _ in range(60):
            if game.is_terminal(state):
                break
            moves = game.legal_moves(state)
            for move in moves:
                assert game.parse_move(state, game.format_move(state, move)) == move
                checked += 1
            state = game.play(state, rng.choice(moves))
    assert checked > 2000


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        # Refused by OpenSpiel only when a state is made: a SpielError traceback before.
        ("go(board_size=-1)", "cannot load 'go(board_size=-1)': unsupported board size"),
        ("go(board_size=30)", "supports board size up to 19"),
        ("hex(board_size=0)", "0 distinct actions"),
        ("connect_four(rows=-3)", "lasts up to -21 moves"),
        # A board of 10**10 cells: std::bad_alloc, or the machine's memory, before.
        ("connect_four(rows=100000,columns=100000)", "lasts up to 1,410,065,408 moves"),
        ("breakthrough(rows=100000,columns=100000)", "distinct actions"),
        ("go(komi=abc)", "Wrong type for parameter komi"),
        ("go(board_size=", "Missing closing bracket"),
    ],
)
def test_openspiel_errors_are_one_line_plies_errors(
    spec: str, says: str, capfd: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UnknownGameError, match=re.escape(says)) as caught:
        parse_game_spec(f"openspiel:{spec}")
    assert "\n" not in str(caught.value)
    assert capfd.readouterr().err == ""
    assert main(["solve", f"openspiel:{spec}"]) == 1
    err = capfd.readouterr().err
    assert err.startswith("error: ") and len(err.splitlines()) == 1, err


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("4 4", "position item 2"),
        ("0 3 1 4 2 5", "game is over"),
        ("99", "action 99 is not legal"),
        ("9" * 40, "not an action id"),
        ("-1", "not an action id"),
    ],
)
def test_bad_positions_are_one_line_parse_errors(
    text: str, says: str, capfd: pytest.CaptureFixture[str]
) -> None:
    game = get_game("openspiel:tic_tac_toe")
    with pytest.raises(ParseError, match=says) as caught:
        game.parse_position(text)
    assert "\n" not in str(caught.value)
    assert capfd.readouterr().err == ""


def test_bad_moves_are_one_line_errors(capfd: pytest.CaptureFixture[str]) -> None:
    game = get_game("openspiel:tic_tac_toe")
    state = game.initial_state()
    for text in ("x(9,9)", "9" * 40, "", "\x00", "o(0,0)"):
        with pytest.raises(ParseError):
            game.parse_move(state, text)
    with pytest.raises(ArgumentTypeError):
        game.parse_move(None, "4")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        game.parse_move(state, 4)  # type: ignore[arg-type]
    over = game.parse_position("0 3 1 4 2")
    with pytest.raises(ParseError, match="game is over"):
        game.parse_move(over, "x(2,2)")
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("openspiel:kuhn_poker", "hidden information"),
        ("openspiel:goofspiel", "simultaneously"),
        ("openspiel:oh_hell", "hidden information"),
        ("openspiel:yacht(players=1)", "1 player"),
        ("openspiel:nosuch", "Unknown game 'nosuch'"),
        ("openspiel:tic_tac_toe(foo=1)", "Unknown parameter 'foo'"),
        ("openspiel:", "needs a game"),
    ],
)
def test_games_it_cannot_serve_are_refused_in_one_line(
    spec: str, says: str, capfd: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UnknownGameError, match=says) as caught:
        parse_game_spec(spec)
    assert "\n" not in str(caught.value)
    assert capfd.readouterr().err == ""  # OpenSpiel's own printout is kept off the terminal


def test_parameters_go_inside_the_game_text() -> None:
    with pytest.raises(UnknownGameError, match="inside the game text"):
        get_game("openspiel:go", board_size=5)


def test_the_command_line_analyzes_and_solves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "openspiel:go(board_size=5,komi=0.5)", "--depth", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("bestmove ")
    assert main(["solve", "openspiel:tic_tac_toe", "4 1"]) == 0
    assert "win" in capsys.readouterr().out
    assert main(["solve", "openspiel:kuhn_poker"]) == 1
    assert "hidden information" in capsys.readouterr().err


def test_every_reachable_tic_tac_toe_position_has_plies_own_value() -> None:
    # OpenSpiel's cells 0-8 are plies' tictactoe cells 1-9. Both games' values of all
    # 5,478 reachable positions, by a plain memoised minimax over each game's rules.
    spiel, ours = get_game("openspiel:tic_tac_toe"), get_game("tictactoe")

    def values(game: Any, to_cell: Callable[[Any], int]) -> dict[tuple[int, ...], float]:
        found: dict[tuple[int, ...], float] = {}

        def value(state: Any, cells: tuple[int, ...]) -> float:
            key = (*sorted(cells[::2]), -1, *sorted(cells[1::2]))
            if key not in found:
                if game.is_terminal(state):
                    found[key] = game.utility(state, game.to_move(state))
                else:
                    found[key] = max(
                        -value(game.play(state, move), (*cells, to_cell(move)))
                        for move in game.legal_moves(state)
                    )
            return found[key]

        value(game.initial_state(), ())
        return found

    theirs = values(spiel, lambda action: action + 1)
    mine = values(ours, lambda move: int(ours.format_move(ours.initial_state(), move)))
    assert len(theirs) == len(mine) == 5478
    assert theirs == mine
    # And the engine agrees through the adapter on a sample of them.
    rng = random.Random(3)
    for _ in range(40):
        state, cells = spiel.initial_state(), []
        while not spiel.is_terminal(state) and rng.random() < 0.8:
            action = rng.choice(spiel.legal_moves(state))
            state, cells = spiel.play(state, action), [*cells, action + 1]
        own = ours.parse_position(" ".join(map(str, cells)))
        assert solve(spiel, state).result == solve(ours, own).result


#: Games of more than two players OpenSpiel has with perfect information.
MANY_PLAYERS = [
    ("chinese_checkers(players=3)", 3),
    ("pig(players=3,winscore=10)", 3),
    ("quoridor(players=4,board_size=5)", 4),
]


@pytest.mark.parametrize(("spec", "players"), MANY_PLAYERS)
def test_games_of_more_players_take_turns_and_pay_each_player(spec: str, players: int) -> None:
    game = get_game(f"openspiel:{spec}")
    assert game.num_players == players
    rng = random.Random(3)
    state = game.initial_state()
    movers = set()
    for _ in range(5000):
        if game.is_terminal(state):
            break
        if game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            move = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            movers.add(game.to_move(state))
            move = rng.choice(game.legal_moves(state))
        state = game.play(state, move)
    assert game.is_terminal(state)
    assert movers == set(range(players))  # every seat moved, and no other
    utilities = game.utilities(state)
    assert utilities == tuple(game.utility(state, p) for p in range(players))
    assert sum(utilities) == pytest.approx(0.0)  # these games are zero-sum
    assert 0 <= game.to_move(state) < players
