"""``plies lp``: a two-dimensional linear program solved by Megiddo's prune-and-search,
every round narrated, in exact arithmetic."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from plies.cli._args import whole_number
from plies.errors import LimitError, ParseError, PliesError
from plies.lab import MAX_RANDOM_CONSTRAINTS, lp_lab, random_lp, write_lp_drawing

__all__ = ["register", "run_lp"]

#: How a round's own lines start (the first round's narration opens with the setup).
_ROUND_LINES = ("Pairs", "Test", "No test", "Discarded", "Kept")

_EPILOG = """\
examples:
  plies lp farm.lp
  printf 'max x + y\\nx + 2y <= 4\\n3x + y <= 6\\nx >= 0\\ny >= 0\\n' | plies lp - --steps
  plies lp --random 30 --seed 2 --out lp.svg --json

The file: the objective on the first line (max or min, then p x + q y), then one
constraint a line (a x + b y <= c, or >=); blank lines and '# comments' are ignored.
Coefficients are whole, decimal or fractions (2/3), read exactly. The status is
optimal, infeasible or unbounded; with --steps each round says the pairs, the test
line (the median crossing), the side it chose and every constraint it discarded, and
the last line is T(n) = T(a n) + O(n) with the measured a.
"""


def register(subparsers: Any) -> None:
    """Add the ``lp`` subcommand."""
    p = subparsers.add_parser(
        "lp",
        help="solve a 2-D linear program by Megiddo's prune-and-search, round by round",
        description="Maximise or minimise p x + q y subject to linear constraints, by "
        "Megiddo's prune-and-search: pair the constraints, test the median crossing, "
        "discard one constraint of each pair the test decides.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", nargs="?", help="the program ('-': standard input)")
    p.add_argument(
        "--random",
        type=whole_number(minimum=1, maximum=MAX_RANDOM_CONSTRAINTS),
        metavar="N",
        help="solve a program of N constraints drawn with --seed instead of FILE",
    )
    p.add_argument("--seed", type=whole_number(), default=0, help="seed of --random")
    p.add_argument("--steps", action="store_true", help="narrate every round")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument(
        "--out",
        metavar="FILE.svg",
        help="draw the search into FILE.svg (or .png, with plies[draw]): the region, the "
        "constraints discarded and the optimum",
    )
    p.set_defaults(handler=run_lp)


def _program_text(args: argparse.Namespace) -> tuple[str, str]:
    """The program's text and the name to give it in messages."""
    if args.random is not None and args.file is not None:
        raise PliesError("give FILE or --random N, not both")
    if args.random is not None:
        return random_lp(args.random, args.seed), "the random program"
    if args.file is None:
        raise PliesError("no program given: give FILE ('-' for standard input) or --random N")
    if args.file == "-":
        return _capped(sys.stdin.read(MAX_PROGRAM_BYTES + 1), "standard input"), "standard input"
    try:
        with Path(args.file).open("rb") as stream:
            return _capped(stream.read(MAX_PROGRAM_BYTES + 1), args.file), args.file
    except OSError as exc:
        raise PliesError(f"cannot read {args.file}: {exc.strerror or exc}") from None


#: The largest program read (``/dev/zero`` must not eat the machine's memory): the
#: parser's most constraints, written out, take a few MB.
MAX_PROGRAM_BYTES = 16 * 2**20


def _capped(data: bytes | str, what: str) -> str:
    """``data`` read from ``what`` as text: LimitError past :data:`MAX_PROGRAM_BYTES`."""
    if len(data) > MAX_PROGRAM_BYTES:
        raise LimitError(
            f"{what} is larger than {MAX_PROGRAM_BYTES // 2**20} MB, the most a program may take"
        )
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8").replace("\r\n", "\n")
    except UnicodeDecodeError:
        raise PliesError(f"cannot read {what}: not UTF-8 text") from None


def run_lp(args: argparse.Namespace) -> int:
    """Handler of ``plies lp``."""
    text, name = _program_text(args)
    try:
        run = lp_lab(text, drawings=False)
    except ParseError as exc:
        raise PliesError(f"{name}: {exc}") from None
    if args.out:
        write_lp_drawing(run, args.out)
    if args.json:
        print(json.dumps(run.record()))
        return 0
    if args.random is not None:
        print(text, end="")
    if args.steps:
        for step in run.steps:
            if step.title == "Answer":
                print("Answer:")
            for line in step.narration:
                is_setup = step.title == "Round 1" and not line.startswith(_ROUND_LINES)
                flush_left = line.startswith("Round ") or is_setup
                print(line if flush_left else f"  {line}")
    print(run.summary())
    print(run.recurrence)
    return 0
