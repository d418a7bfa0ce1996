"""The textbook conventions, once for every format: what each node and edge shows.

MAX is an upward triangle, MIN a downward one, chance a circle, a leaf a box with its
value. Inside a shape: the node's name (:meth:`~plies.trees.Tree.name`: its label, else
``A``, ``B``, ... for inner nodes and ``B1``, ``B2``, ... for leaves, as narration and
feedback name it) and its value.
Beside it: alpha and beta (inner nodes, after the static value ``e=`` when the
node has one) or the evaluation number ``#k`` (leaves: the k-th leaf evaluated; ``#k``
means that in every format, never the leaf's place in the input). Edges into
pruned subtrees are dashed and grey, and the last (outermost) edge a cut-off pruned
carries the inequality that pruned it. The principal variation is bold.
"""

from __future__ import annotations

from dataclasses import dataclass

from plies.draw._state import Snapshot, nice
from plies.trees import Tree

__all__ = ["COLORS", "EdgeLook", "NodeLook", "edge_look", "node_look", "visible"]

#: Control characters break Graphviz, XML (SVG, HTML), TeX and Mermaid alike. The
#: parser refuses them in labels, but the API can build such trees, so every drawing
#: shows them as Unicode control pictures (U+0001 as ␁), and characters no format can
#: carry (C1 controls, lone surrogates, U+FFFE, U+FFFF) as the replacement character.
_PICTURES = {c: chr(0x2400 + c) for c in range(32)} | {0x7F: "\u2421"}
_UNSAFE = {c: "\ufffd" for c in range(0x80, 0xA0)} | {0xFFFE: "\ufffd", 0xFFFF: "\ufffd"}
_VISIBLE = str.maketrans(_PICTURES | _UNSAFE)

#: Fill colours by kind, and the colours of states. Kept light so text stays readable
#: in print and in greyscale. The principal variation (bluish green) and cut-off nodes
#: (vermillion) are a pair of the Okabe-Ito palette, told apart with any colour vision;
#: they differ in line width too.
COLORS = {
    "max": "#dbe8f7",
    "min": "#f7dede",
    "chance": "#fff2c2",
    "leaf": "#ffffff",
    "line": "#222222",
    "pruned": "#a0a0a0",
    # Text in pruned and unseen parts: greyed, still 4.5:1 or more on their fills (5.4:1
    # on #f7f7f7; the lines' grey would be 2.4:1, too faint for the pruning reason).
    "pruned_text": "#666666",
    "pv": "#007a5a",
    "cut": "#d55e00",
    "current": "#e8710a",
    "open": "#fff7d6",
    "unseen": "#f4f4f4",
}


def visible(text: str) -> str:
    """``text`` with control characters shown as control pictures (``a\\x01b`` as
    ``a␁b``) and characters no drawing can carry as ``�``."""
    if text.isprintable():
        return text  # the common case, and fast
    text = text.translate(_VISIBLE)
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        text = "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)
    return text


@dataclass(frozen=True, slots=True)
class NodeLook:
    """How one node is drawn: ``shape`` is ``max``/``min``/``chance``/``leaf``;
    ``inside`` the lines in the shape, the node's name first; ``beside`` the note
    next to it (may be empty); ``state`` one of ``plain``, ``pruned``, ``pv``,
    ``current``, ``open``, ``unseen``."""

    shape: str
    inside: tuple[str, ...]
    beside: str
    state: str
    cutoff: bool


@dataclass(frozen=True, slots=True)
class EdgeLook:
    """How the edge into a node is drawn: ``label`` (probability, move or the pruning
    inequality), ``pruned`` (dashed grey) and ``pv`` (bold)."""

    label: str
    pruned: bool
    pv: bool


def node_look(tree: Tree, node: int, snap: Snapshot | None) -> NodeLook:
    """The look of ``node``; ``snap`` None draws the tree before any search."""
    kind = tree.kind[node]
    inside = [visible(tree.name(node))]
    beside = ""
    state = "plain"
    cutoff = False
    if kind == "leaf":
        inside.append(nice(tree.value[node]))
    elif snap is None and tree.static[node] is not None:
        inside.append(f"e={nice(tree.static[node])}")
    if snap is not None:
        status = snap.status[node]
        cutoff = status == "cutoff"
        if kind == "leaf":
            if snap.order[node]:
                beside = f"#{snap.order[node]}"
        else:
            value = snap.value[node]
            if value is not None:
                inside.append(nice(value))
            if snap.alpha[node] is not None and status not in ("pruned", "beyond-depth"):
                beside = f"α={nice(snap.alpha[node])} β={nice(snap.beta[node])}"
            if tree.static[node] is not None:  # the static value stays in sight
                beside = f"e={nice(tree.static[node])} {beside}".rstrip()
        if status in ("pruned", "beyond-depth"):
            state = "pruned"
        elif node == snap.current:
            state = "current"
        elif node in snap.pv:
            state = "pv"
        elif status == "open":
            state = "open"
        elif status == "unseen":
            state = "unseen"
    return NodeLook(kind, tuple(inside), beside, state, cutoff)


def edge_look(tree: Tree, node: int, snap: Snapshot | None) -> EdgeLook:
    """The look of the edge from ``node``'s parent to ``node`` (not for the root)."""
    parent = tree.parent[node]
    parts: list[str] = []
    move = tree.move[node]
    if move is not None:
        parts.append(visible(move))
    if tree.kind[parent] == "chance" and tree.probability[node] is not None:
        parts.append(f"p={nice(tree.probability[node])}")
    pruned = False
    pv = False
    if snap is not None:
        pruned = snap.status[node] in ("pruned", "beyond-depth")
        reason = snap.reason[node]
        if reason is not None:
            parts.append(reason)
        pv = node in snap.pv and parent in snap.pv
    return EdgeLook(" ".join(parts), pruned, pv)
