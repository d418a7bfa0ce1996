"""The tree model: what TreeBuilder accepts and refuses, and the derived shape lists
(children, depth, leaf ids) against a plain reference computation."""

from __future__ import annotations

import math
import re
import time
from fractions import Fraction

import pytest
from hypothesis import given

from plies.errors import ArgumentTypeError, LimitError, PliesError, TreeError
from plies.trees import Tree, TreeBuilder, format_tree, from_leaves, parse, random_tree
from plies.trees._model import check_bounds
from strategies import chance_trees, ragged_trees


def reference_shape(parent: list[int]) -> tuple[list[list[int]], list[int], list[int], list[int]]:
    """children, depth, child_index and leaf ids, computed the obvious way."""
    n = len(parent)
    children: list[list[int]] = [[] for _ in range(n)]
    depth = [0] * n
    for i in range(1, n):
        children[parent[i]].append(i)
        depth[i] = depth[parent[i]] + 1
    child_index = [0] * n
    for kids in children:
        for k, c in enumerate(kids):
            child_index[c] = k
    return children, depth, child_index, [i for i in range(n) if not children[i]]


@given(ragged_trees())
def test_shape_lists_match_a_plain_computation(tree: Tree) -> None:
    children, depth, child_index, leaf_ids = reference_shape(tree.parent)
    assert tree.children == children
    assert tree.depth == depth
    assert tree.child_index == child_index
    assert list(tree.leaf_ids) == leaf_ids
    assert [tree.leaf_index[i] for i in leaf_ids] == list(range(len(leaf_ids)))
    assert all(tree.leaf_index[i] == -1 for i in range(len(tree)) if children[i])


@given(chance_trees())
def test_chance_trees_keep_kinds_and_probabilities(tree: Tree) -> None:
    for node in range(len(tree)):
        kids = tree.children[node]
        assert (tree.kind[node] == "leaf") == (not kids)
        if tree.kind[node] == "chance":
            assert math.isclose(sum(tree.probability[c] or 0 for c in kids), 1.0)


def test_leaves_share_one_empty_children_list() -> None:
    tree = from_leaves(list(range(16)), branching=2)
    firsts = {id(tree.children[i]) for i in tree.leaf_ids}
    assert len(firsts) == 1 and tree.children[tree.leaf_ids[0]] == []


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"value": math.nan}, TreeError, "value of node 1 is NaN"),
        ({"value": True}, ArgumentTypeError, "must be a number, not True"),
        ({"value": "3"}, ArgumentTypeError, "must be a number, not '3'"),
        ({"value": 10**301}, TreeError, "has 302 digits; plies reads whole numbers of at most"),
        ({"value": 10**5000}, TreeError, "has about 5,000 digits"),
        ({"value": 1, "label": "A\x1b]0;pwned\x07"}, TreeError, "U+001B at position 2"),
        ({"value": 1, "label": "ok\u202e"}, TreeError, "U+202E at position 3"),
        ({"value": 1, "label": 7}, ArgumentTypeError, "label of node 1 must be a string"),
        ({"value": 1, "move": "left\n"}, TreeError, "the move to node 1 'left'... has the control"),
        ({"value": 1, "static": math.nan}, TreeError, "static value of node 1 is NaN"),
        ({"value": 1, "probability": math.nan}, TreeError, "probability of node 1 is NaN"),
        ({"value": 1, "probability": 1.5}, TreeError, "probability 1.5 of node 1 is not in"),
        ({"value": 1, "kind": "maxi"}, TreeError, "unknown node kind 'maxi'"),
    ],
)
def test_add_refuses_bad_input(kwargs: dict[str, object], error: type, message: str) -> None:
    builder = TreeBuilder()
    builder.add(-1)
    with pytest.raises(error, match=re.escape(message)):
        builder.add(0, **kwargs)  # type: ignore[arg-type]


