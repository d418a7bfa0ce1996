"""The public solver API (``plies.engine.solver``): probes and lines of the Python
exact solver, the one rule for best moves and the line, ports' capabilities; and the
search's one set-up (``search`` is ``iterate``'s last result)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games import Subtraction
from plies.engine import Limits, TranspositionTable, iterate, search, solve
from plies.engine.solver import (
    SHARED_TABLE,
    SOLVE_MOVES,
    THRESHOLD_PROBE,
    ExactProber,
    ExactSolver,
    ProbeStopped,
    SearchContext,
    ThresholdPort,
    best_moves_and_line,
    pons_threshold,
    port_capabilities,
    threshold_port,
)
from plies.errors import SearchError
from plies.games import get_game


def _positions() -> list[tuple[Any, Any]]:
    tictactoe = get_game("tictactoe")
    small = get_game("connect4", width=4, height=4)
    return [
        (tictactoe, tictactoe.parse_position("1 5")),
        (tictactoe, tictactoe.initial_state()),
        (Subtraction(21), Subtraction(21).initial_state()),
        (small, small.parse_position("121")),
    ]


@pytest.mark.parametrize(("game", "state"), _positions())
def test_probes_bound_the_solved_value(game: Any, state: Any) -> None:
    value = int(solve(game, state, moves="none", backend="python").value)
    prober = ExactProber(game, 1 << 12)
    for threshold in (value - 2, value - 1, value, value + 1):
        probed = prober.probe(state, threshold, limits=Limits())
        assert (probed.score > threshold) == (value > threshold)
        assert value <= probed.score if probed.score <= threshold else value >= probed.score
        assert probed.nodes >= 1


@pytest.mark.parametrize(("game", "state"), _positions())
def test_probed_line_is_the_solve_line(game: Any, state: Any) -> None:
    solved = solve(game, state, backend="python")
    line = ExactProber(game).line(state, int(solved.value), limits=Limits())
    assert line.moves == solved.pv


def test_probe_below_a_root_counts_the_plies() -> None:
    """A position ``ply`` plies below the root: its score is the root's scale."""
    game = get_game("tictactoe")
    root = game.initial_state()
    child = game.play(root, 5)
    below = int(solve(game, child, moves="none", backend="python").value)
    prober = ExactProber(game)
    shifted = below - 1 if below > 0 else below + 1 if below < 0 else 0
    probed = prober.probe(child, shifted - 1, ply=1, limits=Limits())
    assert probed.score >= shifted


def test_a_stopped_probe_says_why_and_counts() -> None:
    game = get_game("tictactoe")
    with pytest.raises(ProbeStopped) as raised:
        ExactProber(game).probe(game.initial_state(), 0, limits=Limits(nodes=5))
    assert raised.value.reason == "node limit"
    assert raised.value.nodes >= 5
    assert isinstance(raised.value, SearchError)


@pytest.mark.parametrize("moves", SOLVE_MOVES)
@pytest.mark.parametrize("weak", [False, True])
@pytest.mark.parametrize(("game", "state"), _positions())
def test_best_moves_and_line_is_the_solve_rule(
    game: Any, state: Any, moves: str, weak: bool
) -> None:
    """Driven by the exact solver's own questions, it answers as solve does."""
    solved = solve(game, state, weak=weak, moves=moves, backend="python")
    solver = ExactSolver(
        SearchContext(game, limits=Limits(), stop=None, table=TranspositionTable(1 << 14))
    )
    value = solver.value(state, weak=weak)
    best, pv = best_moves_and_line(
        value,
        weak=weak,
        moves=moves,
        floor=solver.worst - 100_000,
        line=lambda exact: solver.line(state, exact),
        reaching=lambda target, first: solver.best_moves(state, target, first_only=first),
    )
    assert (best, pv) == (solved.best_moves, solved.pv)


def test_best_moves_and_line_asks_only_what_it_needs() -> None:
    asked: list[str] = []

    def line(value: int) -> tuple[Any, ...]:
        asked.append("line")
        return ("a", "b")

    def reaching(target: int, first: bool) -> list[Any]:
        asked.append(f"reaching {target} {first}")
        return ["a", "c"]

    rule = {"floor": -99, "line": line, "reaching": reaching}
    assert best_moves_and_line(5, weak=False, moves="line", **rule) == (("a",), ("a", "b"))
    assert best_moves_and_line(5, weak=False, moves="none", **rule) == ((), ())
    assert asked == ["line"]
    assert best_moves_and_line(-1, weak=True, moves="best", **rule) == (("a", "c"), ("a",))
    assert best_moves_and_line(5, weak=False, moves="all", **rule) == (("a", "c"), ("a", "b"))
    assert asked[1:] == ["reaching -99 True", "line", "reaching 5 False"]


def test_python_solves_declare_no_capability() -> None:
    game = get_game("tictactoe")
    assert port_capabilities(game, "python") == frozenset()
    assert port_capabilities(Subtraction(5)) == frozenset()
    with pytest.raises(SearchError, match="threshold probes"):
        threshold_port(game)


def test_connect_four_declares_its_capabilities() -> None:
    pytest.importorskip("numba")
    game = get_game("connect4")
    declared = port_capabilities(game)
    assert {THRESHOLD_PROBE, SHARED_TABLE} <= declared
    port = threshold_port(game)
    assert isinstance(port, ThresholdPort)
    assert port_capabilities(game, "python") == frozenset()


@pytest.mark.parametrize("algorithm", ["pvs", "mtdf", "alphabeta"])
def test_search_is_the_last_iteration(algorithm: str) -> None:
    game = get_game("tictactoe")
    state = game.parse_position("1 5")
    options: dict[str, Any] = {"limits": Limits(depth=4), "algorithm": algorithm}
    last = list(iterate(game, state, **options))[-1]
    found = search(game, state, **options)
    assert (found.value, found.best_move, found.pv, found.depth) == (
        last.value,
        last.best_move,
        last.pv,
        last.depth,
    )
    assert found.stats.nodes == last.stats.nodes


def test_pons_threshold_is_pons_rule() -> None:
    """Solver.cpp's ``med`` (C's division truncates towards zero) for every range of
    a 7 x 6 board's scores."""

    def c_div(value: int) -> int:
        return int(value / 2)

    for low in range(-21, 22):
        for high in range(low + 1, 23):
            med = low + c_div(high - low)
            if med <= 0 and c_div(low) < med:
                med = c_div(low)
            elif med >= 0 and c_div(high) > med:
                med = c_div(high)
            assert pons_threshold(low, high) == med, (low, high)
