"""The native backend (``solve(..., backend="native")``): Pons' test sets exactly, his
node counts, agreement with the Python solver on every board size and table size,
limits, and the choice of backend."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pons import pons_set
from plies.cluster._split import helper_seed
from plies.engine import Limits, NativeTable, TranspositionTable, choose_backend, search, solve
from plies.errors import SearchError
from plies.games import get_game
from plies.games.connect4 import Connect4, Connect4State

pytest.importorskip("numba")

C4 = Connect4()


def native_scores(name: str, every: int) -> tuple[int, float]:
    """Solve the set natively (the table cleared per position, as Pons measures);
    assert every score; return the positions and their mean node count."""
    table = NativeTable()
    count = nodes = 0
    for moves, expected in pons_set(name, every):
        state = C4.parse_position(moves)
        table.clear()
        solved = solve(C4, state, moves="none", backend="native", table=table)
        assert solved.backend == "native"
        assert C4.exact_score(state, solved.result, solved.distance or 0) == expected, moves
        count += 1
        nodes += solved.stats.nodes
    return count, nodes / count


@pytest.mark.parametrize(
    ("name", "every", "pons_mean"),
    [("Test_L3_R1", 1, 51), ("Test_L2_R1", 20, 449), ("Test_L1_R1", 50, 3300)],
)
def test_pons_sets_exactly_with_his_node_counts(name: str, every: int, pons_mean: int) -> None:
    count, mean = native_scores(name, every)
    assert count == 1000 // every
    if every == 1:  # a sample's mean may stray from the set's
        assert mean <= 1.1 * pons_mean, mean


def test_weak_gives_the_signs() -> None:
    table = NativeTable(97)
    for moves, expected in pons_set("Test_L2_R1", 50):
        state = C4.parse_position(moves)
        weak = solve(C4, state, weak=True, moves="best", backend="native", table=table)
        assert weak.weak and weak.distance is None
        assert weak.result == ("win" if expected > 0 else "loss" if expected < 0 else "draw")
        reply = solve(C4, C4.play(state, weak.best_move), weak=True, moves="none")
        assert {"win": "loss", "loss": "win", "draw": "draw"}[reply.result] == weak.result


def test_weak_best_moves_are_every_move_of_the_result() -> None:
    # A weak score is a bound of the right sign: every win is a best move, not only
    # the moves reaching the bound the search returned (native listed (2,), not (5, 2)).
    state = C4.parse_position("27766664431333111212")
    native = solve(C4, state, weak=True, moves="all", backend="native")
    python = solve(C4, state, weak=True, moves="all", backend="python")
    assert native.result == python.result == "win"
    assert set(native.best_moves) == set(python.best_moves) == {2, 5}


def random_position(game: Connect4, seed: int, empty: int) -> Connect4State:
    """Random play until at most ``empty`` cells are empty (or the game ends)."""
    rng = random.Random(seed)
    state = game.initial_state()
    while not game.is_terminal(state) and game.size - state.ply > empty:
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([(4, 4), (5, 4), (6, 5), (7, 6)]),
    seed=st.integers(0, 10**6),
    empty=st.integers(0, 14),
    entries=st.sampled_from([97, 1 << 16]),
    moves=st.sampled_from(["all", "line", "best", "none"]),
)
def test_native_agrees_with_python(
    size: tuple[int, int], seed: int, empty: int, entries: int, moves: str
) -> None:
    """Result, distance, best moves and line as the Python solver gives them, also
    with a table of 97 entries that keeps overwriting what it knows."""
    game = Connect4(*size)
    state = random_position(game, seed, empty)
    native = solve(game, state, moves=moves, backend="native", table=NativeTable(entries))
    python = solve(game, state, moves=moves, backend="python")
    assert (native.result, native.distance, native.value) == (
        python.result,
        python.distance,
        python.value,
    )
    assert set(native.best_moves) == set(python.best_moves)
    assert native.best_move in (python.best_moves or (python.best_move,))
    if moves in ("line", "all"):  # a line of best moves to the end of the game
        final = state
        for move in native.pv:
            final = game.play(final, move)
        assert game.is_terminal(final)
        assert len(native.pv) == len(python.pv)
    weak = solve(game, state, weak=True, moves="best", backend="native")
    assert weak.result == python.result


def test_finished_games() -> None:
    won = C4.parse_position("1212121")
    solved = solve(C4, won, backend="native")
    assert (solved.result, solved.distance, solved.best_move, solved.pv) == ("loss", 0, None, ())
    tiny = Connect4(1, 1)
    full = tiny.play(tiny.initial_state(), 1)
    assert solve(tiny, full, backend="native").result == "draw"
    assert solve(tiny, tiny.initial_state(), backend="native").distance == 1


def test_limits_stop_the_kernel() -> None:
    empty = C4.initial_state()  # minutes of search: every limit must cut it short
    with pytest.raises(SearchError, match="node limit"):
        solve(C4, empty, limits=Limits(nodes=1000), backend="native")
    with pytest.raises(SearchError, match="time limit"):
        solve(C4, empty, limits=Limits(time=0.05), backend="native")
    stop = threading.Event()
    threading.Timer(0.05, stop.set).start()
    with pytest.raises(SearchError, match="stop requested"):
        solve(C4, empty, stop=stop, backend="native")
    seen: list[int] = []
    with pytest.raises(SearchError, match="node limit"):
        solve(C4, empty, limits=Limits(nodes=300_000), progress=seen.append, backend="native")
    # A stopped search stores nothing false: the table still solves correctly.
    table = NativeTable(1 << 16)
    with pytest.raises(SearchError):
        solve(C4, empty, limits=Limits(nodes=5000), backend="native", table=table)
    moves, expected = next(pons_set("Test_L2_R1"))
    state = C4.parse_position(moves)
    solved = solve(C4, state, moves="none", backend="native", table=table)
    assert C4.exact_score(state, solved.result, solved.distance or 0) == expected


def test_choice_of_backend() -> None:
    pig = get_game("pig")
    assert choose_backend(C4) == "native" and choose_backend(pig) == "python"
    assert choose_backend(Connect4(8, 8)) == "native"  # 72 bits: the protocol's port
    with pytest.raises(SearchError, match="pig has no native port"):
        search(pig, pig.initial_state(), backend="native")  # solve wants no chance
    assert search(C4, C4.initial_state(), limits=Limits(depth=2), backend="native").depth == 2
    with pytest.raises(SearchError, match="node limit"):
        solve(Connect4(8, 8), Connect4(8, 8).initial_state(), limits=Limits(nodes=100))
    with pytest.raises(SearchError, match="unknown backend"):
        solve(C4, C4.initial_state(), backend="cuda")
    state = C4.parse_position("5554224333234511764415115")
    # A Python table asks for the Python solver; the native one, for the native.
    assert solve(C4, state, table=TranspositionTable()).backend == "python"
    with pytest.raises(SearchError, match="NativeTable"):
        solve(C4, state, table=TranspositionTable(), backend="native")
    with pytest.raises(SearchError, match="native backend"):
        solve(C4, state, table=NativeTable(97), backend="python")


def test_table_size_and_memory() -> None:
    table = NativeTable()
    assert table.size == 8_388_617  # Pons': the first prime from 2**23
    solve(C4, C4.parse_position("5554224333234511764415115"), moves="none", table=table)
    assert table.key_bits == 32 and table.nbytes == 5 * table.size
    small = NativeTable(97)  # 97 * 2**32 < 2**49: the whole key is kept
    solve(C4, C4.parse_position("5554224333234511764415115"), table=small)
    assert small.key_bits == 64 and small.nbytes == 9 * 97


def test_one_table_follows_the_board_its_solves_ask_for() -> None:
    """The arrays are kept for the board they were made for and made again for a
    board whose keys need other words (with 100,003 entries, 4 x 4 keys fit 32-bit
    words, 7 x 6 keys need 64-bit ones)."""
    table = NativeTable(100_003)
    small = Connect4(4, 4)
    for game, moves, bits in (
        (small, "1213", 32), (C4, "5554224333234511764415115", 64), (small, "1213", 32)
    ):  # fmt: skip
        state = game.parse_position(moves)
        native = solve(game, state, moves="none", table=table)
        python = solve(game, state, moves="none", backend="python")
        assert table.key_bits == bits
        assert (native.result, native.distance) == (python.result, python.distance)


def test_touch_clears_the_table_it_maps() -> None:
    table = NativeTable(1009)
    state = C4.parse_position("5554224333234511764415115")
    first = solve(C4, state, moves="none", table=table)
    assert table.values.any()
    table.touch()
    assert not table.values.any() and not table.keys.any()
    again = solve(C4, state, moves="none", table=table)
    assert (again.result, again.distance, again.stats.nodes) == (
        first.result,
        first.distance,
        first.stats.nodes,
    )


@pytest.mark.parametrize("size", [(8, 7), (4, 15), (16, 3), (1, 1), (3, 3)])
def test_boards_at_the_edges_of_the_word(size: tuple[int, int]) -> None:
    """64 bits exactly (8 x 7: keys use the top bit), 60 cells (4 x 15: scores reach
    the table's +-30), the widest board, and boards where nobody can win."""
    game = Connect4(*size)
    for seed in range(4):
        state = random_position(game, seed, 10)
        native = solve(game, state, moves="all", backend="native", table=NativeTable(97))
        python = solve(game, state, moves="all", backend="python")
        assert (native.result, native.distance) == (python.result, python.distance)
        assert set(native.best_moves) == set(python.best_moves)


def _run_solve_root(table: NativeTable, state: Connect4State, seed: int = 0) -> tuple[int, int]:
    """Pons' score of ``state`` by the kernel on ``table`` (a helper's order for an odd
    ``seed``), and the nodes it took."""
    import numpy as np

    from plies.games.connect4 import _pons as kernel
    from plies.games.connect4._solve import _Kernel

    run = _Kernel(C4, table, Limits(), None, None, seed=seed)
    position, mask = np.uint64(state.position), np.uint64(state.mask)
    return int(run.run(kernel.solve_root, position, mask, state.ply, False)), run.nodes


def _hard_positions(count: int, empty: int) -> list[Connect4State]:
    """The first ``count`` random positions with ``empty`` empty cells that the kernel
    takes at least a thousand nodes to solve."""
    found = []
    for seed in range(100):
        state = random_position(C4, seed, empty)
        if _run_solve_root(NativeTable(10_007), state)[1] >= 1000:
            found.append(state)
        if len(found) == count:
            return found
    raise AssertionError("too few hard positions")


def test_two_tables_on_one_buffer_share_what_they_prove() -> None:
    (state,) = _hard_positions(1, 24)
    buffer = bytearray(NativeTable(100_003).shared_bytes(49))
    first, second = NativeTable(100_003), NativeTable(100_003)
    first.share(buffer, 49)
    second.share(buffer, 49)
    score, nodes = _run_solve_root(first, state)
    again, nodes_again = _run_solve_root(second, state)
    assert again == score and nodes_again < nodes // 10
    assert second.control is not first.control  # the counters stay each its own


def test_an_entry_whose_key_and_value_came_from_two_writers_is_not_read() -> None:
    """Every stored value replaced by another (as when a second process's write lands
    between the key and the value of the first's): the kernel refuses each entry, by
    its seal, and solves as on an empty table. Unsealed, the wrong bounds would give
    wrong scores."""
    rng = random.Random(7)
    for state in _hard_positions(3, 22):
        table = NativeTable(100_003)
        _run_solve_root(table, state)
        written = table.values.nonzero()[0]
        assert len(written) > 100
        table.values[written] = [
            rng.choice([c for c in (2, 40, 70, 120) if c != value])
            for value in table.values[written]
        ]
        expected, _ = _run_solve_root(NativeTable(100_003), state)
        assert _run_solve_root(table, state)[0] == expected, C4.format_position(state)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(20, 23), st.integers(0, 2**62))
def test_a_helper_s_order_gives_the_same_score(seed: int, empty: int, helper: int) -> None:
    """Helpers swap moves where at least 20 cells are empty: positions with 20-23."""
    state = random_position(C4, seed, empty)
    if C4.terminal_value(state) is not None or C4.winning_move(state) is not None:
        return
    score, _ = _run_solve_root(NativeTable(10_007), state)
    assert _run_solve_root(NativeTable(10_007), state, 2 * helper + 1)[0] == score


def test_helpers_search_in_other_orders() -> None:
    (state,) = _hard_positions(1, 24)
    seeds = [0] + [helper_seed(n) for n in (1, 2, 3)]  # a split's first helpers
    counts = [_run_solve_root(NativeTable(100_003), state, seed)[1] for seed in seeds]
    assert len(set(counts)) > 2, counts  # each seed its own order, so its own count
