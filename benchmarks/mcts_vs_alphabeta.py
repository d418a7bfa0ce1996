"""Benchmark: Monte-Carlo tree search against alpha-beta (PVS) at equal time per move,
on Connect Four, Othello and checkers, through plies' match harness.

For each game, a match of ``mcts:time=T,backend=native`` against ``pvs:time=T``
(:func:`plies.lab.run_match`): games in pairs from one opening with the seats
swapped, each pair's opening ``--random-plies`` seeded random moves from the start.
Printed per game: MCTS's wins, draws and losses, its score, the Elo difference of MCTS
against PVS with its 95% interval and the pentanomial of the pairs (the harness's own
arithmetic, :class:`plies.lab.Pentanomial`: the interval comes from the variance of the
pair scores), the mean plies of a game and the wall time of the match.

Both players are plies' engines as ``plies match`` runs them, both native: PVS is the
native search (iterative deepening, the table, move ordering) for these three games;
MCTS is UCT with the engine's default options and its playouts in the native kernel
(``backend=native``: by default :func:`plies.engine.mcts` plays a run shorter than a
second in Python). "Equal time" is the same ``time`` limit: each engine decides how
close to it it stops, so the warm-up prints the wall time each one really took per ply.

**Warm-up.** Before the matches, each engine plays a short self-play match of each game
(2 games of 4 plies) through the same harness in this process, twice: the first loads
the native kernel (Numba's cached code, about a second) and the game's tables, so that
no timed game pays for them; the second is timed, and its wall time per ply is printed.
The engines' clocks start after the kernel is loaded anyway (a first PVS or MCTS
search in a fresh process takes a second longer in wall time, not in its clock), so
with ``--workers N`` (a local Dask cluster, whose workers load the kernel on their
first search) the first games are fair as well.

Run: ``.venv/bin/python benchmarks/mcts_vs_alphabeta.py`` (a few minutes on 2 cores);
``--full`` for the real measurement (``--games 200 --time 0.2 --workers 2``: about an
hour on 2 cores, by the quick runs' plies per game).
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from plies.lab import EloEstimate, MatchOptions, MatchResult, run_match

#: The games, in the order they are played.
GAMES = ("connect4", "othello", "checkers")
#: The two players' algorithms: the first is rated against the second.
ALGORITHMS = ("mcts", "pvs")
#: The ``--full`` preset.
FULL = {"games": 200, "time": 0.2, "workers": 2}
#: The defaults: a few minutes on 2 cores.
QUICK = {"games": 8, "time": 0.05, "workers": None}


def spec(algorithm: str, seconds: float) -> str:
    """The harness's player spec of ``algorithm`` at ``seconds`` a move, native."""
    return f"{algorithm}:time={seconds:g}" + (",backend=native" if algorithm == "mcts" else "")


def format_elo(value: float) -> str:
    """An Elo figure, signed, ``-inf``/``+inf`` at a score of 0 or 1."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


@dataclass(frozen=True)
class GameLine:
    """One game's match: the ``result`` and its wall ``seconds``."""

    game: str
    result: MatchResult
    seconds: float

    def row(self) -> str:
        """The printed line."""
        result = self.result
        mcts = result.totals[0]
        games = len(result.games)
        plies = sum(len(g.moves) for g in result.games) / max(1, games)
        elo: EloEstimate | None = result.elo
        if elo is None:
            rated = f"{'-':>6} {'(no complete pair)':>16}"
        else:
            span = f"{format_elo(elo.low)} .. {format_elo(elo.high)}"
            rated = f"{format_elo(elo.elo):>6} {span:>16}"
        penta = "-" if result.pentanomial is None else str(list(result.pentanomial.counts))
        return (
            f"{self.game:<9} {games:>5} {mcts.wins:>4} {mcts.draws:>4} {mcts.losses:>4} "
            f"{mcts.score:>6.1%} {rated} {penta:>17} {plies:>7.1f} {self.seconds:>6.0f}s"
        )


def play(game: str, args: argparse.Namespace) -> GameLine:
    """MCTS against PVS in ``game`` as ``args`` say."""
    options = MatchOptions(
        game,
        tuple(spec(a, args.time) for a in ALGORITHMS),
        games=args.games,
        random_plies=args.random_plies,
        seed=args.seed,
    )
    started = time.perf_counter()
    result = run_match(options, workers=args.workers, scheduler=args.scheduler)
    return GameLine(game, result, time.perf_counter() - started)


def warm(game: str, algorithm: str, seconds: float) -> float:
    """Self-play of ``algorithm`` for a few plies of ``game`` through the harness, twice:
    the first loads what it needs in this process, the second is timed; its wall
    seconds per ply."""
    options = MatchOptions(game, (spec(algorithm, seconds),) * 2, games=2, max_plies=4)
    run_match(options)
    started = time.perf_counter()
    result = run_match(options)
    plies = sum(len(g.moves) for g in result.games)
    return (time.perf_counter() - started) / max(1, plies)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line, ``--full``'s preset (else the quick one) where no value was given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, help=f"games per game, even (default {QUICK['games']})"
    )
    parser.add_argument("--time", type=float, help=f"seconds a move (default {QUICK['time']})")
    parser.add_argument("--workers", type=int, help="processes of a local Dask cluster")
    parser.add_argument("--scheduler", help="a running Dask scheduler's address")
    parser.add_argument("--random-plies", type=int, default=4, help="random plies an opening")
    parser.add_argument("--seed", type=int, default=0, help="the openings' seed")
    parser.add_argument("--only", choices=GAMES, help="one game only")
    parser.add_argument("--full", action="store_true", help=f"the real measurement: {FULL}")
    args = parser.parse_args(argv)
    for key, value in (FULL if args.full else QUICK).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be even (games are played in pairs), not {args.games}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    """Warm up, play each game's match and print its line."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    games = [args.only] if args.only else list(GAMES)
    print("command:", shlex.join([sys.executable, *sys.argv]))
    print(
        f"settings: {spec('mcts', args.time)} against {spec('pvs', args.time)}, {args.games} "
        f"games a game in pairs (seats swapped), openings of {args.random_plies} random "
        f"plies (seed {args.seed}), workers {args.workers}, scheduler {args.scheduler}"
    )
    for game in games:
        per_ply = {a: warm(game, a, args.time) for a in ALGORITHMS}
        print(
            f"warm-up {game} (self-play, this process): wall s per ply "
            + ", ".join(f"{a} {s:.3f}" for a, s in per_ply.items())
        )
    print(
        f"\n{'game':<9} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'score':>6} {'Elo':>6} "
        f"{'95% interval':>16} {'pentanomial':>17} {'plies/g':>7} {'time':>7}"
    )
    for game in games:
        print(play(game, args).row(), flush=True)
    print(
        "\nW, D, L, score and Elo are MCTS's against PVS; pentanomial: pairs scoring "
        "0, 1/2, 1, 3/2, 2 for MCTS. Figures from a shared, loaded machine."
    )


if __name__ == "__main__":
    main()
