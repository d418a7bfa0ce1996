"""SVG drawn by plies itself on the fixed layout, with no Graphviz needed.

Used by the HTML stepper, the animated SVG and notebooks. Every node is a group
``<g id="n{id}" class="node {kind} {state}">`` and every edge a group
``<g id="e{id}" class="edge ...">`` (the edge into node ``id``), so a page can restyle
a step by changing classes and the text of ``.v`` (value) and ``.ab`` (alpha/beta or
evaluation number) elements. Colours live in one stylesheet (:data:`STYLE`).
"""

from __future__ import annotations

import html

from plies.draw._layout import positions
from plies.draw._look import COLORS, EdgeLook, NodeLook, edge_look, node_look
from plies.draw._state import Snapshot
from plies.trees import Tree

__all__ = [
    "STYLE",
    "edge_classes",
    "edge_svg",
    "layout",
    "node_classes",
    "node_svg",
    "size",
    "svg_body",
    "to_svg_document",
    "value_text",
]


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (xml.sax.saxutils's, without the 25 ms
    its import of urllib costs every command's start)."""
    return html.escape(text, quote=False)


SLOT = 76  # pixels per leaf slot
ROW = 104  # pixels per depth row
MARGIN = 30
HALF = 30  # half the width of a shape
TALL = 50  # height of a triangle
NOTE_ROOM = 17  # below a shape: the alpha/beta note; edges start under it
LABEL_CHAR = 6.2  # pixels per character of an edge label (10 px type), a safe guess
LABEL_AT = 0.65  # how far down its line (0: the parent, 1: the child) an edge label sits
PIC_LINE = 11  # pixels per row of a node's picture (10 px monospace)
PIC_CHAR = 7  # pixels per character of a picture row

STYLE = f"""
.node .shape {{ stroke: {COLORS["line"]}; stroke-width: 1.3; }}
.node.max .shape {{ fill: {COLORS["max"]}; }}
.node.min .shape {{ fill: {COLORS["min"]}; }}
.node.chance .shape {{ fill: {COLORS["chance"]}; }}
.node.leaf .shape {{ fill: {COLORS["leaf"]}; }}
.node text {{ font: 13px 'DejaVu Sans', Arial, sans-serif; text-anchor: middle; }}
.node.leaf text.t {{ font-size: 11px; }}
.node text.ab {{ font-size: 10px; fill: #333; stroke: white; stroke-width: 3px;
  paint-order: stroke; }}
.node.unseen .shape {{ fill: {COLORS["unseen"]}; stroke: #888; }}
.node.unseen text {{ fill: {COLORS["pruned_text"]}; }}
.node.open .shape {{ stroke: {COLORS["current"]}; stroke-width: 2.4; }}
.node.current .shape {{ stroke: {COLORS["current"]}; stroke-width: 4; fill: {COLORS["open"]}; }}
.node.pv .shape {{ stroke: {COLORS["pv"]}; stroke-width: 3.2; }}
.node.cut .shape {{ stroke: {COLORS["cut"]}; stroke-width: 2.2; }}
.node.pruned .shape {{ fill: #f7f7f7; stroke: {COLORS["pruned"]}; stroke-dasharray: 4 3; }}
.node.pruned text {{ fill: {COLORS["pruned_text"]}; }}
.edge line {{ stroke: {COLORS["line"]}; stroke-width: 1.2; }}
.edge text {{ font: 10px 'DejaVu Sans', Arial, sans-serif; fill: #555; stroke: white;
  stroke-width: 3px; paint-order: stroke; }}
.edge.pv line {{ stroke: {COLORS["pv"]}; stroke-width: 3.2; }}
.edge.pruned line {{ stroke: {COLORS["pruned"]}; stroke-dasharray: 5 4; }}
.edge.pruned text {{ fill: {COLORS["pruned_text"]}; }}
.node text.pic {{ font: 10px 'DejaVu Sans Mono', monospace; fill: #222; }}
.node.pruned text.pic {{ fill: {COLORS["pruned_text"]}; }}
"""


def node_classes(look: NodeLook) -> str:
    """The CSS classes of a node group."""
    return f"node {look.shape} {look.state}" + (" cut" if look.cutoff else "")


def edge_classes(look: EdgeLook) -> str:
    """The CSS classes of an edge group."""
    return "edge" + (" pruned" if look.pruned else "") + (" pv" if look.pv else "")


def _shape(kind: str, x: float, y: float) -> str:
    """The outline of a node whose top centre is (x, y)."""
    if kind == "max":
        pts = f"{x:g},{y:g} {x + HALF:g},{y + TALL:g} {x - HALF:g},{y + TALL:g}"
        return f'<polygon class="shape" points="{pts}"/>'
    if kind == "min":
        pts = f"{x - HALF:g},{y:g} {x + HALF:g},{y:g} {x:g},{y + TALL:g}"
        return f'<polygon class="shape" points="{pts}"/>'
    if kind == "chance":
        return f'<circle class="shape" cx="{x:g}" cy="{y + TALL / 2:g}" r="{TALL / 2:g}"/>'
    return (
        f'<rect class="shape" x="{x - HALF + 4:g}" y="{y + 6:g}" width="{2 * HALF - 8:g}" '
        f'height="{TALL - 12:g}"/>'
    )


def value_text(tree: Tree, node: int, look: NodeLook) -> str:
    """What the ``.v`` element of a node shows: its value (or leaf value), or nothing
    (the first line inside is the node's name, the ``.t`` element)."""
    return look.inside[-1] if len(look.inside) > 1 else ""


def _grid(tree: Tree) -> tuple[float, float, float]:
    """Pixels per leaf slot and per row, and the height of the tallest picture: slots
    and rows grow to make room for pictures under the nodes."""
    if not tree.pictures:
        return SLOT, ROW, 0
    tallest = max(map(len, tree.pictures.values())) * PIC_LINE + 4
    widest = max(len(row) for rows in tree.pictures.values() for row in rows)
    return max(SLOT, widest * PIC_CHAR + 16), ROW + tallest, tallest


def layout(tree: Tree) -> list[tuple[float, float]]:
    """The top centre ``(x, y)`` in pixels of every node on the fixed layout."""
    slot, row, _ = _grid(tree)
    return [(MARGIN + slot * (x + 0.5), MARGIN + row * depth) for x, depth in positions(tree)]


def _picture_height(tree: Tree, node: int) -> float:
    rows = tree.pictures.get(node)
    return len(rows) * PIC_LINE + 4 if rows else 0


def size(tree: Tree, snap: Snapshot | None = None) -> tuple[int, int]:
    """Width and height in pixels of the drawing of ``tree``, with room on the right
    for the edge labels of ``snap`` (pass the snapshot with the most labels: the end
    of the search)."""
    slot, row, tallest = _grid(tree)
    width = MARGIN * 2 + slot * tree.leaf_count
    where = layout(tree)
    for node in range(1, len(tree)):
        label = edge_look(tree, node, snap).label
        if label:
            px = where[tree.parent[node]][0]
            cx = where[node][0]
            if cx >= px:  # labels of lines going right (or down) extend to the right
                lx = px + (cx - px) * LABEL_AT
                width = max(width, round(lx + 7 + LABEL_CHAR * len(label)) + 8)
    return round(width), round(MARGIN * 2 + row * tree.height + TALL + 18 + tallest)


def edge_svg(
    tree: Tree,
    node: int,
    edge: EdgeLook,
    where: list[tuple[float, float]],
    *,
    ids: bool = True,
    notes: bool = True,
) -> str:
    """The group of the edge into ``node``: a line from below its parent's note to the
    top of ``node``, and its label beside the line, clear of it. Without ``ids`` (an
    animation draws a part once per state) the id is a ``data-id``."""
    parent = tree.parent[node]
    px, py = where[parent]
    cx, cy = where[node]
    # Start below the parent's alpha/beta note (``notes``) and picture, so lines never
    # cross them.
    y0 = py + TALL + (NOTE_ROOM if notes else 0) + _picture_height(tree, parent)
    y1 = cy + (6 if tree.kind[node] == "leaf" else 0)
    # Below half way (LABEL_AT), above and beside the line on its outer side (right of
    # a line going right or straight down, left of one going left): the line runs
    # below and away from the text, so it never crosses it, and the siblings' lines
    # are far enough apart there for the label of a line straight down to clear the
    # next one. The element is there even when empty: the stepper fills it in when a
    # cut-off labels the edge.
    mx, my = px + (cx - px) * LABEL_AT, y0 + (y1 - y0) * LABEL_AT
    anchor = ' text-anchor="end"' if cx < px else ""
    dx = -7 if cx < px else 7
    label = f'<text x="{mx + dx:g}" y="{my - 4:g}"{anchor}>{escape(edge.label)}</text>'
    gid = f' id="e{node}"' if ids else f' data-id="e{node}"'
    return (
        f'<g{gid} class="{edge_classes(edge)}">'
        f'<line x1="{px:g}" y1="{y0:g}" x2="{cx:g}" y2="{y1:g}"/>{label}</g>'
    )


def node_svg(
    tree: Tree, node: int, look: NodeLook, where: list[tuple[float, float]], *, ids: bool = True
) -> str:
    """The group of ``node``: its shape, name (``.t``), value (``.v``) and note
    (``.ab``: alpha/beta, or a leaf's evaluation number)."""
    x, y = where[node]
    title = escape(look.inside[0])
    value = escape(value_text(tree, node, look))
    # Baselines where the shape is wide enough: low in MAX, high in MIN.
    title_y, value_y = {
        "max": (y + 30, y + 45),
        "min": (y + 15, y + 29),
        "chance": (y + 20, y + 35),
        "leaf": (y + 22, y + 36),
    }[look.shape]
    if not title:
        value_y = {"max": y + 42, "min": y + 21}.get(look.shape, y + TALL / 2 + 5)
    texts = f'<text class="t" x="{x:g}" y="{title_y:g}">{title}</text>' if title else ""
    texts += f'<text class="v" x="{x:g}" y="{value_y:g}">{value}</text>'
    note_y = y + TALL + (10 if look.shape == "leaf" else 13)
    texts += f'<text class="ab" x="{x:g}" y="{note_y:g}">{escape(look.beside)}</text>'
    rows = tree.pictures.get(node)
    if rows:  # a game's board under the node, below its note
        top = y + TALL + NOTE_ROOM
        lines = "".join(
            f'<tspan x="{x:g}" y="{top + PIC_LINE * (k + 1) - 2:g}">{escape(r)}</tspan>'
            for k, r in enumerate(rows)
        )
        texts += f'<text class="pic">{lines}</text>'
    gid = f' id="n{node}"' if ids else f' data-id="n{node}"'
    return f'<g{gid} class="{node_classes(look)}">{_shape(look.shape, x, y)}{texts}</g>'


def svg_body(tree: Tree, snap: Snapshot | None) -> str:
    """The edges and nodes of one drawing, as SVG elements (no ``<svg>`` wrapper)."""
    where = layout(tree)
    notes = snap is not None
    out = [
        edge_svg(tree, i, edge_look(tree, i, snap), where, notes=notes) for i in range(1, len(tree))
    ]
    out += [node_svg(tree, i, node_look(tree, i, snap), where) for i in range(len(tree))]
    return "\n".join(out)


def to_svg_document(tree: Tree, snap: Snapshot | None) -> str:
    """A standalone SVG document of ``tree`` annotated with ``snap``."""
    width, height = size(tree, snap)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n<style>{STYLE}</style>\n'
        f'<rect width="100%" height="100%" fill="white"/>\n{svg_body(tree, snap)}\n</svg>\n'
    )
