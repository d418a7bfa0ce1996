"""The game room's JSON and streamed endpoints (``/api/play/...``) through Starlette's
test client: the same answers as :mod:`plies.lab`'s room functions; bad requests get
a 400 with one line, never a 500."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from plies import lab
from plies.web import WebSettings, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # Its lifespan, run by the with block, ends its worker processes.
    with TestClient(create_app(WebSettings(max_body=50_000, max_seconds=10.0))) as client:
        yield client


def _events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Server-Sent Events as (event name, JSON data), checking the framing."""
    events = []
    assert text.endswith("\n\n")
    for block in text.strip("\n").split("\n\n"):
        name, data = block.split("\n")
        assert name.startswith("event: ") and data.startswith("data: ")
        events.append((name[len("event: ") :], json.loads(data[len("data: ") :])))
    return events


def test_the_page_is_served(client: TestClient) -> None:
    page = client.get("/play")
    assert page.status_code == 200
    assert '<script src="/static/play.js">' in page.text and 'id="board"' in page.text
    assert client.get("/static/play.js").status_code == 200
    assert '"connect4"' in page.text.replace("&quot;", '"')


def test_state_is_the_rooms(client: TestClient) -> None:
    body = {"game": "tictactoe", "moves": ["5", "1"]}
    answer = client.post("/api/play/state", json=body)
    assert answer.status_code == 200
    assert answer.json() == lab.room_state(lab.open_room("tictactoe", "", ["5", "1"]))
    start = client.post("/api/play/state", json={"game": "connect4:width=5,height=4"}).json()
    assert start["board"]["rows"] == ["....."] * 4 and start["game"] == "connect4:width=5,height=4"


def test_a_move_is_played(client: TestClient) -> None:
    body = {"game": "connect4", "position": "44", "moves": ["3"], "move": "3"}
    state = client.post("/api/play/move", json=body).json()
    assert state["moves"] == ["3", "3"] and state["position"] == "4433"
    assert state["start"] == "44"


def test_an_illegal_move_is_refused_with_the_reason(client: TestClient) -> None:
    body = {"game": "tictactoe", "moves": ["5"], "move": "5"}
    answer = client.post("/api/play/move", json=body)
    assert answer.status_code == 400
    assert answer.json() == {"error": "tictactoe: cannot play 5: the cell is taken"}
    answer = client.post("/api/play/move", json={"game": "othello", "move": "a1"})
    assert answer.status_code == 400 and "a1" in answer.json()["error"]


def test_undo_takes_moves_back(client: TestClient) -> None:
    body = {"game": "tictactoe", "moves": ["5", "1", "9"]}
    assert client.post("/api/play/undo", json=body).json()["moves"] == ["5", "1"]
    assert client.post("/api/play/undo", json={**body, "count": 3}).json()["moves"] == []
    answer = client.post("/api/play/undo", json={"game": "tictactoe"})
    assert answer.status_code == 400 and answer.json()["error"] == "there is no move to undo"


def test_a_die_is_rolled(client: TestClient) -> None:
    state = client.post("/api/play/roll", json={"game": "pig", "moves": ["roll"]}).json()
    assert state["moves"][0] == "roll" and state["moves"][1] in list("123456")
    assert client.post("/api/play/roll", json={"game": "pig"}).status_code == 400


def test_a_hint_is_the_engines_move_not_played(client: TestClient) -> None:
    body = {"game": "tictactoe", "moves": ["1", "5", "9"], "depth": 9}
    answer = client.post("/api/play/hint", json=body).json()
    expected = list(lab.think(lab.open_room("tictactoe", "", ["1", "5", "9"]), depth=9))
    assert answer["best"]["text"] == expected[-1]["text"]
    assert answer["info"]["depth"] == expected[-2]["depth"]
    # A win in one is found and said.
    answer = client.post(
        "/api/play/hint", json={"game": "tictactoe", "moves": ["1", "4", "2", "5"], "depth": 3}
    ).json()
    assert answer["best"]["text"] == "3" and answer["best"]["score"] == "win in 1"


def test_the_engine_streams_its_thinking_and_plays(client: TestClient) -> None:
    body = {"game": "connect4", "moves": ["4"], "depth": 4, "play": True, "id": "s1"}
    with client.stream("POST", "/api/play/think", json=body) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        text = "".join(answer.iter_text())
    events = _events(text)
    names = [name for name, _ in events]
    assert names == ["info"] * 4 + ["best"]
    assert [data["depth"] for _, data in events[:4]] == [1, 2, 3, 4]
    best = events[-1][1]
    assert best["state"]["moves"] == ["4", best["text"]]
    assert best["text"] == events[-2][1]["pv"][0]
    # Without play, the state stays as it was: no state in the answer.
    with client.stream("POST", "/api/play/think", json={**body, "play": False}) as answer:
        assert "state" not in _events("".join(answer.iter_text()))[-1][1]


