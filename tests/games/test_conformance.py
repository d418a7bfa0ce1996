"""The conformance suite on every registered game, and on games broken on purpose."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from plies.engine import search, solve
from plies.errors import IllegalMoveError
from plies.game import BaseGame
from plies.games import available_games, get_game
from plies.testing import ConformanceError, check_game


@pytest.mark.parametrize("name", available_games())
def test_every_registered_game_conforms(name: str) -> None:
    report = check_game(get_game(name), playouts=8, seed=7)
    assert report.playouts == 8
    assert report.terminals == 8
    assert report.states > report.playouts


def test_connect4_small_board_conforms() -> None:
    report = check_game(get_game("connect4", width=5, height=4), playouts=20, seed=3)
    assert report.transpositions > 0


def test_dice_orders_are_tried_as_transpositions() -> None:
    # Pig: rolling 3 then 4 and 4 then 3 give equal states, which must share a key.
    assert check_game(get_game("pig"), playouts=10, seed=1).transpositions > 0


# A tiny correct game to break in one way at a time: players alternately add 1 or 2 to
# a counter; whoever brings it to 5 or more wins.


class Race(NamedTuple):
    count: int
    player: int


class RaceGame(BaseGame[Race, int]):
    name = "race"

    def initial_state(self) -> Race:
        return Race(0, 0)

    def to_move(self, state: Race) -> int:
        return state.player

    def legal_moves(self, state: Race) -> list[int]:
        return [] if self.is_terminal(state) else [1, 2]

    def play(self, state: Race, move: int) -> Race:
        if self.has_chance and self.is_chance(state) and not self.is_terminal(state):
            legal = [outcome for outcome, _ in self.chance_outcomes(state)]
        else:
            legal = self.legal_moves(state)
        if move not in legal:
            raise IllegalMoveError(f"race: illegal move {move!r} (legal: {legal})")
        return self.play_unchecked(state, move)

    def play_unchecked(self, state: Race, move: int) -> Race:
        return Race(state.count + move, 1 - state.player)

    def is_terminal(self, state: Race) -> bool:
        return state.count >= 5

    def utility(self, state: Race, player: int) -> float:
        return -1.0 if player == state.player else 1.0

    def format_position(self, state: Race) -> str:
        return f"{state.count} {state.player}"

    def parse_position(self, text: str) -> Race:
        if not text.strip():
            return self.initial_state()
        count, player = text.split()
        return Race(int(count), int(player))


class RaceWithSolverHooks(RaceGame):
    """The race with every solver hook, right."""

    last_mover_wins = True

    def remaining_plies(self, state: Race) -> int:
        return max(5 - state.count, 0)

    def winning_move(self, state: Race) -> int | None:
        return next((m for m in (1, 2) if state.count + m >= 5), None)

    def forced_moves(self, state: Race) -> list[int]:
        return [m for m in (1, 2) if state.count + m < 3]


class RaceWithoutMoverWins(RaceWithSolverHooks):
    """The same hooks without the promise: the solver works out losses by playing."""

    last_mover_wins = False


@pytest.mark.parametrize("game", [RaceWithSolverHooks(), RaceWithoutMoverWins()])
def test_solver_hooks_conform_and_solve(game: RaceWithSolverHooks) -> None:
    check_game(game, playouts=20, seed=1)
    # From 0 the first player reaches 2 (every later pair of moves can add 3): a win.
    for count in range(6):
        for player in (0, 1):
            state = Race(count, player)
            solved = solve(game, state, moves="line")
            assert solved.value == search(game, state).value
            assert solve(game, state, weak=True).result == solved.result
    assert solve(game, game.initial_state()).result == "win"


def test_the_reference_game_conforms() -> None:
    report = check_game(RaceGame(), playouts=5, seed=1)
    assert report.transpositions > 0  # 1 2 x and x 2 1 meet


class MutableBox:
    """A state that play() changes in place: the worst protocol breach."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MutableBox) and other.count == self.count

    def __hash__(self) -> int:
        return hash(self.count)


