"""Connect Four's native kernel (``_pons``): its static bounds and move order are
exact, checked against the Python solver, which has neither."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from plies import engine
from plies.engine.native import NativeTable
from plies.errors import LimitError
from plies.games.connect4 import Connect4, Connect4State

pytest.importorskip("numba")

from numba import njit

from plies.games.connect4 import _pons as kernel
from plies.games.connect4._solve import _SPARE_LOCK, _board


def random_positions(game: Connect4, seed: int, empty: int, count: int) -> list[Connect4State]:
    """``count`` positions of random play with ``empty`` empty cells, the first player
    to move and no win in one for either side."""
    rng = random.Random(seed)
    found: list[Connect4State] = []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and game.size - state.ply > empty:
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.is_terminal(state) or state.ply % 2 or game.winning_move(state) is not None:
            continue
        found.append(state)
    return found


def pons_score(game: Connect4, state: Connect4State) -> int:
    """The exact score by the Python solver, in Pons' convention."""
    solved = engine.solve(game, state, moves="none", backend="python")
    return game.exact_score(state, solved.result, solved.distance or 0)


def test_claimeven_bounds_the_first_players_score_and_often_binds() -> None:
    game = Connect4()
    board = _board(game.width, game.height, 4)
    tight = set()
    for state in random_positions(game, 7, 10, 150):
        bound = kernel.claimeven_bound(np.uint64(state.position), np.uint64(state.mask), board)
        score = pons_score(game, state)
        assert score <= bound, state
        if score == bound:
            tight.add(bound)
    # It proves a draw at best, or a loss by a given stone, exactly on some of them
    # (a loss on row 6 of the board scores -1, on row 4 -2).
    assert {-1, -2} <= tight


@pytest.mark.parametrize(("width", "height"), [(5, 4), (6, 5), (4, 6)])
def test_native_solve_is_exact_on_other_boards(width: int, height: int) -> None:
    # Even heights use the claimeven bounds, odd ones (no evens) do not.
    game = Connect4(width=width, height=height)
    table = NativeTable(10_007)
    for state in random_positions(game, width * height, 14, 12):
        table.clear()
        native = engine.solve(game, state, moves="none", backend="native", table=table)
        python = engine.solve(game, state, moves="none", backend="python")
        assert (native.result, native.distance) == (python.result, python.distance), state


def test_native_solve_is_exact_near_the_end() -> None:
    # The static wins (our second or third stone) need cells left to be wins, not draws.
    game = Connect4()
    table = NativeTable(10_007)
    checked = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = game.initial_state()
        empty = rng.choice((3, 4, 5, 6, 7))
        while game.size - state.ply > empty:  # random moves that win nothing
            quiet = [m for m in game.legal_moves(state) if not game.play(state, m).won]
            if not quiet:
                break
            state = game.play(state, rng.choice(quiet))
        if game.is_terminal(state):
            continue
        table.clear()
        native = engine.solve(game, state, moves="none", backend="native", table=table)
        python = engine.solve(game, state, moves="none", backend="python")
        assert (native.result, native.distance) == (python.result, python.distance), state
        checked += 1
    assert checked > 100


def mirrored(moves: str, width: int = 7) -> str:
    """The moves of the mirror image of a game (column c becomes width + 1 - c)."""
    return "".join(str(width + 1 - int(column)) for column in moves)


def test_a_position_and_its_mirror_image_share_table_entries() -> None:
    game = Connect4()
    table = NativeTable()
    for moves in ("32164625", "17516442226766"):  # Test_L1_R1, 1713 and 8483 nodes
        table.clear()
        first = engine.solve(game, game.parse_position(moves), moves="none", table=table)
        # The mirror image, on the same table: its root is found there.
        second = engine.solve(game, game.parse_position(mirrored(moves)), moves="none", table=table)
        assert (first.result, first.distance) == (second.result, second.distance)
        assert second.stats.nodes < first.stats.nodes / 4, moves