def test_add_accepts_other_real_numbers() -> None:
    builder = TreeBuilder()
    builder.add(-1)
    builder.add(0, value=Fraction(1, 2))  # type: ignore[arg-type]
    builder.add(0, value=-math.inf)
    assert builder.build().value == [None, 0.5, -math.inf]


@pytest.mark.parametrize(
    ("parents", "message"),
    [
        ([0], "the first node is the root: its parent must be -1, not 0"),
        ([-1, 0, 1, 0, 1], "parent 1 of node 4 is not the last node added or one of its"),
        ([-1, 5], "parent 5 of node 1 is not the last node added"),
        ([-1, -1], "parent -1 of node 1 is not the last node added"),
    ],
)
def test_add_keeps_preorder(parents: list[int], message: str) -> None:
    builder = TreeBuilder()
    with pytest.raises(TreeError, match=message):
        for p in parents:
            builder.add(p, value=None if p < 1 else 1)


def test_add_refuses_a_parent_that_is_not_an_id() -> None:
    with pytest.raises(ArgumentTypeError, match="parent must be a node id"):
        TreeBuilder().add(True)  # type: ignore[arg-type]


def test_build_refuses_parent_lists_out_of_preorder() -> None:
    builder = TreeBuilder()
    builder.parent, builder.value, builder.label = [-1, 0, 0, 1], [None, None, 2, 3], [None] * 4
    with pytest.raises(TreeError, match="not in preorder: node 3 is not next to its parent"):
        builder.build()
    builder.parent = [-1, 2, 0, 1]
    with pytest.raises(TreeError, match="0 <= parent"):
        builder.build()


def test_missing_leaf_values_are_refused_unless_allowed() -> None:
    builder = TreeBuilder()
    builder.add(-1)
    builder.add(0, value=1, label="a")
    builder.add(0, label="b")
    with pytest.raises(TreeError, match="leaf b has no value"):
        builder.build()
    tree = builder.build(allow_missing=True)
    assert tree.value == [None, 1, None]
    assert tree.kind == ["max", "leaf", "leaf"]
    assert tree.height == 1
    assert tree.name(2) == "b"


def test_check_bounds() -> None:
    tree = parse("[1, [2, 3]]")
    check_bounds(tree, (0, 3))
    for bounds, error, message in [
        ((math.nan, 3), TreeError, "the low bound is NaN"),
        ((0, math.inf), TreeError, "finite with low < high, not \\[0, inf\\]"),
        ((3, 0), TreeError, "low < high"),
        ((0, 2), TreeError, "= 3 is outside the bounds \\[0, 2\\]"),
        (("0", 3), ArgumentTypeError, "the low bound must be a number"),
        ((0,), ArgumentTypeError, "bounds must be a pair"),
    ]:
        with pytest.raises(error, match=message):
            check_bounds(tree, bounds)  # type: ignore[arg-type]


