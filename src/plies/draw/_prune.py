"""Drawings of prune-and-search, one per round: selection as rows of boxes, 2-D linear
programming as the plane with its constraints.

Selection: the round's numbers in input order (groups of 5 for the median of medians,
each group's median outlined), coloured by the part they fall in (smaller, equal to
the pivot, larger), then the three parts side by side with the parts thrown away
greyed and the fraction kept. LP: the feasible region, every constraint line
(numbered; those still in play dark, those this round discards dashed vermillion,
those discarded before light grey), the part of the plane the search has already
ruled out shaded, the round's test line and the side the test chose, and the optimum.

Both take a ``width`` in CSS pixels (a phone's 360 to a desktop's 900): boxes wrap to
it and the plot is a square as wide as it allows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from html import escape
from itertools import islice

from plies.draw._errors import DrawError
from plies.draw._look import COLORS
from plies.prune import (
    GROUP,
    Constraint,
    LPResult,
    LPRound,
    SelectResult,
    SelectRound,
    format_exact,
    listed,
    ordinal,
)

__all__ = ["MAX_BOXES", "MAX_LINES", "lp_svg", "select_finish_svg", "select_svg"]

#: Numbers drawn as boxes in a row at most (the rest are counted, not drawn).
MAX_BOXES = 240
#: Constraint lines drawn at most.
MAX_LINES = 400
_FONT = "'DejaVu Sans', Arial, sans-serif"
_MONO = "'DejaVu Sans Mono', monospace"
_PART_FILL = {"smaller": COLORS["max"], "equal": COLORS["chance"], "larger": COLORS["min"]}
_GREY_FILL = COLORS["unseen"]
_TEST = "#0072b2"  # Okabe-Ito blue: the test line
_REGION = "#d9f0e3"
_MARGIN = 12
_GROUP_GAP = 10


def _svg(width: int, height: float, body: Iterable[str]) -> str:
    h = math.ceil(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" '
        f'viewBox="0 0 {width} {h}">\n'
        f'<rect width="{width}" height="{h}" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n"
    )


def _text(
    x: float, y: float, text: str, *, size: int = 13, anchor: str = "start", **extra: str
) -> str:
    attributes = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in extra.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family="{_FONT}" font-size="{size}" '
        f'text-anchor="{anchor}"{attributes}>{escape(text)}</text>'
    )


def _check_width(width: int) -> int:
    if isinstance(width, bool) or not isinstance(width, int) or not 240 <= width <= 4000:
        raise DrawError(f"a drawing's width must be a whole number from 240 to 4000, not {width!r}")
    return width


# -- selection -----------------------------------------------------------------------


class _Boxes:
    """Rows of number boxes wrapping at a width."""

    def __init__(self, values: Sequence[Fraction], width: int):
        self.labels = [format_exact(v) for v in values[:MAX_BOXES]]
        longest = max((len(label) for label in self.labels), default=1)
        self.box = max(28.0, 7.8 * longest + 10)
        self.step = self.box + 4
        self.per_row = max(1, int((width - 2 * _MARGIN + 4) // self.step))
        fits = (width - 2 * _MARGIN + 4 + _GROUP_GAP) // (GROUP * self.step + _GROUP_GAP)
        #: Boxes a row in groups of 5 (whole groups, a gap between them).
        self.per_grouped_row = int(fits) * GROUP if fits >= 1 else self.per_row

    def rows(self, count: int, *, grouped: bool = False) -> int:
        """Rows taken by ``count`` boxes."""
        per_row = self.per_grouped_row if grouped else self.per_row
        return max(1, -(-min(count, MAX_BOXES) // per_row))

    def draw(
        self,
        top: float,
        labels: Sequence[str],
        fills: Sequence[str],
        bold: Sequence[bool],
        grey: Sequence[bool],
        *,
        grouped: bool = False,
    ) -> list[str]:
        """The boxes from ``top``: label, fill, outlined or not, greyed or not."""
        out = []
        per_row = self.per_grouped_row if grouped else self.per_row
        for i, label in enumerate(labels[:MAX_BOXES]):
            column = i % per_row
            x = _MARGIN + column * self.step + (column // GROUP * _GROUP_GAP if grouped else 0)
            y = top + (i // per_row) * 34
            stroke = ("#222", "2.6") if bold[i] else ("#888" if grey[i] else "#222", "1")
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{self.box:.1f}" height="26" rx="3" '
                f'fill="{fills[i]}" stroke="{stroke[0]}" stroke-width="{stroke[1]}"/>'
            )
            color = COLORS["pruned_text"] if grey[i] else "#111"
            out.append(
                f'<text x="{x + self.box / 2:.1f}" y="{y + 18:.1f}" font-family="{_MONO}" '
                f'font-size="13" text-anchor="middle" fill="{color}">{escape(label)}</text>'
            )
        return out


def _part(value: Fraction, pivot: Fraction) -> str:
    return "smaller" if value < pivot else ("larger" if value > pivot else "equal")


def select_svg(result: SelectResult, index: int, *, width: int = 640) -> str:
    """Round ``index`` (from 0) of ``result`` as SVG ``width`` pixels wide."""
    _check_width(width)
    round_ = result.rounds[index]
    values = round_.values
    boxes = _Boxes(values, width)
    parts = [_part(v, round_.pivot) for v in values]
    body = [
        _text(
            _MARGIN,
            22,
            f"Round {index + 1}: {round_.size} numbers, the {ordinal(round_.rank)} smallest sought",
            size=14,
            font_weight="bold",
        ),
        _text(_MARGIN, 42, f"pivot {format_exact(round_.pivot)}: {_short_how(result, round_)}"),
    ]
    top = 56.0
    if len(values) > MAX_BOXES:
        body.append(
            _text(_MARGIN, top + 10, f"(the first {MAX_BOXES} of {len(values)} drawn)", size=11)
        )
        top += 18
    medians = _median_places(round_)
    grouped = result.method == "medians"
    body += boxes.draw(
        top,
        boxes.labels,
        [_PART_FILL[p] for p in parts],
        [i in medians for i in range(len(values))],
        [False] * len(values),
        grouped=grouped,
    )
    top += boxes.rows(len(values), grouped=grouped) * 34 + 14
    body.append(_text(_MARGIN, top + 6, "after partitioning around the pivot:", size=12))
    top += 16
    # The three parts side by side, each in input order: only the boxes drawn are made.
    pairs = list(zip(parts, values, strict=True))
    by_part = (pair for part in ("smaller", "equal", "larger") for pair in pairs if pair[0] == part)
    ordered = list(islice(by_part, MAX_BOXES))
    kinds = [kind for kind, _ in ordered]
    greyed = [kind != round_.kept for kind in kinds]
    body += boxes.draw(
        top,
        [format_exact(v) for _, v in ordered],
        [_GREY_FILL if g else _PART_FILL[k] for g, k in zip(greyed, kinds, strict=True)],
        [k == "equal" for k in kinds],
        greyed,
    )
    top += boxes.rows(len(values)) * 34 + 10
    body += _select_legend(round_, top, width)
    return _svg(width, top + 4 * 18 + 8, body)


def _select_legend(round_: SelectRound, top: float, width: int) -> list[str]:
    """The parts' sizes, the one kept and the fraction thrown away."""
    out = []
    sizes = (("smaller", round_.smaller), ("equal", round_.equal), ("larger", round_.larger))
    y = top + 12
    for name, size in sizes:
        kept = name == round_.kept
        out.append(
            f'<rect x="{_MARGIN}" y="{y - 11:.1f}" width="14" height="14" '
            f'fill="{_PART_FILL[name] if kept else _GREY_FILL}" stroke="#555"/>'
        )
        status = "kept" if kept else "discarded"
        out.append(
            _text(
                _MARGIN + 20,
                y,
                f"{size} {name if name != 'equal' else 'equal to the pivot'}: {status}",
                size=12,
            )
        )
        y += 18
    line = (
        f"kept {round_.kept_size} of {round_.size} ({round_.kept_fraction:.0%}), "
        f"discarded {round_.discarded_fraction:.0%}"
    )
    out.append(_text(_MARGIN, y, line, size=12, font_weight="bold"))
    return out


