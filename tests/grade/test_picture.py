"""The drawing of one test (plies.grade._picture.compare_svg): plies' reference search
with the student's path and order on it, under- and over-pruned leaves flagged where
they are, the first difference marked, and the size limits of plies' drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies import draw
from plies.draw._png import svg_to_png
from plies.errors import ArgumentTypeError, LimitError
from plies.grade import reference
from plies.grade._picture import PictureError, compare, compare_svg
from plies.trees import Tree, TreeResult, from_leaves, parse, random_tree

SVG = "{http://www.w3.org/2000/svg}"

#: AIMA Figure 5.2: A(B(B1..B3), C(C1..C3), D(D1..D3)); leaves are node ids 2-4, 6-8, 10-12.
AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
AIMA_ALPHABETA = [2, 3, 4, 6, 10, 11, 12]  # B1 B2 B3 C1 D1 D2 D3: C2, C3 pruned
AIMA_EVERY_LEAF = [2, 3, 4, 6, 7, 8, 10, 11, 12]
#: A(B(B1,B2), C(C1,C2), D(D1,D2)): C1 = 3 ties alpha = 3, so the non-strict rule
#: prunes C2 (node 6) and the strict rule evaluates it; both prune D2 (node 9).
TIES = "[[3,5],[3,1],[2,9]]"
TIES_NONSTRICT = [2, 3, 5, 8]
TIES_STRICT = [2, 3, 5, 6, 8]


def marks(svg: str, kind: str) -> dict[int, ET.Element]:
    """The marks of class ``kind`` in the drawing, by the node they mark."""
    root = ET.fromstring(svg)
    found = {}
    for group in root.iter(f"{SVG}g"):
        if kind in (group.get("class") or "").split() and group.get("data-node") is not None:
            found[int(group.get("data-node", ""))] = group
    return found


def numbers(svg: str) -> dict[int, str]:
    """The student's numbers under each leaf."""
    return {node: "".join(group.itertext()) for node, group in marks(svg, "student-number").items()}


def captions(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}text") if "caption" in (t.get("class") or "")]


