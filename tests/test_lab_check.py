"""Checking answers: right answers score 1, every kind of mistake (pruning too much,
too little, wrong values, blanks) is caught once and explained from the real search,
and the score does not depend on how the pruning is marked."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.lab import AnswerError, LabOptions, check_answer, read_tree, run
from plies.trees import TreeResult, format_tree, random_tree

LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"
#: The issue's exercise with nothing to prune: blanks must not score "All right".
NOTHING_PRUNED = "A(B(C(-6,2),D(-6,-9)),E(F(4,-7),G(1,-2)))"


def _result(text: str = LABELLED, **options: Any) -> TreeResult:
    return run(read_tree(text), LabOptions(**options), trace=False)


def _paths(result: TreeResult) -> dict[int, str]:
    tree = result.tree
    return {n: ".".join(map(str, tree.path(n))) for n in range(len(tree))}


def _searched_inner(result: TreeResult) -> list[int]:
    tree, status = result.tree, result.status
    return [
        n
        for n in range(len(tree))
        if tree.kind[n] != "leaf" and status[n] not in ("pruned", "beyond-depth")
    ]


def _pruned_roots(result: TreeResult) -> list[int]:
    tree, status = result.tree, result.status
    return [
        n
        for n in range(1, len(tree))
        if status[n] == "pruned" and status[tree.parent[n]] != "pruned"
    ]


def _perfect(result: TreeResult, *, marking: str = "both") -> dict[str, Any]:
    """The right answer, its leaves marked as ``evaluated``, ``pruned`` or both."""
    paths = _paths(result)
    answer: dict[str, Any] = {
        "value": result.value,
        "values": {paths[n]: result.values[n] for n in _searched_inner(result) if n},
        "alpha": {paths[n]: result.alpha_out[n] for n in _searched_inner(result)},
        "beta": {paths[n]: result.beta_out[n] for n in _searched_inner(result)},
    }
    if marking in ("evaluated", "both"):
        answer["evaluated"] = list(result.evaluated)
    if marking in ("pruned", "both"):
        answer["pruned"] = [paths[n] for n in _pruned_roots(result)]
    return answer


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    branching=st.integers(1, 3),
    depth=st.integers(1, 4),
    strict=st.booleans(),
    order=st.sampled_from(["given", "best", "worst"]),
    marking=st.sampled_from(["evaluated", "pruned", "both"]),
)
def test_the_search_itself_scores_full_marks(
    *, seed: int, branching: int, depth: int, strict: bool, order: str, marking: str
) -> None:
    tree = random_tree(branching=branching, depth=depth, seed=seed, ragged=True)
    result = run(read_tree(format_tree(tree)), LabOptions(strict=strict, order=order))
    verdict = check_answer(result, _perfect(result, marking=marking))
    assert verdict.correct and verdict.score == 1.0 and verdict.feedback == []


# Blanks are unanswered, and the root value is required --------------------------------


def test_nothing_typed_is_not_all_right() -> None:
    """The practice page's empty answer: every leaf left evaluated, no value typed."""
    result = _result(NOTHING_PRUNED)
    verdict = check_answer(result, {"evaluated": list(range(8)), "values": {}})
    assert not verdict.correct
    messages = [f.message for f in verdict.feedback]
    assert messages[0] == "the root's value is not answered"
    assert "B's value is not answered" in messages
    assert (verdict.right, verdict.checked) == (8, 1 + 6 + 8)


def test_the_root_value_is_graded_even_when_left_out() -> None:
    result = _result()
    verdict = check_answer(result, {"evaluated": [0, 1, 2, 4, 5]})
    assert not verdict.correct and verdict.graded == ("value", "leaves")
    assert [f.message for f in verdict.feedback] == ["the root's value is not answered"]
    assert check_answer(result, {}).to_json()["correct"] is False
    assert check_answer(result, {"value": " "}).feedback[0].message.endswith("not answered")


