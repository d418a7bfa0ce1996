"""Fuzzing the readers: malformed text in every notation, and arguments of every type,
must raise a PliesError (with a one-line message) or give a tree, never another
exception."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import PliesError
from plies.trees import Tree, _parse, from_leaves, parse, random_tree

VALID = {
    "brackets": "[[3,12,8],[2,4,6],[14,5,2]]",
    "parens": "((3 12 8) (2 4 6) (14 5 2))",
    "labelled": "A(B(D:2,E=3),C(F(0,1),G(7,5)))",
    "flat": "3,5,6,9,1,2,0,-1",
    "json": (
        '{"tree": {"label": "A", "children": [{"kind": "chance", "static": 2, "children": '
        '[{"p": 0.25, "value": 8}, {"p": 0.75, "value": "-inf", "move": "roll"}]}, '
        '{"kind": "min", "children": [1, [2, 3]]}]}, "bounds": [-100, 100]}'
    ),
    "cs188": (
        'num_agents: "2"\ndepth: "2"\nstart_state: "A"\nwin_states: "W"\nlose_states: ""\n'
        'alg: "AlphaBetaAgent"\nsuccessors: """\nA Left B\nA Right W\nB Down A\nB Up C\n"""\n'
        'evaluation: """\nW 10\nC -1.5\nA 3\n"""\n'
    ),
}

# Pieces that meet edge cases of the readers: brackets, separators, numbers out of
# range, NaN, control characters, quotes and the words of each notation.
PIECES = [
    "[", "]", "(", ")", "{", "}", ",", ":", "=", " ", "\n", "\t", '"', "'", "\\", "-", "+",
    ".", "e", "0", "7", "-3", "2.5", "1e400", "-1e400", "inf", "-inf", "Infinity", "NaN",
    "nan", "∞", "9" * 310, "9" * 5000, "\x1b", "\x00", "\x85", "\u202e", "\ufeff", "\\u001b",
    "\\n", "A", "x_1", "null", "true", "[]", "{}", '"value"', '"children"', '"p"', '"kind"',
    '"chance"', '"label"', '"tree"', '"bounds"', '"root"', "successors:", "evaluation:",
    '"""', 'depth: "', 'num_agents: "', "A l A", "9" * 19,
]  # fmt: skip

mutation = st.tuples(
    st.integers(0, 10_000), st.integers(0, 3), st.sampled_from(PIECES) | st.text(max_size=3)
)


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply edits (where, how many characters to remove, what to insert)."""
    for where, remove, insert in edits:
        at = where % (len(text) + 1)
        text = text[:at] + insert + text[at + remove :]
    return text


def only_plies_errors(call: Callable[[], object]) -> None:
    """Run ``call``; a PliesError is fine, another exception fails the test."""
    try:
        result = call()
    except PliesError as exc:
        assert "\n" not in str(exc).strip() or "line" in str(exc), str(exc)
    else:
        if isinstance(result, Tree):
            assert len(result) >= 1


def small_limit() -> Any:
    """Keep mutated CS188 expansions small: the node limit at 10,000."""
    return mock.patch.object(_parse, "MAX_NODES", 10_000)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(sorted(VALID)),
    st.lists(mutation, min_size=1, max_size=6),
    st.sampled_from([None, "auto", "brackets", "flat", "json", "cs188"]),
)
def test_mutated_text_in_every_notation(name: str, edits: Any, notation: str | None) -> None:
    text = mutate(VALID[name], edits)
    chosen = notation or ("flat" if name == "flat" else "auto")
    branching = 2 if chosen == "flat" else None
    with small_limit():
        only_plies_errors(lambda: parse(text, notation=chosen, branching=branching))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_text_made_of_pieces(text: str) -> None:
    with small_limit():
        for notation in ("auto", "brackets", "json", "cs188"):
            only_plies_errors(lambda notation=notation: parse(text, notation=notation))
        only_plies_errors(lambda: parse(text, branching=2))


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**400), 10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["inf", "-inf", "nan", "1e400", "x", "\x1b", "max", "min", "chance"]),
)
json_nodes = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["label", "kind", "value", "static", "children", "probability", "p", "move", "x"]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_nodes, st.none() | json_nodes, st.sampled_from(["max", "min", "mid", 3]))
def test_generated_json_documents(node: Any, bounds: Any, root: Any) -> None:
    text = json.dumps(node)
    only_plies_errors(lambda: parse(text, notation="json"))
    document = json.dumps({"tree": node, "bounds": bounds, "root": root})
    only_plies_errors(lambda: parse(document))


anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**400), 10**400),
    st.floats(),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.lists(st.integers(), max_size=3),
    st.fractions(),
)


@settings(max_examples=200, deadline=None)
@given(
    anything | st.sampled_from(["[1, 2]", "1 2", '{"children": [1]}']),
    anything | st.sampled_from(["auto", "brackets", "flat", "json", "cs188"]),
    anything | st.sampled_from(["max", "min"]),
    anything | st.none(),
)
def test_parse_arguments_of_every_type(text: Any, notation: Any, root: Any, branching: Any) -> None:
    only_plies_errors(lambda: parse(text, notation=notation, root=root, branching=branching))
    only_plies_errors(lambda: parse("[1, 2]", notation=notation))
    only_plies_errors(lambda: parse("1 2 3 4", root=root, branching=branching))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(anything | st.sampled_from([math.nan, math.inf, -math.inf]), max_size=9) | anything,
    anything | st.integers(-2, 5),
    st.sampled_from(["max", "min", "mid"]) | anything,
)
def test_from_leaves_with_anything(leaves: Any, branching: Any, root: Any) -> None:
    only_plies_errors(lambda: from_leaves(leaves, branching=branching, root=root))


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["branching", "depth", "low", "high", "seed", "ragged", "distinct",
                         "chance", "root"]),
        anything | st.integers(-3, 6) | st.sampled_from([math.inf, math.nan, 1e400, 2.5]),
    )
)  # fmt: skip
def test_random_tree_with_anything(kwargs: dict[str, Any]) -> None:
    if isinstance(kwargs.get("branching"), int) and isinstance(kwargs.get("depth"), int):
        kwargs["depth"] = min(kwargs["depth"], 12)  # keep the valid ones quick to make
    only_plies_errors(lambda: random_tree(**kwargs))
