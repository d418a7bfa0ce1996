"""The complexity measurement: what the slides claim about minimax and alpha-beta on
uniform trees, proved on the trees plies measures.

* Best ordering evaluates exactly b^ceil(d/2) + b^floor(d/2) - 1 leaves (Knuth-Moore)
  on uniform trees with distinct leaves; with ties (pruning on ``alpha >= beta``) at
  most that.
* Minimax evaluates b^d leaves and visits every node, whatever the ordering.
* Worst-first ordering is NOT always b^d for alpha-beta: it is for depth 3 or less
  (distinct leaves), and deep cut-offs make it fewer from depth 4 on (seen here).
* Every ordering lies between the Knuth-Moore minimum and b^d (Hypothesis, over seeds).
"""

from __future__ import annotations

import csv
import io
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies import lab, trees
from plies.draw import CHART_WIDTH
from plies.errors import LimitError, PliesError
from plies.lab import ComplexityError, ComplexityOptions, measure_complexity, measured_tree

SVG = "{http://www.w3.org/2000/svg}"

#: (branching, depth) pairs small enough for Hypothesis to search many of.
shapes = st.sampled_from([(b, d) for b in (2, 3, 4, 5) for d in range(1, 8) if b**d <= 2_000])
seeds = st.integers(min_value=0, max_value=10**6)


def leaves(tree: trees.Tree, algorithm: str, order: str, **options: object) -> int:
    return trees.search(
        tree, algorithm=algorithm, order=order, trace=False, **options
    ).evaluated_count


@settings(max_examples=150, deadline=None)
@given(shape=shapes, seed=seeds)
def test_best_ordering_evaluates_exactly_the_knuth_moore_minimum(
    shape: tuple[int, int], seed: int
) -> None:
    b, d = shape
    tree = measured_tree(b, d, seed, 0.1)
    assert len(set(tree.value[i] for i in tree.leaf_ids)) == b**d  # distinct leaves
    minimum = trees.knuth_moore_minimum(b, d)
    for strict, fail_soft in ((False, True), (True, True), (False, False)):
        assert leaves(tree, "alphabeta", "best", strict=strict, fail_soft=fail_soft) == minimum
    # Fail-hard under the strict rule prunes less (its clamped values never pass a
    # bound strictly, as plies.trees.SearchOptions says): never below the minimum.
    assert leaves(tree, "alphabeta", "best", strict=True, fail_soft=False) >= minimum


def test_fail_hard_with_the_strict_rule_misses_the_minimum() -> None:
    tree = measured_tree(2, 3, 0, 0.1)
    assert leaves(tree, "alphabeta", "best", strict=True, fail_soft=False) == 6
    assert trees.knuth_moore_minimum(2, 3) == 5


@settings(max_examples=100, deadline=None)
@given(shape=shapes, seed=seeds)
def test_best_ordering_with_ties_evaluates_at_most_the_minimum(
    shape: tuple[int, int], seed: int
) -> None:
    b, d = shape
    tree = trees.random_tree(branching=b, depth=d, seed=seed, low=0, high=2)
    assert leaves(tree, "alphabeta", "best") <= trees.knuth_moore_minimum(b, d)


@settings(max_examples=100, deadline=None)
@given(shape=shapes, seed=seeds)
def test_every_ordering_lies_between_the_minimum_and_b_to_the_d(
    shape: tuple[int, int], seed: int
) -> None:
    b, d = shape
    tree = measured_tree(b, d, seed, 0.3)
    nodes = (b ** (d + 1) - 1) // (b - 1)
    for order in ("best", "worst", "given", "static"):
        minimax = trees.search(tree, algorithm="minimax", order=order, trace=False)
        assert (minimax.evaluated_count, minimax.nodes_visited) == (b**d, nodes)
        assert trees.knuth_moore_minimum(b, d) <= leaves(tree, "alphabeta", order) <= b**d


@settings(max_examples=100, deadline=None)
@given(shape=shapes.filter(lambda shape: shape[1] <= 3), seed=seeds)
def test_worst_ordering_evaluates_every_leaf_up_to_depth_three(
    shape: tuple[int, int], seed: int
) -> None:
    b, d = shape
    assert leaves(measured_tree(b, d, seed, 0.1), "alphabeta", "worst") == b**d


