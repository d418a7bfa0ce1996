"""``plies analyze``: search a position of a built-in game (and helpers ``solve`` shares).

``analyze`` prints one info line per completed depth, like a chess engine, and a
final ``bestmove`` line; with ``--json`` one JSON object per completed depth. Ctrl-C
stops the search and still prints the best move of the last completed depth.

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

from plies.engine import (
    ALGORITHMS,
    CHANCE_MODES,
    DEFAULT_ALGORITHM,
    Limits,
    SearchResult,
    iterate,
)
from plies.game import BaseGame
from plies.games import GAMES, parse_game_spec

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
            "proven result N plies away. Ctrl-C stops and prints the best move of the "
            f"last completed depth. Without a limit the search runs {DEFAULT_TIME:g} s."
        ),
        epilog=f"Games: {games} (see 'plies games'). "
        "Example: plies analyze connect4 4453 --depth 8",
    )
    _add_game_arguments(analyze)
    analyze.add_argument("--depth", type=_positive_int, help="deepest iteration, in plies")
    analyze.add_argument("--time", type=_positive_float, help="seconds to search at most")
    analyze.add_argument("--nodes", type=_positive_int, help="nodes to search at most")
    analyze.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default=DEFAULT_ALGORITHM,
        help=f"search algorithm (default {DEFAULT_ALGORITHM})",
    )
    analyze.add_argument(
        "--chance",
        choices=CHANCE_MODES,
        default="star1",
        help="chance-node method for negamax, pvs and mtdf (default star1)",
    )
    analyze.add_argument(
        "--seed", type=int, help="break ties between equal moves at random with this seed"
    )
    analyze.add_argument(
        "--json", action="store_true", help="print one JSON object per completed depth"
    )
    analyze.set_defaults(handler=run_analyze)


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", metavar="GAME", help="game name, with parameters as NAME:key=value,... "
    )
    parser.add_argument(
        "position",
        metavar="POSITION",
        nargs="*",
        help="the position in the game's notation (omitted: the start); "
        "several words are joined with spaces",
    )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def load_position(args: argparse.Namespace) -> tuple[BaseGame[Any, Any], Any]:
    """The game and state named by ``args.game`` and ``args.position``."""
    game = parse_game_spec(args.game)
    return game, game.parse_position(" ".join(args.position))


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


def run_analyze(args: argparse.Namespace) -> int:
    """Handle ``plies analyze``."""
    game, state = load_position(args)
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
            chance=args.chance,
            seed=args.seed,
            stop=stop,
            progress=progress.nodes,
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
    if stop.is_set() and not args.json:
        print("stopped by Ctrl-C: best move of the last completed depth", file=sys.stderr)
    return 0
