"""MCTS with its playouts in the native kernel: where it runs, that it proves what the
exact solve proves, that a seed repeats, and that bad requests are one-line errors."""

from __future__ import annotations

from typing import Any

import pytest

from plies.engine import Limits, MctsOptions, Score, mcts, solve
from plies.engine._mcts import NATIVE_LEAF_PLAYOUTS
from plies.errors import PliesError, SearchError
from plies.games import get_game, parse_game_spec

OTHER = {"win": "loss", "loss": "win", "draw": "draw"}


def result_after(game: Any, state: Any, move: Any) -> str:
    """The exact result for the side to move at ``state`` once ``move`` is played."""
    return OTHER[solve(game, game.play(state, move), moves="none").result]


@pytest.mark.parametrize(
    ("spec", "position"),
    [
        ("connect4", "44444433332222211"),
        ("connect4", "444444333322222115566"),
        ("tictactoe", "1 2 5 9"),
        ("tictactoe", "1 2 5"),
        ("nim", "1,3,4"),
        ("othello", "-XXXXO-O-XXXXXXXXXOOOOXOXXXXOOOOOXOOXXOO-OXXXOOOOOOOOOO--XXOXX-- X"),
    ],
)
def test_native_playouts_prove_what_the_exact_solve_proves(spec: str, position: str) -> None:
    game = parse_game_spec(spec)
    state = game.parse_position(position)
    exact = solve(game, state)
    found = mcts(game, state, iterations=60_000, backend="native")
    assert found.backend == "native" and found.exact
    assert found.score.kind == exact.result
    assert result_after(game, state, found.best_move) == exact.result


def test_a_seed_repeats_a_native_search_and_seeds_differ() -> None:
    game = get_game("connect4")
    state = game.parse_position("4453")
    runs = [
        mcts(game, state, iterations=300, backend="native", options=MctsOptions(seed=seed))
        for seed in (5, 5, 6)
    ]
    assert runs[0].moves == runs[1].moves and runs[0].value == runs[1].value
    assert runs[0].moves != runs[2].moves


def test_a_native_leaf_gets_its_playouts_and_they_are_counted() -> None:
    game = get_game("connect4")
    state = game.initial_state()
    found = mcts(game, state, iterations=200, backend="native")
    assert found.playouts == 200 * NATIVE_LEAF_PLAYOUTS  # no end of the game within 200 iterations
    assert sum(move.visits for move in found.moves) == 200  # a leaf's playouts: one visit
    assert found.stats.nodes > found.playouts * 7  # a playout lasts 7 plies at least
    one = mcts(game, state, iterations=200, backend="native", options=MctsOptions(leaf_playouts=1))
    assert one.playouts == 200
    by_nodes = mcts(game, state, limits=Limits(nodes=5000), backend="native")
    # one leaf's playouts over at most, 42 plies each
    assert 5000 <= by_nodes.stats.nodes < 5000 + NATIVE_LEAF_PLAYOUTS * 42 + 1


@pytest.mark.parametrize("playout", ["guided", "evaluate"])
def test_every_policy_runs_natively_and_finds_the_win(playout: str) -> None:
    game = get_game("connect4")
    state = game.parse_position("44444433332222211")
    found = mcts(
        game, state, iterations=20_000, backend="native", options=MctsOptions(playout=playout)
    )
    assert found.exact and result_after(game, state, found.best_move) == "loss"


def test_large_runs_go_native_by_default_small_ones_and_games_without_a_port_stay() -> None:
    game = get_game("connect4")
    state = game.parse_position("4453")
    assert mcts(game, state, iterations=500).backend == "python"
    assert mcts(game, state, iterations=10_000).backend == "native"
    assert mcts(game, state, limits=Limits(time=1.0, nodes=20_000)).backend == "native"
    assert mcts(game, state, iterations=10_000, backend="python").backend == "python"


class UnportedTicTacToe(type(get_game("tictactoe"))):  # type: ignore[misc]
    """Tic-tac-toe's rules in a subclass: a subclass has no native port of its own."""


@pytest.mark.parametrize(
    ("game", "words"), [(get_game("pig"), "chance"), (UnportedTicTacToe(), "no native port")]
)
def test_native_where_it_cannot_run_is_an_error(game: Any, words: str) -> None:
    with pytest.raises(SearchError, match=words):
        mcts(game, game.initial_state(), iterations=10, backend="native")
    assert mcts(game, game.initial_state(), iterations=10_000).backend == "python"


def test_an_unknown_backend_is_an_error() -> None:
    game = get_game("tictactoe")
    with pytest.raises(PliesError, match="cuda"):
        mcts(game, game.initial_state(), iterations=10, backend="cuda")


def test_a_win_in_one_proven_natively_reads_as_one() -> None:
    game = get_game("tictactoe")
    found = mcts(game, game.parse_position("1 4 2 5"), iterations=10_000)
    assert found.backend == "native" and found.score == Score.win(1)
