"""Native playouts of games of more than two players (``vector_playouts``): their mean
payoff vector matches the exact expectation of uniform random play, and MCTS with them
picks the moves the Python MCTS and max^n pick where one move is clearly best."""

from __future__ import annotations

import random
from typing import Any

import pytest

from plies.engine import maxn, mcts
from plies.engine import mcts_native_problem as native_problem
from plies.games.chinese_checkers import ChineseCheckers
from plies.games.rolit import Rolit

pytest.importorskip("numba")


def expected_payoffs(game: Any, state: Any) -> list[float]:
    """Each player's payoff under uniform random play, exactly."""
    if game.is_terminal(state):
        return list(game.utilities(state))
    moves = game.legal_moves(state)
    children = [expected_payoffs(game, game.play(state, move)) for move in moves]
    return [sum(column) / len(moves) for column in zip(*children, strict=True)]


def rolit_ending(empties: int, seed: int) -> Any:
    game, rng = Rolit(), random.Random(seed)
    state = game.initial_state()
    while len(game.legal_moves(state)) and 64 - sum(d.bit_count() for d in state.discs) > empties:
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def test_the_mean_of_native_playouts_is_the_random_play_expectation() -> None:
    from plies.engine.native import NativePlayouts, native_port

    game = Rolit()
    state = rolit_ending(4, seed=3)
    exact = expected_payoffs(game, state)
    assert max(exact) - min(exact) > 0.2  # not a foregone end
    runs = NativePlayouts(native_port(game), state, policy="random", cutoff=0, spread=1.0,
                          scale=1.0, seed=1)  # fmt: skip
    runs.load()
    count = 20_000
    sums, plies = runs.run_vector(state, count)
    assert plies == 4 * count
    for mean, want in zip((total / count for total in sums), exact, strict=True):
        assert mean == pytest.approx(want, abs=0.02)  # 4 sigma of 20,000 draws
    assert sum(sums) == pytest.approx(count)  # one payoff shared each game


def test_native_and_python_mcts_pick_the_clearly_best_move() -> None:
    game = Rolit()
    checked = 0
    for seed in range(40):
        state = rolit_ending(3, seed)
        exact = maxn(game, state, backend="python")
        mover = game.to_move(state)
        payoffs = sorted(
            (maxn(game, game.play(state, m), backend="python").values or (0,))[mover]
            for m in game.legal_moves(state)
        )
        if len(payoffs) < 2 or payoffs[-1] - payoffs[-2] < 0.5 * 1e9:
            continue  # no clearly best move
        picks = {
            backend: mcts(game, state, iterations=400, backend=backend).best_move
            for backend in ("native", "python")
        }
        assert picks == {"native": exact.best_move, "python": exact.best_move}
        checked += 1
    assert checked >= 3


def test_chinese_checkers_mcts_plays_native_playouts() -> None:
    game = ChineseCheckers(players=3, size=2, turns=30)
    assert native_problem(game) is None
    found = mcts(game, game.initial_state(), iterations=50, backend="native")
    assert found.playouts == 50 * 32 and found.best_move in game.legal_moves(game.initial_state())
    assert found.stats.nodes > found.playouts  # every playout's plies counted
    assert "has no rules of 3 players" not in (native_problem(ChineseCheckers(players=3)) or "")
