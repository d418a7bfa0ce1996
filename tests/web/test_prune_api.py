"""The prune-and-search and complexity operations of the web API (``/api/select``,
``/api/lp``, ``/api/complexity``) against the command line: the same answers, every
round a step with narration and drawing, the measured a; bad or oversized requests
get a one-line 400, never a 500; the static site's path gives the same bytes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from cli_errors import run
from plies.web import create_app
from plies.web._api import Limits, answer_request

NUMBERS = "9 1 8 2 7 3 6 4 5 0 11 10 15 13 12 14 19 17 16 18 23 21"
PROGRAM = "max 3x + 2y\nx + y <= 4\nx + 3y <= 6\nx >= 0\ny >= 0\n"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as client:
        yield client


def _steps_are_drawn_and_narrated(doc: dict[str, Any]) -> None:
    assert doc["steps"], doc
    for step in doc["steps"]:
        assert step["title"] and step["lines"]
        assert step["svg"].startswith("<svg")
    assert doc["steps"][-1]["title"] == "Answer"
    assert doc["recurrence"].startswith("T(n) = T(a n) + O(n)")


@pytest.mark.parametrize("method", ["medians", "random"])
def test_select_answers_what_plies_select_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str], method: str
) -> None:
    body = {"numbers": NUMBERS, "k": 7, "method": method, "seed": 4}
    response = client.post("/api/select", json=body)
    assert response.status_code == 200, response.text
    doc = response.json()
    status, out, _ = run(capsys, "select", "--json", f"--method={method}", "--seed=4", "7",
                         *NUMBERS.split())  # fmt: skip
    assert status == 0
    assert doc["result"] == json.loads(out)
    assert doc["result"]["value"] == sorted(int(n) for n in NUMBERS.split())[6]
    _steps_are_drawn_and_narrated(doc)
    assert len(doc["steps"]) == len(doc["result"]["rounds"]) + 1
    assert doc["steps"][0]["lines"][0] == "Round 1: 22 numbers, the 7th smallest sought."
    kept = doc["result"]["recurrence"]["kept"]
    assert doc["a"] == (max(kept) if kept else None)
    if doc["a"] is not None:
        assert f"measured a = {doc['a']:.2f}" in doc["recurrence"]


def test_random_numbers_come_from_the_seed_and_k_defaults_to_the_median(
    client: TestClient,
) -> None:
    first = client.post("/api/select", json={"random": 501, "seed": 9}).json()
    again = client.post("/api/select", json={"random": 501, "seed": 9}).json()
    other = client.post("/api/select", json={"random": 501, "seed": 10}).json()
    assert first == again and first["numbers"] != other["numbers"]
    numbers = [int(n) for n in first["numbers"].split()]
    assert len(numbers) == 501
    assert first["result"]["k"] == 251
    assert first["result"]["value"] == sorted(numbers)[250]
    # The median of 0..99 drawn 501 times is the pivot itself: one round, a unmeasured.
    assert len(first["steps"]) == len(first["result"]["rounds"]) + 1 == 2
    assert first["a"] is None and "a is not measured" in first["recurrence"]


def test_lp_answers_what_plies_lp_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    response = client.post("/api/lp", json={"program": PROGRAM})
    assert response.status_code == 200, response.text
    doc = response.json()
    path = tmp_path / "program.lp"
    path.write_text(PROGRAM, encoding="utf-8")
    status, out, _ = run(capsys, "lp", "--json", str(path))
    assert status == 0
    assert doc["result"] == json.loads(out)
    assert (doc["result"]["status"], doc["result"]["value"]) == ("optimal", 12)
    assert (doc["result"]["x"], doc["result"]["y"]) == (4, 0)
    _steps_are_drawn_and_narrated(doc)
    assert doc["steps"][-1]["lines"][-1].startswith("Optimal: ")


def test_a_random_program_is_solved_in_rounds_that_discard(client: TestClient) -> None:
    doc = client.post("/api/lp", json={"random": 60, "seed": 2}).json()
    assert doc["program"].count("\n") == 61  # the objective and 60 constraints
    assert len(doc["steps"]) >= 3
    _steps_are_drawn_and_narrated(doc)
    assert doc["a"] is not None and 0 < doc["a"] < 1
    assert doc["steps"][1]["svg"] != doc["steps"][2]["svg"]


def test_a_phone_asks_for_narrower_drawings(client: TestClient) -> None:
    doc = client.post("/api/lp", json={"program": PROGRAM, "width": 360}).json()
    assert 'width="360"' in doc["steps"][0]["svg"]


def test_the_complexity_chart_is_the_lab_s(client: TestClient) -> None:
    from plies.lab import plot_complexity

    query = {"branching": "2", "depths": "1-4", "seeds": "3", "seed": "5"}
    response = client.get("/api/complexity", params=query)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("image/svg+xml")
    chart = plot_complexity(branching=2, depths="1-4", seeds=3, seed=5)
    assert response.text == chart
    assert "branching b = 2" in response.text


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/select", {}, "either a 'numbers' text or 'random'"),
        ("/api/select", {"numbers": "1 2", "random": 4}, "either"),
        ("/api/select", {"numbers": "1 2 x"}, "not a number"),
        ("/api/select", {"numbers": "1 2 3", "k": 4}, "k must be between 1 and 3"),
        ("/api/select", {"numbers": "1 2", "method": "sort"}, "method must be one of"),
        ("/api/select", {"numbers": " ".join(["1"] * 2001)}, "more than the web lab's 2,000"),
        ("/api/select", {"random": 2001}, "random must be between 1 and 2000"),
        ("/api/select", {"random": 5, "width": 10}, "width must be between 240 and 1200"),
        ("/api/lp", {"program": "max x + y\nx <= 1\ny <= "}, "column"),
        ("/api/lp", {"program": ""}, "program must be a non-empty text"),
        ("/api/lp", {"random": 401}, "random must be between 1 and 400"),
        ("/api/lp", {"program": "max x\n" + "x <= 1\n" * 401}, "more than the web lab's 400"),
    ],
)
def test_bad_requests_get_one_line_400s(
    client: TestClient, path: str, body: dict[str, Any], words: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert words in error, error
    assert "\n" not in error


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"branching": "1"}, "branching"),
        ({"branching": "9", "depths": "1-9"}, "over the cap of 100,000"),
        ({"seeds": "5000"}, "over the cap of 1,000"),
        ({"depths": "6-1"}, "run backwards"),
        ({"depths": "lots"}, "depths"),
        ({"seeds": "many"}, "seeds must be a whole number"),
    ],
)
def test_complexity_caps_are_the_command_line_s(
    client: TestClient, query: dict[str, str], words: str
) -> None:
    response = client.get("/api/complexity", params=query)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert words in error, error
    assert "\n" not in error


def test_the_site_s_path_answers_the_same_bytes(client: TestClient) -> None:
    body = {"numbers": NUMBERS, "k": 3}
    served = client.post("/api/select", json=body)
    here = answer_request("select", json.dumps(body).encode(), "", Limits())
    assert (here.status, here.body) == (served.status_code, served.content)
    chart = answer_request("complexity", b"", "branching=2&depths=1-3&seeds=2", Limits())
    assert chart.media_type == "image/svg+xml"
    assert chart.body == client.get("/api/complexity?branching=2&depths=1-3&seeds=2").content
