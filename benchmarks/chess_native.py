"""Benchmark: chess's native port against python-chess and the Python engine, same run.

Three parts, each printed as it ends:

1. **perft**: leaves per second of the port's compiled move generator and ``play``
   (``plies.games.chess._native.perft``) against python-chess's own perft (push, pop
   and ``legal_moves.count()`` at the last ply: the usual bulk count), on the start
   position and Kiwipete, warmed, best of ``--repeat``; every count checked against
   the other. The port's load (import and the first call: Numba's cache read, or a
   compile on a cold cache) is timed apart.
2. **search speed**: the first ``--search-count`` Win At Chess positions searched to
   ``--depth`` by both backends (defaults: the game's options, pvs, a fresh table
   each): the same nodes (checked), the time and nodes per second of each.
3. **WAC at a time per move**: ``--wac-count`` positions at ``--time`` seconds each
   (``plies.engine.search`` with a time limit, a fresh table per position), solved
   counts of both backends (solved: the move is one of the ``bm`` moves).

Measured (this 2-core machine, shared, load about 2.5; ``--depth 5 --wac-count 300``):
native port load 0.6 s (from Numba's cache); perft 157 million leaves/s from the start
(depth 5) and 187 million on Kiwipete (depth 4) against python-chess's 0.83 and 1.0
million (depths 4 and 3): 190x and 183x; the search to depth 5 on WAC 1-20 the same
851,263 nodes in 0.23 s against 16.2 s, 3.6 million nodes/s against 53,000 (69x); WAC
at 1 s a position 274/300 solved natively (mean depth 8.0) against 200/300 (depth 4.4).
With mobility, rook files and the exchange evaluation (``--skip perft --depth 4
--wac-count 300 --time 0.1 --backends native``, before and after in one run): WAC 1-20
to depth 4 natively 1.23 million nodes/s before, 1.15 million after (Python 37,600 and
26,900); WAC at 0.1 s natively 239-240/300 (mean depth 8.1, 2.6-2.7 million nodes/s)
before, 234/300 (depth 7.8, 2.05 million) after.

Run: ``python benchmarks/chess_native.py`` (``--repeat N``, ``--depth D``,
``--search-count N``, ``--wac-count N`` (0 skips part 3), ``--time S``, ``--suite PATH``,
``--backends native`` (part 3 on one backend), ``--skip perft,search``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import chess
import numpy as np

from plies.engine import Limits, search
from plies.games.chess import Chess, ChessState

SUITE = next(
    (
        parent / "shared" / "chess-testsuites" / "wac-300.epd"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "chess-testsuites").is_dir()
    ),
    Path("shared") / "chess-testsuites" / "wac-300.epd",
)
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#: (name, FEN, native depth, python-chess depth)
PERFT_POSITIONS = (
    ("start", chess.STARTING_FEN, 5, 4),
    ("kiwipete", KIWIPETE, 4, 3),
)


def python_perft(board: chess.Board, depth: int) -> int:
    """python-chess's perft: bulk count at the last ply."""
    if depth == 1:
        return board.legal_moves.count()
    leaves = 0
    for move in board.legal_moves:
        board.push(move)
        leaves += python_perft(board, depth - 1)
        board.pop()
    return leaves


def native_perft(port: Any, module: Any, state: ChessState, depth: int) -> int:
    prepared = port.prepare(state)
    states = np.zeros((depth + 1, prepared.state.size), np.int64)
    states[0] = prepared.state
    moves = np.zeros((depth + 1, prepared.max_moves), np.int64)
    return int(module.perft(port.rules(), prepared.consts, states, moves, 0, depth))


def best_time(function: Any, repeat: int) -> tuple[float, Any]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - started)
    return best, result


def perft_part(game: Chess, repeat: int) -> None:
    started = time.perf_counter()
    from plies.games.chess import _native as module

    port = game.native()
    native_perft(port, module, game.initial_state(), 1)
    print(f"native port load (import and first call): {time.perf_counter() - started:.2f} s")
    for name, fen, native_depth, python_depth in PERFT_POSITIONS:
        state = game.parse_position(fen)
        native_time, native_leaves = best_time(
            lambda s=state, d=native_depth: native_perft(port, module, s, d), repeat
        )
        python_time, python_leaves = best_time(
            lambda f=fen, d=python_depth: python_perft(chess.Board(f), d), repeat
        )
        same = native_perft(port, module, state, python_depth) == python_leaves
        print(
            f"perft {name:9} native depth {native_depth}: {native_leaves:>10,} leaves "
            f"{native_time:7.3f} s {native_leaves / native_time:>12,.0f}/s | python-chess "
            f"depth {python_depth}: {python_leaves:>9,} leaves {python_time:7.3f} s "
            f"{python_leaves / python_time:>10,.0f}/s | ratio "
            f"{(native_leaves / native_time) / (python_leaves / python_time):,.0f}x"
            f"{'' if same else '  COUNTS DIFFER'}"
        )


