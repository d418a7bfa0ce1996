"""Drawings of game trees and their searches, in the formats people put in documents.

Pass a :class:`~plies.trees.Tree` to draw it before any search, or a
:class:`~plies.trees.TreeResult` to draw the search: values, alpha/beta, dashed grey
pruned subtrees with the inequality that pruned them, the principal variation in bold
and the evaluation order of the leaves.

>>> from plies import draw, trees
>>> result = trees.alphabeta(trees.parse("[[3,12,8],[2,4,6],[14,5,2]]"))
>>> draw.to_mermaid(result).splitlines()[0]
'flowchart TD'
>>> import pathlib, tempfile
>>> draw.write(pathlib.Path(tempfile.mkdtemp()) / "aima.svg", result).name
'aima.svg'

Formats: ``svg`` (drawn by plies itself), ``png`` (plies' SVG rasterised by resvg:
``pip install 'plies[draw]'``, no system program), ``dot``, ``tex`` (TikZ), ``mmd``
(Mermaid) and ``html`` (a self-contained page that steps through the search). Only
``png``, PNG step frames and GIF animations need an extra (resvg-py, and Pillow for the
GIF); everything else is plain Python. Graphviz draws SVG and PNG only when asked
(``graphviz=True``). Every drawing checks its size before it starts
(:mod:`plies.draw._limits`).

Everything that plays a search step by step (the stepper, trace tables, frames,
animations, and :func:`iter_steps`, the JSON-ready steps a web page can serve) replays
the trace on one mutable snapshot, so memory grows with nodes + steps.

Trees and results show themselves in Jupyter through :func:`repr_svg` and
:func:`repr_html` (their ``_repr_svg_``/``_repr_html_`` call these).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from plies._arguments import need_bool, need_int, need_number, need_object, need_path, need_text

# The renderers' aliases differ from their module names, which stay importable (and
# patchable) as plies.draw._dot, plies.draw._tikz, ...
from plies.draw import _changes, _state, _steps, _trace
from plies.draw._chart import CHART_WIDTH, Panel, Series, chart_png, chart_size, chart_svg
from plies.draw._dot import GraphvizError, render_dot
from plies.draw._dot import to_dot as _dot_text
from plies.draw._errors import DrawError
from plies.draw._html import to_html as _html_page
from plies.draw._layout import positions as node_positions
from plies.draw._limits import DPI, MAX_FRAMES, check_graphviz, check_nodes, check_png
from plies.draw._mermaid import to_mermaid as _mermaid_text
from plies.draw._multi import multi_svg
from plies.draw._png import svg_to_png
from plies.draw._prune import lp_svg, select_finish_svg, select_svg
from plies.draw._state import Snapshot
from plies.draw._steps import check_animation, check_steps
from plies.draw._svg import size, to_svg_document
from plies.draw._tikz import to_tikz as _tikz_text
from plies.draw._trace import write_trace
from plies.errors import LimitError
from plies.trees import Tree, TreeResult

__all__ = [
    "CHART_WIDTH",
    "DPI",
    "FORMATS",
    "MAX_FRAMES",
    "DrawError",
    "GraphvizError",
    "Panel",
    "Series",
    "Snapshot",
    "animated_gif",
    "animated_svg",
    "chart_png",
    "chart_size",
    "chart_svg",
    "check_animation",
    "check_nodes",
    "check_png",
    "check_steps",
    "drawing_size",
    "final_snapshot",
    "format_for",
    "iter_steps",
    "lp_svg",
    "multi_svg",
    "node_positions",
    "render",
    "replay",
    "repr_html",
    "repr_svg",
    "select_finish_svg",
    "select_svg",
    "svg_to_png",
    "to_dot",
    "to_html",
    "to_mermaid",
    "to_png",
    "to_svg",
    "to_tikz",
    "trace_csv",
    "trace_markdown",
    "trace_rows",
    "write",
    "write_animation",
    "write_steps",
    "write_trace_table",
]

#: Drawing formats, by file extension.
FORMATS: tuple[str, ...] = ("svg", "png", "dot", "tex", "mmd", "html")
_ALIASES = {"gv": "dot", "tikz": "tex", "mermaid": "mmd", "htm": "html", "md": "mmd"}


Subject = Tree | TreeResult


def drawing_size(tree: Tree) -> tuple[int, int]:
    """Width and height in CSS pixels of the drawing of ``tree`` (what
    :func:`check_png` is asked about before a PNG is drawn)."""
    return size(tree)


# -- the checks of the arguments -----------------------------------------------------

#: How each drawing option is checked (before anything is drawn): a wrong type raises
#: ArgumentTypeError, a value out of range LimitError, both naming the option.
_OPTION_CHECKS: dict[str, Callable[[Any], object]] = {
    "before": lambda value: need_bool(value, "before"),
    "graphviz": lambda value: need_bool(value, "graphviz"),
    "max_nodes": lambda value: (
        value is None or need_int(value, "max_nodes", minimum=1, error=LimitError)
    ),
    "dpi": lambda value: need_int(value, "dpi", minimum=1, error=LimitError),
    "max_frames": lambda value: need_int(value, "max_frames", minimum=1, error=LimitError),
    "seconds": lambda value: need_number(value, "seconds", above=0, error=LimitError),
    "fmt": lambda value: need_text(value, "fmt"),
    "format": lambda value: value is None or need_text(value, "format"),
}


def _check_options(options: dict[str, Any]) -> None:
    """Check the drawing options given (see :data:`_OPTION_CHECKS`)."""
    for name, value in options.items():
        check = _OPTION_CHECKS.get(name)
        if check is not None:
            check(value)


F = TypeVar("F", bound=Callable[..., Any])


def _of_result(function: F) -> F:
    """``function(result, ...)`` with ``result`` (a :class:`TreeResult`) and the
    drawing options checked first: a wrong one is a PliesError, not an AttributeError
    deep inside."""

    @functools.wraps(function)
    def checked(result: Any, *args: Any, **options: Any) -> Any:
        need_object(result, TreeResult, "result")
        _check_options(options)
        return function(result, *args, **options)

    return checked  # type: ignore[return-value]


iter_steps = _of_result(_changes.result_steps)
final_snapshot = _of_result(_state.final_snapshot)
replay = _of_result(_state.replay)
animated_gif = _of_result(_steps.animated_gif)
animated_svg = _of_result(_steps.animated_svg)
trace_csv = _of_result(_trace.trace_csv)
trace_markdown = _of_result(_trace.trace_markdown)
trace_rows = _of_result(_trace.trace_rows)


def write_steps(
    result: TreeResult,
    directory: Path,
    *,
    fmt: str = "svg",
    max_frames: int = MAX_FRAMES,
    max_nodes: int | None = None,
    dpi: int = DPI,
) -> list[Path]:
    """Write one ``step-NNN.{fmt}`` per frame (``svg`` or ``png``) into ``directory``
    (made if missing) and return the paths in order.

    The directory must be new, empty or hold only frames of an earlier run
    (``step-*.svg``/``step-*.png``): those are removed first, so no stale frame is
    left behind; any other file makes it refuse, before anything is written."""
    need_object(result, TreeResult, "result")
    _check_options({"fmt": fmt, "max_frames": max_frames, "max_nodes": max_nodes, "dpi": dpi})
    return _steps.write_steps(
        result,
        need_path(directory, "directory"),
        fmt=fmt,
        max_frames=max_frames,
        max_nodes=max_nodes,
        dpi=dpi,
    )


def _split(subject: Subject, before: bool) -> tuple[Tree, Snapshot | None]:
    need_bool(before, "before")
    if isinstance(subject, TreeResult):
        return subject.tree, None if before else final_snapshot(subject)
    if isinstance(subject, Tree):
        return subject, None
    raise DrawError(f"can draw a Tree or a TreeResult, not {type(subject).__name__}")


def _tree(subject: Subject) -> Tree:
    return _split(subject, True)[0]


def to_dot(subject: Subject, *, before: bool = False, max_nodes: int | None = None) -> str:
    """DOT source for Graphviz (``before``: the tree without search annotations)."""
    _check_options({"before": before, "max_nodes": max_nodes})
    check_nodes(_tree(subject), "dot", max_nodes)
    return _dot_text(*_split(subject, before))


def to_svg(
    subject: Subject,
    *,
    before: bool = False,
    graphviz: bool = False,
    max_nodes: int | None = None,
) -> str:
    """SVG drawn by plies itself on its fixed layout (no dependency; the same picture
    as the HTML stepper, the animations and notebooks), or with ``graphviz`` by
    Graphviz's ``dot`` layout (needs the ``graphviz`` package and ``dot``)."""
    _check_options({"before": before, "graphviz": graphviz, "max_nodes": max_nodes})
    tree = _tree(subject)
    check_nodes(tree, "svg", max_nodes)
    if graphviz:
        check_graphviz(tree, DPI)
        return render_dot(_dot_text(*_split(subject, before)), "svg").decode("utf-8")
    return to_svg_document(*_split(subject, before))


