"""``/api/mcts-tree``: Monte-Carlo tree search on an explicit tree for the web lab's
stepper. The document is ``plies tree --algorithm mcts --json``'s with the drawing;
its steps replay to the root moves' table, every UCB choice is the highest score the
replayed statistics give; bad or oversized requests get a one-line 400; the static
site's path gives the same bytes."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from cli_errors import run
from plies.web import create_app
from plies.web._api import Limits, answer_request

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
#: A deeper tree with a MIN root and values that are not whole.
DEEP = "[[[1.5,-2],[4,0]],[[3,3],[-1,6]],[[2,8],[7,-3]]]"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as client:
        yield client


def mcts(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/mcts-tree", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_document_is_the_command_line_s_with_the_drawing(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = mcts(client, tree=AIMA, iterations=300, seed=4, exploration=0.9)
    status, out, err = run(
        capsys, "tree", AIMA, "--algorithm", "mcts", "--iterations", "300", "--seed", "4",
        "--exploration", "0.9", "--json",
    )  # fmt: skip
    assert status == 0, err
    drawing, text = doc.pop("svg"), doc.pop("tree")
    assert doc == json.loads(out)
    assert text == AIMA
    assert drawing.startswith("<svg")
    for i in range(len(doc["nodes"])):
        assert f'<g id="n{i}" class="node' in drawing


def test_it_converges_to_the_minimax_move(client: TestClient) -> None:
    doc = mcts(client, tree=AIMA, iterations=1000, seed=1)
    assert doc["best"] == "B" and doc["minimax_best"] == ["B"] and doc["agrees"] is True
    assert doc["convergence"].startswith("after 1000 iterations the most visited move is B")
    assert max(doc["children"], key=lambda c: c["visits"])["name"] == "B"
    assert [c["minimax_value"] for c in doc["children"]] == [3, 2, 2]
    assert doc["steps_shown"] == len(doc["steps"]) == 200  # the first ones, not all 1000


def replay(doc: dict[str, Any]) -> tuple[list[int], list[float]]:
    """Every node's visits and summed values after all of ``doc``'s steps, checking
    on the way that each step's UCB choices are the highest scores then."""
    nodes = doc["nodes"]
    leaves = [n["value"] for n in nodes if n["kind"] == "leaf"]
    low, high = min(leaves), max(leaves)
    visits, total = [0] * len(nodes), [0.0] * len(nodes)
    for step in doc["steps"]:
        for choice in step["selection"]:
            parent = next(i for i, n in enumerate(nodes) if n["name"] == choice["node"])
            children = nodes[parent]["children"]
            if choice["how"] == "expand":
                fresh = [c for c in children if visits[c] == 0]
                assert nodes[fresh[0]]["name"] == choice["child"]
            elif choice["how"] == "ucb":
                scores = []
                for c in children:
                    mean = (total[c] / visits[c] - low) / (high - low)
                    exploit = mean if nodes[parent]["kind"] == "max" else 1 - mean
                    scores.append(
                        exploit + doc["c"] * math.sqrt(math.log(visits[parent]) / visits[c])
                    )
                assert choice["ucb"] == pytest.approx(scores, abs=1e-5)
                assert nodes[children[scores.index(max(scores))]]["name"] == choice["child"]
        ids = step["ids"]
        assert [nodes[i]["name"] for i in ids["path"]] == [b["node"] for b in step["backup"]]
        assert nodes[ids["leaf"]]["kind"] == "leaf"
        assert nodes[ids["leaf"]]["value"] == step["value"]
        for i, entry in zip(ids["path"], step["backup"], strict=True):
            visits[i] += 1
            total[i] += step["value"]
            assert entry["visits"] == visits[i]
            assert entry["value"] == pytest.approx(total[i] / visits[i])
        assert step["lines"][0] == f"Iteration {step['iteration']}"
    return visits, total


@pytest.mark.parametrize(("tree", "seed"), [(AIMA, 0), (AIMA, 7), (DEEP, 3)])
def test_the_steps_replay_to_the_root_moves_table(client: TestClient, tree: str, seed: int) -> None:
    doc = mcts(client, tree=tree, iterations=150, seed=seed)
    assert len(doc["steps"]) == 150
    visits, total = replay(doc)
    for child in doc["children"]:
        node = doc["nodes"][0]["children"][child["index"]]
        assert child["visits"] == visits[node]
        assert child["value"] == pytest.approx(total[node] / visits[node])
    assert sum(c["visits"] for c in doc["children"]) == 150 == visits[0]


