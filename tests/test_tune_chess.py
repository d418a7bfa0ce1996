"""scripts/tune_chess.py: Stockfish's games give quiet positions with its scores, and
the fit writes tables and weights that both engines can read, fitted toward those
scores; each weight's column is its part in the game's own evaluation."""

from __future__ import annotations

import importlib
import importlib.util
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("chess")
pytest.importorskip("scipy")

import chess
import numpy as np

from plies.games.chess._tables import EG, MG

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "tune_chess.py"
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def _run(*argv: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_generate_then_fit_writes_tables_nearer_stockfish(tmp_path: Path) -> None:
    positions = tmp_path / "positions.tsv"
    _run("generate", "--games", "3", "--nodes", "300", "--workers", "1", "--out", str(positions))
    lines = positions.read_text().splitlines()
    assert len(lines) > 30
    for line in lines:
        fen, score = line.split("\t")
        assert len(fen.split()) == 6 and abs(int(score)) <= 1500
    tables = tmp_path / "tables.py"
    out = _run(
        "fit", str(positions), "--steps", "300", "--least", "1", "--write", "--tables", str(tables)
    )
    before = float(out.split("error before: train ")[1].split()[0])
    after = float(out.split("step 300: train ")[1].split()[0])
    assert after < before
    spec = importlib.util.spec_from_file_location("fitted_tables", tables)
    assert spec is not None and spec.loader is not None
    fitted = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fitted)
    for table, now in ((fitted.MG, MG), (fitted.EG, EG)):
        assert len(table) == 7 and all(len(piece) == 64 for piece in table)
        assert all(isinstance(value, int) for piece in table for value in piece)
        assert table[0] == now[0] and table != now
    tuner = _tuner()
    for module_name, name, _ in tuner.TERMS:
        now = getattr(importlib.import_module(f"plies.games.chess.{module_name}"), name)
        written = getattr(fitted, name.lstrip("_"))
        assert type(written) is type(now)
        if isinstance(now, tuple):
            assert len(written) == len(now) and all(isinstance(v, int) for v in written)


def _tuner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tune_chess", SCRIPT)
    assert spec is not None and spec.loader is not None
    tuner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tuner)
    return tuner


def _random_positions(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randrange(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            fens.append(board.fen())
    return fens


def test_the_fit_predicts_the_evaluation_with_any_linear_weights() -> None:
    # The design matrix times the values plus the fixed rest is the game's own
    # evaluation: with the values in use, and with every weight that enters the score
    # linearly moved at random (the king attack's is rounded after its share: left).
    tuner = _tuner()
    fens = _random_positions(60, seed=5)
    matrix, rest = tuner._design(fens)
    start = tuner._current()
    assert np.allclose(matrix @ start + rest, _evaluations(fens))
    rng = random.Random(6)
    moved = start.copy()
    weights = tuner._weights()
    for index, (_, name, _) in enumerate(weights):
        if name != "_KING_ATTACK_WEIGHT":
            moved[tuner.TABLE_SIZE + index] += rng.randint(-25, 25)
    try:
        for index, weight in enumerate(weights):
            tuner._set(*weight, int(moved[tuner.TABLE_SIZE + index]))
        assert np.allclose(matrix @ moved + rest, _evaluations(fens))
    finally:
        for index, weight in enumerate(weights):
            tuner._set(*weight, int(start[tuner.TABLE_SIZE + index]))
    assert np.allclose(matrix @ start + rest, _evaluations(fens))


def _evaluations(fens: list[str]) -> np.ndarray:
    from plies.games import get_game
    from plies.games.chess import _eval

    _eval._CACHE.clear()  # the pawn terms as the weights are now
    game = get_game("chess")
    return np.array([game.evaluate(game.parse_position(fen), 0) for fen in fens])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fit", "{tmp}/missing.tsv"], "tune_chess: cannot read {tmp}/missing.tsv: "),
        (["fit", "{tmp}/bad.tsv"], "tune_chess: {tmp}/bad.tsv:2: not FEN<TAB>centipawns: "),
        (["fit", "{tmp}/few.tsv"], "tune_chess: {tmp}/few.tsv: 1 positions; the fit needs"),
        (
            ["fit", "{tmp}/many.tsv", "--write", "--tables", "{tmp}/no/tables.py"],
            "tune_chess: cannot write {tmp}/no/tables.py: its folder is missing",
        ),
        (["generate", "--games", "0", "--out", "{tmp}/x.tsv"], "argument --games: not a whole"),
        (["generate", "--out", "{tmp}/no/x.tsv"], "tune_chess: cannot write {tmp}/no/x.tsv"),
        (
            ["generate", "--stockfish", "{tmp}/none", "--games", "1", "--out", "{tmp}/x.tsv"],
            "tune_chess: Stockfish failed: ",
        ),
    ],
)
def test_bad_input_is_one_line(argv: list[str], message: str, tmp_path: Path) -> None:
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t20\n"
    (tmp_path / "bad.tsv").write_text(start + "rnbqkbnr/pppppppp 12\n")
    (tmp_path / "few.tsv").write_text(start)
    (tmp_path / "many.tsv").write_text(start * 12)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *(arg.format(tmp=tmp_path) for arg in argv)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr
    assert message.format(tmp=tmp_path) in done.stderr.strip().splitlines()[-1]
