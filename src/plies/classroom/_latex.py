"""The LaTeX sources of a worksheet and of its answer key.

The trees are drawn by :func:`plies.draw.to_tikz`, the lab's own TikZ drawing (node
names as the lab shows them): its ``\\tikzset`` styles and its ``tikzpicture`` are
taken from the document it writes, as its docstring invites, and set in these pages at
a scale that fits the space (its coordinates have no unit, so the picture's ``x`` and
``y`` units scale them; the styles are shrunk to match). The worksheet adds, beside each
inner node, empty boxes for the value and for alpha and beta; below each leaf a box for
its place in the evaluation order; and on each edge a circle to mark a cut. Pages are
A4 landscape, two exercises a page, so a tree of branching 3 and depth 4 (81 leaves)
gets 27 cm of width. Nothing in the sources depends on the time or the machine: the same
worksheet gives the same bytes.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from plies import draw
from plies.classroom._sheet import Exercise, NodeRow, Worksheet
from plies.errors import PliesError
from plies.trees import Number, Tree, TreeResult, format_number

__all__ = ["PictureError", "answers_tex", "worksheet_tex"]

#: The usable page (A4 landscape less 1.2 cm margins) and one exercise's drawing (cm).
TEXT_WIDTH_CM = 27.3
HALF_PAGE_CM = 9.2
DRAWING_HEIGHT_CM = 7.6
ANSWER_DRAWING_HEIGHT_CM = 8.6
#: to_tikz's natural units: a leaf slot and a row, in its (unitless) coordinates.
SLOT_UNITS = 1.6
ROW_UNITS = 2.2


class PictureError(PliesError):
    """The TikZ drawing did not have the parts a worksheet takes from it."""


@dataclass(frozen=True)
class _Fit:
    """How a tree is set in its space: the picture's units and its nodes' sizes (cm)."""

    x_unit: float
    y_unit: float
    triangle: float
    leaf: float
    box: float
    font: str
    leaf_font: str
    room: float  # centre to centre of the closest inner nodes on a row

    @property
    def slot(self) -> float:
        """A leaf slot's width (cm)."""
        return SLOT_UNITS * self.x_unit

    @property
    def chance(self) -> float:
        """A chance node's diameter (cm)."""
        return min(0.9, self.triangle * 0.6)


def _inner_gap(tree: Tree) -> float:
    """The least distance (in slots) between two inner nodes on one row."""
    x = [across for across, _ in draw.node_positions(tree)]  # the lab's layout
    rows: dict[int, list[float]] = {}
    for node in range(len(tree)):
        if tree.kind[node] != "leaf":
            rows.setdefault(tree.depth[node], []).append(x[node])
    gaps = [b - a for row in rows.values() for a, b in itertools.pairwise(row)]
    return min(gaps, default=4.0)


def _font(size_cm: float, sizes: tuple[float, float, float]) -> str:
    big, middle, small = sizes
    if size_cm >= big:
        return r"\footnotesize"
    if size_cm >= middle:
        return r"\scriptsize"
    return r"\tiny" if size_cm >= small else r"\fontsize{4}{4.5}\selectfont"


def _fit(tree: Tree, width_cm: float, height_cm: float, *, boxes: bool) -> _Fit:
    """The scale and sizes that set ``tree`` in ``width_cm`` x ``height_cm``, with
    room beside each inner node for its answer boxes when ``boxes``."""
    across = max(tree.leaf_count - 1, 1) * SLOT_UNITS
    down = max(*tree.depth, 1) * ROW_UNITS
    x_unit = min(1.0, (width_cm - 1.2) / across)
    y_unit = min(1.0, (height_cm - 1.3) / down)
    slot = SLOT_UNITS * x_unit
    room = _inner_gap(tree) * slot  # centre to centre of the closest inner nodes
    triangle = min(1.9, (0.42 if boxes else 0.8) * room, 1.35 * ROW_UNITS * y_unit / 1.6)
    return _Fit(
        x_unit=x_unit,
        y_unit=y_unit,
        triangle=max(triangle, 0.42),
        leaf=min(0.8, 0.92 * slot),
        box=max(min(0.75, 0.25 * room), 0.26),
        font=_font(triangle, (1.1, 0.7, 0.5)),
        leaf_font=_font(0.92 * slot, (0.75, 0.5, 0.34)),
        room=room,
    )


