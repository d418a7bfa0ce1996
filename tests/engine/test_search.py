"""The search driver: limits, stop requests, iteration, tie-breaking, deep games."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from engine.games import Subtraction
from plies.engine import (
    CHECK_EVERY,
    Limits,
    TranspositionTable,
    iterate,
    search,
    solve,
)
from plies.errors import ArgumentTypeError, SearchError
from plies.games import get_game
from plies.games.mnk import MNKGame, MNKState


def test_iterate_yields_one_result_per_depth() -> None:
    game = get_game("connect4")
    results = list(iterate(game, game.initial_state(), limits=Limits(depth=5)))
    assert [r.depth for r in results] == [1, 2, 3, 4, 5]
    assert all(r.completed for r in results)
    assert all(r.pv[0] == r.best_move and len(r.pv) <= r.depth for r in results)
    nodes = [r.stats.nodes for r in results]
    assert nodes == sorted(nodes)  # statistics are cumulative


def test_iteration_stops_when_the_value_is_exact() -> None:
    game = get_game("tictactoe")
    results = list(iterate(game, game.initial_state(), limits=Limits(depth=30)))
    assert results[-1].exact and results[-1].depth <= 9
    assert results[-1].value == 0


def test_node_limit_is_exact_and_returns_last_completed_depth() -> None:
    game = get_game("connect4")
    full = list(iterate(game, game.initial_state(), limits=Limits(depth=7)))
    budget = full[4].stats.nodes + 10  # depth 5 done, depth 6 cut short
    result = search(game, game.initial_state(), limits=Limits(nodes=budget))
    assert not result.completed
    assert result.depth == 5
    assert result.best_move == full[4].best_move
    assert budget <= result.stats.nodes <= budget + 7  # a leaf batch may overshoot


def test_time_limit_ends_a_real_search() -> None:
    # The promise (within 100 ms of the limit) is proved on a fake clock below, where
    # a loaded machine cannot make it flaky; on the real clock the bound is generous.
    game = get_game("connect4")
    for limit in (0.05, 0.2):
        started = time.perf_counter()
        result = search(game, game.initial_state(), limits=Limits(time=limit))
        elapsed = time.perf_counter() - started
        assert not result.completed
        assert result.depth >= 1
        assert elapsed < limit + 1.0, elapsed


def test_stop_event_ends_the_search() -> None:
    game = get_game("connect4")
    stop = threading.Event()
    timer = threading.Timer(0.1, stop.set)
    timer.start()
    started = time.perf_counter()
    result = search(game, game.initial_state(), stop=stop)
    assert time.perf_counter() - started < 1.5  # a generous bound: the search is unbounded
    assert not result.completed and result.best_move is not None


def test_stop_callable_and_progress_hook() -> None:
    game = get_game("connect4")
    seen: list[int] = []
    result = search(
        game,
        game.initial_state(),
        stop=lambda: len(seen) >= 5,
        progress=seen.append,
        backend="python",  # the Python engine's check interval (Connect Four is native)
    )
    assert not result.completed
    assert len(seen) == 5
    gaps = [b - a for a, b in zip([0, *seen], seen, strict=False)]
    # The interval adapts to the speed of a node (CHECK_GAP), at most CHECK_EVERY
    # nodes (and a leaf batch of a few more).
    assert seen == sorted(seen) and all(1 <= gap < CHECK_EVERY + 8 for gap in gaps)


def test_limit_with_no_completed_iteration_still_gives_a_move() -> None:
    game = get_game("connect4")
    result = search(game, game.initial_state(), limits=Limits(nodes=1))
    assert not result.completed and result.depth == 0
    assert result.best_move in game.legal_moves(game.initial_state())


@pytest.mark.parametrize(
    "limits",
    [{"depth": 0}, {"nodes": -5}, {"time": 0}, {"time": float("nan")}, {"nodes": 1 << 62}],
)
def test_bad_limits_are_errors(limits: dict[str, float]) -> None:
    with pytest.raises(SearchError):
        Limits(**limits)  # type: ignore[arg-type]


@pytest.mark.parametrize("limits", [{"depth": 1.5}, {"nodes": "5"}, {"time": True}])
def test_limits_of_the_wrong_type_are_argument_type_errors(limits: dict[str, object]) -> None:
    with pytest.raises(ArgumentTypeError, match="limit must be a"):
        Limits(**limits)  # type: ignore[arg-type]


def test_bad_options_are_errors() -> None:
    game = get_game("tictactoe")
    with pytest.raises(SearchError, match="unknown algorithm"):
        search(game, game.initial_state(), algorithm="sss*")
    with pytest.raises(SearchError, match="unknown chance"):
        search(game, game.initial_state(), chance="star3")
    with pytest.raises(SearchError, match="without chance"):
        solve(get_game("pig"), get_game("pig").initial_state())


def test_ties_are_deterministic_by_default_and_seeded_on_request() -> None:
    game = get_game("tictactoe")
    start = game.initial_state()
    moves = {search(game, start, limits=Limits(depth=2)).best_move for _ in range(3)}
    assert len(moves) == 1
    seeded = {
        seed: search(game, start, limits=Limits(depth=9), seed=seed).best_move for seed in range(12)
    }
    assert len(set(seeded.values())) > 1  # every first move draws: ties everywhere
    assert seeded[3] == search(game, start, limits=Limits(depth=9), seed=3).best_move
    for seed, move in seeded.items():  # random, but never a worse move
        after = game.play(start, move)
        assert solve(game, after).result == "draw", seed


def test_terminal_root() -> None:
    game = get_game("tictactoe")
    state = game.parse_position("1 4 2 5 3")
    result = search(game, state)
    assert result.best_move is None and result.pv == () and result.outcome == "loss"
    solved = solve(game, state)
    assert (solved.result, solved.distance, solved.best_move) == ("loss", 0, None)


def test_table_is_bounded() -> None:
    game = get_game("connect4")
    table = TranspositionTable(capacity=64)
    search(game, game.initial_state(), limits=Limits(depth=6), table=table)
    assert len(table) <= 64 and table.sweeps > 0


def test_a_5000_ply_line_does_not_crash() -> None:
    limit_before = sys.getrecursionlimit()
    game = Subtraction(6001)  # lines of 3001 to 6001 plies; 6001 % 3 != 0: a win
    solved = solve(game, game.initial_state(), moves="best")  # a line costs a search a ply
    assert solved.result == "win"
    assert solved.best_move == 1  # leave a multiple of three
    # The winner takes 2 whenever it can... the loser takes 1 to last longest.
    assert solved.distance == 4001
    short = Subtraction(601)
    assert len(solve(short, short.initial_state()).pv) == 401
    assert sys.getrecursionlimit() == limit_before
    # A depth-limited search thousands of plies into the line (it is slow: the table
    # only reuses entries of equal remaining depth, and here counters recur at many).
    state = game.initial_state()
    for _ in range(4001 - 31):  # the optimal line: leave a multiple of 3, else take 1
        counter = state >> 1
        state = game.play(state, counter % 3 or 1)
    result = search(game, state, limits=Limits(depth=40))
    assert result.exact and result.outcome == "win" and result.distance == 31


class ThreatsAtTheHorizon(MNKGame):
    """Tic-tac-toe whose quiescence search tries the moves that win at once."""

    def quiescence_moves(self, state: MNKState) -> list[int]:
        move = self.winning_move(state)
        return [] if move is None else [move]


def test_quiescence_hook_sees_threats_beyond_the_horizon() -> None:
    game = ThreatsAtTheHorizon()
    state = game.parse_position("1 5 2")  # x threatens 3; o to move
    plain = search(MNKGame(), state, limits=Limits(depth=1))
    assert plain.outcome is None  # one ply cannot see x's threat
    values = set()
    for algorithm in ("pvs", "negamax", "mtdf", "alphabeta", "minimax"):
        result = search(game, state, limits=Limits(depth=1), algorithm=algorithm)
        assert result.best_move == 2, algorithm  # cell 3: the only move that is not lost
        values.add(result.value)
    assert len(values) == 1
    lost = search(game, game.parse_position("1 5 2 4"), limits=Limits(depth=1))
    assert lost.outcome == "win" and lost.distance == 1


# -- limits hold on positions with thousands of moves (a node is slow there) -------------


class _FakeClock:
    """A monotonic clock that moves only when told (so the tests time nothing)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def perf_counter(self) -> float:
        return self.now


