"""Benchmark: Best-Reply Search against max^n and paranoid at equal time per move, in
Rolit (4 players) and Chinese Checkers (3 players), beside Schadd and Winands (2011).

Schadd and Winands, "Best-Reply Search for Multi-Player Games", IEEE TCIAIG 3(1),
57-66, 2011 (doi:10.1109/TCIAIG.2011.2107323): "In all games, BRS is superior to the
maxn algorithm. [...] BRS also outperforms paranoid in Chinese Checkers and Focus. In
Rolit, BRS is on equal footing with paranoid." Their tables (win rates per game,
player count and time per move) could not be read from the copies we could reach, so
the claim is printed beside our figures in words, never as a number of ours.

**Seats.** A game of N players seats BRS and its opponent in every mix that has both:
the 2^N - 2 arrangements of the two algorithms over the seats (6 for three players, 14
for four), each played once per *cycle*, as the paper does. The match harness
(:func:`plies.lab.run_match`) turns the seats of a line-up round by round (a round is
N games from one opening, each player in every seat once), so a cycle is one round of
each line-up whose turns give distinct arrangements: for three players BRS-max^n-max^n
and BRS-BRS-max^n (3 + 3 arrangements); for four BMMM, BBMM, BBBM (4 each) and BMBM,
whose four turns give BMBM and MBMB twice each: those two count once per cycle, as the
mean of their two games. A cycle is thus 6 games (three players) or 16 (four).

**Win rate.** Each game gives BRS the points of its seats (1 for a win, a shared win
split, a draw 1/N a seat), so with both algorithms equally strong the rate is 1/2 over
a cycle. The rate is the mean over the arrangements played (each once per cycle), and
its 95% interval Wilson's score interval on that many observations (an observation's
fractional points counted as such).

**Openings.** Every cycle starts from ``--random-plies`` random moves (the harness's
seeded openings: the same opening for every arrangement of a cycle), so that cycles
differ: the searches are deterministic but for the clock. Chinese Checkers is plies'
``chinese-checkers:players=3`` (73 holes, 6 pieces a player, a draw after 100 moves
each); ``--chinese-checkers SPEC`` picks another board
(``chinese-checkers:players=3,size=4``: 121 holes, 10 pieces). OpenSpiel's
``chinese_checkers`` cannot be used: BRS cannot search OpenSpiel's states (see
docs/openspiel.md).

**Warm-up and time.** Before the matches, each algorithm plays a short self-play match
of each game (one ply a seat) through the same harness in this process, twice: the
first pays for the imports, the game's tables and the first searches (and, with
``--backend native``, the kernel's load), the second is timed, and its wall time per
ply, harness included, is printed: what each algorithm really took per move.
With ``--workers N`` the games run on a local Dask cluster (see
:func:`plies.cluster.run_lines`), each line-up's match on its own.

**Backends.** ``--backend native`` plays the searches in the native kernel
(:mod:`plies.engine.native._multi_kernel`: max^n without a table, paranoid and BRS
with one); ``--brs-backend`` puts BRS apart (``--backend native --brs-backend python``:
the runs of docs/benchmarks.md, made before BRS had a native search). ``--speed``
prints instead the nodes per second of max^n (depth 3), paranoid and BRS (depth 4),
Python against native on four random positions of each game, warmed, interleaved,
best of 3: without a table, and for paranoid and BRS with one (the default size),
with the nodes each visits (``same``: native and Python visited as many) and what the
table saves.

Run: ``.venv/bin/python benchmarks/multiplayer.py`` (a few minutes on 2 cores);
``--full`` for the real measurement (``--games 800 --time 0.25 --workers 2``: about
7 hours on 2 cores, by the quick runs' plies per game).
"""

from __future__ import annotations

import argparse
import itertools
import math
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from plies.errors import PliesError
from plies.games import parse_game_spec
from plies.lab import GameRecord, MatchOptions, run_match