def test_a_blank_searched_node_is_wrong_and_a_pruned_one_must_stay_blank() -> None:
    result = _result()  # G is pruned
    answer = {"value": 3, "values": {"0": 3, "0.0": 3, "0.1": "", "1": 1, "1.0": 1}}
    verdict = check_answer(result, answer)
    assert [f.message for f in verdict.feedback] == ["E's value is not answered"]
    assert (verdict.right, verdict.checked) == (6, 7)
    answer["values"] = {**answer["values"], "0.1": 5, "1.1": 7}
    verdict = check_answer(result, answer)
    [mistake] = verdict.feedback
    assert mistake.message.startswith("G is pruned") and mistake.message.endswith("it has no value")


def test_bounds_cover_every_searched_inner_node_and_none_at_a_pruned_one() -> None:
    result = _result()
    perfect = _perfect(result)
    del perfect["alpha"]["1.0"]
    perfect["beta"]["1.1"] = 3  # G is pruned: a bound typed there is a mistake
    verdict = check_answer(result, perfect)
    messages = [f.message for f in verdict.feedback]
    assert messages == [
        "G is pruned: at C, v=1 <= alpha=3 (the bound comes from A), so its remaining "
        "children are skipped; it has no beta",
        "F's alpha is not answered",
    ]


def test_grade_names_the_parts_graded() -> None:
    result = _result()
    leaves_only = check_answer(result, {"evaluated": [0, 1, 2, 4, 5], "grade": ["leaves"]})
    assert leaves_only.correct and leaves_only.checked == 8
    assert leaves_only.graded == ("leaves",)
    # A part named but not given is graded in full, as all unanswered.
    values = check_answer(result, {"value": 3, "grade": ["value", "values"]})
    assert (values.right, values.checked) == (2, 7)  # the root, and G (pruned) left blank
    # Parts given but not named are read, not graded.
    assert check_answer(result, {"value": 99, "evaluated": [0], "grade": "leaves"}).checked == 8


# The score does not depend on how pruning is marked; each mistake once ------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), depth=st.integers(2, 4), drop=st.integers(0, 50))
def test_marking_leaves_or_edges_scores_the_same(seed: int, depth: int, drop: int) -> None:
    result = run(random_tree(branching=3, depth=depth, seed=seed), LabOptions(), trace=False)
    tree = result.tree
    pruned_roots = _pruned_roots(result)
    # One mistake among the pruned subtrees: one of them left unmarked.
    forgotten = pruned_roots[drop % len(pruned_roots)] if pruned_roots else None
    marked = [n for n in pruned_roots if n != forgotten]
    paths = _paths(result)
    by_edge = {"value": result.value, "pruned": [paths[n] for n in marked]}
    by_leaf = {
        "value": result.value,
        "evaluated": [
            tree.leaf_index[leaf]
            for leaf in tree.leaf_ids
            if not any(_under(tree, leaf, n) for n in marked)
        ],
    }
    a, b = check_answer(result, by_edge), check_answer(result, by_leaf)
    assert (a.right, a.checked) == (b.right, b.checked)
    assert a.checked == 1 + tree.leaf_count
    assert len(a.feedback) == len(b.feedback) == (0 if forgotten is None else 1)


def _under(tree: Any, node: int, top: int) -> bool:
    while node > top:
        node = tree.parent[node]
    return node == top


def test_a_wrongly_cut_edge_reports_its_leaves_once() -> None:
    result = _result()  # C is searched: F's leaves are evaluated, G's pruned
    verdict = check_answer(result, {"value": 3, "pruned": ["1", "0.1.1"]})
    assert (verdict.right, verdict.checked) == (7, 9)
    [mistake] = verdict.feedback
    assert mistake.path == (1,)
    assert mistake.message.startswith("C is searched, not pruned")
    assert mistake.message.endswith("F1 and F2 are evaluated")


def test_a_pruned_subtree_left_unmarked_is_one_message_with_its_leaves() -> None:
    verdict = check_answer(_result(), {"value": 3, "pruned": ["0.1.1"]})
    [mistake] = verdict.feedback
    assert mistake.path == (1, 1)
    assert mistake.message == (
        "G is pruned: at C, v=1 <= alpha=3 (the bound comes from A), so its remaining "
        "children are skipped; its leaves G1 and G2 are never evaluated"
    )
    assert (verdict.right, verdict.checked) == (7, 9)