def _median_places(round_: SelectRound) -> set[int]:
    """Where each group's median stands among the round's numbers (one per group)."""
    places = set()
    for start, median in zip(range(0, round_.size, GROUP), round_.medians, strict=False):
        group = round_.values[start : start + GROUP]
        places.add(start + group.index(median))
    return places


def _short_how(result: SelectResult, round_: SelectRound) -> str:
    if result.method == "medians":
        return f"median of the {len(round_.medians)} group medians (outlined)"
    return "picked at random"


def select_finish_svg(result: SelectResult, *, width: int = 640) -> str:
    """The end of a selection: the numbers it finished with, sorted, and the answer."""
    _check_width(width)
    values = result.left
    answer = result.left_rank - 1
    boxes = _Boxes(values, width)
    title = f"The {ordinal(result.k)} smallest of {result.n}: {format_exact(result.value)}"
    body = [
        _text(_MARGIN, 22, title, size=14, font_weight="bold"),
        _text(
            _MARGIN,
            42,
            f"the last {len(values)} numbers, sorted: "
            f"the answer is the {ordinal(result.left_rank)}",
            size=12,
        ),
    ]
    body += boxes.draw(
        56,
        boxes.labels,
        [COLORS["chance"] if i == answer else "white" for i in range(len(values))],
        [i == answer for i in range(len(values))],
        [False] * len(values),
    )
    return _svg(width, 56 + boxes.rows(len(values)) * 34 + 8, body)


