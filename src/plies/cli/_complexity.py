"""``plies complexity``: leaves and nodes of minimax and alpha-beta as a uniform tree
deepens, under best, static, random and worst move ordering, beside b^d, the
Knuth-Moore minimum and b^(3d/4); as tables, JSON lines, CSV, SVG or PNG."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.table import Table

from plies.cli._args import whole_number
from plies.cli._console import output_console
from plies.errors import PliesError
from plies.lab import (
    COMPLEXITY_ORDERS,
    DEFAULT_NOISE,
    MAX_COMPLEXITY_LEAVES,
    Complexity,
    ComplexityOptions,
    Measurement,
    complexity_png,
    complexity_svg,
    measure_complexity,
)

__all__ = ["register", "run_complexity"]

_EPILOG = f"""\
examples:
  plies complexity --branching 3 --depths 1-6
  plies complexity --branching 2 --depths 1-10 --seeds 50 --out complexity.svg
  plies complexity --branching 4 --depths 2-6 --json

Orderings: best (best move first for the node's player, by minimax values), static (by a
noisy static evaluation: the child's minimax value plus Gaussian noise of standard
deviation NOISE x the leaf range), random (the tree as generated), worst. Spread: the
minimum and maximum over the seeds (and, in --json and CSV, the population standard
deviation). The deepest tree may have at most {MAX_COMPLEXITY_LEAVES:,} leaves.
"""


def register(subparsers: Any) -> None:
    """Add the ``complexity`` subcommand."""
    p = subparsers.add_parser(
        "complexity",
        help="leaves and nodes of minimax and alpha-beta by depth and move ordering",
        description="Measure leaves evaluated and nodes visited by minimax and alpha-beta "
        "on random uniform trees (distinct leaves) over a range of depths, under best, "
        "static, random and worst move ordering, averaged over seeds, beside b^d, the "
        "Knuth-Moore minimum b^ceil(d/2) + b^floor(d/2) - 1 and b^(3d/4), with the "
        "effective branching factor leaves^(1/d).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--branching", type=whole_number(), default=3, help="b (default 3)")
    p.add_argument("--depths", default="1-6", metavar="FIRST-LAST", help="the depths (default 1-6)")
    p.add_argument(
        "--seeds", type=whole_number(), default=10, metavar="N", help="trees a depth (default 10)"
    )
    p.add_argument("--seed", type=whole_number(), default=0, help="the first seed (default 0)")
    p.add_argument(
        "--noise",
        type=_number,
        default=DEFAULT_NOISE,
        help="the static evaluation's noise, a fraction of the leaf range "
        f"(default {DEFAULT_NOISE})",
    )
    p.add_argument(
        "--out", metavar="FILE", help="also write the chart (.svg, .png) or the table (.csv)"
    )
    p.add_argument(
        "--dpi", type=whole_number(minimum=24, maximum=600), default=192, help="of a PNG (192)"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a line: algorithm, order, depth, leaves, nodes (means), the "
        "spread (_min, _max, _std), seeds, references and ebf",
    )
    p.set_defaults(handler=run_complexity)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text[:40]!r}") from None


def run_complexity(args: argparse.Namespace) -> int:
    """Handler of ``plies complexity``."""
    writer = _writer(args.out, args.dpi) if args.out else None
    options = ComplexityOptions.of(
        branching=args.branching,
        depths=args.depths,
        seeds=args.seeds,
        seed=args.seed,
        noise=args.noise,
    )
    result = measure_complexity(options)
    if writer is not None:  # first, so a file that cannot be written prints no table
        path = Path(args.out)
        try:
            path.write_bytes(writer(result))
        except OSError as exc:
            raise PliesError(f"cannot write {path}: {exc.strerror or exc}") from None
    if args.json:
        for record in result.records():
            print(json.dumps(record))
    else:
        _print_tables(result)
    if writer is not None:
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


def _writer(out: str, dpi: int) -> Callable[[Complexity], bytes]:
    """How to make the bytes of ``out``, by its extension (checked before measuring)."""
    writers: dict[str, Callable[[Complexity], bytes]] = {
        ".svg": lambda r: complexity_svg(r).encode(),
        ".png": lambda r: complexity_png(r, dpi=dpi),
        ".csv": lambda r: r.csv().encode(),
    }
    suffix = Path(out).suffix.lower()
    if suffix not in writers:
        raise PliesError(f"--out {out}: write .svg, .png or .csv, not {suffix or 'no extension'}")
    return writers[suffix]


def _print_tables(result: Complexity) -> None:
    o = result.options
    trees = f"{o.seeds} tree{'s' if o.seeds > 1 else ''}"
    table = Table(
        title=f"Branching {o.branching}: mean (min-max) over {trees} a depth",
        title_justify="left",
    )
    for name in ("d", "search", "leaves", "min-max", "nodes", "min-max", "leaves^(1/d)"):
        table.add_column(name, justify="left" if name == "search" else "right")
    for depth in o.depths:
        first = result.row("minimax", "random", depth)
        references = (
            ("b^d", first.b_pow_d),
            ("Knuth-Moore minimum", first.knuth_moore),
            ("b^(3d/4)", first.b_pow_3d_4),
        )
        for k, (name, leaves) in enumerate(references):
            text = f"{leaves:,}" if isinstance(leaves, int) else f"{leaves:,.1f}"
            ebf = f"{leaves ** (1 / depth):.2f}"
            table.add_row(str(depth) if k == 0 else "", name, text, "", "", "", ebf, style="dim")
        rows = [first] + [result.row("alphabeta", order, depth) for order in COMPLEXITY_ORDERS]
        for row in rows:
            name = "minimax" if row.algorithm == "minimax" else f"alpha-beta {row.order}"
            table.add_row(
                "",
                name,
                *_cells(row, "leaves"),
                *_cells(row, "nodes"),
                f"{row.effective_branching:.2f}",
                end_section=row is rows[-1],
            )
    output_console().print(table)


def _cells(row: Measurement, what: str) -> tuple[str, str]:
    """The mean of ``what`` and its range over the seeds (empty when all were equal)."""
    mean = getattr(row, what)
    low, high = getattr(row, f"{what}_min"), getattr(row, f"{what}_max")
    text = f"{mean:,.0f}" if mean == int(mean) else f"{mean:,.1f}"
    return text, "" if low == high else f"{low:,}-{high:,}"
