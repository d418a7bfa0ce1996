"""Connect Four's dead stones (``_dead``): the compiled test finds exactly the stones
a cell-by-cell reading of the definition finds, and recolouring them never changes a
position's score, so the kernel may key such positions alike."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies import engine
from plies.games.connect4 import Connect4, Connect4State

pytest.importorskip("numba")

from numba import njit

from plies.games.connect4 import _pons as kernel
from plies.games.connect4._dead import dead_stones
from plies.games.connect4._solve import _board

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (column, row) steps


@njit(cache=False)
def compiled_dead(position: np.uint64, mask: np.uint64, h1: np.uint64, full: np.uint64) -> int:
    return int(dead_stones(position, mask, h1, full))


def windows(game: Connect4) -> list[list[int]]:
    """Every window of four cells on the board, as its cells' bits."""
    h1 = game.height + 1
    found = []
    for column in range(game.width):
        for row in range(game.height):
            for dc, dr in DIRECTIONS:
                cells = [(column + dc * k, row + dr * k) for k in range(4)]
                if all(0 <= c < game.width and 0 <= r < game.height for c, r in cells):
                    found.append([1 << (c * h1 + r) for c, r in cells])
    return found


def reference_dead(game: Connect4, position: int, mask: int) -> int:
    """The dead stones as defined, window by window: a stone is dead when every window
    through it holds both colours among its other cells."""
    theirs = mask & ~position
    live = 0
    for window in windows(game):
        for stone in window:
            others = [bit for bit in window if bit != stone]
            if not any(bit & position for bit in others) or not any(bit & theirs for bit in others):
                live |= stone
    return mask & ~live


def reference_given(game: Connect4, position: int, mask: int) -> int:
    """The stones the key gives to the side to move: the buried ones (in no window
    with an empty cell) and the opponent's dead stones whose every window with an
    empty cell holds a live stone of the opponent's."""
    dead = reference_dead(game, position, mask)
    live_theirs = mask & ~position & ~dead
    kept = opened = 0
    for window in windows(game):
        bits = sum(window)
        if bits & ~mask:
            opened |= bits
            if not bits & live_theirs:
                kept |= bits
    return (mask & ~opened) | (dead & ~position & ~kept)


def window_colours(game: Connect4, position: int, mask: int) -> list[tuple[bool, bool]]:
    """Which colours each window with an empty cell holds: all a game's future asks."""
    return [
        (bool(sum(w) & position), bool(sum(w) & mask & ~position))
        for w in windows(game)
        if sum(w) & ~mask
    ]


def random_state(game: Connect4, rng: random.Random, stones: int) -> Connect4State:
    """A position of random play with up to ``stones`` stones, stopped before a win."""
    state = game.initial_state()
    while state.ply < stones and not game.is_terminal(state):
        moves = [m for m in game.legal_moves(state) if not game.play(state, m).won]
        if not moves:
            break
        state = game.play(state, rng.choice(moves))
    return state


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([(7, 6), (5, 4), (4, 15), (16, 2), (3, 16), (1, 9), (8, 7), (2, 2)]),
    seed=st.integers(0, 2**32 - 1),
    fill=st.floats(0.0, 1.0),
)
def test_the_compiled_test_gives_exactly_the_stones_defined(
    size: tuple[int, int], seed: int, fill: float
) -> None:
    game = Connect4(width=size[0], height=size[1])
    state = random_state(game, random.Random(seed), round(fill * game.size))
    board = _board(game.width, game.height, 8)
    h1, full = board[kernel.H1], board[kernel.BOARD]
    found = compiled_dead(np.uint64(state.position), np.uint64(state.mask), h1, full)
    assert int(found) == reference_given(game, state.position, state.mask), state


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stones=st.integers(10, 40))
def test_giving_the_stones_away_changes_no_window_a_game_can_still_use(
    seed: int, stones: int
) -> None:
    # What makes the keys sound: the position and its key's position hold the same
    # colours in every window with an empty cell, so the game ahead is the same.
    game = Connect4()
    state = random_state(game, random.Random(seed), stones)
    keyed = state.position | reference_given(game, state.position, state.mask)
    assert window_colours(game, keyed, state.mask) == window_colours(
        game, state.position, state.mask
    )


