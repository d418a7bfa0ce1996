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
import threading
import time
from dataclasses import dataclass
from typing import Any

from plies.book import Book
from plies.cli._analyze import _game_of, _Progress, stop_on_interrupt
from plies.cli._args import (
    add_game_arguments,
    load_position,
    note,
    position_text,
    seconds,
    whole_number,
)
from plies.cli._batch import (
    add_cluster_arguments,
    keeps_score,
    read_batch,
    run_batch,
    split_expected,
    tls_configured,
)
from plies.cli._book import add_book_argument, book_summary, count_book_answers, open_book
from plies.cluster import LineResult, check_scheduler_address, solve_parallel
from plies.engine import (
    BACKENDS,
    Limits,
    NativeTable,
    SolveResult,
    TranspositionTable,
    choose_backend,
    solve,
    table_for,
    warm_up,
)
from plies.engine.native import DEFAULT_ENTRIES as NATIVE_TABLE_ENTRIES
from plies.engine.native import SEARCH_ENTRIES, has_port
from plies.errors import PliesError, SearchError
from plies.game import BaseGame
from plies.lab import format_line, format_score, parse_game_spec

__all__ = ["SolveLines", "register", "solve_record"]

#: Default transposition-table size, in entries (about 130 bytes each on CPython);
#: the native backend's is Pons' (a prime near 2**23, 5 bytes each: 40 MB).
DEFAULT_TABLE_ENTRIES = 1 << 20
#: Nodes the Python solver is given on a single position before the native one loads
#: (about 10 ms; see _quick).
QUICK_NODES = 2_000

#: The smallest table :class:`~plies.engine.TranspositionTable` accepts.
MIN_TABLE_ENTRIES = 16


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


def score_token(game: BaseGame[Any, Any], state: Any, solved: SolveResult) -> str:
    """The one-word score of a solved position, as ``--batch`` writes it.

    The game's own score (Connect Four: Pons'), else ``win:N``, ``draw`` or ``loss:N``
    (N plies to the end); for a weak solve 1, 0 or -1 (or win, draw, loss).
    """
    score = _exact_score(game, state, solved)
    if score is not None:
        return str(score)
    return format_score(solved.score, "token")


def _exact_score(game: BaseGame[Any, Any], state: Any, solved: SolveResult) -> int | None:
    """The game's score of a solved position (its sign for a weak solve), or None
    when the game keeps no score of its own. A draw's distance does not matter."""
    score = game.exact_score(state, solved.result, solved.distance or 0)
    if score is None or not solved.weak:
        return score
    return {"win": 1, "draw": 0, "loss": -1}[solved.result]


def solve_record(
    game: BaseGame[Any, Any], state: Any, solved: SolveResult, *, position: str = ""
) -> dict[str, Any]:
    """The JSON object of a solved position; ``position`` is the POSITION as typed
    (echoed as given: a game may rebuild another move order), else the game writes it."""
    stats = solved.stats
    return {
        "game": game.name,
        "position": position or game.format_position(state),
        "result": solved.result,
        "distance": solved.distance,
        "score": _exact_score(game, state, solved),
        "weak": solved.weak,
        "utility": solved.utility,
        "best_move": (
            game.format_move(state, solved.best_move) if solved.best_move is not None else None
        ),
        "best_moves": [game.format_move(state, move) for move in solved.best_moves],
        "pv": format_line(game, state, solved.pv),
        "backend": solved.backend,
        "nodes": stats.nodes,
        "nps": round(stats.nps),
        "time": round(stats.time, 6),
    }


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


def make_table(
    game: BaseGame[Any, Any], args: argparse.Namespace
) -> TranspositionTable | NativeTable:
    """The table of the backend ``--backend`` picks for ``game`` (an explicit
    ``native`` for a game without a native port is a :class:`SearchError`)."""
    return table_for(game, args.backend, args.table_size)


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
    solved = _from_book(book, state, args)
    if solved is not None:
        record = solve_record(game, state, solved, position=position_text(args))
        print(json.dumps(record) if args.json else _solve_text(record))
        return 0
    if args.workers is not None or args.scheduler is not None:
        return _run_split(args, game, state)
    limits = Limits(nodes=args.nodes, time=args.time)
    with stop_on_interrupt() as stop, _Progress(f"solving {game.name}") as progress:
        try:
            solved = _quick(game, state, args, stop) or solve(
                game,
                state,
                limits=limits,
                stop=stop,
                progress=progress.nodes,
                weak=args.weak,
                moves=single_moves(args),
                table=make_table(game, args),
            )
        except SearchError:
            if stop.is_set():
                print("error: interrupted before the position was solved", file=sys.stderr)
                return 130
            raise
    book_summary(book)
    record = solve_record(game, state, solved, position=position_text(args))
    print(json.dumps(record) if args.json else _solve_text(record))
    return 0


