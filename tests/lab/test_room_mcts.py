"""The game room's engine with Monte-Carlo tree search: ``plies.lab.think`` and
``engine_move`` (``plies play``), and the room's API (``/api/play/think``), play a
legal move within the time given and stream an info line first."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from plies import lab
from plies.lab import RoomError, SearchOptions, engine_move
from plies.web import WebSettings, create_app


def test_think_with_mcts_streams_an_info_then_a_legal_move_in_time() -> None:
    room = lab.open_room("connect4", "", ["4", "4"])
    began = time.perf_counter()
    items = list(lab.think(room, seconds=0.3, algorithm="mcts"))
    elapsed = time.perf_counter() - began
    assert [item["kind"] for item in items] == ["info", "best"]
    info, best = items
    assert info["nodes"] > 0 and info["pv"][0] == best["text"]
    legal = [room.game.format_move(room.state, m) for m in room.game.legal_moves(room.state)]
    assert best["text"] in legal and legal[best["index"]] == best["text"]
    assert elapsed < 0.3 + 2.0  # the time limit, and slack for a busy machine


def test_think_with_mcts_refuses_a_depth_and_an_unknown_algorithm() -> None:
    room = lab.open_room("tictactoe")
    with pytest.raises(RoomError, match="mcts searches within a number of seconds"):
        lab.think(room, depth=3, algorithm="mcts")
    with pytest.raises(RoomError, match="'uct'"):
        lab.think(room, seconds=1, algorithm="uct")


def test_engine_move_with_mcts_plays_the_forced_win() -> None:
    room = lab.open_room("tictactoe", "", ["1", "2", "5", "9"])  # X forks with 4 or 7
    chosen = engine_move(room, SearchOptions(algorithm="mcts", iterations=3000))
    assert chosen.text in ("4", "7") and "win" in chosen.note


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(max_body=50_000, max_seconds=10.0))) as client:
        yield client


def _event_names_and_data(text: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for block in text.strip("\n").split("\n\n"):
        name, data = block.split("\n")
        events.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return events


def test_the_room_api_plays_an_mcts_move(client: TestClient) -> None:
    body = {"game": "connect4", "moves": ["4"], "seconds": 0.3, "algorithm": "mcts"}
    with client.stream("POST", "/api/play/think", json={**body, "play": True, "id": "m"}) as answer:
        assert answer.status_code == 200
        events = _event_names_and_data("".join(answer.iter_text()))
    assert [name for name, _ in events] == ["info", "best"]
    best = events[-1][1]
    assert best["state"]["moves"] == ["4", best["text"]] and best["text"] in "1234567"
    refused = client.post("/api/play/hint", json={**body, "depth": 3})
    assert refused.status_code == 400 and "mcts" in refused.json()["error"]
