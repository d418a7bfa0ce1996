"""Known game values: tic-tac-toe is a draw and the engine never loses it; Nim follows
the nim-sum; solved distances match the principal variation."""

from __future__ import annotations

from functools import cache, reduce
from operator import xor
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from plies.engine import Limits, TranspositionTable, search, solve
from plies.games import get_game
from plies.games.mnk import MNKGame, MNKState

TICTACTOE = MNKGame()


@cache
def reference_value(state: MNKState) -> int:
    """Plain minimax over the whole game, side to move's view: +1, 0 or -1."""
    outcome = TICTACTOE.terminal_value(state)
    if outcome is not None:
        return int(outcome)
    return max(-reference_value(TICTACTOE.play(state, m)) for m in TICTACTOE.legal_moves(state))


def reachable(state: MNKState, seen: dict[int, MNKState]) -> None:
    key = TICTACTOE.key(state)
    if key in seen:
        return
    seen[key] = state
    for move in TICTACTOE.legal_moves(state):
        reachable(TICTACTOE.play(state, move), seen)


def test_tictactoe_is_a_draw() -> None:
    solved = solve(TICTACTOE, TICTACTOE.initial_state())
    assert (solved.result, solved.distance) == ("draw", 9)
    assert len(solved.pv) == 9
    assert solved.stats.nodes < 4609  # the best peer engine's count (benchmarks/peers.py)


def test_engine_never_loses_tictactoe_from_any_reachable_position() -> None:
    states: dict[int, MNKState] = {}
    reachable(TICTACTOE.initial_state(), states)
    assert len(states) == 5478
    table = TranspositionTable()
    expected_results = {1: "win", 0: "draw", -1: "loss"}
    for state in states.values():
        if TICTACTOE.is_terminal(state):
            continue
        value = reference_value(state)
        solved = solve(TICTACTOE, state, table=table)
        assert solved.result == expected_results[value]
        # The engine's move keeps the game value: it never turns a draw into a loss
        # or a win into anything less.
        assert -reference_value(TICTACTOE.play(state, solved.best_move)) == value
        assert len(solved.pv) == solved.distance


def test_search_finds_the_fastest_win() -> None:
    # x: 1 5, o: 2 9. x wins in 3 plies (4 threatens 6 and 7) but not in 1.
    state = TICTACTOE.parse_position("1 2 5 9")
    for algorithm in ("pvs", "negamax", "mtdf", "alphabeta", "minimax"):
        result = search(TICTACTOE, state, limits=Limits(depth=5), algorithm=algorithm)
        assert result.outcome == "win"
        assert result.distance == 3, algorithm


def test_loser_holds_out_longest() -> None:
    # o to move after x: 1 5, o: 2 9, x: 4 -- o loses, but not at once if it blocks.
    state = TICTACTOE.parse_position("1 2 5 9 4")
    solved = solve(TICTACTOE, state)
    assert (solved.result, solved.distance) == ("loss", 2)
    for algorithm in ("pvs", "negamax", "mtdf", "alphabeta", "minimax"):
        result = search(TICTACTOE, state, limits=Limits(depth=4), algorithm=algorithm)
        assert result.outcome == "loss"
        assert result.distance == 2


heaps = st.lists(st.integers(0, 5), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(heaps=heaps)
def test_nim_is_a_win_exactly_when_the_nim_sum_is_not_zero(heaps: list[int]) -> None:
    game = get_game("nim")
    state = game.parse_position(",".join(map(str, heaps)))
    solved = solve(game, state)
    nim_sum = reduce(xor, heaps, 0)
    assert solved.result == ("win" if nim_sum else "loss")
    assert solved.distance == len(solved.pv)
    if nim_sum:  # a winning move leaves a zero nim-sum
        after = game.play(state, solved.best_move)
        assert reduce(xor, after.heaps, 0) == 0


@settings(max_examples=10, deadline=None)
@given(heaps=st.lists(st.integers(0, 3), min_size=1, max_size=3))
def test_nim_search_agrees_with_the_nim_sum(heaps: list[int]) -> None:
    game = get_game("nim")
    state = game.parse_position(",".join(map(str, heaps)))
    result = search(game, state, limits=Limits(depth=sum(heaps) + 1))
    assert result.exact
    if any(heaps):
        assert result.outcome == ("win" if reduce(xor, heaps, 0) else "loss")


def test_connect4_end_game_solve() -> None:
    game: Any = get_game("connect4")
    # From Pons' test set ("end-easy"), score -1: the side to move (second player,
    # 37 stones down) loses to the first player's 21st stone, the 41st of the game.
    state = game.parse_position("2252576253462244111563365343671351441")
    solved = solve(game, state)
    assert (solved.result, solved.distance) == ("loss", 4)
    final = state
    for move in solved.pv:
        final = game.play(final, move)
    assert game.is_terminal(final)