def test_a_stop_request_ends_a_search(client: TestClient) -> None:
    body = {"game": "othello", "seconds": 8, "play": True, "id": "long"}
    lines: list[str] = []

    def read() -> None:
        with client.stream("POST", "/api/play/think", json=body) as answer:
            lines.extend(answer.iter_lines())

    reader = threading.Thread(target=read)
    reader.start()
    deadline = time.monotonic() + 5
    while not any(line.startswith("event: info") for line in lines):
        assert time.monotonic() < deadline, "no depth came"
        time.sleep(0.01)
    assert client.post("/api/play/stop", json={"id": "long"}).json() == {"stopped": True}
    stopped = time.monotonic()
    reader.join(timeout=6)
    assert not reader.is_alive() and time.monotonic() - stopped < 6  # generous bound
    events = _events("\n".join(lines) + "\n\n")
    assert events[-1][0] == "best" and events[-1][1]["stopped"]
    assert len(events[-1][1]["state"]["moves"]) == 1
    # The search is forgotten once it ended.
    assert client.post("/api/play/stop", json={"id": "long"}).json() == {"stopped": False}


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/api/play/state", {}, "needs a game"),
        ("/api/play/state", {"game": "openspiel:tic_tac_toe"}, "not OpenSpiel's"),
        ("/api/play/state", {"game": "tictactoe", "moves": "5 1"}, "list of texts"),
        ("/api/play/state", {"game": "tictactoe", "moves": [5]}, "text, not int"),
        ("/api/play/state", {"game": "tictactoe", "position": "x/y"}, "tictactoe"),
        ("/api/play/state", {"game": "nope"}, "unknown game"),
        ("/api/play/state", {"game": "tictactoe", "position": "." * 10_001}, "more than"),
        ("/api/play/move", {"game": "tictactoe"}, "needs a 'move'"),
        ("/api/play/undo", {"game": "tictactoe", "moves": ["5"], "count": 0}, "undo"),
        ("/api/play/hint", {"game": "tictactoe"}, "'depth' or 'seconds'"),
        ("/api/play/hint", {"game": "tictactoe", "depth": 0}, "depth"),
        ("/api/play/hint", {"game": "tictactoe", "seconds": 9}, "at most 8"),
        (
            "/api/play/hint",
            {"game": "tictactoe", "moves": ["1", "2", "4", "5", "7"], "depth": 2},
            "over",
        ),
        ("/api/play/think", {"game": "tictactoe", "depth": 2}, "'id'"),
        ("/api/play/think", {"game": "tictactoe", "depth": "x", "id": "a"}, "depth"),
        ("/api/play/think", {"game": "pig", "moves": ["roll"], "depth": 2, "id": "a"}, "roll"),
        ("/api/play/stop", {"id": ""}, "'id'"),
    ],
)
def test_bad_requests_get_one_line(
    client: TestClient, path: str, body: dict[str, Any], message: str
) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert message in error and "\n" not in error


def test_bodies_are_bounded(client: TestClient) -> None:
    answer = client.post("/api/play/state", json={"game": "nim", "position": "1" * 60_000})
    assert answer.status_code == 413
    answer = client.post("/api/play/state", content=b"[1, 2]")
    assert answer.status_code == 400 and "JSON object" in answer.json()["error"]


def test_a_client_going_away_stops_its_search() -> None:
    single = TestClient(create_app(WebSettings(max_seconds=10.0, max_searches=1)))
    body = {"game": "othello", "seconds": 8, "play": True, "id": "gone"}
    with single.stream("POST", "/api/play/think", json=body) as answer:
        for line in answer.iter_lines():
            if line.startswith("event: info"):
                break
    left = time.monotonic()
    while any(t.name == "plies-room-search" for t in threading.enumerate()):
        assert time.monotonic() - left < 6, "the search went on"  # generous bound
        time.sleep(0.01)
    busy = single.post("/api/play/think", json={**body, "id": "next", "depth": 1})
    while busy.status_code != 200:  # the one search allowed is still running
        assert busy.status_code == 429
        assert "engine searches: this server runs at most 1 at once" in busy.json()["error"]
        assert time.monotonic() - left < 6, "the search went on"  # generous bound
        time.sleep(0.01)
        busy = single.post("/api/play/think", json={**body, "id": "next", "depth": 1})


def test_chess_moves_carry_their_squares_and_the_export_its_players(client: TestClient) -> None:
    pytest.importorskip("chess")
    body = {"game": "chess", "moves": ["e4"], "names": ["Ann", "plies engine (depth 2)"]}
    state = client.post("/api/play/state", json=body).json()
    assert state == lab.room_state(lab.open_room("chess", "", ["e4"]), names=body["names"])
    assert {"path": [[1, 4], [3, 4]], "promotion": None}.items() <= next(
        m for m in state["legal"] if m["text"] == "e5"
    ).items()
    assert '[White "Ann"]' in state["export"] and state["export"].rstrip().endswith("1. e4 *")
    played = client.post("/api/play/move", json={**body, "move": "e7e5"}).json()
    assert '[Black "plies engine (depth 2)"]' in played["export"] and played["last"] == [
        [1, 4],
        [3, 4],
    ]
    answer = client.post("/api/play/state", json={**body, "names": ["Ann"]})
    assert answer.status_code == 400 and "two texts" in answer.json()["error"]


def test_the_engines_move_comes_with_the_export_named(client: TestClient) -> None:
    body = {
        "game": "checkers",
        "moves": ["11-15"],
        "depth": 2,
        "play": True,
        "id": "named",
        "names": ["Bea", "plies engine (depth 2)"],
    }
    with client.stream("POST", "/api/play/think", json=body) as answer:
        best = _events("".join(answer.iter_text()))[-1][1]
    assert '[Black "Bea"]' in best["state"]["export"]
    assert best["state"]["legal"][0]["path"]  # checkers moves carry their squares