# -- linear programming --------------------------------------------------------------

_View = tuple[float, float, float, float]  # x0, y0, x1, y1


#: The largest plot, in pixels: a wider drawing puts the legend beside it.
_PLOT = 560
_LEGEND = 250
#: The width of a character of the 11 px footer, at most (DejaVu Sans), in pixels.
_FOOTER_CHAR = 6.5
#: Where along its line a constraint's number may go, in order of preference.
_LABEL_PLACES = (0.05, 0.95, 0.25, 0.75, 0.5, 0.15, 0.85, 0.35, 0.65)


def lp_svg(result: LPResult, index: int | None = None, *, width: int = 640) -> str:
    """Round ``index`` (from 0) of ``result``, or the whole search when ``None``, as SVG
    ``width`` pixels wide."""
    _check_width(width)
    constraints = result.program.constraints
    if len(constraints) > MAX_LINES:
        raise DrawError(
            f"{len(constraints):,} constraints are too many to draw (at most {MAX_LINES})"
        )
    round_ = None if index is None else result.rounds[index]
    side = min(width - 2 * _MARGIN, _PLOT)
    header = 52
    plot = _Plot(_view(result), _MARGIN, header, side)
    body = [
        _text(_MARGIN, 22, _lp_title(result, index), size=14, font_weight="bold"),
        _text(_MARGIN, 42, _lp_subtitle(result, round_), size=12),
        f'<rect x="{_MARGIN}" y="{header}" width="{side}" height="{side}" '
        'fill="white" stroke="#999"/>',
        *plot.region(constraints),
        *(plot.ruled_out(result, round_.window) if round_ is not None else ()),
        *plot.axes(),
    ]
    lines, hidden = _constraint_lines(plot, result, index)
    body += lines
    if round_ is not None and round_.test is not None:
        body += plot.test_line(result, round_)
    if result.status == "optimal" and result.x is not None and result.y is not None:
        body += plot.optimum(float(result.x), float(result.y))
    footer = [plot.ranges()]
    if hidden:  # on a line of its own when both do not fit the drawing's width
        unseen = f"not in view: {listed(hidden, max(1, (width - 2 * _MARGIN) // 30))}"
        fits = (len(footer[0]) + len(unseen) + 2) * _FOOTER_CHAR <= width - 2 * _MARGIN
        footer = [f"{footer[0]}; {unseen}"] if fits else [footer[0], unseen]
    for i, line in enumerate(footer):
        body.append(_text(_MARGIN, header + side + 16 + 14 * i, line, size=11, fill="#555"))
    below = header + side + 14 * len(footer)
    beside = width - side - 3 * _MARGIN >= _LEGEND
    left, top = (2 * _MARGIN + side, header) if beside else (_MARGIN, below + 8)
    legend = _lp_legend(result, round_)
    for i, (swatch, text) in enumerate(legend):
        y = top + 14 + 18 * i
        body.append(swatch.format(x=left, y=y - 5, x2=left + 22))
        body.append(_text(left + 30, y, text, size=12))
    height = max(below + 10, top + 18 * len(legend) + 10)
    return _svg(width, height, body)


