"""A drawing of one test: plies' search of the tree with the student's leaves on it.

:func:`compare_svg` draws the reference search as every plies drawing shows a search
(:func:`plies.draw.to_svg`: MAX and MIN triangles, dashed grey pruned subtrees with the
inequality that pruned them, the principal variation in bold, ``#k`` under the k-th
leaf the reference evaluated) and marks on it what the student's code did:

- its path: a thin blue line beside every edge it went down;
- its order: a blue pill under each leaf it evaluated, with its own numbers;
- an **extra** leaf (under-pruning: evaluated by the student, never by the
  reference): a solid vermillion frame and the word ``extra``;
- a **missed** leaf (over-pruning: evaluated by the reference, skipped by the
  student): a dashed reddish-purple frame and the word ``missed``;
- the first difference: a yellow band with a dash-dot border over the leaf (or the
  two leaves) where the two orders first part.

Every mark differs in shape or line style and carries a word, not only a colour
(the colours are the Okabe-Ito pairs plies' drawings use, readable with any colour
vision). Captions above say what differs in words and a legend below names the
marks present. Marks find the nodes by the drawing's ids (node ``i`` is the group
``#n{i}``, the edge into it ``#e{i}``), the contract plies' pages rely on too.
"""

from __future__ import annotations

import html
import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from plies import draw
from plies._arguments import need_object
from plies.errors import PliesError
from plies.trees import Tree, TreeResult

__all__ = ["Comparison", "PictureError", "compare", "compare_svg"]

_SVG = "{http://www.w3.org/2000/svg}"

#: The marks' colours: the student's blue, under-pruning's vermillion, over-pruning's
#: reddish purple (Okabe-Ito), each with a darker shade for text (4.5:1 or more on
#: white), and the first difference's yellow.
STUDENT = "#0072B2"
EXTRA, EXTRA_TEXT = "#D55E00", "#B34700"
MISSED, MISSED_TEXT = "#CC79A7", "#A23E7E"
FIRST, FIRST_LINE = "#F0E442", "#7A6500"

MARGIN = 30  # the drawing's own margin, kept around captions and legend
CAPTION_LINE = 18  # pixels per caption line (12 px type)
LEGEND_LINE = 20  # pixels per legend entry
CHAR = 7.0  # pixels per character of 12 px text, a safe guess for the width
SMALL_CHAR = 6.4  # pixels per character of 11 px text
PILL_HIGH = 15
PATH_OFFSET = 5.0  # the student's path runs this far beside the drawing's edge
NOTE_HALF = 32  # half the width of an inner node's alpha/beta note, about
NUMBERS_SHOWN = 3  # a leaf read more often shows its first numbers and "…"
NAMES_SHOWN = 8  # leaves named in a caption before "and N more"

STYLE = f"""
.caption {{ font: 12px 'DejaVu Sans', Arial, sans-serif; fill: #222; }}
.caption.title {{ font-weight: bold; font-size: 13px; }}
.legend text {{ font: 11px 'DejaVu Sans', Arial, sans-serif; fill: #222; }}
.legend .ref {{ font-size: 10px; fill: #333; text-anchor: middle; }}
.student-path line {{ stroke: {STUDENT}; stroke-width: 2; stroke-linecap: round; }}
.student-number rect {{ fill: {STUDENT}; }}
.student-number text {{ font: bold 11px 'DejaVu Sans', Arial, sans-serif; fill: white;
  text-anchor: middle; }}
.extra rect {{ fill: none; stroke: {EXTRA}; stroke-width: 3; }}
.missed rect {{ fill: none; stroke: {MISSED}; stroke-width: 3; stroke-dasharray: 6 3; }}
.flag {{ font: bold 10px 'DejaVu Sans', Arial, sans-serif; text-anchor: middle; }}
.extra .flag {{ fill: {EXTRA_TEXT}; }}
.missed .flag {{ fill: {MISSED_TEXT}; }}
.first-difference rect {{ fill: {FIRST}; fill-opacity: 0.45; stroke: {FIRST_LINE};
  stroke-width: 1.5; stroke-dasharray: 8 3 2 3; }}
"""

_ALGORITHMS = {
    "alphabeta": "alpha-beta",
    "negamax": "negamax",
    "minimax": "minimax",
    "expectiminimax": "expectiminimax",
}


class PictureError(PliesError):
    """The student's leaves cannot be drawn on the tree (not leaves of it)."""


