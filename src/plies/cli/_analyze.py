"""``plies analyze``: search a position of a built-in game (and helpers ``solve`` shares).

``analyze`` prints one info line per completed depth, like a chess engine, and a
final ``bestmove`` line; with ``--json`` one JSON object per completed depth. Ctrl-C
stops the search, still prints the best move of the last completed depth, and exits
with status 130.

A live progress line (depth, nodes, speed) goes to stderr while a search runs when
stdout is a terminal; scripts that read stdout never see it.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from plies.cli._args import add_game_arguments, load_position, note, seconds, whole_number
from plies.engine import (
    ALGORITHMS,
    BACKENDS,
    CHANCE_MODES,
    DEFAULT_ALGORITHM,
    Limits,
    SearchResult,
    iterate,
)
from plies.game import BaseGame
from plies.games import GAMES

__all__ = ["register"]

#: Seconds ``analyze`` searches when no limit is given.
DEFAULT_TIME = 10.0


def register(subparsers: Any) -> None:
    """Add the ``analyze`` subcommand."""
    games = ", ".join(entry.name for entry in GAMES)
    analyze = subparsers.add_parser(
        "analyze",
        help="search a position by iterative deepening, one info line per depth",
        description=(
            "Search a position of a built-in game by iterative deepening and print one "
            "line per completed depth (depth, score, nodes, nodes per second, time, "
            "principal variation), then 'bestmove MOVE'. Scores are from the side to "
            "move's view: a number (the game's evaluation) or 'win N'/'loss N' for a "
            "proven result N plies away. Ctrl-C stops, prints the best move of the "
            "last completed depth and exits 130. Without a limit the search runs "
            f"{DEFAULT_TIME:g} s."
        ),
        epilog=f"Games: {games} (see 'plies games'). "
        "Example: plies analyze connect4 4453 --depth 8",
    )
    add_game_arguments(analyze)
    analyze.add_argument("--depth", type=whole_number(1), help="deepest iteration, in plies")
    analyze.add_argument("--time", type=seconds, help="seconds to search at most")
    analyze.add_argument("--nodes", type=whole_number(1), help="nodes to search at most")
    analyze.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default=DEFAULT_ALGORITHM,
        help=f"search algorithm (default {DEFAULT_ALGORITHM})",
    )
    analyze.add_argument(
        "--chance",
        choices=CHANCE_MODES,
        help="chance-node method for negamax, pvs and mtdf (default star1)",
    )
    analyze.add_argument(
        "--seed",
        type=whole_number(0),
        help="break ties between equal moves at random with this seed",
    )
    analyze.add_argument(
        "--backend",
        choices=BACKENDS,
        help="the search: compiled (native: m,n,k and Nim, pvs and negamax; needs "
        "numba) or python (everything); default native where it runs",
    )
    analyze.add_argument(
        "--json", action="store_true", help="print one JSON object per completed depth"
    )
    analyze.set_defaults(handler=run_analyze)


def format_line(game: BaseGame[Any, Any], state: Any, moves: Sequence[Any]) -> list[str]:
    """Moves played one after the other from ``state``, as text."""
    texts = []
    for move in moves:
        texts.append(game.format_move(state, move))
        state = game.play(state, move)
    return texts


def _score_text(result: SearchResult) -> str:
    outcome = result.outcome
    if outcome is not None:
        return f"{outcome} {result.distance}"
    return result.score_text


def result_record(game: BaseGame[Any, Any], state: Any, result: SearchResult) -> dict[str, Any]:
    """The JSON object of one completed depth."""
    stats = result.stats
    pv = format_line(game, state, result.pv)
    return {
        "depth": result.depth,
        "score": result.value + 0.0,  # + 0.0 turns -0.0 into 0.0
        "score_text": _score_text(result),
        "result": result.outcome,
        "distance": result.distance,
        "best_move": pv[0] if pv else None,
        "pv": pv,
        "nodes": stats.nodes,
        "nps": round(stats.nps),
        "time": round(stats.time, 6),
        "exact": result.exact,
        "algorithm": result.algorithm,
        "stats": stats.as_dict(),
    }


def _info_line(record: dict[str, Any]) -> str:
    return (
        f"info depth {record['depth']} score {record['score_text']} nodes {record['nodes']} "
        f"nps {record['nps']} time {record['time']:.3f} pv {' '.join(record['pv'])}"
    ).rstrip()


@contextmanager
def stop_on_interrupt() -> Iterator[threading.Event]:
    """An Event set by Ctrl-C (SIGINT) while the block runs (main thread only)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


class _Progress:
    """A live status line on stderr (rich), shown only when stdout is a terminal."""

    def __init__(self, label: str) -> None:
        self.enabled = sys.stdout.isatty() and sys.stderr.isatty()
        self.label = label
        self.detail = ""
        self.started = time.perf_counter()
        self._last = 0.0
        self._status: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console

            self._status = Console(stderr=True).status(self.label)
            self._status.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.__exit__(None, None, None)

    def nodes(self, count: int) -> None:
        """Progress hook for the engine: refresh at most ten times a second."""
        if self._status is None:
            return
        now = time.perf_counter()
        if now - self._last < 0.1:
            return
        self._last = now
        elapsed = now - self.started
        self._status.update(
            f"{self.label}{self.detail}  nodes {count:,}  {count / elapsed:,.0f} n/s  "
            f"{elapsed:.1f} s  (Ctrl-C stops)"
        )


def _analyze_notes(game: BaseGame[Any, Any], args: argparse.Namespace) -> None:
    """A ``note:`` for each option given that cannot change this search."""
    if args.chance is not None:
        if not game.has_chance:
            note(f"--chance has no effect: {game.name} has no chance nodes")
        elif args.algorithm in ("minimax", "expectiminimax", "alphabeta"):
            note(
                f"--chance has no effect with --algorithm {args.algorithm} "
                "(it averages every outcome; --chance is for negamax, pvs and mtdf)"
            )


def run_analyze(args: argparse.Namespace) -> int:
    """Handle ``plies analyze``: exit 0, or 130 after Ctrl-C (the best move of the
    last completed depth printed all the same)."""
    game, state = load_position(args)
    _analyze_notes(game, args)
    if args.depth is None and args.time is None and args.nodes is None:
        args.time = DEFAULT_TIME
    limits = Limits(depth=args.depth, nodes=args.nodes, time=args.time)
    last: SearchResult | None = None
    with stop_on_interrupt() as stop, _Progress(f"analysing {game.name}") as progress:
        results = iterate(
            game,
            state,
            limits=limits,
            algorithm=args.algorithm,
            chance=args.chance or "star1",
            seed=args.seed,
            stop=stop,
            progress=progress.nodes,
            backend=args.backend,
        )
        for result in results:
            last = result
            progress.detail = f"  depth {result.depth + 1}"
            record = result_record(game, state, result)
            print(json.dumps(record) if args.json else _info_line(record), flush=True)
    if not args.json:
        if last is None or not last.pv:
            print("bestmove (none)" if game.terminal_value(state) is not None else "bestmove ?")
        else:
            print(f"bestmove {game.format_move(state, last.pv[0])}")
    if stop.is_set():
        if not args.json:
            print("stopped by Ctrl-C: best move of the last completed depth", file=sys.stderr)
        return 130
    return 0
