"""Hypothesis strategies shared by the tests (kept in one place)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

from plies.trees import Tree, TreeBuilder

#: Small integers make ties common; infinities test the edges of the windows.
leaf_values = st.one_of(
    st.integers(min_value=-5, max_value=5),
    st.sampled_from([math.inf, -math.inf]),
)

nested_trees = st.recursive(
    leaf_values,
    lambda children: st.lists(children, min_size=1, max_size=4),
    max_leaves=40,
)


def tree_from_nested(data: Any, *, root: str = "max") -> Tree:
    """Build a tree from nested lists of numbers, without recursion."""
    builder = TreeBuilder(root=root)
    stack: list[tuple[int, Any]] = [(-1, data)]
    while stack:
        parent, item = stack.pop()
        if isinstance(item, list):
            node = builder.add(parent)
            stack.extend((node, child) for child in reversed(item))
        else:
            builder.add(parent, value=item)
    return builder.build()


@st.composite
def ragged_trees(draw: st.DrawFn) -> Tree:
    """Random ragged trees (any shape, ties and infinities), MAX or MIN at the root."""
    return tree_from_nested(draw(nested_trees), root=draw(st.sampled_from(["max", "min"])))


@st.composite
def uniform_distinct_trees(draw: st.DrawFn) -> Tree:
    """Uniform trees with distinct leaf values."""
    branching = draw(st.integers(min_value=2, max_value=4))
    depth = draw(st.integers(min_value=1, max_value=4 if branching < 4 else 3))
    count = branching**depth
    values = draw(st.permutations(list(range(count))))
    from plies.trees import from_leaves

    return from_leaves(values, branching=branching)


@st.composite
def chance_trees(draw: st.DrawFn) -> Tree:
    """Ragged trees mixing MAX, MIN and chance nodes, with leaf bounds [-10, 10]."""
    builder = TreeBuilder(root="max")
    budget = draw(st.integers(min_value=1, max_value=30))
    stack: list[tuple[int, int, float | None]] = [(-1, 0, None)]
    while stack:
        parent, depth, prob = stack.pop()
        if depth >= 4 or budget <= 0 or (parent >= 0 and draw(st.booleans())):
            builder.add(parent, value=draw(st.integers(-10, 10)), probability=prob)
            continue
        budget -= 1
        kind = draw(st.sampled_from(["max", "min", "chance"]))
        node = builder.add(parent, kind=kind, probability=prob)
        count = draw(st.integers(min_value=1, max_value=3))
        if kind == "chance":
            weights = draw(st.lists(st.integers(1, 4), min_size=count, max_size=count))
            probs: list[float | None] = [w / sum(weights) for w in weights]
            probs[-1] = 1.0 - sum(p for p in probs[:-1] if p is not None)
        else:
            probs = [None] * count
        stack.extend((node, depth + 1, p) for p in reversed(probs))
    return builder.build(bounds=(-10, 10))


@st.composite
def uniform_chance_trees(draw: st.DrawFn) -> Tree:
    """Ragged trees of MAX, MIN and chance nodes whose chance outcomes are equally
    likely (no probabilities given), values with ties, leaf bounds [-10, 10]."""
    builder = TreeBuilder(root="max")
    budget = draw(st.integers(min_value=1, max_value=25))
    stack: list[tuple[int, int]] = [(-1, 0)]
    while stack:
        parent, depth = stack.pop()
        if depth >= 4 or budget <= 0 or (parent >= 0 and draw(st.booleans())):
            builder.add(parent, value=draw(st.sampled_from([-10, -1, 0, 1, 3, 10])))
            continue
        budget -= 1
        kind = draw(st.sampled_from(["max", "min", "chance"]))
        node = builder.add(parent, kind=kind)
        count = draw(st.integers(min_value=1, max_value=10 if kind == "chance" else 3))
        stack.extend((node, depth + 1) for _ in range(count))
    return builder.build(bounds=(-10, 10))


#: Options of an alpha-beta-family search: fail-soft or hard, tie rule, order, window.
prune_options = st.fixed_dictionaries(
    {
        "fail_soft": st.booleans(),
        "strict": st.booleans(),
        "order": st.sampled_from(["given", "best", "worst", "random"]),
        "seed": st.integers(0, 3),
        "window": st.sampled_from([(-math.inf, math.inf), (-2, 2), (0, 1), (-math.inf, 0)]),
    }
)
