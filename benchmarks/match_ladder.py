"""Benchmark: plies' chess engine against Stockfish at fixed ``UCI_Elo`` levels (a ladder).

At each level of ``--levels`` (default 1350, 1500, 1700, 2000: Debian's Stockfish 15.1
plays ``UCI_LimitStrength`` from 1350 up), a match of ``--games`` games (default 20, in
pairs with the colours swapped) between ``--player`` (default ``pvs``) and Stockfish,
both at the same fixed time per move ``--time`` (default 0.1 s), or both on the same
clock ``--tc BASE+INC`` (``60+0.6``: Stockfish's levels are calibrated there), from the
openings below, each played with both colours. Games run through
``plies.lab.run_match`` (``plies match``), so forfeits count and ``--workers N`` plays
them on a local Dask cluster.

Prints per level: the score, wins/draws/losses, the pentanomial of the pairs, the Elo
difference with its 95% interval (fastchess's formulas, over pairs) and the rating it
implies for plies, the level plus the difference (Stockfish's ``UCI_Elo`` is calibrated
to CCRL 40/4 ratings at 60+0.6: the anchor is approximate at another time control),
the forfeits (time losses among them) and each side's seconds a move.
A +-60 Elo interval near an even score takes about 60 pairs (400 games at 0.1 s a move
gave +-32); the default 20 games is a quick look.

Run: ``python benchmarks/match_ladder.py --levels 1350,1500 --games 20 --time 0.1``, or
``--levels 2000 --games 100 --tc 60+0.6 --workers 2`` (about three hours on two cores)
(needs python-chess and Stockfish: ``apt-get install stockfish``, in /usr/games).
``--pgn FILE`` keeps the games; each game's result and pace are printed to stderr as it
ends. Ctrl-C (or ``timeout -s INT``) stops the rung: its line counts the games finished,
and the ladder stops there. ``--report FILE...`` plays nothing: it prints each level's
line from the games kept by earlier runs, pooled (the pairs complete within a run; the
pace columns are empty, as a PGN does not keep it).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from plies.cli._progress import stop_on_interrupt
from plies.errors import PliesError
from plies.lab import (
    GameRecord,
    MatchOptions,
    Pentanomial,
    TimeControl,
    parse_time_control,
    run_match,
)

if TYPE_CHECKING:
    import chess.pgn

#: Short, common opening lines (SAN from the start), each played with both colours.
OPENINGS = (
    "e4 e5 Nf3 Nc6 Bb5",
    "d4 d5 c4 e6 Nc3",
    "e4 c5 Nf3 d6 d4",
    "e4 e6 d4 d5 Nc3",
    "d4 Nf6 c4 g6 Nc3",
    "c4 e5 Nc3 Nf6 g3",
    "e4 c6 d4 d5 e5",
    "Nf3 d5 g3 Nf6 Bg2",
    "e4 e5 Nf3 Nf6 Nxe5",
    "d4 Nf6 c4 e6 Nf3",
    "e4 d5 exd5 Qxd5 Nc3",
    "d4 d5 Nf3 Nf6 Bf4",
)


def stockfish_path(given: str | None) -> str:
    """Stockfish's command: ``given``, else found on PATH or in /usr/games."""
    found = given or shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if found is None:
        sys.exit("Stockfish not found: apt-get install stockfish, or give --stockfish PATH")
    return found


def check_levels(stockfish: str, levels: list[int]) -> None:
    """A one-line error for a level outside the ``UCI_Elo`` range Stockfish reports
    (before any game, where each would be a forfeit)."""
    import chess.engine

    try:
        with chess.engine.SimpleEngine.popen_uci(stockfish) as engine:
            option = engine.options.get("UCI_Elo")
    except (OSError, chess.engine.EngineError) as exc:
        sys.exit(f"error: cannot start Stockfish ({stockfish}): {exc}")
    if option is None or option.min is None or option.max is None:
        sys.exit(f"error: {stockfish} has no UCI_Elo option")
    for level in levels:
        if not option.min <= level <= option.max:
            span = f"{option.min} to {option.max}"
            sys.exit(f"error: --levels {level}: Stockfish's UCI_Elo is {span}")


