"""What a search returns: lazy per-node records against an eager reference walk, its
events against the textbook recursion, memory in proportion to the nodes visited,
exact uniform chance averages, grader JSON, names and views."""

from __future__ import annotations

import math
import re
import sys
import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import ArgumentTypeError, SearchError, TreeError
from plies.trees import (
    Backup,
    Cutoff,
    Enter,
    Evaluate,
    Event,
    Exit,
    SearchOptions,
    Tree,
    TreeBuilder,
    TreeResult,
    alphabeta,
    compare,
    exact_values,
    expectiminimax,
    from_leaves,
    minimax,
    narrate,
    negamax,
    parse,
    random_tree,
    result_to_json,
    search,
)
from plies.trees._format import node_name
from plies.trees._native import flat_tree
from plies.trees._render import plain_tree_lines
from plies.trees._search import _orderer
from strategies import leaf_values, prune_options, ragged_trees, uniform_chance_trees

AIMA_5_2 = "[[3,12,8],[2,4,6],[14,5,2]]"
LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"
DATA = __import__("pathlib").Path(__file__).parent / "data"


# An eager reference: the textbook recursion, every record kept in lists of n -----------


def reference(tree: Tree, options: SearchOptions, *, prune: bool) -> dict[str, Any]:
    """Alpha-beta (or minimax without ``prune``) as textbooks write it, recursive, in
    MAX's view, filling one list per attribute for every node."""
    n = len(tree)
    order = _orderer(tree, options)
    out: dict[str, Any] = {
        key: [None] * n for key in ("alpha_in", "beta_in", "alpha_out", "beta_out", "values")
    }
    status = ["pruned"] * n
    evaluated: list[int] = []
    cuts: dict[int, tuple[int, ...]] = {}
    strict, soft = options.strict, options.fail_soft

    def visit(node: int, alpha: Any, beta: Any) -> Any:
        out["alpha_in"][node], out["beta_in"][node] = alpha, beta
        if tree.kind[node] == "leaf":
            evaluated.append(tree.leaf_index[node])
            status[node] = "evaluated"
            out["alpha_out"][node], out["beta_out"][node] = alpha, beta
            out["values"][node] = tree.value[node]
            return tree.value[node]
        kids = order(node)
        sign = 1 if tree.kind[node] == "max" else -1
        best = None
        for k, child in enumerate(kids):
            v = visit(child, alpha, beta)
            if best is None or sign * v > sign * best:
                best = v
            if prune:
                if sign > 0:
                    alpha = best if best > alpha else alpha
                    cut = best > beta if strict else best >= beta
                else:
                    beta = best if best < beta else beta
                    cut = best < alpha if strict else best <= alpha
                if cut and k < len(kids) - 1:
                    cuts[node] = tuple(kids[k + 1 :])
                    break
        value = best if soft else min(max(best, out["alpha_in"][node]), out["beta_in"][node])
        out["alpha_out"][node], out["beta_out"][node] = alpha, beta
        out["values"][node] = value
        status[node] = "cutoff" if node in cuts else "visited"
        return value

    out["value"] = visit(0, *options.window)
    out["status"], out["evaluated"], out["cuts"] = status, evaluated, cuts
    return out


