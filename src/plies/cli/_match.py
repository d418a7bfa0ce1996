"""``plies match``: players play a game against each other, in pairs of games with the
seats swapped, here or on a Dask cluster; the score, the Elo difference with its 95%
interval and an SPRT's verdict (see :mod:`plies.lab`'s ``run_match``)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from plies.cli._args import seconds, whole_number
from plies.cli._console import output_console
from plies.errors import PliesError
from plies.lab import (
    PLAYER_ALGORITHMS,
    SPRT_MODELS,
    GameRecord,
    MatchOptions,
    MatchResult,
    TimeControl,
    check_match,
    match_record,
    parse_time_control,
    read_openings,
    run_match,
)

__all__ = ["register", "run_match_command"]

_EPILOG = """\
players:
  ALGORITHM[:key=value,...]   pvs:depth=6, alphabeta:depth=4,time=0.5, mcts:time=0.1,
                              mcts:iterations=2000, random (keys: depth, nodes, time, iterations;
                              backend=native|python for the searches and mcts; hash=MB for
                              pvs, negamax, mtdf: the table kept through a game, 0 for none)
                              games of N players: maxn:depth=3, paranoid:..., brs:..., mcts, random
  uci:COMMAND[:NAME=VALUE,...] any UCI chess engine; depth, nodes and time are its limit,
                              other pairs UCI options: uci:stockfish:UCI_LimitStrength=true,
                              UCI_Elo=1500,time=0.1
  with --tc BASE+INC           no time=, and no limit needed: every player is on the clock

examples:
  plies match connect4 pvs:depth=6 mcts:time=0.1 --games 20 --random-plies 2
  plies match tictactoe pvs:depth=9 random --games 10 --json
  plies match chess pvs:time=0.2 uci:stockfish:UCI_LimitStrength=true,UCI_Elo=1350,time=0.05 \\
      --games 20 --openings openings.txt --pgn games.pgn --sprt 0,50
  plies match chess pvs:backend=native uci:stockfish:UCI_LimitStrength=true,UCI_Elo=2000 \
      --games 20 --tc 60+0.6 --workers 2

On a clock (--tc 60+0.6: 60 s each for the game, 0.6 s back after each move) plies'
searches budget about remaining/30 + 0.8 x increment for a move (at most a fifth of what is
left), start no depth past it and let one started finish up to three times it; a UCI engine
gets both clocks (go wtime btime winc binc). A move's time is measured by the match, and a
player whose time runs out loses ("loses on time", counted with the forfeits), or draws
when no other player could win (chess: a bare king). Each player's seconds a move are
shown.