def time_control(text: str) -> TimeControl:
    """``--tc``'s clock; argparse's one-line error for a bad one."""
    try:
        return parse_time_control(text)
    except PliesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def levels_of(text: str) -> list[int]:
    """``--levels``' comma-separated ``UCI_Elo`` levels; argparse's one-line error for a
    bad one."""
    try:
        return [int(level) for level in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not levels (such as 1350,1500): {text!r}") from None


def signed(value: float) -> str:
    """An Elo figure with its sign, infinite ones as +inf / -inf."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def rung(args: argparse.Namespace, stockfish: str, level: int) -> bool:
    """Play the match at ``level`` and print its line; False if it was stopped (Ctrl-C)."""
    opponent = f"uci:{stockfish}:UCI_LimitStrength=true,UCI_Elo={level}"
    player = args.player
    control = args.tc
    if control is None:
        opponent += f",time={args.time}"
        joint = "," if ":" in args.player else ":"  # pvs:backend=native takes ,time=
        player = f"{args.player}{joint}time={args.time}"
    options = MatchOptions(
        "chess",
        (player, opponent),
        args.games,
        openings=OPENINGS,
        seed=args.seed,
        max_plies=args.max_plies,
        time_control=control,
    )
    started = time.perf_counter()
    pgn = open(args.pgn, "a", encoding="utf-8") if args.pgn else None  # noqa: SIM115

    def on_game(game: GameRecord) -> None:
        """Keep the game, and say how it went (a long rung shows its progress)."""
        if pgn is not None:
            pgn.write(game.record + "\n")
            pgn.flush()
        paces = zip(game.seconds, game.turns, strict=True)
        pace = "  ".join(f"{seconds / max(turns, 1):.2f}" for seconds, turns in paces)
        print(
            f"  game {game.number}: plies scores {game.scores[0]:g} ({game.reason}; "
            f"s/move plies, sf: {pace})",
            file=sys.stderr,
            flush=True,
        )

    try:
        with stop_on_interrupt() as stop:
            result = run_match(options, workers=args.workers, stop=stop, on_game=on_game)
    finally:
        if pgn is not None:
            pgn.close()
    seconds = time.perf_counter() - started
    me, them = result.totals
    forfeits = sum(total.forfeits for total in result.totals)
    stopped = "  (stopped)" if result.stopped else ""
    if result.pentanomial is None or not result.pentanomial.pairs:
        print(f"{level:>6}  {me.games:>5}  no complete pair of games{stopped}")
        return not result.stopped
    pace = f"{me.seconds_a_move:5.2f} {them.seconds_a_move:5.2f}"
    print(
        line(
            level,
            me.games,
            (me.wins, me.draws, me.losses),
            result.pentanomial,
            forfeits=forfeits,
            pace=pace,
        )
        + f"  {seconds:7.1f}{stopped}",
        flush=True,
    )
    return not result.stopped


def line(
    level: int,
    games: int,
    results: tuple[int, int, int],
    pentanomial: Pentanomial,
    *,
    forfeits: int | str,
    pace: str,
) -> str:
    """A level's line of the table: ``results`` (plies' wins, draws and losses) over
    ``games`` games, the Elo from ``pentanomial`` (its complete pairs) and the rating it
    implies on the level's anchor."""
    wins, draws, losses = results
    score = (wins + draws / 2) / games
    elo = pentanomial.elo()
    anchored = f"{level + elo.elo:.0f}" if math.isfinite(elo.elo) else signed(elo.elo)
    return (
        f"{level:>6}  {games:>5}  {100 * score:5.1f}%  {wins:>3}/{draws:>3}/{losses:>3}"
        f"  {list(pentanomial.counts)!s:<22}  {signed(elo.elo):>5} "
        f"[{signed(elo.low)}, {signed(elo.high)}]  {anchored:>6}  {forfeits:>3}  {pace}"
    )


@dataclass
class Level:
    """The games kept at one level: plies' score in each, and the pairs complete within
    a run."""

    scores: list[float] = field(default_factory=list)
    pairs: list[tuple[float, float]] = field(default_factory=list)


