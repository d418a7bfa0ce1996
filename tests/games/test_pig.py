"""Pig: turn rules, chance outcomes, the end of the game, notation."""

from __future__ import annotations

import pytest

from plies.engine import Limits, search
from plies.errors import IllegalMoveError, ParseError, PliesError
from plies.games import get_game, parse_game_spec
from plies.games.pig import HOLD, ROLL, Pig, PigState

GAME = Pig()


def test_a_turn_starts_with_a_roll() -> None:
    start = GAME.initial_state()
    assert GAME.legal_moves(start) == [ROLL]
    with pytest.raises(IllegalMoveError, match="turn total is 0"):
        GAME.parse_move(start, "hold")


def test_rolling_is_a_chance_node_with_fair_faces() -> None:
    rolling = GAME.play(GAME.initial_state(), ROLL)
    assert GAME.is_chance(rolling)
    assert GAME.legal_moves(rolling) == []
    outcomes = GAME.chance_outcomes(rolling)
    assert [face for face, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert not GAME.is_chance(GAME.play(rolling, 4))


def test_faces_add_up_and_a_one_loses_the_turn_total() -> None:
    state = GAME.parse_position("roll 4 roll 6")
    assert state == PigState((0, 0), 10, 0, False)
    assert GAME.legal_moves(state) == [ROLL, HOLD]
    lost = GAME.play(GAME.play(state, ROLL), 1)
    assert lost == PigState((0, 0), 0, 1, False)


def test_hold_banks_the_turn_total_and_passes_the_turn() -> None:
    state = GAME.parse_position("roll 4 roll 6 hold roll 3 hold")
    assert state == PigState((10, 3), 0, 0, False)
    assert not GAME.is_terminal(state)


def test_reaching_the_target_wins() -> None:
    state = GAME.parse_position("scores 15,19 total 5 player 1")
    assert GAME.evaluate(state, 0) == 1000.0  # holding wins
    end = GAME.play(state, HOLD)
    assert GAME.is_terminal(end)
    assert GAME.utility(end, 0) == 1.0
    assert GAME.utility(end, 1) == -1.0
    assert GAME.terminal_value(end) == -1.0  # player 2 is to move and has lost
    assert GAME.legal_moves(end) == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.parse_move(end, "roll")


def test_evaluation_is_zero_sum_and_follows_the_race() -> None:
    ahead = GAME.parse_position("scores 15,5 total 0 player 1")
    behind = GAME.parse_position("scores 5,15 total 0 player 1")
    assert GAME.evaluate(ahead, 0) > 0 > GAME.evaluate(behind, 0)
    assert GAME.evaluate(ahead, 0) == -GAME.evaluate(ahead, 1)
    risky = GAME.parse_position("scores 5,5 total 10 player 1")
    assert GAME.evaluate(risky, 0) > GAME.evaluate(
        GAME.parse_position("scores 5,5 total 0 player 1"), 0
    )


def test_notation_round_trip_and_errors() -> None:
    state = GAME.parse_position("roll 5, roll 2 hold roll")
    text = GAME.format_position(state)
    assert text == "scores 7,0 total 0 player 2 rolling"
    assert GAME.parse_position(text) == state
    assert GAME.parse_position("SCORES 3 , 4 total 2 player 2") == PigState((3, 4), 2, 1, False)
    assert GAME.parse_move(GAME.parse_position("roll 3"), "h") == HOLD
    with pytest.raises(ParseError, match="'roll' or 'hold'"):
        GAME.parse_position("jump")
    with pytest.raises(IllegalMoveError, match=r"without a roll \(event 1 of the POSITION\)"):
        GAME.parse_position("4")
    with pytest.raises(IllegalMoveError, match="the die is rolling"):
        GAME.parse_position("roll roll")
    with pytest.raises(ParseError, match="a die shows 1 to 6"):
        GAME.parse_position("roll 7")
    with pytest.raises(ParseError, match="player P"):
        GAME.parse_position("scores 1,2 total 0 player 3")
    with pytest.raises(ParseError, match="game is over"):
        GAME.parse_position("scores 20,2 total 4 player 2")


def test_render() -> None:
    assert GAME.render(GAME.parse_position("roll 5")) == (
        "player 1: 0   player 2: 0   (target 20)\nplayer 1 to move, turn total 5"
    )


def test_parameters() -> None:
    game = get_game("pig", target=50)
    assert isinstance(game, Pig)
    assert game.target == 50
    small = parse_game_spec("pig:target=5,faces=3")
    assert isinstance(small, Pig)
    assert len(small.chance_outcomes(small.play(small.initial_state(), ROLL))) == 3
    with pytest.raises(PliesError, match="target must be between"):
        Pig(target=0)


def test_the_engine_holds_when_holding_wins_and_rolls_at_the_start() -> None:
    game = get_game("pig")
    at_target = game.parse_position("scores 15,19 total 5 player 1")
    assert search(game, at_target, limits=Limits(depth=3)).best_move == HOLD
    # On 18 with a turn total of 2 against 19: holding reaches 20 and wins.
    near = game.parse_position("scores 18,19 total 2 player 1")
    assert search(game, near, limits=Limits(depth=3)).best_move == HOLD
    # With a turn total of 1 holding does not reach 20 and the opponent, on 19,
    # wins on any roll but a 1: keep rolling.
    behind = game.parse_position("scores 18,19 total 1 player 1")
    assert search(game, behind, limits=Limits(depth=3)).best_move == ROLL
    start = search(game, game.initial_state(), limits=Limits(depth=4), algorithm="expectiminimax")
    assert start.best_move == ROLL
    assert start.completed


def test_evaluation_is_sane_everywhere() -> None:
    # Every non-terminal state, the die rolling or not: a finite, zero-sum value
    # within the -1000..1000 scale (an earlier version divided by zero on a rolling
    # die past the target).
    for first in range(GAME.target):
        for second in range(GAME.target):
            for total in range(GAME.target + 6):
                for player in (0, 1):
                    for rolling in (False, True):
                        state = PigState((first, second), total, player, rolling)
                        value = GAME.evaluate(state, 0)
                        assert -1000.0 <= value <= 1000.0, state
                        assert value == -GAME.evaluate(state, 1)
