"""SVG drawings of N-player trees (:class:`~plies.trees.MultiTree`) and their searches.

The fixed layout of the two-player drawings (leaves one slot apart, each parent over
its children, a row per depth), with a circle per inner node filled with its player's
colour and the player's number inside, and a box per leaf holding its vector. After
a search: each node's backed-up value under it (a vector for max^n, the root player's
utility for paranoid and BRS), ``#k`` under the k-th leaf evaluated, the principal
line in bold, pruned subtrees dashed and grey with the inequality beside the cut-off
node, and what Best-Reply Search never looks at faded.

>>> from plies.trees import paranoid, random_multi_tree
>>> svg = multi_svg(paranoid(random_multi_tree(seed=5)))
>>> svg.startswith("<svg") and 'class="edge pruned"' in svg
True
"""

from __future__ import annotations

import html

from plies.draw._look import COLORS
from plies.trees import MultiResult, MultiTree, format_number, format_vector

__all__ = ["PLAYER_COLORS", "multi_svg"]

#: Fill colours of players 0, 1, 2, ... (light tints of the Okabe-Ito palette, so the
#: text stays readable), repeated for more players.
PLAYER_COLORS = ("#dbe8f7", "#f7dede", "#dff2e3", "#fff2c2", "#eadff5", "#e0f4f7")

ROW = 96  # pixels per depth row
MARGIN = 30
RADIUS = 20  # of an inner node's circle
BOX = 26  # height of a leaf's box
CHAR = 7.2  # pixels per character of 12 px text, a safe guess

_STYLE = f"""
text {{ font: 12px 'DejaVu Sans', Arial, sans-serif; text-anchor: middle; }}
text.note {{ font-size: 10px; fill: #333; }}
text.cut {{ font-size: 10px; fill: {COLORS["cut"]}; text-anchor: start; }}
.shape {{ stroke: {COLORS["line"]}; stroke-width: 1.3; }}
.edge {{ stroke: {COLORS["line"]}; stroke-width: 1.2; }}
.pv .shape, .edge.pv {{ stroke: {COLORS["pv"]}; stroke-width: 3; }}
.cutoff .shape {{ stroke: {COLORS["cut"]}; stroke-width: 2.2; }}
.pruned .shape {{ fill: #f7f7f7; stroke: {COLORS["pruned"]}; stroke-dasharray: 4 3; }}
.edge.pruned {{ stroke: {COLORS["pruned"]}; stroke-dasharray: 5 4; }}
.pruned text, .unseen text {{ fill: {COLORS["pruned_text"]}; }}
.unseen .shape {{ fill: {COLORS["unseen"]}; stroke: #aaa; }}
.edge.unseen {{ stroke: #bbb; }}
"""


def _x_slots(tree: MultiTree) -> list[float]:
    """Each node's place in leaf slots: leaves left to right, parents centred."""
    x = [0.0] * len(tree)
    for node in range(len(tree) - 1, -1, -1):  # children come after their parent
        kids = tree.children[node]
        x[node] = (x[kids[0]] + x[kids[-1]]) / 2 if kids else float(tree.leaf_index[node])
    return x


