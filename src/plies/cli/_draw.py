"""The drawing options of ``plies tree``: ``--draw``, ``--format``, ``--before``,
``--steps``, ``--animate`` and ``--trace-table``.

``plies.cli._tree`` calls :func:`add_arguments` when it builds its parser,
:func:`wants_drawing` to decide whether the search records its trace, and
:func:`draw` after the search. Every drawing takes every search option of
``plies tree`` into account, because it draws the result that command computed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from plies.draw import (
    FORMATS,
    DrawError,
    format_for,
    trace_csv,
    trace_markdown,
    write,
    write_animation,
    write_steps,
)
from plies.trees import Tree, TreeResult

__all__ = ["add_arguments", "draw", "wants_drawing"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the drawing options to the ``plies tree`` parser."""
    group = parser.add_argument_group(
        "drawings",
        "draw the tree and its search for reports, slides and notebooks "
        "(svg and png need Graphviz: pip install 'plies[draw]' and apt-get install graphviz)",
    )
    group.add_argument(
        "--draw",
        metavar="FILE",
        help="write a drawing of the search; the format comes from the extension "
        "(.svg .png .dot .tex .mmd .html) or --format",
    )
    group.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="the format of --draw: svg, png, dot, tex (TikZ), mmd (Mermaid) or html "
        "(a self-contained page that steps through the search)",
    )
    group.add_argument(
        "--before",
        action="store_true",
        help="draw the tree as given, with no search annotations",
    )
    group.add_argument(
        "--steps",
        metavar="DIR",
        help="write one frame per step of the narration into DIR (step-000.svg, ...)",
    )
    group.add_argument(
        "--steps-format",
        choices=("svg", "png"),
        default="svg",
        help="the format of the --steps frames (default: svg)",
    )
    group.add_argument(
        "--animate",
        metavar="FILE",
        help="write the steps as one animation: FILE.svg (plays in a browser) or "
        "FILE.gif (needs Pillow)",
    )
    group.add_argument(
        "--trace-table",
        metavar="FILE",
        help="write the printable trace table (step, node, event, alpha, beta, value, "
        "reason) as Markdown (.md) or CSV (.csv)",
    )


def wants_drawing(args: argparse.Namespace) -> bool:
    """Whether any drawing option was given (the search then records its trace).
    ``--format`` or ``--before`` alone count too, so that :func:`draw` can say what
    they are missing instead of ignoring them."""
    named = ("draw", "steps", "animate", "trace_table", "format")
    return bool(getattr(args, "before", False)) or any(
        getattr(args, name, None) is not None for name in named
    )


def _check(args: argparse.Namespace) -> None:
    """Refuse bad combinations before anything is written."""
    if args.draw is not None:
        format_for(args.draw, args.format)
    elif args.format is not None:
        raise DrawError("--format sets the format of --draw FILE; give --draw too")
    if args.before and args.draw is None:
        raise DrawError("--before draws the tree without the search: give --draw FILE too")
    if args.animate is not None and Path(args.animate).suffix.lower() not in (".svg", ".gif"):
        raise DrawError(f"--animate writes .svg or .gif, not '{args.animate}'")
    if args.trace_table is not None and Path(args.trace_table).suffix.lower() not in (
        ".md",
        ".csv",
    ):
        raise DrawError(f"--trace-table writes .md or .csv, not '{args.trace_table}'")


def draw(tree: Tree, result: TreeResult | None, args: argparse.Namespace) -> None:
    """Write every drawing the options ask for and name each file on stderr."""
    _check(args)
    written: list[str] = []
    if args.draw is not None:
        subject: Tree | TreeResult = tree if result is None or args.before else result
        written.append(str(write(args.draw, subject, format=args.format, before=args.before)))
    if result is None:
        if args.steps or args.animate or args.trace_table:
            raise DrawError("--steps, --animate and --trace-table need a search")
        return
    if args.steps is not None:
        paths = write_steps(result, Path(args.steps), fmt=args.steps_format)
        written.append(f"{args.steps}/ ({len(paths)} frames)")
    if args.animate is not None:
        written.append(str(write_animation(args.animate, result)))
    if args.trace_table is not None:
        path = Path(args.trace_table)
        text = trace_csv(result) if path.suffix.lower() == ".csv" else trace_markdown(result)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise DrawError(f"cannot write '{path}': {exc.strerror}") from None
        written.append(str(path))
    for name in written:
        print(f"wrote {name}", file=sys.stderr)
