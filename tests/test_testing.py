"""The conformance suite on games of more than two players (plies.testing)."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from plies.errors import IllegalMoveError
from plies.game import BaseGame
from plies.testing import ConformanceError, check_game

# A tiny three-player game: players in turn add 1 or 2 to a counter; whoever brings it
# to 6 or more gets 1, the others 0. Broken below in one way at a time.


class Count(NamedTuple):
    total: int
    player: int


class ThreeRace(BaseGame[Count, int]):
    name = "three-race"
    num_players = 3

    def initial_state(self) -> Count:
        return Count(0, 0)

    def to_move(self, state: Count) -> int:
        return state.player

    def legal_moves(self, state: Count) -> list[int]:
        return [] if self.is_terminal(state) else [1, 2]

    def play(self, state: Count, move: int) -> Count:
        if move not in self.legal_moves(state):
            raise IllegalMoveError(f"illegal move {move!r}")
        return Count(state.total + move, (state.player + 1) % 3)

    def is_terminal(self, state: Count) -> bool:
        return state.total >= 6

    def utility(self, state: Count, player: int) -> float:
        last = (state.player - 1) % 3  # who made the last move
        return 1.0 if player == last else 0.0

    def utility_bounds(self) -> tuple[float, float]:
        return (0.0, 1.0)

    def evaluate(self, state: Count, player: int) -> float:
        return float(state.total if player == state.player else 0)


def test_a_three_player_game_conforms() -> None:
    report = check_game(ThreeRace(), playouts=10, seed=1)
    assert report.terminals == 10
    assert report.transpositions > 0


class MoverOutOfRange(ThreeRace):
    def to_move(self, state: Count) -> int:
        return 3 if state.total == 2 else state.player


class UtilitiesDisagree(ThreeRace):
    def utilities(self, state: Count) -> tuple[float, ...]:
        return (1.0, 0.0, 0.0)


class ShortUtilities(ThreeRace):
    def utilities(self, state: Count) -> tuple[float, ...]:
        return tuple(self.utility(state, player) for player in range(2))


class EvaluationsDisagree(ThreeRace):
    def evaluations(self, state: Count) -> tuple[float, ...]:
        return (0.0, 0.0, 0.0)


class HugeEvaluation(ThreeRace):
    def evaluate(self, state: Count, player: int) -> float:
        return 1e12 if player == 2 else 0.0


@pytest.mark.parametrize(
    ("game", "check"),
    [
        (MoverOutOfRange(), "to_move"),
        (UtilitiesDisagree(), "utilities"),
        (ShortUtilities(), "utilities"),
        (EvaluationsDisagree(), "evaluations"),
        (HugeEvaluation(), "evaluate"),
    ],
)
def test_broken_three_player_games_are_caught(game: ThreeRace, check: str) -> None:
    with pytest.raises(ConformanceError, match=f": {check}: "):
        check_game(game, playouts=5, seed=1)


class NotZeroSumNeeded(ThreeRace):
    """Payoffs that do not sum to zero, and hooks that assume one opponent: fine for
    three players (the suite skips what only two-player searches ask)."""

    last_mover_wins = True

    def utility(self, state: Count, player: int) -> float:
        return 1.0 if player == (state.player - 1) % 3 else 0.5

    def winning_move(self, state: Count) -> int | None:
        return 2  # wrong as a two-player promise, never asked of three players


def test_two_player_promises_are_not_asked_of_three_players() -> None:
    check_game(NotZeroSumNeeded(), playouts=5, seed=1)


class OnePlayer(ThreeRace):
    num_players = 1


def test_a_game_of_one_player_is_refused() -> None:
    with pytest.raises(ConformanceError, match="num_players: 1"):
        check_game(OnePlayer())


class WithTurn(ThreeRace):
    def with_turn(self, state: Count, player: int) -> Count:
        return Count(state.total, player)


class TurnToTheWrongPlayer(ThreeRace):
    def with_turn(self, state: Count, player: int) -> Count:
        return Count(state.total, (player + 1) % 3)


class TurnChangesThePosition(ThreeRace):
    def with_turn(self, state: Count, player: int) -> Count:
        return Count(state.total + 1, player)


def test_with_turn_gives_the_turn_in_the_same_position() -> None:
    check_game(WithTurn(), playouts=5, seed=1)
    for broken in (TurnToTheWrongPlayer(), TurnChangesThePosition()):
        with pytest.raises(ConformanceError, match=": with_turn: "):
            check_game(broken, playouts=5, seed=1)
