"""The tree in the terminal, before and after a search, as rich text.

Each node is one line under box-drawing guides. After a search every node shows its
value and its alpha/beta on entry and exit; pruned subtrees carry their reason and the
principal variation is highlighted. Colour comes from rich, which drops it when the
output is not a terminal. Deep trees keep only the last guides of each line, so a
chain 100,000 nodes deep prints in linear space.
"""

from __future__ import annotations

from rich.text import Text

from plies.trees._model import Number, Tree, format_number
from plies.trees._result import TreeResult

__all__ = ["render_tree"]

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
    on_pv = set(result.pv) if result is not None else set()
    out = Text()
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
        out.append(shown, style="dim")
        _node_line(out, tree, node, result, node in on_pv)
        out.append("\n")
        kids = children[node]
        for i in range(len(kids) - 1, -1, -1):
            stack.append((kids[i], below, i == len(kids) - 1))
    out.rstrip()
    return out


def _node_line(out: Text, tree: Tree, node: int, result: TreeResult | None, pv: bool) -> None:
    kind = tree.kind[node]
    label = tree.label[node]
    move = tree.move[node]
    prob = tree.probability[node]
    parent = tree.parent[node]
    head = ""
    if move is not None:
        head += f"{move} -> "
    if parent >= 0 and tree.kind[parent] == "chance" and prob is not None:
        head += f"p={prob:g} "
    if head:
        out.append(head, style="dim")
    if kind == "leaf":
        v = tree.value[node]
        assert v is not None
        text = f"{label}: {format_number(v)}" if label else format_number(v)
        out.append(text, style="bold green" if pv else "")
        if result is not None and tree.leaf_index[node] >= 0:
            out.append(f"  (leaf {tree.leaf_index[node] + 1})", style="dim")
    else:
        name = label if label else ("root" if node == 0 else "")
        out.append(f"{name} " if name else "", style="bold green" if pv else "bold")
        out.append(kind.upper(), style=_STYLE[kind])
        static = tree.static[node]
        if static is not None:
            out.append(f" e={format_number(static)}", style="blue")
    if result is None:
        return
    status = result.status[node]
    value = result.values[node]
    if value is not None and kind != "leaf":
        out.append(f"  v={format_number(value)}", style="bold green" if pv else "bold")
    if result.alpha_in[node] is not None and kind != "leaf":
        out.append(
            f"  α,β in {_window(result.alpha_in[node], result.beta_in[node])}"
            f" out {_window(result.alpha_out[node], result.beta_out[node])}",
            style="dim",
        )
    if status in ("evaluated", "visited"):
        if pv:
            out.append("  ◀ principal variation", style="bold green")
        return
    reason = result.reason(node)
    if status == "cutoff":
        cut = result.cut_at[node]
        out.append(f"  cut-off: {cut.inequality()}", style=_STATUS_STYLE[status])
    elif reason is not None:
        out.append(f"  ✂ {reason}", style=_STATUS_STYLE["pruned"])
    elif status == "pruned":
        out.append("  (pruned)", style=_STATUS_STYLE["pruned"])
    else:
        out.append(f"  ({status})", style=_STATUS_STYLE.get(status, ""))
    if pv:
        out.append("  ◀ principal variation", style="bold green")
