"""Drawings of prune-and-search rounds: what each shows, at a desktop's and a phone's width."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from plies.draw import DrawError, lp_svg, select_finish_svg, select_svg
from plies.prune import parse_lp, select, solve_lp

NS = "{http://www.w3.org/2000/svg}"
NUMBERS = [30, 75, 69, 16, 47, 77, 60, 80, 74, 8, 77, 1, 60, 33, 70, 29, 24]
PROGRAM = "max x + y\nx + 2y <= 4\n3x + y <= 6\nx >= 0\ny >= 0\n-x + y <= 1\nx + y <= 10"
ROUNDS = """max 2x + 3y
4x + y <= 19
-5x + 3y <= 25
4x + 4y <= 32
x + 4y <= 33
4x + 4y <= 40
-3x + 3y <= 13
-5x + 2y <= 25
-2x + 3y <= 40
5x + 4y <= 34
5x + 3y <= 23
3x + 4y <= 28
5y <= 28
x >= 0
y >= 0
x <= 9
"""


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{NS}text")]


def widths(svg: str) -> tuple[float, list[float]]:
    """The drawing's width and the right edge of every box in it."""
    root = ET.fromstring(svg)
    edges = [float(r.get("x", 0)) + float(r.get("width", 0)) for r in root.iter(f"{NS}rect")]
    return float(root.get("width", 0)), edges


@pytest.mark.parametrize("width", [360, 900])
def test_a_selection_round_shows_every_number_twice_and_the_fraction_kept(width: int) -> None:
    result = select(NUMBERS, 5)
    first = result.rounds[0]
    svg = select_svg(result, 0, width=width)
    shown = texts(svg)
    assert sorted(int(t) for t in shown if t.isdigit()) == sorted(NUMBERS * 2)
    assert f"kept {first.kept_size} of {first.size} ({first.kept_fraction:.0%}), " in " ".join(
        shown
    )
    drawing_width, edges = widths(svg)
    assert drawing_width == width
    assert max(edges) <= width  # every box inside the drawing


def test_the_group_medians_are_outlined() -> None:
    result = select(NUMBERS, 5)
    svg = select_svg(result, 0, width=640)
    outlined = re.findall(r'stroke-width="2.6"/>\s*<text[^>]*>(\d+)<', svg)
    first_row = outlined[: len(result.rounds[0].medians)]
    assert [int(v) for v in first_row] == list(result.rounds[0].medians)


def test_the_answer_is_marked_among_the_last_numbers() -> None:
    result = select(NUMBERS, 5)
    svg = select_finish_svg(result)
    assert f"The 5th smallest of {len(NUMBERS)}: {sorted(NUMBERS)[4]}" in texts(svg)


@pytest.mark.parametrize("width", [360, 900])
def test_an_lp_round_shows_the_test_line_and_the_discarded(width: int) -> None:
    result = solve_lp(parse_lp(ROUNDS))
    index = next(i for i, r in enumerate(result.rounds) if r.discarded and r.test is not None)
    round_ = result.rounds[index]
    svg = lp_svg(result, index, width=width)
    shown = texts(svg)
    assert any(
        t.startswith(f"x = {round_.test}") or t.endswith(f"x = {round_.test}") for t in shown
    )
    assert f"discarded this round ({len(round_.discarded)})" in shown
    footer = " ".join(t for t in shown if t.startswith(("x from", "not in view")))
    hidden = footer.partition("not in view: ")[2]
    hidden_discarded = {int(n) for n in hidden.split(", ") if n} & {i + 1 for i in round_.discarded}
    drawn = svg.count('stroke-dasharray="6 3"') - 1  # the legend's sample too
    assert drawn + len(hidden_discarded) == len(round_.discarded)
    numbers = {int(t) for t in shown if t.isdigit()}
    assert {i + 1 for i in round_.discarded} - hidden_discarded <= numbers
    assert ET.fromstring(svg).get("width") == str(width)


def test_the_final_lp_drawing_marks_the_optimum() -> None:
    result = solve_lp(parse_lp(PROGRAM))
    shown = texts(lp_svg(result))
    assert "max x + y: optimal, 2.8" in shown
    assert "optimum" in shown
    assert any("1 round at x = 1.6, y = 1.2" in t for t in shown)


def test_infeasible_and_unbounded_programs_draw_without_an_optimum() -> None:
    for text in ("max x\nx + y <= 1\nx + y >= 2", "max x + y\nx >= 0\ny >= 0", "min x"):
        shown = texts(lp_svg(solve_lp(parse_lp(text))))
        assert "optimum" not in shown


def test_bad_widths_and_huge_programs_are_refused() -> None:
    result = solve_lp(parse_lp(PROGRAM))
    with pytest.raises(DrawError, match="width must be a whole number from 240 to 4000"):
        lp_svg(result, width=100)
    many = "max x\n" + "\n".join(f"x + {k}y <= {k}" for k in range(1, 402))
    with pytest.raises(DrawError, match="401 constraints are too many"):
        lp_svg(solve_lp(parse_lp(many)))
