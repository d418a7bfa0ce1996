"""``plies solve``: the exact value of positions of a game without chance.

One position: the result for the side to move (win, draw or loss) and its distance
in plies, the game's own score when it has one (Pons' score for Connect Four), every
best move and an optimal line. ``--batch`` reads many positions, one per line in
the form of Pons' test sets (``<position> [<score>]``), and writes ``<position>
<score>`` lines that ``diff`` can compare with such a set. ``--weak`` decides only
win, draw or loss.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from plies.cli._args import (
    add_game_arguments,
    load_position,
    note,
    position_text,
    seconds,
    whole_number,
)
from plies.cli._batch import add_cluster_arguments, read_batch, run_batch, tls_configured
from plies.cli._book import add_book_argument, book_summary, count_book_answers, open_book
from plies.cli._progress import Progress, stop_on_interrupt
from plies.errors import PliesError, SearchError
from plies.game import BaseGame
from plies.lab import (
    BACKENDS,
    DEFAULT_TABLE_ENTRIES,
    MIN_TABLE_ENTRIES,
    NATIVE_TABLE_ENTRIES,
    QUICK_NODES,
    SEARCH_ENTRIES,
    SolveOptions,
    SolveResult,
    book_answer,
    solve_position,
    solve_record,
)

if TYPE_CHECKING:
    from plies.cluster import LineResult
    from plies.lab import Book, SolveLines

__all__ = ["SolveLines", "register", "solve_record"]


def register(subparsers: Any) -> None:
    """Add the ``solve`` subcommand."""
    solver = subparsers.add_parser(
        "solve",
        help="exact value of positions: result, distance, score, best moves, line",
        description=(
            "Solve positions of a built-in game without chance: search every line to "
            "the end and print the result for the side to move (win, draw or loss), "
            "the distance to the end in plies under perfect play (the winner hurries, "
            "the loser holds out), the game's own score if it has one, every best move "
            "and an optimal line. Connect Four scores follow Pascal Pons' test sets: 0 "
            "for a draw; for a win by the side to move, 22 minus the stones the winner "
            "has when it completes four (18 at most on 7 x 6; board size + 2 minus the "
            "stones on the board at the end, halved, on any board); for a loss, the "
            "negation of the opponent's."
        ),
        epilog=(
            "Examples: plies solve connect4 4453;  plies solve nim 3,4,5 --json;  "
            "plies solve connect4 --batch Test_L3_R1 > scores.txt && diff scores.txt "
            "Test_L3_R1;  plies solve connect4 --batch - --weak < positions.txt"
        ),
    )
    add_game_arguments(solver)
    solver.add_argument(
        "--batch",
        metavar="FILE",
        help="solve every line of FILE ('-': standard input): '<position> [<score>]', "
        "where a last word that is a whole number is the expected score; writes "
        "'<position> <score>' lines (or JSON lines with --json), and exits 1 if a line "
        "is bad or a score differs from the expected one",
    )
    solver.add_argument(
        "--weak",
        action="store_true",
        help="decide only win, draw or loss (faster); scores are then 1, 0 or -1",
    )
    solver.add_argument(
        "--moves",
        choices=("all", "line", "best", "none"),
        help="what to find besides the value: every best move and a line (default for "
        "one position), a line, one best move (default for one position with --weak), or "
        "nothing (default with --batch)",
    )
    solver.add_argument(
        "--backend",
        choices=BACKENDS,
        help="the solver: compiled (native: Connect Four, m,n,k, Nim, Othello, "
        "checkers; needs numba) or python "
        "(every game); default native where the game has a native port, after "
        f"{QUICK_NODES:,} nodes of python on a single position (an easy one is "
        "answered before the native solver loads)",
    )
    solver.add_argument(
        "--table-size",
        type=whole_number(MIN_TABLE_ENTRIES),
        metavar="ENTRIES",
        help=f"transposition-table entries at most (python: default {DEFAULT_TABLE_ENTRIES:,}, "
        f"about 130 bytes each; native Connect Four: default {NATIVE_TABLE_ENTRIES:,} "
        f"rounded up to a prime, 5 to 9 bytes each; other native games: default "
        f"{SEARCH_ENTRIES:,}, 33 bytes each)",
    )
    solver.add_argument(
        "--time", type=seconds, help="give up on a position after this many seconds"
    )
    solver.add_argument(
        "--nodes", type=whole_number(1), help="give up on a position after this many nodes"
    )
    solver.add_argument("--json", action="store_true", help="print JSON (one object per line)")
    add_cluster_arguments(solver)
    add_book_argument(solver)
    solver.set_defaults(handler=run_solve)


def single_moves(args: argparse.Namespace) -> str:
    """What a solve of one position finds besides the value: ``--moves``, else every
    best move and a line, or with ``--weak`` one best move (a weak solve proving every
    winning move could take far longer than the value: mate in one in chess never
    ended, each king and queen move that keeps the win searched to its end)."""
    return str(args.moves or ("best" if args.weak else "all"))


def _solve_notes(args: argparse.Namespace) -> None:
    """A ``note:`` for an option given that does less than asked."""
    if args.weak and args.moves in ("line", "all"):
        note(f"--moves {args.moves} finds no line with --weak (only best moves)")


def _solve_options(args: argparse.Namespace, moves: str) -> SolveOptions:
    """The solve ``args`` ask for, finding ``moves`` besides the value."""
    return SolveOptions(
        weak=args.weak,
        moves=moves,
        backend=args.backend,
        table_size=args.table_size,
        nodes=args.nodes,
        time=args.time,
    )


def run_solve(args: argparse.Namespace) -> int:
    """Handle ``plies solve``: exit 0, 1 for an error, 130 after Ctrl-C."""
    _solve_notes(args)
    if args.batch is not None:
        if args.position:
            raise PliesError("give positions in the --batch file, not on the command line")
        return _run_batch(args)
    for option in ("out", "resume"):
        if getattr(args, option) is not None:
            raise PliesError(f"--{option} works with --batch only")
    game, state = load_position(args)
    book = open_book(args.book, game)
    options = _solve_options(args, single_moves(args))
    solved = _from_book(book, state, options)
    if solved is not None:
        _print_solved(args, game, state, solved)
        return 0
    if args.workers is not None or args.scheduler is not None:
        return _run_split(args, game, state, options)
    with stop_on_interrupt() as stop, Progress(f"solving {game.name}") as progress:
        try:
            solved = solve_position(
                game, state, options, stop=stop, progress=progress.nodes, quick=True
            )
        except SearchError:
            if stop.is_set():
                print("error: interrupted before the position was solved", file=sys.stderr)
                return 130
            raise
    book_summary(book)
    _print_solved(args, game, state, solved)
    return 0


def _from_book(book: Book | None, state: Any, options: SolveOptions) -> SolveResult | None:
    """The answer of ``--book`` for one position solved with ``options``, or None (no
    book, or not in it); says on stderr whether the book answered."""
    if book is None:
        return None
    solved = book_answer(book, state, options)
    if solved is not None:
        book_summary(book)
    return solved


def _run_split(
    args: argparse.Namespace, game: BaseGame[Any, Any], state: Any, options: SolveOptions
) -> int:
    """``plies solve GAME POSITION --workers N`` (or ``--scheduler ADDRESS``): one
    position solved with ``options`` on a Dask cluster
    (:func:`plies.cluster.solve_parallel`), the serial result."""
    from plies.cluster import check_scheduler_address, solve_parallel  # Dask's: here only

    scheduler = check_scheduler_address(args.scheduler) if args.scheduler else None
    with (
        stop_on_interrupt() as stop,
        tls_configured(args, scheduler),
        Progress(f"solving {game.name} on a cluster") as progress,
    ):
        try:
            solved = solve_parallel(
                game,
                state,
                workers=args.workers,
                scheduler=scheduler,
                limits=options.limits,
                stop=stop,
                progress=progress.nodes,
                weak=options.weak,
                moves=options.moves,
                backend=options.backend,
                table_size=options.table_size,
            )
        except SearchError:
            if stop.is_set():
                print("error: interrupted before the position was solved", file=sys.stderr)
                return 130
            raise
    _print_solved(args, game, state, solved)
    return 0


def _print_solved(
    args: argparse.Namespace, game: BaseGame[Any, Any], state: Any, solved: SolveResult
) -> None:
    """Print one solved position: its JSON object (``--json``) or its text."""
    record = solve_record(game, state, solved, position=position_text(args))
    print(json.dumps(record) if args.json else _solve_text(record))


def _solve_text(record: dict[str, Any]) -> str:
    distance = record["distance"]
    if record["weak"] or distance is None:
        result = f"result {record['result']} for the side to move"
    else:
        plies = "ply" if distance == 1 else "plies"
        result = f"result {record['result']} in {distance} {plies} for the side to move"
    lines = [result]
    if record["score"] is not None:
        lines.append(f"score {record['score']}")
    if record["best_moves"]:
        label = "best move" if len(record["best_moves"]) == 1 else "best moves"
        lines.append(f"{label} {' '.join(record['best_moves'])}")
    elif record["best_move"] is None:
        lines.append("best move (none)")
    if len(record["pv"]) > 1:
        lines.append(f"pv {' '.join(record['pv'])}")
    lines.append(f"nodes {record['nodes']} nps {record['nps']} time {record['time']:.3f}")
    return "\n".join(lines)


# -- batches --------------------------------------------------------------------------


@dataclass
class _Tally:
    """What a batch did: positions solved, bad lines, disagreements, work done."""

    solved: int = 0
    bad: int = 0
    differ: int = 0
    first_difference: str = ""
    nodes: int = 0
    seconds: float = 0.0

    def add(self, result: LineResult) -> None:
        """Count one line's result, and report a bad line on stderr."""
        if result.error is not None:
            self.bad += 1
            print(f"error: line {result.number}: {result.error}", file=sys.stderr)
            return
        self.solved += 1
        self.nodes += result.nodes
        self.seconds += result.seconds
        if result.differs is not None:
            self.differ += 1
            self.first_difference = self.first_difference or result.differs

    def summary(self, wall: float) -> str:
        """The batch's last line: the wall time it took (``wall`` seconds), then the
        search time summed over the positions solved (more than the wall time when
        lines run on several threads or workers at once) and the means per position."""
        return (
            f"solved {self.solved} positions in {wall:.2f} s "
            f"({self.seconds:.2f} s of search summed over positions), "
            f"{self.nodes / self.solved:,.0f} nodes and "
            f"{self.seconds / self.solved * 1000:.2f} ms of search per position"
        )


