"""``plies select``: the K-th smallest of some numbers by prune-and-search, every round
narrated (median of medians, or quickselect with a seeded random pivot)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from plies.cli._args import whole_number
from plies.errors import PliesError
from plies.lab import MAX_NUMBERS, random_numbers, select_lab
from plies.prune import METHODS

__all__ = ["register", "run_select"]

_EPILOG = """\
examples:
  plies select 3 9 1 8 2 7          the 3rd smallest of 9 1 8 2 7: 7
  plies select 50 --random 99 --seed 4 --steps
  plies select 2 2.5 1/3 -4 --method random --seed 7 --json

Numbers are whole, decimal (2.5, 1e3) or fractions (1/3), read exactly, and may be
separated by spaces or commas. With --steps, each round says the pivot and how it was
chosen, the sizes of the three parts, which part is kept and why, and the fraction
discarded; the last line is T(n) = T(a n) + O(n) with the measured a.
"""


def register(subparsers: Any) -> None:
    """Add the ``select`` subcommand."""
    p = subparsers.add_parser(
        "select",
        help="the K-th smallest of numbers by prune-and-search, round by round",
        description="Find the K-th smallest (1-based, duplicates counted) of NUMBERS by "
        "prune-and-search: each round partitions the numbers around a pivot and keeps "
        "only the part holding the answer.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("k", metavar="K", type=whole_number(minimum=1), help="the rank sought, from 1")
    p.add_argument("numbers", metavar="NUMBERS", nargs="*", help="the numbers")
    p.add_argument(
        "--method",
        choices=METHODS,
        default="medians",
        help="medians: the median of medians of groups of 5 (the default, O(n) always); "
        "random: a random pivot (seeded by --seed; O(n) expected)",
    )
    p.add_argument(
        "--seed", type=whole_number(), default=0, help="seed of --method random and --random"
    )
    p.add_argument(
        "--random",
        type=whole_number(minimum=1, maximum=MAX_NUMBERS),
        metavar="N",
        help="select from N whole numbers from 0 to 99 drawn with --seed instead of NUMBERS",
    )
    p.add_argument("--steps", action="store_true", help="narrate every round")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(handler=run_select)


def run_select(args: argparse.Namespace) -> int:
    """Handler of ``plies select``."""
    if args.random is not None and args.numbers:
        raise PliesError("give NUMBERS or --random N, not both")
    if args.random is None and not args.numbers:
        raise PliesError("no numbers given: give NUMBERS, or --random N")
    numbers = random_numbers(args.random, args.seed) if args.random else args.numbers
    run = select_lab(numbers, args.k, method=args.method, seed=args.seed, drawings=False)
    if args.json:
        print(json.dumps(run.record()))
        return 0
    if args.random:
        print(f"numbers: {numbers if len(numbers) <= 400 else numbers[:397] + '...'}")
    if args.steps:
        for step in run.steps:
            print(step.narration[0])
            for line in step.narration[1:]:
                print(f"  {line}")
    print(run.summary())
    print(run.recurrence)
    return 0