def load(path: Path, count: int) -> list[tuple[str, list[chess.Move], str]]:
    rows = []
    for line in path.read_text().splitlines()[:count]:
        board = chess.Board()
        ops = board.set_epd(line)
        rows.append((board.fen(), list(ops["bm"]), str(ops.get("id", "?"))))  # type: ignore[arg-type]
    return rows


def search_part(game: Chess, rows: list[tuple[str, list[chess.Move], str]], depth: int) -> None:
    search(game, game.initial_state(), limits=Limits(depth=1), backend="native")  # warm
    totals = {"native": [0, 0.0], "python": [0, 0.0]}
    differ = []
    for fen, _, label in rows:
        state = game.parse_position(fen)
        results = {}
        for backend in ("native", "python"):
            started = time.perf_counter()
            result = search(game, state, limits=Limits(depth=depth), backend=backend)
            totals[backend][0] += result.stats.nodes
            totals[backend][1] += time.perf_counter() - started
            results[backend] = result
        native, python = results["native"], results["python"]
        if (native.stats.nodes, native.value, native.best_move) != (
            python.stats.nodes,
            python.value,
            python.best_move,
        ):
            differ.append(label)
    print(f"search to depth {depth}, WAC 1-{len(rows)} ({game!r}):")
    for backend, (nodes, took) in totals.items():
        print(f"  {backend:6} {nodes:>10,} nodes {took:8.2f} s {nodes / took:>10,.0f} nodes/s")
    ratio = (totals["native"][0] / totals["native"][1]) / (
        totals["python"][0] / totals["python"][1]
    )
    print(f"  ratio {ratio:.1f}x; searches that differ: {' '.join(differ) or 'none'}")


def wac_part(
    game: Chess,
    rows: list[tuple[str, list[chess.Move], str]],
    seconds: float,
    backends: tuple[str, ...],
) -> None:
    print(f"WAC 1-{len(rows)} at {seconds:g} s a position ({game!r}):")
    solved = dict.fromkeys(backends, 0)
    depths: dict[str, list[int]] = {backend: [] for backend in backends}
    nodes = dict.fromkeys(backends, 0)
    took = dict.fromkeys(backends, 0.0)
    for fen, best, _ in rows:  # the backends interleaved: the machine's load hits both
        state = game.parse_position(fen)
        for backend in backends:
            started = time.perf_counter()
            result = search(game, state, limits=Limits(time=seconds), backend=backend)
            took[backend] += time.perf_counter() - started
            nodes[backend] += result.stats.nodes
            solved[backend] += result.best_move in best
            depths[backend].append(result.depth)
    for backend in backends:
        mean = sum(depths[backend]) / len(rows)
        rate = nodes[backend] / took[backend]
        print(
            f"  {backend:6} solved {solved[backend]}/{len(rows)}, mean depth {mean:.1f}, "
            f"{rate:,.0f} nodes/s"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="perft runs, best taken")
    parser.add_argument("--depth", type=int, default=4, help="search depth (default 4)")
    parser.add_argument("--search-count", type=int, default=20, help="WAC positions searched")
    parser.add_argument("--wac-count", type=int, default=100, help="WAC positions timed")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a WAC position")
    parser.add_argument("--suite", type=Path, default=SUITE, help="EPD file with bm and id")
    parser.add_argument(
        "--backends",
        default="native,python",
        help="the backends of part 3, comma-separated (default native,python)",
    )
    parser.add_argument("--skip", default="", help="parts to skip: perft, search (comma-separated)")
    args = parser.parse_args()
    if not args.suite.is_file():
        print(f"error: no suite at {args.suite} (give --suite PATH)", file=sys.stderr)
        return 1
    game = Chess()
    skipped = set(args.skip.split(","))
    if "perft" not in skipped:
        perft_part(game, args.repeat)
        sys.stdout.flush()
    if "search" not in skipped:
        search_part(game, load(args.suite, args.search_count), args.depth)
        sys.stdout.flush()
    if args.wac_count > 0:
        backends = tuple(args.backends.split(","))
        wac_part(game, load(args.suite, args.wac_count), args.time, backends)
    return 0


if __name__ == "__main__":
    sys.exit(main())
