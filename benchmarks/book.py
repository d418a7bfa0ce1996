"""Benchmark: opening books of Connect Four (plies.book), checked against direct solves.

Part 1, a book that makes a board's empty position instant: builds the book of
``--small`` (default Connect Four 6 x 5) to ``--small-plies`` plies, then, in the same
run, times the empty board answered from the book and solved directly (native solver,
value only), and solves a random ``--sample`` of the book's positions directly (each
with an emptied table) to check every stored value. Prints the build's time per level.

Part 2a, what a 7 x 6 book costs per depth: for each depth D up to
``--estimate-plies``, the distinct positions D plies from the start (counted) and the
mean time of ``--leaves`` random ones solved alone (each capped at ``--leaf-cap``
seconds), whose product estimates the leaf solves of a book to D on one core. A
complete book of any depth proves the empty board's value (for 7 x 6 Pons' score +1:
the first player wins, with their 21st stone); a book's leaves are independent, so N
workers divide that time (the derivation of the levels above takes seconds).

Part 2b, real 7 x 6 books: from ``--big-from`` (default the first position of Pons'
Test_L1_R1, 8 plies in; ``''`` is the empty board), books to 0, 1, 2, ... plies, each
in a new file, while the next one is predicted to end within ``--budget`` seconds (its
leaves times the mean time of a leaf one level up: deeper leaves are cheaper), with the
time per level and the root's value from the book.

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
from plies.engine import Limits, NativeTable, solve
from plies.errors import SearchError
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
    print(
        f"{game.name}: book to {plies} plies, {stats.positions:,} positions, "
        f"{stats.file_bytes:,} bytes, built in {built:.2f} s "
        f"(leaf solves {stats.solve_wall_seconds:.2f} s wall)"
    )
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
        print(
            f"empty board: book {answer.result} (value {answer.value:.0f}) in "
            f"{from_book * 1000:.2f} ms; direct solve {direct.result} (value "
            f"{direct.value:.0f}) in {solved:.2f} s; ratio {solved / from_book:,.0f}x"
        )
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
        print(
            f"sample: {agree} of {len(chosen)} book values equal direct solves "
            f"({time.perf_counter() - started:.2f} s of direct solves)"
        )
        assert agree == len(chosen), "the book disagrees with the solver"


def level_positions(game: Any, start: Any, plies: int) -> list[Any]:
    """The distinct positions (mirrors merged) ``plies`` plies after ``start``, games
    that ended on the way left out."""
    level = {key_text(game, start): start}
    for _ in range(plies):
        following: dict[str, Any] = {}
        for state in level.values():
            if game.terminal_value(state) is not None:
                continue
            for move in game.legal_moves(state):
                child = game.play(state, move)
                following.setdefault(key_text(game, child), child)
        level = following
    return list(level.values())


def timed_solve(game: Any, state: Any, table: NativeTable, cap: float) -> float | None:
    """Seconds a direct solve of ``state`` takes (value only), None past ``cap``."""
    table.clear()
    started = time.perf_counter()
    try:
        solve(game, state, table=table, moves="none", limits=Limits(time=cap))
    except SearchError:
        return None
    return time.perf_counter() - started


def estimate_levels(plies: int, leaves: int, cap: float) -> None:
    """Part 2a: the cost of a 7 x 6 book to each depth up to ``plies``, from the time of
    ``leaves`` random leaves of that depth (each solved alone, at most ``cap`` s)."""
    game = parse_game_spec("connect4")
    table = NativeTable()
    rng = random.Random(42)
    print(
        f"connect4 7 x 6: cost of a book to D plies, sampled ({leaves} leaves a level, "
        f"{cap:g} s at most each)"
    )
    print("      D  positions  sampled s per leaf        book s (1 core)")
    for depth in range(plies + 1):
        level = level_positions(game, game.initial_state(), depth)
        chosen = rng.sample(level, min(leaves, len(level)))
        times = [timed_solve(game, state, table, cap) for state in chosen]
        if any(t is None for t in times):
            print(f"  {depth:5d}  {len(level):9,d}  > {cap:g} (a leaf hit the cap)")
            continue
        mean = sum(t for t in times if t is not None) / len(times)
        print(f"  {depth:5d}  {len(level):9,d}  {mean:18.4f}  {mean * len(level):21,.0f}")


def big_books(start: str, budget: float, workers: int | None, folder: Path) -> None:
    """Part 2b: 7 x 6 books from ``start`` ever deeper while the next one is predicted
    to fit in ``budget`` seconds (all the time spent, samples included)."""
    spec = "connect4"
    game = parse_game_spec(spec)
    root = game.parse_position(start)
    table = NativeTable()
    print(f"{game.name} 7 x 6 books from position {start!r}: budget {budget:g} s")
    print("  plies  positions     leaves  leaf solve s  s per leaf  derive s  root")
    began = time.perf_counter()
    per_leaf: float | None = None
    plies = 0
    while True:
        left = budget - (time.perf_counter() - began)
        leaves = level_positions(game, root, plies)
        if per_leaf is None:  # no level built yet: time a leaf first
            took = timed_solve(game, leaves[0], table, left)
            predicted = None if took is None else took * len(leaves)
        else:  # a leaf one level down costs at most one a level up (it is smaller)
            predicted = per_leaf * len(leaves)
        if predicted is None or predicted > left:
            shown = "over" if predicted is None else f"{predicted:,.0f} s"
            print(
                f"  next: {plies} plies, {len(leaves):,} leaves, predicted {shown}: beyond "
                f"the {left:.0f} s left"
            )
            return
        path = folder / f"c4-{plies}.sqlite"
        stats = build_book(spec, path, plies=plies, position=start, workers=workers)
        level = stats.levels[-1]
        per_leaf = stats.solve_wall_seconds / max(level.leaves, 1)
        derive = sum(lv.derive_seconds or 0.0 for lv in stats.levels)
        with Book.open(path, game) as book:
            answer = book.answer(root)
            assert answer is not None
            score = game.exact_score(root, answer.result, answer.distance or 0)
        print(
            f"  {plies:5d}  {stats.positions:9,d}  {level.leaves:9,d}  "
            f"{stats.solve_wall_seconds:12.2f}  {per_leaf:10.4f}  {derive:8.3f}  "
            f"{answer.result} (score {score})"
        )
        plies += 1


def main() -> None:
    """Parse the options and run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", default="connect4:width=6,height=5", help="GAME of part 1")
    parser.add_argument("--small-plies", type=int, default=6, help="depth of part 1's book")
    parser.add_argument("--sample", type=int, default=40, help="positions checked directly")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds for part 2b")
    parser.add_argument(
        "--big-from",
        default="32164625",
        help="POSITION of the 7 x 6 books of part 2b (default: the first "
        "line of Pons' Test_L1_R1, 8 plies in; '' for the empty board)",
    )
    parser.add_argument(
        "--estimate-plies",
        type=int,
        default=6,
        help="part 2a: sample the 7 x 6 levels up to this depth",
    )
    parser.add_argument("--leaves", type=int, default=3, help="part 2a: leaves per level")
    parser.add_argument(
        "--leaf-cap", type=float, default=20.0, help="part 2a: seconds a sampled leaf may take"
    )
    parser.add_argument("--workers", type=int, help="a local Dask cluster of N workers")
    parser.add_argument("--skip-small", action="store_true", help="run part 2 only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if not args.skip_small:
            small_book(args.small, args.small_plies, args.sample, args.workers, Path(folder))
            print()
        estimate_levels(args.estimate_plies, args.leaves, args.leaf_cap)
        print()
        big_books(args.big_from, args.budget, args.workers, Path(folder))


if __name__ == "__main__":
    main()
