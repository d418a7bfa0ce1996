"""The tree in the terminal, before and after a search, as rich text.

Each node is one line under box-drawing guides, with its name (:meth:`Tree.name`, as
narration and drawings name it). After a search every node shows its
value and its alpha/beta on entry and exit (MAX's view, as the drawings), evaluated
leaves their place in the evaluation order (``#k``, from 1, as the drawings) beside
their leaf number (``leaf n``, from 0 left to right, as JSON's ``evaluated``; see
:mod:`plies.trees`); pruned subtrees carry their reason and the principal
variation is highlighted. Colour comes from rich, which drops it when the
output is not a terminal. Deep trees keep only the last guides of each line, so a
chain 100,000 nodes deep prints in linear space.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.text import Text

from plies.trees._model import Number, Tree, format_number
from plies.trees._result import TreeResult

__all__ = ["iter_tree_lines", "plain_tree_lines", "render_tree"]

#: Deeper than this, a line shows ``[depth N]`` and only the last guides.
MAX_GUIDES = 24

_STYLE = {
    "max": "bold cyan",
    "min": "bold magenta",
    "chance": "bold yellow",
    "leaf": "",
}
_STATUS_STYLE = {
    "pruned": "red dim",
    "beyond-depth": "dim",
    "cutoff": "yellow",
    "static": "blue",
}


def _window(a: Number | None, b: Number | None) -> str:
    left = "?" if a is None else format_number(a)
    right = "?" if b is None else format_number(b)
    return f"[{left}, {right}]"


def render_tree(tree: Tree, result: TreeResult | None = None) -> Text:
    """The tree as rich text, one node per line; annotated with ``result`` if given."""
    return Text("\n").join(Text.assemble(*line) for line in iter_tree_lines(tree, result))


def plain_tree_lines(tree: Tree, result: TreeResult | None = None) -> Iterator[str]:
    """The lines of :func:`render_tree` as plain strings, for output that is not a
    terminal (100,000 lines take about a second; through rich, thirty)."""
    for line in iter_tree_lines(tree, result):
        yield "".join(text for text, _style in line)


def iter_tree_lines(
    tree: Tree, result: TreeResult | None = None
) -> Iterator[list[tuple[str, str]]]:
    """The lines of :func:`render_tree` one at a time, as ``(text, style)`` segments."""
    on_pv = set(result.pv) if result is not None else set()
    # Evaluation order of each evaluated leaf, shown as ``#k`` as the drawings show it.
    order: dict[int, int] = {}
    if result is not None:
        leaf_ids = tree.leaf_ids
        order = {leaf_ids[k]: number for number, k in enumerate(result.evaluated, 1)}
    children = tree.children
    # Explicit stack of (node, guides above it, whether it is the last child).
    stack: list[tuple[int, str, bool]] = [(0, "", True)]
    while stack:
        node, guides, last = stack.pop()
        depth = tree.depth[node]
        if node == 0:
            lead = ""
            below = ""
        else:
            lead = guides + ("└── " if last else "├── ")
            below = guides + ("    " if last else "│   ")
        shown = lead
        if depth > MAX_GUIDES:
            shown = f"[depth {depth}] …" + lead[-4 * MAX_GUIDES :]
            below = below[-4 * MAX_GUIDES :]
        line: list[tuple[str, str]] = [(shown, "dim")]
        _node_line(line, tree, node, result, node in on_pv, number=order.get(node))
        yield line
        kids = children[node]
        for i in range(len(kids) - 1, -1, -1):
            stack.append((kids[i], below, i == len(kids) - 1))


def _node_line(
    out: list[tuple[str, str]],
    tree: Tree,
    node: int,
    result: TreeResult | None,
    pv: bool,
    *,
    number: int | None,
) -> None:
    """Append the ``(text, style)`` segments of one node's line to ``out``: ``#k`` is
    a leaf's place in the evaluation order (from 1), ``leaf n`` its leaf number (from
    0, left to right in the input)."""
    kind = tree.kind[node]
    name = tree.name(node)
    move = tree.move[node]
    prob = tree.probability[node]
    parent = tree.parent[node]
    head = ""
    if move is not None:
        head += f"{move} -> "
    if parent >= 0 and tree.kind[parent] == "chance" and prob is not None:
        head += f"p={prob:g} "
    if head:
        out.append((head, "dim"))
    if kind == "leaf":
        v = tree.value[node]
        shown = "?" if v is None else format_number(v)  # a CS188 state without evaluation
        text = f"{name}: {shown}" if name else shown
        out.append((text, "bold green" if pv else ""))
        if number is not None:
            out.append((f"  #{number}", "bold" if pv else ""))
        if result is not None:
            out.append((f"  (leaf {tree.leaf_index[node]})", "dim"))
    else:
        out.append((f"{name} " if name else "", "bold green" if pv else "bold"))
        out.append((kind.upper(), _STYLE[kind]))
        static = tree.static[node]
        if static is not None:
            out.append((f" e={format_number(static)}", "blue"))
    if result is None:
        return
    status = result.status[node]
    value = result.values[node]
    if value is not None and kind != "leaf":
        out.append((f"  v={format_number(value)}", "bold green" if pv else "bold"))
    if result.alpha_in[node] is not None and kind != "leaf":
        out.append(
            (
                f"  α,β in {_window(result.alpha_in[node], result.beta_in[node])}"
                f" out {_window(result.alpha_out[node], result.beta_out[node])}",
                "dim",
            )
        )
    if status in ("evaluated", "visited"):
        if pv:
            out.append(("  ◀ principal variation", "bold green"))
        return
    reason = result.reason(node)
    if status == "cutoff":
        cut = result.cut_at[node]
        view = " in MIN's view" if result.options.algorithm == "negamax" and kind == "min" else ""
        out.append((f"  cut-off: {cut.inequality()}{view}", _STATUS_STYLE[status]))
    elif reason is not None:
        out.append((f"  ✂ {reason}", _STATUS_STYLE["pruned"]))
    elif status == "pruned":
        out.append(("  (pruned)", _STATUS_STYLE["pruned"]))
    else:
        out.append((f"  ({status})", _STATUS_STYLE.get(status, "")))
    if pv:
        out.append(("  ◀ principal variation", "bold green"))
