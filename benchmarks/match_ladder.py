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
ends.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import time

from plies.errors import PliesError
from plies.lab import GameRecord, MatchOptions, TimeControl, parse_time_control, run_match

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


def time_control(text: str) -> TimeControl:
    """``--tc``'s clock; argparse's one-line error for a bad one."""
    try:
        return parse_time_control(text)
    except PliesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def signed(value: float) -> str:
    """An Elo figure with its sign, infinite ones as +inf / -inf."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def rung(args: argparse.Namespace, stockfish: str, level: int) -> None:
    """Play the match at ``level`` and print its line."""
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
        result = run_match(options, workers=args.workers, on_game=on_game)
    finally:
        if pgn is not None:
            pgn.close()
    seconds = time.perf_counter() - started
    me, them = result.totals
    forfeits = sum(total.forfeits for total in result.totals)
    elo = result.elo
    assert elo is not None and result.pentanomial is not None
    anchored = f"{level + elo.elo:.0f}" if math.isfinite(elo.elo) else signed(elo.elo)
    print(
        f"{level:>6}  {me.games:>5}  {100 * me.score:5.1f}%  "
        f"{me.wins:>3}/{me.draws:>3}/{me.losses:>3}"
        f"  {list(result.pentanomial.counts)!s:<22}  {signed(elo.elo):>5} "
        f"[{signed(elo.low)}, {signed(elo.high)}]  {anchored:>6}  {forfeits:>3}  "
        f"{me.seconds_a_move:5.2f} {them.seconds_a_move:5.2f}  {seconds:7.1f}",
        flush=True,
    )


def main() -> None:
    """Parse the arguments and climb the ladder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1350,1500,1700,2000", help="UCI_Elo levels")
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
    args = parser.parse_args()
    stockfish = stockfish_path(args.stockfish)
    levels = [int(level) for level in args.levels.split(",")]
    pace = f"{args.time:g} s a move each" if args.tc is None else f"{args.tc} clocks"
    each = f"{pace}, {args.games} games a level"
    print(f"plies {args.player} vs {stockfish}, {each}")
    print(
        " level  games   score    W/  D/  L  pentanomial (0-2)       Elo [95%]"
        "            plies  forf  s/move (plies, sf)  seconds"
    )
    for level in levels:
        rung(args, stockfish, level)


if __name__ == "__main__":
    main()
