"""Benchmark: Win At Chess through ``plies uci``, optionally beside Sunfish, same run.

Reads ``../shared/chess-testsuites/wac-300.epd`` (EPD: position, ``bm`` best moves,
``id``), starts ``plies uci`` as a subprocess and drives it with python-chess's UCI
client (``chess.engine.SimpleEngine``), exactly as a chess GUI would: one ``go
movetime`` per position (``--time`` seconds, default 1), a new game (``ucinewgame``)
per position. A position is solved when the engine's move is one of the ``bm`` moves.
Prints per engine the solved count, the mean depth reached, the mean nodes per second
and the longest answer time (a check that the engine keeps to its time).

``--sunfish CMD`` runs a second UCI engine on the same positions in the same run (on
this machine: ``sunfish-uci`` from PyPI ``sunfish``, which pins python-chess 1.9.4 and
so lives in a venv of its own, e.g. ``--sunfish /tmp/sunfish-venv/bin/sunfish-uci``),
and prints the ratio of the solved counts.

``--nodes N`` searches N nodes per move (``go nodes N``) instead of a time: the
solved count then does not depend on the machine's load, which makes it the measure
to tune the evaluation and the search hooks by (a change that costs speed must then
gain more than the speed it costs: check the nodes per second separately, before and
after, back to back).

Run: ``python benchmarks/chess_wac.py`` (``--count N`` positions, default 100;
``--first K`` to start at the K-th, 1-based; ``--time S``; ``--nodes N``; ``--suite
PATH``; ``--sunfish CMD``; ``--verbose`` prints each position).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

import chess
import chess.engine

SUITE = next(
    (
        parent / "shared" / "chess-testsuites" / "wac-300.epd"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "chess-testsuites").is_dir()
    ),
    Path("shared") / "chess-testsuites" / "wac-300.epd",
)
PLIES = [sys.executable, "-m", "plies", "uci"]


class Tally(NamedTuple):
    """What one engine did on the suite."""

    name: str
    solved: int
    count: int
    mean_depth: float
    mean_nps: float
    longest: float
    failed: list[str]


def load(path: Path, first: int, count: int) -> list[tuple[chess.Board, list[chess.Move], str]]:
    """The positions ``first``..``first + count - 1`` (1-based) of an EPD suite."""
    rows = []
    for line in path.read_text().splitlines()[first - 1 : first - 1 + count]:
        board = chess.Board()
        ops = board.set_epd(line)
        rows.append((board, list(ops["bm"]), str(ops.get("id", "?"))))  # type: ignore[arg-type]
    return rows


def run(
    command: list[str],
    positions: list[tuple[chess.Board, list[chess.Move], str]],
    limit: chess.engine.Limit,
    *,
    verbose: bool,
) -> Tally:
    """Play ``positions`` with ``command`` at ``limit`` per move; count the solved."""
    engine = chess.engine.SimpleEngine.popen_uci(command)
    name = str(engine.id.get("name", command[0]))
    solved = 0
    depths: list[int] = []
    speeds: list[float] = []
    longest = 0.0
    failed = []
    try:
        for index, (board, best, label) in enumerate(positions):
            started = time.perf_counter()
            result = engine.play(board, limit, game=index, info=chess.engine.INFO_ALL)
            took = time.perf_counter() - started
            longest = max(longest, took)
            ok = result.move in best
            solved += ok
            if not ok:
                failed.append(label)
            depths.append(int(result.info.get("depth", 0)))
            if "nps" in result.info:
                speeds.append(float(result.info["nps"]))
            if verbose:
                move = board.san(result.move) if result.move else "none"
                wanted = " ".join(board.san(m) for m in best)
                print(
                    f"  {name:12} {label:9} {'ok ' if ok else 'no '} {move:8} (bm {wanted}) "
                    f"depth {depths[-1]} {took:.2f} s",
                    flush=True,
                )
    finally:
        engine.quit()
    return Tally(
        name=name,
        solved=solved,
        count=len(positions),
        mean_depth=statistics.fmean(depths) if depths else 0.0,
        mean_nps=statistics.fmean(speeds) if speeds else 0.0,
        longest=longest,
        failed=failed,
    )


def report(tally: Tally) -> None:
    """One line for one engine."""
    print(
        f"{tally.name:16} solved {tally.solved}/{tally.count}  mean depth {tally.mean_depth:.1f}  "
        f"mean nps {tally.mean_nps:,.0f}  longest move {tally.longest:.2f} s"
    )


def main() -> int:
    """Parse the options, run the engines, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="positions (default 100)")
    parser.add_argument("--first", type=int, default=1, help="first position, 1-based")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move (default 1)")
    parser.add_argument("--nodes", type=int, help="nodes per move instead of a time")
    parser.add_argument("--suite", type=Path, default=SUITE, help="EPD file with bm and id")
    parser.add_argument("--sunfish", help="command of a second UCI engine, e.g. sunfish-uci")
    parser.add_argument("--verbose", action="store_true", help="print every position")
    args = parser.parse_args()
    if not args.suite.is_file():
        print(f"error: no suite at {args.suite} (give --suite PATH)", file=sys.stderr)
        return 1
    if args.nodes is not None and args.nodes < 1:
        print(f"error: --nodes must be at least 1, got {args.nodes}", file=sys.stderr)
        return 1
    positions = load(args.suite, args.first, args.count)
    if args.nodes is not None:
        limit, budget = chess.engine.Limit(nodes=args.nodes), f"{args.nodes:,} nodes"
    else:
        limit, budget = chess.engine.Limit(time=args.time), f"{args.time:g} s"
    print(
        f"{args.suite.name}: positions {args.first}-{args.first + len(positions) - 1}, "
        f"{budget} per move, through UCI (python-chess {chess.__version__} client)"
    )
    tallies = [run(PLIES, positions, limit, verbose=args.verbose)]
    if args.sunfish:
        tallies.append(run(args.sunfish.split(), positions, limit, verbose=args.verbose))
    for tally in tallies:
        report(tally)
    if len(tallies) == 2 and tallies[1].solved:
        print(f"ratio plies / {tallies[1].name}: {tallies[0].solved / tallies[1].solved:.2f}")
    print(f"plies missed: {' '.join(tallies[0].failed) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
