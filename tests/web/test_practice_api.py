"""The practice room's API: /api/check grades blanks as unanswered and the root value
always, the same however pruning is marked; nodes have one name everywhere;
/api/exercise gives exercises with the difficulty asked, or says why it cannot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from plies.lab import LabOptions, exercise, run
from plies.trees import SearchOptions, format_tree, search
from plies.web import WebSettings, create_app

#: The issue's exercise with nothing to prune: "All right: 8 of 8" with nothing typed.
NOTHING_PRUNED = "A(B(C(-6,2),D(-6,-9)),E(F(4,-7),G(1,-2)))"
LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # Its lifespan, run by the with block, ends its worker processes.
    with TestClient(create_app(WebSettings(max_body=200_000, max_nodes=5_000))) as client:
        yield client


def _check(client: TestClient, tree: str, answer: dict[str, object]) -> dict[str, object]:
    response = client.post("/api/check", json={"tree": tree, "answer": answer})
    assert response.status_code == 200, response.text
    doc: dict[str, object] = response.json()
    return doc


def test_an_answer_without_the_root_value_is_not_correct(client: TestClient) -> None:
    doc = _check(client, NOTHING_PRUNED, {"evaluated": list(range(8))})
    assert doc["correct"] is False and (doc["right"], doc["checked"]) == (8, 9)
    assert doc["feedback"] == [{"path": [], "message": "the root's value is not answered"}]
    # ... unless the request says it grades the leaves only.
    doc = _check(client, NOTHING_PRUNED, {"evaluated": list(range(8)), "grade": ["leaves"]})
    assert doc["correct"] is True and doc["graded"] == ["leaves"]


def test_blank_values_are_unanswered(client: TestClient) -> None:
    doc = _check(client, NOTHING_PRUNED, {"value": 2, "values": {"0": "", "1": None}})
    assert doc["correct"] is False
    assert (doc["right"], doc["checked"]) == (0, 7)  # the root's value is -2; six blanks
    messages = [f["message"] for f in doc["feedback"]]  # type: ignore[attr-defined]
    assert "B's value is not answered" in messages and "G's value is not answered" in messages


def test_leaves_or_edges_score_the_same_and_each_mistake_once(client: TestClient) -> None:
    # The right pruning is E2 and G; both answers forget G and wrongly prune F.
    by_leaf = {"value": 3, "evaluated": [0, 1, 2, 6, 7]}
    by_edge = {"value": 3, "pruned": ["0.1.1", "1.0"]}
    a, b = _check(client, LABELLED, by_leaf), _check(client, LABELLED, by_edge)
    assert (a["right"], a["checked"]) == (b["right"], b["checked"]) == (5, 9)
    assert len(a["feedback"]) == 3  # F1, F2 (marked one by one), and G's two leaves
    assert len(b["feedback"]) == 2  # F (one marked edge) and G's two leaves
    assert b["feedback"][0]["message"].startswith("F is searched, not pruned")  # type: ignore[index]


def test_nodes_have_one_name_in_every_document(client: TestClient) -> None:
    tree = "[[3,12,8],[2,4,6],[14,5,2]]"
    names = [n["name"] for n in client.post("/api/tree", json={"tree": tree}).json()["nodes"]]
    assert names == ["A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3"]
    searched = client.post("/api/search", json={"tree": tree}).json()
    assert searched["path_names"] == ["B", "B1"]
    assert [n["name"] for n in searched["nodes"]] == names
    svg = client.post("/api/tree", json={"tree": tree}).json()["svg"]
    for name in ("B1", "C3", "D2"):
        assert f">{name}</text>" in svg
    mermaid = client.post("/api/render", json={"tree": tree, "format": "mmd"}).text
    assert '["C2<br/>4"]' in mermaid


def test_exercise_difficulty_and_rule_travel_with_it(client: TestClient) -> None:
    query = "/api/exercise?branching=2&depth=4&seed=11&cutoffs=3&deep=1&ties=1&strict=1"
    doc = client.get(query).json()
    assert doc == client.get(query).json()
    assert (doc["cutoffs"], doc["deep"], doc["ties"], doc["strict"]) == (3, True, True, True)
    tree = exercise(branching=2, depth=4, seed=11, cutoffs=3, deep=True, ties=True, strict=True)
    assert doc["tree"] == format_tree(tree)
    result = run(tree, LabOptions(strict=True), trace=False)
    assert result.cutoffs >= 3
    loose = search(tree, SearchOptions(strict=False, trace=False))
    assert loose.evaluated != result.evaluated  # a tie the rule decides


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("branching=2&depth=2&cutoffs=5", "at most 2 cut-offs"),
        ("depth=3&deep=1", "needs depth 4 or more"),
        ("depth=1", "too small to practise on"),
        ("chance=1&cutoffs=1", "does not prune"),
    ],
)
def test_impossible_exercises_say_why(client: TestClient, query: str, message: str) -> None:
    response = client.get("/api/exercise?" + query)
    assert response.status_code == 400
    assert message in response.json()["error"]
