"""Monte-Carlo tree search: it finds and keeps forced wins, its solver agrees with the
exact solve, its most visited move converges to the minimax move, and it is seeded."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.engine import Limits, MctsOptions, Score, mcts, solve
from plies.errors import ArgumentTypeError, PliesError, SearchError
from plies.game import BaseGame
from plies.games import get_game, parse_game_spec

TICTACTOE = get_game("tictactoe")
OTHER = {"win": "loss", "loss": "win", "draw": "draw"}


def random_position(game: BaseGame[Any, Any], seed: int, max_plies: int) -> Any:
    """Up to ``max_plies`` random moves from the start (stopping at the end)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(rng.randrange(max_plies + 1)):
        if game.is_terminal(state):
            break
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
    return state


def result_after(game: BaseGame[Any, Any], state: Any, move: Any) -> str:
    """The exact result for the side to move at ``state`` once ``move`` is played."""
    return OTHER[solve(game, game.play(state, move), moves="none").result]


def test_a_win_in_one_is_played_and_proven() -> None:
    state = TICTACTOE.parse_position("1 4 2 5")
    found = mcts(TICTACTOE, state, iterations=1000)
    assert TICTACTOE.format_move(state, found.best_move) == "3"
    assert found.exact and found.score == Score.win(1)
    assert found.iterations < 1000  # the proof ended the search


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_win_in_three_is_proven_as_the_exact_solve_says(seed: int) -> None:
    state = TICTACTOE.parse_position("1 2 5 9")
    assert solve(TICTACTOE, state).score == Score.win(3)
    found = mcts(TICTACTOE, state, iterations=20_000, options=MctsOptions(seed=seed))
    assert found.exact and found.score == Score.win(3)
    assert result_after(TICTACTOE, state, found.best_move) == "win"
    assert len(found.pv) == 3


@pytest.mark.parametrize(("position", "result"), [("1 2 5", "loss"), ("1 5 9", "draw")])
def test_lost_and_drawn_positions_are_proven(position: str, result: str) -> None:
    state = TICTACTOE.parse_position(position)
    assert solve(TICTACTOE, state).result == result
    found = mcts(TICTACTOE, state, iterations=50_000)
    assert found.exact and found.score.kind == result
    if result == "loss":
        assert found.score == Score.loss(4)  # the longest defence


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_a_won_position_is_never_lost_against_perfect_defence(seed: int) -> None:
    state = random_position(TICTACTOE, seed, 5)
    if TICTACTOE.is_terminal(state) or solve(TICTACTOE, state).result != "win":
        return
    winner = TICTACTOE.to_move(state)
    while not TICTACTOE.is_terminal(state):
        if TICTACTOE.to_move(state) == winner:
            move = mcts(TICTACTOE, state, iterations=3000, options=MctsOptions(seed=seed)).best_move
        else:
            move = solve(TICTACTOE, state).best_move
        state = TICTACTOE.play(state, move)
    assert TICTACTOE.utility(state, winner) > 0


#: Small positions the solver proves: Connect Four near the end, Nim.
SOLVED = [
    ("connect4", "44444433332222211"),
    ("connect4", "4444443333222221155"),
    ("connect4", "444444333322222115566"),
    ("connect4:width=5,height=4", "3333222211"),
    ("nim", "1,2,3"),
    ("nim", "2,3"),
    ("nim", "1,3,4"),
]


@pytest.mark.parametrize(("spec", "position"), SOLVED)
def test_the_solver_agrees_with_the_exact_solve(spec: str, position: str) -> None:
    game = parse_game_spec(spec)
    state = game.parse_position(position)
    exact = solve(game, state)
    found = mcts(game, state, iterations=100_000)
    assert found.exact
    assert found.score.kind == exact.result
    if exact.result != "draw":  # the shortest win, the longest defence, as the solve finds
        assert found.score.plies == exact.distance
    assert result_after(game, state, found.best_move) == exact.result


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_the_most_visited_move_converges_to_a_minimax_move(seed: int) -> None:
    state = random_position(TICTACTOE, seed, 6)
    if TICTACTOE.is_terminal(state):
        return
    exact = solve(TICTACTOE, state, moves="all")
    plain = MctsOptions(solver=False, seed=seed)
    found = mcts(TICTACTOE, state, iterations=3000, options=plain)
    assert not found.exact
    assert result_after(TICTACTOE, state, found.best_move) == exact.result
    assert found.moves[0].move == found.best_move  # the most visited


def test_the_same_seed_gives_the_same_result() -> None:
    game = parse_game_spec("connect4")
    state = game.parse_position("4453")
    runs = [mcts(game, state, iterations=400, options=MctsOptions(seed=7)) for _ in range(2)]
    assert runs[0].moves == runs[1].moves
    assert (runs[0].best_move, runs[0].pv, runs[0].value) == (
        runs[1].best_move,
        runs[1].pv,
        runs[1].value,
    )


def test_statistics_count_the_root_moves_and_nodes() -> None:
    game = parse_game_spec("connect4")
    found = mcts(game, game.initial_state(), iterations=700)
    assert sum(move.visits for move in found.moves) == 700
    assert [move.visits for move in found.moves] == sorted(
        (move.visits for move in found.moves), reverse=True
    )
    assert found.stats.nodes > found.tree_nodes > 0 and found.stats.nps > 0
    assert found.score.kind == "playouts" and found.pv[0] == found.best_move