def _parts(document: str) -> tuple[list[str], list[str]]:
    """The colour and style lines, and the picture's lines, of a :func:`draw.to_tikz`
    document."""
    lines = document.splitlines()
    try:
        first_style = next(i for i, line in enumerate(lines) if line.startswith("\\definecolor"))
        end_style = lines.index("\\newsavebox{\\pliesbox}")
        begin = lines.index("\\begin{tikzpicture}")
        end = lines.index("\\end{tikzpicture}}")
    except (StopIteration, ValueError):
        raise PictureError(
            "plies.draw.to_tikz wrote a document without its usual tikzset and "
            "tikzpicture; the worksheet cannot take its drawing"
        ) from None
    return lines[first_style:end_style], lines[begin + 1 : end]


def _styles(fit: _Fit) -> str:
    """The picture's options: its units, and the lab's styles at this size."""
    height = min(1.35, 0.72 * fit.triangle)
    return (
        f"[x={fit.x_unit:.4f}cm, y={fit.y_unit:.4f}cm,"
        f" triangle/.append style={{minimum width={fit.triangle:.2f}cm,"
        f" minimum height={height:.2f}cm}},"
        f" label text/.append style={{font={fit.font}}},"
        f" chance/.append style={{minimum size={fit.chance:.2f}cm}},"
        f" leaf/.append style={{minimum width={fit.leaf:.2f}cm,"
        f" minimum height={fit.leaf * 0.75:.2f}cm,"
        f" font={fit.leaf_font}, inner sep=0.5pt}},"
        f" note/.append style={{font={fit.leaf_font}}},"
        f" edgelabel/.append style={{font={fit.leaf_font}}}]"
    )


#: One step smaller than each font size of :func:`_font`.
_SMALLER = {
    r"\footnotesize": r"\scriptsize",
    r"\scriptsize": r"\tiny",
    r"\tiny": r"\fontsize{4}{4.5}\selectfont",
}


#: A MAX or MIN node's alpha and beta note in the lab's TikZ (``{\\scriptsize ...}``),
#: with the line break that joins it to the node's name and value.
_NOTE = re.compile(
    r"\\\\\{\\scriptsize (?:[^{}]|\{[^{}]*\})*\}|\{\\scriptsize (?:[^{}]|\{[^{}]*\})*\}\\\\"
)
#: A chance node's note, a node of its own right of it.
_SIDE_NOTE = re.compile(r"^  \\node\[note, right=")
#: Closer than this (cm), the notes of neighbouring inner nodes overlap.
NOTE_ROOM_CM = 1.3


def _without_notes(body: list[str]) -> list[str]:
    """The picture without the alpha and beta notes of its inner nodes."""
    return [_NOTE.sub("", line) for line in body if not _SIDE_NOTE.match(line)]


def notes_fit(fit: _Fit) -> bool:
    """Whether the drawing has room for every inner node's alpha and beta."""
    return fit.room >= NOTE_ROOM_CM


def _picture(subject: Tree | TreeResult, fit: _Fit, extra: list[str]) -> list[str]:
    """The lab's drawing of ``subject`` at ``fit``, and ``extra`` lines in it. The
    drawing's notes (alpha and beta, in ``\\scriptsize``) are set a step below the
    node's font, inside the picture only, or left out where they would overlap (the
    key's table gives them)."""
    _, body = _parts(draw.to_tikz(subject))
    if not notes_fit(fit):
        body = _without_notes(body)
    smaller = _SMALLER.get(fit.font, fit.font)
    notes = [] if smaller == r"\scriptsize" else [f"  \\def\\scriptsize{{{smaller}}}"]
    return [
        "\\begin{tikzpicture}" + _styles(fit),
        *notes,
        *body,
        *extra,
        "\\end{tikzpicture}",
    ]


def _fill_ins(tree: Tree, fit: _Fit, *, pruning: bool) -> list[str]:
    """The worksheet's empty boxes: value (and alpha, beta) beside each inner node,
    the evaluation order below each leaf, a cut mark on each edge."""
    box = f"{fit.box:.2f}cm"
    small = f"{min(fit.box * 0.7, 0.4):.2f}cm"
    lines = []
    for node in range(len(tree)):
        kind = tree.kind[node]
        if kind == "leaf":  # its place in the evaluation order (all leaves, without pruning)
            if pruning:
                lines.append(f"  \\node[order box, below=0.5pt of n{node}] {{}};")
            continue
        half = (fit.triangle if kind in ("max", "min") else fit.chance) / 2
        rows = ["v"] + (["$\\alpha$", "$\\beta$"] if pruning else [])
        cells = "\\\\".join(f"{label}\\,\\answerbox{{{box}}}{{{small}}}" for label in rows)
        lines.append(
            f"  \\node[boxes, anchor=west] at ([xshift={half + 0.04:.2f}cm]n{node}.center) "
            f"{{{cells}}};"
        )
    if pruning:
        for node in range(1, len(tree)):
            parent = tree.parent[node]
            start = "south" if tree.kind[parent] in ("max", "chance") else "apex"
            lines.append(
                f"  \\path (n{parent}.{start}) -- node[cut mark, pos=0.6] {{}} (n{node}.north);"
            )
    return lines