def test_the_seed_and_exploration_change_the_run(client: TestClient) -> None:
    first = mcts(client, tree=DEEP, iterations=60, seed=1)
    assert mcts(client, tree=DEEP, iterations=60, seed=1) == first
    assert mcts(client, tree=DEEP, iterations=60, seed=2)["steps"] != first["steps"]
    greedy = mcts(client, tree=DEEP, iterations=60, seed=1, exploration=0)
    assert greedy["c"] == 0 and greedy["steps"] != first["steps"]
    assert mcts(client, tree=DEEP, iterations="60", seed="1", exploration="1.4142135623730951") == (
        first
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "needs a non-empty 'tree'"),
        ({"tree": AIMA, "iterations": 0}, "iterations must be between 1 and 100000"),
        ({"tree": AIMA, "iterations": 100_001}, "iterations must be between 1 and 100000"),
        ({"tree": AIMA, "iterations": 2.5}, "iterations must be a whole number"),
        ({"tree": AIMA, "exploration": -1}, "exploration must be a finite number >= 0"),
        ({"tree": AIMA, "exploration": "lots"}, "exploration must be a number"),
        ({"tree": AIMA, "exploration": "inf"}, "exploration must be a finite number"),
        ({"tree": AIMA, "exploration": True}, "exploration must be a number"),
        ({"tree": AIMA, "seed": "x"}, "seed must be a whole number"),
        ({"tree": AIMA, "order": "best"}, "order does not apply to Monte-Carlo tree search"),
        ({"tree": AIMA, "strict": True}, "strict does not apply"),
        ({"tree": AIMA, "algorithm": "alphabeta"}, "algorithm must be mcts here"),
        ({"tree": "7"}, "this root is a leaf node"),
        ({"tree": "[[1,2],[3"}, "column"),
        ({"tree": "[1,2,(x)]"}, "x"),
    ],
)
def test_bad_requests_get_one_line_400s(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    response = client.post("/api/mcts-tree", json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert words in error, error
    assert "\n" not in error


def test_the_limits_bound_one_request() -> None:
    tight = Limits(max_step_nodes=30, max_mcts_iterations=500, max_mcts_walk=1_000)
    body = {"tree": DEEP, "iterations": 400}  # height 3: 1,200 nodes walked at most
    found = answer_request("mcts-tree", json.dumps(body).encode(), "", tight)
    assert found.status == 400
    error = json.loads(found.body)["error"]
    assert "walk up to 1,200 nodes, more than this server's limit of 1,000" in error
    assert "ask at most 333 iterations" in error
    body["iterations"] = 333
    assert answer_request("mcts-tree", json.dumps(body).encode(), "", tight).status == 200
    body["iterations"] = 501
    found = answer_request("mcts-tree", json.dumps(body).encode(), "", tight)
    assert json.loads(found.body)["error"] == "iterations must be between 1 and 500, not 501"
    big = {"tree": "[" + ",".join(["[1,2]"] * 10) + "]", "iterations": 5}  # 31 nodes
    found = answer_request("mcts-tree", json.dumps(big).encode(), "", tight)
    assert "31 nodes, more than this server's limit of 30" in json.loads(found.body)["error"]


def test_the_site_s_path_answers_the_same_bytes(client: TestClient) -> None:
    body = {"tree": AIMA, "iterations": 40, "seed": 5}
    served = client.post("/api/mcts-tree", json=body)
    here = answer_request("mcts-tree", json.dumps(body).encode(), "", Limits())
    assert (here.status, here.body) == (served.status_code, served.content)
    assert here.media_type == "application/json"


def test_the_server_s_iteration_cap_is_its_settings() -> None:
    from plies.web import WebSettings

    with TestClient(create_app(WebSettings(max_mcts_iterations=50, workers=1))) as small:
        assert mcts(small, tree=AIMA, iterations=50, seed=1)["iterations"] == 50
        found = small.post("/api/mcts-tree", json={"tree": AIMA, "iterations": 51})
    assert found.status_code == 400
    assert found.json()["error"] == "iterations must be between 1 and 50, not 51"
