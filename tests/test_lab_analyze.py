"""plies.lab's operations on games that the shells call instead of the engine: analyze
(a search per depth), analyze_once, solve_position, book look-ups and the work on a
batch's line. Each gives what the engine gives, and checks its arguments."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from plies import lab
from plies.engine import Limits, iterate, search, solve
from plies.errors import ArgumentTypeError, PliesError, SearchError

SRC = Path(__file__).resolve().parent.parent / "src" / "plies"
SHELLS = [
    *sorted((SRC / "cli").glob("*.py")),
    SRC / "uci.py",
    *sorted((SRC / "web").rglob("*.py")),
]


def test_analyze_yields_the_engines_iterations() -> None:
    game, state = lab.load_game("connect4", "4453")
    options = lab.SearchOptions(depth=6)
    found = list(lab.analyze(game, state, options))
    engine = list(iterate(game, state, limits=Limits(depth=6)))
    assert [f.result.value for f in found] == [r.value for r in engine]
    assert [f.result.pv for f in found] == [r.pv for r in engine]
    assert [f.result.stats.nodes for f in found] == [r.stats.nodes for r in engine]
    last = found[-1]
    assert last.line == tuple(lab.format_line(game, state, last.result.pv))
    assert last.best_text == last.line[0]
    assert last.score == lab.score_of(game, last.result)


def test_analyze_once_is_one_search() -> None:
    game, state = lab.load_game("tictactoe", "1 4 2 3")
    once = lab.analyze_once(game, state, lab.SearchOptions(depth=4, algorithm="alphabeta"))
    engine = search(game, state, limits=Limits(depth=4), algorithm="alphabeta")
    assert once.result.value == engine.value and once.result.pv == engine.pv
    assert once.result.stats.nodes == engine.stats.nodes


def test_the_record_of_an_analysis() -> None:
    game, state = lab.load_game("tictactoe", "1 4 2 3")
    record = lab.analysis_record(lab.analyze_once(game, state, lab.SearchOptions(depth=3)))
    assert record["score_text"] == "win 3" and record["result"] == "win"
    assert record["distance"] == 3 and record["best_move"] == "5" and record["depth"] == 3


def test_a_chance_game_reads_as_expected_utility() -> None:
    game, state = lab.load_game("pig", "scores 18,18 total 0 player 1")
    last = list(lab.analyze(game, state, lab.SearchOptions(depth=4)))[-1]
    assert lab.format_score(last.score) == "expected utility +0.718"


def test_with_pv_keeps_the_score() -> None:
    game, state = lab.load_game("tictactoe", "1 4 2 3")
    found = lab.analyze_once(game, state, lab.SearchOptions(depth=3))
    shorter = found.with_pv(found.result.pv[:1])
    assert shorter.line == found.line[:1] and shorter.score == found.score


def test_a_kept_table_serves_the_next_search() -> None:
    game, state = lab.load_game("connect4", "4453")
    table = lab.search_table(1 << 12)
    first = list(lab.analyze(game, state, lab.SearchOptions(depth=5), table=table))
    again = list(lab.analyze(game, state, lab.SearchOptions(depth=5), table=table))
    assert first[-1].result.value == again[-1].result.value
    assert again[-1].result.stats.nodes <= first[-1].result.stats.nodes


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"depth": 0}, SearchError),
        ({"time": -1.0}, SearchError),
        ({"algorithm": "best"}, PliesError),
        ({"chance": "dice"}, PliesError),
        ({"backend": "gpu"}, PliesError),
        ({"seed": "3"}, ArgumentTypeError),
        ({"depth": "3"}, ArgumentTypeError),
    ],
)
def test_search_options_are_checked_when_made(options: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        lab.SearchOptions(**options)  # type: ignore[arg-type]


def test_wrong_arguments_raise_plies_errors() -> None:
    game, state = lab.load_game("tictactoe", "")
    with pytest.raises(ArgumentTypeError, match="options"):
        lab.analyze(game, state, {"depth": 2})  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="game"):
        lab.analyze_once("tictactoe", state)  # type: ignore[arg-type]
    with pytest.raises(PliesError):
        lab.analyze(game, "not a state", lab.SearchOptions(depth=1))
    with pytest.raises(PliesError, match="entries"):
        lab.search_table(4)
    with pytest.raises(PliesError, match="task"):
        lab.check_backend(game, task="play")


def test_check_backend_refuses_an_impossible_native() -> None:
    game, state = lab.load_game("pig", "")
    assert lab.check_backend(game, None, state=state) == "python"
    with pytest.raises(SearchError):
        lab.check_backend(game, "native", state=state)


def test_solve_position_is_the_engines_solve() -> None:
    game, state = lab.load_game("connect4", "2252576253462244111563")
    options = lab.SolveOptions(backend="python", moves="all")
    solved = lab.solve_position(game, state, options)
    engine = solve(game, state, backend="python", moves="all")
    assert (solved.result, solved.distance, solved.best_moves) == (
        engine.result,
        engine.distance,
        engine.best_moves,
    )
    assert solved.stats.nodes == engine.stats.nodes
    assert lab.score_token(game, state, solved) == str(lab.exact_score(game, state, solved))
    assert lab.solve_record(game, state, solved)["best_moves"] == [
        game.format_move(state, move) for move in engine.best_moves
    ]


def test_a_quick_solve_answers_an_easy_position_in_python() -> None:
    game, state = lab.load_game("connect4", "2252576253462244111563")
    solved = lab.solve_position(game, state, lab.SolveOptions(), quick=True)
    assert solved.result in ("win", "draw", "loss")


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"moves": "some"}, PliesError),
        ({"weak": 1}, ArgumentTypeError),
        ({"table_size": 8}, PliesError),
        ({"nodes": 0}, SearchError),
        ({"backend": "fast"}, PliesError),
    ],
)
def test_solve_options_are_checked_when_made(options: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        lab.SolveOptions(**options)  # type: ignore[arg-type]


def test_batch_lines_are_the_shells_lines_and_travel_to_workers() -> None:
    solve_job = lab.SolveLines("connect4", moves="none", backend="python")
    line = solve_job(1, "2252576253462244111563 -1")
    assert line.output is not None and line.output.startswith("2252576253462244111563 ")
    assert (line.differs is None) == (line.output.split()[-1] == "-1")
    assert pickle.loads(pickle.dumps(solve_job)) == solve_job
    analyze_job = lab.AnalyzeLines("tictactoe", depth=3)
    assert analyze_job(2, "1 4 2 3").output == "1 4 2 3 win:3 5 3"
    assert pickle.loads(pickle.dumps(analyze_job)) == analyze_job
    bad = analyze_job(3, "1 1")
    assert bad.error is not None and bad.output is None


def test_expected_scores_are_split_only_for_games_that_keep_one() -> None:
    connect4 = lab.get_game("connect4")
    nim = lab.get_game("nim")
    assert lab.keeps_score(connect4) and not lab.keeps_score(nim)
    assert lab.split_expected("4453 -2", scored=True) == ("4453", -2)
    assert lab.split_expected("3,4 5", scored=False) == ("3,4 5", None)


def test_engine_move_takes_options_or_limits_alike() -> None:
    room = lab.room_of(*lab.load_game("tictactoe", "1 4 2"))
    by_options = lab.engine_move(room, lab.SearchOptions(depth=3))
    by_limits = lab.engine_move(room, limits=Limits(depth=3))
    assert (by_options.text, by_options.note.split(",")[:2]) == (
        by_limits.text,
        by_limits.note.split(",")[:2],
    )
    with pytest.raises(lab.RoomError, match="not both"):
        lab.engine_move(room, lab.SearchOptions(depth=3), limits=Limits(depth=3))
    with pytest.raises(lab.RoomError, match="options"):
        lab.engine_move(room)


@pytest.mark.parametrize(
    ("spec", "moves", "depth"),
    [
        ("tictactoe", "1 4 2", 3),
        ("connect4", "4453", 5),
        ("othello", "", 3),
        ("nim", "", 4),
        ("checkers", "", 3),
        ("chess", "e2e4 e7e5", 2),
        ("pig", "", 2),
    ],
)
def test_plies_play_and_the_web_room_play_the_same_move(spec: str, moves: str, depth: int) -> None:
    """One engine for both shells: ``plies play``'s move (engine_move) is the web
    room's (think's last item), with the same depth and score."""
    room = lab.room_of(*lab.load_game(spec, moves))
    if lab.outcome(room) is not None or room.game.is_chance(room.state):
        pytest.skip("no player to move")
    chosen = lab.engine_move(room, lab.SearchOptions(depth=depth))
    best = list(lab.think(room, depth=depth))[-1]
    assert best["kind"] == "best"
    assert (chosen.text, f"depth {best['depth']}") == (best["text"], chosen.note.split(", ")[1])
    assert chosen.note.startswith(f"score {best['score']},")


def _imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
    return modules


@pytest.mark.parametrize("path", SHELLS, ids=lambda path: str(path.relative_to(SRC)))
def test_no_shell_imports_the_engine_games_or_books(path: Path) -> None:
    # main's start-up hook (skip_blas_probe), the one import pyproject's contract ignores
    allowed = {"plies.engine.native"} if path == SRC / "cli" / "__init__.py" else set()
    below = ("plies.engine", "plies.games", "plies.book")
    found = {
        module
        for module in _imported_modules(path)
        if module.startswith(below) and module not in allowed
    }
    assert not found, f"{path.name} imports {sorted(found)}"