# random_tree -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"low": math.inf, "high": 1}, TreeError, "low must be finite"),
        ({"low": 1e400}, TreeError, "low must be finite"),
        ({"low": math.nan}, TreeError, "low is NaN"),
        ({"low": 0.5}, TreeError, "fractional bound would be truncated"),
        ({"low": "1"}, ArgumentTypeError, "low must be a number"),
        ({"low": 5, "high": 5}, TreeError, "needs low < high"),
        ({"low": 10**400}, TreeError, "401 digits"),
        ({"branching": True}, ArgumentTypeError, "branching must be a whole number"),
        ({"branching": 0}, TreeError, "branching must be at least 1"),
        ({"depth": -1}, TreeError, "depth must be at least 0"),
        ({"depth": 2.0}, ArgumentTypeError, "depth must be a whole number"),
        ({"branching": 10, "depth": 9}, LimitError, "more than the 5,000,000 random_tree"),
        ({"branching": 10**9, "depth": 10**9}, LimitError, "lower the branching or the depth"),
        ({"distinct": True, "low": 0, "high": 3}, TreeError, "cannot draw 8 distinct values"),
        ({"ragged": 1}, ArgumentTypeError, "ragged must be True or False"),
        ({"root": "mid"}, TreeError, "root must be 'max' or 'min'"),
    ],
)
def test_random_tree_checks_its_arguments(
    kwargs: dict[str, object], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        random_tree(seed=1, **kwargs)  # type: ignore[arg-type]


def test_random_tree_whole_float_bounds_are_fine() -> None:
    tree = random_tree(seed=2, low=-3.0, high=3.0, distinct=True, branching=2, depth=2)
    values = [tree.value[n] for n in tree.leaf_ids]
    assert len(set(values)) == 4 and all(isinstance(v, int) and -3 <= v <= 3 for v in values)


def test_errors_are_plies_errors() -> None:
    for error in (ArgumentTypeError, LimitError, TreeError):
        assert issubclass(error, PliesError)


def test_a_sum_of_probabilities_near_1_never_reads_1() -> None:
    text = (
        '{"tree": {"kind": "chance", "children": '
        '[{"p": 0.5, "value": 1}, {"p": 0.4999999, "value": 2}]}}'
    )
    with pytest.raises(TreeError, match=r"sum to 0\.9999999, not 1"):
        parse(text)


def test_a_fraction_beyond_the_float_range_is_refused() -> None:
    with pytest.raises(TreeError, match="out of the range"):
        from_leaves([Fraction(10**400, 3), 1], branching=2)


# Names -------------------------------------------------------------------------------


@given(ragged_trees())
def test_names_are_unique_and_stable_on_unlabelled_trees(tree: Tree) -> None:
    names = [tree.name(n) for n in range(len(tree))]
    assert len(set(names)) == len(names)
    assert names == [parse(format_tree(tree)).name(n) for n in range(len(tree))]
    for node in range(len(tree)):
        if tree.children[node]:
            assert names[node].isalpha() and names[node].isupper()
        elif node:
            parent = names[tree.parent[node]]
            assert names[node] == f"{parent}{tree.child_index[node] + 1}"


def test_names_as_textbooks_draw_them() -> None:
    tree = parse("[[3,12,8],[2,4,6],[14,5,2]]")
    assert [tree.name(n) for n in range(len(tree))] == (
        ["A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3"]
    )
    tree = parse("[" * 30 + "1" + "]" * 30)  # letters past Z, short names deep down
    assert [tree.name(n) for n in (25, 26, 29, 30)] == ["Z", "AA", "AD", "AD1"]


def test_labels_are_names_and_other_names_keep_clear_of_them() -> None:
    tree = parse("B((1,2),S1(x:3,4),(5))")
    # The root has the label B, so the first unlabelled inner node takes A, then C.
    assert [tree.name(n) for n in range(len(tree))] == (
        ["B", "A", "A1", "A2", "S1", "x", "S1.2", "C", "C1"]
    )
    clash = parse("A(A1:1,2)")  # the leaf after A1 is A2, clear of the label
    assert [clash.name(n) for n in range(len(clash))] == ["A", "A1", "A2"]
    clash = parse("A(B1:1,(2))")  # B's first leaf would be B1, a label already
    assert [clash.name(n) for n in range(len(clash))] == ["A", "B1", "B", "B.1"]


def test_names_follow_labels_set_after_building() -> None:
    tree = parse("[[1,2],[3]]")
    assert tree.name(4) == "C"
    tree.label[0] = "C"  # now a label: the inner nodes below take A and B
    assert [tree.name(n) for n in range(len(tree))] == ["C", "A", "A1", "A2", "B", "B1"]
    tree.label = [None] * len(tree)
    assert tree.name(0) == "A"


def test_names_of_100_000_nodes_are_cheap() -> None:
    tree = random_tree(branching=10, depth=5, seed=1)  # 111,111 nodes
    start = time.perf_counter()
    first = tree.name(len(tree) - 1)
    assert time.perf_counter() - start < 1.0
    start = time.perf_counter()
    for node in range(len(tree)):
        tree.name(node)
    assert time.perf_counter() - start < 1.0
    assert first == "PKI10"  # the 11,111th inner node's tenth leaf
