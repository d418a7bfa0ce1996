"""The web lab's JSON API against the command line: same questions, same answers;
bad requests get a 400 (413 for a body too large) with one line, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cli_errors import run
from plies.lab import exercise
from plies.trees import format_tree, random_tree
from plies.web import WebSettings, create_app

DATA = Path(__file__).parents[1] / "trees" / "data"
AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
CHANCE = (
    '{"tree": {"label": "A", "children": [{"kind": "chance", "children": '
    '[{"p": 0.5, "value": 3}, {"p": 0.5, "value": 5}]}, {"kind": "chance", "static": 2, '
    '"children": [{"p": 0.9, "value": 1}, {"p": 0.1, "value": 20}]}]}, "bounds": [0, 20]}'
)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # Its lifespan, run by the with block, ends its worker processes.
    with TestClient(create_app(WebSettings(max_body=200_000, max_nodes=5_000))) as client:
        yield client


def _cli_args(body: dict[str, Any]) -> list[str]:
    argv = ["tree", "--json"]
    for name, value in body.items():
        if name == "tree":
            continue
        option = "--" + name.replace("_", "-")
        if value is True:
            argv.append(option)
        else:
            argv.append(f"{option}={value}")
    return [*argv, "--", body["tree"]]


CASES: list[dict[str, Any]] = [
    {"tree": AIMA},
    {"tree": AIMA, "order": "best", "strict": True},
    {"tree": AIMA, "algorithm": "negamax", "fail_hard": True, "root": "min"},
    {"tree": AIMA, "algorithm": "minimax", "strict": True},
    {"tree": "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))", "order": "random", "seed": 3},
    {"tree": "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))", "window": "-3,4"},
    {"tree": "3,5,6,9,1,2,0,-1", "notation": "flat", "branching": 2},
    {"tree": CHANCE},
    {"tree": CHANCE, "star1": False},
    {"tree": (DATA / "aima-two-agents.test").read_text(encoding="utf-8")},
    {"tree": format_tree(random_tree(branching=3, depth=4, seed=11)), "order": "worst"},
    {"tree": format_tree(random_tree(branching=3, depth=5, seed=2, ragged=True))},
    {"tree": format_tree(random_tree(branching=2, depth=4, seed=5, chance=True))},
]


@pytest.mark.parametrize("body", CASES)
def test_search_answers_what_the_cli_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str], body: dict[str, Any]
) -> None:
    argv = _cli_args({k: v for k, v in body.items() if k != "star1"})
    if body.get("star1") is False:
        argv.insert(2, "--no-star1")
    status, out, _ = run(capsys, *argv)
    assert status == 0
    response = client.post("/api/search", json=body)
    assert response.status_code == 200, response.text
    web, cli = response.json(), json.loads(out)
    assert len(web.pop("notes")) == len(cli.pop("notes"))  # in each shell's words
    assert web == cli


def test_notes_name_options_as_the_page_does(client: TestClient) -> None:
    body = {"tree": AIMA, "algorithm": "minimax", "strict": True, "fail_hard": True, "seed": 3}
    notes = client.post("/api/search", json=body).json()["notes"]
    assert notes == [
        '"prune only when strictly beyond the bound" has no effect: minimax does not prune here',
        '"fail-hard" has no effect: minimax does not prune here',
        "the seed has no effect on the search without order random",
    ]


def test_compare_answers_what_the_cli_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "tree", AIMA, "--compare", "--json")
    response = client.post("/api/compare", json={"tree": AIMA})
    assert response.status_code == 200
    assert response.json() == json.loads(out)


def test_exercise_is_reproducible_and_searchable(client: TestClient) -> None:
    query = "/api/exercise?branching=3&depth=3&seed=42&values=-5,5&root=min"
    first = client.get(query).json()
    assert first == client.get(query).json()
    assert first["seed"] == 42 and first["root"] == "min"
    tree = exercise(branching=3, depth=3, seed=42, low=-5, high=5, root="min")
    assert first["tree"] == format_tree(tree)
    assert first["tree"].startswith("A(B(C(")
    searched = client.post("/api/search", json={"tree": first["tree"], "root": "min"})
    assert searched.status_code == 200


@pytest.mark.parametrize(
    ("fmt", "media", "start"),
    [
        ("html", "text/html", b"<!DOCTYPE html>"),
        ("mmd", "text/plain", b"flowchart TD"),
        ("dot", "text/vnd.graphviz", b"digraph"),
        ("tex", "application/x-tex", b"\\documentclass"),
        ("md", "text/markdown", b"| step |"),
        ("csv", "text/csv", b"step,node"),
    ],
)
def test_render_downloads_every_format(
    client: TestClient, fmt: str, media: str, start: bytes
) -> None:
    response = client.post("/api/render", json={"tree": AIMA, "format": fmt})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith(media)
    assert f"tree.{fmt}" in response.headers["content-disposition"]
    assert start.lower() in response.content[:600].lower()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "'tree'"),
        ({"tree": ""}, "'tree'"),
        ({"tree": 5}, "'tree'"),
        ({"tree": "@/etc/passwd"}, "@FILE"),
        ({"tree": "-"}, "@FILE"),
        ({"tree": AIMA, "algorithm": "magic"}, "algorithm"),
        ({"tree": AIMA, "strict": "perhaps"}, "strict"),
        ({"tree": AIMA, "seed": "x"}, "seed"),
        ({"tree": AIMA, "seed": 1.5}, "seed"),
        ({"tree": AIMA, "depth_limit": -1}, "depth_limit"),
        ({"tree": AIMA, "window": "1"}, "window"),
        ({"tree": AIMA, "window": [1, "x"]}, "window"),
        ({"tree": AIMA, "window": "5,1"}, "window"),
        ({"tree": AIMA, "format": "exe"}, "format"),
        ({"tree": "[[1,2],[3"}, "column"),
        ({"tree": "[" * 100_000}, ""),
        ({"tree": ",".join(["1"] * 16_384), "notation": "flat", "branching": 2}, "limit"),
    ],
)
def test_bad_requests_get_one_line_400s(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    for path in ("/api/search", "/api/render"):
        if "format" in body and path == "/api/search":
            continue
        response = client.post(path, json=body)
        assert response.status_code == 400, (path, response.text)
        error = response.json()["error"]
        assert words in error and "\n" not in error


def test_parse_errors_say_where(client: TestClient) -> None:
    response = client.post("/api/search", json={"tree": "[[1,2],\n[3,)]"})
    assert response.status_code == 400
    doc = response.json()
    assert (doc["line"], doc["column"]) == (2, 4)


@pytest.mark.parametrize(
    "content", [b"\x00\xff\xfe garbage", b"[1,2]", b'"text"', b"{" * 50_000, b""]
)
def test_bodies_that_are_not_json_objects(client: TestClient, content: bytes) -> None:
    response = client.post(
        "/api/search", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert "JSON object" in response.json()["error"]


def test_a_body_over_the_limit_is_413(client: TestClient) -> None:
    response = client.post("/api/search", json={"tree": "[" + "1," * 200_000 + "1]"})
    assert response.status_code == 413
    assert "larger than 200000 bytes" in response.json()["error"]


def test_labels_are_escaped_in_html_and_svg(client: TestClient) -> None:
    label = "<script>alert(1)</script>"
    tree = '{"tree": {"label": "' + label + '", "children": [{"value": 1}, {"value": 2}]}}'
    for fmt in ("html", "svg"):
        response = client.post("/api/render", json={"tree": tree, "format": fmt})
        assert response.status_code == 200, response.text
        # Escaped as text (&lt;script&gt;) or inside JSON data (<\/script>): never whole.
        assert label.encode() not in response.content


def test_the_lab_page_and_its_files_need_no_network(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'data-testid="value"' in page.text
    assert "http://" not in page.text and "https://" not in page.text
    for asset in ("/static/lab.js", "/static/lab.css"):
        response = client.get(asset)
        assert response.status_code == 200
        assert "https://" not in response.text


def test_check_grades_an_answer(client: TestClient) -> None:
    tree = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"
    right = {"value": 3, "evaluated": [0, 1, 2, 4, 5]}
    response = client.post("/api/check", json={"tree": tree, "answer": right})
    assert response.json() == {
        "correct": True,
        "score": 1.0,
        "right": 9,
        "checked": 9,
        "graded": ["value", "leaves"],
        "feedback": [],
    }
    wrong = {"value": 3, "evaluated": [0, 1, 2, 4]}
    doc = client.post("/api/check", json={"tree": tree, "answer": wrong}).json()
    assert doc["correct"] is False
    assert doc["feedback"][0]["path"] == [1, 0, 1]
    assert "F2 is searched, not pruned" in doc["feedback"][0]["message"]


@pytest.mark.parametrize("answer", [None, [], {"evaluated": "x"}, {"bogus": 1}])
def test_check_refuses_answers_it_cannot_read(client: TestClient, answer: Any) -> None:
    body: dict[str, Any] = {"tree": AIMA}
    if answer is not None:
        body["answer"] = answer
    response = client.post("/api/check", json=body)
    assert response.status_code == 400
    assert "answer" in response.json()["error"] or "evaluated" in response.json()["error"]


def test_game_positions_become_tree_text(client: TestClient) -> None:
    doc = client.get("/api/game-tree", params={"game": "tictactoe:5 1 9 2", "depth": 1}).json()
    searched = client.post("/api/search", json={"tree": doc["tree"]}).json()
    assert searched["leaf_count"] == 5
    for bad in (
        {"game": "shogi"},
        {"game": "tictactoe", "depth": 99},
        {},
        {"game": "openspiel:tic_tac_toe"},  # OpenSpiel sizes its games before any check
    ):
        response = client.get("/api/game-tree", params=bad)
        assert response.status_code == 400


def test_a_request_over_the_time_limit_is_a_clear_400() -> None:
    slow = TestClient(create_app(WebSettings(max_seconds=0.001)))
    tree = format_tree(random_tree(branching=10, depth=5, seed=1))  # 111,111 nodes
    response = slow.post("/api/search", json={"tree": tree, "algorithm": "minimax"})
    assert response.status_code == 400
    assert "longer than 0.001 s" in response.json()["error"]
    assert "--" not in response.json()["error"]  # the web's words, not the command line's