def textbook(tree: Tree, options: SearchOptions) -> tuple[list[Event], dict[int, Cutoff]]:
    """The events and cut-offs of the same search as the textbook recursion writes them,
    in MAX's view: MAX raises alpha and is cut by beta, MIN lowers beta and is cut by
    alpha, and each bound remembers the node that set it."""
    order = _orderer(tree, options)
    prune, strict, soft = options.algorithm != "minimax", options.strict, options.fail_soft
    events: list[Event] = []
    cuts: dict[int, Cutoff] = {}

    def visit(node: int, alpha: Any, beta: Any, asrc: int, bsrc: int) -> Any:
        events.append(Enter(node, alpha, beta))
        if tree.kind[node] == "leaf":
            number = sum(isinstance(e, Evaluate) for e in events) + 1
            events.append(Evaluate(node, tree.leaf_index[node], tree.value[node], number))
            return tree.value[node]
        sign, kids, a_in, b_in, best = (
            (1 if tree.kind[node] == "max" else -1),
            order(node),
            alpha,
            beta,
            None,
        )
        for k, child in enumerate(kids):
            v = visit(child, alpha, beta, asrc, bsrc)
            improved = best is None or sign * v > sign * best
            best = v if improved else best
            bound: Any = (None, None)
            if prune and sign > 0 and best > alpha:
                alpha, asrc, bound = best, node, ("alpha", best)
            elif prune and sign < 0 and best < beta:
                beta, bsrc, bound = best, node, ("beta", best)
            cutoff = None
            if prune and k < len(kids) - 1:
                op = {(1, False): ">=", (1, True): ">", (-1, False): "<=", (-1, True): "<"}[
                    sign, strict
                ]
                other, value, source = ("beta", beta, bsrc) if sign > 0 else ("alpha", alpha, asrc)
                if sign * best > sign * value or (not strict and best == value):
                    cutoff = cuts[node] = Cutoff(
                        node, best, op, other, value, source, tuple(kids[k + 1 :])
                    )
            events.append(Backup(node, child, v, v, False, best, improved, *bound, cutoff))
            if cutoff is not None:
                break
        value = best if soft else min(max(best, a_in), b_in)
        events.append(Exit(node, value))
        return value

    visit(0, *options.window, -1, -1)
    return events, cuts


def assert_same_records(result: TreeResult, ref: dict[str, Any]) -> None:
    assert result.value == ref["value"]
    for key in ("alpha_in", "beta_in", "alpha_out", "beta_out", "values"):
        assert getattr(result, key) == ref[key], key
    assert result.status == ref["status"]
    assert result.evaluated == ref["evaluated"]
    assert {node: cut.pruned for node, cut in result.cut_at.items()} == ref["cuts"]
    assert result.nodes_visited == sum(s != "pruned" for s in ref["status"])
    assert result.cutoffs == len(ref["cuts"])


@settings(max_examples=150)
@given(ragged_trees(), prune_options, st.booleans())
def test_lazy_records_equal_an_eager_walk(tree: Tree, opts: dict[str, Any], trace: bool) -> None:
    for algorithm in ("alphabeta", "negamax", "minimax"):
        options = SearchOptions(algorithm=algorithm, trace=trace, **opts)
        ref = reference(tree, options, prune=algorithm != "minimax")
        assert_same_records(search(tree, options), ref)


@settings(max_examples=150)
@given(ragged_trees(), prune_options)
def test_events_equal_the_textbook_recursion(tree: Tree, opts: dict[str, Any]) -> None:
    for algorithm in ("alphabeta", "minimax"):
        options = SearchOptions(algorithm=algorithm, **opts)
        events, cuts = textbook(tree, options)
        result = search(tree, options)
        assert result.events == events
        assert [repr(e) for e in result.events] == [repr(e) for e in events]
        assert result.cut_at == cuts


@given(ragged_trees(), prune_options)
def test_negamax_events_are_alphabeta_events_in_the_movers_view(
    tree: Tree, opts: dict[str, Any]
) -> None:
    ab = alphabeta(tree, **opts).events
    nm = negamax(tree, **opts).events
    assert [(type(e), e.node) for e in nm] == [(type(e), e.node) for e in ab]
    for a, b in zip(ab, nm, strict=True):
        node = a.node
        mover = tree.kind[node] if tree.kind[node] != "leaf" else tree.kind[tree.parent[node]]
        if isinstance(a, Enter) and isinstance(b, Enter):
            expected = (a.alpha, a.beta) if mover != "min" else (-a.beta, -a.alpha)
            assert (b.alpha, b.beta) == expected
        if isinstance(a, Exit) and isinstance(b, Exit):
            assert b.value == (a.value if tree.kind[node] == "max" else -a.value)


