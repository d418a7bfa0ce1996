"""Benchmark: Monte-Carlo tree search (plies.engine.mcts) in Python.

Part 1, speed: iterations (and nodes: states entered, in the tree and in playouts) per
second from the start of tic-tac-toe, Connect Four and Othello, best of ``--repeat``
runs of ``--seconds`` each (the machine's speed varies: compare figures of one run).

Part 2, quality: on ``--positions`` random tic-tac-toe positions (0 to 6 random plies
from the start, seeded), how often MCTS without the solver (``--iterations`` each)
picks a move that keeps the exact value (plies' solver), and how often it picks one of
minimax's best moves (same value and, for a win or loss, the same distance).

Run: ``python benchmarks/mcts.py``.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from plies.engine import Limits, MctsOptions, mcts, solve
from plies.game import BaseGame
from plies.games import get_game

SPEED_GAMES = ("tictactoe", "connect4", "othello")


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
        )
        if found.exact:  # a proof ends the search early: not a speed figure
            continue
        rate = found.iterations / found.stats.time
        if rate > best[0]:
            best = (rate, found.stats.nps)
    return best


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per speed run")
    parser.add_argument("--repeat", type=int, default=3, help="speed runs per game (best)")
    parser.add_argument("--positions", type=int, default=50, help="tic-tac-toe positions")
    parser.add_argument("--iterations", type=int, default=3000, help="iterations a position")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the positions")
    args = parser.parse_args()
    print("game        iterations/s     nodes/s")
    for name in SPEED_GAMES:
        iterations, nodes = speed(name, args.seconds, args.repeat)
        print(f"{name:<10} {iterations:>13,.0f} {nodes:>11,.0f}")
    keeps, same = agreement(args.positions, args.iterations, args.seed)
    print(
        f"tic-tac-toe, {args.positions} random positions, {args.iterations} iterations, "
        f"no solver: keeps the exact value {keeps}/{args.positions}, "
        f"one of minimax's best moves {same}/{args.positions}"
    )


if __name__ == "__main__":
    main()
