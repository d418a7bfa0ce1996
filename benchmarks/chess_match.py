"""Benchmark: a match of ``plies uci`` against another UCI engine (Sunfish), with Elo.

Both engines run as UCI subprocesses driven by python-chess's client, a fixed time per
move (``--time``, default 0.2 s). Each opening of :data:`OPENINGS` is played twice, the
engines swapping colours, so ``--games`` (default 20) games use the first ``games / 2``
openings. A game ends by the rules (python-chess ``outcome(claim_draw=True)``: mate,
stalemate, insufficient material, fifty moves, threefold repetition) or is adjudicated
a draw after ``--max-plies`` plies (counted and reported). An illegal or missing move
loses the game for the engine that made it.

Prints each game's result, then the score of plies, the Elo difference it implies
(``-400 log10(1 / score - 1)``) and a 95% interval from the standard error of the score
per game (wins, draws and losses counted as 1, 1/2, 0).

Run: ``python benchmarks/chess_match.py --opponent /tmp/sunfish-venv/bin/sunfish-uci``
(Sunfish from PyPI pins python-chess 1.9.4, so it lives in a venv of its own).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import chess
import chess.engine

PLIES = [sys.executable, "-m", "plies", "uci"]

#: Short, common opening lines (SAN from the start), each played with both colours.
OPENINGS = (
    "e4 e5 Nf3 Nc6",
    "d4 d5 c4 e6",
    "e4 c5 Nf3 d6",
    "e4 e6 d4 d5",
    "d4 Nf6 c4 g6",
    "c4 e5 Nc3 Nf6",
    "e4 c6 d4 d5",
    "Nf3 d5 g3 Nf6",
    "e4 e5 Nf3 Nf6",
    "d4 Nf6 c4 e6",
    "e4 d5 exd5 Qxd5",
    "d4 d5 Nf3 Nf6",
)


def play_game(
    white: chess.engine.SimpleEngine,
    black: chess.engine.SimpleEngine,
    opening: str,
    *,
    seconds: float,
    max_plies: int,
    game_id: int,
) -> tuple[str, str]:
    """Play one game; return the result (``1-0``, ``0-1``, ``1/2-1/2``) and why.

    ``game_id`` differs per game, so python-chess sends each engine ``ucinewgame``.
    """
    board = chess.Board()
    for san in opening.split():
        board.push_san(san)
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), outcome.termination.name.lower()
        if len(board.move_stack) >= max_plies:
            return "1/2-1/2", "adjudicated"
        mover = white if board.turn == chess.WHITE else black
        result = mover.play(board, chess.engine.Limit(time=seconds), game=game_id)
        if result.move is None or result.move not in board.legal_moves:
            return ("0-1" if board.turn == chess.WHITE else "1-0"), "illegal or no move"
        board.push(result.move)


def elo(score: float) -> float:
    """The Elo difference of an expected score in (0, 1)."""
    return -400 * math.log10(1 / score - 1)


def main() -> int:
    """Play the match and print the score and the Elo estimate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", required=True, help="command of the other UCI engine")
    parser.add_argument("--games", type=int, default=20, help="games, even (default 20)")
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move (default 0.2)")
    parser.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw after")
    args = parser.parse_args()
    if args.games < 2 or args.games % 2 or args.games // 2 > len(OPENINGS):
        print(f"error: --games must be even, 2-{2 * len(OPENINGS)}", file=sys.stderr)
        return 1
    plies = chess.engine.SimpleEngine.popen_uci(PLIES)
    other = chess.engine.SimpleEngine.popen_uci(args.opponent.split())
    name = str(other.id.get("name", args.opponent))
    points: list[float] = []
    started = time.perf_counter()
    try:
        for index in range(args.games):
            opening = OPENINGS[index // 2]
            plies_white = index % 2 == 0
            white, black = (plies, other) if plies_white else (other, plies)
            result, why = play_game(
                white, black, opening, seconds=args.time, max_plies=args.max_plies, game_id=index
            )
            point = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            points.append(point if plies_white else 1 - point)
            colour = "white" if plies_white else "black"
            print(
                f"game {index + 1:2}: plies {colour:5} {result:7} ({why}) after '{opening}'",
                flush=True,
            )
    finally:
        plies.quit()
        other.quit()
    games = len(points)
    wins, draws = points.count(1.0), points.count(0.5)
    score = sum(points) / games
    spread = math.sqrt(sum((p - score) ** 2 for p in points) / games / games)
    print(
        f"plies vs {name}: +{wins} ={draws} -{games - wins - draws} in {games} games at "
        f"{args.time:g} s per move ({time.perf_counter() - started:.0f} s): score {score:.3f}"
    )
    low, high = max(score - 1.96 * spread, 1e-3), min(score + 1.96 * spread, 1 - 1e-3)
    clipped = min(max(score, 1e-3), 1 - 1e-3)
    print(f"Elo difference {elo(clipped):+.0f} (95% interval {elo(low):+.0f} .. {elo(high):+.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
