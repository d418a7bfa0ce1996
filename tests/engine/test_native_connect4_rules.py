"""Connect Four's rules in the native game protocol (``plies.games.connect4._native``): the compiled
search agrees with the Python engine node for node on boards of one word (7 x 6, 4 x 4,
5 x 4), of one word without the sentinel row (8 x 8, 9 x 7) and of more than 64 cells
(the rows layout), the native solve (Pons' kernel, or the
protocol's solver past 64 bits) agrees with the Python solver, the conformance suite
compares the rules with the Python game, and the CLI searches natively."""

from __future__ import annotations

import ctypes
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.test_native_games import random_position, same_search, searches_agree
from plies.engine import Limits, NativeTable, choose_backend, search, solve
from plies.engine.native import DEFAULT_ENTRIES, SEARCH_ENTRIES, native_port
from plies.games.connect4 import Connect4, Connect4State
from plies.testing import check_game

pytest.importorskip("numba")

#: One-word boards, then packed ones (64 cells at most, more than 64 bits with the
#: sentinel row), then one of the rows layout.
BOARDS = [(7, 6), (4, 4), (5, 4), (8, 8), (9, 7), (11, 6)]
#: Packed boards at the edges: the widest and the tallest.
EDGES = [(16, 4), (4, 16)]


def quiet_position(game: Connect4, seed: int, left: int) -> Connect4State:
    """A random game with ``left`` empty cells where no move so far won or let the
    opponent win at once (random play otherwise ends long before the board fills)."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        while game.size - state.ply > left:
            children = [(m, game.play(state, m)) for m in game.legal_moves(state)]
            safe = [m for m, c in children if not c.won and game.winning_move(c) is None]
            if not safe:
                break
            state = game.play(state, rng.choice(safe))
        else:
            return state


def positions(boards: list[tuple[int, int]]) -> st.SearchStrategy[tuple[Any, Any]]:
    """Random positions (up to 20 random plies) of the ``boards``."""
    return st.builds(
        lambda board, seed, plies: (Connect4(*board), seed, plies),
        st.sampled_from(boards),
        st.integers(0, 10**6),
        st.integers(0, 20),
    ).map(lambda t: (t[0], random_position(t[0], t[1], t[2])))


@settings(max_examples=80, deadline=None)
@given(
    position=positions(BOARDS),
    depth=st.integers(1, 6),
    algorithm=st.sampled_from(["pvs", "negamax"]),
    use_table=st.booleans(),
    aspiration=st.sampled_from([25.0, None]),
)
def test_search_agrees_node_for_node(
    position: tuple[Any, Any], depth: int, algorithm: str, use_table: bool, aspiration: Any
) -> None:
    """Value, best move, line and every counter as the Python engine's: the rules
    order, prune and evaluate exactly as the Python game does."""
    game, state = position
    searches_agree(
        game,
        state,
        limits=Limits(depth=depth),
        algorithm=algorithm,
        use_table=use_table,
        aspiration=aspiration,
    )


@pytest.mark.parametrize("board", [(7, 6), (8, 8)])
def test_deeper_search_with_tiny_table_keeps_the_value(board: tuple[int, int]) -> None:
    game = Connect4(*board)
    state = random_position(game, 3, 6)
    deep = search(game, state, limits=Limits(depth=7), backend="native")
    python = search(game, state, limits=Limits(depth=7), backend="python")
    same_search(deep, python, nodes=True)
    tiny = search(game, state, limits=Limits(depth=6), backend="native", table=NativeTable(5))
    assert tiny.value == search(game, state, limits=Limits(depth=6), backend="python").value


def order_natively(game: Connect4, state: Connect4State, moves: list[int]) -> list[int]:
    """The port's compiled ``order_moves`` rule on ``moves``, called through ctypes."""
    import numpy as np

    port = native_port(game)
    prepared = port.prepare(state)
    row = np.array(moves, np.int64)
    pointer = ctypes.POINTER(ctypes.c_int64)
    port.order_moves.ctypes(
        prepared.consts.ctypes.data_as(pointer),
        prepared.state.ctypes.data_as(pointer),
        row.ctypes.data_as(pointer),
        len(moves),
    )
    return [int(m) for m in row]