class SlowNodes(Subtraction):
    """Subtraction where generating the moves of a position costs 50 ms of a fake clock."""

    def __init__(self, n: int, clock: _FakeClock) -> None:
        super().__init__(n)
        self.clock = clock

    def legal_moves(self, state: int) -> list[int]:
        self.clock.now += 0.05
        return super().legal_moves(state)


@pytest.mark.parametrize("algorithm", ["pvs", "alphabeta"])
def test_a_time_limit_holds_when_every_node_is_slow(
    monkeypatch: pytest.MonkeyPatch, algorithm: str
) -> None:
    # The clock was read every 256 nodes: 256 slow nodes are 12.8 s past a 1 s limit.
    clock = _FakeClock()
    monkeypatch.setattr("plies.engine._context.time", clock)
    game = SlowNodes(10_000, clock)
    started = clock.now
    result = search(game, game.initial_state(), limits=Limits(time=1.0), algorithm=algorithm)
    assert not result.completed
    assert clock.now - started <= 1.0 + 0.1  # two slow nodes at most past the deadline


def test_the_clock_is_read_inside_a_long_loop_of_leaves() -> None:
    # Two heaps of 100,000: a node at depth 1 scores 200,000 leaves in one loop, which
    # counted them (and looked at the clock and the stop request) only at its end.
    game = get_game("nim")
    seen: list[int] = []
    search(
        game,
        game.parse_position("100000,100000"),
        limits=Limits(nodes=5_000),
        progress=seen.append,
    )
    gaps = [b - a for a, b in zip([0, *seen], seen, strict=False)]
    assert seen and max(gaps) <= CHECK_EVERY


