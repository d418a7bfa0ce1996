"""Othello's native port: searched and solved by the compiled kernel, it agrees with
the Python engine on random positions (value, move, line and every counter of a
search; result, distance, best moves and line of a solve), passes included, and the
conformance suite compares its rules with the Python ones."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_errors import run
from engine.test_native_games import random_position, same_search, searches_agree
from plies.engine import Limits, NativeTable, choose_backend, search, solve
from plies.errors import PliesError
from plies.games.othello import PASS, Othello, OthelloState, format_square
from plies.testing import check_game

pytest.importorskip("numba")

GAME = Othello()


def empties(state: OthelloState) -> int:
    """The empty squares of ``state``."""
    return 64 - (state.mover | state.opponent).bit_count()


def endgame(seed: int, left: int) -> OthelloState:
    """A random game from the start until at most ``left`` squares are empty (or it
    ends)."""
    rng = random.Random(seed)
    state = GAME.initial_state()
    while empties(state) > left and not GAME.is_terminal(state):
        state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
    return state


def with_a_pass(seed: int) -> OthelloState:
    """The first position of a random game where the side to move must pass."""
    for attempt in range(seed, seed + 1000):
        rng = random.Random(attempt)
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            moves = GAME.legal_moves(state)
            if moves == [PASS]:
                return state
            state = GAME.play(state, rng.choice(moves))
    raise AssertionError("no pass in a thousand random games")


#: Any stage of the game: the opening to the last moves.
positions = st.builds(
    lambda seed, plies: random_position(GAME, seed, plies),
    st.integers(0, 10**6),
    st.integers(0, 60),
)


@settings(max_examples=60, deadline=None)
@given(
    state=positions,
    depth=st.integers(1, 6),
    algorithm=st.sampled_from(["pvs", "negamax"]),
    use_table=st.booleans(),
    ordering=st.booleans(),
    aspiration=st.sampled_from([25.0, None, 0.5]),
)
def test_search_agrees_node_for_node(  # noqa: PLR0917  # hypothesis passes them
    state: OthelloState,
    depth: int,
    algorithm: str,
    use_table: bool,
    ordering: bool,
    aspiration: float | None,
) -> None:
    """Same value, move, line and counters: ``evaluate`` is the Python float to the
    unit and the moves come in the Python order, or the counts would drift."""
    searches_agree(
        GAME,
        state,
        limits=Limits(depth=depth),
        algorithm=algorithm,
        use_table=use_table,
        ordering=ordering,
        aspiration=aspiration,
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_search_through_a_pass_agrees_node_for_node(seed: int) -> None:
    state = with_a_pass(seed)
    for depth in (1, 4):
        native = search(GAME, state, limits=Limits(depth=depth), backend="native")
        python = search(GAME, state, limits=Limits(depth=depth), backend="python")
        same_search(native, python, nodes=True)
        assert native.best_move == PASS


@settings(max_examples=15, deadline=None)
@given(state=positions, depth=st.integers(1, 5), entries=st.sampled_from([3, 5, 97]))
def test_tiny_tables_keep_the_value(state: OthelloState, depth: int, entries: int) -> None:
    native = search(
        GAME, state, limits=Limits(depth=depth), backend="native", table=NativeTable(entries)
    )
    python = search(GAME, state, limits=Limits(depth=depth), backend="python")
    assert native.value == python.value
    if native.best_move is not None:
        assert native.best_move in GAME.legal_moves(state)


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    left=st.integers(0, 10),
    entries=st.sampled_from([3, 97, 1 << 16]),
    moves=st.sampled_from(["all", "line", "best"]),
)
def test_endgames_solve_as_in_python(seed: int, left: int, entries: int, moves: str) -> None:
    """Result, distance, value, the set of best moves and the line to the end."""
    state = endgame(seed, left)
    native = solve(GAME, state, moves=moves, backend="native", table=NativeTable(entries))
    python = solve(GAME, state, moves=moves, backend="python")
    assert (native.backend, python.backend) == ("native", "python")
    assert (native.result, native.distance, native.value) == (
        python.result,
        python.distance,
        python.value,
    )
    assert set(native.best_moves) == set(python.best_moves)
    assert native.pv == python.pv and native.best_move == python.best_move
    weak = solve(GAME, state, weak=True, moves="best", backend="native")
    weak_python = solve(GAME, state, weak=True, moves="best", backend="python")
    assert (weak.result, weak.value) == (weak_python.result, weak_python.value)


@pytest.mark.parametrize("seed", [3, 4])
def test_solving_through_a_pass(seed: int) -> None:
    state = with_a_pass(seed)
    if empties(state) > 12:  # the end is too far for the Python solver
        state = endgame(seed, 10)
    native = solve(GAME, state, moves="all", backend="native")
    python = solve(GAME, state, moves="all", backend="python")
    assert (native.result, native.distance, native.pv) == (
        python.result,
        python.distance,
        python.pv,
    )
    assert set(native.best_moves) == set(python.best_moves)


def test_the_key_tells_the_side_to_move() -> None:
    """Keys are hashes of 129 bits: the same discs with the other side to move (rare
    in random games, so the conformance suite seldom meets it) differ."""
    import numpy as np

    from plies.engine.native import _kernel

    port = GAME.native()
    keys = set()
    for state in (endgame(1, 30), with_a_pass(1)):
        for player in (0, 1):
            prepared = port.prepare(state._replace(player=player))
            buffers = np.zeros(64, np.int64), np.zeros(64, np.int64), np.zeros(5)
            keys.add(int(_kernel.describe(port.rules(), prepared.consts, prepared.state, *buffers)))
    assert len(keys) == 4


def test_a_stop_requested_before_the_search_stops_it_at_once() -> None:
    """As in Python: no iteration completes (the native search would otherwise run
    its first few thousand nodes before it looks)."""
    state = GAME.initial_state()
    results = [
        search(GAME, state, limits=Limits(depth=5), stop=lambda: True, backend=backend)
        for backend in ("native", "python")
    ]
    assert [(r.completed, r.depth) for r in results] == [(False, 0), (False, 0)]
    assert results[0].best_move in GAME.legal_moves(state)


def test_the_default_backend_is_native() -> None:
    assert choose_backend(GAME, task="search") == "native"
    assert choose_backend(GAME, task="solve") == "native"
    overlapping = OthelloState(1 << 27, 1 << 27, 0)  # no board: refused by every engine
    with pytest.raises(PliesError, match="is not a position"):
        choose_backend(GAME, task="search", state=overlapping)
    for backend in ("native", "python"):
        with pytest.raises(PliesError, match="discs off the board or on one another"):
            search(GAME, overlapping, limits=Limits(depth=1), backend=backend)
    assert search(GAME, GAME.initial_state(), limits=Limits(depth=3)).stats.nodes > 0


def test_conformance_compares_the_port() -> None:
    """Moves, play, terminal values, evaluations and keys on random games (passes and
    finished games included: every playout runs to the end)."""
    report = check_game(GAME, playouts=8, seed=11)
    assert report.native_states > 400 and report.terminals > 0


def test_the_cli_runs_othello_natively(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["analyze", "othello", "f5d6c3", "--depth", "4", "--backend", "native"]
    status, out, err = run(capsys, *argv)
    python = search(GAME, GAME.parse_position("f5d6c3"), limits=Limits(depth=4), backend="python")
    assert status == 0 and err == "", err
    assert out.splitlines()[-1] == f"bestmove {format_square(python.best_move)}"
    board = GAME.format_position(endgame(7, 8))
    status, out, err = run(capsys, "solve", "othello", board, "--backend", "native", "--json")
    assert status == 0 and err == "", err
    record = json.loads(out)
    solved = solve(GAME, GAME.parse_position(board), moves="all", backend="python")
    assert (record["backend"], record["result"], record["distance"]) == (
        "native",
        solved.result,
        solved.distance,
    )
    assert record["pv"] == [format_square(move) for move in solved.pv]