def legend(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    return [t.text or "" for t in group.iter(f"{SVG}text") if t.get("class") == "entry"]


def search(text: str, *, strict: bool = False) -> TreeResult:
    return reference(parse(text), "alphabeta", strict=strict)


def test_the_drawing_is_plies_drawing_of_the_search_with_every_node() -> None:
    result = search(AIMA)
    svg = compare_svg(result, AIMA_EVERY_LEAF)
    root = ET.fromstring(svg)
    ids = {g.get("id") for g in root.iter(f"{SVG}g") if g.get("id")}
    assert ids == {f"n{i}" for i in range(13)} | {f"e{i}" for i in range(1, 13)}
    plain = draw.to_svg(result)
    body = plain[plain.index(">") + 1 : plain.rindex("</svg>")]
    for line in body.splitlines()[1:]:  # every edge and node exactly as plies draws it
        assert line in svg


def test_a_student_who_never_prunes_has_c2_and_c3_extra_on_aima_figure_5_2() -> None:
    svg = compare_svg(search(AIMA), AIMA_EVERY_LEAF)
    assert set(marks(svg, "extra")) == {7, 8}  # C2 and C3
    assert all("extra" in "".join(g.itertext()) for g in marks(svg, "extra").values())
    assert marks(svg, "missed") == {}
    assert numbers(svg) == {leaf: str(k) for k, leaf in enumerate(AIMA_EVERY_LEAF, 1)}
    # The 5th leaf: C2 for the student, D1 for alpha-beta.
    assert set(marks(svg, "first-difference")) == {7, 10}
    assert "Extra (under-pruning: alpha-beta prunes them): C2, C3." in captions(svg)
    assert "First difference (yellow): your 5th leaf is C2; alpha-beta's 5th is D1." in captions(
        svg
    )


def test_the_student_path_runs_beside_the_edges_it_went_down() -> None:
    svg = compare_svg(search(TIES, strict=True), TIES_NONSTRICT)
    # B, B1, B2, C, C1, D, D1: not C2 (skipped) nor D2 (pruned by both).
    assert set(marks(svg, "student-path")) == {1, 2, 3, 4, 5, 7, 8}


def test_a_non_strict_student_misses_c2_under_the_strict_rule() -> None:
    svg = compare_svg(search(TIES, strict=True), TIES_NONSTRICT)
    assert set(marks(svg, "missed")) == {6}  # C2
    assert marks(svg, "extra") == {}
    assert 6 not in numbers(svg)
    assert set(marks(svg, "first-difference")) == {8, 6}  # your 4th D1, the reference's C2
    assert captions(svg)[0] == "Your code against alpha-beta (strict rule)"


def test_a_strict_student_has_c2_extra_under_the_non_strict_rule() -> None:
    svg = compare_svg(search(TIES), TIES_STRICT)
    assert set(marks(svg, "extra")) == {6}
    assert marks(svg, "missed") == {}
    assert captions(svg)[0] == "Your code against alpha-beta (non-strict rule)"


def test_a_student_identical_to_the_reference_has_no_divergence_marks() -> None:
    svg = compare_svg(search(AIMA), AIMA_ALPHABETA)
    for kind in ("extra", "missed", "first-difference"):
        assert marks(svg, kind) == {}
    assert numbers(svg) == {leaf: str(k) for k, leaf in enumerate(AIMA_ALPHABETA, 1)}
    assert "Same leaves in the same order as alpha-beta: no difference." in captions(svg)
    assert len(legend(svg)) == 2  # the two orders, and nothing about marks not drawn


def test_a_student_who_stops_early_misses_the_rest() -> None:
    svg = compare_svg(search(AIMA), AIMA_ALPHABETA[:4])
    assert set(marks(svg, "missed")) == {10, 11, 12}
    assert set(marks(svg, "first-difference")) == {10}  # alpha-beta's 5th, D1
    assert (
        "First difference (yellow): your code stopped after 4 leaves; alpha-beta's 5th is D1."
        in captions(svg)
    )


def test_an_order_of_the_same_leaves_shows_only_where_it_first_differs() -> None:
    swapped = [2, 4, 3, 6, 10, 11, 12]  # B3 before B2
    svg = compare_svg(search(AIMA), swapped)
    assert marks(svg, "extra") == marks(svg, "missed") == {}
    assert set(marks(svg, "first-difference")) == {4, 3}
    assert numbers(svg)[4] == "2" and numbers(svg)[3] == "3"


def test_a_leaf_read_again_shows_every_number() -> None:
    svg = compare_svg(search(AIMA), [2, 3, 2, 4, 6, 10, 11, 12, 2, 2])
    assert numbers(svg)[2] == "1,3,9…"  # three numbers shown, then an ellipsis
    assert "Evaluated more than once by your code: B1 (4 times)." in captions(svg)


def test_the_legend_names_the_marks_drawn() -> None:
    svg = compare_svg(search(TIES, strict=True), TIES_NONSTRICT)
    assert legend(svg) == [
        "the k-th leaf alpha-beta evaluates",
        "the k-th leaf your code evaluated, and the way your code went",
        "missed: alpha-beta evaluates it, your code skipped it",
        "first difference: your order leaves alpha-beta's",
    ]


def test_other_references_are_named_without_a_tie_rule() -> None:
    tree = random_tree(branching=2, depth=3, seed=1, chance=True)
    result = reference(tree, "expectimax", strict=False)
    leaves = [tree.leaf_ids[k] for k in result.evaluated]
    svg = compare_svg(result, leaves[1:])
    assert captions(svg)[0] == "Your code against expectiminimax"
    assert set(marks(svg, "missed")) == {leaves[0]}


def test_a_tree_of_one_leaf_draws() -> None:
    svg = compare_svg(search("7"), [0])
    assert numbers(svg) == {0: "1"} and marks(svg, "student-path") == {}


def test_trees_too_large_to_draw_are_refused_as_plies_draw_refuses_them() -> None:
    big = from_leaves([0] * 2**14, branching=2)  # 32,767 nodes, over 20,000
    result = reference(big, "alphabeta", strict=False)
    with pytest.raises(LimitError) as refused:
        compare_svg(result, [big.leaf_ids[0]])
    with pytest.raises(LimitError) as by_draw:
        draw.to_svg(result)
    assert str(refused.value) == str(by_draw.value)
    assert "32,767 nodes is over the limit of 20,000 nodes" in str(refused.value)
    with pytest.raises(LimitError, match="13 nodes is over the limit of 12 nodes"):
        compare_svg(search(AIMA), AIMA_ALPHABETA, max_nodes=12)


@pytest.mark.parametrize(
    ("leaves", "message"),
    [
        ([2, 1], r"student_leaves\[1\] is 1, not a leaf of the tree \(its leaves are the node "
                 r"ids 2, 3, 4, 6, 7, 8, 10, 11, 12\)"),
        ([13], r"student_leaves\[0\] is 13, not a leaf"),
        ([-1], r"student_leaves\[0\] is -1, not a leaf"),
        ([True], r"student_leaves\[0\] is True, not a leaf"),
        ([2.0], r"student_leaves\[0\] is 2.0, not a leaf"),
        ("B1", "student_leaves must be a list of leaf node ids, not str"),
        ({2, 3}, "student_leaves must be a list of leaf node ids, not set"),
    ],
)  # fmt: skip
def test_leaves_that_are_not_the_tree_s_are_refused(leaves: object, message: str) -> None:
    with pytest.raises(PictureError, match=message):
        compare_svg(search(AIMA), leaves)  # type: ignore[arg-type]


def test_a_result_must_be_a_search() -> None:
    with pytest.raises(ArgumentTypeError, match="result"):
        compare_svg(parse(AIMA), [2])  # type: ignore[arg-type]


def test_resvg_draws_it() -> None:
    pytest.importorskip("resvg_py")
    svg = compare_svg(search(AIMA), AIMA_EVERY_LEAF)
    png = svg_to_png(svg, dpi=96)
    assert png.startswith(b"\x89PNG")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    root = ET.fromstring(svg)
    assert (width, height) == (int(root.get("width", "")), int(root.get("height", "")))


@st.composite
def trees_and_students(draw_: st.DrawFn) -> tuple[Tree, bool, list[int]]:
    tree = random_tree(
        branching=draw_(st.integers(1, 3)),
        depth=draw_(st.integers(1, 4)),
        seed=draw_(st.integers(0, 10**6)),
        ragged=draw_(st.booleans()),
    )
    student = draw_(st.lists(st.sampled_from(list(tree.leaf_ids)), max_size=12))
    return tree, draw_(st.booleans()), student


@settings(max_examples=40)
@given(trees_and_students())
def test_every_mark_is_where_the_comparison_puts_it(case: tuple[Tree, bool, list[int]]) -> None:
    tree, strict, student = case
    result = reference(tree, "alphabeta", strict=strict)
    svg = compare_svg(result, student)
    expected = [tree.leaf_ids[k] for k in result.evaluated]
    assert set(marks(svg, "extra")) == set(student) - set(expected)
    assert set(marks(svg, "missed")) == set(expected) - set(student)
    assert set(numbers(svg)) == set(student)
    first = compare(result, student).first
    assert (first is None) == (student == expected)
    assert (marks(svg, "first-difference") == {}) == (student == expected)
    width = int(ET.fromstring(svg).get("width", ""))
    assert width >= draw.drawing_size(tree)[0]
