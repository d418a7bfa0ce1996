"""plies' own line charts: valid SVG that carries its numbers, axes that cover the
values, and one clear error for what cannot be drawn."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import pytest

from plies.draw import CHART_WIDTH, DrawError, Panel, Series, chart_png, chart_size, chart_svg
from plies.draw._chart import _linear_ticks, _log_ticks, format_value

SVG = "{http://www.w3.org/2000/svg}"

MEASURED = Series(
    "measured",
    (1, 2, 3),
    (3.0, 8.5, 20.25),
    (3, 7, 18),
    (3, 10, 23),
    color="#0072b2",
    unit="leaves",
)
REFERENCE = Series("b^d", (1, 2, 3), (3, 9, 27), color="#777777", dash="7 4", markers=False)


def chart(*panels: Panel) -> ET.Element:
    return ET.fromstring(chart_svg(panels, title="A title", subtitle="a subtitle"))


def test_every_point_carries_its_numbers() -> None:
    root = chart(Panel("Leaves", "depth", "leaves", (REFERENCE, MEASURED)))
    points = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "point"]
    assert [
        (p.get("data-x"), p.get("data-y"), p.get("data-low"), p.get("data-high")) for p in points
    ] == [
        ("1", "3", "3", "3"),
        ("2", "8.5", "7", "10"),
        ("3", "20.25", "18", "23"),
    ]
    titles = [p.findtext(f"{SVG}title") for p in points]
    assert titles[1] == "measured, depth 2: 8.50 leaves (min 7, max 10)"
    # the reference has a line but no points
    series = {g.get("data-name"): g for g in root.iter(f"{SVG}g") if g.get("class") == "series"}
    assert series["b^d"].find(f"{SVG}polyline") is not None
    assert series["b^d"].find(f"{SVG}circle") is None


def test_the_last_values_are_written_at_the_end_of_the_lines() -> None:
    root = chart(Panel("Leaves", "depth", "leaves", (REFERENCE, MEASURED)))
    ends = [t for t in root.iter(f"{SVG}text") if t.get("class") == "end"]
    assert sorted(t.text or "" for t in ends) == ["20.2", "27"]
    # equal last values are written once, in the measured series' colour
    same = Series("same", (1, 2, 3), (1, 2, 27), color="#d55e00")
    ends = [
        t
        for t in chart(Panel("P", "x", "y", (REFERENCE, same))).iter(f"{SVG}text")
        if t.get("class") == "end"
    ]
    assert [(t.text, t.get("style")) for t in ends] == [("27", "fill: #d55e00")]


def test_end_labels_never_overlap() -> None:
    close = [Series(f"s{k}", (1, 2), (10, 100 + k)) for k in range(6)]
    ends = [
        t
        for t in chart(Panel("P", "x", "y", tuple(close))).iter(f"{SVG}text")
        if t.get("class") == "end"
    ]
    ys = sorted(float(t.get("y", "")) for t in ends)
    assert len(ys) == 6 and all(b - a >= 14 - 1e-6 for a, b in itertools.pairwise(ys))


def test_titles_axis_labels_and_legend() -> None:
    panels = (
        Panel("Leaves", "depth d", "leaves", (MEASURED, REFERENCE)),
        Panel(
            "Ratio", "depth d", "ratio", (Series("ratio", (1, 2, 3), (1.5, 2.0, 2.2)),), log_y=False
        ),
    )
    root = chart(*panels)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for text in ("A title", "a subtitle", "Leaves", "Ratio", "depth d", "leaves", "ratio"):
        assert text in texts
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ["measured", "b^d", "ratio"]  # each name once, in order
    width, height = chart_size(panels)
    assert (root.get("width"), root.get("height")) == (str(width), str(height))
    assert width == CHART_WIDTH and root.get("viewBox") == f"0 0 {width} {height}"


def test_a_narrow_chart_wraps_its_legend_into_more_rows() -> None:
    many = tuple(Series(f"series number {k}", (1,), (k + 1,)) for k in range(6))
    wide = chart_size([Panel("P", "x", "y", many)], width=1200)
    narrow = chart_size([Panel("P", "x", "y", many)], width=400)
    assert narrow[1] > wide[1]
    root = ET.fromstring(chart_svg([Panel("P", "x", "y", many)], title="t", width=400))
    for text in root.iter(f"{SVG}text"):
        if text.get("class") == "legend":
            assert float(text.get("x", "")) + 0.6 * 14 * len(text.text or "") <= 400


def test_log_ticks_cover_the_values() -> None:
    assert _log_ticks([3, 729]) == [1, 10, 100, 1000]
    assert _log_ticks([2, 4]) == [1, 2, 5, 10]
    assert _log_ticks([1, 1000]) == [1, 10, 100, 1000]
    assert _log_ticks([0.5, 3]) == [0.1, 0.2, 0.5, 1, 2, 5, 10]


def test_linear_ticks_are_round_and_cover_the_values() -> None:
    assert _linear_ticks([1.94, 3]) == pytest.approx([1.5, 2.0, 2.5, 3.0])
    assert _linear_ticks([1.94, 2.9]) == pytest.approx([1.8, 2.0, 2.2, 2.4, 2.6, 2.8, 3.0])
    assert _linear_ticks([0, 10]) == [0, 2, 4, 6, 8, 10]
    assert _linear_ticks([2, 2]) == pytest.approx([1.0, 1.5, 2.0, 2.5, 3.0])


def test_points_sit_where_their_values_are_on_a_log_axis() -> None:
    series = Series("s", (1, 2, 3), (1, 10, 100))
    root = chart(Panel("P", "x", "y", (series,)))
    ys = [float(c.get("cy", "")) for c in root.iter(f"{SVG}circle") if c.get("class") == "point"]
    assert ys[0] - ys[1] == pytest.approx(ys[1] - ys[2], abs=0.2)  # a decade each


def test_values_are_written_readably() -> None:
    assert [format_value(v) for v in (3, 1093.0, 85.75, 2.2857, 12345.67)] == [
        "3",
        "1,093",
        "85.8",
        "2.29",
        "12,345.7",
    ]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Series("s", (1, 2), (1,)), "as many values as xs"),
        (lambda: Series("s", (), ()), "at least one"),
        (lambda: Series("s", (1,), (1,), lows=(1,)), "both lows and highs"),
        (lambda: chart_svg([], title="t"), "at least one panel"),
        (
            lambda: chart_svg([Panel("P", "x", "y", (Series("s", (1,), (0,)),))], title="t"),
            "above 0",
        ),
        (
            lambda: chart_svg([Panel("P", "x", "y", (Series("s", (1,), (math.inf,)),))], title="t"),
            "not a finite number",
        ),
    ],
)
def test_what_cannot_be_drawn_is_one_clear_error(make: object, message: str) -> None:
    with pytest.raises(DrawError, match=message):
        make()  # type: ignore[operator]


def test_text_is_escaped() -> None:
    svg = chart_svg([Panel("a < b & c", "x", "y", (Series("<s>", (1,), (1,)),))], title="t & u")
    root = ET.fromstring(svg)
    assert "a < b & c" in [t.text for t in root.iter(f"{SVG}text")]


def test_the_png_has_the_chart_s_size() -> None:
    pytest.importorskip("resvg_py")
    panels = [Panel("Leaves", "depth", "leaves", (MEASURED, REFERENCE))]
    png = chart_png(panels, title="t", dpi=192)
    width, height = chart_size(panels)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert int.from_bytes(png[16:20], "big") == 2 * width
    assert int.from_bytes(png[20:24], "big") == 2 * height
