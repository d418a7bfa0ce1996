"""All algorithms agree on the value: every game, with and without the table, with
any move order; Star1/Star2 agree with plain expectiminimax."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games import RandomTreeGame, shuffled_order
from plies.engine import ALGORITHMS, CHANCE_MODES, Limits, search
from plies.game import BaseGame
from plies.games import get_game

#: (game spec, depth): shallow enough that every algorithm, even plain minimax
#: without a table, finishes in a few milliseconds.
GAMES = [
    ("tictactoe", 4),
    ("mnk:m=4,n=3,k=3", 4),
    ("nim", 4),
    ("connect4", 4),
    ("connect4:width=5,height=4", 5),
    ("othello", 3),
    ("pig", 3),
]


def random_position(game: BaseGame[Any, Any], seed: int, max_plies: int) -> Any:
    """Play up to ``max_plies`` random moves (and chance outcomes) from the start."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(rng.randrange(max_plies + 1)):
        if game.is_terminal(state):
            break
        if game.has_chance and game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            state = game.play(state, rng.choice(outcomes)[0])
        else:
            state = game.play(state, rng.choice(list(game.legal_moves(state))))
    return state


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


@pytest.mark.parametrize(("spec", "depth"), GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), order_seed=st.integers(0, 3))
def test_all_algorithms_agree(spec: str, depth: int, seed: int, order_seed: int) -> None:
    from plies.games import parse_game_spec

    game = parse_game_spec(spec)
    state = random_position(game, seed, 12)
    reference = search(game, state, limits=Limits(depth=depth), algorithm="minimax")
    ordered = shuffled_order(game, order_seed) if order_seed else game
    for algorithm in ALGORITHMS:
        for use_table in (True, False):
            result = search(
                ordered,
                state,
                limits=Limits(depth=depth),
                algorithm=algorithm,
                use_table=use_table,
            )
            assert close(result.value, reference.value), (algorithm, use_table, spec, seed)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 6))
def test_star1_star2_equal_expectiminimax(seed: int, depth: int) -> None:
    game = RandomTreeGame(seed)
    for state in list(game.states())[:12]:
        plain = search(game, state, limits=Limits(depth=depth), algorithm="expectiminimax")
        for chance in CHANCE_MODES:
            for algorithm in ("negamax", "pvs", "mtdf"):
                result = search(
                    game, state, limits=Limits(depth=depth), algorithm=algorithm, chance=chance
                )
                assert close(result.value, plain.value), (chance, algorithm, state)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_star2_agrees_on_pig(seed: int) -> None:
    game = get_game("pig")
    state = random_position(game, seed, 30)
    plain = search(game, state, limits=Limits(depth=4), algorithm="expectiminimax")
    for chance in ("star1", "star2"):
        result = search(game, state, limits=Limits(depth=4), algorithm="pvs", chance=chance)
        assert close(result.value, plain.value)


def test_star_pruning_saves_nodes() -> None:
    totals = dict.fromkeys(CHANCE_MODES, 0)
    for seed in range(25):
        game = RandomTreeGame(seed, max_depth=7)
        for chance in CHANCE_MODES:
            result = search(
                game,
                0,
                limits=Limits(depth=12),
                algorithm="negamax",
                chance=chance,
                use_table=False,
            )
            totals[chance] += result.stats.nodes
    assert totals["star1"] < totals["plain"]
    assert totals["star2"] < totals["plain"]
