"""Tune the chess evaluation's material and piece-square tables and the weights of
its other terms on Stockfish's evaluations, and write them to
``src/plies/games/chess/_tables.py``.

Two steps:

``generate``
    Stockfish plays games against itself at a fixed number of nodes a move, from 8
    random plies and with one move in ten random, and every quiet position it meets
    (not in check, its move neither a capture nor a promotion, the score within 15
    pawns) is written with Stockfish's score for white: ``FEN<TAB>centipawns``.
``fit``
    The tables and the weights of the evaluation's other terms (:data:`TERMS`: pawn
    structure, the king's shield, mobility, rook files, the king attack's weights,
    threats, the tempo, the bishop pair) are fitted together so that the
    evaluation's win chance, ``1 / (1 + e^(-x / SCALE))``, comes as near as it can
    to the one Stockfish's score gives (mean squared error, Adam, a pull of weight
    ``--pull`` toward the values in use).
    A weight's part in each position's score is measured on the game itself: the
    evaluation with the weight raised by :data:`STEP`, less the evaluation as it is,
    over :data:`STEP` (exact where the term is linear in the weight; the king attack's
    share is rounded down, so there the slope is close). What no fitted number
    touches is a fixed part of each position's score. A tenth of the positions is kept
    out of the fit and its error printed before and after. A number fewer than
    ``--least`` positions use keeps its value. ``--write`` writes the new values.

Run from the repository's root with the ``chess`` extra and SciPy installed and
Debian's ``stockfish``::

    python scripts/tune_chess.py generate --out /tmp/positions.tsv
    python scripts/tune_chess.py fit /tmp/positions.tsv --write
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "src" / "plies" / "games" / "chess" / "_tables.py"
#: The win chance's scale in centipawns (a score of SCALE: 73%).
SCALE = 250.0
#: The weights fitted beside the tables: ``(module, name, entries)``, a module of
#: ``plies.games.chess`` and the name of a weight there (``_tables`` holds it as the
#: name without its underscore), with the entries of a tuple that count (``None``: a
#: whole number). The mobility's usual counts and the king attack's shares are not
#: weights (the score is not linear in them) and stay as they are.
TERMS = (
    ("_eval", "_PASSED_MG", range(1, 7)),
    ("_eval", "_PASSED_EG", range(1, 7)),
    ("_eval", "_DOUBLED", range(2)),
    ("_eval", "_ISOLATED", range(2)),
    ("_eval", "_SHIELD_NEAR", None),
    ("_eval", "_SHIELD_FAR", None),
    ("_eval", "_OPEN_FILE", None),
    ("_eval", "_MOBILITY_MG", range(2, 6)),
    ("_eval", "_MOBILITY_EG", range(2, 6)),
    ("_eval", "_ROOK_OPEN", range(2)),
    ("_eval", "_ROOK_HALF_OPEN", range(2)),
    ("_eval", "_KING_ATTACK_WEIGHT", range(2, 6)),
    ("_eval", "_THREATENED_MOVING", range(2)),
    ("_eval", "_FORKED", range(2)),
    ("_eval", "_THREATENED_WAITING", range(2)),
    ("_eval", "_TEMPO", range(2)),
    ("_rules", "_BISHOP_PAIR", None),
)
#: How far a weight is raised to measure its part in a position's score.
STEP = 20
#: The fit's vector starts with the two tables (middlegame, endgame: 7 x 64 each).
TABLE_SIZE = 2 * 7 * 64


# -- generate ------------------------------------------------------------------------


def _play(job: tuple[int, int, str, int]) -> list[str]:
    """The quiet positions of ``games`` games from ``seed``, as TSV lines."""
    seed, games, stockfish, nodes = job
    rng = random.Random(seed)
    engine = chess.engine.SimpleEngine.popen_uci(stockfish)
    engine.configure({"Threads": 1, "Hash": 16})
    lines: list[str] = []
    try:
        for _ in range(games):
            board = chess.Board()
            for _ in range(8):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            while not board.is_game_over(claim_draw=True) and board.ply() < 240:
                moves = list(board.legal_moves)
                if rng.random() < 0.1:
                    board.push(rng.choice(moves))
                    continue
                result = engine.play(
                    board, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_SCORE
                )
                score = result.info.get("score")
                if score is None or result.move is None:
                    break
                white = score.white()
                if white.is_mate() or abs(white.score() or 0) > 1500:
                    break
                quiet = not board.is_check() and not board.is_capture(result.move)
                if quiet and result.move.promotion is None:
                    lines.append(f"{board.fen()}\t{white.score()}")
                board.push(result.move)
    finally:
        engine.quit()
    return lines


def generate(args: argparse.Namespace) -> None:
    """Play the games on ``--workers`` processes and write the positions."""
    stockfish = (
        args.stockfish or shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    )
    if stockfish is None:
        raise TuneError("Stockfish not found: apt-get install stockfish, or give --stockfish PATH")
    chunk = 20
    jobs = [
        (args.seed * 1_000_003 + start, min(chunk, args.games - start), stockfish, args.nodes)
        for start in range(0, args.games, chunk)
    ]
    started = time.perf_counter()
    count = games = 0
    try:
        out = open(args.out, "w")  # noqa: SIM115  # closed below, after the pool
    except OSError as exc:
        raise TuneError(f"cannot write {args.out}: {exc}") from None
    with out, multiprocessing.Pool(args.workers) as pool:
        for job, lines in zip(jobs, pool.imap(_play, jobs), strict=True):
            out.writelines(line + "\n" for line in lines)
            count += len(lines)
            games += job[1]
            elapsed = time.perf_counter() - started
            print(f"\r{games} games, {count} positions, {elapsed:.0f} s", end="", flush=True)
    print()


# -- fit -----------------------------------------------------------------------------


def _design(fens: list[str]) -> tuple[object, np.ndarray]:
    """The sparse matrix of table entries each position uses (columns: the middlegame
    table's 7 x 64 entries, then the endgame's, each weighted by the phase and signed
    by the piece's colour) and the rest of each position's score (the evaluation's
    other terms), from white's view.

    Both come from the game itself: the rest is its evaluation less the tapered table
    sums its state keeps, and the matrix must give those sums again from the tables in
    use (checked on every position)."""
    from scipy import sparse

    from plies.games import get_game
    from plies.games.chess._rules import _FULL_PHASE

    game = get_game("chess")
    rows: list[int] = []
    cols: list[int] = []
    signs: list[float] = []
    weights = np.zeros(len(fens))
    sums = np.zeros((len(fens), 2))
    states = [game.parse_position(fen) for fen in fens]
    scores = _evaluations(game, states)
    rest = scores.copy()
    for row, state in enumerate(states):
        phase = min(state.phase, _FULL_PHASE)
        weights[row] = phase / _FULL_PHASE
        sums[row] = state.mg, state.eg
        rest[row] -= (state.mg * phase + state.eg * (_FULL_PHASE - phase)) / _FULL_PHASE
        for square, piece in state.board.piece_map().items():
            white = piece.color == chess.WHITE
            rows.append(row)
            cols.append(piece.piece_type * 64 + (square if white else square ^ 56))
            signs.append(1.0 if white else -1.0)
    pieces = sparse.csr_matrix((signs, (rows, cols)), shape=(len(fens), 7 * 64))
    start = _current()
    made = np.column_stack((pieces @ start[: 7 * 64], pieces @ start[7 * 64 : TABLE_SIZE]))
    assert np.array_equal(made, sums), "the tables' columns do not give the state's sums"
    parts = _parts(game, states, scores)
    matrix = sparse.hstack(
        (
            sparse.diags(weights) @ pieces,
            sparse.diags(1 - weights) @ pieces,
            sparse.csr_matrix(parts),
        ),
        format="csr",
    )
    return matrix, rest - parts @ start[TABLE_SIZE:]


def _module(name: str) -> object:
    """The module ``plies.games.chess.<name>`` of a :data:`TERMS` entry."""
    import importlib

    return importlib.import_module(f"plies.games.chess.{name}")


def _weights() -> list[tuple[object, str, int | None]]:
    """Every fitted weight of :data:`TERMS` as ``(module, name, entry)``."""
    found: list[tuple[object, str, int | None]] = []
    for module_name, name, entries in TERMS:
        found.extend((_module(module_name), name, entry) for entry in (entries or [None]))
    return found


def _value(module: object, name: str, entry: int | None) -> int:
    value = getattr(module, name)
    return int(value if entry is None else value[entry])


def _set(module: object, name: str, entry: int | None, value: int) -> None:
    """Set one weight in its module (the pawn terms' table emptied: it keeps scores)."""
    from plies.games.chess import _eval

    old = getattr(module, name)
    if entry is None:
        setattr(module, name, value)
    else:
        setattr(module, name, (*old[:entry], value, *old[entry + 1 :]))
    _eval._CACHE.clear()


def _evaluations(game: object, states: list[object]) -> np.ndarray:
    """The game's evaluation of each state, from white's view."""
    evaluate = game.evaluate  # type: ignore[attr-defined]
    return np.array([evaluate(state, 0) for state in states])


def _parts(game: object, states: list[object], scores: np.ndarray) -> np.ndarray:
    """Each weight's part in each position's score per unit (a column a weight), from
    the states' ``scores`` with the weights in use."""
    columns = []
    for module, name, entry in _weights():
        value = _value(module, name, entry)
        _set(module, name, entry, value + STEP)
        try:
            raised = _evaluations(game, states)
        finally:
            _set(module, name, entry, value)
        columns.append((raised - scores) / STEP)
    return np.column_stack(columns)


def _current() -> np.ndarray:
    """The values in use, as the fit's vector: the middlegame table, the endgame
    table, then the weights in the order of :func:`_weights`."""
    from plies.games.chess._tables import EG, MG

    tables = [v for table in (*MG, *EG) for v in table]
    return np.array(tables + [_value(*weight) for weight in _weights()], dtype=float)


def _chance(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x / SCALE))


class TuneError(Exception):
    """Input the tuner cannot use; main() prints it as one line."""


def _read(path: str) -> list[tuple[str, int]]:
    """The positions of a ``generate`` file, each line checked."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise TuneError(f"cannot read {path}: {exc}") from None
    positions = []
    for number, line in enumerate(text.splitlines(), 1):
        fen, _, score = line.partition("\t")
        try:
            chess.Board(fen)
            positions.append((fen, int(score)))
        except ValueError:
            raise TuneError(f"{path}:{number}: not FEN<TAB>centipawns: {line[:80]!r}") from None
    if len(positions) < 10:
        raise TuneError(f"{path}: {len(positions)} positions; the fit needs at least 10")
    return positions


def fit(args: argparse.Namespace) -> np.ndarray:
    """Fit the tables and weights and print the error on the positions kept out."""
    lines = _read(args.data)
    if args.write and not os.access(args.tables.parent, os.W_OK):
        raise TuneError(f"cannot write {args.tables}: its folder is missing or read-only")
    random.Random(1).shuffle(lines)
    fens = [fen for fen, _ in lines]
    target = _chance(np.array([float(cp) for _, cp in lines]))
    started = time.perf_counter()
    matrix, rest = _design(fens)
    print(f"{len(fens)} positions read in {time.perf_counter() - started:.0f} s")
    start = _current()
    held = len(fens) // 10
    test, train = slice(0, held), slice(held, None)
    x_train, x_test = matrix[train], matrix[test]
    rare = np.asarray((abs(x_train) > 0).sum(axis=0)).ravel() < args.least

    def error(theta: np.ndarray, x: object, part: slice) -> float:
        return float(np.mean((_chance(x @ theta + rest[part]) - target[part]) ** 2))

    before = error(start, x_train, train), error(start, x_test, test)
    print(f"error before: train {before[0]:.6f}  held out {before[1]:.6f}")
    theta = start.copy()
    first = np.zeros_like(theta)
    second = np.zeros_like(theta)
    transposed = x_train.T.tocsr()
    count = x_train.shape[0]
    for step in range(1, args.steps + 1):
        chance = _chance(x_train @ theta + rest[train])
        slope = 2 * (chance - target[train]) * chance * (1 - chance) / SCALE
        gradient = transposed @ slope / count + 2 * args.pull * (theta - start)
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient**2
        theta -= (
            args.rate * (first / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-12)
        )
        theta[rare] = start[rare]
        if step % 500 == 0 or step == args.steps:
            now = error(theta, x_train, train), error(theta, x_test, test)
            print(f"step {step}: train {now[0]:.6f}  held out {now[1]:.6f}")
    rounded = np.round(theta)
    print(f"rounded: held out {error(rounded, x_test, test):.6f}")
    if args.write:
        _write(rounded, len(fens), args)
    return rounded


def _write(theta: np.ndarray, positions: int, args: argparse.Namespace) -> None:
    def table(offset: int) -> str:
        rows = []
        for piece in range(7):
            values = [int(v) for v in theta[offset + piece * 64 : offset + (piece + 1) * 64]]
            ranks = [", ".join(f"{v:4d}" for v in values[r * 8 : r * 8 + 8]) for r in range(8)]
            rows.append("    (\n" + "".join(f"        {rank},\n" for rank in ranks) + "    ),\n")
        return "(\n" + "".join(rows) + ")"

    fitted = dict(zip(_weights(), (int(v) for v in theta[TABLE_SIZE:]), strict=True))
    weights = []
    for module_name, name, entries in TERMS:
        module = _module(module_name)
        if entries is None:
            value: object = fitted[module, name, None]
        else:
            value = tuple(
                fitted.get((module, name, entry), old)
                for entry, old in enumerate(getattr(module, name))
            )
        weights.append(f"{name.lstrip('_')} = {value}\n")
    text = (
        '"""The chess evaluation\'s material and piece-square tables and the weights of its\n'
        "other terms, written by ``scripts/tune_chess.py fit`` (do not edit by hand):\n"
        f"fitted on {positions:,} quiet positions of Stockfish's games against itself to\n"
        f"its evaluations ({args.steps} steps, pull {args.pull:g}).\n\n"
        "``MG[piece][square]`` and ``EG[piece][square]``: centipawns for a white piece\n"
        "(python-chess piece type 1 pawn .. 6 king; square a1 = 0 .. h8 = 63, a row of\n"
        "eight a rank); a black piece on ``square`` counts ``-MG[piece][square ^ 56]``.\n"
        "The weights: see where they are used (``_eval`` and ``_rules``, by the same\n"
        "name with an underscore in front).\n"
        '"""\n\n'
        f"# fmt: off\nMG = {table(0)}\n\nEG = {table(7 * 64)}\n# fmt: on\n\n" + "".join(weights)
    )
    try:
        args.tables.write_text(text)
    except OSError as exc:
        raise TuneError(f"cannot write {args.tables}: {exc}") from None
    print(f"written: {args.tables}")


