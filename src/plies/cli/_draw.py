"""The drawing options of ``plies tree``: ``--draw``, ``--format``, ``--before``,
``--steps``, ``--animate``, ``--trace-table``, and the size options ``--max-nodes``,
``--max-frames`` and ``--dpi``.

``plies.cli._tree`` calls :func:`add_arguments` when it builds its parser,
:func:`wants_drawing` to decide whether the search records its trace, and
:func:`draw` after the search (which runs every check before writing anything;
:func:`check` runs the ones that need only the tree, and can run before the
search). Every drawing takes every search option of
``plies tree`` into account, because it draws the result that command computed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from plies.cli._args import whole_number
from plies.draw import (
    DPI,
    FORMATS,
    MAX_FRAMES,
    DrawError,
    check_animation,
    check_nodes,
    check_png,
    check_steps,
    drawing_size,
    format_for,
    write,
    write_animation,
    write_steps,
    write_trace_table,
)
from plies.trees import Tree, TreeResult

__all__ = ["add_arguments", "check", "draw", "wants_drawing"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the drawing options to the ``plies tree`` parser."""
    group = parser.add_argument_group(
        "drawings",
        "draw the tree and its search for reports, slides and notebooks "
        "(png drawings and frames need resvg-py: pip install 'plies[draw]' or 'plies[web]'; "
        "gif animations need plies[draw]; no system program; everything else works on a bare "
        "install). Drawings too large to read are refused before any work",
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
        help="write one frame per step of the narration into DIR (step-000.svg, ...); DIR "
        "must be new, empty or hold only frames of an earlier run, which are replaced",
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
        "FILE.gif (needs plies[draw])",
    )
    group.add_argument(
        "--trace-table",
        metavar="FILE",
        help="write the printable trace table (step, node, event, alpha, beta, value, "
        "reason) as Markdown (.md) or CSV (.csv)",
    )
    group.add_argument(
        "--max-nodes",
        type=whole_number(1),
        metavar="N",
        help="draw trees of up to N nodes (default by format: 20,000 for svg, png, html, "
        "dot and frames; 500 for mmd). Fixed limits: tex up to 350 leaves (the widest page "
        "pdflatex makes), png up to 32,767 pixels a side and 25 million pixels (see --dpi)",
    )
    group.add_argument(
        "--max-frames",
        type=whole_number(1),
        default=MAX_FRAMES,
        metavar="N",
        help=f"write --steps and --animate of up to N frames (default: {MAX_FRAMES})",
    )
    group.add_argument(
        "--dpi",
        type=whole_number(1),
        default=DPI,
        metavar="N",
        help=f"pixels per inch of png drawings, png frames and gif (default: {DPI}, the "
        "svg's pixels one for one)",
    )


def wants_drawing(args: argparse.Namespace) -> bool:
    """Whether any drawing option was given (the search then records its trace).
    ``--format`` or ``--before`` alone count too, so that :func:`draw` can say what
    they are missing instead of ignoring them."""
    named = ("draw", "steps", "animate", "trace_table", "format")
    return bool(getattr(args, "before", False)) or any(
        getattr(args, name, None) is not None for name in named
    )


def _check_options(args: argparse.Namespace) -> None:
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


def check(tree: Tree, args: argparse.Namespace) -> None:
    """The checks that need only the tree: the options, and the size of every
    drawing asked for. Cheap; call it before the search so a tree too large to draw
    is refused within a second, before its search records a trace."""
    _check_options(args)
    max_nodes = args.max_nodes
    if args.draw is not None:
        check_nodes(tree, format_for(args.draw, args.format), max_nodes)
    if args.steps is not None or args.animate is not None:
        check_nodes(tree, "svg", max_nodes)
    for what in _pixel_pictures(args):  # the tree before the search: no larger than after
        check_png(*drawing_size(tree), args.dpi, what)


def _pixel_pictures(args: argparse.Namespace) -> list[str]:
    """The pictures made of pixels asked for: a PNG, PNG frames, a GIF's frames."""
    wanted = {
        "a PNG": args.draw is not None and format_for(args.draw, args.format) == "png",
        "a PNG frame": args.steps is not None and args.steps_format == "png",
        "a GIF frame": args.animate is not None and Path(args.animate).suffix.lower() == ".gif",
    }
    return [what for what, asked in wanted.items() if asked]


def _check_steps(result: TreeResult, args: argparse.Namespace) -> None:
    """The checks that need the search: the number of frames, the GIF's size and the
    frame directory."""
    sizes = {"max_frames": args.max_frames, "max_nodes": args.max_nodes, "dpi": args.dpi}
    if args.steps is not None:
        check_steps(result, Path(args.steps), fmt=args.steps_format, **sizes)
    if args.animate is not None:
        check_animation(result, gif=Path(args.animate).suffix.lower() == ".gif", **sizes)


def draw(tree: Tree, result: TreeResult | None, args: argparse.Namespace) -> None:
    """Write every drawing the options ask for and name each file on stderr. Every
    check runs before the first file is written."""
    check(tree, args)
    if result is None:
        if args.steps or args.animate or args.trace_table:
            raise DrawError("--steps, --animate and --trace-table need a search")
    else:
        _check_steps(result, args)
    written: list[str] = []
    if args.draw is not None:
        subject: Tree | TreeResult = tree if result is None or args.before else result
        path = write(
            args.draw,
            subject,
            format=args.format,
            before=args.before,
            max_nodes=args.max_nodes,
            dpi=args.dpi,
        )
        written.append(str(path))
    if result is not None:
        written += _write_steps(result, args)
    for name in written:
        print(f"wrote {name}", file=sys.stderr)


def _write_steps(result: TreeResult, args: argparse.Namespace) -> list[str]:
    """Write the frames, the animation and the trace table asked for; their names."""
    written = []
    if args.steps is not None:
        directory = Path(args.steps)
        paths = write_steps(
            result,
            directory,
            fmt=args.steps_format,
            max_frames=args.max_frames,
            max_nodes=args.max_nodes,
            dpi=args.dpi,
        )
        written.append(f"{directory}{os.sep} ({len(paths)} frames)")
    if args.animate is not None:
        path = write_animation(
            args.animate,
            result,
            max_frames=args.max_frames,
            max_nodes=args.max_nodes,
            dpi=args.dpi,
        )
        written.append(str(path))
    if args.trace_table is not None:
        written.append(str(write_trace_table(args.trace_table, result)))
    return written
