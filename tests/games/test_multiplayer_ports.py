"""The N-player rules of the Rolit and Chinese Checkers ports (``to_move``,
``utilities``, ``evaluations``) against the Python games, through the conformance
suite's port comparison; ``with_turn`` against the games' on random reachable states."""

from __future__ import annotations

import ctypes
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.games.chinese_checkers import ChineseCheckers
from plies.games.rolit import Rolit
from plies.testing import ConformanceError, check_game

pytest.importorskip("numba")


@pytest.mark.parametrize(
    "game",
    [Rolit(), ChineseCheckers(players=3, size=2, turns=15), ChineseCheckers(players=4, size=2)],
    ids=repr,
)
def test_the_n_player_rules_agree_with_the_python_game(game: Any) -> None:
    port = game.native()
    assert port.players == game.num_players > 2
    report = check_game(game, playouts=3, seed=5)
    assert report.native_states > 40 and report.terminals == 3


def test_a_port_whose_evaluations_differ_fails_the_comparison() -> None:
    from plies.engine.native import rule
    from plies.games.rolit._native import RolitNative

    @rule("evaluations")
    def no_discs(consts: Any, state: Any, values: Any) -> int:
        for player in range(4):
            values[player] = 0.0
        return 1

    class Blind(RolitNative):
        evaluations = no_discs

    class BlindRolit(Rolit):
        def native(self) -> Any:
            return Blind(self)

    with pytest.raises(ConformanceError, match="native evaluations"):
        check_game(BlindRolit(), playouts=1, seed=1)


# -- with_turn: Best-Reply Search's passes ----------------------------------------------

PORTED = [Rolit(), ChineseCheckers(players=3, size=3), ChineseCheckers(players=4, size=2, turns=12)]


def reachable(game: Any, seed: int, plies: int) -> Any:
    """The state ``plies`` random moves from the start (fewer if the game ends)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


class Rules:
    """A port's rules called from Python through their C entry points, on states
    encoded against one prepared root."""

    def __init__(self, game: Any) -> None:
        self.game, self.port = game, game.native()
        self.prepared = self.port.prepare(game.initial_state())
        self.longs = ctypes.POINTER(ctypes.c_int64)
        self.consts = self.prepared.consts.ctypes.data_as(self.longs)

    def pointer(self, array: Any) -> Any:
        return array.ctypes.data_as(self.longs)

    def with_turn(self, state: Any, player: int) -> tuple[int, Any]:
        encoded = self.port.encode(self.prepared, state)
        out = np.full_like(encoded, -7)
        given = self.port.with_turn.ctypes(self.consts, self.pointer(encoded), player,
                                           self.pointer(out))  # fmt: skip
        return int(given), out

    def key(self, encoded: Any) -> int:
        return int(self.port.key.ctypes(self.consts, self.pointer(encoded)))

    def legal_moves(self, encoded: Any) -> list[Any]:
        out = np.zeros(self.prepared.max_moves, np.int64)
        count = int(self.port.legal_moves.ctypes(self.consts, self.pointer(encoded),
                                                 self.pointer(out)))  # fmt: skip
        return [self.port.decode_move(self.prepared, int(m)) for m in out[:count]]


@pytest.mark.parametrize("game", PORTED, ids=repr)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 80))
def test_with_turn_gives_the_python_position_with_its_keys_and_moves(
    game: Any, seed: int, plies: int
) -> None:
    rules = Rules(game)
    state = reachable(game, seed, plies)
    keys: dict[int, Any] = {}
    for player in range(game.num_players):
        turned = game.with_turn(state, player)
        given, out = rules.with_turn(state, player)
        assert given == (0 if turned is None else 1)
        if turned is None:
            continue
        assert out.tolist() == rules.port.encode(rules.prepared, turned).tolist()
        keys[rules.key(out)] = game.key(turned)
        if not game.is_terminal(turned):
            assert rules.legal_moves(out) == list(game.legal_moves(turned))
    # Native keys are equal exactly where the Python keys are.
    assert len(set(keys.values())) == len(keys)


@pytest.mark.parametrize("game", PORTED, ids=repr)
def test_the_ports_have_with_turn_and_a_port_without_says_so(game: Any) -> None:
    from plies.games.othello import Othello

    assert game.native().has_with_turn()
    assert not Othello().native().has_with_turn()