def to_png(
    subject: Subject,
    *,
    before: bool = False,
    dpi: int = DPI,
    graphviz: bool = False,
    max_nodes: int | None = None,
) -> bytes:
    """PNG of plies' own SVG (:func:`to_svg`) at ``dpi`` pixels per inch (96: the
    SVG's pixels one for one), rasterised by resvg with the fonts plies ships (needs
    the ``resvg-py`` package, in ``plies[draw]`` and ``plies[web]``; no system
    program). With ``graphviz``, drawn by Graphviz's ``dot`` layout instead (needs the
    ``graphviz`` package and ``dot``)."""
    _check_options({"before": before, "dpi": dpi, "graphviz": graphviz, "max_nodes": max_nodes})
    tree = _tree(subject)
    check_nodes(tree, "png", max_nodes)
    snap = _split(subject, before)[1]
    if graphviz:
        check_graphviz(tree, dpi)
        return render_dot(_dot_text(tree, snap), "png", dpi=dpi)
    check_png(*size(tree, snap), dpi)
    return svg_to_png(to_svg_document(tree, snap), dpi=dpi)


def to_tikz(subject: Subject, *, before: bool = False, max_nodes: int | None = None) -> str:
    """A LaTeX document with a TikZ picture (tikz and geometry; see its header)."""
    _check_options({"before": before, "max_nodes": max_nodes})
    check_nodes(_tree(subject), "tex", max_nodes)
    return _tikz_text(*_split(subject, before))