def test_marking_inside_a_pruned_subtree_names_the_leaves_left() -> None:
    verdict = check_answer(_result(), {"value": 3, "pruned": ["1.1.0", "0.1.1"]})
    [mistake] = verdict.feedback
    assert mistake.message.startswith("G2 is pruned (it lies under G, which is): at C, v=1")
    assert (verdict.right, verdict.checked) == (8, 9)


# Feedback names nodes as the drawing does ---------------------------------------------


def test_feedback_on_an_unlabelled_tree_uses_the_drawn_names() -> None:
    result = _result("[[3,5],[2,9]]")  # names A; B, B1, B2; C, C1, C2
    assert check_answer(result, {"value": 3, "evaluated": [0, 1, 2]}).correct
    verdict = check_answer(result, {"value": 3, "evaluated": [0, 1, 2, 3]})
    [mistake] = verdict.feedback
    assert mistake.message.startswith("C2 is pruned: at C, v=2 <= alpha=3 (the bound comes from A)")
    verdict = check_answer(result, {"value": 3, "evaluated": [0, 2]})
    assert verdict.feedback[0].message.startswith("B2 is searched, not pruned")


def test_pruning_one_leaf_too_many_names_that_leaf_and_why() -> None:
    verdict = check_answer(_result(), {"value": 3, "evaluated": [0, 1, 2, 4]})
    [mistake] = verdict.feedback
    assert mistake.path == (1, 0, 1)
    assert mistake.message.startswith("F2 is searched, not pruned")
    assert "alpha=3 and beta=inf" in mistake.message


def test_pruning_too_little_names_the_cut_off() -> None:
    verdict = check_answer(_result(), {"value": 3, "evaluated": [0, 1, 2, 3, 4, 5]})
    by_path = {f.path: f.message for f in verdict.feedback}
    assert "E2 is pruned" in by_path[(0, 1, 1)] and "v=5 >= beta=3" in by_path[(0, 1, 1)]
    assert len(by_path) == 1


def test_the_strict_rule_changes_what_is_pruned() -> None:
    tree = "[[3,5],[3,1]]"  # the second MIN node ties alpha at 3
    loose = check_answer(_result(tree), {"value": 3, "evaluated": [0, 1, 2, 3]})
    strict = check_answer(_result(tree, strict=True), {"value": 3, "evaluated": [0, 1, 2, 3]})
    assert not loose.correct and strict.correct


def test_wrong_values_and_values_of_pruned_nodes() -> None:
    verdict = check_answer(_result(), {"value": 5, "values": {"0": 3, "1": 2, "1.1": 7}})
    messages = [f.message for f in verdict.feedback]
    assert messages[0] == "the root's value is 3, not 5"
    assert "C's value is 1, not 2" in messages
    assert messages[-1].startswith("G is pruned") and messages[-1].endswith("it has no value")


def test_the_root_may_be_given_among_the_values() -> None:
    assert check_answer(_result(), {"values": {"": 3}, "grade": ["value"]}).correct
    with pytest.raises(AnswerError, match="differently"):
        check_answer(_result(), {"value": 2, "values": {"": 3}})


@pytest.mark.parametrize(
    "answer",
    [
        {"value": "x"},
        {"value": float("nan")},
        {"evaluated": [99]},
        {"evaluated": "0,1"},
        {"values": {"9.9": 1}},
        {"values": {"a": 1}},
        {"values": {"0.0.0": 2}},  # a leaf: its value is given
        {"values": {"0": 1, "00": 1}},
        {"values": [1]},
        {"pruned": [5]},
        {"evaluated": [0, 1], "pruned": ["0"]},  # leaf 0 both evaluated and pruned
        {"colour": "red"},
        {"value": 3, "grade": []},
        {"value": 3, "grade": ["pruned"]},
        {"values": {}, "grade": ["values"]},  # on [1,2]: no inner node below the root
    ],
)
def test_answers_that_cannot_be_checked(answer: dict[str, Any]) -> None:
    text = "[1,2]" if answer.get("grade") == ["values"] else LABELLED
    with pytest.raises(AnswerError):
        check_answer(_result(text), answer)