def _quick(
    game: BaseGame[Any, Any], state: Any, args: argparse.Namespace, stop: threading.Event
) -> SolveResult | None:
    """The Python solver's answer within :data:`QUICK_NODES` nodes, or None: where no
    ``--backend``, ``--nodes`` or ``--table-size`` is given and Numba is not loaded yet
    (loading it and a kernel takes half a second), an easy position is answered first."""
    if args.backend or args.nodes or args.table_size or "numba" in sys.modules:
        return None
    if not has_port(game):  # Python solves it anyway: no head start to give
        return None
    try:
        return solve(
            game,
            state,
            limits=Limits(nodes=QUICK_NODES, time=args.time),
            stop=stop,
            weak=args.weak,
            moves=single_moves(args),
            backend="python",
        )
    except SearchError:  # too hard for a quick answer (or stopped: the caller sees it)
        return None


def _from_book(book: Book | None, state: Any, args: argparse.Namespace) -> SolveResult | None:
    """The answer of ``--book`` for one position, or None (no book, or not in it);
    says on stderr whether the book answered."""
    if book is None:
        return None
    solved = book.answer(state, moves=single_moves(args), weak=args.weak)
    if solved is not None:
        book_summary(book)
    return solved


def _run_split(args: argparse.Namespace, game: BaseGame[Any, Any], state: Any) -> int:
    """``plies solve GAME POSITION --workers N`` (or ``--scheduler ADDRESS``): one
    position on a Dask cluster (:func:`plies.cluster.solve_parallel`), the serial result."""
    scheduler = check_scheduler_address(args.scheduler) if args.scheduler else None
    limits = Limits(nodes=args.nodes, time=args.time)
    with (
        stop_on_interrupt() as stop,
        tls_configured(args, scheduler),
        _Progress(f"solving {game.name} on a cluster") as progress,
    ):
        try:
            solved = solve_parallel(
                game,
                state,
                workers=args.workers,
                scheduler=scheduler,
                limits=limits,
                stop=stop,
                progress=progress.nodes,
                weak=args.weak,
                moves=single_moves(args),
                backend=args.backend,
                table_size=args.table_size,
            )
        except SearchError:
            if stop.is_set():
                print("error: interrupted before the position was solved", file=sys.stderr)
                return 130
            raise
    record = solve_record(game, state, solved, position=position_text(args))
    print(json.dumps(record) if args.json else _solve_text(record))
    return 0


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