@given(ragged_trees(), st.sampled_from(["alphabeta", "negamax", "minimax"]))
def test_evaluation_numbers_count_up(tree: Tree, algorithm: str) -> None:
    events = search(tree, algorithm=algorithm).events
    numbers = [e.number for e in events if isinstance(e, Evaluate)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_records_are_built_only_when_read() -> None:
    result = alphabeta(random_tree(branching=4, depth=5, seed=3), trace=False)
    assert not {"_records", "status", "cut_at", "events"} & set(vars(result))
    assert result.status[0] == "visited"
    assert "status" in vars(result) and "_records" not in vars(result)
    assert result.values[0] == result.value
    assert "_records" in vars(result)


@pytest.mark.parametrize("backend", ["python", "native"])
def test_search_memory_grows_with_the_nodes_visited(backend: str) -> None:
    tree = from_leaves([(k * 7919) % 2001 - 1000 for k in range(10**5)], branching=10)
    if backend == "native":
        flat_tree(tree)  # the tree's arrays, built once and kept on the tree
        for fn in (alphabeta, minimax):  # load the compiled search outside the count
            fn(from_leaves([1, 2, 3, 4], branching=2), trace=False, backend=backend)
    peaks = {}
    for name, fn in (("alphabeta", alphabeta), ("minimax", minimax)):
        tracemalloc.start()
        result = fn(tree, trace=False, backend=backend)
        peaks[name] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        peaks[name + " visited"] = result.nodes_visited
    # Alpha-beta visits a few percent of the 111,111 nodes; eager lists of n entries
    # alone would take 5 * 8 bytes * n = 4.4 MB.
    assert peaks["alphabeta visited"] < len(tree) / 5
    assert peaks["alphabeta"] < 200 * peaks["alphabeta visited"]
    assert peaks["alphabeta"] < peaks["minimax"] / 3


# Exact uniform chance averages ------------------------------------------------------------


def test_equally_likely_outcomes_average_exactly() -> None:
    # 0.1 * 1 summed ten times is 0.9999999999999999; the average of ten 1s is 1.
    tree = parse('{"kind": "chance", "children": [1,1,1,1,1,1,1,1,1,1]}')
    assert expectiminimax(tree).value == 1
    assert exact_values(tree)[0] == 1


def test_equal_expectations_tie_exactly() -> None:
    a = '{"kind": "chance", "children": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]}'
    b = '{"kind": "chance", "children": [0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]}'
    tree = parse(f'{{"tree": {{"kind": "max", "children": [{a}, {b}]}}}}')
    values = exact_values(tree)
    assert values[1] == values[9]
    assert expectiminimax(tree).values[1] == expectiminimax(tree).values[9]


@settings(max_examples=150)
@given(uniform_chance_trees(), st.permutations(range(10)))
def test_uniform_chance_values_do_not_depend_on_order(tree: Tree, perm: list[int]) -> None:
    plain = expectiminimax(tree, star1=False)
    shuffled = expectiminimax(tree, star1=False, order="random", seed=perm[0])
    assert plain.value == shuffled.value == exact_values(tree)[0]


@settings(max_examples=150)
@given(uniform_chance_trees(), st.sampled_from(["given", "best", "random"]))
def test_star1_equals_plain_expectiminimax_exactly(tree: Tree, order: str) -> None:
    plain = expectiminimax(tree, star1=False, order=order)
    star1 = expectiminimax(tree, order=order)
    assert star1.value == plain.value
    assert set(star1.evaluated) <= set(plain.evaluated)


# Leaves without values --------------------------------------------------------------------


def tree_with_missing(values: list[Any], kinds: list[str], parents: list[int]) -> Tree:
    n = len(parents)
    return Tree(
        parent=parents,
        kind=kinds,  # type: ignore[arg-type]
        value=values,
        label=[None] * n,
        static=[None] * n,
        probability=[None] * n,
        move=[None] * n,
    )


# [[3], [3, None]]: MIN node 1 is cut by alpha = 3 after its first leaf, unless the
# strict rule asks for a value strictly below alpha.
MISSING = tree_with_missing(
    [None, None, 3, None, 3, None],
    ["max", "min", "leaf", "min", "leaf", "leaf"],
    [-1, 0, 1, 0, 3, 3],
)


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negamax"])
def test_a_leaf_without_value_is_an_error_when_reached(algorithm: str) -> None:
    if algorithm == "minimax":
        for trace in (True, False):  # without a trace, all-leaf frames go through builtins
            with pytest.raises(SearchError, match=r"leaf C2 has no value"):
                minimax(MISSING, trace=trace)
        return
    # Alpha-beta never reaches it, so it does not matter.
    assert search(MISSING, algorithm=algorithm).value == 3
    with pytest.raises(SearchError, match=r"leaf C2 has no value"):
        search(MISSING, algorithm=algorithm, strict=True)


def test_missing_leaf_values_in_exact_values_and_orderings() -> None:
    with pytest.raises(SearchError, match="has no value"):
        exact_values(MISSING)
    with pytest.raises(SearchError, match="has no value"):
        alphabeta(MISSING, order="best")


def test_a_missing_value_under_a_chance_node() -> None:
    tree = tree_with_missing([None, 1, None], ["chance", "leaf", "leaf"], [-1, 0, 0])
    tree.probability[1] = tree.probability[2] = 0.5
    with pytest.raises(SearchError, match=r"leaf A2 has no value"):
        expectiminimax(tree)


# Arguments ----------------------------------------------------------------------------------

TREE = parse(AIMA_5_2)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: alphabeta("[1,2]"), ArgumentTypeError, r"tree must be .*Tree.*not str '\[1,2\]'"),
        (lambda: search(None), ArgumentTypeError, "tree must be .*not NoneType"),
        (
            lambda: alphabeta(TREE, strict="yes"),
            ArgumentTypeError,
            "strict must be True or False, not 'yes'",
        ),
        (
            lambda: alphabeta(TREE, fail_soft=1),
            ArgumentTypeError,
            "fail_soft must be True or False, not 1",
        ),
        (lambda: alphabeta(TREE, trace=None), ArgumentTypeError, "trace must be True or False"),
        (
            lambda: alphabeta(TREE, foo=1),
            ArgumentTypeError,
            "unknown search option foo .*valid options: fail_soft, strict",
        ),
        (
            lambda: alphabeta(TREE, algorithm="minimax"),
            ArgumentTypeError,
            "unknown search option algorithm",
        ),
        (
            lambda: search(TREE, SearchOptions(), strict=True),
            ArgumentTypeError,
            r"either options or keywords \(strict\)",
        ),
        (
            lambda: search(TREE, "alphabeta"),
            ArgumentTypeError,
            "options must be a SearchOptions or None, not str",
        ),
        (lambda: search(TREE, algorithm="mcts"), SearchError, "unknown algorithm 'mcts'"),
        (lambda: search(TREE, algorithm=3), ArgumentTypeError, "algorithm must be a string, not 3"),
        (lambda: alphabeta(TREE, order="alphabetical"), SearchError, "unknown move ordering"),
        (
            lambda: alphabeta(TREE, seed="x"),
            ArgumentTypeError,
            "seed must be an int or None, not 'x'",
        ),
        (
            lambda: alphabeta(TREE, depth=True),
            ArgumentTypeError,
            "depth must be an int or None, not True",
        ),
        (
            lambda: alphabeta(TREE, depth=1.5),
            ArgumentTypeError,
            "depth must be an int or None, not 1.5",
        ),
        (lambda: alphabeta(TREE, depth=-1), SearchError, "depth limit must be 0 or more, not -1"),
        (
            lambda: alphabeta(TREE, window=(1,)),
            ArgumentTypeError,
            r"window must be a pair \(alpha, beta\)",
        ),
        (lambda: alphabeta(TREE, window=5), ArgumentTypeError, "window must be a pair"),
        (lambda: alphabeta(TREE, window=(0, "9")), ArgumentTypeError, "two real numbers"),
        (lambda: alphabeta(TREE, window=(True, 3)), ArgumentTypeError, "two real numbers"),
        (lambda: alphabeta(TREE, window=(math.nan, 1)), SearchError, "alpha < beta"),
        (lambda: alphabeta(TREE, window=(3, 1)), SearchError, r"alpha < beta, not \(3, 1\)"),
        (lambda: exact_values("[1]"), ArgumentTypeError, "tree must be"),
        (lambda: exact_values(TREE, depth="2"), ArgumentTypeError, "depth must be an int"),
        (lambda: compare("[1]"), ArgumentTypeError, "tree must be"),
        (lambda: compare(TREE, seed="x"), ArgumentTypeError, "seed must be an int"),
        (
            lambda: compare(TREE, fail_soft="no"),
            ArgumentTypeError,
            "fail_soft must be True or False",
        ),
        (
            lambda: alphabeta(TREE).record(99),
            TreeError,
            r"node 99 is not in the tree \(ids 0 to 12\)",
        ),
        (lambda: alphabeta(TREE).reason("A"), ArgumentTypeError, "node must be a node id"),
    ],
)
def test_misuse_raises_a_specific_error(call: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_argument_type_errors_are_type_errors_too() -> None:
    with pytest.raises(TypeError):
        alphabeta(TREE, strict="yes")
    with pytest.raises(ValueError):
        alphabeta(TREE, strict="yes")


def test_window_given_as_a_list_is_kept_as_a_tuple() -> None:
    assert SearchOptions(window=[0, 10]).window == (0, 10)  # type: ignore[arg-type]


# Grader JSON ------------------------------------------------------------------------------


def test_json_names_the_moves_and_the_action() -> None:
    tree = parse((DATA / "aima-two-agents.test").read_text())
    doc = result_to_json(alphabeta(tree))
    assert doc["action"] == "Left"
    assert doc["path"] == [0, 0]
    assert doc["path_moves"] == ["Left", "Left"]
    assert [n["move"] for n in doc["nodes"][:3]] == [None, "Left", "Left"]
    # Every existing field keeps its meaning.
    assert doc["value"] == 3 and doc["evaluated"] == [0, 1, 2, 3, 6, 7, 8]
    assert doc["nodes"][0]["status"] == "visited"


def test_json_action_is_null_without_move_names() -> None:
    doc = result_to_json(alphabeta(TREE))
    assert doc["action"] is None
    assert doc["path"][0] == 0
    assert result_to_json(alphabeta(parse("7")))["action"] is None


def test_json_moves_from_a_json_tree() -> None:
    tree = parse('{"tree": {"children": [{"move": "x", "value": 1}, {"move": "y", "value": 2}]}}')
    assert result_to_json(alphabeta(tree))["action"] == "y"


# Names and views --------------------------------------------------------------------------


def test_hash_k_is_the_evaluation_order_in_narration_and_tree() -> None:
    result = alphabeta(parse(LABELLED))
    lines = [line for line in narrate(result) if "evaluate leaf" in line]
    assert [int(m) for line in lines for m in re.findall(r"#(\d+)", line)] == [1, 2, 3, 4, 5]
    assert "evaluate leaf D1 = 2 (#1 evaluated, leaf number 0)" in lines[0]
    rendered = "\n".join(plain_tree_lines(result.tree, result))
    assert "0  #4  (leaf 4)" in rendered  # F's first leaf: fourth evaluated, leaf number 4
    assert "9  (leaf 3)" in rendered  # pruned: its leaf number only


def test_deep_nodes_have_short_names_without_hash() -> None:
    tree = parse("[" * 20 + "1" + "]" * 20)
    assert node_name(tree, 15) == "P"
    lines = narrate(alphabeta(tree))
    assert "evaluate leaf T1 = 1 (#1 evaluated, leaf number 0)" in lines[20]
    assert [line for line in lines if "#" in line] == [lines[20]]


def test_negamax_narration_says_whose_view() -> None:
    result = negamax(parse(LABELLED))
    lines = narrate(result)
    # B is a MIN node: its value is -3 in MIN's view, 3 as the tree shows it.
    assert "Step 15: B (MIN) is done: its value is -3 in MIN's view (3 for MAX)" in lines
    assert "Step 16: at A (MAX), B gives -3 in MIN's view, negated to 3" in lines[15]
    assert (
        "enter C (MIN) with alpha=-inf, beta=-3 in MIN's view (for MAX: alpha=3, beta=inf)"
        in (lines[16])
    )
    assert result.values[result.tree.node_at([0])] == 3
    rendered = "\n".join(plain_tree_lines(result.tree, result))
    assert "cut-off: v=-1 >= beta=-3 in MIN's view" in rendered
    assert "pruned: v=-1 >= beta=-3 in MIN's view (set at A)" in rendered
    # Alpha-beta works in MAX's view throughout and says nothing of views.
    assert not any("view" in line for line in narrate(alphabeta(parse(LABELLED))))


def test_narration_names_moves() -> None:
    tree = parse((DATA / "aima-two-agents.test").read_text())
    lines = narrate(alphabeta(tree))
    assert any("at A (MAX), B (move Left) gives 3" in line for line in lines)


def test_summary_and_repr() -> None:
    result = alphabeta(TREE)
    assert result.summary() == "evaluated 7 of 9 leaves, 11 nodes visited, 1 cut-off"
    assert "value=3" in repr(result)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


@st.composite
def mixed_kind_trees(draw: st.DrawFn) -> Tree:
    """Ragged trees whose inner nodes are MAX or MIN at random (a MAX child of a MAX
    node too), so that bottom nodes meet both colours and both window views."""
    data = draw(st.lists(st.lists(st.one_of(st.lists(leaf_values, min_size=1, max_size=5),
                                            leaf_values), min_size=1, max_size=4),
                         min_size=1, max_size=4))  # fmt: skip
    builder = TreeBuilder(root=draw(st.sampled_from(["max", "min"])))
    stack: list[tuple[int, Any]] = [(-1, data)]
    while stack:
        parent, item = stack.pop()
        if isinstance(item, list):
            kind = draw(st.sampled_from(["max", "min"])) if parent >= 0 else None
            node = builder.add(parent, kind=kind)
            stack.extend((node, child) for child in reversed(item))
        else:
            builder.add(parent, value=item)
    return builder.build()


@settings(max_examples=200)
@given(
    st.one_of(ragged_trees(), mixed_kind_trees()),
    prune_options,
    st.sampled_from(["alphabeta", "minimax"]),
    st.booleans(),
)
def test_mixed_kinds_equal_the_textbook_recursion(
    tree: Tree, opts: dict[str, Any], algorithm: str, trace: bool
) -> None:
    """A MAX child of a MAX node (no negation between them) searches as the textbook
    says: records, cut-offs and events, 0 and -0.0, 1 and 1.0 kept apart."""
    options = SearchOptions(algorithm=algorithm, trace=trace, **opts)
    result = search(tree, options)
    ref = reference(tree, options, prune=algorithm != "minimax")
    assert_same_records(result, ref)
    assert repr(result.value) == repr(ref["value"])
    assert [repr(v) for v in result.values] == [repr(v) for v in ref["values"]]
    events, cuts = textbook(tree, options)
    assert result.cut_at == cuts
    if trace:
        assert [repr(e) for e in result.events] == [repr(e) for e in events]