class Mutating(BaseGame[MutableBox, int]):
    name = "mutating"

    def initial_state(self) -> MutableBox:
        return MutableBox(0)

    def to_move(self, state: MutableBox) -> int:
        return state.count % 2

    def legal_moves(self, state: MutableBox) -> list[int]:
        return [] if state.count >= 5 else [1]

    def play(self, state: MutableBox, move: int) -> MutableBox:
        if move not in self.legal_moves(state):
            raise IllegalMoveError(f"mutating: illegal move {move!r}")
        state.count += move
        return state

    def is_terminal(self, state: MutableBox) -> bool:
        return state.count >= 5

    def utility(self, state: MutableBox, player: int) -> float:
        return 1.0 if player == 0 else -1.0


class NotZeroSum(RaceGame):
    def utility(self, state: Race, player: int) -> float:
        return 1.0


class NoEnd(RaceGame):
    def play_unchecked(self, state: Race, move: int) -> Race:
        return Race(state.count, 1 - state.player)


class BadKey(RaceGame):
    def key(self, state: Race) -> int:
        return state.count // 2  # merges counts 2 and 3, which play differently


class LossyPosition(RaceGame):
    def format_position(self, state: Race) -> str:
        return f"{state.count} 0"


class MovesAtTheEnd(RaceGame):
    def legal_moves(self, state: Race) -> list[int]:
        return [1, 2]


class EvaluateNotZeroSum(RaceGame):
    def evaluate(self, state: Race, player: int) -> float:
        return float(state.count)


class FalseWin(RaceGame):
    def winning_move(self, state: Race) -> int | None:
        return 1


class LaxForcedMoves(RaceGame):
    def forced_moves(self, state: Race) -> list[int]:
        return self.legal_moves(state)  # also moves to 3 or 4, which lose at once


class ShortRemaining(RaceGame):
    def remaining_plies(self, state: Race) -> int:
        return 1


class MisereDeclaredNormal(RaceGame):
    last_mover_wins = True

    def utility(self, state: Race, player: int) -> float:
        return 1.0 if player == state.player else -1.0


class Dice(RaceGame):
    """Each move is followed by a die (1 or 2); probabilities given by ``odds``."""

    has_chance = True
    odds = (0.5, 0.5)

    def is_chance(self, state: Race) -> bool:
        return state.count % 2 == 1

    def chance_outcomes(self, state: Race) -> list[tuple[int, float]]:
        return [(1, self.odds[0]), (2, self.odds[1])]

    def play_unchecked(self, state: Race, move: int) -> Race:
        player = state.player if state.count % 2 == 0 else 1 - state.player
        return Race(state.count + move, player)


class BadDice(Dice):
    odds = (0.5, 0.6)


class UncheckedPlay(RaceGame):
    """Plays any move, as every game did before play() promised to check."""

    def play(self, state: Race, move: int) -> Race:
        return self.play_unchecked(state, move)


class IndexErrorPlay(RaceGame):
    """Refuses an illegal move with the wrong exception."""

    def play(self, state: Race, move: int) -> Race:
        if move not in self.legal_moves(state):
            raise IndexError(move)
        return self.play_unchecked(state, move)


@pytest.mark.parametrize(
    ("game", "check"),
    [
        (Mutating(), "play"),
        (NotZeroSum(), "utility"),
        (NoEnd(), "playout"),
        (BadKey(), "key"),
        (LossyPosition(), "format_position"),
        (MovesAtTheEnd(), "legal_moves"),
        (EvaluateNotZeroSum(), "evaluate"),
        (FalseWin(), "winning_move"),
        (BadDice(), "chance_outcomes"),
        (LaxForcedMoves(), "forced_moves"),
        (ShortRemaining(), "remaining_plies"),
        (MisereDeclaredNormal(), "last_mover_wins"),
        (UncheckedPlay(), "play"),
        (IndexErrorPlay(), "play"),
    ],
    ids=lambda value: value if isinstance(value, str) else type(value).__name__,
)
def test_broken_games_are_caught(game: BaseGame[object, object], check: str) -> None:
    with pytest.raises(ConformanceError, match=rf"^\w+: {check}: "):
        check_game(game, playouts=3, seed=0, max_plies=50)


def test_a_correct_chance_game_conforms() -> None:
    assert check_game(Dice(), playouts=5, seed=2).terminals == 5


def test_playouts_must_be_positive() -> None:
    with pytest.raises(ValueError, match="playouts"):
        check_game(RaceGame(), playouts=0)
