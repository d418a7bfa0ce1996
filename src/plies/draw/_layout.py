"""A fixed tree layout for the formats that place nodes themselves (TikZ, SVG, the
HTML stepper, step frames): leaves one slot apart left to right, each parent centred
over its first and last child, one row per depth. Every node gets its own column
range, so no two shapes or labels overlap, whatever the size of the tree; the drawing
just gets wider (100 leaves are 100 slots)."""

from __future__ import annotations

from plies.trees import Tree

__all__ = ["positions"]


def positions(tree: Tree) -> list[tuple[float, int]]:
    """``(x, row)`` of every node: ``x`` in leaf slots (0-based), ``row`` its depth."""
    n = len(tree)
    x = [0.0] * n
    for node in range(n - 1, -1, -1):  # children have larger ids than their parent
        kids = tree.children[node]
        if kids:
            x[node] = (x[kids[0]] + x[kids[-1]]) / 2
        else:
            x[node] = float(tree.leaf_index[node])
    return [(x[i], tree.depth[i]) for i in range(n)]
