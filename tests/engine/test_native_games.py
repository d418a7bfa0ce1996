"""The native game protocol: m,n,k and Nim searched and solved by the compiled kernel
agree with the Python engine (values, distances, best moves, lines, and node counts
where both run the same algorithm on the same table contents), the conformance suite
compares the ports with the Python rules, and the backend switch says why it falls back."""

from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.engine import (
    Limits,
    NativeTable,
    TranspositionTable,
    choose_backend,
    fallback_reason,
    iterate,
    search,
    solve,
)
from plies.errors import SearchError
from plies.games import get_game
from plies.games.mnk import MNKGame
from plies.games.nim import Nim
from plies.testing import check_game

pytest.importorskip("numba")

BOARDS = [(3, 3, 3), (4, 3, 3), (4, 4, 3), (5, 4, 4), (4, 4, 4)]


def random_position(game: Any, seed: int, plies: int) -> Any:
    """Up to ``plies`` random moves from the start (fewer if the game ends)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.play(state, rng.choice(list(game.legal_moves(state))))
    return state


def mnk_positions() -> st.SearchStrategy[tuple[Any, Any]]:
    return st.builds(
        lambda board, seed, plies: (MNKGame(*board), seed, plies),
        st.sampled_from(BOARDS),
        st.integers(0, 10**6),
        st.integers(0, 12),
    ).map(lambda t: (t[0], random_position(t[0], t[1], t[2])))


def nim_positions() -> st.SearchStrategy[tuple[Any, Any]]:
    heaps = st.lists(st.integers(0, 5), min_size=1, max_size=4).filter(lambda h: sum(h) <= 13)
    return heaps.map(lambda h: (Nim(tuple(h)), Nim(tuple(h)).initial_state()))


positions = st.one_of(mnk_positions(), nim_positions())

#: Boards for solving and the fewest plies played first (the Python solver needs
#: seconds from the start of 4,4,3 and far longer for 5,4,4).
SOLVABLE = {(3, 3, 3): 0, (4, 3, 3): 0, (4, 4, 3): 4, (5, 4, 4): 11, (4, 4, 4): 8}


def solvable_mnk() -> st.SearchStrategy[tuple[Any, Any]]:
    return st.builds(
        lambda board, seed, extra: (
            MNKGame(*board),
            random_position(MNKGame(*board), seed, SOLVABLE[board] + extra),
        ),
        st.sampled_from(list(SOLVABLE)),
        st.integers(0, 10**6),
        st.integers(0, 4),
    )


solvable = st.one_of(solvable_mnk(), nim_positions())


def same_search(native: Any, python: Any, *, nodes: bool) -> None:
    assert native.value == python.value
    assert (native.depth, native.completed, native.exact) == (
        python.depth,
        python.completed,
        python.exact,
    )
    if nodes:
        assert native.best_move == python.best_move and native.pv == python.pv
        assert native.stats.nodes == python.stats.nodes
        assert native.stats.leaves == python.stats.leaves
        assert native.stats.cutoffs == python.stats.cutoffs
        assert native.stats.tt_probes == python.stats.tt_probes
        assert native.stats.tt_hits == python.stats.tt_hits


def searches_agree(game: Any, state: Any, **options: Any) -> tuple[Any, Any]:
    """Search ``state`` with ``options`` on both backends, check that they agree node
    for node (:func:`same_search`), and return both results (native, python)."""
    native = search(game, state, backend="native", **options)
    python = search(game, state, backend="python", **options)
    same_search(native, python, nodes=True)
    return native, python


@settings(max_examples=80, deadline=None)
@given(
    position=positions,
    depth=st.integers(1, 6),
    algorithm=st.sampled_from(["pvs", "negamax"]),
    use_table=st.booleans(),
    ordering=st.booleans(),
    aspiration=st.sampled_from([25.0, None, 0.5]),
)
def test_search_agrees_node_for_node(  # noqa: PLR0917  # hypothesis passes them
    position: tuple[Any, Any],
    depth: int,
    algorithm: str,
    use_table: bool,
    ordering: bool,
    aspiration: float | None,
) -> None:
    """The same algorithm on the same table contents (none, or tables that lose
    nothing): the same value, move, line and every counter."""
    game, state = position
    searches_agree(
        game,
        state,
        limits=Limits(depth=depth),
        algorithm=algorithm,
        use_table=use_table,
        ordering=ordering,
        aspiration=aspiration,
    )


@settings(max_examples=40, deadline=None)
@given(
    position=mnk_positions(),
    depth=st.integers(2, 6),
    algorithm=st.sampled_from(["pvs", "negamax"]),
)
def test_deep_tables_agree_node_for_node_along_a_game(
    position: tuple[Any, Any], depth: int, algorithm: str
) -> None:
    """Searches along a line, each on the table kept from the one before (deep tables:
    cut-offs on earlier iterations' and searches' entries) agree on both backends."""
    game, state = position
    native_table, python_table = NativeTable(1 << 16, deep=True), TranspositionTable(deep=True)
    for _ in range(3):
        if game.is_terminal(state):
            break
        limits = Limits(depth=depth)
        native = search(game, state, limits=limits, algorithm=algorithm, table=native_table)
        python = search(
            game, state, limits=limits, algorithm=algorithm, table=python_table, backend="python"
        )
        same_search(native, python, nodes=True)
        state = game.play(state, native.best_move)


def test_a_kept_native_table_forgets_entries_whose_keys_meant_other_positions() -> None:
    """Nim's port packs the heaps in as many bits as the root's largest heap needs: a
    table kept from a root of another layout is cleared, not read."""
    table = NativeTable(1 << 12, deep=True)
    for heaps in ((1, 2), (5, 6, 7), (1, 2, 3), (3, 3)):
        game = Nim(heaps)
        state = game.initial_state()
        kept = search(game, state, limits=Limits(depth=6), table=table)
        fresh = search(game, state, limits=Limits(depth=6), table=NativeTable(1 << 12, deep=True))
        same_search(kept, fresh, nodes=True)  # the kept table was emptied first


@settings(max_examples=40, deadline=None)
@given(position=positions, depth=st.integers(1, 7), entries=st.sampled_from([3, 5, 97]))
def test_search_with_tiny_tables_keeps_the_value(
    position: tuple[Any, Any], depth: int, entries: int
) -> None:
    """Tables that keep losing entries change the work, never the value."""
    game, state = position
    native = search(
        game, state, limits=Limits(depth=depth), backend="native", table=NativeTable(entries)
    )
    python = search(game, state, limits=Limits(depth=depth), backend="python")
    # Whether an iteration saw only finished lines depends on what the table kept (so
    # the depths reached may differ); the value at a depth, or once proven, does not.
    assert native.value == python.value
    if native.best_move is not None:
        assert native.best_move in list(game.legal_moves(state))


@settings(max_examples=60, deadline=None)
@given(
    position=solvable,
    entries=st.sampled_from([3, 97, 1 << 16]),
    moves=st.sampled_from(["all", "line", "best", "none"]),
)
def test_solve_agrees(position: tuple[Any, Any], entries: int, moves: str) -> None:
    """Result, distance, value, the set of best moves and the line (both take the
    first move in the game's order that keeps the value) as the Python solver's."""
    game, state = position
    native = solve(game, state, moves=moves, backend="native", table=NativeTable(entries))
    python = solve(game, state, moves=moves, backend="python")
    assert native.backend == "native" and python.backend == "python"
    assert (native.result, native.distance, native.value, native.utility) == (
        python.result,
        python.distance,
        python.value,
        python.utility,
    )
    assert set(native.best_moves) == set(python.best_moves)
    assert native.pv == python.pv and native.best_move == python.best_move
    weak = solve(game, state, weak=True, moves="best", backend="native")
    weak_python = solve(game, state, weak=True, moves="best", backend="python")
    assert (weak.result, weak.value) == (weak_python.result, weak_python.value)


def test_known_values_natively() -> None:
    tictactoe = get_game("tictactoe")
    solved = solve(tictactoe, tictactoe.initial_state(), backend="native")
    assert (solved.result, solved.distance, solved.backend) == ("draw", 9, "native")
    nim = Nim((3, 4, 5))
    for heaps in [(1, 2, 3), (3, 4, 5), (2, 2), (1, 4, 6, 7)]:
        state = nim.parse_position(",".join(map(str, heaps)))
        nim_sum = 0
        for heap in heaps:
            nim_sum ^= heap
        result = solve(nim, state, moves="none", backend="native").result
        assert result == ("win" if nim_sum else "loss"), heaps
    four = MNKGame(4, 4, 3)  # 4,4,3: a first-player win
    assert solve(four, four.initial_state(), moves="none", backend="native").result == "win"


def test_iterate_and_limits() -> None:
    game = MNKGame(5, 5, 4)
    state = game.initial_state()
    depths = [r.depth for r in iterate(game, state, limits=Limits(depth=4), backend="native")]
    assert depths == [1, 2, 3, 4]
    cut = search(game, state, limits=Limits(nodes=500), backend="native")
    assert not cut.completed and cut.best_move is not None
    timed = search(game, state, limits=Limits(time=0.05), backend="native")
    assert not timed.completed
    with pytest.raises(SearchError, match="node limit"):
        solve(game, state, limits=Limits(nodes=1000), backend="native")


def test_backend_choice_and_fallback_reasons() -> None:
    tictactoe = get_game("tictactoe")
    state = tictactoe.initial_state()
    assert choose_backend(tictactoe, task="search") == "native"
    assert search(tictactoe, state, limits=Limits(depth=2)).stats.nodes > 0
    assert fallback_reason(tictactoe, state, "search") is None
    assert "mtdf" not in (fallback_reason(tictactoe, state, "search", algorithm="pvs") or "")
    assert "pvs and negamax" in (
        fallback_reason(tictactoe, state, "search", algorithm="mtdf") or ""
    )
    assert "seeded" in (fallback_reason(tictactoe, state, "search", seed=3) or "")
    assert "TranspositionTable" in (
        fallback_reason(tictactoe, state, "search", table=TranspositionTable()) or ""
    )
    assert fallback_reason(get_game("pig"), None, "search") is None  # no port at all
    with pytest.raises(SearchError, match="pvs and negamax"):
        search(tictactoe, state, algorithm="mtdf", backend="native")
    huge = Nim((3000, 3000, 3000))  # 9,000 moves x 9,000 plies: too large
    assert "no native port" in (fallback_reason(huge, huge.initial_state(), "solve") or "")
    assert search(tictactoe, state, algorithm="mtdf", limits=Limits(depth=3)).depth == 3
    big = MNKGame(8, 8, 5)  # 64 cells: no port
    assert choose_backend(big, task="search") == "python"


@pytest.mark.parametrize(
    "game", [MNKGame(), MNKGame(4, 4, 3), MNKGame(7, 9, 5), Nim((3, 4, 5)), Nim((6, 1, 0, 2))]
)
def test_conformance_compares_the_ports(game: Any) -> None:
    report = check_game(game, playouts=6, seed=5)
    assert report.native_states > 20


@pytest.mark.parametrize(
    "board", [(3, 3, 1), (1, 5, 3), (5, 1, 2), (5, 5, 4), (9, 7, 5), (7, 9, 4)]
)
def test_mnk_rules_on_random_positions(board: tuple[int, int, int]) -> None:
    """The compiled m,n,k rules, called one by one, against the Python game's on
    random positions of thin, wide and 63-cell boards (k = 1: every cell wins)."""
    import ctypes

    import numpy as np

    game = MNKGame(*board)
    port = game.native()
    pointer = ctypes.POINTER(ctypes.c_int64)
    prepared = port.prepare(game.initial_state())
    consts = prepared.consts.ctypes.data_as(pointer)
    out = np.zeros(game.size, np.int64)
    child = np.zeros(4, np.int64)
    wins = 0
    for seed in range(80):
        state = random_position(game, seed, random.Random(seed).randint(0, game.size))
        encoded = port.encode(prepared, state)
        at = encoded.ctypes.data_as(pointer)
        count = port.legal_moves.ctypes(consts, at, out.ctypes.data_as(pointer))
        assert [int(m) for m in out[:count]] == list(game.legal_moves(state))
        expected = game.winning_move(state)
        assert port.winning_move.ctypes(consts, at) == (-1 if expected is None else expected)
        wins += expected is not None
        if not game.is_terminal(state):
            assert port.evaluate.ctypes(consts, at) == game.evaluate(state, game.to_move(state))
        for move in game.legal_moves(state):
            port.play.ctypes(consts, at, move, child.ctypes.data_as(pointer))
            assert bool(child[3]) == game.play(state, move).won
    assert wins > 0


def test_readme_native_game_runs_and_prints_what_it_says() -> None:
    """The documentation's complete native user game (docs/native.md), run exactly as
    written."""
    readme = Path(__file__).resolve().parents[2] / "docs" / "native.md"
    section = readme.read_text()
    code = re.search(r"```python\n(.*?)```", section, re.S)
    expected = re.search(r"```text\n(.*?)```", section, re.S)
    assert code is not None and expected is not None
    namespace: dict[str, Any] = {"__name__": "readme_native_example"}
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code.group(1), str(readme), "exec"), namespace)
    assert output.getvalue() == expected.group(1)
    game = namespace["game"]  # and the port keeps the promises of the Python rules
    assert check_game(game, playouts=5, seed=1).native_states > 20


def test_one_table_serves_nim_roots_of_other_sizes() -> None:
    # The key once packed heaps at the root's width: after 3,4,5, the position 2,3,1
    # (a loss) met entries of other positions and was reported a win.
    game = Nim()
    table = NativeTable(1 << 16)
    for text in ("3,4,5", "2,3,5", "2,3,1", "7,1", "4,1", "1,2,3,4,5,6,7", "3"):
        state = game.parse_position(text)
        native = solve(game, state, table=table, backend="native", moves="all")
        python = solve(game, state, backend="python", moves="all")
        assert (native.result, native.distance, native.best_moves) == (
            python.result,
            python.distance,
            python.best_moves,
        ), text
