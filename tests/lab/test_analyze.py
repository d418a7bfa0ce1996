"""plies.lab's analysis with the N-player searches (max^n, paranoid, BRS) on Rolit."""

from __future__ import annotations

import importlib.util
import re
import threading

import pytest

from plies.engine import WIN, Limits, best_reply, maxn, paranoid
from plies.errors import SearchError
from plies.games.rolit import Rolit
from plies.lab import (
    SearchOptions,
    analysis_record,
    analyze,
    analyze_once,
    check_backend,
    get_game,
    prepare_table,
    search_table,
)

GAME = Rolit()


def test_maxn_analysis_gives_the_vector_per_depth() -> None:
    state = GAME.initial_state()
    found = list(analyze(GAME, state, SearchOptions(depth=3, algorithm="maxn")))
    assert [each.result.depth for each in found] == [1, 2, 3]
    direct = maxn(GAME, state, limits=Limits(depth=3))
    record = analysis_record(found[-1])
    assert direct.values is not None
    assert record["value"] == list(direct.values)  # evaluations: shown as they are
    assert record["score_text"] == direct.value_text
    assert record["pv"][0] == record["best_move"] == "f4"
    assert len(record["pv"]) == len(record["pv_players"]) == 3
    assert record["algorithm"] == "maxn" and record["player"] == 0


def test_brs_line_names_the_replying_player() -> None:
    state = GAME.parse_position("f4")
    found = analyze_once(GAME, state, SearchOptions(depth=3, algorithm="brs"))
    direct = best_reply(GAME, state, limits=Limits(depth=3))
    record = analysis_record(found)
    assert record["value"] == direct.value
    assert record["pv_players"] == list(direct.pv_players)
    assert record["pv_players"][0] == 1 and record["pv_players"][1] != 1  # a reply


def test_paranoid_values_are_the_root_players() -> None:
    state = GAME.parse_position("f4 c3")
    found = analyze_once(GAME, state, SearchOptions(depth=2, algorithm="paranoid"))
    assert analysis_record(found)["value"] == paranoid(GAME, state, limits=Limits(depth=2)).value
    assert analysis_record(found)["player"] == 2


def test_payoffs_read_as_shares_of_the_win() -> None:
    state = GAME.parse_position(
        "RRRRRRRR/RRRRRRRR/YYYYYYYY/YYYYYYYY/GGGGGGGG/GGGGGGGG/BBBBBBBB/BBBBBB-- B"
    )
    found = analyze_once(GAME, state, SearchOptions(algorithm="maxn", depth=4))
    record = analysis_record(found)
    direct = maxn(GAME, state)
    assert direct.values is not None
    assert record["value"] == [value / WIN for value in direct.values]
    assert record["exact"] and "payoff" in record["score_text"]
    assert found.score.kind in ("expected", "value")  # never a two-player win in N


def test_two_player_searches_are_refused_on_rolit() -> None:
    with pytest.raises(SearchError, match="4 players: pvs is a two-player search"):
        list(analyze(GAME, GAME.initial_state(), SearchOptions(depth=2)))
    with pytest.raises(SearchError, match="maxn, paranoid or brs"):
        analyze_once(GAME, GAME.initial_state(), SearchOptions(depth=2, algorithm="negamax"))


def test_n_player_options_are_checked() -> None:
    with pytest.raises(SearchError, match="no seed"):
        SearchOptions(algorithm="maxn", seed=1)
    with pytest.raises(SearchError, match="mcts only"):
        SearchOptions(algorithm="paranoid", iterations=5)
    if importlib.util.find_spec("numba"):  # Rolit's port has the N-player rules, with_turn
        assert check_backend(GAME, algorithm="maxn") == "native"
        assert check_backend(GAME, algorithm="brs") == "native"
    else:
        assert check_backend(GAME, algorithm="brs") == "python"


def test_a_stop_ends_an_n_player_analysis() -> None:
    stop = threading.Event()
    stop.set()
    found = analyze_once(GAME, GAME.initial_state(), SearchOptions(algorithm="maxn"), stop=stop)
    assert not found.result.completed and found.result.depth == 0
    assert found.best_text == "f4"


@pytest.mark.parametrize("backend", ["native", "python"])
def test_a_prepared_table_is_empty_and_ready(backend: str) -> None:
    game = get_game("tictactoe")
    table = search_table(1 << 12, game, backend=backend)
    prepare_table(game, table)
    if backend == "native":
        assert table.search is not None  # made by the one-ply search
        assert not table.search[4].any()  # every entry written empty
    else:
        assert len(table) == 0
    first = next(iter(analyze(game, game.initial_state(), SearchOptions(depth=2), table=table)))
    assert first.result.depth == 1


def test_preparing_something_else_says_what() -> None:
    from plies.errors import ArgumentTypeError

    game = get_game("tictactoe")
    for arguments, message in [
        ((game, None), "table must be a TranspositionTable or a NativeTable, not None"),
        ((game, "big"), "table must be a TranspositionTable or a NativeTable, not 'big'"),
        (("x", search_table(64, game)), "game must be a BaseGame, not 'x'"),
    ]:
        with pytest.raises(ArgumentTypeError, match=re.escape(message)):
            prepare_table(*arguments)  # type: ignore[arg-type]
