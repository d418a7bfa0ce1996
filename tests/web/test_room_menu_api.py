"""The game room's engine menu through the API: ``/api/play/hint`` and
``/api/play/think`` take the ``algorithm`` and MCTS's ``iterations``; iterations with
alpha-beta, or out of range, are a one-line 400."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from plies.web import create_app

#: X (1, 2) threatens 1-2-3 and O (5) has no win of its own: O must block at 3.
BLOCK = {"game": "tictactoe", "moves": ["1", "5", "2"]}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as client:
        yield client


def test_mcts_within_iterations_gives_a_hint(client: TestClient) -> None:
    body = {**BLOCK, "algorithm": "mcts", "iterations": 3000}
    answer = client.post("/api/play/hint", json=body)
    assert answer.status_code == 200, answer.text
    doc = answer.json()
    assert doc["best"]["text"] == "3"  # the only move that stops X's row


def test_the_iterations_bound_the_search(client: TestClient) -> None:
    def nodes(iterations: int) -> int:
        body = {"game": "connect4", "algorithm": "mcts", "iterations": iterations}
        answer = client.post("/api/play/hint", json=body)
        assert answer.status_code == 200, answer.text
        assert "playouts" in answer.json()["info"]["score"]
        return int(answer.json()["info"]["nodes"])

    few, more = nodes(50), nodes(400)
    assert 0 < few < more


def test_the_think_stream_runs_mcts_within_its_iterations(client: TestClient) -> None:
    body = {**BLOCK, "algorithm": "mcts", "iterations": 200, "id": "menu-1", "play": True}
    with client.stream("POST", "/api/play/think", json=body) as response:
        assert response.status_code == 200
        text = "".join(response.iter_text())
    assert "event: best" in text and '"text": "3"' in text


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"iterations": 100}, "iterations are a whole number from 1 to 1,000,000 for mcts only"),
        ({"algorithm": "mcts", "iterations": 0}, "from 1 to 1,000,000"),
        ({"algorithm": "mcts", "iterations": 2.5}, "not 2.5"),
        ({"algorithm": "mcts", "depth": 3}, "mcts searches within a number of seconds"),
        ({"algorithm": "uct", "seconds": 1}, "the algorithm is one of"),
    ],
)
def test_bad_engine_settings_get_one_line_400s(
    client: TestClient, extra: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/play/hint", json={**BLOCK, **extra})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert words in error, error
    assert "\n" not in error