class _Drawing:
    """The places and states of every node of one drawing."""

    def __init__(self, tree: MultiTree, result: MultiResult | None) -> None:
        self.tree = tree
        self.result = result
        widest = max(len(format_vector(v)) for v in tree.value if v is not None)
        self.slot = max(76.0, widest * CHAR + 16)
        self.x = [MARGIN + self.slot * (s + 0.5) for s in _x_slots(tree)]
        self.y = [MARGIN + ROW * d for d in tree.depth]
        self.pv = set(result.pv) if result else set()
        self.pruned = result.pruned if result else set()
        self.cut_at = {c.node: c.reason for c in result.cutoffs} if result else {}
        self.order = {leaf: k + 1 for k, leaf in enumerate(result.evaluated)} if result else {}

    def state(self, node: int) -> str:
        """``pv``, ``pruned``, ``unseen`` (never looked at) or ``""``."""
        if self.result is None:
            return ""
        if node in self.pv:
            return "pv"
        if node in self.pruned:
            return "pruned"
        return "" if node in self.result.visited else "unseen"

    def edge(self, node: int) -> str:
        above = self.tree.parent[node]
        state = self.state(node)
        x0, y0 = self.x[above], self.y[above] + 2 * RADIUS + 16  # below the value
        x1, y1 = self.x[node], self.y[node]
        label = self.tree.move[node]
        text = ""
        if label is not None:
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            text = f'<text class="note" x="{mx + 8:g}" y="{my:g}">{_escape(label)}</text>'
        classes = f"edge {state}" if state else "edge"
        return f'<line class="{classes}" x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}"/>{text}'

    def node(self, node: int) -> str:
        tree = self.tree
        x, y = self.x[node], self.y[node]
        vector = tree.value[node]
        classes = " ".join(c for c in (self.state(node), self.cut_class(node)) if c)
        if vector is None:
            fill = PLAYER_COLORS[tree.player[node] % len(PLAYER_COLORS)]
            shape = (
                f'<circle class="shape" cx="{x:g}" cy="{y + RADIUS:g}" r="{RADIUS}" '
                f'fill="{fill}"/><text x="{x:g}" y="{y + RADIUS - 2:g}">'
                f"{_escape(tree.name(node))}</text>"
                f'<text class="note" x="{x:g}" y="{y + RADIUS + 11:g}">P{tree.player[node]}</text>'
            )
        else:
            width = self.slot - 12
            shape = (
                f'<rect class="shape" x="{x - width / 2:g}" y="{y:g}" width="{width:g}" '
                f'height="{BOX}" fill="white"/><text x="{x:g}" y="{y + 17:g}">'
                f"{_escape(format_vector(vector))}</text>"
            )
        return f'<g id="n{node}" class="{classes}">{shape}{self.notes(node)}</g>'

    def cut_class(self, node: int) -> str:
        return "cutoff" if node in self.cut_at else ""

    def notes(self, node: int) -> str:
        """The texts under a node: its value (or ``#k`` and name for a leaf), and the
        reason of a cut-off beside it."""
        result, tree = self.result, self.tree
        x, y = self.x[node], self.y[node]
        under: list[str] = []
        if tree.value[node] is not None:
            k = self.order.get(tree.leaf_index[node])
            under.append(tree.name(node) + (f"  #{k}" if k else ""))
        elif result is not None and node in result.values:
            value = result.values[node]
            under.append(
                "v=" + (format_vector(value) if isinstance(value, tuple) else format_number(value))
            )
        low = y + (BOX + 12 if tree.value[node] is not None else 2 * RADIUS + 12)
        out = "".join(
            f'<text class="note" x="{x:g}" y="{low + 11 * i:g}">{_escape(t)}</text>'
            for i, t in enumerate(under)
        )
        if node in self.cut_at:
            reason = _escape(self.cut_at[node])
            out += f'<text class="cut" x="{x + RADIUS + 4:g}" y="{y + 8:g}">{reason}</text>'
        return out


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def multi_svg(subject: MultiTree | MultiResult) -> str:
    """A standalone SVG document of an N-player tree, or of a search of one."""
    result = subject if isinstance(subject, MultiResult) else None
    tree = subject.tree if isinstance(subject, MultiResult) else subject
    drawing = _Drawing(tree, result)
    width = round(2 * MARGIN + drawing.slot * tree.leaf_count + 60)
    height = round(2 * MARGIN + ROW * tree.height + BOX + 24)
    parts = [drawing.edge(node) for node in range(1, len(tree))]
    parts += [drawing.node(node) for node in range(len(tree))]
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n<style>{_STYLE}</style>\n'
        f'<rect width="100%" height="100%" fill="white"/>\n{body}\n</svg>\n'
    )
