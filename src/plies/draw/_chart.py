"""Line charts drawn by plies itself: measured series beside reference curves, on a
logarithmic or linear axis, one panel under another, as SVG (and PNG through resvg).

Plain Python and plain SVG, so a chart comes out the same in the command line, the web
lab and a Pyodide page with no plotting library. The chart carries its numbers: every
point is a ``<circle class="point">`` with ``data-x``, ``data-y`` (and ``data-low``,
``data-high`` for a spread) and a ``<title>`` a reader sees on hover, and the last value
of each series is written at the right end of its line.

>>> series = Series("leaves", (1, 2, 3), (3, 9, 27))
>>> svg = chart_svg([Panel("Leaves", "depth", "leaves", (series,))], title="b = 3")
>>> 'data-y="27"' in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from plies.draw._errors import DrawError
from plies.draw._limits import check_png
from plies.draw._png import svg_to_png
from plies.draw._svg import escape

__all__ = ["CHART_WIDTH", "Panel", "Series", "chart_png", "chart_size", "chart_svg"]

#: Width of a chart in CSS pixels. Narrow enough that its type stays readable when a
#: phone (390 px) shows it whole: the 13 px tick labels come out at about 10.6 px.
CHART_WIDTH = 480
_LEFT = 62  # room for the y tick labels and the rotated y label
_RIGHT = 70  # room for the values written at the end of each line
_PLOT_HEIGHT = 240
_PANEL_TITLE = 30  # above a panel's plot
_PANEL_FOOT = 50  # below a panel's plot: x ticks and the x label
_PANEL_GAP = 14
_LEGEND_ROW = 22
_CHAR = 0.6  # width of a character, in font sizes (DejaVu Sans, a safe guess)
_FONT = "'DejaVu Sans', Arial, sans-serif"
_STYLE = f"""
text {{ font-family: {_FONT}; fill: #222; }}
.title {{ font-size: 18px; font-weight: bold; }}
.subtitle {{ font-size: 13px; fill: #444; }}
.panel-title {{ font-size: 15px; font-weight: bold; }}
.tick {{ font-size: 13px; fill: #444; }}
.axis-label {{ font-size: 14px; }}
.legend {{ font-size: 14px; }}
.end {{ font-size: 13px; font-weight: bold; stroke: white; stroke-width: 3px;
  paint-order: stroke; }}
.grid {{ stroke: #e3e3e3; stroke-width: 1; }}
.axis {{ stroke: #444; stroke-width: 1.2; fill: none; }}
.series polyline {{ fill: none; stroke-width: 2.2; stroke-linejoin: round; }}
.series .bar {{ stroke-width: 1.4; }}
.point {{ stroke: white; stroke-width: 1; }}
"""


@dataclass(frozen=True, slots=True)
class Series:
    """One line of a chart: ``ys`` at ``xs`` (same length), optionally with a spread
    (``lows``, ``highs``: drawn as bars). ``dash`` is an SVG ``stroke-dasharray``
    (None: solid); ``markers`` draws a dot per point (a reference curve has none).
    ``unit`` follows a value in the hover text (``17 leaves``)."""

    name: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    lows: tuple[float, ...] | None = None
    highs: tuple[float, ...] | None = None
    color: str = "#000000"
    dash: str | None = None
    markers: bool = True
    unit: str = ""

    def __post_init__(self) -> None:
        lengths = {len(self.xs), len(self.ys)}
        lengths |= {len(s) for s in (self.lows, self.highs) if s is not None}
        if len(lengths) != 1 or not self.xs:
            raise DrawError(f"series {self.name!r} needs as many values as xs, and at least one")
        if (self.lows is None) != (self.highs is None):
            raise DrawError(f"series {self.name!r}: give both lows and highs, or neither")


@dataclass(frozen=True, slots=True)
class Panel:
    """One plot of a chart: its title, axis labels and series; ``log_y`` puts the
    y axis on a logarithmic scale (every value must then be above 0)."""

    title: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]
    log_y: bool = True


def chart_size(panels: Sequence[Panel], *, width: int = CHART_WIDTH) -> tuple[int, int]:
    """The chart's width and height in CSS pixels."""
    header = _header_height(panels, width)
    return width, header + len(panels) * _panel_height()


def chart_svg(
    panels: Sequence[Panel], *, title: str, subtitle: str = "", width: int = CHART_WIDTH
) -> str:
    """A standalone SVG document of ``panels`` one under another, under ``title``, a
    ``subtitle`` line and one legend of every series name (first look wins)."""
    if not panels:
        raise DrawError("a chart needs at least one panel")
    width, height = chart_size(panels, width=width)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img">',
        f"<title>{escape(title)}</title>",
        f"<style>{_STYLE}</style>",
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text class="title" x="{width / 2:g}" y="26" text-anchor="middle">{escape(title)}</text>',
    ]
    if subtitle:
        parts.append(
            f'<text class="subtitle" x="{width / 2:g}" y="46" text-anchor="middle">'
            f"{escape(subtitle)}</text>"
        )
    parts.extend(_legend(panels, width))
    top = _header_height(panels, width)
    for panel in panels:
        parts.extend(_panel(panel, top, width))
        top += _panel_height()
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def chart_png(
    panels: Sequence[Panel],
    *,
    title: str,
    subtitle: str = "",
    width: int = CHART_WIDTH,
    dpi: int = 192,
) -> bytes:
    """The PNG of :func:`chart_svg` at ``dpi`` (96: pixel for pixel), drawn by resvg
    (``pip install 'plies[draw]'``, no system program)."""
    check_png(*chart_size(panels, width=width), dpi, "a chart")
    return svg_to_png(chart_svg(panels, title=title, subtitle=subtitle, width=width), dpi=dpi)


# -- the legend ------------------------------------------------------------------------


def _legend_entries(panels: Sequence[Panel]) -> list[Series]:
    """One series per name, in order of first appearance."""
    seen: dict[str, Series] = {}
    for panel in panels:
        for series in panel.series:
            seen.setdefault(series.name, series)
    return list(seen.values())


def _legend_rows(panels: Sequence[Panel], width: int) -> list[list[tuple[float, Series]]]:
    """The legend's entries placed in rows that fit ``width``: (x, series) each."""
    rows: list[list[tuple[float, Series]]] = [[]]
    x = 16.0
    for series in _legend_entries(panels):
        entry = 34 + _CHAR * 14 * len(series.name) + 18
        if rows[-1] and x + entry > width - 8:
            rows.append([])
            x = 16.0
        rows[-1].append((x, series))
        x += entry
    return rows


def _header_height(panels: Sequence[Panel], width: int) -> int:
    return 58 + len(_legend_rows(panels, width)) * _LEGEND_ROW


def _legend(panels: Sequence[Panel], width: int) -> list[str]:
    parts = ['<g class="legend-box">']
    for r, row in enumerate(_legend_rows(panels, width)):
        y = 66 + r * _LEGEND_ROW
        for x, series in row:
            parts.append(_swatch(series, x, y))
            parts.append(
                f'<text class="legend" x="{x + 34:g}" y="{y + 5:g}">{escape(series.name)}</text>'
            )
    parts.append("</g>")
    return parts


def _swatch(series: Series, x: float, y: float) -> str:
    dash = f' stroke-dasharray="{series.dash}"' if series.dash else ""
    line = (
        f'<line x1="{x:g}" y1="{y:g}" x2="{x + 28:g}" y2="{y:g}" stroke="{series.color}" '
        f'stroke-width="2.6"{dash}/>'
    )
    if not series.markers:
        return line
    return line + f'<circle cx="{x + 14:g}" cy="{y:g}" r="4" fill="{series.color}"/>'


# -- one panel -------------------------------------------------------------------------


def _panel_height() -> int:
    return _PANEL_TITLE + _PLOT_HEIGHT + _PANEL_FOOT + _PANEL_GAP


@dataclass(frozen=True, slots=True)
class _Frame:
    """Where a panel's plot sits and how values map onto it."""

    left: float
    top: float
    width: float
    height: float
    x_low: float
    x_high: float
    y_low: float
    y_high: float
    log_y: bool
    ticks: tuple[float, ...]

    def x(self, value: float) -> float:
        span = self.x_high - self.x_low
        return self.left + (value - self.x_low) / span * self.width

    def y(self, value: float) -> float:
        low, high, v = self.y_low, self.y_high, value
        if self.log_y:
            low, high, v = math.log10(low), math.log10(high), math.log10(value)
        return self.top + self.height - (v - low) / (high - low) * self.height


def _panel(panel: Panel, top: float, width: int) -> list[str]:
    frame = _frame(panel, top + _PANEL_TITLE, width)
    parts = [
        f'<g class="panel" data-title="{escape(panel.title)}">',
        f'<text class="panel-title" x="{_LEFT:g}" y="{top + 20:g}">{escape(panel.title)}</text>',
    ]
    parts.extend(_y_axis(panel, frame))
    parts.extend(_x_axis(panel, frame))
    for series, shift in zip(panel.series, _shifts(panel.series), strict=True):
        parts.extend(_series(series, frame, shift, panel.x_label))
    parts.extend(_end_labels(panel.series, frame))
    parts.append("</g>")
    return parts


def _frame(panel: Panel, top: float, width: int) -> _Frame:
    xs = [x for s in panel.series for x in s.xs]
    values = [v for s in panel.series for v in (*s.ys, *(s.lows or ()), *(s.highs or ()))]
    if any(not math.isfinite(v) for v in (*xs, *values)):
        raise DrawError(f"panel {panel.title!r} has a value that is not a finite number")
    if panel.log_y and min(values) <= 0:
        raise DrawError(f"panel {panel.title!r} is logarithmic: every value must be above 0")
    x_low, x_high = min(xs) - 0.5, max(xs) + 0.5
    ticks = _log_ticks(values) if panel.log_y else _linear_ticks(values)
    return _Frame(
        left=_LEFT,
        top=top,
        width=width - _LEFT - _RIGHT,
        height=_PLOT_HEIGHT,
        x_low=x_low,
        x_high=x_high,
        y_low=ticks[0],
        y_high=ticks[-1],
        log_y=panel.log_y,
        ticks=tuple(ticks),
    )


def _log_ticks(values: Sequence[float]) -> list[float]:
    """Powers of ten around ``values`` (with 2 and 5 times them when the values span
    two decades or less), from the one at or below the least to the one at or above
    the greatest."""
    low = math.floor(math.log10(min(values)) + 1e-9)
    high = math.ceil(math.log10(max(values)) - 1e-9)
    high = max(high, low + 1)
    steps = (1, 2, 5) if high - low <= 2 else (1,)
    ticks = [m * 10.0**k for k in range(low, high) for m in steps]
    return [*ticks, 10.0**high]


def _linear_ticks(values: Sequence[float]) -> list[float]:
    """Round ticks (steps of 1, 2 or 5 times a power of ten), about five, around
    ``values``."""
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / 5
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    return [k * step for k in range(first, last + 1)]


def _y_axis(panel: Panel, frame: _Frame) -> list[str]:
    right = frame.left + frame.width
    parts: list[str] = []
    for tick in frame.ticks:
        y = frame.y(tick)
        parts.append(
            f'<line class="grid" x1="{frame.left:g}" y1="{y:.1f}" x2="{right:g}" y2="{y:.1f}"/>'
        )
        parts.append(
            f'<text class="tick" x="{frame.left - 6:g}" y="{y + 4.5:.1f}" text-anchor="end">'
            f"{_tick_text(tick, frame.log_y)}</text>"
        )
    middle = frame.top + frame.height / 2
    parts.append(
        f'<text class="axis-label" x="16" y="{middle:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 16 {middle:.1f})">{escape(panel.y_label)}</text>'
    )
    return parts


def _x_axis(panel: Panel, frame: _Frame) -> list[str]:
    bottom = frame.top + frame.height
    parts = [
        f'<rect class="axis" x="{frame.left:g}" y="{frame.top:g}" width="{frame.width:g}" '
        f'height="{frame.height:g}"/>'
    ]
    for x in sorted({x for s in panel.series for x in s.xs}):
        px = frame.x(x)
        parts.append(
            f'<line class="axis" x1="{px:.1f}" y1="{bottom:g}" x2="{px:.1f}" y2="{bottom + 5:g}"/>'
        )
        parts.append(
            f'<text class="tick" x="{px:.1f}" y="{bottom + 20:g}" text-anchor="middle">'
            f"{format_value(x)}</text>"
        )
    parts.append(
        f'<text class="axis-label" x="{frame.left + frame.width / 2:.1f}" y="{bottom + 42:g}" '
        f'text-anchor="middle">{escape(panel.x_label)}</text>'
    )
    return parts


def _tick_text(value: float, log_y: bool) -> str:
    """A tick's label: ``1k``, ``10k``, ``1M`` on a log axis; plain numbers else."""
    if log_y:
        for size, suffix in ((1e6, "M"), (1e3, "k")):
            if value >= size:
                return f"{value / size:g}{suffix}"
        return f"{value:g}"
    return f"{round(value, 6):g}"


def format_value(value: float) -> str:
    """A measured value as the chart writes it: whole numbers with thousands
    separators, others with two decimals below 10 and one above."""
    if abs(value - round(value)) < 1e-9:
        return f"{round(value):,}"
    return f"{value:,.2f}" if abs(value) < 10 else f"{value:,.1f}"


def _shifts(all_series: Sequence[Series]) -> list[float]:
    """A small sideways shift per series whose spread shows (some low below some
    high), so their bars do not hide one another; the others stay on their x, where
    a measured line can lie exactly on a reference curve."""
    spread = [_has_spread(s) for s in all_series]
    count = sum(spread)
    shifts: list[float] = []
    k = 0
    for has_spread in spread:
        shifts.append((k - (count - 1) / 2) * 4.0 if has_spread else 0.0)
        k += has_spread
    return shifts


def _has_spread(series: Series) -> bool:
    if series.lows is None or series.highs is None:
        return False
    return any(low < high for low, high in zip(series.lows, series.highs, strict=True))


def _series(series: Series, frame: _Frame, shift: float, x_label: str) -> list[str]:
    points = [(frame.x(x) + shift, frame.y(y)) for x, y in zip(series.xs, series.ys, strict=True)]
    dash = f' stroke-dasharray="{series.dash}"' if series.dash else ""
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    parts = [
        f'<g class="series" data-name="{escape(series.name)}">',
        f'<polyline points="{line}" stroke="{series.color}"{dash}/>',
    ]
    if series.lows is not None and series.highs is not None:
        for (px, _), low, high in zip(points, series.lows, series.highs, strict=True):
            parts.append(_bar(px, frame.y(low), frame.y(high), series.color))
    if series.markers:
        for k, (px, py) in enumerate(points):
            parts.append(_point(series, k, px, py, x_label))
    parts.append("</g>")
    return parts


def _bar(x: float, y_low: float, y_high: float, color: str) -> str:
    return (
        f'<path class="bar" d="M{x - 3:.1f},{y_low:.1f}h6M{x:.1f},{y_low:.1f}V{y_high:.1f}'
        f'M{x - 3:.1f},{y_high:.1f}h6" stroke="{color}"/>'
    )


def _point(series: Series, k: int, px: float, py: float, x_label: str) -> str:
    x, y = series.xs[k], series.ys[k]
    data = f'data-x="{x:g}" data-y="{y:g}"'
    hover = f"{series.name}, {x_label} {format_value(x)}: {format_value(y)} {series.unit}".rstrip()
    if series.lows is not None and series.highs is not None:
        low, high = series.lows[k], series.highs[k]
        data += f' data-low="{low:g}" data-high="{high:g}"'
        hover += f" (min {format_value(low)}, max {format_value(high)})"
    return (
        f'<circle class="point" cx="{px:.1f}" cy="{py:.1f}" r="4" fill="{series.color}" '
        f"{data}><title>{escape(hover)}</title></circle>"
    )


def _end_labels(all_series: Sequence[Series], frame: _Frame) -> list[str]:
    """The last value of each series right of the plot, at its height, pushed apart
    so no two overlap; equal values are written once (in a measured series' colour)."""
    labels: dict[str, tuple[float, str]] = {}
    measured_first = sorted(all_series, key=lambda s: not s.markers)
    for series in measured_first:
        text = format_value(series.ys[-1])
        labels.setdefault(text, (frame.y(series.ys[-1]), series.color))
    placed = sorted((y, text, color) for text, (y, color) in labels.items())
    gap = 14.0
    ys = [y for y, _, _ in placed]
    for i in range(1, len(ys)):
        ys[i] = max(ys[i], ys[i - 1] + gap)
    overflow = ys[-1] - (frame.top + frame.height + 8) if ys else 0
    if overflow > 0:  # pushed below the plot: move the stack up again
        ys = [y - overflow for y in ys]
        for i in range(len(ys) - 2, -1, -1):
            ys[i] = min(ys[i], ys[i + 1] - gap)
    x = frame.left + frame.width + 6
    return [
        f'<text class="end" x="{x:g}" y="{y + 4:.1f}" style="fill: {color}">{escape(text)}</text>'
        for y, (_, text, color) in zip(ys, placed, strict=True)
    ]
