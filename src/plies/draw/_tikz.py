"""TikZ source for LaTeX: a complete document that compiles with ``pdflatex``.

Plain TikZ (``tikz`` with the ``shapes.geometric`` and ``positioning`` libraries), in
every standard TeX installation (Debian: ``texlive-latex-base`` and
``texlive-pictures``). The page is the picture's own size plus a small border: the
picture is measured in a box and the page set to it with pdfTeX's page size
registers, so no margin is guessed. Nodes sit at fixed coordinates from
:mod:`plies.draw._layout`, so the picture does not depend on a layout package. To put
the picture in your own document, copy the ``tikzpicture`` environment and the
``\\tikzset`` block.
"""

from __future__ import annotations

from plies.draw._layout import positions
from plies.draw._look import COLORS, edge_look, node_look
from plies.draw._state import Snapshot
from plies.trees import Tree

__all__ = ["to_tikz"]

SLOT_CM = 1.6
#: Half the drawn width of each kind of node (the styles below), for what sits beside it.
_HALF_WIDTH_CM = {"max": 0.95, "min": 0.95, "chance": 0.45, "leaf": 0.4}
ROW_CM = 2.2
#: The border around the picture on the page (cm).
BORDER_CM = 0.4

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "~": r"\~{}",
    "α": r"$\alpha$",
    "β": r"$\beta$",
    "∞": r"$\infty$",
    "≤": r"$\le$",
    "≥": r"$\ge$",
    "<": r"$<$",
    ">": r"$>$",
    "-": r"-{}",
}