@dataclass(frozen=True)
class Comparison:
    """The reference's evaluated leaves and the student's, as node ids in order;
    ``extra`` the leaves only the student evaluated (under-pruning), ``missed`` those
    only the reference evaluated (over-pruning), and ``first`` the 0-based place in
    the two orders where they first differ (None when they are the same)."""

    reference: list[int]
    student: list[int]
    extra: frozenset[int]
    missed: frozenset[int]
    first: int | None

    @property
    def first_leaves(self) -> tuple[int | None, int | None]:
        """The student's and the reference's leaf at the first difference (None
        where that order has ended, or when there is no difference)."""
        k = self.first
        if k is None:
            return None, None
        mine = self.student[k] if k < len(self.student) else None
        theirs = self.reference[k] if k < len(self.reference) else None
        return mine, theirs


def compare(result: TreeResult, student_leaves: Sequence[int]) -> Comparison:
    """How ``student_leaves`` (node ids of leaves, in the order the student's code
    evaluated them) compare with the leaves ``result`` evaluated."""
    tree = result.tree
    student = _checked_leaves(tree, student_leaves)
    reference = [tree.leaf_ids[k] for k in result.evaluated]
    first = next(
        (k for k, (a, b) in enumerate(zip(student, reference, strict=False)) if a != b), None
    )
    if first is None and len(student) != len(reference):
        first = min(len(student), len(reference))
    return Comparison(
        reference=reference,
        student=student,
        extra=frozenset(student) - frozenset(reference),
        missed=frozenset(reference) - frozenset(student),
        first=first,
    )


def _checked_leaves(tree: Tree, student_leaves: Sequence[int]) -> list[int]:
    if isinstance(student_leaves, str | bytes) or not isinstance(student_leaves, Sequence):
        raise PictureError(
            f"student_leaves must be a list of leaf node ids, not {type(student_leaves).__name__}"
        )
    for place, node in enumerate(student_leaves):
        if type(node) is not int or not 0 <= node < len(tree) or tree.kind[node] != "leaf":
            raise PictureError(
                f"student_leaves[{place}] is {node!r}, not a leaf of the tree (its leaves are "
                f"the node ids {_ids(tree.leaf_ids)})"
            )
    return list(student_leaves)


def _ids(ids: Sequence[int]) -> str:
    shown = ", ".join(map(str, ids[:10]))
    return shown + (f", ... ({len(ids)} leaves)" if len(ids) > 10 else "")


def compare_svg(
    result: TreeResult, student_leaves: Sequence[int], *, max_nodes: int | None = None
) -> str:
    """An SVG document of ``result`` (plies' reference search, as
    :func:`plies.draw.to_svg` draws it) with the student's path, its order, its
    extra and missed leaves and the first difference marked, captions above and a
    legend below. ``student_leaves`` are node ids of leaves in the order the
    student's code evaluated them. A tree over ``max_nodes`` (None: the default of
    :func:`plies.draw.to_svg`) is refused with :class:`~plies.errors.LimitError`,
    as plies' drawings refuse it, before any drawing."""
    need_object(result, TreeResult, "result")
    comparison = compare(result, student_leaves)
    drawing = draw.to_svg(result, max_nodes=max_nodes)
    sheet = _Sheet(drawing)
    name = _ALGORITHMS.get(result.options.algorithm, result.options.algorithm)
    captions = _captions(result.tree, comparison, name, _rule(result))
    top = MARGIN // 2 + CAPTION_LINE * len(captions)
    path = "".join(_path_line(sheet, node) for node in _student_path(result.tree, comparison))
    under = f'<g class="student-paths">{path}</g>'
    marks = _marks(sheet, comparison)
    marked = comparison.extra | comparison.missed | frozenset(comparison.student)
    lowest = max((_rows(sheet, leaf)[1] + 5 for leaf in marked), default=0)
    legend_top = top + max(sheet.height, math.ceil(lowest) + 16)
    entries = _legend_entries(comparison, name)
    width = math.ceil(
        max(
            sheet.width,
            MARGIN * 2 + CHAR * max(map(len, captions)),
            MARGIN * 2 + 62 + SMALL_CHAR * max(len(text) for _, text in entries),
        )
    )
    height = legend_top + LEGEND_LINE * len(entries) + 8
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n<style>{STYLE}</style>\n'
        f'<rect width="100%" height="100%" fill="white"/>\n'
        f"{_caption_svg(captions)}\n"
        f'<g class="reference" transform="translate(0 {top})">'
        f"{sheet.body_with(under)}"
        f'<g class="marks">\n{marks}\n</g></g>\n'
        f"{_legend_svg(entries, legend_top)}\n</svg>\n"
    )