def test_chance_nodes_are_sampled_and_score_an_expectation() -> None:
    game = get_game("pig")
    found = mcts(game, game.initial_state(), iterations=1500)
    assert not found.exact and found.score.kind == "expected"
    assert found.best_move == "roll"  # holding at 0 points throws the turn away


@pytest.mark.parametrize("playout", ["random", "guided"])
def test_both_playout_policies_find_the_win(playout: str) -> None:
    game = parse_game_spec("connect4")
    state = game.parse_position("44444433332222211")
    found = mcts(game, state, iterations=5000, options=MctsOptions(playout=playout))
    assert found.exact and result_after(game, state, found.best_move) == "loss"


def test_limits_by_nodes_time_and_stop() -> None:
    game = parse_game_spec("othello")
    state = game.initial_state()
    by_nodes = mcts(game, state, limits=Limits(nodes=2000))
    assert 2000 <= by_nodes.stats.nodes < 2000 + 200  # one playout over at most
    started = time.perf_counter()
    mcts(game, state, limits=Limits(time=0.2))
    assert time.perf_counter() - started < 1.0  # 0.2 s and one iteration, on a busy machine
    stop = threading.Event()
    stop.set()
    assert mcts(game, state, stop=stop).iterations == 0
    counts: list[int] = []
    mcts(game, state, iterations=300, progress=counts.append)
    assert len(counts) == 3 and counts == sorted(counts)


def test_a_terminal_position_has_no_move() -> None:
    state = TICTACTOE.parse_position("1 4 2 5 3")
    found = mcts(TICTACTOE, state)
    assert found.best_move is None and found.pv == () and found.exact


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: MctsOptions(exploration=-1), SearchError, "exploration"),
        (lambda: MctsOptions(playout="greedy"), PliesError, "greedy"),
        (lambda: MctsOptions(seed="1"), PliesError, "seed"),  # type: ignore[arg-type]
        (
            lambda: mcts(TICTACTOE, TICTACTOE.initial_state(), limits=Limits(depth=3)),
            SearchError,
            "depth",
        ),
        (lambda: mcts(TICTACTOE, TICTACTOE.initial_state(), iterations=0), SearchError, "0"),
        (lambda: mcts(TICTACTOE, None), ArgumentTypeError, "None"),
        (
            lambda: mcts(TICTACTOE, TICTACTOE.initial_state(), options="fast"),  # type: ignore[arg-type]
            PliesError,
            "fast",
        ),
    ],
)
def test_bad_options_are_one_line_errors(call: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as raised:
        call()
    message = str(raised.value)
    assert words in message and "\n" not in message


def test_an_unproven_score_reads_as_playouts_without_chance_and_expected_with() -> None:
    from plies.lab import format_score, score_of

    connect4 = get_game("connect4")
    found = mcts(connect4, connect4.parse_position("4453"), iterations=300)
    assert not found.exact and found.score.kind == "playouts"
    assert str(found.score).startswith("playouts ")
    analysis = score_of(connect4, found.as_search_result())
    assert analysis == found.score and format_score(analysis, "token").startswith("playouts:")
    assert Score.parse(str(found.score)) == Score.parse(format_score(found.score, "token"))
    assert Score.loss(3) < Score.playouts(0.9) < Score.win(9)
    pig = get_game("pig")
    rolled = mcts(pig, pig.initial_state(), iterations=200)
    assert rolled.score.kind == "expected"
    assert str(score_of(pig, rolled.as_search_result())).startswith("expected utility ")


@pytest.mark.parametrize("seed", range(6))
def test_a_win_in_one_is_expanded_first_and_proves_the_root_at_once(seed: int) -> None:
    state = TICTACTOE.parse_position("1 4 2 5")  # 3 wins at once, 6 would lose
    found = mcts(TICTACTOE, state, iterations=1, options=MctsOptions(seed=seed))
    assert found.exact and found.score == Score.win(1) and found.iterations == 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_proven_distances_are_the_exact_solves(seed: int) -> None:
    state = random_position(TICTACTOE, seed, 6)
    if TICTACTOE.is_terminal(state):
        return
    exact = solve(TICTACTOE, state)
    if exact.result == "draw":  # a draw is proven only once the whole tree is
        return
    found = mcts(TICTACTOE, state, iterations=50_000, options=MctsOptions(seed=seed))
    assert found.exact and found.score == exact.score


def test_evaluation_cut_offs_find_the_only_winning_move_where_random_playouts_miss_it() -> None:
    game = get_game("connect4")
    state = game.parse_position("5757335336353114")
    wins = [move for move in game.legal_moves(state) if result_after(game, state, move) == "win"]
    assert wins == [7]
    found = {}
    for playout in ("random", "evaluate"):
        found[playout] = sum(
            mcts(
                game,
                state,
                limits=Limits(nodes=400),  # equal work: states entered, in tree and playouts
                options=MctsOptions(playout=playout, solver=False, seed=seed),
            ).best_move
            == 7
            for seed in range(10)
        )
    assert found["evaluate"] >= 7 and found["random"] <= 3