def tex(text: str) -> str:
    """``text`` with TeX's special characters escaped and α, β, ∞, ≤, ≥ as math."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def _hex(color: str) -> str:
    return color.lstrip("#").upper()


def to_tikz(tree: Tree, snap: Snapshot | None = None, *, title: str | None = None) -> str:
    """A LaTeX document drawing ``tree`` annotated with ``snap`` (None: before)."""
    where = positions(tree)
    lines = [
        "% Drawn by plies. Compiles with pdflatex. Needs the package tikz (libraries",
        "% shapes.geometric and positioning), in every standard TeX installation (Debian:",
        "% texlive-latex-base and texlive-pictures). The page is the size of the picture;",
        "% to use it elsewhere copy the tikzset and the tikzpicture (and scale it with",
        "% \\resizebox{\\linewidth}{!}{...} from graphicx if it is too wide).",
        "\\documentclass{article}",
        "\\usepackage[utf8]{inputenc}",
        "\\usepackage{tikz}",
        "\\usetikzlibrary{shapes.geometric, positioning}",
        "\\pagestyle{empty}",
    ]
    for name in ("max", "min", "chance", "pv", "pruned", "pruned_text", "line"):
        tex_name = name.replace("_", "")
        lines.append(f"\\definecolor{{plies{tex_name}}}{{HTML}}{{{_hex(COLORS[name])}}}")
    lines += [
        "\\tikzset{",
        "  every node/.style={font=\\small, align=center, draw=pliesline,"
        " line width=0.5pt, inner sep=1.5pt},",
        "  triangle/.style={isosceles triangle, isosceles triangle stretches, inner sep=0pt,"
        " minimum width=1.9cm, minimum height=1.35cm},",
        "  max/.style={triangle, shape border rotate=90, fill=pliesmax},",
        "  min/.style={triangle, shape border rotate=270, fill=pliesmin},",
        "  label text/.style={draw=none, fill=none, font=\\footnotesize, inner sep=0pt},",
        "  chance/.style={circle, fill=plieschance, minimum size=0.9cm},",
        "  leaf/.style={rectangle, fill=white, minimum width=0.8cm, minimum height=0.6cm},",
        "  note/.style={draw=none, font=\\scriptsize, inner sep=1pt},",
        "  pv/.style={draw=pliespv, line width=1.6pt},",
        "  cut/.style={double, double distance=1pt},",
        "  pruned/.style={draw=pliespruned, dashed, text=pliesprunedtext, fill=white},",
        "  edge/.style={draw=pliesline, line width=0.5pt},",
        "  prunededge/.style={draw=pliespruned, dashed},",
        "  pvedge/.style={draw=pliespv, line width=1.6pt},",
        "  edgelabel/.style={draw=none, font=\\scriptsize, fill=white, inner sep=1pt},",
        "  reason/.style={edgelabel, text=pliesprunedtext},",
        "}",
        "\\newsavebox{\\pliesbox}",
        "\\begin{document}",
        "\\savebox{\\pliesbox}{%",
        "\\begin{tikzpicture}",
    ]
    for node in range(len(tree)):
        look = node_look(tree, node, snap)
        styles = [look.shape]
        if look.state == "pruned":
            styles.append("pruned")
        elif look.state == "pv":
            styles.append("pv")
        if look.cutoff:
            styles.append("cut")
        x, row = where[node]
        parts = [tex(line) for line in look.inside]
        at = f"({x * SLOT_CM:.2f},{-row * ROW_CM:.2f})"
        if look.shape in ("max", "min"):
            # A fixed-size triangle with the text laid over it (text may pass its
            # corners), like Graphviz's fixedsize=shape: the shape does not balloon.
            if look.beside:
                note = f"{{\\scriptsize {tex(look.beside)}}}"
                parts = [note, *parts] if look.shape == "min" else [*parts, note]
            text = "\\\\".join(p for p in parts if p)
            lines.append(f"  \\node[{', '.join(styles)}] (n{node}) at {at} {{}};")
            if text:
                lines.append(f"  \\node[label text] at (n{node}.center) {{{text}}};")
            continue
        text = "\\\\".join(parts)
        lines.append(f"  \\node[{', '.join(styles)}] (n{node}) at {at} {{{text}}};")
        if look.beside:
            # A leaf's number below it; a chance node's note right of it, clear of
            # the edges that leave from its bottom.
            where_to = "below" if look.shape == "leaf" else "right"
            lines.append(f"  \\node[note, {where_to}=1pt of n{node}] {{{tex(look.beside)}}};")
    for node, rows in tree.pictures.items():  # a game's board left of its node's shape
        board = "\\\\".join(tex(row) for row in rows)
        half = _HALF_WIDTH_CM[tree.kind[node]] + 0.05
        lines.append(
            f"  \\node[note, font=\\ttfamily\\tiny, align=center, anchor=east] "
            f"at ([xshift=-{half:.2f}cm]n{node}.center) {{{board}}};"
        )
    for node in range(1, len(tree)):
        edge = edge_look(tree, node, snap)
        style = "prunededge" if edge.pruned else ("pvedge" if edge.pv else "edge")
        parent = tree.parent[node]
        start = "south" if tree.kind[parent] in ("max", "chance") else "apex"
        label = ""
        if edge.label:
            # Above the middle, on the outer side: the line runs away below the text.
            side = "above left" if where[node][0] < where[parent][0] else "above right"
            kind = "reason" if edge.pruned else "edgelabel"
            label = f" node[{kind}, midway, {side}] {{{tex(edge.label)}}}"
        lines.append(f"  \\draw[{style}] (n{parent}.{start}) --{label} (n{node}.north);")
    if title:
        lines.append(
            "  \\node[draw=none, anchor=south west] at (current bounding box.north west) "
            f"{{{tex(title)}}};"
        )
    lines += [
        "\\end{tikzpicture}}",
        f"% The page: the picture and a {BORDER_CM:g} cm border (pdfTeX's page registers).",
        f"\\pdfpagewidth=\\dimexpr\\wd\\pliesbox+{2 * BORDER_CM:g}cm\\relax",
        f"\\pdfpageheight=\\dimexpr\\ht\\pliesbox+\\dp\\pliesbox+{2 * BORDER_CM:g}cm\\relax",
        f"\\pdfhorigin={BORDER_CM:g}cm",
        f"\\pdfvorigin={BORDER_CM:g}cm",
        "\\shipout\\hbox{\\usebox{\\pliesbox}}",
        "\\end{document}",
    ]
    return "\n".join(lines) + "\n"