class _Box(NamedTuple):
    """A leaf's box in plies' drawing, and the lowest baseline of the texts in its
    group (its ``#k`` note, a game's picture under it)."""

    x: float
    y: float
    width: float
    height: float
    lowest: float

    @property
    def centre(self) -> float:
        return self.x + self.width / 2


class _Sheet:
    """plies' drawing of the search (its size and its body, the elements inside its
    ``<svg>``), and where its leaves and edges are, found by their ids."""

    def __init__(self, drawing: str) -> None:
        root = ET.fromstring(drawing)
        self.width, self.height = int(root.get("width", "0")), int(root.get("height", "0"))
        self.body = drawing[drawing.index(">") + 1 : drawing.rindex("</svg>")]
        self.groups = {g.get("id"): g for g in root.iter(f"{_SVG}g") if g.get("id")}

    def body_with(self, under: str) -> str:
        """The drawing with ``under`` drawn above its background and below its edges,
        their labels and the nodes (which hide the ends of lines beside the edges)."""
        first_edge = self.body.find('<g id="e1"')
        if first_edge < 0:  # a tree of one node has no edge
            return self.body + under
        return self.body[:first_edge] + under + self.body[first_edge:]

    def leaf_box(self, leaf: int) -> _Box:
        """Where the box of ``leaf`` is, and how low the texts under it go."""
        group = self.groups[f"n{leaf}"]
        box = group.find(f"{_SVG}rect")
        assert box is not None, f"plies' drawing of leaf {leaf} has no box"
        baselines = [float(t.get("y", 0)) for t in group.iter() if t.get("y") is not None]
        return _Box(
            float(box.get("x", 0)),
            float(box.get("y", 0)),
            float(box.get("width", 0)),
            float(box.get("height", 0)),
            max(baselines),
        )

    def edge(self, node: int) -> tuple[float, float, float, float]:
        """The line of the edge into ``node``: ``(x1, y1, x2, y2)``, parent first."""
        line = self.groups[f"e{node}"].find(f"{_SVG}line")
        assert line is not None, f"plies' drawing of the edge into {node} has no line"
        x1, y1, x2, y2 = (float(line.get(a, 0)) for a in ("x1", "y1", "x2", "y2"))
        return x1, y1, x2, y2


def _marks(sheet: _Sheet, comparison: Comparison) -> str:
    """The marks over the drawing: the first difference's bands (under the rest),
    frames and words of extra and missed leaves, the student's numbers."""
    numbers: dict[int, list[int]] = {}
    for number, leaf in enumerate(comparison.student, 1):
        numbers.setdefault(leaf, []).append(number)
    out = [_first_band(sheet, leaf) for leaf in comparison.first_leaves if leaf is not None]
    for leaf in sorted(comparison.extra | comparison.missed | numbers.keys()):
        out.append(_leaf_marks(sheet, leaf, numbers.get(leaf, []), comparison))
    return "\n".join(m for m in out if m)


def _student_path(tree: Tree, comparison: Comparison) -> list[int]:
    """Every node (not the root) on the way down to the student's leaves, in id
    order: the edges into them are the ones the student's code went down."""
    seen: set[int] = set()
    for leaf in comparison.student:
        node = leaf
        while node > 0 and node not in seen:
            seen.add(node)
            node = tree.parent[node]
    return sorted(seen)


def _path_line(sheet: _Sheet, node: int) -> str:
    """A blue line beside the edge into ``node``, on its outer side (left of a line
    going left, right of the others), so lines beside edges from one parent never
    cross. Its start slides along it, out of the parent's note (below the edge's top
    or :data:`NOTE_HALF` aside). Drawn under the drawing's edge labels (haloed in
    white) and nodes."""
    x1, y1, x2, y2 = sheet.edge(node)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    side = 1 if x2 >= x1 else -1  # the normal (dy, -dx) points right and up
    ox, oy = side * dy / length * PATH_OFFSET, -side * dx / length * PATH_OFFSET
    slide = 0.0
    if oy < 0 and dx:  # the start is above the edge's: slide down the line
        below = -oy * length / dy
        aside = max(0.0, NOTE_HALF - abs(ox)) * length / abs(dx)
        slide = min(below, aside, length / 2) / length
    sx, sy = x1 + ox + slide * dx, y1 + oy + slide * dy
    return (
        f'<g class="student-path" data-node="{node}"><line x1="{sx:.1f}" y1="{sy:.1f}" '
        f'x2="{x2 + ox:.1f}" y2="{y2 + oy:.1f}"/></g>'
    )


