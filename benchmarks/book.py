"""Benchmark: opening books of Connect Four (plies.book), checked against direct solves.

Part 1, a book that makes a board's empty position instant: builds the book of
``--small`` (default Connect Four 6 x 5) to ``--small-plies`` plies, then, in the same
run, times the empty board answered from the book and solved directly (native solver,
value only), and solves a random ``--sample`` of the book's positions directly (each
with an emptied table) to check every stored value. Prints the build's time per level.

Part 2, the 7 x 6 board: builds the books to 0, 1, 2, ... plies, each in a new file,
while the next one is predicted to end within ``--budget`` seconds (its leaves times
the mean time of a leaf one level up: an upper bound, deeper leaves are cheaper). A
complete book of any depth proves the empty board's value (for 7 x 6 Pons' score +1:
the first player wins, with their 21st stone, the 41st move); what differs is the cost,
printed per depth: leaves, wall-clock seconds of the leaf solves, seconds per leaf, and
the derivation of the levels above. From these figures the note projects what the
proof costs on N machines: a book's leaves are independent, so N workers divide the
leaf time (the derivation takes seconds).

``--workers N`` solves the leaves on a local Dask cluster of N processes (plies[cluster]).
Run: ``python benchmarks/book.py --budget 60`` (the machine's speed varies: compare
figures of one run only).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from plies.book import Book, BookStats, build_book
from plies.book._store import key_text
from plies.engine import NativeTable, solve
from plies.games import parse_game_spec


def print_levels(stats: BookStats) -> None:
    """One row per level: positions, leaves, their solve seconds (summed over
    workers), the derivation's seconds."""
    print("  level  positions    leaves  solve s  derive s")
    for level in stats.levels:
        derive = "-" if level.derive_seconds is None else f"{level.derive_seconds:.3f}"
        print(
            f"  {level.level:5d}  {level.positions:9,d}  {level.leaves:8,d}"
            f"  {level.solve_seconds:7.2f}  {derive:>8}"
        )


def small_book(spec: str, plies: int, sample: int, workers: int | None, folder: Path) -> None:
    """Part 1: a book of ``spec`` to ``plies``, its empty board and a sample checked."""
    game = parse_game_spec(spec)
    path = folder / "small.sqlite"
    started = time.perf_counter()
    stats = build_book(spec, path, plies=plies, workers=workers)
    built = time.perf_counter() - started
    print(f"{game.name}: book to {plies} plies, {stats.positions:,} positions, "
          f"{stats.file_bytes:,} bytes, built in {built:.2f} s "
          f"(leaf solves {stats.solve_wall_seconds:.2f} s wall)")
    print_levels(stats)
    table = NativeTable()
    root = game.initial_state()
    with Book.open(path, game) as book:
        started = time.perf_counter()
        answer = book.answer(root)
        from_book = time.perf_counter() - started
        started = time.perf_counter()
        direct = solve(game, root, table=table, moves="none")
        solved = time.perf_counter() - started
        assert answer is not None
        print(f"empty board: book {answer.result} (value {answer.value:.0f}) in "
              f"{from_book * 1000:.2f} ms; direct solve {direct.result} (value "
              f"{direct.value:.0f}) in {solved:.2f} s; ratio {solved / from_book:,.0f}x")
        assert answer.value == direct.value, "the book disagrees with the solver"
        positions = [
            str(text) for (text,) in book.connection.execute("SELECT position FROM positions")
        ]
        chosen = random.Random(2026).sample(positions, min(sample, len(positions)))
        agree = 0
        started = time.perf_counter()
        for text in chosen:
            state = game.parse_position(text)
            table.clear()
            agree += solve(game, state, table=table, moves="none").value == book.value(state)
        print(f"sample: {agree} of {len(chosen)} book values equal direct solves "
              f"({time.perf_counter() - started:.2f} s of direct solves)")
        assert agree == len(chosen), "the book disagrees with the solver"


def big_books(budget: float, workers: int | None, folder: Path) -> None:
    """Part 2: 7 x 6 books ever deeper while the next fits in ``budget`` seconds."""
    spec = "connect4"
    game = parse_game_spec(spec)
    print(f"{game.name} 7 x 6: books of increasing depth, budget {budget:g} s")
    print("  plies  positions     leaves  leaf solve s  s per leaf  derive s  root")
    spent = 0.0
    plies = 0
    per_leaf: float | None = None
    while True:
        started = time.perf_counter()
        stats = build_book(spec, folder / f"c4-{plies}.sqlite", plies=plies, workers=workers)
        took = time.perf_counter() - started
        spent += took
        level = stats.levels[-1]
        per_leaf = stats.solve_wall_seconds / max(level.leaves, 1)
        derive = sum(lv.derive_seconds or 0.0 for lv in stats.levels)
        with Book.open(folder / f"c4-{plies}.sqlite", game) as book:
            root = book.answer(game.initial_state())
            assert root is not None
            score = game.exact_score(game.initial_state(), root.result, root.distance or 0)
        print(f"  {plies:5d}  {stats.positions:9,d}  {level.leaves:9,d}  "
              f"{stats.solve_wall_seconds:12.2f}  {per_leaf:10.4f}  {derive:8.3f}  "
              f"{root.result} (score {score})")
        # The next level's positions, counted without solving, predict its cost.
        following = count_level(game, plies + 1)
        predicted = following * per_leaf
        if spent + predicted > budget:
            print(f"  next: {plies + 1} plies, {following:,} leaves, predicted at most "
                  f"{predicted:,.0f} s at {per_leaf:.4f} s a leaf: beyond the budget "
                  f"({spent:.1f} s spent)")
            return
        plies += 1


def count_level(game: Any, plies: int) -> int:
    """Distinct positions (mirrors merged) ``plies`` plies from the start, not counting
    those after the game ended."""
    start = game.initial_state()
    level = {key_text(game, start): start}
    for _ in range(plies):
        following = {}
        for state in level.values():
            if game.terminal_value(state) is not None:
                continue
            for move in game.legal_moves(state):
                child = game.play(state, move)
                following.setdefault(key_text(game, child), child)
        level = following
    return len(level)


def main() -> None:
    """Parse the options and run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", default="connect4:width=6,height=5", help="GAME of part 1")
    parser.add_argument("--small-plies", type=int, default=6, help="depth of part 1's book")
    parser.add_argument("--sample", type=int, default=40, help="positions checked directly")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds for part 2")
    parser.add_argument("--workers", type=int, help="a local Dask cluster of N workers")
    parser.add_argument("--skip-small", action="store_true", help="run part 2 only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if not args.skip_small:
            small_book(args.small, args.small_plies, args.sample, args.workers, Path(folder))
            print()
        big_books(args.budget, args.workers, Path(folder))


if __name__ == "__main__":
    main()
