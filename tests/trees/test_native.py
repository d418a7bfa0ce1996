"""The compiled tree search agrees with the Python loop, frame for frame and event for
event."""

from __future__ import annotations

import math
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import SearchError
from plies.trees import (
    NATIVE_MIN_NODES,
    SearchOptions,
    Tree,
    TreeResult,
    from_leaves,
    parse,
    random_tree,
    search,
)
from strategies import ragged_trees

ALGORITHMS = ("minimax", "alphabeta", "negamax")


def both(tree: Tree, *, trace: bool = False, **options: object) -> tuple[TreeResult, TreeResult]:
    """The same search by each backend, trace off unless ``trace``."""
    python = search(tree, trace=trace, backend="python", **options)
    native = search(tree, trace=trace, backend="native", **options)
    return python, native


def assert_same_events(python: TreeResult, native: TreeResult) -> None:
    """The traces are the same events, in the same order, numbers of the same types."""
    assert native.events == python.events
    assert repr(native.events) == repr(python.events)  # 3 and 3.0 differ here
    assert [type(e) for e in native.events] == [type(e) for e in python.events]


def assert_same(python: TreeResult, native: TreeResult) -> None:
    """Everything a result says is the same, types of the numbers included."""
    assert native.value == python.value or (math.isnan(native.value) and math.isnan(python.value))
    assert type(native.value) is type(python.value)
    assert native.pv == python.pv
    assert native.nodes_visited == python.nodes_visited
    assert native.evaluated_count == python.evaluated_count
    assert native.cutoffs == python.cutoffs
    assert native._log.frames == python._log.frames
    assert [list(map(type, f)) for f in native._log.frames] == [
        list(map(type, f)) for f in python._log.frames
    ]
    assert native.evaluated == python.evaluated
    assert native.status == python.status
    assert native.values == python.values
    assert native.alpha_out == python.alpha_out
    assert repr(native.records()) == repr(python.records())  # windows in and out, reasons
    assert native.cut_at == python.cut_at
    assert_same_events(python, native)


@settings(max_examples=150, deadline=None)
@given(
    tree=ragged_trees(),
    algorithm=st.sampled_from(ALGORITHMS),
    strict=st.booleans(),
    fail_soft=st.booleans(),
)
def test_agrees_with_python_on_random_trees(
    tree: Tree, algorithm: str, strict: bool, fail_soft: bool
) -> None:
    if tree.kind[0] == "leaf":
        return  # a root leaf is answered by the Python loop either way
    assert_same(*both(tree, algorithm=algorithm, strict=strict, fail_soft=fail_soft))


@settings(max_examples=150, deadline=None)
@given(
    tree=ragged_trees(),
    algorithm=st.sampled_from(ALGORITHMS),
    strict=st.booleans(),
    fail_soft=st.booleans(),
)
def test_traces_agree_with_python_on_random_trees(
    tree: Tree, algorithm: str, strict: bool, fail_soft: bool
) -> None:
    if tree.kind[0] == "leaf":
        return
    python, native = both(tree, trace=True, algorithm=algorithm, strict=strict, fail_soft=fail_soft)
    assert native.events  # a trace was kept
    assert_same(python, native)


@settings(max_examples=60, deadline=None)
@given(
    tree=ragged_trees(),
    window=st.tuples(st.integers(-6, 6), st.integers(-6, 6)).filter(lambda w: w[0] < w[1]),
    fail_soft=st.booleans(),
)
def test_agrees_with_python_in_a_window(
    tree: Tree, window: tuple[int, int], fail_soft: bool
) -> None:
    if tree.kind[0] == "leaf":
        return
    for trace in (False, True):
        python, native = both(tree, trace=trace, window=window, fail_soft=fail_soft)
        assert_same(python, native)
        assert native.bound == python.bound


@pytest.mark.parametrize("values", ["int", "float"])
def test_agrees_on_a_large_random_tree(values: str) -> None:
    rng = random.Random(5)
    leaves: list[int | float] = [rng.randint(-50, 50) for _ in range(4**7)]
    if values == "float":
        leaves = [x / 4 for x in leaves]
    tree = from_leaves(leaves, branching=4)
    for algorithm in ALGORITHMS:
        assert_same(*both(tree, algorithm=algorithm))
    # 32,766 trace records: the kernel's tables (4,096 rows at first) grow three times
    assert_same(*both(tree, trace=True, algorithm="minimax"))
    ragged = random_tree(branching=5, depth=7, seed=3, ragged=True)
    assert_same(*both(ragged, strict=True))
    assert_same(*both(ragged, trace=True, strict=True))


def test_large_trees_go_native_by_default_small_ones_do_not() -> None:
    small = parse("[[3,12,8],[2,4,6],[14,5,2]]")
    search(small, trace=False)
    assert small.native is None  # never looked at
    big = random_tree(branching=10, depth=5, seed=1)
    assert len(big) >= NATIVE_MIN_NODES
    result = search(big, trace=False)
    assert big.native is not None and big.native is not False
    assert type(result._log).__name__ == "NativeLog"
    assert result.events == []
    # With the trace on too: the kernel keeps it.
    traced = search(big)
    assert type(traced._log).__name__ == "NativeLog"
    assert traced.events == search(big, backend="python").events
    # A search it cannot run goes to the Python loop.
    assert type(search(big, order="best")._log).__name__ == "SearchLog"


@pytest.mark.parametrize(
    ("text", "options", "says"),
    [
        ("[[1,2],[3,4]]", {"order": "best"}, "given order"),
        ("[[1,2],[3,4]]", {"depth": 2}, "depth limit"),
        ('{"tree": {"kind": "chance", "children": [{"value": 1}]}}', {}, "expectiminimax"),
        ("[[1,2.5],[3,4]]", {}, "all floats"),
        (f"[[1,{2**60}],[3,4]]", {}, "2**53"),
        ("[[1,2],[3,4]]", {"window": (-1.5, 3)}, "window"),
    ],
)
def test_native_refuses_what_it_cannot_search(
    text: str, options: dict[str, object], says: str
) -> None:
    tree = parse(text)
    kwargs = {"trace": False, **options}
    if tree.has_chance:
        kwargs["algorithm"] = "expectiminimax"
    with pytest.raises(SearchError, match=re.escape(says)):
        search(tree, backend="native", **kwargs)
    # The default backend falls back to Python for the same search.
    assert search(tree, **kwargs).value is not None


def test_ints_and_infinities_travel_together() -> None:
    tree = parse("[[3,inf],[-inf,4],[2,7]]")
    python, native = both(tree)
    assert_same(python, native)
    assert type(native.value) is int


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(SearchError, match="backend"):
        SearchOptions(backend="fast")
