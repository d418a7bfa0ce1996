"""Benchmark: Monte-Carlo tree search (plies.engine.mcts), in Python and natively.

Part 1, speed in Python: iterations (and nodes: states entered, in the tree and in playouts) per
second from the start of tic-tac-toe, Connect Four and Othello, best of ``--repeat``
runs of ``--seconds`` each (the machine's speed varies: compare figures of one run).

Part 2, native playouts: playouts per second of MCTS with playouts in the native
kernel (``backend="native"``, 32 a leaf) against Python's (one
a leaf), from the start of Connect Four, Othello, the 7 x 7 m,n,k game with k = 4, and the
four-player Rolit and three-player Chinese Checkers (73 holes; max^n backups, a payoff vector
a playout),
searches of ``--seconds`` interleaved (Python, native, Python, ...), best of ``--repeat``
each, the kernel loaded before (its load time, from Numba's cache or compiling on a
machine's first run, printed apart).

Part 3, quality: on ``--positions`` random tic-tac-toe positions (0 to 6 random plies
from the start, seeded), how often MCTS without the solver (``--iterations`` each)
picks a move that keeps the exact value (plies' solver), and how often it picks one of
minimax's best moves (same value and, for a win or loss, the same distance).

Part 4, evaluation cut-offs: on ``--evaluation-positions`` random Connect Four positions
(14 to 23 random plies from the start, seeded) where some move loses the exact value,
ten seeds each, how often MCTS without the solver keeps the exact value with
``"random"`` and with ``"evaluate"`` playouts, at an equal budget of 400 nodes (states
entered, in the tree and in playouts). Solving the positions takes minutes;
``--evaluation-positions 0`` skips it.

Run: ``python benchmarks/mcts.py``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from plies.engine import Limits, MctsOptions, mcts, solve
from plies.game import BaseGame
from plies.games import get_game, parse_game_spec

SPEED_GAMES = ("tictactoe", "connect4", "othello")
NATIVE_GAMES = ("connect4", "othello", "mnk:m=7,n=7,k=4", "rolit", "chinese-checkers:players=3")


def speed(name: str, seconds: float, repeat: int) -> tuple[float, float]:
    """Best (iterations, nodes) per second of ``repeat`` searches from the start."""
    game = get_game(name)
    best = (0.0, 0.0)
    for run in range(repeat):
        found = mcts(
            game,
            game.initial_state(),
            limits=Limits(time=seconds),
            options=MctsOptions(seed=run, solver=name != "tictactoe"),
            backend="python",
        )
        if found.exact:  # a proof ends the search early: not a speed figure
            continue
        rate = found.iterations / found.stats.time
        if rate > best[0]:
            best = (rate, found.stats.nps)
    return best


def load_time(spec: str) -> float:
    """Seconds the first native search of ``spec`` took to load its kernel."""
    game = parse_game_spec(spec)
    started = time.perf_counter()
    mcts(game, game.initial_state(), iterations=1, backend="native")
    return time.perf_counter() - started


def playout_rates(spec: str, seconds: float, repeat: int) -> tuple[float, float]:
    """Best playouts per second of ``repeat`` interleaved Python and native searches."""
    game = parse_game_spec(spec)
    best = {"python": 0.0, "native": 0.0}
    for run in range(repeat):
        for backend in ("python", "native"):
            found = mcts(
                game,
                game.initial_state(),
                limits=Limits(time=seconds),
                options=MctsOptions(seed=run),
                backend=backend,
            )
            best[backend] = max(best[backend], found.playouts / found.stats.time)
    return best["python"], best["native"]


def random_position(game: BaseGame[Any, Any], rng: random.Random, max_plies: int) -> Any:
    """A position ``0..max_plies`` random moves from the start, not over."""
    while True:
        state = game.initial_state()
        for _ in range(rng.randrange(max_plies + 1)):
            if game.is_terminal(state):
                break
            state = game.play(state, rng.choice(list(game.legal_moves(state))))
        if not game.is_terminal(state):
            return state


def agreement(positions: int, iterations: int, seed: int) -> tuple[int, int]:
    """(moves keeping the exact value, moves among minimax's best) out of ``positions``."""
    game = get_game("tictactoe")
    rng = random.Random(seed)
    keeps = same = 0
    for index in range(positions):
        state = random_position(game, rng, 6)
        exact = solve(game, state, moves="all")
        found = mcts(
            game, state, iterations=iterations, options=MctsOptions(solver=False, seed=index)
        )
        after = solve(game, game.play(state, found.best_move), moves="none").score
        keeps += after.kind == {"win": "loss", "loss": "win", "draw": "draw"}[exact.result]
        same += found.best_move in exact.best_moves
    return keeps, same


OTHER = {"win": "loss", "loss": "win", "draw": "draw"}


def evaluation_gain(positions: int, seed: int) -> tuple[int, int, int]:
    """(searches keeping the exact value with random playouts, with evaluate
    playouts, searches of each) on ``positions`` Connect Four positions."""
    game = get_game("connect4")
    rng = random.Random(seed)
    kept = {"random": 0, "evaluate": 0}
    found = 0
    while found < positions:
        state = game.initial_state()
        for _ in range(rng.randrange(14, 24)):
            if game.is_terminal(state):
                break
            state = game.play(state, rng.choice(list(game.legal_moves(state))))
        if game.is_terminal(state):
            continue
        result = solve(game, state, moves="none").result
        keeping = [
            move
            for move in game.legal_moves(state)
            if OTHER[solve(game, game.play(state, move), moves="none").result] == result
        ]
        if len(keeping) == len(game.legal_moves(state)):
            continue
        found += 1
        for playout in kept:
            for search_seed in range(10):
                options = MctsOptions(playout=playout, solver=False, seed=search_seed)
                chosen = mcts(game, state, limits=Limits(nodes=400), options=options)
                kept[playout] += chosen.best_move in keeping
    return kept["random"], kept["evaluate"], 10 * positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per speed run")
    parser.add_argument("--repeat", type=int, default=3, help="speed runs per game (best)")
    parser.add_argument("--positions", type=int, default=50, help="tic-tac-toe positions")
    parser.add_argument("--iterations", type=int, default=3000, help="iterations a position")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the positions")
    parser.add_argument(
        "--evaluation-positions", type=int, default=40, help="Connect Four positions (part 4)"
    )
    parser.add_argument("--evaluation-seed", type=int, default=11, help="their seed")
    args = parser.parse_args()
    print("game        iterations/s     nodes/s")
    for name in SPEED_GAMES:
        iterations, nodes = speed(name, args.seconds, args.repeat)
        print(f"{name:<10} {iterations:>13,.0f} {nodes:>11,.0f}")
    print("\ngame              load s   Python playouts/s   native playouts/s   ratio")
    for spec in NATIVE_GAMES:
        loaded = load_time(spec)
        python, native = playout_rates(spec, args.seconds, args.repeat)
        print(
            f"{spec:<16} {loaded:>7.2f} {python:>19,.0f} {native:>19,.0f} {native / python:>6.0f}x"
        )
    keeps, same = agreement(args.positions, args.iterations, args.seed)
    print(
        f"tic-tac-toe, {args.positions} random positions, {args.iterations} iterations, "
        f"no solver: keeps the exact value {keeps}/{args.positions}, "
        f"one of minimax's best moves {same}/{args.positions}"
    )

    if args.evaluation_positions:
        plain, evaluated, searches = evaluation_gain(
            args.evaluation_positions, args.evaluation_seed
        )
        print(
            f"Connect Four, {args.evaluation_positions} positions x 10 seeds, 400 nodes, no "
            f"solver: keeps the exact value {plain}/{searches} with random playouts, "
            f"{evaluated}/{searches} with evaluate playouts"
        )


if __name__ == "__main__":
    main()