#: The two-sided 95% quantile of the normal distribution.
Z95 = NormalDist().inv_cdf(0.975)
#: The games and what the paper found there (its abstract's words).
GAMES = {
    "rolit": "rolit",
    "chinese-checkers": "chinese-checkers:players=3",
}
PAPER_CLAIMS = {
    ("rolit", "maxn"): "BRS superior to max^n",
    ("rolit", "paranoid"): "BRS on equal footing with paranoid",
    ("chinese-checkers", "maxn"): "BRS superior to max^n",
    ("chinese-checkers", "paranoid"): "BRS outperforms paranoid",
}
PAPER_SOURCE = (
    "Schadd & Winands 2011, abstract (doi:10.1109/TCIAIG.2011.2107323; text at "
    "mafiadoc.com/best-reply-search-for-multi-player-games-dke-personal-projects-"
    "_59f131481723dda1553a3fb5.html); their tables' numbers were not found"
)
OPPONENTS = ("maxn", "paranoid")
#: Random plies of the openings, per game (one move each player).
RANDOM_PLIES = {"rolit": 4, "chinese-checkers": 3}
#: The ``--full`` preset.
FULL = {"games": 800, "time": 0.25, "workers": 2}


# -- the arithmetic -----------------------------------------------------------------------


def rotations(arrangement: Sequence[bool]) -> set[tuple[bool, ...]]:
    """The distinct turns of ``arrangement`` (True: a BRS seat), as the harness plays
    them in one round: seat ``s`` of the ``i``-th game holds player ``(s + i) % N``."""
    seats = len(arrangement)
    return {tuple(arrangement[(s + i) % seats] for s in range(seats)) for i in range(seats)}


def lineups(players: int) -> list[tuple[bool, ...]]:
    """One line-up per set of arrangements the harness's turns reach, together every
    arrangement of BRS (True) and its opponent with both present, each line-up written
    as its largest turn (BRS first), fewest BRS seats first."""
    found: list[tuple[bool, ...]] = []
    covered: set[tuple[bool, ...]] = set()
    for arrangement in itertools.product((True, False), repeat=players):
        if all(arrangement) or not any(arrangement) or arrangement in covered:
            continue
        turns = rotations(arrangement)
        covered |= turns
        found.append(max(turns))
    return sorted(found, key=lambda lineup: (sum(lineup), [not seat for seat in lineup]))


def cycle_games(players: int) -> int:
    """The games of one cycle: a round of ``players`` games per line-up."""
    return players * len(lineups(players))