def to_mermaid(subject: Subject, *, before: bool = False, max_nodes: int | None = None) -> str:
    """Mermaid flowchart text, for Markdown on GitHub and wikis."""
    _check_options({"before": before, "max_nodes": max_nodes})
    check_nodes(_tree(subject), "mmd", max_nodes)
    return _mermaid_text(*_split(subject, before))


def to_html(subject: Subject, *, before: bool = False, max_nodes: int | None = None) -> str:
    """A self-contained HTML page that steps through the search (offline, no server)."""
    _check_options({"before": before, "max_nodes": max_nodes})
    tree = _tree(subject)
    check_nodes(tree, "html", max_nodes)
    if isinstance(subject, TreeResult) and not before:
        return _html_page(tree, subject)
    return _html_page(tree, None)


def format_for(path: str | Path, format: str | None = None) -> str:
    """The drawing format named by ``format``, else by the extension of ``path``."""
    _check_options({"format": format})
    name = format if format is not None else need_path(path, "path").suffix.lstrip(".")
    name = _ALIASES.get(name.lower(), name.lower())
    if name not in FORMATS:
        shown = f"format {format!r}" if format is not None else f"the extension of '{path}'"
        raise DrawError(
            f"cannot tell the drawing format from {shown}: use one of "
            + ", ".join("." + f for f in FORMATS)
            + " or --format"
        )
    return name


