"""DOT source for Graphviz, and SVG/PNG made from it by the ``dot`` program.

The DOT text is plain and stable (golden-tested), so it can be edited and rendered by
hand: ``dot -Tpdf tree.dot -o tree.pdf``. Graphviz lays the tree out with ``dot``
(children kept in input order). plies draws its PNGs without Graphviz
(:mod:`plies.draw._png`); :func:`render_dot` serves ``graphviz=True``.
"""

from __future__ import annotations

from plies.draw._look import COLORS, edge_look, node_look, visible
from plies.draw._state import Snapshot
from plies.errors import PliesError
from plies.trees import Tree

__all__ = ["GraphvizError", "render_dot", "to_dot", "with_dpi"]

FONT = "DejaVu Sans"
_SHAPES = {"max": "triangle", "min": "invtriangle", "chance": "circle", "leaf": "box"}


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


def to_dot(tree: Tree, snap: Snapshot | None = None, *, title: str | None = None) -> str:
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
    if title:
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
                fontcolor=quote(COLORS["pruned_text"]),
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
        lines.append(f"  n{node} [{_attrs(attrs)}];")
    for node in range(1, len(tree)):
        edge = edge_look(tree, node, snap)
        attrs = {}
        if edge.label:
            attrs["label"] = quote(" " + edge.label)
        if edge.pruned:
            attrs.update(
                style="dashed",
                color=quote(COLORS["pruned"]),
                fontcolor=quote(COLORS["pruned_text"]),
            )
        elif edge.pv:
            attrs.update(penwidth="3", color=quote(COLORS["pv"]))
        tail = f"  n{tree.parent[node]} -> n{node}"
        lines.append(f"{tail} [{_attrs(attrs)}];" if attrs else f"{tail};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def with_dpi(source: str, dpi: int) -> str:
    """DOT ``source`` drawn at ``dpi`` pixels per inch (a PNG's resolution)."""
    head, _, rest = source.partition("\n")
    return f"{head}\n  graph [dpi={int(dpi)}];\n{rest}"


def render_dot(source: str, fmt: str, *, dpi: int | None = None) -> bytes:
    """Render DOT ``source`` to ``svg`` or ``png`` bytes with the ``dot`` program;
    ``dpi`` sets a PNG's pixels per inch."""
    if dpi is not None and fmt == "png":
        source = with_dpi(source, dpi)
    try:
        import graphviz  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise GraphvizError(
            f"drawing {fmt.upper()} with Graphviz needs the graphviz package: "
            "pip install 'plies[draw]' "
            "(and the Graphviz programs: apt-get install graphviz)"
        ) from None
    try:
        data: bytes = graphviz.pipe("dot", fmt, source.encode("utf-8"))
    except graphviz.ExecutableNotFound:
        raise GraphvizError(
            f"drawing {fmt.upper()} with Graphviz needs its program 'dot': "
            "apt-get install graphviz (or see https://graphviz.org/download/)"
        ) from None
    except graphviz.CalledProcessError as exc:
        stderr = exc.stderr.decode("utf-8", "replace").strip() if exc.stderr else ""
        raise GraphvizError(f"Graphviz failed: {stderr or exc}") from None
    return data
