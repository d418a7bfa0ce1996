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
import sys
from typing import TYPE_CHECKING, Any

from plies.cli._args import add_game_arguments, load_position, note, seconds, whole_number
from plies.cli._batch import add_cluster_arguments, read_batch, run_batch
from plies.cli._book import add_book_argument, book_summary, count_book_answers, open_book
from plies.cli._progress import Progress, stop_on_interrupt
from plies.errors import PliesError
from plies.game import BaseGame
from plies.lab import (
    ALGORITHMS,
    BACKENDS,
    CHANCE_MODES,
    DEFAULT_ALGORITHM,
    GAMES,
    Analysis,
    SearchOptions,
    analysis_record,
    analyze,
    parse_game_spec,
)

if TYPE_CHECKING:
    from plies.cluster import LineResult
    from plies.lab import AnalyzeLines, Book

__all__ = ["AnalyzeLines", "register"]

#: The searches of games of more than two players (plies.lab's MULTI_ALGORITHMS,
#: named here so that the command line starts without importing them).
MULTI_PLAYER_SEARCHES = ("maxn", "paranoid", "brs")

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
            f"{DEFAULT_TIME:g} s. --algorithm mcts runs a Monte-Carlo tree search "
            "within --iterations, --nodes or --time (seeded by --seed) and prints one line: its "
            "score is the mean of its playouts ('playouts +0.045'; an expected "
            "utility in a game with chance), or 'win N'/'loss N'/'draw' once proven. "
            "Games of more than two players (rolit) are searched by --algorithm maxn "
            "(max^n: the score is every player's value, in player order), paranoid or brs "
            "(Best-Reply Search: the player to move's value); a value is the game's "
            "evaluation, or 'payoff U' once the game's end is reached (U: the share of "
            "the win); --json gives 'value' (a list for maxn) and the line."
        ),
        epilog=f"Games: {games} (see 'plies games'). "
        "Example: plies analyze connect4 4453 --depth 8",
    )
    add_game_arguments(analyze)
    analyze.add_argument("--depth", type=whole_number(1), help="deepest iteration, in plies")
    analyze.add_argument("--time", type=seconds, help="seconds to search at most")
    analyze.add_argument("--nodes", type=whole_number(1), help="nodes to search at most")
    analyze.add_argument(
        "--iterations",
        type=whole_number(1),
        metavar="N",
        help="mcts only: Monte-Carlo iterations (playouts) to run at most",
    )
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
        help="break ties between equal moves at random with this seed "
        "(mcts: the seed of its playouts, default 0)",
    )
    analyze.add_argument(
        "--backend",
        choices=BACKENDS,
        help="the search: compiled (native: Connect Four, m,n,k, Nim, Othello, "
        "checkers; pvs and negamax, and mcts's playouts in two-player games; needs "
        "numba) or python (everything); default native where it runs (mcts: for runs "
        "of 10,000 iterations or a second and more)",
    )
    analyze.add_argument(
        "--json", action="store_true", help="print one JSON object per completed depth"
    )
    analyze.add_argument(
        "--batch",
        metavar="FILE",
        help="score every position of FILE ('-': standard input), one a line, at the "
        "--depth, --nodes or --time given: one line '<position> <score> <best move> "
        "<depth>' (or a JSON object with --json) per position; lines are read as solve "
        "--batch reads them ('<position> [<score>]': a test set's expected score is "
        "left out)",
    )
    add_cluster_arguments(analyze)
    add_book_argument(analyze)
    analyze.set_defaults(handler=run_analyze)


def _info_line(record: dict[str, Any]) -> str:
    return (
        f"info depth {record['depth']} score {record['score_text']} nodes {record['nodes']} "
        f"nps {record['nps']} time {record['time']:.3f} pv {' '.join(record['pv'])}"
    ).rstrip()


def _analyze_notes(game: BaseGame[Any, Any], args: argparse.Namespace) -> None:
    """A ``note:`` for each option given that cannot change this search."""
    if args.chance is not None:
        if args.algorithm in MULTI_PLAYER_SEARCHES:
            note(f"--chance has no effect with --algorithm {args.algorithm}")
        elif args.algorithm == "mcts":
            note("--chance has no effect with --algorithm mcts (it samples the outcomes)")
        elif not game.has_chance:
            note(f"--chance has no effect: {game.name} has no chance nodes")
        elif args.algorithm in ("minimax", "expectiminimax", "alphabeta"):
            note(
                f"--chance has no effect with --algorithm {args.algorithm} "
                "(it averages every outcome; --chance is for negamax, pvs and mtdf)"
            )