@dataclass(frozen=True)
class SolveLines:
    """The work on one line of ``solve --batch``: a pure function of the line (with
    these options), run the same way here and on a Dask worker (:mod:`plies.cluster`).

    A line is ``<position> [<score>]``; its output is ``<position> <score>`` or a JSON
    object (``--json``), a bad line's a JSON ``{"line": N, "error": ...}`` or nothing.
    """

    game_spec: str
    weak: bool = False
    moves: str = "none"
    backend: str | None = None
    table_size: int | None = None
    nodes: int | None = None
    time: float | None = None
    json: bool = False
    #: An opening book (``--book``) answering the positions it holds.
    book: str | None = None

    def warm(self) -> None:
        """Build the game and the table and load the solver, once per process
        (:func:`plies.engine.warm_up`)."""
        game, table = _solver(self)
        warm_up(game, table, weak=self.weak)

    def threads(self) -> bool:
        """Yes on the native backend: its kernel releases the GIL (a table per thread)."""
        return isinstance(_solver(self)[1], NativeTable)

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """Solve one line (Ctrl-C, ``stop``, abandons it)."""
        game, table = _solver(self)
        position, expected = self.split(text)
        # A stop that never comes where none is given (a Dask worker): the native
        # solver counts nodes a little differently unwatched, and JSON shows them.
        stop = stop if stop is not None else threading.Event()
        try:
            state = game.parse_position(position)
            solved = (
                _batch_book(self, game).answer(  # type: ignore[union-attr]
                    state, moves=self.moves, weak=self.weak
                )
                if self.book is not None
                else None
            )
            if solved is None:
                table.clear()  # every position from scratch, as Pons' benchmark does
                solved = solve(
                    game,
                    state,
                    table=table,
                    limits=Limits(nodes=self.nodes, time=self.time),
                    stop=stop,
                    weak=self.weak,
                    moves=self.moves,
                )
        except PliesError as exc:
            if stop.is_set():
                return LineResult(number, abandoned=True)
            error = json.dumps({"line": number, "error": str(exc)}) if self.json else None
            return LineResult(number, output=error, error=str(exc))
        token = score_token(game, state, solved)
        differs = None
        if expected is not None and not _agrees(expected, token, weak=self.weak):
            differs = f"line {number}: expected {expected}, got {token}"
        if self.json:
            record = solve_record(game, state, solved, position=position)
            record["line"] = number
            record["input"] = position
            record["expected"] = expected
            output = json.dumps(record)
        else:
            output = f"{position} {token}"
        stats = solved.stats
        return LineResult(
            number, output=output, differs=differs, nodes=stats.nodes, seconds=stats.time
        )

    def split(self, text: str) -> tuple[str, int | None]:
        """A line's ``(position, expected score or None)``
        (:func:`~plies.cli._batch.split_expected`)."""
        return split_expected(text, scored=keeps_score(_game_of(self.game_spec)))

    def position_of(self, text: str) -> str:
        """The POSITION of a line (without its expected score)."""
        return self.split(text)[0]

    def item_key(self, number: int, text: str) -> str:
        """The line number (JSON output) or the position (text output)."""
        return str(number) if self.json else self.position_of(text)

    def output_key(self, output: str) -> str:
        """The ``line`` of a JSON output line, or the position of a text one."""
        if self.json:
            return _json_line_number(output)
        return output.rsplit(" ", 1)[0]


_SOLVERS = threading.local()


def _solver(lines: SolveLines) -> tuple[BaseGame[Any, Any], TranspositionTable | NativeTable]:
    """The game and the table of a batch, made once per process and thread (a table
    serves one solve at a time: a Dask worker may still run a cancelled line beside)."""
    made: dict[SolveLines, Any] = _SOLVERS.__dict__.setdefault("made", {})
    if lines not in made:
        game = parse_game_spec(lines.game_spec)
        made.clear()  # one batch at a time: the tables of earlier ones are let go
        made[lines] = game, table_for(game, lines.backend, lines.table_size)
    return made[lines]  # type: ignore[no-any-return]


_BOOKS = threading.local()


def _batch_book(lines: SolveLines, game: BaseGame[Any, Any]) -> Book | None:
    """The ``--book`` of a batch, opened once per process and thread."""
    opened: dict[str, Book] = _BOOKS.__dict__.setdefault("opened", {})
    if lines.book is None:
        return None
    if lines.book not in opened:
        opened[lines.book] = Book.open(lines.book, game)
    return opened[lines.book]


def _json_line_number(output: str) -> str:
    """The ``line`` field of a JSON output line, as text ('' if there is none)."""
    try:
        return str(json.loads(output).get("line", ""))
    except (ValueError, AttributeError):
        return ""


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
    game = parse_game_spec(args.game)
    if game.has_chance:
        raise SearchError(f"{game.name}: solve needs a game without chance; use analyze")
    choose_backend(game, args.backend)  # an impossible --backend fails here, once
    job = SolveLines(
        game_spec=args.game,
        weak=args.weak,
        moves=args.moves or "none",
        backend=args.backend,
        table_size=args.table_size,
        nodes=args.nodes,
        time=args.time,
        json=args.json,
        book=args.book,
    )
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


def _agrees(expected: int, token: str, *, weak: bool) -> bool:
    """Whether a computed score token matches an expected integer score."""
    try:
        score = int(token)
    except ValueError:
        return False
    if weak:
        return (expected > 0) - (expected < 0) == score
    return expected == score
