"""DOT source for Graphviz, and SVG/PNG made from it by the ``dot`` program.

The DOT text is plain and stable (golden-tested), so it can be edited and rendered by
hand: ``dot -Tpdf tree.dot -o tree.pdf``. Graphviz lays the tree out with ``dot``
(children kept in input order); step frames pin every node to the fixed layout of
:mod:`plies.draw._layout` instead (``neato -n2``), so nodes do not move between frames.
"""

from __future__ import annotations

import textwrap

from plies.draw._layout import positions
from plies.draw._look import COLORS, edge_look, node_look, visible
from plies.draw._state import Snapshot
from plies.errors import PliesError
from plies.trees import Tree

__all__ = [
    "GraphvizError",
    "canvas_points",
    "render_dot",
    "render_pngs",
    "to_dot",
    "with_dpi",
    "wrap_caption",
]

FONT = "DejaVu Sans"
_SHAPES = {"max": "triangle", "min": "invtriangle", "chance": "circle", "leaf": "box"}
#: Points per leaf slot and per row in pinned layouts.
SLOT_PT = 66
ROW_PT = 96
#: The caption of a pinned frame: lines, font size and height in points; the narrowest
#: frame, so that short trees still have room for the narration.
CAPTION_LINES = 3
CAPTION_FONT = 12
CAPTION_PT = CAPTION_LINES * 15 + 6
MIN_WIDTH_PT = 420


class GraphvizError(PliesError):
    """Graphviz (the Python package or the ``dot`` program) is missing or failed."""


def quote(text: str) -> str:
    """A DOT double-quoted string (escaped quotes and backslashes, ``\\n`` lines)."""
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{body}"'


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def html_label(inside: tuple[str, ...], beside: str, *, note_first: bool = False) -> str:
    """A Graphviz HTML-like label: the lines inside, and the note in small type last
    (first with ``note_first``, for the wide top of a MIN triangle).

    Keeping alpha/beta in the label (rather than in an ``xlabel``) lets Graphviz space
    the nodes around it, so notes never overlap at any tree size."""
    parts = [_html(line) for line in inside]
    if beside:
        note = f'<FONT POINT-SIZE="9">{_html(beside)}</FONT>'
        parts = [note, *parts] if note_first else [*parts, note]
    parts = [p for p in parts if p]
    if not parts:
        return '""'  # Graphviz rejects an empty HTML label
    return "<" + "<BR/>".join(parts) + ">"


def _attrs(pairs: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in pairs.items())