def _preamble(styles: list[str], fit_font: str) -> list[str]:
    return [
        "% Made by plies worksheet. Compiles with pdflatex (Debian: texlive-latex-base and",
        "% texlive-pictures). The same seed and shape give the same source, byte for byte.",
        "\\pdfinfoomitdate=1",
        "\\pdftrailerid{}",
        "\\pdfsuppressptexinfo=-1",
        "\\documentclass[11pt]{article}",
        "\\usepackage[a4paper, landscape, margin=1.2cm]{geometry}",
        "\\usepackage[utf8]{inputenc}",
        "\\input{glyphtounicode}\\pdfgentounicode=1",
        "\\usepackage{tikz}",
        "\\usetikzlibrary{shapes.geometric, positioning}",
        "\\pagestyle{empty}",
        "\\setlength{\\parindent}{0pt}",
        "\\newcommand{\\answerbox}[2]{{\\setlength{\\fboxsep}{0pt}\\fbox{\\rule{0pt}{#2}\\rule{#1}{0pt}}}}",
        *styles,
        "\\tikzset{",
        f"  boxes/.style={{draw=none, fill=none, font={fit_font}, align=right, inner sep=0pt}},",
        "  order box/.style={rectangle, draw=pliesline, fill=white, minimum size=0.3cm},",
        "  cut mark/.style={circle, draw=pliesline, fill=white, inner sep=0pt,"
        " minimum size=0.16cm},",
        "}",
    ]


def _number(value: Number | None) -> str:
    """A number as the key prints it: ``-`` for none, the infinities as math."""
    if value is None:
        return "--"
    text = format_number(value)
    return {"inf": "$\\infty$", "-inf": "-$\\infty$"}.get(text, text)


def _text(text: str) -> str:
    """Tree text or names in LaTeX: specials escaped, a break allowed after punctuation."""
    out = []
    for ch in text:
        if ch in "\\{}$&%#_^~":
            out.append({"\\": "\\textbackslash{}", "^": "\\^{}", "~": "\\~{}"}.get(ch, "\\" + ch))
        elif ch in ",()[]:":
            out.append(ch + "\\allowbreak{}")
        elif ch == "-":
            out.append("-{}")
        else:
            out.append(ch)
    return "".join(out)


def _reason(reason: str) -> str:
    """A cut-off's inequality (``v=6 >= beta=1``) in symbols."""
    for word, symbol in (
        (">=", "$\\ge$"),
        ("<=", "$\\le$"),
        (">", "$>$"),
        ("<", "$<$"),
        ("alpha", "$\\alpha$"),
        ("beta", "$\\beta$"),
    ):
        reason = reason.replace(word, symbol)
    return reason.replace("-", "-{}").replace("inf", "$\\infty$")


def _rule(sheet: Worksheet) -> str:
    """The tie rule in words and symbols."""
    if sheet.shape.get("strict"):
        return "prune only when a value is strictly beyond the bound ($\\alpha > \\beta$)"
    return "prune when $\\alpha \\ge \\beta$ (ties prune)"


def _instructions(sheet: Worksheet, exercise: Exercise) -> str:
    """What the student is asked, in one paragraph."""
    tree = exercise.tree
    if tree.has_chance:
        task = (
            "Search this tree with expectiminimax, children left to right: write each "
            "inner node's value $v$ in its box."
        )
    else:
        task = (
            "Search this tree with alpha-beta, children left to right, and "
            f"{_rule(sheet)}: write each node's value $v$ and its $\\alpha$ and $\\beta$ "
            "when the search leaves it, number the leaves in the order they are "
            "evaluated, and fill the circle on every edge that is cut off."
        )
    root = "MAX" if tree.kind[0] == "max" else "MIN" if tree.kind[0] == "min" else "chance"
    return f"\\textbf{{Exercise {exercise.number}}} (root {root}). {task}"