def _constraint_lines(
    plot: _Plot, result: LPResult, index: int | None
) -> tuple[list[str], list[int]]:
    """Every constraint's line, styled by its state in round ``index``, then the
    numbers on them (placed apart from each other); and the numbers of the
    constraints whose lines miss the view."""
    round_ = None if index is None else result.rounds[index]
    before = _discarded_before(result, index)
    now = round_.discarded if round_ is not None else {}
    lines: list[str] = []
    labels: list[str] = []
    hidden: list[int] = []
    taken: list[tuple[float, float]] = []
    if result.x is not None and result.y is not None:
        taken.append(plot.at(float(result.x), float(result.y)))
    order = sorted(range(len(result.program.constraints)), key=lambda n: (n in before, n))
    for number in order:  # labels of the constraints in play first, the best places
        style = "now" if number in now else ("before" if number in before else "live")
        row = result.program.constraints[number].as_at_most()
        drawn = plot.constraint(row, number + 1, style, taken)
        lines += drawn[:1]
        labels += drawn[1:]
        if not drawn:
            hidden.append(number + 1)
    return lines + labels, sorted(hidden)


def _lp_title(result: LPResult, index: int | None) -> str:
    objective = result.program.objective.text()
    if index is None:
        answer: str = result.status
        if result.status == "optimal" and result.value is not None:
            answer = f"optimal, {format_exact(result.value)}"
        return f"{objective}: {answer}"
    return f"Round {index + 1}: {objective}"


def _lp_subtitle(result: LPResult, round_: LPRound | None) -> str:
    if round_ is None:
        where = ""
        if result.x is not None and result.y is not None:
            where = f" at x = {format_exact(result.x)}, y = {format_exact(result.y)}"
        count = len(result.rounds)
        return f"{count} round{'s' * (count != 1)}{where}"
    kept = f"{round_.size - len(round_.discarded)} of {round_.size} kept"
    if round_.test is None:
        return f"{round_.size} constraints paired; no crossing in the window; {kept}"
    return (
        f"test {result.u_name} = {format_exact(round_.test)}: {_side_words(result, round_)}; {kept}"
    )


def _side_words(result: LPResult, round_: LPRound) -> str:
    name, test = result.u_name, format_exact(round_.test or Fraction(0))
    return {
        "above": f"go to {name} > {test}",
        "below": f"go to {name} < {test}",
        "here": "optimal on it",
        "infeasible": "no feasible point",
    }.get(round_.side or "", "")


def _discarded_before(result: LPResult, index: int | None) -> set[int]:
    rounds = result.rounds if index is None else result.rounds[:index]
    return {number for r in rounds for number in r.discarded}


def _lp_legend(result: LPResult, round_: LPRound | None) -> list[tuple[str, str]]:
    line = '<line x1="{x}" y1="{y}" x2="{x2}" y2="{y}" '
    box = '<rect x="{x}" y="{y}" width="22" height="10" '
    legend = [
        (box + f'fill="{_REGION}" stroke="#5aa77a"/>', "feasible region"),
        (line + 'stroke="#222" stroke-width="1.6"/>', "constraint in play"),
    ]
    if round_ is not None:
        legend.append(
            (
                line + f'stroke="{COLORS["cut"]}" stroke-width="2" stroke-dasharray="6 3"/>',
                f"discarded this round ({len(round_.discarded)})",
            )
        )
    legend.append(
        (
            line + 'stroke="#c4c4c4" stroke-width="1.2"/>',
            "discarded earlier" if round_ is not None else "discarded by the search",
        )
    )
    if round_ is not None:
        legend.append((line + f'stroke="{_TEST}" stroke-width="2.4"/>', "test line"))
        legend.append(
            (
                box + 'fill="#9a9a9a" fill-opacity="0.28"/>',
                "outside the window (bounds, earlier tests)",
            )
        )
    return legend


