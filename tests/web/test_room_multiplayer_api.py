"""The game room's endpoints with more than two players, through Starlette's test
client: a Rolit game played to its end by the engine in every seat over
``/api/play/think`` (Best-Reply Search, the room's default for four players), its
result naming the winner(s) from the game's utilities; the names of the export, one
per player."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from plies import lab
from plies.games.rolit import COLOURS
from plies.web import WebSettings, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(max_body=50_000, max_seconds=10.0))) as client:
        yield client


def _best(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    """The ``best`` event of a streamed search played in the room."""
    with client.stream("POST", "/api/play/think", json=body) as answer:
        assert answer.status_code == 200
        blocks = "".join(answer.iter_text()).strip("\n").split("\n\n")
    name, data = blocks[-1].split("\n")
    assert name == "event: best"
    found: dict[str, Any] = json.loads(data[len("data: ") :])
    return found


def _opening(plies: int) -> list[str]:
    """The first ``plies`` moves of the room's engine against itself (depth 1)."""
    room = lab.open_room("rolit")
    for _ in range(plies):
        *_, best = lab.think(room, depth=1)
        room = lab.play_move(room, best["text"])
    return list(room.texts)


def test_the_engine_plays_every_seat_of_rolit_to_the_end(client: TestClient) -> None:
    # The last 20 moves over the network (the whole game through the room:
    # tests/lab/test_room_multiplayer.py); every seat's engine plays 5 of them.
    moves = _opening(40)
    start = client.post("/api/play/state", json={"game": "rolit", "moves": moves})
    state: dict[str, Any] = start.json()
    assert state["players"] == ["Red", "Yellow", "Green", "Blue"]
    while not state["terminal"]:
        body = {"game": "rolit", "moves": moves, "depth": 1, "play": True, "id": "r"}
        state = _best(client, body)["state"]
        moves = state["moves"]
    assert len(moves) == 60 and state["movers"] == [ply % 4 for ply in range(60)]
    room = lab.open_room("rolit", "", moves)
    utilities = room.game.utilities(room.state)
    top = [p for p, value in enumerate(utilities) if value == max(utilities)]
    assert state["winners"] == top
    if len(top) == 1:
        assert state["result"] == f"{COLOURS[top[0]]} wins" and state["winner"] == top[0]
    else:
        assert state["result"].endswith("share the win") and state["winner"] is None


def test_the_export_names_every_player(client: TestClient) -> None:
    body = {"game": "chinese-checkers:players=3", "moves": ["68-61"], "names": ["a", "b", "c"]}
    answer = client.post("/api/play/state", json=body)
    assert answer.status_code == 200 and answer.json()["export"] == "68-61"
    wrong = client.post("/api/play/state", json={**body, "names": ["a", "b"]})
    assert wrong.status_code == 400
    assert "the names are three texts" in wrong.json()["error"]