#: The level in Stockfish's player name (``uci:...:UCI_LimitStrength=true,UCI_Elo=2100``).
LEVEL = re.compile(r"UCI_Elo=(\d+)")
POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def kept_levels(paths: list[str]) -> dict[int, Level]:
    """The games of the PGN files at ``paths`` by level, from plies' side. A run's games
    are numbered from 1 (the PGN's ``Round``), so a number not above the one before
    starts another run (files may hold several, appended); games 2k-1 and 2k of a run
    are a pair (one opening, the colours swapped)."""
    levels: dict[int, Level] = defaultdict(Level)
    for path in paths:
        try:
            handle = open(path, encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            sys.exit(f"error: --report {path}: {exc.strerror}")
        with handle:
            run: dict[int, float] = {}  # plies' score by game number, in one run
            level = last = 0
            while (game := read_game(handle, path)) is not None:
                headers = game.headers
                found = LEVEL.search(headers["White"] + headers["Black"])
                number = int(headers["Round"]) if headers["Round"].isdigit() else 0
                if found is None or headers["Result"] not in POINTS or number < 1:
                    sys.exit(f"error: --report {path}: game {headers['Round']} is not a ladder's")
                if run and (number <= last or int(found[1]) != level):
                    add_run(levels[level], run)
                    run = {}
                level = int(found[1])
                points = POINTS[headers["Result"]]
                run[number] = points if LEVEL.search(headers["Black"]) else 1 - points
                last = number
            if run:
                add_run(levels[level], run)
    return dict(levels)


def read_game(handle: TextIO, path: str) -> chess.pgn.Game | None:
    """The next game of the PGN file open at ``handle`` (None at its end); a file that is
    not text is a one-line error."""
    import chess.pgn

    try:
        return chess.pgn.read_game(handle)
    except UnicodeDecodeError:
        sys.exit(f"error: --report {path}: not a PGN file (not UTF-8 text)")


def add_run(level: Level, run: dict[int, float]) -> None:
    """Count a run's games at ``level``, and its complete pairs."""
    level.scores += run.values()
    level.pairs += [(run[n], run[n + 1]) for n in sorted(run) if n % 2 == 1 and n + 1 in run]


def report(paths: list[str], header: str) -> None:
    """Print the table's ``header``, then each level's line from the games kept in
    ``paths``."""
    levels = kept_levels(paths)
    if not levels:
        sys.exit(f"error: --report {', '.join(paths)}: no games")
    print(f"pooled from {', '.join(paths)}")
    print(header.removesuffix("  seconds"))
    for level, kept in sorted(levels.items()):
        scores = kept.scores
        results = (scores.count(1.0), scores.count(0.5), scores.count(0.0))
        if not kept.pairs:
            print(f"{level:>6}  {len(scores):>5}  no complete pair of games")
            continue
        penta = Pentanomial.of_pairs(kept.pairs)
        print(line(level, len(scores), results, penta, forfeits="-", pace="    -     -"))


def main() -> None:
    """Parse the arguments and climb the ladder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--levels", type=levels_of, default="1350,1500,1700,2000", help="UCI_Elo levels"
    )
    parser.add_argument("--games", type=int, default=20, help="games per level (even)")
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move, both sides")
    parser.add_argument(
        "--tc", type=time_control, help="a clock instead, both sides: BASE+INC seconds (60+0.6)"
    )
    parser.add_argument("--pgn", help="append the games to this PGN file")
    parser.add_argument("--player", default="pvs", help="plies' algorithm (pvs, mcts, ...)")
    parser.add_argument("--stockfish", help="Stockfish's path (default: found)")
    parser.add_argument("--max-plies", type=int, default=300, help="then a draw (default 300)")
    parser.add_argument("--workers", type=int, help="play on a local Dask cluster")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--report", nargs="+", metavar="PGN", help="play nothing: the levels' lines from kept games"
    )
    args = parser.parse_args()
    header = (
        " level  games   score    W/  D/  L  pentanomial (0-2)       Elo [95%]"
        "            plies  forf  s/move (plies, sf)  seconds"
    )
    if args.report:
        report(args.report, header)
        return
    stockfish = stockfish_path(args.stockfish)
    check_levels(stockfish, args.levels)
    pace = f"{args.time:g} s a move each" if args.tc is None else f"{args.tc} clocks"
    each = f"{pace}, {args.games} games a level"
    print(f"plies {args.player} vs {stockfish}, {each}")
    print(header)
    for level in args.levels:
        try:
            if not rung(args, stockfish, level):
                break
        except PliesError as exc:  # a match that cannot be played: bad --games, --time...
            sys.exit(f"error: {exc}")


if __name__ == "__main__":
    main()
