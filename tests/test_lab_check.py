"""Checking answers: right answers score 1, and every kind of mistake (pruning too
much, too little, wrong values) is caught and explained from the real search."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.lab import AnswerError, LabOptions, check_answer, read_tree, run
from plies.trees import TreeResult, format_tree, random_tree

LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"


def _result(text: str = LABELLED, **options: Any) -> TreeResult:
    return run(read_tree(text), LabOptions(**options), trace=False)


def _perfect(result: TreeResult) -> dict[str, Any]:
    tree, status = result.tree, result.status
    paths = {n: ".".join(map(str, tree.path(n))) for n in range(len(tree))}
    return {
        "value": result.value,
        "evaluated": list(result.evaluated),
        "values": {
            paths[n]: result.values[n]
            for n in range(len(tree))
            if status[n] not in ("pruned", "beyond-depth")
        },
        "pruned": [
            paths[n]
            for n in range(1, len(tree))
            if status[n] == "pruned" and status[tree.parent[n]] != "pruned"
        ],
    }


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10_000),
    branching=st.integers(1, 3),
    depth=st.integers(1, 4),
    strict=st.booleans(),
    order=st.sampled_from(["given", "best", "worst"]),
)
def test_the_search_itself_scores_full_marks(
    seed: int, branching: int, depth: int, strict: bool, order: str
) -> None:
    tree = random_tree(branching=branching, depth=depth, seed=seed, ragged=True)
    result = run(read_tree(format_tree(tree)), LabOptions(strict=strict, order=order))
    verdict = check_answer(result, _perfect(result))
    assert verdict.correct and verdict.score == 1.0 and verdict.feedback == []


def test_pruning_one_leaf_too_many_names_that_leaf_and_why() -> None:
    result = _result()
    answer = {"evaluated": [0, 1, 2, 4]}  # leaf 5 (F's second) left out
    verdict = check_answer(result, answer)
    assert not verdict.correct
    [mistake] = verdict.feedback
    assert mistake.path == (1, 0, 1)
    assert mistake.message.startswith("F's second leaf is searched, not pruned")
    assert "alpha=3 and beta=inf" in mistake.message


def test_pruning_too_little_names_the_cut_off() -> None:
    verdict = check_answer(_result(), {"evaluated": [0, 1, 2, 3, 4, 5]})
    [mistake] = verdict.feedback
    assert mistake.path == (0, 1, 1)
    assert "E's second leaf is pruned" in mistake.message
    assert "v=5 >= beta=3" in mistake.message


def test_the_strict_rule_changes_what_is_pruned() -> None:
    tree = "[[3,5],[3,1]]"  # the second MIN node ties alpha at 3
    loose = check_answer(_result(tree), {"evaluated": [0, 1, 2, 3]})
    strict = check_answer(_result(tree, strict=True), {"evaluated": [0, 1, 2, 3]})
    assert not loose.correct and strict.correct


def test_wrong_values_and_values_of_pruned_nodes() -> None:
    verdict = check_answer(_result(), {"value": 5, "values": {"0": 3, "1": 2, "1.1": 7}})
    messages = [f.message for f in verdict.feedback]
    assert messages[0] == "the root's value is 3, not 5"
    assert messages[1] == "C's value is 1, not 2"
    assert messages[2].startswith("G is pruned") and messages[2].endswith("it has no value")
    assert (verdict.right, verdict.checked) == (1, 4)


def test_marking_a_node_inside_a_pruned_subtree() -> None:
    verdict = check_answer(_result(), {"pruned": ["1.1.0"]})
    by_path = {f.path: f.message for f in verdict.feedback}
    assert by_path[(1, 1, 0)].endswith("but as part of G: mark that one")
    assert by_path[(1, 1)].startswith("G is pruned")
    assert by_path[(0, 1, 1)].startswith("E's second leaf is pruned")
    assert len(by_path) == 3


@pytest.mark.parametrize(
    "answer",
    [
        {},
        {"value": None},
        {"value": "x"},
        {"value": float("nan")},
        {"evaluated": [99]},
        {"evaluated": "0,1"},
        {"values": {"9.9": 1}},
        {"values": {"a": 1}},
        {"values": [1]},
        {"pruned": [5]},
        {"colour": "red"},
    ],
)
def test_answers_that_cannot_be_checked(answer: dict[str, Any]) -> None:
    with pytest.raises(AnswerError):
        check_answer(_result(), answer)