def _run_batch(args: argparse.Namespace) -> int:
    from plies.lab import SolveLines, check_backend, parse_game_spec  # batches only

    game = parse_game_spec(args.game)
    if game.has_chance:
        raise SearchError(f"{game.name}: solve needs a game without chance; use analyze")
    check_backend(game, args.backend, task="solve")  # an impossible --backend fails here, once
    options = _solve_options(args, args.moves or "none")
    job = SolveLines.of(args.game, options, json=args.json, book=args.book)
    items = read_batch(args.batch)
    tally = _Tally()
    book = open_book(args.book, game)  # a bad book fails here, once
    on_result = count_book_answers(book, game, items, tally.add, position_of=job.position_of)
    started = time.perf_counter()
    interrupted = run_batch(args, items, job, label="solving", on_result=on_result)
    wall = time.perf_counter() - started
    book_summary(book)
    if tally.solved:
        print(tally.summary(wall), file=sys.stderr)
    if interrupted:
        print(f"error: interrupted after {tally.solved} positions", file=sys.stderr)
        return 130
    if tally.differ:
        print(
            f"error: {tally.differ} of {tally.solved} scores differ from the expected ones "
            f"(first: {tally.first_difference})",
            file=sys.stderr,
        )
    return 1 if tally.bad or tally.differ else 0


def __getattr__(name: str) -> Any:
    """:class:`plies.lab.SolveLines`, imported when first asked for (with the books
    and the cluster it needs, which a single solve does not load)."""
    if name == "SolveLines":
        from plies.lab import SolveLines

        return SolveLines
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