def arrangement_points(
    lineup: Sequence[bool], games: Sequence[GameRecord]
) -> dict[tuple[int, tuple[bool, ...]], float]:
    """BRS's points in each (round, arrangement) of a line-up's match: the mean over the
    games of that arrangement in that round (two of the alternating four-player
    line-up's, one otherwise). An arrangement is BRS or not seat by seat."""
    players = len(lineup)
    points: dict[tuple[int, tuple[bool, ...]], list[float]] = {}
    for game in games:
        arrangement = tuple(lineup[player] for player in game.seats)
        brs = sum(score for player, score in enumerate(game.scores) if lineup[player])
        points.setdefault(((game.number - 1) // players, arrangement), []).append(brs)
    return {key: sum(values) / len(values) for key, values in points.items()}


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a rate ``successes / trials`` (successes may be
    fractional), at the normal quantile ``z`` (95% by default)."""
    if trials <= 0:
        raise ValueError(f"an interval needs at least one trial, not {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be 0 to {trials}, not {successes}")
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - spread / denominator), min(1.0, centre + spread / denominator)


def cycles_for(games: int, players: int) -> int:
    """Whole cycles playing at least ``games`` games (at least one)."""
    return max(1, math.ceil(games / cycle_games(players)))


# -- the matches --------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """BRS against ``opponent`` in ``game``: ``games`` played, ``observations`` (the
    arrangements, each once per cycle), BRS's ``points`` over them, the ``draws``
    (games whose point was shared by all), the plies of all games and the seconds."""

    game: str
    opponent: str
    games: int
    observations: int
    points: float
    draws: int
    plies: int
    seconds: float

    @property
    def rate(self) -> float:
        """BRS's win rate."""
        return self.points / self.observations

    def interval(self) -> tuple[float, float]:
        """The rate's 95% interval (Wilson)."""
        return wilson(self.points, self.observations)

    def verdict(self) -> str:
        """What the interval says of BRS against its opponent."""
        low, high = self.interval()
        if low > 0.5:
            return "BRS stronger"
        if high < 0.5:
            return "BRS weaker"
        return "no difference shown"


#: Where max^n and paranoid search (``--backend``), and where BRS does
#: (``--brs-backend``, by default ``--backend``).
BACKEND = {"value": "python", "brs": "python"}


def spec(algorithm: str, seconds: float) -> str:
    """The harness's player spec of ``algorithm`` at ``seconds`` a move."""
    backend = BACKEND["brs"] if algorithm == "brs" else BACKEND["value"]
    return f"{algorithm}:time={seconds:g},backend={backend}"


#: ``--speed``: the positions (random plies from the start, a seed each) and depths.
SPEED_POSITIONS = 4
SPEED_DEPTHS = {"maxn": 3, "paranoid": 4, "brs": 4}
#: The searches that keep a table natively too (max^n's native search has none).
TABLED = ("paranoid", "brs")
#: ``--speed``: the depth at which the native searches' table savings are measured
#: too (deeper than the Python searches go in the time).
SAVINGS_DEPTH = 6


def speed_positions(game: Any) -> list[Any]:
    """:data:`SPEED_POSITIONS` positions 4-15 random plies from the start (seed 1)."""
    import random

    rng = random.Random(1)
    states = []
    for _ in range(SPEED_POSITIONS):
        state = game.initial_state()
        for _ in range(rng.randrange(4, 16)):
            state = game.play(state, rng.choice(list(game.legal_moves(state))))
        states.append(state)
    return states


def node_rates(game_spec: str, repeat: int = 3) -> dict[tuple[str, bool, str], tuple[float, int]]:
    """Nodes per second and nodes of each search on ``game_spec``, by (algorithm,
    with a table, backend): Python and native, at the depths of :data:`SPEED_DEPTHS`
    from :func:`speed_positions`, without a table and (paranoid, BRS) with one of the
    default size; every configuration run once untimed first (Numba's load), then
    interleaved (Python, native, ...) ``repeat`` times, the best rate kept. The node
    counts are the four searches' sum (the same every run)."""
    from plies.engine import Limits, multi_search

    game = parse_game_spec(game_spec)
    states = speed_positions(game)
    best: dict[tuple[str, bool, str], tuple[float, int]] = {}
    for algorithm, depth in SPEED_DEPTHS.items():
        for table in (False, True) if algorithm in TABLED else (False,):
            for run in range(repeat + 1):
                for backend in ("python", "native"):
                    nodes, seconds = 0, 0.0
                    options = {"backend": backend, "limits": Limits(depth=depth)}
                    for state in states:
                        found = multi_search(
                            game, state, algorithm=algorithm, use_table=table, **options
                        )
                        nodes += found.stats.nodes
                        seconds += found.stats.time
                    if run:  # the first run loads the kernel
                        kept = best.get((algorithm, table, backend), (0.0, nodes))[0]
                        best[algorithm, table, backend] = (max(kept, nodes / seconds), nodes)
    return best


def print_speed(specs: dict[str, str], names: Sequence[str]) -> None:
    """``--speed``: the node rates of each game, native against Python, without a
    table and with one, and the nodes the table saves."""
    print(
        f"{'game':<28} {'search':<9} {'table':<5} {'Python nodes/s':>14} {'native nodes/s':>14} "
        f"{'ratio':>6} {'nodes':>10} {'same':>4}"
    )
    for name in names:
        rates = node_rates(specs[name])
        for algorithm, table, _ in [key for key in rates if key[2] == "python"]:
            python, python_nodes = rates[algorithm, table, "python"]
            native, nodes = rates[algorithm, table, "native"]
            same = "yes" if nodes == python_nodes else "no"
            print(
                f"{specs[name]:<28} {algorithm:<9} {'yes' if table else 'no':<5} {python:>14,.0f} "
                f"{native:>14,.0f} {native / python:>5.0f}x {nodes:>10,} {same:>4}"
            )
        for algorithm in TABLED:
            without = rates[algorithm, False, "native"][1]
            with_table = rates[algorithm, True, "native"][1]
            print(
                f"{specs[name]:<28} {algorithm:<9} depth {SPEED_DEPTHS[algorithm]}: the table "
                f"saves {1 - with_table / without:.0%} of the nodes ({without:,} -> {with_table:,})"
            )
        for algorithm, (plain, tabled) in table_savings(specs[name]).items():
            print(
                f"{specs[name]:<28} {algorithm:<9} depth {SAVINGS_DEPTH} (native): the table saves "
                f"{1 - tabled[0] / plain[0]:.0%} of the nodes ({plain[0]:,} -> {tabled[0]:,}) "
                f"and {1 - tabled[1] / plain[1]:.0%} of the time ({plain[1]:.2f} s -> "
                f"{tabled[1]:.2f} s)"
            )


def table_savings(
    game_spec: str, repeat: int = 2
) -> dict[str, tuple[tuple[int, float], tuple[int, float]]]:
    """The nodes and seconds (best of ``repeat``, interleaved) of the native paranoid
    and BRS searches :data:`SAVINGS_DEPTH` plies deep from :func:`speed_positions`,
    without a table and with one."""
    from plies.engine import Limits, multi_search

    game = parse_game_spec(game_spec)
    states = speed_positions(game)
    found: dict[str, tuple[tuple[int, float], tuple[int, float]]] = {}
    limits = Limits(depth=SAVINGS_DEPTH)
    for algorithm in TABLED:
        best: dict[bool, tuple[int, float]] = {}
        for _ in range(repeat):
            for table in (False, True):
                nodes, seconds = 0, 0.0
                for state in states:
                    result = multi_search(
                        game, state, algorithm=algorithm, backend="native", limits=limits,
                        use_table=table,
                    )  # fmt: skip
                    nodes, seconds = nodes + result.stats.nodes, seconds + result.stats.time
                best[table] = (nodes, min(seconds, best.get(table, (0, seconds))[1]))
        found[algorithm] = (best[False], best[True])
    return found


def play_pairing(
    name: str, game_spec: str, opponent: str, cycles: int, args: argparse.Namespace
) -> Pairing:
    """Every line-up of BRS and ``opponent`` in ``game_spec``, ``cycles`` rounds each."""
    players = parse_game_spec(game_spec).num_players
    points: dict[tuple[int, tuple[bool, ...]], float] = {}
    games = draws = plies = 0
    started = time.perf_counter()
    for lineup in lineups(players):
        specs = tuple(spec("brs" if seat else opponent, args.time) for seat in lineup)
        options = MatchOptions(
            game_spec,
            specs,
            games=players * cycles,
            random_plies=random_plies(name, args),
            seed=args.seed,
        )
        result = run_match(options, workers=args.workers, scheduler=args.scheduler)
        points.update(arrangement_points(lineup, result.games))
        games += len(result.games)
        draws += sum(1 for g in result.games if len(set(g.scores)) == 1)
        plies += sum(len(g.moves) for g in result.games)
    seconds = time.perf_counter() - started
    return Pairing(name, opponent, games, len(points), sum(points.values()), draws, plies, seconds)


def warm(game_spec: str, algorithm: str, seconds: float, players: int) -> float:
    """Self-play of ``algorithm`` for a few plies in ``game_spec`` through the harness,
    twice: the first warms this process up, the second is timed; its wall seconds per
    ply."""
    options = MatchOptions(
        game_spec, (spec(algorithm, seconds),) * players, games=players, max_plies=players
    )
    run_match(options)
    started = time.perf_counter()
    result = run_match(options)
    plies = sum(len(g.moves) for g in result.games)
    return (time.perf_counter() - started) / max(1, plies)


# -- the command --------------------------------------------------------------------------


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line, the ``--full`` preset applied where no value was given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, help="games per pairing, whole cycles (default 1 cycle)"
    )
    parser.add_argument("--time", type=float, help="seconds a move, every player (default 0.05)")
    parser.add_argument("--workers", type=int, help="processes of a local Dask cluster")
    parser.add_argument("--scheduler", help="a running Dask scheduler's address")
    parser.add_argument("--seed", type=int, default=0, help="the openings' seed")
    parser.add_argument(
        "--random-plies", type=int, help=f"random plies an opening (default {RANDOM_PLIES})"
    )
    parser.add_argument("--only", choices=sorted(GAMES), help="one game only")
    parser.add_argument(
        "--chinese-checkers", default=GAMES["chinese-checkers"], help="the Chinese Checkers spec"
    )
    parser.add_argument("--full", action="store_true", help=f"the real measurement: {FULL}")
    parser.add_argument(
        "--backend",
        choices=("python", "native"),
        default="python",
        help="where max^n and paranoid search in the matches (and BRS, unless --brs-backend)",
    )
    parser.add_argument(
        "--brs-backend",
        choices=("python", "native"),
        help="where BRS searches in the matches (default: --backend's)",
    )
    parser.add_argument(
        "--speed",
        action="store_true",
        help="only the nodes/s of max^n, paranoid and BRS, native against Python, "
        "without a table and with one, then exit",
    )
    args = parser.parse_args(argv)
    preset = FULL if args.full else {"games": 1, "time": 0.05, "workers": None}
    for key, value in preset.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    return args


def random_plies(name: str, args: argparse.Namespace) -> int:
    """The random plies of ``name``'s openings: ``--random-plies``, else the game's own."""
    return int(args.random_plies) if args.random_plies is not None else RANDOM_PLIES[name]


def main(argv: Sequence[str] | None = None) -> None:
    """Warm up, play every pairing and print its line beside the paper's finding."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    specs = {"rolit": "rolit", "chinese-checkers": args.chinese_checkers}
    names = [args.only] if args.only else list(GAMES)
    print("command:", shlex.join([sys.executable, *sys.argv]))
    if args.speed:
        print_speed(specs, names)
        return
    BACKEND["value"] = args.backend
    BACKEND["brs"] = args.brs_backend or args.backend
    print(
        f"settings: time {args.time:g} s a move for every player, games per pairing "
        f"{args.games} (rounded up to whole cycles), seed {args.seed}, workers {args.workers}, "
        f"scheduler {args.scheduler}, max^n and paranoid on {args.backend}, BRS on "
        f"{BACKEND['brs']}"
    )
    print(f"paper: {PAPER_SOURCE}")
    for name in names:
        game_spec = specs[name]
        try:
            players = parse_game_spec(game_spec).num_players
        except PliesError as exc:
            print(f"\n{game_spec}: skipped, the match harness cannot load it: {exc}")
            continue
        cycles = cycles_for(args.games, players)
        lineup_text = ", ".join(
            "".join("B" if seat else "O" for seat in lineup) for lineup in lineups(players)
        )
        print(
            f"\n{game_spec}: {players} players, line-ups {lineup_text} (B: BRS, O: its opponent), "
            f"{2**players - 2} arrangements and {cycle_games(players)} games a cycle, {cycles} "
            f"cycle(s), {random_plies(name, args)} random plies an opening"
        )
        per_ply = {a: warm(game_spec, a, args.time, players) for a in ("brs", *OPPONENTS)}
        print(
            "warm-up (self-play, this process): wall s per ply "
            + ", ".join(f"{a} {s:.3f}" for a, s in per_ply.items())
        )
        print(
            f"{'pairing':<16} {'games':>5} {'obs':>4} {'BRS rate':>8} {'95% interval':>15} "
            f"{'draws':>5} {'plies/g':>7} {'time':>6}  verdict / paper"
        )
        for opponent in OPPONENTS:
            found = play_pairing(name, game_spec, opponent, cycles, args)
            low, high = found.interval()
            print(
                f"{'BRS vs ' + opponent:<16} {found.games:>5} {found.observations:>4} "
                f"{found.rate:>8.1%} {f'{low:.1%} .. {high:.1%}':>15} {found.draws:>5} "
                f"{found.plies / found.games:>7.1f} {found.seconds:>5.0f}s  "
                f"{found.verdict()} / {PAPER_CLAIMS[(name, opponent)]}"
            )
    print(
        "\nfigures from a shared, loaded machine: times are wall times, the rates stand as measured"
    )


if __name__ == "__main__":
    main()