def _first_band(sheet: _Sheet, leaf: int) -> str:
    """A translucent yellow band, dash-dot bordered, over ``leaf`` and its marks."""
    box = sheet.leaf_box(leaf)
    bottom = _rows(sheet, leaf)[1] + 5
    return (
        f'<g class="first-difference" data-node="{leaf}"><rect x="{box.centre - 35:g}" '
        f'y="{box.y - 9:g}" width="70" height="{bottom - box.y + 9:g}" rx="6"/></g>'
    )


def _rows(sheet: _Sheet, leaf: int) -> tuple[float, float]:
    """The middle of the row of the student's numbers under ``leaf``, and the
    baseline of the row of its flag (``extra``, ``missed``) below that."""
    pill = sheet.leaf_box(leaf).lowest + 4 + PILL_HIGH / 2
    return pill, pill + PILL_HIGH / 2 + 12


def _leaf_marks(sheet: _Sheet, leaf: int, numbers: list[int], comparison: Comparison) -> str:
    """The frame and word of an extra or missed leaf, and the student's numbers."""
    x, y, w, h, _ = box = sheet.leaf_box(leaf)
    pill_y, flag_y = _rows(sheet, leaf)
    out = []
    for kind, leaves in (("extra", comparison.extra), ("missed", comparison.missed)):
        if leaf in leaves:
            out.append(
                f'<g class="{kind}" data-node="{leaf}"><rect x="{x - 4:g}" y="{y - 4:g}" '
                f'width="{w + 8:g}" height="{h + 8:g}" rx="3"/>'
                f'<text class="flag" x="{box.centre:g}" y="{flag_y:g}">{kind}</text></g>'
            )
    if numbers:
        more = "…" if len(numbers) > NUMBERS_SHOWN else ""
        text = ",".join(map(str, numbers[:NUMBERS_SHOWN])) + more
        out.append(_pill(box.centre, pill_y, text, leaf))
    return "\n".join(out)


def _pill(centre: float, middle: float, text: str, leaf: int | None) -> str:
    """The student's number(s) ``text`` in a blue pill centred at (centre, middle)."""
    width = max(PILL_HIGH, 8 + 7 * len(text))
    data = f' data-node="{leaf}"' if leaf is not None else ""
    return (
        f'<g class="student-number"{data}><rect x="{centre - width / 2:g}" '
        f'y="{middle - PILL_HIGH / 2:g}" width="{width:g}" height="{PILL_HIGH}" '
        f'rx="{PILL_HIGH / 2:g}"/><text x="{centre:g}" y="{middle + 4:g}">{text}</text></g>'
    )


def _captions(tree: Tree, comparison: Comparison, short: str, rule: str) -> list[str]:
    """What the drawing shows, in words: the two counts, the extra and missed leaves,
    the leaves evaluated more than once, the first difference."""
    ref, mine = len(comparison.reference), len(comparison.student)
    numbered = f" (#1 to #{ref})" if ref > 1 else " (#1)" if ref else ""
    lines = [
        f"Your code against {short}{rule}",
        f"{_upper(short)} evaluates {_count(ref)}{numbered}; your code evaluated {mine} "
        "(blue numbers, blue line).",
    ]
    if comparison.extra:
        lines.append(
            f"Extra (under-pruning: {short} prunes them): {_names(tree, comparison.extra)}."
        )
    if comparison.missed:
        lines.append(
            f"Missed (over-pruning: {short} evaluates them): {_names(tree, comparison.missed)}."
        )
    again = _repeated(tree, comparison.student)
    if again:
        lines.append(f"Evaluated more than once by your code: {again}.")
    lines.append(_first_text(tree, comparison, short))
    return lines