A player that crashes, plays an illegal move or (a UCI engine) does not answer within its
time (on a clock: its time left) plus --timeout forfeits the game; the table counts the
forfeits, and each is listed below it with the games drawn on time. Exit status 0
whenever the match was played.
"""


def _sprt_bounds(text: str) -> tuple[float, float]:
    try:
        low, high = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected ELO0,ELO1 (two numbers, e.g. 0,10), not {text!r:.40}"
        ) from None
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise argparse.ArgumentTypeError(f"expected ELO0 < ELO1, not {text!r:.40}")
    return low, high


def _time_control(text: str) -> TimeControl:
    try:
        return parse_time_control(text)
    except PliesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers: Any) -> None:
    """Add the ``match`` subcommand."""
    p = subparsers.add_parser(
        "match",
        help="play engines against each other: score, Elo and its 95%% interval, SPRT",
        description="Play a match between players (plies' searches, MCTS, random moves, "
        "UCI chess engines) on a game: the games come in rounds that start from one opening, "
        "each player taking each seat once (two players: game pairs with the colours "
        "swapped), openings from a file or random plies. Prints each player's score, and for "
        "two players the Elo difference with its 95% interval and the pentanomial of the "
        "game pairs, with an SPRT's verdict when asked (as fastchess computes them).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", metavar="GAME", help="game name, with parameters as NAME:key=value,...")
    p.add_argument(
        "players",
        metavar="PLAYER",
        nargs="+",
        help=f"one per seat of the game; ALGORITHM is one of {', '.join(PLAYER_ALGORITHMS)}",
    )
    p.add_argument(
        "--games",
        type=whole_number(1, 100_000),
        required=True,
        metavar="N",
        help="games to play, a multiple of the number of players",
    )
    start = p.add_mutually_exclusive_group()
    start.add_argument(
        "--openings",
        metavar="FILE",
        help="openings, one position or move list a line in the game's notation (cycled)",
    )
    start.add_argument(
        "--random-plies",
        type=whole_number(0, 200),
        default=0,
        metavar="K",
        help="start each round with K random moves drawn from --seed",
    )
    p.add_argument(
        "--seed", type=whole_number(0), default=0, metavar="S", help="the seed (default 0)"
    )
    p.add_argument(
        "--sprt",
        type=_sprt_bounds,
        metavar="ELO0,ELO1",
        help="test H0 elo <= ELO0 against H1 elo >= ELO1 (alpha = beta = 0.05) and stop at "
        "the verdict (two players)",
    )
    p.add_argument(
        "--sprt-model",
        choices=SPRT_MODELS,
        default="normalized",
        help="the Elo of the SPRT's bounds: normalized (fastchess's default) or logistic",
    )
    p.add_argument(
        "--pgn",
        metavar="FILE",
        help="write the games to FILE (PGN; other games: a PGN-like record)",
    )
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument(
        "--max-plies",
        type=whole_number(1),
        default=1000,
        metavar="N",
        help="adjudicate a game a draw after N plies (default 1000)",
    )
    p.add_argument(
        "--tc",
        type=_time_control,
        metavar="BASE+INC",
        help="play on a clock: BASE seconds each for the game, INC seconds back after each "
        "move (60+0.6; 300 for no increment); players then set no time=",
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        default=10.0,
        metavar="S",
        help="seconds a UCI engine may take past its time limit (on a clock: its time left) "
        "before it is killed and forfeits (default 10)",
    )
    cluster = p.add_argument_group("cluster", "play the games on a Dask cluster")
    where = cluster.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=whole_number(1, 1024),
        metavar="N",
        help="play the games on a local Dask cluster of N processes (needs plies[cluster])",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play them on the Dask cluster at ADDRESS (tcp://HOST:PORT); it must be trusted",
    )
    p.set_defaults(handler=run_match_command)


def _read_openings(path: str | None) -> tuple[str, ...]:
    if path is None:
        return ()
    try:
        return read_openings(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PliesError(f"openings file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PliesError(f"cannot read openings file {path}: {exc}") from None


def run_match_command(args: argparse.Namespace) -> int:
    """Handler of ``plies match``."""
    from plies.cli._batch import batch_progress
    from plies.cli._progress import stop_on_interrupt
    from plies.cluster import check_scheduler_address

    scheduler = check_scheduler_address(args.scheduler) if args.scheduler else None
    options = MatchOptions(
        args.game,
        tuple(args.players),
        args.games,
        openings=_read_openings(args.openings),
        random_plies=args.random_plies,
        seed=args.seed,
        max_plies=args.max_plies,
        timeout=args.timeout,
        sprt=args.sprt,
        sprt_model=args.sprt_model,
        time_control=args.tc,
    )
    check_match(options)
    pgn = _pgn_file(args.pgn)
    try:
        with stop_on_interrupt() as stop, batch_progress(args.games, "playing") as advance:

            def on_game(record: GameRecord) -> None:
                if pgn is not None:
                    pgn.write(record.record + "\n")  # a blank line after each game
                    pgn.flush()
                advance()

            result = run_match(
                options, workers=args.workers, scheduler=scheduler, stop=stop, on_game=on_game
            )
    finally:
        if pgn is not None:
            pgn.close()
    if args.json:
        print(json.dumps(match_record(result)))
    else:
        _print_result(result)
    return 0


def _pgn_file(path: str | None) -> Any:
    if path is None:
        return None
    try:
        return Path(path).open("w", encoding="utf-8")
    except OSError as exc:
        raise PliesError(f"cannot write {path}: {exc.strerror or exc}") from None


def _elo(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"


def _print_result(result: MatchResult) -> None:
    from rich.table import Table

    console = output_console()
    options = result.options
    clock = "" if options.time_control is None else f", time control {options.time_control}"
    title = f"{options.game}: {len(result.games)} games{clock}"
    table = Table(title=title, title_justify="left")
    table.add_column("player", overflow="fold")
    for heading in ("games", "points", "score", "W", "D", "L", "forfeits", "s/move"):
        table.add_column(heading, justify="right")
    for total in result.totals:
        table.add_row(
            total.name,
            str(total.games),
            f"{total.points:g}",
            f"{100 * total.score:.1f}%",
            str(total.wins),
            str(total.draws),
            str(total.losses),
            str(total.forfeits),
            f"{total.seconds_a_move:.2f}",
        )
    console.print(table)
    if result.elo is not None and result.pentanomial is not None:
        elo, first, second = result.elo, result.totals[0].name, result.totals[1].name
        console.print(
            f"Elo of {first} against {second}: {_elo(elo.elo)} "
            f"(95%: {_elo(elo.low)} to {_elo(elo.high)}), nElo {_elo(elo.nelo)}, "
            f"LOS {100 * elo.los:.1f}%"
        )
        console.print(f"Pentanomial (0-2 points a pair): {list(result.pentanomial.counts)}")
    if result.sprt is not None:
        test = result.sprt
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", "continue": "no verdict yet"}
        console.print(
            f"SPRT [{test.elo0:g}, {test.elo1:g}] ({test.model}): LLR {test.llr:.2f} "
            f"({test.lower:.2f}, {test.upper:.2f}): {verdict[test.verdict]}"
        )
    for game in result.games:
        if game.forfeit is not None or game.out_of_time is not None:
            console.print(f"game {game.number}: {game.reason}")
    if result.stopped:
        print("stopped: the match was interrupted", file=sys.stderr)