def test_solves_given_no_table_share_one_kept_table_or_make_their_own() -> None:
    # The kept table is emptied before each solve given none: the second position's
    # nodes match a solve on a new table; while another solve holds it, a solve makes
    # its own and still answers exactly.
    game = Connect4()
    first, second = (game.parse_position(moves) for moves in ("4444", "3343"))
    engine.solve(game, first, backend="native", moves="none")
    kept = engine.solve(game, second, backend="native", moves="none")
    new = engine.solve(game, second, table=NativeTable(), backend="native", moves="none")
    assert (kept.value, kept.stats.nodes) == (new.value, new.stats.nodes)
    with _SPARE_LOCK:
        held = engine.solve(game, second, backend="native", moves="none")
    assert (held.value, held.stats.nodes) == (new.value, new.stats.nodes)


@njit
def _store(arrays: Any, slot: Any, key: Any, code: int, nodes: int) -> None:
    kernel.store(slot, key, code, nodes, True, kernel.buffers(*arrays))


@njit
def _lookup(arrays: Any, key: Any) -> int:
    buffers = kernel.buffers(*arrays)
    return int(kernel.lookup(key, key % buffers.size, True, buffers))


def _table(entries: int) -> tuple[Any, ...]:
    """The kernel's arrays (keys, values, board, scratch, control) over a native table
    of ``entries`` slots with 64-bit keys."""
    keys, values, control = NativeTable(entries).arrays(64)
    return keys, values, _board(7, 6, 8), np.zeros((43, 14), np.uint64), control


def test_two_keys_of_one_slot_both_stay_and_the_lesser_work_is_replaced() -> None:
    arrays = _table(101)  # a prime: a key's slot is the key % 101
    values = arrays[1]
    first, second, third = np.uint64(5), np.uint64(5 + 101), np.uint64(5 + 202)
    slot = np.uint64(5)
    _store(arrays, slot, first, kernel.LOWER + 3, 1000)  # work: 10 bits
    _store(arrays, slot, second, kernel.UPPER - 2, 10)  # into the next slot: 4 bits
    assert (_lookup(arrays, first), _lookup(arrays, second)) == (5, 6)
    assert (int(values[5]), int(values[6])) == (kernel.LOWER + 3, kernel.UPPER - 2)
    # A third key of the slot replaces the entry of less work (the second's).
    _store(arrays, slot, third, kernel.LOWER, 100)
    assert [_lookup(arrays, key) for key in (first, second, third)] == [5, -1, 6]
    # A key already in the bucket is written where it is.
    _store(arrays, slot, third, kernel.LOWER + 1, 1)
    assert _lookup(arrays, third) == 6 and int(values[6]) == kernel.LOWER + 1
    # The last slot's bucket goes on at slot 0, and slot 0's keys are not mistaken.
    _store(arrays, np.uint64(100), np.uint64(100), kernel.LOWER, 5)
    _store(arrays, np.uint64(100), np.uint64(201), kernel.LOWER, 1)
    assert (_lookup(arrays, np.uint64(201)), _lookup(arrays, np.uint64(202))) == (0, -1)


def test_the_work_is_the_bit_length_of_the_nodes_at_most_31() -> None:
    for nodes in (1, 2, 3, 1000, 2**40):
        assert kernel.work_of(nodes) == min(nodes.bit_length(), kernel.MAX_WORK)


def test_key_types_leave_room_for_the_entries_bits() -> None:
    bits = Connect4().width * (Connect4().height + 1)  # 49
    assert NativeTable(1 << 23).arrays(bits)[0].dtype == np.uint32
    assert NativeTable(1 << 22).arrays(bits)[0].dtype == np.uint64  # sizes round up to primes
    with pytest.raises(LimitError, match="cannot tell keys of 64 bits apart: give it at least 64"):
        NativeTable(3).arrays(64)