def run_analyze(args: argparse.Namespace) -> int:
    """Handle ``plies analyze``: exit 0, or 130 after Ctrl-C (the best move of the
    last completed depth printed all the same)."""
    if args.batch is not None:
        return _run_batch(args)
    for option in ("workers", "scheduler", "out", "resume"):
        if getattr(args, option) is not None:
            raise PliesError(f"--{option} works with --batch only")
    game, state = load_position(args)
    _analyze_notes(game, args)
    book = open_book(args.book, game)
    if book is not None and _from_book(book, game, state, args):
        return 0
    if _no_limit(args):
        args.time = DEFAULT_TIME
    options = _search_options(args)
    last: Analysis | None = None
    with stop_on_interrupt() as stop, Progress(f"analysing {game.name}") as progress:
        for found in analyze(game, state, options, stop=stop, progress=progress.nodes):
            last = found
            progress.detail = f"  depth {found.result.depth + 1}"
            record = analysis_record(found)
            print(json.dumps(record) if args.json else _info_line(record), flush=True)
    if not args.json:
        if last is None or last.best_text is None:
            print("bestmove (none)" if game.terminal_value(state) is not None else "bestmove ?")
        else:
            print(f"bestmove {last.best_text}")
    book_summary(book)
    if stop.is_set():
        if not args.json:
            print("stopped by Ctrl-C: best move of the last completed depth", file=sys.stderr)
        return 130
    return 0


def _from_book(book: Book, game: BaseGame[Any, Any], state: Any, args: argparse.Namespace) -> bool:
    """Answer one position from ``--book``: an ``info book`` line and the best move;
    False where the book does not know the position's best move (then search)."""
    from plies.lab import book_record  # books load with --book only

    record = book_record(game, state, book)
    if record is None:
        return False
    book_summary(book)
    if args.json:
        print(json.dumps(record))
    else:
        print(f"info book score {record['score_text']} pv {' '.join(record['pv'])}".rstrip())
        print(f"bestmove {record['best_move'] or '(none)'}")
    return True


# -- batches --------------------------------------------------------------------------


def _no_limit(args: argparse.Namespace) -> bool:
    """Whether ``args`` give no limit at all (depth, nodes, time, iterations)."""
    return all(getattr(args, name) is None for name in ("depth", "nodes", "time", "iterations"))


def _search_options(args: argparse.Namespace) -> SearchOptions:
    """The search ``args`` ask for (the limits, algorithm, chance method, seed, backend)."""
    return SearchOptions(
        iterations=args.iterations,
        depth=args.depth,
        nodes=args.nodes,
        time=args.time,
        algorithm=args.algorithm,
        chance=args.chance or "star1",
        seed=args.seed,
        backend=args.backend,
    )


def _run_batch(args: argparse.Namespace) -> int:
    if args.position:
        raise PliesError("give positions in the --batch file, not on the command line")
    game = parse_game_spec(args.game)
    _analyze_notes(game, args)
    if _no_limit(args):
        raise PliesError(
            "--batch needs a limit per position: --depth, --nodes, --time or --iterations"
        )
    from plies.lab import AnalyzeLines  # with the cluster's line jobs: batches only

    job = AnalyzeLines.of(args.game, _search_options(args), json=args.json, book=args.book)
    items = read_batch(args.batch)
    searched = bad = 0
    book = open_book(args.book, game)  # a bad book fails here, once

    def count(result: LineResult) -> None:
        nonlocal searched, bad
        if result.error is None:
            searched += 1
        else:
            bad += 1
            print(f"error: line {result.number}: {result.error}", file=sys.stderr)

    on_result = count_book_answers(
        book, game, items, count, needs_moves=True, position_of=job.position_of
    )
    interrupted = run_batch(args, items, job, label="analysing", on_result=on_result)
    book_summary(book)
    if interrupted:
        print(f"error: interrupted after {searched} positions", file=sys.stderr)
        return 130
    return 1 if bad else 0


def __getattr__(name: str) -> Any:
    """:class:`plies.lab.AnalyzeLines`, imported when first asked for (with the books
    and the cluster it needs, which a single search does not load)."""
    if name == "AnalyzeLines":
        from plies.lab import AnalyzeLines

        return AnalyzeLines
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
