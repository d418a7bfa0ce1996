"""One set of API operations, two transports: what the server sends for
``/api/search``, ``/api/compare``, ``/api/tree``, ``/api/check``, ``/api/render`` and
``/api/exercise`` is, byte for byte, what :func:`plies.web._api.answer` gives with no
server (as a page running plies in the browser will call it): the status, the media
type, the download's name and the body, bad requests included. Checked on the
textbook trees and on random trees from a seed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from plies.trees import format_tree, random_tree
from plies.web import WebSettings, create_app
from plies.web._api import Limits, answer

SETTINGS = WebSettings(max_body=200_000, max_nodes=5_000)
LIMITS = Limits(SETTINGS.max_body, SETTINGS.max_nodes, SETTINGS.max_step_nodes)
AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
TEXTBOOK = [
    AIMA,
    "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))",
    '{"tree": {"kind": "max", "children": [{"kind": "chance", "children": [8, 2]},'
    ' {"kind": "chance", "children": [{"p": 0.25, "value": 12}, {"p": 0.75, "value": 1}]}]}}',
]
RANDOM = [
    format_tree(random_tree(branching=3, depth=3, seed=seed, ragged=seed % 2 == 1))
    for seed in range(4)
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SETTINGS)) as client:
        yield client


def requests() -> Iterator[tuple[str, dict[str, Any]]]:
    for tree in TEXTBOOK + RANDOM:
        chance = "chance" in tree
        algorithm = {"algorithm": "expectiminimax"} if chance else {}
        yield "search", {"tree": tree, **algorithm}
        yield "tree", {"tree": tree}
        yield "render", {"tree": tree, "format": "svg", **algorithm}
        yield "render", {"tree": tree, "format": "csv", "before": False, **algorithm}
        if not chance:
            yield "search", {"tree": tree, "algorithm": "negamax", "order": "best", "strict": True}
            yield "compare", {"tree": tree}
            yield "check", {"tree": tree, "answer": {"value": 3, "evaluated": [0, 1]}}
            yield "render", {"tree": tree, "format": "html"}
    yield "render", {"tree": AIMA, "format": "svg", "before": True}
    # bad requests: the same 400, with the parse error's line and column
    yield "search", {"tree": "[[3, 12,"}
    yield "search", {"tree": AIMA, "algorithm": "quicksort"}
    yield "check", {"tree": AIMA}
    yield "render", {"tree": AIMA, "format": "gif"}


CASES = list(requests())


@pytest.mark.parametrize(
    ("operation", "data"), CASES, ids=[f"{op}-{i}" for i, (op, _) in enumerate(CASES)]
)
def test_the_server_sends_what_the_operation_answers(
    client: TestClient, operation: str, data: dict[str, Any]
) -> None:
    sent = client.post(f"/api/{operation}", json=data)
    here = answer(operation, data, LIMITS)
    assert (sent.status_code, sent.content) == (here.status, here.body)
    assert sent.headers["content-type"] == here.media_type
    for name, value in here.headers.items():
        assert sent.headers[name] == value


@pytest.mark.parametrize(
    "query",
    [
        {"seed": "4", "branching": "2", "depth": "3"},
        {"seed": "7", "branching": "3", "depth": "2", "ragged": "true", "strict": "true"},
        {"seed": "1", "depth": "40"},
    ],
)
def test_exercises_are_the_same_without_a_server(client: TestClient, query: dict[str, str]) -> None:
    sent = client.get("/api/exercise", params=query)
    here = answer("exercise", query, LIMITS)
    assert (sent.status_code, sent.content) == (here.status, here.body)