def worksheet_tex(sheet: Worksheet) -> str:
    """The students' sheet: each exercise's empty tree on half a page."""
    first = sheet.exercises[0]
    styles, _ = _parts(draw.to_tikz(first.tree))
    body = []
    for exercise in sheet.exercises:
        tree = exercise.tree
        fit = _fit(tree, TEXT_WIDTH_CM, DRAWING_HEIGHT_CM, boxes=True)
        picture = _picture(tree, fit, _fill_ins(tree, fit, pruning=not tree.has_chance))
        body += [
            f"\\begin{{minipage}}[t][{HALF_PAGE_CM}cm][t]{{\\linewidth}}",
            _instructions(sheet, exercise),
            "",
            "\\smallskip\\centering",
            *picture,
            "\\end{minipage}",
            "\\newpage" if exercise.number % 2 == 0 else "\\par\\vfill",
        ]
    box_font = _fit(first.tree, TEXT_WIDTH_CM, DRAWING_HEIGHT_CM, boxes=True).leaf_font
    return _join([*_preamble(styles, box_font), "\\begin{document}", *body, "\\end{document}"])


def _node_table(rows: list[NodeRow]) -> list[str]:
    """The key's table of inner nodes, in columns of at most 14 rows side by side."""
    out = []
    for start in range(0, len(rows), 14):
        out += [
            "\\begin{tabular}[t]{llrrrrr}",
            "node & kind & $\\alpha$ in & $\\beta$ in & $v$ & $\\alpha$ out & $\\beta$ out"
            "\\\\\\hline",
        ]
        for row in rows[start : start + 14]:
            cells = [
                _text(row.name),
                row.kind.upper(),
                _number(row.alpha_in),
                _number(row.beta_in),
                _number(row.value) if row.value is not None else "pruned",
                _number(row.alpha),
                _number(row.beta),
            ]
            out.append(" & ".join(cells) + "\\\\")
        out += ["\\end{tabular}", "\\quad"]
    return out


def _key_lines(exercise: Exercise) -> list[str]:
    """The key of one exercise in words: the value, the leaves in order, the cuts."""
    tree = exercise.tree
    evaluated = ", ".join(
        f"{_text(tree.name(node))}={_number(tree.value[node])}" for node in exercise.evaluated()
    )
    never = ", ".join(_text(tree.name(node)) for node in exercise.never_evaluated()) or "none"
    lines = [
        f"Value of the root: {_number(exercise.result.value)}.\\par",
        f"Leaves evaluated, in order: {evaluated}.\\par",
        f"Leaves never evaluated: {never}.\\par",
    ]
    cuts = exercise.cuts()
    if not cuts:
        lines.append("Cut-offs: none.\\par")
    for cut in cuts:
        bound = exercise.result.cut_at[cut.node].bound
        source = f" ({_reason(bound)} from {cut.source})"
        pruned = ", ".join(_text(name) for name in cut.pruned)
        lines.append(
            f"Cut-off at {_text(cut.name)} after {_text(cut.after)}: {_reason(cut.reason)}"
            f"{source if cut.source else ' (the root window)'}; pruned {pruned}.\\par"
        )
    return lines


def answers_tex(sheet: Worksheet) -> str:
    """The answer key: each exercise drawn after its search, with every value, alpha
    and beta, every cut-off and its reason, and the leaves in evaluation order."""
    styles, _ = _parts(draw.to_tikz(sheet.exercises[0].tree))
    body = []
    for exercise in sheet.exercises:
        tree = exercise.tree
        fit = _fit(tree, TEXT_WIDTH_CM, ANSWER_DRAWING_HEIGHT_CM, boxes=False)
        body += [
            f"\\textbf{{Exercise {exercise.number}: answer}} (seed {exercise.seed}).",
            f"{{\\footnotesize Tree: \\texttt{{{_text(exercise.text)}}}}}\\par",
            "\\smallskip{\\centering",
            *_picture(exercise.result, fit, []),
            "\\par}\\smallskip",
            "{\\small",
            *(
                []
                if notes_fit(fit)
                else ["($\\alpha$ and $\\beta$ of each node: in the table.)\\par"]
            ),
            *_key_lines(exercise),
            "\\smallskip",
            *_node_table(exercise.rows()),
            "}",
            "\\newpage",
        ]
    preamble = _preamble(styles, "\\scriptsize")
    return _join([*preamble, "\\begin{document}", *body, "\\end{document}"])


def _join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"
