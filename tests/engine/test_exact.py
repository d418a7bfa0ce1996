"""The exact solver (``plies.engine.solve``): Pons' test sets, weak against strong,
best moves that really reach the score, other board sizes, and agreement with the
iterative-deepening search on every kind of game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games import RandomTreeGame, Subtraction
from engine.pons import pons_set
from plies.engine import TranspositionTable, search, solve
from plies.errors import SearchError
from plies.games import get_game, parse_game_spec
from plies.games.connect4 import Connect4, Connect4State

C4 = Connect4()


def pons_score(state: Connect4State, **options: Any) -> int:
    solved = solve(C4, state, moves="none", backend="python", **options)
    assert solved.distance is not None or solved.result == "draw"
    return C4.exact_score(state, solved.result, solved.distance or 0)


@pytest.mark.parametrize(
    ("name", "every"), [("Test_L3_R1", 1), ("Test_L2_R1", 10), ("Test_L1_R1", 25)]
)
def test_pons_scores_and_weak_signs(name: str, every: int) -> None:
    table = TranspositionTable(1 << 16)
    checked = 0
    for moves, expected in pons_set(name, every):
        state = C4.parse_position(moves)
        table.clear()
        assert pons_score(state, table=table) == expected, moves
        table.clear()
        weak = solve(C4, state, weak=True, moves="none", table=table)
        assert weak.result == ("win" if expected > 0 else "loss" if expected < 0 else "draw")
        checked += 1
    assert checked >= 40


def test_best_moves_reach_the_score() -> None:
    for moves, expected in list(pons_set("Test_L2_R1", 50)):
        state = C4.parse_position(moves)
        solved = solve(C4, state, moves="all", backend="python")
        assert C4.exact_score(state, solved.result, solved.distance or 0) == expected
        assert solved.best_moves and solved.best_move == solved.best_moves[0]
        assert solved.pv[0] in solved.best_moves
        for move in solved.best_moves:  # replay: the child scores the negation
            assert pons_score(C4.play(state, move)) == -expected, (moves, move)
        for move in set(C4.legal_moves(state)) - set(solved.best_moves):
            child = C4.play(state, move)
            if not C4.is_terminal(child):
                assert -pons_score(child) < expected, (moves, move)
        # The line ends the game as the distance says, with the winner it says.
        final = state
        for move in solved.pv:
            final = C4.play(final, move)
        assert C4.is_terminal(final) and len(solved.pv) == solved.distance


def test_weak_best_move_keeps_the_result() -> None:
    for moves, expected in list(pons_set("Test_L2_R1", 100)):
        state = C4.parse_position(moves)
        weak = solve(C4, state, weak=True, moves="best", backend="python")
        child = C4.play(state, weak.best_move)
        reply = solve(C4, child, weak=True, moves="none", backend="python")
        flipped = {"win": "loss", "loss": "win", "draw": "draw"}[reply.result]
        assert flipped == weak.result, moves
        assert weak.distance is None and weak.weak
        assert weak.result == ("win" if expected > 0 else "loss" if expected < 0 else "draw")


def reference_score(game: Connect4, state: Connect4State, alpha: int, beta: int) -> int:
    """Pons' score by plain alpha-beta over every move (no solver tricks)."""
    if game.is_terminal(state):
        return game.solver_score(state)
    best = -1000
    for move in game.legal_moves(state):
        best = max(best, -reference_score(game, game.play(state, move), -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


@settings(max_examples=30)
@given(
    size=st.sampled_from([(6, 5), (8, 7), (4, 4), (5, 4), (9, 3), (3, 9)]),
    seed=st.integers(0, 10**6),
)
def test_other_board_sizes_match_plain_alpha_beta(size: tuple[int, int], seed: int) -> None:
    game = Connect4(*size)
    rng = random.Random(seed)
    state = game.initial_state()
    # Play at random until at most 11 cells are empty (plain alpha-beta can finish).
    while not game.is_terminal(state) and game.size - state.ply > 11:
        state = game.play(state, rng.choice(game.legal_moves(state)))
    if game.is_terminal(state):
        return
    expected = reference_score(game, state, -100, 100)
    solved = solve(game, state, moves="line")
    assert game.exact_score(state, solved.result, solved.distance or 0) == expected
    assert game.result_of_score(state, expected)[0] == solved.result


def random_position(game: Any, seed: int, plies: int) -> Any:
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
    return state


@settings(max_examples=40)
@given(
    spec=st.sampled_from(
        [
            "tictactoe",
            "nim",
            "connect4:width=4,height=4",
            "connect4:width=5,height=4",
            "mnk:m=3,n=4,k=3",
        ]
    ),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 12),
    capacity=st.sampled_from([64, 1 << 20]),
)
def test_solve_agrees_with_iterative_deepening(
    spec: str, seed: int, plies: int, capacity: int
) -> None:
    """Same value, distance included, as PVS searched to the end; also with a table
    of 64 entries, which keeps dropping what it knows."""
    game = parse_game_spec(spec)
    # Connect Four on 5 x 4 from near the start takes PVS seconds: start later.
    state = random_position(game, seed, plies + (8 if "width=5" in spec else 0))
    solved = solve(game, state, table=TranspositionTable(capacity), moves="line")
    assert solved.value == search(game, state).value
    weak = solve(game, state, weak=True, moves="none")
    assert weak.result == solved.result
    if solved.pv:  # the line is legal and its end has the stated result
        final = state
        for move in solved.pv:
            final = game.play(final, move)
        assert game.is_terminal(final)


@settings(max_examples=30)
@given(seed=st.integers(0, 10**6))
def test_non_alternating_game_with_fractional_utilities(seed: int) -> None:
    game = RandomTreeGame(seed, chance=False)
    state = game.initial_state()
    if game.is_terminal(state):
        return
    assert solve(game, state).value == search(game, state).value


def test_long_lines_do_not_overflow_the_stack() -> None:
    solved = solve(Subtraction(3001), Subtraction(3001).initial_state(), moves="none")
    assert solved.result == "win"


def test_table_is_not_shared_between_search_and_solve() -> None:
    game = get_game("tictactoe")
    table = TranspositionTable()
    solve(game, game.initial_state(), table=table)
    with pytest.raises(SearchError, match="table of its own"):
        search(game, game.initial_state(), table=table)
    with pytest.raises(SearchError, match="unknown moves option"):
        solve(game, game.initial_state(), moves="every")


def test_score_conversions_round_trip() -> None:
    for moves in ("", "4", "44", "4455", "1234567"):
        state = C4.parse_position(moves)
        low, high = C4.score_bounds(state)
        for score in range(low, high + 1):
            result, distance = C4.result_of_score(state, score)
            assert C4.exact_score(state, result, distance) == score
            # A win falls on a stone of the side to move, a loss on the opponent's.
            if result != "draw":
                assert distance % 2 == (1 if result == "win" else 0)
    # On 7 x 6 the quickest win is the fourth stone: 22 - 4 = 18.
    assert C4.exact_score(C4.parse_position("445566"), "win", 1) == 18
    with pytest.raises(Exception, match="impossible"):
        C4.result_of_score(C4.initial_state(), 22)
