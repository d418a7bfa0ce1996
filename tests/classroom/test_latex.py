"""The LaTeX sources: the lab's own TikZ drawing set in the page, boxes to fill in on
the worksheet, the whole key in the answers, the same bytes for the same sheet."""

from __future__ import annotations

import pytest

from plies import draw
from plies.classroom import PictureError, answers_tex, make_worksheet, worksheet_tex
from plies.classroom._latex import _fit, _parts


@pytest.fixture(scope="module")
def sheet():
    return make_worksheet(count=3, seed=1, branching=2, depth=3)


def test_the_drawing_is_the_labs_tikz_picture_line_for_line(sheet) -> None:
    source = worksheet_tex(sheet)
    for exercise in sheet.exercises:
        _, picture = _parts(draw.to_tikz(exercise.tree))
        assert "\n".join(picture) in source
    answers = answers_tex(sheet)
    for exercise in sheet.exercises:
        _, picture = _parts(draw.to_tikz(exercise.result))
        assert "\n".join(picture) in answers


def test_the_worksheet_has_boxes_for_every_inner_node_leaf_and_edge(sheet) -> None:
    source = worksheet_tex(sheet)
    tree = sheet.exercises[0].tree
    inner = sum(kind != "leaf" for kind in tree.kind)
    total = len(sheet.exercises)
    assert source.count("\\node[boxes") == inner * total
    assert source.count("\\node[order box") == tree.leaf_count * total
    assert source.count("node[cut mark") == (len(tree) - 1) * total
    assert "Leaves evaluated" not in source


def test_a_chance_tree_gets_value_boxes_and_no_cut_marks_or_order() -> None:
    source = worksheet_tex(make_worksheet(count=1, seed=3, chance=True))
    assert "expectiminimax" in source
    assert "cut mark, pos" not in source
    assert "order box, below" not in source  # expectiminimax evaluates every leaf
    assert "$\\alpha$\\," not in source


def test_the_same_sheet_gives_the_same_source_and_no_date_or_id(sheet) -> None:
    again = make_worksheet(count=3, seed=1, branching=2, depth=3)
    assert worksheet_tex(sheet) == worksheet_tex(again)
    assert answers_tex(sheet) == answers_tex(again)
    for source in (worksheet_tex(sheet), answers_tex(sheet)):
        assert "\\pdfinfoomitdate=1" in source
        assert "\\pdftrailerid{}" in source


def test_the_widest_tree_fits_its_half_page() -> None:
    tree = make_worksheet(count=1, seed=1, branching=3, depth=4).exercises[0].tree
    fit = _fit(tree, 27.3, 7.2, boxes=True)
    assert (tree.leaf_count - 1) * fit.slot <= 27.3 - 1.2 + 1e-9
    assert fit.triangle + fit.box < 3 * fit.slot  # an inner node and its boxes in their room


def test_a_drawing_without_its_picture_is_refused() -> None:
    with pytest.raises(PictureError, match="without its usual tikzset and tikzpicture"):
        _parts("\\documentclass{article}\n\\begin{document}\n\\end{document}\n")


def test_where_notes_would_overlap_the_key_leaves_them_to_its_table() -> None:
    small = answers_tex(make_worksheet(count=1, seed=1, branching=2, depth=3))
    assert "{\\scriptsize $\\alpha$=" in small
    assert "in the table" not in small
    big = answers_tex(make_worksheet(count=1, seed=1, branching=3, depth=4))
    assert "{\\scriptsize $\\alpha$=" not in big
    assert "$\\alpha$ and $\\beta$ of each node: in the table." in big
    assert "\\node[label text] at (n0.center) {A\\\\" in big  # names and values stay