def _repeated(tree: Tree, leaves: list[int]) -> str:
    """The leaves in ``leaves`` more than once, named with how often: ``D1 (3
    times)``; empty when none is."""
    times: dict[int, int] = {}
    for leaf in leaves:
        times[leaf] = times.get(leaf, 0) + 1
    again = [leaf for leaf, count in times.items() if count > 1]
    shown = ", ".join(f"{tree.name(n)} ({times[n]} times)" for n in again[:NAMES_SHOWN])
    return shown + (f" and {len(again) - NAMES_SHOWN} more" if len(again) > NAMES_SHOWN else "")


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _rule(result: TreeResult) -> str:
    """The reference's tie rule, for the title: `` (strict rule)``, or nothing for a
    search that does not prune."""
    if result.options.algorithm not in ("alphabeta", "negamax"):
        return ""
    return " (strict rule)" if result.options.strict else " (non-strict rule)"


def _count(n: int) -> str:
    return f"{n} leaf" if n == 1 else f"{n} leaves"


def _names(tree: Tree, leaves: frozenset[int]) -> str:
    ordered = sorted(leaves, key=tree.leaf_index.__getitem__)
    shown = ", ".join(tree.name(n) for n in ordered[:NAMES_SHOWN])
    more = len(ordered) - NAMES_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _first_text(tree: Tree, comparison: Comparison, short: str) -> str:
    k = comparison.first
    if k is None:
        return f"Same leaves in the same order as {short}: no difference."
    mine, theirs = comparison.first_leaves
    place = _ordinal(k + 1)
    if mine is not None and theirs is not None:
        return (
            f"First difference (yellow): your {place} leaf is {tree.name(mine)}; "
            f"{short}'s {place} is {tree.name(theirs)}."
        )
    if mine is not None:
        return (
            f"First difference (yellow): your {place} leaf, {tree.name(mine)}; "
            f"{short} stops after {_count(k)}."
        )
    assert theirs is not None
    return (
        f"First difference (yellow): your code stopped after {_count(k)}; "
        f"{short}'s {place} is {tree.name(theirs)}."
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _caption_svg(captions: list[str]) -> str:
    rows = []
    for k, text in enumerate(captions):
        kind = "caption title" if k == 0 else "caption"
        y = MARGIN // 2 + CAPTION_LINE * k + 12
        rows.append(f'<text class="{kind}" x="{MARGIN}" y="{y}">{html.escape(text)}</text>')
    return '<g class="captions">' + "".join(rows) + "</g>"


def _legend_entries(comparison: Comparison, short: str) -> list[tuple[str, str]]:
    """The legend's entries for the marks this drawing has: (kind, text)."""
    entries = [
        ("reference", f"the k-th leaf {short} evaluates"),
        ("student", "the k-th leaf your code evaluated, and the way your code went"),
    ]
    if comparison.extra:
        entries.append(("extra", f"extra: your code evaluated it, {short} prunes it"))
    if comparison.missed:
        entries.append(("missed", f"missed: {short} evaluates it, your code skipped it"))
    if comparison.first is not None:
        entries.append(("first-difference", f"first difference: your order leaves {short}'s"))
    return entries


def _legend_svg(entries: list[tuple[str, str]], top: float) -> str:
    rows = []
    for k, (kind, text) in enumerate(entries):
        middle = top + LEGEND_LINE * k + LEGEND_LINE / 2
        rows.append(_legend_sample(kind, MARGIN + 26, middle))
        rows.append(
            f'<text class="entry" x="{MARGIN + 60}" y="{middle + 4:g}">{html.escape(text)}</text>'
        )
    return f'<g class="legend">{"".join(rows)}</g>'


def _legend_sample(kind: str, centre: float, middle: float) -> str:
    """A small copy of the mark ``kind`` centred at (centre, middle)."""
    if kind == "reference":
        return f'<text class="ref" x="{centre:g}" y="{middle + 4:g}">#k</text>'
    if kind == "student":
        line = (
            f'<g class="student-path"><line x1="{centre - 26:g}" y1="{middle + 6:g}" '
            f'x2="{centre - 14:g}" y2="{middle - 6:g}"/></g>'
        )
        return line + _pill(centre + 4, middle, "k", None)
    if kind == "first-difference":
        return (
            f'<g class="first-difference"><rect x="{centre - 22:g}" y="{middle - 8:g}" '
            f'width="44" height="16" rx="4"/></g>'
        )
    return (
        f'<g class="{kind}"><rect x="{centre - 22:g}" y="{middle - 7:g}" width="44" '
        f'height="14" rx="3"/></g>'
    )
