"""Native paranoid, max^n and Best-Reply Search against the Python searches: on random
Rolit and Chinese Checkers positions at fixed depth both walk the same tree (the Python
one without a table), so value, vector, best move, line and every counter agree; with
tables of the same size (paranoid and BRS) they do too, table probes and hits included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from plies.engine import Limits, best_reply, choose_multi_backend, maxn, multi_search, paranoid
from plies.engine.native import NativeGame
from plies.errors import SearchError
from plies.games.chinese_checkers import ChineseCheckers
from plies.games.rolit import Rolit
from plies.games.rolit._native import RolitNative

pytest.importorskip("numba")

GAMES = [Rolit(), ChineseCheckers(players=3, size=3), ChineseCheckers(players=4, size=2, turns=40)]


def random_position(game: Any, plies: int, rng: random.Random) -> Any:
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def searches_agree(
    game: Any, state: Any, algorithm: str, depth: int, *, use_table: bool = False, **options: Any
) -> None:
    limits = Limits(depth=depth)
    options |= {"algorithm": algorithm, "limits": limits, "use_table": use_table}
    native = multi_search(game, state, backend="native", **options)
    python = multi_search(game, state, backend="python", **options)
    assert (native.value, native.values) == (python.value, python.values)
    assert (native.best_move, native.pv, native.pv_players) == (
        python.best_move, python.pv, python.pv_players,
    )  # fmt: skip
    assert (native.depth, native.exact, native.completed) == (
        python.depth, python.exact, python.completed,
    )  # fmt: skip
    for counter in ("nodes", "leaves", "cutoffs", "first_move_cutoffs", "tt_probes", "tt_hits"):
        assert getattr(native.stats, counter) == getattr(python.stats, counter), counter
    assert (native.stats.tt_probes > 0) == (use_table and algorithm != "maxn")


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_native_and_python_searches_agree_on_random_positions(game: Any) -> None:
    rng = random.Random(7)
    for plies in (0, 9, 23):
        state = random_position(game, plies, rng)
        searches_agree(game, state, "maxn", 3)
        searches_agree(game, state, "paranoid", 4)
        searches_agree(game, state, "paranoid", 3, player=(game.to_move(state) + 1) % 3)


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_native_and_python_best_reply_searches_agree_on_random_positions(game: Any) -> None:
    rng = random.Random(11)
    for plies in (0, 9, 31):
        state = random_position(game, plies, rng)
        for depth in (1, 2, 4):
            searches_agree(game, state, "brs", depth)


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_with_tables_native_and_python_searches_visit_the_same_nodes(game: Any) -> None:
    rng = random.Random(5)
    for plies in (0, 13):
        state = random_position(game, plies, rng)
        for depth in (3, 5):
            searches_agree(game, state, "paranoid", depth, use_table=True)
            searches_agree(game, state, "brs", depth, use_table=True)
        searches_agree(game, state, "paranoid", 4, use_table=True,
                       player=(game.to_move(state) + 2) % 3)  # fmt: skip


def test_the_table_saves_nodes_and_keeps_the_value() -> None:
    game = ChineseCheckers(players=3, size=3)
    state = random_position(game, 8, random.Random(3))
    limits = Limits(depth=5)
    for algorithm in ("paranoid", "brs"):
        options: dict[str, Any] = {"limits": limits, "backend": "native"}
        with_table = multi_search(game, state, algorithm=algorithm, use_table=True, **options)
        without = multi_search(game, state, algorithm=algorithm, use_table=False, **options)
        assert with_table.value == without.value
        assert with_table.stats.nodes < without.stats.nodes * 0.6


def test_the_ends_of_games_are_payoffs_in_both() -> None:
    game = Rolit()
    state = game.parse_position(
        "RRRRRRRR/RRRRRRRR/YYYYYYYY/YYYYYYYY/GGGGGGGG/GGGGGGGG/BBBBBBBB/BBBBBB-- B"
    )
    for algorithm in ("maxn", "paranoid", "brs"):
        searches_agree(game, state, algorithm, 5)
        searches_agree(game, state, algorithm, 5, use_table=algorithm != "maxn")
    assert maxn(game, state, backend="native").exact


def test_a_node_limit_keeps_the_last_finished_depth() -> None:
    game = Rolit()
    result = paranoid(game, game.initial_state(), limits=Limits(nodes=300), backend="native")
    assert not result.completed and result.depth >= 1 and result.stats.nodes <= 300
    assert result.best_move in game.legal_moves(game.initial_state())


def test_the_backend_is_chosen_and_refused_with_the_reason() -> None:
    game = Rolit()
    start = game.initial_state()
    assert choose_multi_backend(game, "brs") == "native"

    class NoTurns(RolitNative):
        with_turn = NativeGame.with_turn  # the protocol's default: not given

    class Unturned(Rolit):
        def native(self) -> Any:
            return NoTurns(self)

    with pytest.raises(SearchError, match="no with_turn rule"):
        best_reply(Unturned(), start, limits=Limits(depth=1), backend="native")
    assert best_reply(Unturned(), start, limits=Limits(depth=2)).depth == 2  # Python
    with pytest.raises(SearchError, match="no rules of 2 players"):
        maxn(ChineseCheckers(), ChineseCheckers().initial_state(), backend="native")
    with pytest.raises(SearchError, match="backend"):
        maxn(game, start, backend="gpu")
    # Default: native (no table hits); a table given: the Python search uses it.
    assert maxn(game, start, limits=Limits(depth=2)).stats.tt_probes == 0
    from plies.engine import TranspositionTable

    given = maxn(game, start, limits=Limits(depth=2), table=TranspositionTable())
    assert given.stats.tt_probes > 0