def main() -> None:
    """Parse the arguments and run the step asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    play = steps.add_parser("generate", help="play Stockfish's games and write positions")
    play.add_argument("--games", type=_positive, default=4000)
    play.add_argument("--nodes", type=_positive, default=1000, help="Stockfish's nodes a move")
    play.add_argument("--workers", type=_positive, default=2)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--stockfish", help="Stockfish's path (default: found)")
    play.add_argument("--out", required=True)
    tune = steps.add_parser("fit", help="fit the tables to the positions")
    tune.add_argument("data")
    tune.add_argument("--steps", type=_positive, default=3000)
    tune.add_argument("--rate", type=float, default=1.0, help="Adam's step (centipawns)")
    tune.add_argument("--pull", type=float, default=1e-9, help="toward the tables in use")
    tune.add_argument(
        "--least", type=int, default=100, help="positions an entry needs to be fitted"
    )
    tune.add_argument("--write", action="store_true", help="write the tables")
    tune.add_argument("--tables", type=Path, default=TABLES, help="where (default: plies')")
    args = parser.parse_args()
    try:
        (generate if args.step == "generate" else fit)(args)
    except TuneError as exc:
        sys.exit(f"tune_chess: {exc}")
    except (chess.engine.EngineError, OSError) as exc:  # Stockfish died, or did not start
        sys.exit(f"tune_chess: Stockfish failed: {exc}")


def _positive(text: str) -> int:
    """A whole number of at least 1, for argparse."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a whole number of at least 1: {text!r}")
    return value


if __name__ == "__main__":
    main()
