"""The native port of checkers: perft from the start through the compiled rules (the
published counts), the rules against the Python game on random positions (moves in
order, children, values, evaluations, ordering and quiescence hooks, move ids), and the
native search and solver against the Python engine (node for node where both run the
same algorithm), the conformance suite and the CLI's ``--backend native``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_errors import run
from engine.test_native_games import random_position, same_search, searches_agree
from plies.engine import Limits, NativeTable, choose_backend, search, solve
from plies.games.checkers import Checkers, CheckersState, square_bit
from plies.testing import check_game

pytest.importorskip("numba")

# After the skip: NumPy comes with Numba.
import numpy as np
from numba import njit

from plies.engine.native import _kernel
from plies.engine.native._pointers import ptr
from plies.games.checkers import _native as port_module

GAME = Checkers()
PORT = GAME.native()
#: Published perft counts of English draughts from the start, depths 1-8.
PERFT = (7, 49, 302, 1469, 7361, 36768, 179740, 845931)


def native_perft(state: CheckersState, depth: int) -> int:
    prepared = PORT.prepare(state)
    states = np.zeros((depth + 1, prepared.state.size), np.int64)
    states[0] = prepared.state
    moves = np.zeros((depth + 1, prepared.max_moves), np.int64)
    return int(port_module.perft(PORT.rules(), prepared.consts, states, moves, 0, depth))


def test_native_perft_from_the_start() -> None:
    start = GAME.initial_state()
    assert [native_perft(start, depth) for depth in range(1, 9)] == list(PERFT)


@njit(cache=False)
def hooks(rules: Any, consts: Any, state: Any, ordered: Any, noisy: Any) -> Any:
    """``(moves, noisy moves)``: the legal moves through order_moves into
    ``ordered``, quiescence_moves into ``noisy``."""
    count = _kernel.legal_moves(rules, ptr(consts), ptr(state), ptr(ordered))
    _kernel.order_hint(rules, ptr(consts), ptr(state), ptr(ordered), count)
    return count, _kernel.noisy(rules, ptr(consts), ptr(state), ptr(noisy))


def random_board(seed: int) -> tuple[Checkers, CheckersState]:
    """A random position: 2-16 pieces, kings half the time, either side to move, any
    draw count (the limit included), for a game with a draw rule of 1-40 moves."""
    rng = random.Random(seed)
    game = Checkers(rng.choice([1, 3, 40]))
    black = white = kings = 0
    for square in rng.sample(range(1, 33), rng.randint(2, 16)):
        bit = 1 << square_bit(square)
        if rng.random() < 0.5:
            black |= bit
            crowned = square >= 29
        else:
            white |= bit
            crowned = square <= 4
        if crowned or rng.random() < 0.5:
            kings |= bit
    quiet = rng.choice([0, rng.randrange(game.draw_plies + 1), game.draw_plies])
    return game, CheckersState(black, white, kings, rng.randrange(2), quiet)


def assert_rules_agree(game: Checkers, state: CheckersState) -> None:
    """Every rule of the port against the Python game at ``state``."""
    port = game.native()
    prepared = port.prepare(state)
    rules, consts, encoded = port.rules(), prepared.consts, prepared.state
    ordered = np.zeros(prepared.max_moves, np.int64)
    noisy = np.zeros(prepared.max_moves, np.int64)
    count, noisy_count = hooks(rules, consts, encoded, ordered, noisy)
    legal = list(game.legal_moves(state))
    assert [port.decode_move(prepared, int(m)) for m in ordered[:count]] == list(
        game.order_moves(state, legal)
    )
    assert [port.decode_move(prepared, int(m)) for m in noisy[:noisy_count]] == list(
        game.quiescence_moves(state)
    )
    moves = np.zeros(prepared.max_moves, np.int64)
    numbers = np.zeros(5)
    _kernel.describe(rules, consts, encoded, moves, np.zeros_like(moves), numbers)
    assert [port.decode_move(prepared, int(m)) for m in moves[: int(numbers[0])]] == legal
    outcome = game.terminal_value(state)
    assert (None if np.isnan(numbers[1]) else numbers[1]) == outcome
    assert numbers[2] == game.evaluate(state, state.player)
    child = np.zeros_like(encoded)
    for move in legal:
        move_id = port.encode_move(prepared, move)
        assert port.decode_move(prepared, move_id) == move
        assert 0 <= move_id < prepared.move_space
        _kernel.play_move(rules, consts, encoded, move_id, child)
        assert list(child) == list(game.play(state, move))
    assert len(legal) <= prepared.max_moves


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_rules_agree_on_random_boards(seed: int) -> None:
    """Kings, long captures, blocked sides, the draw count at its limit."""
    assert_rules_agree(*random_board(seed))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), plies=st.integers(0, 120))
def test_rules_agree_along_random_games(seed: int, plies: int) -> None:
    assert_rules_agree(GAME, random_position(GAME, seed, plies))


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        # A king's round trip, either way round: one move, the first path found.
        ("B:W7,8,11,15,16,20:BK12", ["12x19x10x3x12"]),
        ("B:W5,18,19,26,27,28:BK24", ["24x31x22x15x24"]),
        # A man crowned by a jump stops there, though the new king could jump on (3x12).
        ("W:W10:B7,8", ["10x3"]),
        ("B:WK8,7:BK12", ["12x3x10"]),
    ],
)
def test_listed_captures(fen: str, moves: list[str]) -> None:
    state = GAME.parse_position(fen)
    assert [GAME.format_move(state, m) for m in GAME.legal_moves(state)] == moves
    assert_rules_agree(GAME, state)


def test_every_move_id_decodes_to_a_path_and_back() -> None:
    prepared = PORT.prepare(GAME.initial_state())
    seen = set()
    for move_id in range(prepared.move_space):
        path = PORT.decode_move(prepared, move_id)
        if path[-1] == 0:  # a step off the board: no move has this id
            assert move_id < port_module.STEPS
            continue
        assert PORT.encode_move(prepared, path) == move_id
        seen.add(path)
    assert len(seen) > 1300


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 60),
    depth=st.integers(1, 5),
    algorithm=st.sampled_from(["pvs", "negamax"]),
    use_table=st.booleans(),
    ordering=st.booleans(),
    aspiration=st.sampled_from([25.0, None]),
)
def test_search_agrees_node_for_node(  # noqa: PLR0917  # hypothesis passes them
    seed: int,
    plies: int,
    depth: int,
    algorithm: str,
    use_table: bool,
    ordering: bool,
    aspiration: float | None,
) -> None:
    """Quiescence included: value, move, line, every counter and the selective depth."""
    state = random_position(GAME, seed, plies)
    native, python = searches_agree(
        GAME,
        state,
        limits=Limits(depth=depth),
        algorithm=algorithm,
        use_table=use_table,
        ordering=ordering,
        aspiration=aspiration,
    )
    assert native.stats.seldepth == python.stats.seldepth


def test_search_agrees_on_kings_and_long_captures() -> None:
    for seed in range(12):
        game, state = random_board(seed)
        native = search(game, state, limits=Limits(depth=4), backend="native")
        python = search(game, state, limits=Limits(depth=4), backend="python")
        same_search(native, python, nodes=True)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 6), entries=st.sampled_from([3, 97]))
def test_search_with_tiny_tables_keeps_the_value(seed: int, depth: int, entries: int) -> None:
    game, state = random_board(seed)
    native = search(
        game, state, limits=Limits(depth=depth), backend="native", table=NativeTable(entries)
    )
    python = search(game, state, limits=Limits(depth=depth), backend="python")
    assert native.value == python.value
    if native.best_move is not None:
        assert native.best_move in list(game.legal_moves(state))


def test_two_kings_beat_one_in_15() -> None:
    state = GAME.parse_position("B:WK28:BK19,K23")
    native = solve(GAME, state, backend="native")
    assert (native.result, native.distance, native.backend) == ("win", 15, "native")
    python = solve(GAME, state, backend="python")
    assert native.pv == python.pv and native.best_moves == python.best_moves
    # The kernel's solver narrows with null windows inside the score bounds, as the
    # Python one does (one whole-window search took 3x Python's nodes).
    assert native.stats.nodes <= 1.1 * python.stats.nodes


def small_endgame(seed: int) -> tuple[Checkers, CheckersState]:
    """2-3 pieces and a short draw rule: solved in well under a second."""
    rng = random.Random(seed)
    game = Checkers(rng.choice([2, 3]))
    squares = rng.sample(range(1, 33), rng.randint(2, 3))
    black = 1 << square_bit(squares[0])
    white = 1 << square_bit(squares[1])
    if len(squares) == 3:
        extra = 1 << square_bit(squares[2])
        if rng.random() < 0.5:
            black |= extra
        else:
            white |= extra
    kings = 0
    for square in squares:
        bit = 1 << square_bit(square)
        if rng.random() < 0.5 or (black & bit and square >= 29) or (white & bit and square <= 4):
            kings |= bit
    return game, CheckersState(black, white, kings, rng.randrange(2), 0)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    entries=st.sampled_from([1 << 16, 1 << 18]),
    moves=st.sampled_from(["all", "line"]),
)
def test_solve_agrees_on_small_endgames(seed: int, entries: int, moves: str) -> None:
    """(Tables that drop most of an endgame make the exact search exponential: a
    3-piece draw solved in 29k nodes with 65k entries ran for minutes with 1k.)"""
    game, state = small_endgame(seed)
    native = solve(game, state, moves=moves, backend="native", table=NativeTable(entries))
    python = solve(game, state, moves=moves, backend="python")
    assert (native.result, native.distance, native.value) == (
        python.result,
        python.distance,
        python.value,
    )
    assert set(native.best_moves) == set(python.best_moves)
    assert native.pv == python.pv


@pytest.mark.parametrize("draw_moves", [40, 2])
def test_conformance_compares_the_port(draw_moves: int) -> None:
    report = check_game(Checkers(draw_moves), playouts=4, seed=7)
    assert report.native_states > 100


def test_native_is_the_default() -> None:
    assert choose_backend(GAME, task="search") == "native"
    assert choose_backend(GAME, task="solve") == "native"


def test_cli_backend_native(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = {}
    for backend in ("native", "python"):
        status, out, _ = run(
            capsys, "analyze", "checkers", "11-15 23-19", "--depth", "5", "--backend", backend
        )
        assert status == 0
        lines = out.splitlines()
        outputs[backend] = (lines[-1], [line.split(" pv ")[1] for line in lines if " pv " in line])
    assert outputs["native"] == outputs["python"]
    status, out, _ = run(capsys, "solve", "checkers", "B:WK28:BK19,K23", "--backend", "native")
    assert status == 0
    assert "win in 15 plies" in out and "best move 23-27" in out