@pytest.mark.parametrize("board", [*BOARDS, *EDGES, (16, 16), (1, 5)])
def test_order_moves_as_python(board: tuple[int, int]) -> None:
    """The threat-count order, ties in the given order, on every layout."""
    game = Connect4(*board)
    compared = 0
    for seed in range(40):
        state = random_position(game, seed, random.Random(seed).randint(0, 30))
        moves = list(game.legal_moves(state))
        random.Random(seed).shuffle(moves)
        assert order_natively(game, state, moves) == list(game.order_moves(state, moves))
        compared += len(moves) > 1
    assert compared > 10 or game.width == 1


def call_rules(game: Connect4, state: Connect4State) -> tuple[int, list[int], float]:
    """The port's compiled ``winning_move``, ``forced_moves`` (of the legal moves)
    and ``evaluate`` of ``state``, called through ctypes."""
    import numpy as np

    port = native_port(game)
    prepared = port.prepare(state)
    pointer = ctypes.POINTER(ctypes.c_int64)
    consts = prepared.consts.ctypes.data_as(pointer)
    encoded = prepared.state.ctypes.data_as(pointer)
    row = np.array(game.legal_moves(state), np.int64)
    kept = port.forced_moves.ctypes(consts, encoded, row.ctypes.data_as(pointer), len(row))
    return port.winning_move.ctypes(consts, encoded), [int(m) for m in row[:kept]], \
        port.evaluate.ctypes(consts, encoded)  # fmt: skip