def render(
    subject: Subject,
    format: str,
    *,
    before: bool = False,
    max_nodes: int | None = None,
    dpi: int = DPI,
) -> bytes:
    """The drawing in ``format`` (one of :data:`FORMATS`) as bytes. Sizes are checked
    first: see :mod:`plies.draw._limits` for the limits and what raises them."""
    need_text(format, "format")
    fmt = format_for("", format)
    if fmt == "png":
        return to_png(subject, before=before, dpi=dpi, max_nodes=max_nodes)
    makers = {"svg": to_svg, "dot": to_dot, "tex": to_tikz, "mmd": to_mermaid, "html": to_html}
    return makers[fmt](subject, before=before, max_nodes=max_nodes).encode("utf-8")


def _write_bytes(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise DrawError(f"cannot write '{path}': {exc.strerror}") from None


def write(
    path: str | Path,
    subject: Subject,
    *,
    format: str | None = None,
    before: bool = False,
    max_nodes: int | None = None,
    dpi: int = DPI,
) -> Path:
    """Draw ``subject`` into ``path``; the format comes from ``format`` or the
    extension. Returns the path written."""
    path = need_path(path, "path")
    fmt = format_for(path, format)
    _write_bytes(path, render(subject, fmt, before=before, max_nodes=max_nodes, dpi=dpi))
    return path


def write_animation(
    path: str | Path,
    result: TreeResult,
    *,
    max_frames: int = MAX_FRAMES,
    max_nodes: int | None = None,
    dpi: int = DPI,
) -> Path:
    """Write the search as an animation: ``.svg`` (SMIL, no dependency) or ``.gif``
    (needs Pillow and resvg-py: ``pip install 'plies[draw]'``)."""
    path = need_path(path, "path")
    need_object(result, TreeResult, "result")
    suffix = path.suffix.lower()
    if suffix == ".svg":
        data = animated_svg(result, max_frames=max_frames, max_nodes=max_nodes).encode("utf-8")
    elif suffix == ".gif":
        data = animated_gif(result, max_frames=max_frames, max_nodes=max_nodes, dpi=dpi)
    else:
        raise DrawError(f"an animation is .svg or .gif, not '{path}'")
    _write_bytes(path, data)
    return path


def write_trace_table(path: str | Path, result: TreeResult) -> Path:
    """Write the trace table to ``path``, Markdown (``.md``) or CSV (``.csv``), row
    by row: memory stays proportional to the tree, whatever the number of steps."""
    path = need_path(path, "path")
    need_object(result, TreeResult, "result")
    suffix = path.suffix.lower()
    if suffix not in (".md", ".csv"):
        raise DrawError(f"a trace table is .md or .csv, not '{path}'")
    if not result.events:
        raise DrawError("a trace table needs the event trace: search with trace=True")
    try:
        with path.open("w", encoding="utf-8", newline="") as out:
            write_trace(out, result, fmt=suffix[1:])
    except OSError as exc:
        raise DrawError(f"cannot write '{path}': {exc.strerror}") from None
    return path


# Jupyter ------------------------------------------------------------------------------


def repr_svg(subject: Subject) -> str:
    """What Jupyter shows for a tree or a result: SVG drawn by plies itself (no
    Graphviz needed), annotated for a result. A tree over the drawing limit shows a
    one-line note instead (a notebook must not stall drawing 100,000 nodes)."""
    tree, snap = _split(subject, False)
    try:
        check_nodes(tree, "svg", None)
    except LimitError as exc:
        from html import escape

        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="30">'
            f'<text x="4" y="20" font-family="sans-serif" font-size="13">'
            f"{escape(str(exc))}</text></svg>"
        )
    return to_svg_document(tree, snap)


def repr_html(subject: Subject) -> str:
    """Jupyter's HTML view of a result: the summary line above the drawing."""
    svg = repr_svg(subject)
    if isinstance(subject, TreeResult):
        from html import escape

        from plies.trees import format_number

        line = f"value {format_number(subject.value)}; {subject.summary()}"
        return f"<div><p>{escape(line)}</p>{svg}</div>"
    return f"<div>{svg}</div>"