def test_a_stop_request_is_seen_inside_a_long_loop_of_leaves() -> None:
    game = get_game("nim")
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3

    result = search(game, game.parse_position("100000,100000"), stop=stop)
    assert not result.completed
    assert result.stats.nodes < 4 * CHECK_EVERY


def test_a_seeded_tie_break_cut_by_a_limit_keeps_the_finished_depth() -> None:
    # The tie-break runs after a depth is finished; a limit hit there escaped as
    # SearchAborted instead of ending the search.
    game = get_game("nim")
    result = search(game, game.parse_position("300,300"), limits=Limits(nodes=900), seed=1)
    assert not result.completed
    assert result.depth >= 1 and result.best_move is not None


def test_solving_a_win_in_one_counts_the_node() -> None:
    # 'plies solve nim 1000000' reported 0 nodes.
    game = get_game("nim")
    solved = solve(game, game.parse_position("1000000"))
    assert solved.result == "win" and solved.distance == 1
    assert solved.stats.nodes >= 1 and solved.stats.leaves >= 1  # the root (and the line)


def test_a_full_table_keeps_about_the_deepest_half_in_place() -> None:
    table = TranspositionTable(1024)
    entries = table.entries
    for key in range(1025):
        entries[key] = (float(key % 8), 0, 0.0, None)
    table.make_room()
    assert table.entries is entries  # the search holds this very dict
    assert 512 <= len(entries) <= 640
    assert min(entry[0] for entry in entries.values()) >= 3.0  # the shallow ones went
    table.drop_oldest()
    assert list(entries) == sorted(entries)[-512:]  # the newest half, in order


def test_limits_hold_while_finding_every_best_move() -> None:
    # A heap of a million: the value is a win in one, but every other move is a child
    # to search, which ignored the node limit (and the clock, and Ctrl-C).
    game = get_game("nim")
    with pytest.raises(SearchError, match=r"node limit\) after proving the value"):
        solve(game, game.parse_position("1000000"), moves="all", limits=Limits(nodes=1000))
    assert solve(game, game.parse_position("1000000"), moves="best").best_move == (0, 1_000_000)


# -- deep tables --------------------------------------------------------------------------


def test_a_deep_table_answers_a_repeated_search_from_its_entries() -> None:
    game = get_game("othello")
    state = game.initial_state()
    table = TranspositionTable(1 << 16, deep=True)
    first = search(game, state, limits=Limits(depth=5), table=table, backend="python")
    again = search(game, state, limits=Limits(depth=5), table=table, backend="python")
    assert (again.value, again.best_move) == (first.value, first.best_move)
    assert again.stats.nodes <= 5  # each iteration ends at the root's entry
    assert not again.exact


def test_a_deep_table_carries_a_search_to_the_next_move() -> None:
    game = get_game("othello")
    state = game.initial_state()
    for _ in range(2):
        state = game.play(state, game.legal_moves(state)[0])
    nodes = {}
    for deep in (True, False):
        kept = TranspositionTable(1 << 16, deep=deep)
        first = search(game, state, limits=Limits(depth=6), table=kept, backend="python")
        later = state
        for move in first.pv[:2]:  # the expected move and reply: the next search's position
            later = game.play(later, move)
        found = search(game, later, limits=Limits(depth=6), table=kept, backend="python")
        assert found.best_move in game.legal_moves(later)
        nodes[deep] = found.stats.nodes
    fresh = search(game, later, limits=Limits(depth=6), backend="python")
    # The kept entries end the first iterations at once (the plain table only orders).
    assert nodes[True] < nodes[False] < fresh.stats.nodes


def test_a_deep_table_still_solves_a_small_game_exactly() -> None:
    game = get_game("tictactoe")
    table = TranspositionTable(deep=True)
    results = list(iterate(game, game.initial_state(), limits=Limits(depth=30), table=table))
    assert results[-1].value == 0 and results[-1].exact
    # A second search on the same table is not proven exact by itself at depth 1:
    again = list(iterate(game, game.initial_state(), limits=Limits(depth=3), table=table))
    assert [r.value for r in again] == [0, 0, 0] and not any(r.exact for r in again)


def test_mtdf_keeps_to_its_iterations_entries_on_a_deep_table() -> None:
    game = get_game("connect4")
    state = game.initial_state()
    plain = search(game, state, limits=Limits(depth=6), algorithm="mtdf", backend="python")
    deep_table = TranspositionTable(deep=True)
    deep = search(
        game, state, limits=Limits(depth=6), algorithm="mtdf", table=deep_table, backend="python"
    )
    assert (deep.value, deep.best_move, deep.stats.nodes) == (
        plain.value,
        plain.best_move,
        plain.stats.nodes,
    )


def test_a_table_is_deep_or_not() -> None:
    with pytest.raises(ArgumentTypeError, match="deep must be True or False"):
        TranspositionTable(deep=1)  # type: ignore[arg-type]