def test_every_dead_stone_given_away_would_confuse_positions_of_other_scores() -> None:
    # Why not all dead stones: giving every one to the side to move can make a window
    # of mixed colours look like a threat. Two positions of this 5 x 4 board (found by
    # random play) would share a key, one lost by the second player, one won.
    game = Connect4(width=5, height=4)
    first = Connect4State(1474722, 1547751, 15, False)
    second = Connect4State(1310887, 1547751, 15, False)
    naive = {s.position | reference_dead(game, s.position, s.mask) for s in (first, second)}
    assert len(naive) == 1
    scores = {engine.solve(game, s, moves="none", backend="python").result for s in (first, second)}
    assert scores == {"win", "loss"}
    board = _board(game.width, game.height, 4)
    keys = {
        int(kernel.table_key(np.uint64(s.position), np.uint64(s.mask), kernel.DEAD_LEFT, board))
        for s in (first, second)
    }
    assert len(keys) == 2


def test_positions_sharing_a_key_share_their_score() -> None:
    # Positions of one filling (the same cells taken) with dead stones of the two
    # sides swapped in random pairs: those the kernel keys alike score alike.
    game = Connect4(width=5, height=4)
    board = _board(game.width, game.height, 4)
    rng = random.Random(3)
    shared = 0
    for _ in range(200):
        state = random_state(game, rng, rng.randint(9, 14))
        dead = reference_dead(game, state.position, state.mask)
        ours = [1 << i for i in range(64) if (dead & state.position) >> i & 1]
        theirs = [1 << i for i in range(64) if (dead & ~state.position) >> i & 1]
        by_key: dict[int, tuple[int, tuple[str, int | None]]] = {}
        for _ in range(12):
            pairs = rng.randint(0, min(len(ours), len(theirs)))
            swapped = sum(rng.sample(ours, pairs)) + sum(rng.sample(theirs, pairs))
            other = state._replace(position=state.position ^ swapped)
            if game._has_four(other.position) or game._has_four(other.position ^ other.mask):
                continue
            empty = game.size - other.ply
            key = kernel.table_key(np.uint64(other.position), np.uint64(other.mask), empty, board)
            solved = engine.solve(game, other, moves="none", backend="python")
            score = (solved.result, solved.distance)
            first = by_key.setdefault(int(key), (other.position, score))
            if first[0] != other.position:
                shared += 1
                assert first[1] == score, (state, other)
    assert shared >= 20  # the keys do merge positions


def test_dead_stones_are_common_in_the_middle_game() -> None:
    # Not a test that cannot fail by finding nothing: many positions have some.
    game = Connect4()
    rng = random.Random(5)
    positions = [random_state(game, rng, 24) for _ in range(200)]
    assert sum(reference_given(game, s.position, s.mask) != 0 for s in positions) > 50


def test_recolouring_dead_stones_keeps_the_score() -> None:
    # Dead stones of the two sides swapped in pairs (a position keeps its counts): the
    # Python solver, which knows nothing of dead stones, scores them all the same.
    game = Connect4(width=5, height=4)
    rng = random.Random(11)
    checked = 0
    while checked < 25:
        state = random_state(game, rng, rng.randint(8, 13))
        dead = reference_dead(game, state.position, state.mask)
        ours = [1 << i for i in range(64) if (dead & state.position) >> i & 1]
        theirs = [1 << i for i in range(64) if (dead & ~state.position) >> i & 1]
        if game.is_terminal(state) or not ours or not theirs:
            continue
        scores = set()
        for pairs in range(min(len(ours), len(theirs)) + 1):
            swapped = sum(rng.sample(ours, pairs)) + sum(rng.sample(theirs, pairs))
            recoloured = state._replace(position=state.position ^ swapped)
            solved = engine.solve(game, recoloured, moves="none", backend="python")
            scores.add((solved.result, solved.distance))
        assert len(scores) == 1, state
        checked += 1
