"""``plies bench``: a fixed set of searches whose total node count is a fingerprint.

Every search here is deterministic, so the node counts only change when the engine
or a game's rules, move order or evaluation change: a changed total after a
refactoring that should not change behaviour is a regression to look at. Speed
(nodes per second) is printed alongside; it varies with the machine, the count
does not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from plies.lab import (
    BACKENDS,
    SearchOptions,
    SolveOptions,
    analyze_once,
    check_backend,
    parse_game_spec,
    solve_position,
)

__all__ = ["BENCH", "BenchCase", "register", "run_bench"]


@dataclass(frozen=True)
class BenchCase:
    """One search of the bench: a game, a position, and how deep (None: solve)."""

    label: str
    game: str
    position: str
    depth: int | None
    algorithm: str = "pvs"


#: The fixed searches. Changing this list changes the fingerprint: say so in the
#: commit message.
BENCH: tuple[BenchCase, ...] = (
    BenchCase("tic-tac-toe solve", "tictactoe", "", None),
    BenchCase("tic-tac-toe alphabeta depth 9", "tictactoe", "", 9, "alphabeta"),
    BenchCase("nim 3,4,5 solve", "nim", "3,4,5", None),
    BenchCase("m,n,k 4,4,3 depth 7", "mnk:m=4,n=4,k=3", "", 7),
    BenchCase("connect4 start depth 10", "connect4", "", 10),
    BenchCase("connect4 4453 depth 8 mtdf", "connect4", "4453", 8, "mtdf"),
    BenchCase("connect4 22-stone solve", "connect4", "2252576253462244111563", None),
    BenchCase("othello start depth 5", "othello", "", 5),
    BenchCase("pig start depth 5", "pig", "", 5),
)


def register(subparsers: Any) -> None:
    """Add the ``bench`` subcommand."""
    parser = subparsers.add_parser(
        "bench",
        help="run a fixed set of searches; the total node count is a regression fingerprint",
        description=(
            "Run a fixed set of deterministic searches over the built-in games and print "
            "each one's nodes, time and nodes per second, then the total. The total node "
            "count changes only when the engine or a game's behaviour changes."
        ),
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        help="run every search and solve on this backend where it can (native: "
        "Connect Four, m,n,k, Nim, Othello, checkers; the rest in python); default: "
        "solves in python, "
        "searches native where they run (the same nodes), so the fingerprint is the "
        "python engine's",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_bench)


def run_case(case: BenchCase, backend: str | None = None) -> dict[str, Any]:
    """Run one bench search on ``backend`` (see ``--backend``) and return its label,
    nodes, time and the backend that ran it."""
    game = parse_game_spec(case.game)
    state = game.parse_position(case.position)
    started = time.perf_counter()
    if case.depth is None:
        # By default the Python engine: the fingerprint is its behaviour (the native
        # solvers search otherwise and have their own tests and benchmarks).
        used = "python" if backend is None else check_backend(game, task="solve", state=state)
        if backend == "python":
            used = "python"
        nodes = solve_position(game, state, SolveOptions(backend=used)).stats.nodes
    else:
        used = (
            "python"
            if backend == "python"
            else check_backend(game, state=state, algorithm=case.algorithm)
        )
        options = SearchOptions(depth=case.depth, algorithm=case.algorithm, backend=used)
        nodes = analyze_once(game, state, options).result.stats.nodes
    seconds = time.perf_counter() - started
    return {"label": case.label, "nodes": nodes, "time": round(seconds, 4), "backend": used}


def run_bench(args: argparse.Namespace) -> int:
    """Handle ``plies bench``: rows are printed as the searches finish; Ctrl-C stops
    with the finished rows kept and exit status 130."""
    width = max(len(case.label) for case in BENCH)
    rows: list[dict[str, Any]] = []
    try:
        for case in BENCH:
            rows.append(run_case(case, args.backend))
            if not args.json:
                print(_row_text(rows[-1], width), flush=True)
    except KeyboardInterrupt:
        print(f"error: interrupted after {len(rows)} of {len(BENCH)} searches", file=sys.stderr)
        return 130
    total_nodes = sum(row["nodes"] for row in rows)
    total_time = sum(row["time"] for row in rows)
    nps = round(total_nodes / total_time) if total_time > 0 else 0
    if args.json:
        print(json.dumps({"searches": rows, "nodes": total_nodes, "time": total_time, "nps": nps}))
        return 0
    print(f"{'total':<{width}}  {total_nodes:>9} nodes  {total_time:>7.3f} s  {nps:>9,} n/s")
    print(f"fingerprint {total_nodes}")
    return 0


def _row_text(row: dict[str, Any], width: int) -> str:
    """One search of the bench: label, nodes, seconds, nodes per second."""
    row_nps = row["nodes"] / row["time"] if row["time"] > 0 else 0
    return (
        f"{row['label']:<{width}}  {row['nodes']:>9} nodes  {row['time']:>7.3f} s  "
        f"{row_nps:>9,.0f} n/s"
    )
