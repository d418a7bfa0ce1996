"""The N-player rules of the Rolit and Chinese Checkers ports (``to_move``,
``utilities``, ``evaluations``) against the Python games, through the conformance
suite's port comparison."""

from __future__ import annotations

from typing import Any

import pytest

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
