"""Searches of explicit trees: textbook answers and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import SearchError
from plies.trees import (
    Backup,
    SearchOptions,
    alphabeta,
    exact_values,
    expectiminimax,
    from_leaves,
    minimax,
    negamax,
    parse,
    search,
)
from plies.trees._compare import knuth_moore_minimum
from strategies import chance_trees, ragged_trees, uniform_distinct_trees

AIMA_5_2 = "[[3,12,8],[2,4,6],[14,5,2]]"
LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"


# Published answers ----------------------------------------------------------------------


def test_aima_figure_5_2() -> None:
    result = alphabeta(parse(AIMA_5_2))
    assert result.value == 3
    assert result.path == [0, 0]
    # Leaves 4 and 6 (numbers 4 and 5, 0-based) are pruned; the rest in order.
    assert result.evaluated == [0, 1, 2, 3, 6, 7, 8]
    assert result.leaf_count == 9


def test_lab_sheet_binary_tree() -> None:
    tree = from_leaves([6, 4, 7, 8, 3, 9, 5, 7], branching=2)
    result = alphabeta(tree)
    assert result.value == 7
    assert result.path == [1, 1, 1]  # right, right, right
    assert sorted(set(range(8)) - set(result.evaluated)) == [3]  # only the 8 is pruned


def test_labelled_tree_prunes_9_7_5() -> None:
    tree = parse(LABELLED)
    result = alphabeta(tree)
    assert result.value == 3
    never = [tree.value[tree.leaf_ids[k]] for k in range(8) if k not in result.evaluated]
    assert never == [9, 7, 5]
    assert [tree.name(n) for n in result.pv] == ["A", "B", "D", "D2"]
    assert result.reason(tree.node_at([0, 1, 1])) == "pruned: v=5 >= beta=3 (set at B)"
    assert result.reason(tree.node_at([1, 1])) == "pruned: v=1 <= alpha=3 (set at A)"


def test_min_root() -> None:
    result = alphabeta(parse(AIMA_5_2, root="min"))
    assert result.value == 6  # MIN of the MAX values 12, 6, 14
    assert result.path == [1, 2]


def test_strict_rule_does_not_prune_on_equality() -> None:
    # MIN child B gets 3 first; C's first leaf equals alpha=3.
    tree = parse("[[3,4],[3,9]]")
    assert alphabeta(tree).evaluated == [0, 1, 2]
    assert alphabeta(tree, strict=True).evaluated == [0, 1, 2, 3]


def test_pv_keeps_first_child_reaching_the_value() -> None:
    result = alphabeta(parse("[[5,6],[5,7],[5]]"), strict=True)
    assert result.value == 5
    assert result.path == [0, 0]


def test_negamax_shows_sign_flips() -> None:
    result = negamax(parse(LABELLED))
    flips = [e for e in result.events if isinstance(e, Backup) and e.negated]
    assert flips, "negamax must negate values where the player changes"
    assert all(e.received == -e.child_value for e in flips)


def test_depth_limit_uses_static_values() -> None:
    text = (
        '{"tree": {"children": [{"static": 4, "children": [1, 9]},'
        ' {"static": 2, "children": [3, 8]}]}}'
    )
    tree = parse(text)
    assert minimax(tree).value == 3
    limited = minimax(tree, depth=1)
    assert limited.value == 4
    assert limited.evaluated == []
    assert limited.status[2] == "beyond-depth"


def test_depth_limit_without_static_value_is_an_error() -> None:
    with pytest.raises(SearchError, match="no static value"):
        minimax(parse(AIMA_5_2), depth=1)


def test_root_window_gives_bounds() -> None:
    tree = parse(AIMA_5_2)
    assert alphabeta(tree, window=(5, 10)).bound == "upper"
    assert alphabeta(tree, window=(-10, 1)).bound == "lower"
    inside = alphabeta(tree, window=(0, 10))
    assert inside.bound == "exact"
    assert inside.value == 3


def test_chance_nodes_refused_by_alphabeta() -> None:
    tree = parse('{"kind": "chance", "children": [1, 2]}')
    with pytest.raises(SearchError, match="use expectiminimax"):
        alphabeta(tree)
    assert expectiminimax(tree).value == 1.5


def test_expectiminimax_textbook() -> None:
    # MAX over two chance nodes: 0.5*3 + 0.5*5 = 4 and 0.9*1 + 0.1*20 = 2.9.
    text = (
        '{"tree": {"children": ['
        '{"kind": "chance", "children": [{"p": 0.5, "value": 3}, {"p": 0.5, "value": 5}]},'
        '{"kind": "chance", "children": [{"p": 0.9, "value": 1}, {"p": 0.1, "value": 20}]}]},'
        '"bounds": [0, 20]}'
    )
    tree = parse(text)
    plain = expectiminimax(tree, star1=False)
    star1 = expectiminimax(tree)
    assert plain.value == star1.value == 4
    assert plain.evaluated_count == 4
    # After 0.9 * 1, the second chance node is at most 0.9 + 0.1 * 20 = 2.9 < alpha = 4.
    assert star1.evaluated_count == 3
    assert star1.cut_at[4].star1


def test_single_leaf_tree() -> None:
    result = alphabeta(parse("7"))
    assert (result.value, result.path, result.evaluated) == (7, [], [0])


def test_deep_chain_no_recursion_error() -> None:
    depth = 100_000
    text = "[" * depth + "1" + "]" * depth
    tree = parse(text)
    assert tree.height == depth
    for algorithm in ("minimax", "alphabeta", "negamax"):
        result = search(tree, algorithm=algorithm, trace=False)
        assert result.value == 1
        assert len(result.path) == depth


# Properties -----------------------------------------------------------------------------

ORDERS = ["given", "best", "worst", "random", "static"]


@given(ragged_trees(), st.booleans())
def test_alphabeta_equals_minimax_equals_negamax(tree, strict) -> None:
    expected = minimax(tree).value
    for soft in (True, False):
        ab = alphabeta(tree, strict=strict, fail_soft=soft)
        nm = negamax(tree, strict=strict, fail_soft=soft)
        assert ab.value == expected
        assert nm.value == expected
        # Negamax is the same search written differently: same leaves, same records.
        assert nm.evaluated == ab.evaluated
        assert nm.values == ab.values
        assert nm.alpha_in == ab.alpha_in and nm.beta_out == ab.beta_out


@given(ragged_trees(), st.sampled_from(ORDERS), st.integers(0, 100))
def test_any_order_gives_the_same_value(tree, order, seed) -> None:
    result = alphabeta(tree, order=order, seed=seed)
    assert result.value == exact_values(tree)[0]


@given(ragged_trees())
def test_fail_hard_and_fail_soft_evaluate_the_same_leaves(tree) -> None:
    assert alphabeta(tree).evaluated == alphabeta(tree, fail_soft=False).evaluated


@given(ragged_trees())
def test_strict_fail_hard_evaluates_a_superset(tree) -> None:
    # Under the strict rule a clamped (fail-hard) value can never be strictly beyond
    # the bound, so fail-hard prunes less: it evaluates every leaf fail-soft does.
    soft = alphabeta(tree, strict=True).evaluated
    hard = alphabeta(tree, strict=True, fail_soft=False).evaluated
    assert set(soft) <= set(hard)


def test_strict_fail_hard_can_evaluate_more() -> None:
    tree = parse("[[-3],[-inf,[4],[-inf],[4,-4]]]", root="min")
    assert alphabeta(tree, strict=True).evaluated == [0, 1, 2]
    assert alphabeta(tree, strict=True, fail_soft=False).evaluated == [0, 1, 2, 3, 4, 5]


@given(ragged_trees())
def test_principal_variation_reaches_the_value(tree) -> None:
    result = alphabeta(tree)
    leaf = result.pv[-1]
    assert tree.kind[leaf] == "leaf"
    assert tree.value[leaf] == result.value
    assert tree.node_at(result.path) == leaf


@given(ragged_trees())
def test_pruned_leaves_are_exactly_the_unevaluated(tree) -> None:
    result = alphabeta(tree)
    evaluated = {tree.leaf_ids[k] for k in result.evaluated}
    for leaf in tree.leaf_ids:
        assert (result.status[leaf] == "evaluated") == (leaf in evaluated)
    assert len(evaluated) == len(result.evaluated)  # no leaf twice


@settings(max_examples=60)
@given(uniform_distinct_trees())
def test_best_first_ordering_meets_the_knuth_moore_minimum(tree) -> None:
    shape = tree.uniform_shape()
    assert shape is not None
    result = alphabeta(tree, order="best")
    assert result.evaluated_count == knuth_moore_minimum(*shape)
    # No ordering does better.
    assert alphabeta(tree, order="worst").evaluated_count >= result.evaluated_count


@given(chance_trees(), st.sampled_from(["given", "best", "random"]))
def test_star1_equals_plain_expectiminimax(tree, order) -> None:
    plain = expectiminimax(tree, star1=False, order=order)
    star1 = expectiminimax(tree, order=order)
    assert math.isclose(star1.value, plain.value, abs_tol=1e-9)
    assert star1.evaluated_count <= plain.evaluated_count
    assert set(star1.evaluated) <= set(plain.evaluated)


@given(ragged_trees())
def test_trace_off_gives_the_same_result(tree) -> None:
    on = search(tree, SearchOptions())
    off = search(tree, SearchOptions(trace=False))
    assert off.events == []
    assert (on.value, on.evaluated, on.pv) == (off.value, off.evaluated, off.pv)


def test_results_draw_themselves_in_notebooks() -> None:
    import xml.etree.ElementTree as ET

    tree = parse(AIMA_5_2)
    result = alphabeta(tree)
    ET.fromstring(tree._repr_svg_())
    ET.fromstring(result._repr_svg_())
    assert "evaluated 7 of 9 leaves" in result._repr_html_()