def to_dot(
    tree: Tree, snap: Snapshot | None = None, *, title: str | None = None, pinned: bool = False
) -> str:
    """DOT source of ``tree`` annotated with ``snap`` (None: before the search)."""
    lines = ["digraph plies {"]
    graph = {
        "ordering": "out",
        "nodesep": "0.3",
        "ranksep": "0.55",
        "forcelabels": "true",
        "fontname": quote(FONT),
        "bgcolor": "white",
        "splines": "line",
        "pad": "0.25",
    }
    if title and not pinned:
        graph["label"] = quote(visible(title))
        graph["labelloc"] = "t"
        graph["fontsize"] = "12"
    lines.append(f"  graph [{_attrs(graph)}];")
    lines.append(
        f"  node [fontname={quote(FONT)}, fontsize=11, style=filled, "
        f'penwidth=1.2, color="{COLORS["line"]}", margin="0.04,0.02"];'
    )
    lines.append(
        f'  edge [arrowhead=none, color="{COLORS["line"]}", fontname={quote(FONT)}, fontsize=9];'
    )
    where = positions(tree) if pinned else None
    for node in range(len(tree)):
        look = node_look(tree, node, snap)
        attrs = {
            "shape": _SHAPES[look.shape],
            "label": html_label(look.inside, look.beside, note_first=look.shape == "min"),
            "fillcolor": quote(COLORS[look.shape]),
        }
        if look.shape in ("max", "min"):
            # The triangle keeps its size; the label may reach past its corners, and
            # Graphviz still spaces nodes by the label, so nothing overlaps.
            attrs.update(fixedsize="shape", width="1", height="0.9")
        elif look.shape == "chance":
            # Likewise a chance circle: sized to its notes it grew over its edges.
            attrs.update(fixedsize="shape", width="0.95", height="0.95")
        elif look.shape == "leaf":
            attrs.update(width="0.55", height="0.4")
        if look.state == "pruned":
            attrs.update(
                style='"filled,dashed"',
                color=quote(COLORS["pruned"]),
                fontcolor=quote(COLORS["pruned"]),
                fillcolor='"#f7f7f7"',
            )
        elif look.state == "pv":
            attrs.update(penwidth="3", color=quote(COLORS["pv"]))
        elif look.state == "current":
            attrs.update(penwidth="3.5", color=quote(COLORS["current"]))
        elif look.state == "open":
            attrs.update(penwidth="2.2", color=quote(COLORS["current"]))
        elif look.state == "unseen":
            attrs.update(fillcolor=quote(COLORS["unseen"]), fontcolor='"#555555"')
        if look.cutoff:
            attrs["peripheries"] = "2"
        rows = tree.pictures.get(node)
        if rows:  # a game's board beside the node (Graphviz places it clear of the rest)
            board = "<BR/>".join(_html(visible(row)) for row in rows)
            attrs["xlabel"] = f'<<FONT FACE="DejaVu Sans Mono" POINT-SIZE="8">{board}</FONT>>'
        if where is not None:
            x, row = where[node]
            attrs["pos"] = quote(f"{x * SLOT_PT:g},{-row * ROW_PT:g}!")
        lines.append(f"  n{node} [{_attrs(attrs)}];")
    for node in range(1, len(tree)):
        edge = edge_look(tree, node, snap)
        attrs = {}
        if edge.label and where is not None:
            lines.append(_pinned_label(tree, node, edge.label, where, pruned=edge.pruned))
        elif edge.label:
            attrs["label"] = quote(" " + edge.label)
        if edge.pruned:
            attrs.update(
                style="dashed", color=quote(COLORS["pruned"]), fontcolor=quote(COLORS["pruned"])
            )
        elif edge.pv:
            attrs.update(penwidth="3", color=quote(COLORS["pv"]))
        tail = f"  n{tree.parent[node]} -> n{node}"
        lines.append(f"{tail} [{_attrs(attrs)}];" if attrs else f"{tail};")
    if where is not None:
        lines += _canvas(tree, title or "")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _pinned_label(
    tree: Tree, node: int, label: str, where: list[tuple[float, int]], *, pruned: bool
) -> str:
    """An edge label of a pinned frame as a text node of its own, above the middle
    of the edge on its outer side, like plies' own SVG: Graphviz puts a pinned edge's
    label on the middle of the line, where the other lines of a pruned fan cross it."""
    px, prow = where[tree.parent[node]]
    cx, crow = where[node]
    mx, my = (px + cx) / 2 * SLOT_PT, -(prow + crow) / 2 * ROW_PT
    half = 0.3 * 9 * len(label)  # about half the width of 9 pt type
    x = mx - 5 - half if cx < px else mx + 5 + half
    color = quote(COLORS["pruned"] if pruned else "#555555")
    return (
        f"  l{node} [shape=plaintext, label={quote(label)}, fontsize=9, fontcolor={color}, "
        f'style="", width=0, height=0, margin=0, pos="{x:g},{my + 7:g}!"];'
    )


