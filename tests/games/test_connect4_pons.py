"""Connect Four's native kernel (``_pons``): its static bounds and move order are
exact, checked against the Python solver, which has neither."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from plies import engine
from plies.engine.native import NativeTable
from plies.errors import LimitError, SearchError
from plies.games.connect4 import Connect4, Connect4State

pytest.importorskip("numba")

from plies.games.connect4 import _pons as kernel
from plies.games.connect4._solve import _SPARE_LOCK, Connect4Port, _board


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


def safe_moves(game: Connect4, state: Connect4State) -> list[int]:
    """The moves after which the opponent cannot win at once, by the rules."""
    return [m for m in game.legal_moves(state) if game.winning_move(game.play(state, m)) is None]


def forced_line_by_rules(game: Connect4, child: Connect4State) -> tuple[Connect4State, int]:
    """Where the kernel's ``forced_line`` should end from ``child`` (and how many
    stones on from its parent): each side plays its only safe move while it has
    exactly one, at most ``FORCED_LINE`` stones on, while more than 2 cells stay empty."""
    state, plies = child, 1
    while plies < kernel.FORCED_LINE and game.size - state.ply > 3:
        only = safe_moves(game, state)
        if len(only) != 1:
            break
        state, plies = game.play(state, only[0]), plies + 1
    return state, plies


def forced_lines(game: Connect4, seed: int, empty: int, count: int) -> list[tuple[Any, ...]]:
    """``(child, end, plies, kernel's (stones, mask, plies))`` for every child the
    kernel's move order lists, from positions of random play with ``empty`` empty
    cells where the side to move cannot win at once."""
    board = _board(game.width, game.height, 4)
    scratch = np.zeros(5 * game.width, np.uint64)
    rng, lines = random.Random(seed), []
    for _ in range(count):
        state = game.initial_state()
        while not game.is_terminal(state) and game.size - state.ply > empty:
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.is_terminal(state) or game.winning_move(state) is not None:
            continue
        position, mask = np.uint64(state.position), np.uint64(state.mask)
        theirs = np.uint64(kernel.wins_of(position ^ mask, mask, board))
        candidates = np.uint64(kernel.non_losing_moves(theirs, mask, board))
        moves = kernel.order_moves(position, mask, candidates, theirs, board, scratch, 0)
        for i in range(max(moves, 0)):
            move, reply = scratch[i], scratch[4 * game.width + i]
            child = next(
                after
                for after in (game.play(state, c) for c in game.legal_moves(state))
                if after.mask == int(mask | move)
            )
            end, plies = forced_line_by_rules(game, child)
            ours, after = position | move, mask | move
            left = game.size - state.ply
            found = kernel.forced_line(ours, position ^ mask, after, reply, left, board)
            lines.append((child, end, plies, found))
    return lines


def test_forced_lines_follow_the_rules() -> None:
    # The move order keeps each child's forced reply, and forced_line plays on from
    # there as the rules say: the cut-offs look up the position where it ends.
    game = Connect4()
    lines = forced_lines(game, 3, 14, 300)
    for child, end, plies, (stones, line_mask, found_plies) in lines:
        assert (int(stones), int(line_mask), found_plies) == (end.position, end.mask, plies), child
    lengths = {plies for _, _, plies, _ in lines}
    assert {1, 2, 3} <= lengths  # children with a choice, forced replies, longer lines


def test_a_forced_line_scores_what_its_end_scores() -> None:
    # A forced node keeps no entry, so the cut-offs read its line's end: the same
    # score, negated at each stone (Python's solver, which follows no such lines).
    game = Connect4(width=5, height=4)
    lines = [line for line in forced_lines(game, 5, 12, 60) if line[2] > 1]
    assert len(lines) > 20
    for child, end, plies, _ in lines:
        sign = 1 if plies % 2 == 1 else -1
        assert pons_score(game, child) == sign * pons_score(game, end), child


def test_a_child_the_opponent_has_no_four_for_is_a_draw_at_best_for_it() -> None:
    # The kernel's static cut-off: after our move the opponent has no four left among
    # its stones and the empty cells, so its score there is at most 0.
    game = Connect4()
    board = _board(game.width, game.height, 4)
    rng, found = random.Random(11), 0
    for _ in range(800):
        state, empty = game.initial_state(), rng.choice((6, 7, 8))
        while game.size - state.ply > empty:  # random moves that neither win nor lose
            quiet = [m for m in safe_moves(game, state) if not game.play(state, m).won]
            if not quiet:
                break
            state = game.play(state, rng.choice(quiet))
        if game.is_terminal(state) or game.winning_move(state) is not None:
            continue
        for move in safe_moves(game, state):
            child = game.play(state, move)
            empty = int(board[1]) ^ child.mask
            if not kernel.has_four(np.uint64(child.position | empty), board[2]):
                found += 1
                assert pons_score(game, child) <= 0, child
    assert found > 20


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


@pytest.mark.parametrize(("width", "height"), [(5, 4), (6, 5)])
def test_every_null_window_answer_is_a_true_bound(width: int, height: int) -> None:
    # The root's questions in every order on one table (as a solve asks them, so later
    # ones meet earlier entries and their cut-offs): an answer above the threshold is
    # a lower bound on the score, one at or below it an upper bound, some of them
    # below the threshold (the table's and the static bounds failed soft already,
    # so this does not tell the children's loop's fail low from Pons' alpha).
    game = Connect4(width=width, height=height)
    port = Connect4Port(game)
    table = NativeTable(10_007)
    below = 0
    for state in random_positions(game, width + height, 12 if height == 4 else 16, 10):
        score = pons_score(game, state)
        low, high = port.score_range(state, weak=False)
        thresholds = list(range(low, high))
        random.Random(state.mask).shuffle(thresholds)
        table.clear()
        for threshold in thresholds:
            answer = port.probe(state, threshold, table=table, limits=engine.Limits()).score
            if answer > threshold:
                assert score >= answer, (state, threshold)
            else:
                assert score <= answer, (state, threshold)
                below += answer < threshold
    assert below > 0


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


@pytest.mark.parametrize("entries", [17, 1_009, 1 << 23])
def test_a_crowded_two_way_table_keeps_every_score_exact(entries: int) -> None:
    # Lines of 16 to 26 empty cells (two-way entries from 20): in a table of 17 or
    # 1,009 entries (uint64 words) nearly every store replaces or is refused, in the
    # default one (uint32 words, 26 key bits) the pairs' flags tell keys apart. The
    # small tables fill at once, so those searches switch to keys that merge dead
    # stones early (MERGE_AFTER times the entries), on a table keyed both ways.
    game = Connect4()
    table = NativeTable(entries)
    for state in random_positions(game, entries, 16, 4) + random_positions(game, 3, 26, 2):
        table.clear()
        native = engine.solve(game, state, moves="none", backend="native", table=table)
        python = engine.solve(game, state, moves="none", backend="python")
        assert (native.result, native.distance) == (python.result, python.distance), state
    assert table.key_bits == (32 if entries > 1_009 else 64)


def test_a_table_too_small_to_tell_keys_apart_is_refused() -> None:
    # 8 x 7 keys have 64 bits, of which a word keeps 58: the slot must tell the rest.
    game = Connect4(width=8, height=7)
    with pytest.raises(LimitError, match="too small for keys of 64 bits: give at least 64"):
        engine.solve(game, game.initial_state(), backend="native", table=NativeTable(20))
    with pytest.raises(SearchError, match="node limit"):  # 67 entries are enough
        engine.solve(
            game, game.initial_state(), moves="none", backend="native",
            table=NativeTable(67), limits=engine.Limits(nodes=2_000),
        )  # fmt: skip
