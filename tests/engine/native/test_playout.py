"""The native playout kernel: utilities from player 0's view, seeded and reproducible,
the same distribution as Python's playouts, the policies' rules, and a loud overrun."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from plies.engine.native import NativePlayouts, native_port
from plies.errors import SearchError
from plies.games import get_game

TICTACTOE = get_game("tictactoe")


def playouts_of(game: Any, state: Any, policy: str = "random", seed: int = 0, **shape: Any) -> Any:
    """Loaded playouts of ``game`` from ``state``."""
    shape = {"cutoff": 0, "spread": 1.0, "scale": 1.0, **shape}
    made = NativePlayouts(native_port(game), state, policy=policy, seed=seed, **shape)
    made.load()
    return made


def test_a_forced_end_is_player_0s_utility_whoever_moves() -> None:
    nim = get_game("nim")
    start = nim.parse_position("1,1")  # two single stones: the second player takes the last
    reply = nim.play(start, nim.legal_moves(start)[0])  # player 1 to move
    assert nim.to_move(reply) == 1
    for state, sign in ((start, 1.0), (reply, -1.0)):
        total, nodes = playouts_of(nim, state).run(state, sign, 25)
        assert total == -25.0  # player 0 loses every one
        assert nodes == 25 * sum(state.heaps)
    state = TICTACTOE.parse_position("1 2 3 5 4 7 9 6")  # x's last cell: a draw
    assert playouts_of(TICTACTOE, state).run(state, 1.0, 25) == (0.0, 25)
    state = TICTACTOE.parse_position("1 4 2 5 7 8 6 9")  # x's last cell 3 completes 1-2-3
    assert playouts_of(TICTACTOE, state).run(state, 1.0, 25) == (25.0, 25)


def test_a_seed_gives_the_same_playouts_and_seeds_differ() -> None:
    game = get_game("connect4")
    state = game.parse_position("4453")
    runs = [playouts_of(game, state, seed=seed).run(state, 1.0, 500) for seed in (3, 3, 4)]
    assert runs[0] == runs[1] != runs[2]


@pytest.mark.parametrize("name", ["tictactoe", "connect4"])
def test_native_and_python_playouts_share_one_distribution(name: str) -> None:
    game = get_game(name)
    state = game.initial_state()
    count = 4000
    native_mean = playouts_of(game, state, seed=1).run(state, 1.0, count)[0] / count
    rng = random.Random(1)
    python_total = 0.0
    for _ in range(count):
        s = state
        while not game.is_terminal(s):
            s = game.play(s, rng.choice(list(game.legal_moves(s))))
        python_total += game.utility(s, 0)
    # two means of 4000 playouts of utilities in [-1, 1]: each within 0.016 (one
    # standard error) of the true mean; 0.08 is five standard errors of the difference
    assert abs(native_mean - python_total / count) < 0.08


def test_guided_playouts_take_a_win_in_one() -> None:
    game = get_game("connect4")
    state = game.parse_position("445566")  # the first player wins at 3 or 7
    total, nodes = playouts_of(game, state, "guided").run(state, 1.0, 50)
    assert (total, nodes) == (50.0, 50)


def test_evaluate_playouts_stop_at_the_cutoff_and_stay_in_the_utility_range() -> None:
    game = get_game("othello")
    state = game.initial_state()
    total, nodes = playouts_of(game, state, "evaluate", cutoff=3, spread=20.0).run(state, 1.0, 100)
    assert nodes == 300 and -100 < total < 100
    total0, _ = playouts_of(game, state, "evaluate", cutoff=0, spread=20.0).run(state, 1.0, 10)
    expected = 10 * math.tanh(game.evaluate(state, 0) / 20.0)
    assert total0 == pytest.approx(expected)


def test_a_playout_past_the_ports_plies_is_an_error() -> None:
    game = get_game("connect4")
    state = game.initial_state()
    made = playouts_of(game, state)
    made.max_plies = 3  # a game that would not end within its port's count
    with pytest.raises(SearchError, match="past 3 plies"):
        made.run(state, 1.0, 1)