def test_with_ties_worst_ordering_cuts_even_at_depth_two() -> None:
    """Equal values meet the bound: pruning on alpha >= beta cuts, on alpha > beta not."""
    tree = trees.parse("[[1,1],[1,1]]")
    assert leaves(tree, "alphabeta", "worst") == 3
    assert leaves(tree, "alphabeta", "worst", strict=True) == 4


def test_worst_ordering_still_cuts_deep_from_depth_four() -> None:
    """Worst move first at every node still lets a deep cut-off happen: a MAX node four
    plies below a MIN ancestor can pass that ancestor's beta."""
    fewer = [
        seed
        for seed in range(20)
        if leaves(measured_tree(2, 4, seed, 0), "alphabeta", "worst") < 16
    ]
    assert fewer, "no seed of 20 gave a deep cut-off under worst ordering"
    result = measure_complexity(
        ComplexityOptions(branching=3, first_depth=4, last_depth=4, seeds=10)
    )
    assert result.row("alphabeta", "worst", 4).leaves_min < 81


def test_static_ordering_without_noise_is_the_best_ordering() -> None:
    result = measure_complexity(ComplexityOptions.of(branching=3, depths="1-5", seeds=3, noise=0))
    for depth in result.options.depths:
        best, static = (
            result.row("alphabeta", "best", depth),
            result.row("alphabeta", "static", depth),
        )
        assert (static.leaves, static.nodes) == (best.leaves, best.nodes)


def test_static_ordering_is_between_best_and_random_on_average() -> None:
    result = measure_complexity(ComplexityOptions.of(branching=3, depths="4-5", seeds=20))
    for depth in (4, 5):
        means = [result.row("alphabeta", o, depth).leaves for o in ("best", "static", "random")]
        assert means == sorted(means) and means[0] < means[2]


def test_the_measured_tree_is_a_permutation_with_noisy_static_values() -> None:
    tree = measured_tree(3, 4, seed=7, noise=0.1)
    assert sorted(tree.value[i] for i in tree.leaf_ids) == list(range(1, 82))
    assert tree.uniform_shape() == (3, 4)
    exact = trees.exact_values(tree)
    errors = [tree.static[n] - exact[n] for n in range(1, len(tree))]  # type: ignore[operator]
    assert tree.static[0] is None and all(e != 0 for e in errors)
    # noise 0.1 of a range of 80: a standard deviation of 8
    assert 4 < math.sqrt(sum(e * e for e in errors) / len(errors)) < 12
    assert measured_tree(3, 4, seed=7, noise=0.1).static == tree.static  # same seed, same tree


def test_rows_means_spread_and_references() -> None:
    options = ComplexityOptions.of(branching=2, depths="2-6", seeds=8, seed=5)
    result = measure_complexity(options)
    assert len(result.rows) == 2 * 4 * 5
    for row in result.rows:
        b, d = 2, row.depth
        assert (row.b_pow_d, row.knuth_moore) == (b**d, trees.knuth_moore_minimum(b, d))
        assert row.b_pow_3d_4 == pytest.approx(b ** (3 * d / 4))
        assert row.leaves_min <= row.leaves <= row.leaves_max
        assert row.nodes_min <= row.nodes <= row.nodes_max
        assert (row.leaves_std == 0) == (row.leaves_min == row.leaves_max)
        assert row.effective_branching == pytest.approx(row.leaves ** (1 / d))
        assert row.seeds == 8
    # the mean is the mean of the seeds' own searches
    random_counts = [
        leaves(measured_tree(2, 6, 5 + k, options.noise), "alphabeta", "given") for k in range(8)
    ]
    assert result.row("alphabeta", "random", 6).leaves == sum(random_counts) / 8
    assert measure_complexity(options) == result  # same options, same numbers


def test_records_and_csv() -> None:
    result = measure_complexity(ComplexityOptions.of(branching=2, depths="1-3", seeds=2))
    records = result.records()
    assert {"algorithm", "order", "depth", "leaves", "nodes"} <= set(records[0])
    assert {"leaves_min", "leaves_max", "leaves_std", "nodes_min", "nodes_max", "ebf"} <= set(
        records[0]
    )
    rows = list(csv.DictReader(io.StringIO(result.csv())))
    assert len(rows) == len(records) == 24
    assert [float(r["leaves"]) for r in rows] == [r["leaves"] for r in records]


