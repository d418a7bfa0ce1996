"""Mermaid flowchart text: renders in GitHub Markdown, GitLab and many course wikis.

Mermaid's classic shapes have no triangle, so MAX is a trapezoid wider at the bottom
(pointing up) and MIN one wider at the top (pointing down); chance nodes are circles
and leaves boxes. These shapes work in every Mermaid version GitHub has shipped (the
newer ``@{ shape: tri }`` syntax needs Mermaid 11.3).
"""

from __future__ import annotations

from plies.draw._look import COLORS, edge_look, node_look
from plies.draw._state import Snapshot
from plies.trees import Tree

__all__ = ["to_mermaid"]

_OPEN_CLOSE = {
    "max": ('[/"', '"\\]'),
    "min": ('[\\"', '"/]'),
    "chance": ('(("', '"))'),
    "leaf": ('["', '"]'),
}


def _text(text: str) -> str:
    """Text for inside a quoted Mermaid label (entity codes for quotes and markup)."""
    return (
        text.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
    )


def to_mermaid(tree: Tree, snap: Snapshot | None = None) -> str:
    """A Mermaid ``flowchart TD`` of ``tree`` annotated with ``snap`` (None: before)."""
    lines = ["flowchart TD"]
    classes: dict[str, list[str]] = {
        "max": [],
        "min": [],
        "chance": [],
        "leaf": [],
        "pv": [],
        "pruned": [],
        "cut": [],
    }
    for node in range(len(tree)):
        look = node_look(tree, node, snap)
        parts = [_text(line) for line in look.inside if line]
        if look.beside:
            parts.append(_text(look.beside))
        left, right = _OPEN_CLOSE[look.shape]
        lines.append(f"    n{node}{left}{'<br/>'.join(parts) or ' '}{right}")
        classes[look.shape].append(f"n{node}")
        if look.state in ("pv", "pruned"):
            classes[look.state].append(f"n{node}")
        if look.cutoff:
            classes["cut"].append(f"n{node}")
    styled: dict[str, list[int]] = {"pruned": [], "pv": []}
    for number, node in enumerate(range(1, len(tree))):
        edge = edge_look(tree, node, snap)
        arrow = "-.-" if edge.pruned else ("===" if edge.pv else "---")
        if edge.label:
            label = _text(edge.label)
            arrow = (
                f'-. "{label}" .-'
                if edge.pruned
                else (f'== "{label}" ===' if edge.pv else f'-- "{label}" ---')
            )
        lines.append(f"    n{tree.parent[node]} {arrow} n{node}")
        if edge.pruned:
            styled["pruned"].append(number)
        elif edge.pv:
            styled["pv"].append(number)
    lines += [
        f"    classDef max fill:{COLORS['max']},stroke:{COLORS['line']}",
        f"    classDef min fill:{COLORS['min']},stroke:{COLORS['line']}",
        f"    classDef chance fill:{COLORS['chance']},stroke:{COLORS['line']}",
        f"    classDef leaf fill:#ffffff,stroke:{COLORS['line']}",
        f"    classDef pv stroke:{COLORS['pv']},stroke-width:3px",
        f"    classDef cut stroke:{COLORS['cut']},stroke-width:2px",
        f"    classDef pruned fill:#f7f7f7,stroke:{COLORS['pruned']},color:{COLORS['pruned']},"
        "stroke-dasharray:4 3",
    ]
    for name, members in classes.items():
        if members:
            lines.append(f"    class {','.join(members)} {name}")
    if styled["pruned"]:
        numbers = ",".join(str(i) for i in styled["pruned"])
        lines.append(f"    linkStyle {numbers} stroke:{COLORS['pruned']},color:{COLORS['pruned']}")
    if styled["pv"]:
        numbers = ",".join(str(i) for i in styled["pv"])
        lines.append(f"    linkStyle {numbers} stroke:{COLORS['pv']},stroke-width:3px")
    return "\n".join(lines) + "\n"
