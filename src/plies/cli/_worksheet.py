"""``plies worksheet``: exercises from a seed, as PDFs with their answer key, Moodle
XML or QTI for Canvas (see :mod:`plies.classroom`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from plies.classroom import FORMATS, MAX_COUNT, make_worksheet, write_worksheet
from plies.cli._args import whole_number

__all__ = ["register", "run_worksheet"]

_EPILOG = """\
examples:
  plies worksheet --count 6 --seed 1 --out sheet
  plies worksheet --count 4 --seed 7 --branching 3 --depth 3 --cutoffs 3 --out exam
  plies worksheet --count 10 --seed 2 --strict --ties --out quiz --format moodle,qti

Writes DIR/answers.json always; with --format pdf (the default) DIR/worksheet.pdf,
DIR/answers.pdf and their LaTeX sources (needs pdflatex: Debian texlive-latex-base and
texlive-pictures); with moodle DIR/moodle.xml; with qti DIR/qti.zip. The same seed and
options give the same files, byte for byte.
"""


def _values(text: str) -> tuple[int, int]:
    parts = text.split(",")
    try:
        low, high = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected two whole numbers LOW,HIGH, not {text!r}"
        ) from None
    if low > high:
        raise argparse.ArgumentTypeError(f"LOW,HIGH needs LOW <= HIGH, not {text}")
    return low, high


def _formats(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in FORMATS:
            raise argparse.ArgumentTypeError(
                f"unknown format {name!r} (choose from {', '.join(FORMATS)})"
            )
    return names


def register(subparsers: Any) -> None:
    """Add the ``worksheet`` subcommand."""
    p = subparsers.add_parser(
        "worksheet",
        help="make worksheets with answer keys, Moodle XML or QTI from a seed",
        description="Make COUNT alpha-beta exercises from SEED in one shape, as the web "
        "practice room makes them, and write them for a class: a PDF worksheet of empty "
        "trees to fill in, its answer key, and the questions for Moodle or Canvas.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--count",
        type=whole_number(1),
        required=True,
        metavar="N",
        help=f"how many exercises (at most {MAX_COUNT})",
    )
    p.add_argument(
        "--seed",
        type=whole_number(0),
        required=True,
        metavar="S",
        help="the seed: the same seed and options give the same files",
    )
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="the folder to write")
    p.add_argument(
        "--format",
        type=_formats,
        action="append",
        dest="formats",
        metavar="F[,F]",
        help="what to write: pdf (the default), moodle, qti; several with commas "
        "or by repeating --format",
    )
    shape = p.add_argument_group("shape (as the practice room's)")
    shape.add_argument(
        "--branching",
        type=whole_number(2),
        default=2,
        metavar="B",
        help="children per inner node (default 2)",
    )
    shape.add_argument(
        "--depth",
        type=whole_number(2),
        default=3,
        metavar="D",
        help="levels below the root (default 3)",
    )
    shape.add_argument(
        "--ragged", action="store_true", help="up to B children and D levels, varying"
    )
    shape.add_argument("--chance", action="store_true", help="chance nodes in place of MIN nodes")
    shape.add_argument(
        "--root",
        type=str.lower,
        choices=("max", "min"),
        default="max",
        help="the root's kind (default max)",
    )
    shape.add_argument(
        "--values",
        type=_values,
        default=(-9, 9),
        metavar="LOW,HIGH",
        help="range of the leaf values (default -9,9)",
    )
    level = p.add_argument_group("difficulty")
    level.add_argument(
        "--cutoffs",
        type=whole_number(0),
        default=None,
        metavar="K",
        help="at least K cut-offs (default 1; 0 with --chance)",
    )
    level.add_argument(
        "--deep", action="store_true", help="a deep cut-off, its bound set two or more levels up"
    )
    level.add_argument(
        "--ties",
        action="store_true",
        help="a cut-off that fires under one tie rule and not the other",
    )
    level.add_argument(
        "--strict",
        action="store_true",
        help="the tie rule: prune only when strictly beyond the bound (default: prune on equality)",
    )
    p.set_defaults(handler=run_worksheet)


def run_worksheet(args: argparse.Namespace) -> int:
    """Make the worksheet and write its files; print each path written."""
    low, high = args.values
    sheet = make_worksheet(
        count=args.count,
        seed=args.seed,
        branching=args.branching,
        depth=args.depth,
        ragged=args.ragged,
        chance=args.chance,
        root=args.root,
        low=low,
        high=high,
        cutoffs=args.cutoffs,
        deep=args.deep,
        ties=args.ties,
        strict=args.strict,
    )
    formats = [name for names in args.formats or [["pdf"]] for name in names]
    for path in write_worksheet(sheet, args.out, formats=formats):
        print(path)
    return 0