class _Plot:
    """World coordinates (x, y) mapped onto a square of the drawing."""

    def __init__(self, view: _View, left: float, top: float, side: float):
        self.view = view
        self.left, self.top, self.side = left, top, side
        self.scale = side / (view[2] - view[0])

    def at(self, x: float, y: float) -> tuple[float, float]:
        """The drawing's coordinates of the point (x, y)."""
        return (
            self.left + (x - self.view[0]) * self.scale,
            self.top + (self.view[3] - y) * self.scale,
        )

    def _points(self, points: Iterable[tuple[float, float]]) -> str:
        return " ".join(f"{sx:.1f},{sy:.1f}" for sx, sy in (self.at(x, y) for x, y in points))

    def region(self, constraints: Sequence[Constraint]) -> list[str]:
        """The feasible region within the view, shaded (nothing when it misses the view)."""
        x0, y0, x1, y1 = self.view
        polygon = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        for constraint in constraints:
            a, b, c = constraint.as_at_most()
            polygon = _clip(polygon, float(a), float(b), float(c))
        if len(polygon) < 3:
            return []
        return [
            f'<polygon points="{self._points(polygon)}" fill="{_REGION}" stroke="#5aa77a" '
            'stroke-width="1"/>'
        ]

    def ruled_out(
        self, result: LPResult, window: tuple[Fraction | None, Fraction | None]
    ) -> list[str]:
        """Shade where the window no longer reaches."""
        x0, y0, x1, y1 = self.view
        out = []
        low, high = window
        spans = []
        horizontal = result.u_name == "x"
        first, last = (x0, x1) if horizontal else (y0, y1)
        if low is not None and float(low) > first:
            spans.append((first, min(float(low), last)))
        if high is not None and float(high) < last:
            spans.append((max(float(high), first), last))
        for start, end in spans:
            corners = (
                [(start, y0), (end, y0), (end, y1), (start, y1)]
                if horizontal
                else [(x0, start), (x1, start), (x1, end), (x0, end)]
            )
            out.append(
                f'<polygon points="{self._points(corners)}" fill="#9a9a9a" fill-opacity="0.28"/>'
            )
        return out

    def axes(self) -> list[str]:
        """The axes x = 0 and y = 0 where they are in view."""
        x0, y0, x1, y1 = self.view
        out = []
        if x0 < 0 < x1:
            out.append(self._segment((0, y0), (0, y1), 'stroke="#bbb" stroke-width="1"'))
        if y0 < 0 < y1:
            out.append(self._segment((x0, 0), (x1, 0), 'stroke="#bbb" stroke-width="1"'))
        return out

    def ranges(self) -> str:
        """The part of the plane shown, in words."""
        x0, y0, x1, y1 = self.view
        return f"x from {_short(x0)} to {_short(x1)}, y from {_short(y0)} to {_short(y1)}"

    def _segment(self, start: tuple[float, float], end: tuple[float, float], style: str) -> str:
        (ax, ay), (bx, by) = self.at(*start), self.at(*end)
        return f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" {style}/>'

    def constraint(
        self,
        row: tuple[Fraction, Fraction, Fraction],
        number: int,
        style: str,
        taken: list[tuple[float, float]],
    ) -> list[str]:
        """The line of a constraint and its number, put where no label in ``taken``
        is (``taken`` gets its place)."""
        ends = _line_in_view(float(row[0]), float(row[1]), float(row[2]), self.view)
        if ends is None:
            return []
        looks = {
            "live": 'stroke="#222" stroke-width="1.6"',
            "now": f'stroke="{COLORS["cut"]}" stroke-width="2" stroke-dasharray="6 3"',
            "before": 'stroke="#c4c4c4" stroke-width="1.2"',
        }
        (ax, ay), (bx, by) = self.at(*ends[0]), self.at(*ends[1])
        places = [(ax + t * (bx - ax), ay + t * (by - ay)) for t in _LABEL_PLACES]
        lx, ly = next((p for p in places if all(math.dist(p, q) >= 19 for q in taken)), places[0])
        taken.append((lx, ly))
        color = {"live": "#222", "now": COLORS["cut"], "before": "#999"}[style]
        return [
            self._segment(ends[0], ends[1], looks[style]),
            f'<circle cx="{lx:.1f}" cy="{ly:.1f}" r="8.5" fill="white" stroke="{color}" '
            'stroke-width="1"/>',
            _text(lx, ly + 4, str(number), size=11, anchor="middle", fill=color),
        ]

    def test_line(self, result: LPResult, round_: LPRound) -> list[str]:
        """The test line, with its equation and an arrow to the side the test chose,
        near the bottom (x = ...) or the right end (y = ...) of the plot; a line out of
        view is named at the edge it is beyond."""
        x0, y0, x1, y1 = self.view
        u = float(round_.test or 0)
        vertical = result.u_name == "x"
        first, last = (x0, x1) if vertical else (y0, y1)
        label = f"{result.u_name} = {format_exact(round_.test or Fraction(0))}"
        arrows = {"above": "→", "below": "←"} if vertical else {"above": "↑", "below": "↓"}
        arrow = arrows.get(round_.side or "", "")
        toward_low = round_.side == "below"
        text = f"{arrow} {label}".strip() if toward_low else f"{label} {arrow}".strip()
        if not first <= u <= last:
            go = f", go {arrow}" if arrow else ""
            return [self._off_view(f"test {label} (off view){go}", u > last, vertical)]
        start, end = ((u, y0), (u, y1)) if vertical else ((x0, u), (x1, u))
        sx, sy = self.at(*start)
        if vertical:
            anchor = "end" if toward_low else "start"
            if sx > self.left + self.side * 0.75:
                anchor = "end"
            elif sx < self.left + self.side * 0.25:
                anchor = "start"
            x, y = sx + (-6 if anchor == "end" else 6), sy - 30
        else:
            ex, ey = self.at(*end)
            anchor, x = "end", ex - 6
            y = ey + 18 if toward_low else ey - 8
        return [
            self._segment(start, end, f'stroke="{_TEST}" stroke-width="2.4"'),
            _halo(x, y, text, anchor=anchor, fill=_TEST),
        ]

    def _off_view(self, text: str, beyond_high: bool, vertical: bool) -> str:
        """``text`` at the edge of the plot a test line lies beyond."""
        bottom = self.top + self.side
        if vertical:
            x = self.left + self.side - 6 if beyond_high else self.left + 6
            return _halo(x, bottom - 30, text, anchor="end" if beyond_high else "start", fill=_TEST)
        y = self.top + 18 if beyond_high else bottom - 10
        return _halo(self.left + self.side - 6, y, text, anchor="end", fill=_TEST)

    def optimum(self, x: float, y: float) -> list[str]:
        """The optimum: a dot and its name."""
        sx, sy = self.at(x, y)
        anchor, dx = ("end", -9) if sx > self.left + self.side * 0.8 else ("start", 9)
        dy = 18 if sy < self.top + 24 else -9
        return [
            f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="5.5" fill="#111" stroke="white" '
            'stroke-width="1.5"/>',
            _halo(sx + dx, sy + dy, "optimum", anchor=anchor, fill="#111"),
        ]