@pytest.mark.parametrize("board", [(9, 7), (8, 8), (16, 4), (4, 16)])
def test_packed_rules_on_crowded_boards(board: tuple[int, int]) -> None:
    """Winning and forced moves and the evaluation as Python's on boards filled up to
    a few empty cells, where threats sit beside full and nearly full columns (a
    shifted board of the packed layout wraps there unless masked)."""
    game = Connect4(*board)
    for seed in range(60):
        state = quiet_position(game, seed, random.Random(seed).randint(4, game.size // 2))
        if game.winning_move(state) is not None:
            continue
        win, forced, value = call_rules(game, state)
        assert win == -1
        assert forced == list(game.forced_moves(state) or ())
        assert value == game.evaluate(state, game.to_move(state))


def test_layouts_by_board() -> None:
    """Python's sentinel row where it fits a word, packed columns where the cells do,
    rows beyond."""
    boards = [(7, 6), (8, 7), (9, 7), (8, 8), (16, 4), (4, 16), (11, 6)]
    strides = [native_port(Connect4(*board)).stride for board in boards]
    assert strides == [7, 8, 7, 8, 4, 16, 0]


@pytest.mark.parametrize("board", [(9, 7), (8, 8), (16, 4)])
def test_packed_keys_tell_positions_apart(board: tuple[int, int]) -> None:
    """The packed layout's mixed key is equal exactly when Python's is, over positions
    with full columns (where ``position + mask`` would carry into the next column)."""
    game = Connect4(*board)
    port = native_port(game)
    pointer = ctypes.POINTER(ctypes.c_int64)
    by_python: dict[int, int] = {}
    full_columns = 0
    for seed in range(300):
        state = random_position(game, seed, random.Random(seed).randint(0, game.size))
        prepared = port.prepare(state)
        native_key = port.key.ctypes(
            prepared.consts.ctypes.data_as(pointer), prepared.state.ctypes.data_as(pointer)
        )
        by_python.setdefault(game.key(state), native_key)
        assert by_python[game.key(state)] == native_key
        full_columns += bool(state.mask & game._top_mask)
    assert len(set(by_python.values())) == len(by_python) > 250
    assert full_columns > 20


@pytest.mark.parametrize("board", [*BOARDS, *EDGES, (16, 16), (8, 7)])
def test_conformance_compares_the_port(board: tuple[int, int]) -> None:
    """Legal moves, play, terminal values, evaluate, keys, winning and forced moves
    against the Python game (the conformance suite's native checks)."""
    report = check_game(Connect4(*board), playouts=8, seed=2)
    assert report.native_states > 40


def same_solve(game: Connect4, state: Connect4State, moves: str, entries: int) -> None:
    native = solve(game, state, moves=moves, backend="native", table=NativeTable(entries))
    python = solve(game, state, moves=moves, backend="python")
    assert native.backend == "native"
    assert (native.result, native.distance, native.value, native.utility) == (
        python.result,
        python.distance,
        python.value,
        python.utility,
    )
    assert set(native.best_moves) == set(python.best_moves)
    assert native.pv == python.pv and native.best_move == python.best_move


@settings(max_examples=25, deadline=None)
@given(
    board=st.sampled_from([(4, 4), (5, 4)]),
    seed=st.integers(0, 10**6),
    plies=st.integers(3, 10),
    moves=st.sampled_from(["all", "line"]),
)
def test_small_boards_solve_as_python(
    board: tuple[int, int], seed: int, plies: int, moves: str
) -> None:
    """Pons' kernel (the boards fit a word) against the Python solver."""
    game = Connect4(*board)
    same_solve(game, random_position(game, seed, plies), moves, 1 << 12)


@pytest.mark.parametrize("board", [(8, 8), (9, 7)])
@pytest.mark.parametrize("seed", range(3))
def test_large_boards_solve_as_python_near_the_end(board: tuple[int, int], seed: int) -> None:
    """Past 64 bits the protocol's exact solver, with tiny and roomy tables."""
    game = Connect4(*board)
    state = quiet_position(game, seed, 14)
    same_solve(game, state, "all", 97)
    same_solve(game, state, "line", 1 << 14)
    weak = solve(game, state, weak=True, moves="best", backend="native")
    assert weak.result == solve(game, state, weak=True, moves="best", backend="python").result


def test_port_tasks_and_tables() -> None:
    """Both tasks on every board; Pons' table size where his kernel solves."""
    classic, large = Connect4(), Connect4(9, 7)
    assert choose_backend(classic, task="search") == "native"
    assert choose_backend(large, task="search") == "native"
    assert choose_backend(large, task="solve") == "native"
    assert native_port(classic).table_entries == DEFAULT_ENTRIES
    assert native_port(large).table_entries == SEARCH_ENTRIES
    state = quiet_position(large, 7, 12)
    assert solve(large, state, moves="none").backend == "native"


def test_cli_analyze_and_play_natively(capsys: pytest.CaptureFixture[str]) -> None:
    from plies.cli import main

    assert main(["analyze", "connect4", "4453", "--depth", "8", "--backend", "native"]) == 0
    native = capsys.readouterr().out
    assert main(["analyze", "connect4", "4453", "--depth", "8", "--backend", "python"]) == 0
    python = capsys.readouterr().out

    def lines(text: str) -> list[list[str]]:  # the same depths, scores, nodes and lines
        kept = []
        for line in text.splitlines():
            words = line.split()
            kept.append([w for i, w in enumerate(words) if i == 0 or words[i - 1] not in timed])
        return kept

    timed = ("nps", "time")

    assert lines(native) == lines(python) and "depth 8" in native
    argv = ["play", "connect4:width=9,height=7", "--human", "none", "--depth", "3"]
    assert main([*argv, "--backend", "native"]) == 0
    played = capsys.readouterr().out
    assert main([*argv, "--backend", "python"]) == 0
    assert capsys.readouterr().out.splitlines()[-9:] == played.splitlines()[-9:]
    assert "game over" in played
