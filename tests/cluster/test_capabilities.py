"""The cluster asks ports what they offer, never their type, and imports the engine's
public names only (``plies.engine.solver`` and the packages' ``__init__``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import plies.cluster
from plies.cluster._probe import ENGINE, PONS
from plies.cluster._split import probe_scale
from plies.engine import Limits, solve
from plies.engine.solver import ProbeStopped, threshold_port
from plies.games import get_game

CLUSTER = Path(plies.cluster.__file__).parent
#: The cluster's own modules and plies' shared helpers (below every package).
ALLOWED = ("plies.cluster.", "plies._forkserver.", "plies._arguments.")


def _imports(path: Path) -> list[str]:
    """Every ``plies...`` name ``path`` imports (``module.name`` for from-imports)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("plies."):
            found += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.startswith("plies.")]
    return found


@pytest.mark.parametrize("path", sorted(CLUSTER.glob("*.py")), ids=lambda path: path.name)
def test_the_cluster_imports_no_private_name_of_another_package(path: Path) -> None:
    for name in _imports(path):
        if name.startswith(ALLOWED):
            continue
        assert not any(part.startswith("_") for part in name.split(".")), name


def test_the_probes_scale_follows_the_declared_capabilities() -> None:
    pytest.importorskip("numba")
    connect4 = get_game("connect4")
    state = connect4.initial_state()
    assert probe_scale(connect4, "native", state) == (PONS, True)
    assert probe_scale(connect4, "python", state) == (ENGINE, False)
    tictactoe = get_game("tictactoe")
    assert probe_scale(tictactoe, "python", tictactoe.initial_state()) == (ENGINE, False)
    # A board of more than 64 bits: no Pons kernel, so no threshold probes
    large = get_game("connect4", width=8, height=8)
    assert probe_scale(large, "native", large.initial_state()) == (ENGINE, False)


def test_connect_four_probes_bound_the_native_solve() -> None:
    pytest.importorskip("numba")
    game = get_game("connect4", width=5, height=4)
    state = game.parse_position("3")
    port = threshold_port(game)
    table = port.probe_table(1 << 16)
    solved = solve(game, state, backend="native")
    score = game.exact_score(state, solved.result, solved.distance or 0)
    low, high = port.score_range(state, weak=False)
    assert low <= score <= high
    for threshold in (score - 1, score):
        probed = port.probe(state, threshold, table=table, limits=Limits())
        assert (probed.score > threshold) == (score > threshold)
    line = port.principal_line(state, score, table=table, limits=Limits())
    assert line.moves == solved.pv
    result = port.solve_result(
        state, score, solved.best_moves, line.moves, solved.stats, weak=False, moves="line"
    )
    assert (result.result, result.distance, result.value) == (
        solved.result,
        solved.distance,
        solved.value,
    )
    table.clear()
    with pytest.raises(ProbeStopped) as stopped:
        port.probe(game.initial_state(), 0, table=table, limits=Limits(nodes=10))
    assert stopped.value.reason == "node limit"