def _halo(x: float, y: float, text: str, *, anchor: str, fill: str) -> str:
    """Bold text with a white halo, readable over lines."""
    return _text(
        x, y, text, size=12, anchor=anchor, fill=fill, font_weight="bold",
        stroke="white", stroke_width="3", paint_order="stroke",
    )  # fmt: skip


def _short(value: float) -> str:
    return f"{value:.3g}"


def _clip(
    polygon: list[tuple[float, float]], a: float, b: float, c: float
) -> list[tuple[float, float]]:
    """The part of ``polygon`` where a x + b y <= c (Sutherland-Hodgman, one edge)."""
    if a == 0 and b == 0:
        return polygon if c >= 0 else []
    out: list[tuple[float, float]] = []
    for i, current in enumerate(polygon):
        previous = polygon[i - 1]
        inside_now = a * current[0] + b * current[1] <= c
        inside_before = a * previous[0] + b * previous[1] <= c
        if inside_now != inside_before:
            out.append(_crossing(previous, current, a, b, c))
        if inside_now:
            out.append(current)
    return out


def _crossing(
    p: tuple[float, float], q: tuple[float, float], a: float, b: float, c: float
) -> tuple[float, float]:
    fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
    t = fp / (fp - fq)
    return p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])


def _line_in_view(
    a: float, b: float, c: float, view: _View
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where the line a x + b y = c enters and leaves the view, if it crosses it."""
    x0, y0, x1, y1 = view
    points = []
    if b != 0:
        for x in (x0, x1):
            y = (c - a * x) / b
            if y0 - 1e-9 <= y <= y1 + 1e-9:
                points.append((x, y))
    if a != 0:
        for y in (y0, y1):
            x = (c - b * y) / a
            if x0 - 1e-9 <= x <= x1 + 1e-9:
                points.append((x, y))
    points = sorted(set(points))
    if len(points) < 2:
        return None
    return points[0], points[-1]


def _view(result: LPResult) -> _View:
    """A square window onto the plane showing the feasible region's corners and the
    optimum (or the constraints' crossings when those are few), widened for the test
    lines up to twice its size each way: a test line further off is named at the edge."""
    points = _interesting_points(result) or [(-5.0, -5.0), (5.0, 5.0)]
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    reach = max(max(xs) - min(xs), max(ys) - min(ys), 2.0) * 2
    tests = [float(r.test) for r in result.rounds if r.test is not None]
    axis = xs if result.u_name == "x" else ys
    middle = (min(axis) + max(axis)) / 2
    axis += [min(max(t, middle - reach), middle + reach) for t in tests]
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    span = max(high_x - low_x, high_y - low_y, 2.0) * 1.3
    mid_x, mid_y = (low_x + high_x) / 2, (low_y + high_y) / 2
    return mid_x - span / 2, mid_y - span / 2, mid_x + span / 2, mid_y + span / 2


def _interesting_points(result: LPResult) -> list[tuple[float, float]]:
    """The feasible region's corners (and the optimum); for an empty or cornerless
    region, the middle half of the constraints' crossings."""
    far = 1e6
    polygon = [(-far, -far), (far, -far), (far, far), (-far, far)]
    for constraint in result.program.constraints:
        a, b, c = constraint.as_at_most()
        polygon = _clip(polygon, float(a), float(b), float(c))
    points = [(x, y) for x, y in polygon if abs(x) < far / 2 and abs(y) < far / 2]
    if result.x is not None and result.y is not None:
        points.append((float(result.x), float(result.y)))
    if len(set(points)) >= 2:
        return points
    crossings = []
    rows = [c.as_at_most() for c in result.program.constraints[:60]]
    for i, (a1, b1, c1) in enumerate(rows):
        for a2, b2, c2 in rows[i + 1 :]:
            det = a1 * b2 - a2 * b1
            if det != 0:
                crossings.append(
                    (float((c1 * b2 - c2 * b1) / det), float((a1 * c2 - a2 * c1) / det))
                )
    if len(crossings) <= 4:
        return points + crossings
    xs = sorted(x for x, _ in crossings)
    ys = sorted(y for _, y in crossings)
    quarter = len(crossings) // 4
    return [*points, (xs[quarter], ys[quarter]), (xs[-quarter - 1], ys[-quarter - 1])]