def test_the_chart_carries_the_measured_numbers() -> None:
    result = measure_complexity(ComplexityOptions.of(branching=3, depths="1-5", seeds=4))
    root = ET.fromstring(lab.complexity_svg(result))
    panels = {p.get("data-title"): p for p in root.iter(f"{SVG}g") if p.get("class") == "panel"}
    leaves_panel = panels["Leaves evaluated (log scale)"]
    nodes_panel = panels["Nodes visited (log scale)"]
    for order in lab.COMPLEXITY_ORDERS:
        for panel, what in ((leaves_panel, "leaves"), (nodes_panel, "nodes")):
            points = _points(panel, f"alpha-beta, {order}")
            for depth in result.options.depths:
                row = result.row("alphabeta", order, depth)
                point = points[depth]
                assert float(point.get("data-y", "")) == pytest.approx(getattr(row, what))
                assert float(point.get("data-low", "")) == getattr(row, f"{what}_min")
                assert float(point.get("data-high", "")) == getattr(row, f"{what}_max")
    minimax = _points(leaves_panel, "minimax (every order)")
    assert [float(minimax[d].get("data-y", "")) for d in range(1, 6)] == [3, 9, 27, 81, 243]
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {"243", "35", "b^d", "b^(3d/4)", "depth d", "leaves", "alpha-beta, worst"} <= texts


def _points(panel: ET.Element, name: str) -> dict[int, ET.Element]:
    series = next(g for g in panel.iter(f"{SVG}g") if g.get("data-name") == name)
    return {int(float(c.get("data-x", ""))): c for c in series.iter(f"{SVG}circle")}


def test_plot_complexity_takes_text_options_and_gives_svg() -> None:
    svg = lab.plot_complexity(branching=2, depths="3", seeds=2)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert lab.plot_complexity(branching=2, depths="3", seeds=2) == svg


def test_the_png_is_drawn() -> None:
    pytest.importorskip("resvg_py")
    result = measure_complexity(ComplexityOptions.of(branching=2, depths="1-3", seeds=1))
    png = lab.complexity_png(result, dpi=96)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width = int.from_bytes(png[16:20], "big")
    assert width == CHART_WIDTH  # 96 dpi: the SVG pixel for pixel


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"branching": 0}, ComplexityError, "the branching must be at least 2, not 0"),
        ({"branching": 1}, ComplexityError, "at least 2, not 1"),
        ({"depths": "6-1"}, ComplexityError, "depths '6-1' run backwards"),
        ({"depths": "0-3"}, ComplexityError, "the first depth must be at least 1, not 0"),
        ({"depths": "one"}, ComplexityError, "not 'one'"),
        ({"seeds": 0}, ComplexityError, "seeds must be at least 1, not 0"),
        ({"noise": -1.0}, ComplexityError, "noise must be 0 or more"),
        ({"noise": math.nan}, ComplexityError, "noise must be 0 or more"),
        (
            {"branching": 10, "depths": "1-6"},
            LimitError,
            "1,000,000 leaves, over the cap of 100,000",
        ),
        ({"branching": 2, "depths": "1-400"}, LimitError, "over the cap of 100,000"),
        ({"seeds": 1001}, LimitError, "over the cap of 1,000"),
        ({"branching": 4, "depths": "8", "seeds": 40}, LimitError, "over the cap of 2,000,000"),
    ],
)
def test_bad_options_are_refused_naming_the_input(
    options: dict[str, object], error: type[PliesError], message: str
) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        ComplexityOptions.of(**options)  # type: ignore[arg-type]


def test_wrong_types_are_refused() -> None:
    with pytest.raises(ComplexityError, match="branching must be a whole number"):
        ComplexityOptions(branching=2.5)  # type: ignore[arg-type]
    with pytest.raises(ComplexityError, match="depths must be text"):
        lab.parse_depths(6)  # type: ignore[arg-type]
    assert lab.parse_depths("2 - 5") == (2, 5)