def _canvas(tree: Tree, caption: str) -> list[str]:
    """For pinned frames: the caption in a box of fixed size above the tree, and two
    invisible corner points, so every frame has the same canvas whatever its caption
    says (a graph label made the width follow the caption's length)."""
    left, right, bottom, top = _corners(tree)
    width = right - left
    chars = max(20, int(width / (CAPTION_FONT * 0.56)))
    lines = wrap_caption(caption, chars, CAPTION_LINES)
    text = "".join(_dot_text(line) + "\\l" for line in lines)
    return [
        f"  caption [shape=plaintext, style=filled, fillcolor=white, color=white, "
        f"fixedsize=true, width={width / 72:.3f}, "
        f'height={CAPTION_PT / 72:.3f}, fontsize={CAPTION_FONT}, label="{text}", '
        f'labeljust=l, pos="{(left + right) / 2:g},{top - CAPTION_PT / 2:g}!"];',
        f'  corner0 [shape=point, style=invis, width=0.01, pos="{left:g},{bottom:g}!"];',
        f'  corner1 [shape=point, style=invis, width=0.01, pos="{right:g},{top:g}!"];',
    ]


def _corners(tree: Tree) -> tuple[float, float, float, float]:
    """Left, right, bottom and top of a pinned frame, in points."""
    left = -0.9 * SLOT_PT
    right = max((tree.leaf_count - 1 + 0.9) * SLOT_PT, left + MIN_WIDTH_PT)
    top = 0.45 * 72 + CAPTION_PT + 8
    bottom = -tree.height * ROW_PT - 0.45 * 72 - 14
    return left, right, bottom, top


def canvas_points(tree: Tree) -> tuple[float, float]:
    """Width and height in points of every pinned frame of ``tree``."""
    left, right, bottom, top = _corners(tree)
    return right - left, top - bottom


def wrap_caption(text: str, width: int, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` characters (the last one cut
    with an ellipsis when it does not fit), padded with empty lines to ``lines``."""
    wrapped = textwrap.wrap(visible(text), width) or [""]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1][: width - 1].rstrip() + "…"
    return wrapped + [""] * (lines - len(wrapped))


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def with_dpi(source: str, dpi: int) -> str:
    """DOT ``source`` drawn at ``dpi`` pixels per inch (a PNG's resolution)."""
    head, _, rest = source.partition("\n")
    return f"{head}\n  graph [dpi={int(dpi)}];\n{rest}"


#: The end of a PNG file: its IEND chunk and that chunk's CRC.
_PNG_END = b"IEND\xaeB`\x82"


def render_pngs(sources: list[str], *, dpi: int) -> list[bytes]:
    """Several pinned graphs as PNGs in one Graphviz run (a run per frame spent more
    time starting Graphviz than drawing: 97 against 41 ms a frame of 100 leaves)."""
    data = render_dot("".join(with_dpi(s, dpi) for s in sources), "png", pinned=True)
    pngs = [part + _PNG_END for part in data.split(_PNG_END)[:-1]]
    if len(pngs) != len(sources):
        raise GraphvizError(f"Graphviz drew {len(pngs)} of {len(sources)} frames")
    return pngs


def render_dot(source: str, fmt: str, *, pinned: bool = False, dpi: int | None = None) -> bytes:
    """Render DOT ``source`` to ``svg`` or ``png`` bytes with the ``dot`` program
    (``neato -n2`` when ``pinned``); ``dpi`` sets a PNG's pixels per inch."""
    if dpi is not None and fmt == "png":
        source = with_dpi(source, dpi)
    try:
        import graphviz  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise GraphvizError(
            f"drawing {fmt.upper()} needs the graphviz package: pip install 'plies[draw]' "
            "(and the Graphviz programs: apt-get install graphviz)"
        ) from None
    engine = "neato" if pinned else "dot"
    try:
        data: bytes = graphviz.pipe(
            engine, fmt, source.encode("utf-8"), neato_no_op=2 if pinned else None
        )
    except graphviz.ExecutableNotFound:
        raise GraphvizError(
            f"drawing {fmt.upper()} needs the Graphviz program '{engine}': "
            "apt-get install graphviz (or see https://graphviz.org/download/)"
        ) from None
    except graphviz.CalledProcessError as exc:
        stderr = exc.stderr.decode("utf-8", "replace").strip() if exc.stderr else ""
        raise GraphvizError(f"Graphviz failed: {stderr or exc}") from None
    return data
