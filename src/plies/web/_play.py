"""The game room's endpoints (``/api/play/...``): thin shells over :mod:`plies.lab`'s
room functions.

Every request carries the whole game: ``game`` (``NAME[:key=value,...]``),
``position`` (the start, in the game's POSITION notation; empty: the usual start) and
``moves`` (the texts played since), so the server keeps no games; ``names``
(optional, the two players' names) go into the export's header (PGN's White and
Black). The answers:

* ``POST /api/play/state``: the room's state (:func:`plies.lab.room_state`);
* ``POST /api/play/move``: the state after ``move`` (text), or 400 with the game's reason;
* ``POST /api/play/undo``: the state with the last ``count`` (default 1) moves taken back;
* ``POST /api/play/roll``: the state after a chance event drawn at random (Pig's die);
* ``POST /api/play/hint``: the engine's choice for ``depth`` plies or ``seconds``, not
  played: ``{"best": ..., "info": the last depth's info}``;
* ``POST /api/play/think``: the same search as Server-Sent Events as it runs, one
  ``info`` event per completed depth and then ``best`` (with the new ``state`` when
  ``play`` is true), or ``error``; the search stops when the client goes away or
  ``POST /api/play/stop`` names its ``id``.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from plies import lab
from plies.errors import LimitError, PliesError
from plies.web._request import RequestError

__all__ = ["play_routes"]

#: A search ends within this long of its stop request or its client leaving: the
#: engine looks at the request every few milliseconds, the stream polls this often.
POLL_SECONDS = 0.01

Handler = Callable[[Request], Awaitable[Response]]


def _room(data: dict[str, Any]) -> lab.Room:
    moves = data.get("moves")
    return lab.open_room(data.get("game", ""), data.get("position") or "", moves or [])


def _strength(data: dict[str, Any], max_seconds: float) -> dict[str, Any]:
    """The engine's ``depth`` and ``seconds`` from a request, at most ``max_seconds``
    whichever was asked for (a depth alone still stops at the server's limit)."""
    depth, seconds = data.get("depth"), data.get("seconds")
    if depth is None and seconds is None:
        raise RequestError("the request needs a 'depth' or 'seconds' for the engine")
    if isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds > max_seconds:
        raise LimitError(
            f"seconds must be at most {max_seconds:g}, this server's limit (plies serve "
            "--max-seconds)"
        )
    return {"depth": depth, "seconds": max_seconds if seconds is None else seconds}


class _Search:
    """A streamed search: its stop request and when it began."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.began = time.monotonic()


def _forget_stale(searches: dict[str, _Search], max_seconds: float) -> None:
    """Forget searches whose stream never began (a client that left before its first
    byte): every other search is forgotten when its stream ends, within
    ``max_seconds`` of its start."""
    now = time.monotonic()
    for key in [k for k, search in searches.items() if now - search.began > 2 * max_seconds + 5]:
        searches.pop(key).stop.set()


def _search_id(data: dict[str, Any]) -> str:
    value = data.get("id")
    if not isinstance(value, str) or not 1 <= len(value) <= 64:
        raise RequestError("the request needs an 'id': text of 1 to 64 characters")
    return value


def _event(item: dict[str, Any]) -> str:
    return f"event: {item['kind']}\ndata: {json.dumps(item)}\n\n"


def play_routes(
    *,
    read_body: Callable[[Request], Awaitable[dict[str, Any]]],
    guarded: Callable[[Handler], Callable[..., Any]],
    in_thread: Callable[..., Awaitable[Any]],
    max_seconds: float,
    max_searches: int,
    lab_nodes: int,
) -> list[Route]:
    """The room's routes. ``read_body`` reads a bounded JSON body, ``guarded`` turns
    plies' errors into 400s, ``in_thread`` runs work in a worker thread under the
    server's time limit; at most ``max_searches`` streamed searches run at once."""
    searches: dict[str, _Search] = {}

    def state_of(room: lab.Room, data: dict[str, Any]) -> dict[str, Any]:
        return lab.room_state(room, lab_nodes=lab_nodes, names=data.get("names"))

    async def answer(data: dict[str, Any], work: Callable[[], lab.Room]) -> Response:
        return JSONResponse(await in_thread(lambda: state_of(work(), data)))

    async def state(request: Request) -> Response:
        data = await read_body(request)
        return await answer(data, lambda: _room(data))

    async def move(request: Request) -> Response:
        data = await read_body(request)
        if "move" not in data:
            raise RequestError("the request needs a 'move' (text)")
        return await answer(data, lambda: lab.play_move(_room(data), data["move"]))

    async def undo(request: Request) -> Response:
        data = await read_body(request)
        return await answer(data, lambda: lab.undo(_room(data), data.get("count", 1)))

    async def roll(request: Request) -> Response:
        data = await read_body(request)
        return await answer(data, lambda: lab.roll(_room(data)))

    async def hint(request: Request) -> Response:
        data = await read_body(request)
        strength = _strength(data, max_seconds)

        def work() -> dict[str, Any]:
            items = list(lab.think(_room(data), **strength))
            infos = [item for item in items if item["kind"] == "info"]
            return {"best": items[-1], "info": infos[-1] if infos else None}

        return JSONResponse(await in_thread(work))

    async def think(request: Request) -> Response:
        data = await read_body(request)
        search_id = _search_id(data)
        strength = _strength(data, max_seconds)
        play = data.get("play") is True
        _forget_stale(searches, max_seconds)
        if search_id in searches:
            raise RequestError(f"a search with id {search_id!r} is already running")
        if len(searches) >= max_searches:
            raise LimitError(f"this server runs at most {max_searches} searches at once")
        stop = threading.Event()
        room = await in_thread(_room, data)
        items = lab.think(room, stop=stop, **strength)  # checks the request before streaming
        searches[search_id] = _Search(stop)
        return StreamingResponse(
            _stream(
                room,
                items=items,
                play=play,
                stop=stop,
                forget=lambda: searches.pop(search_id, None),
                state_of=lambda after: state_of(after, data),
            ),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store"},
        )

    async def stop(request: Request) -> Response:
        data = await read_body(request)
        search = searches.get(_search_id(data))
        if search is not None:
            search.stop.set()
        return JSONResponse({"stopped": search is not None})

    return [
        Route("/api/play/state", guarded(state), methods=["POST"]),
        Route("/api/play/move", guarded(move), methods=["POST"]),
        Route("/api/play/undo", guarded(undo), methods=["POST"]),
        Route("/api/play/roll", guarded(roll), methods=["POST"]),
        Route("/api/play/hint", guarded(hint), methods=["POST"]),
        Route("/api/play/think", guarded(think), methods=["POST"]),
        Route("/api/play/stop", guarded(stop), methods=["POST"]),
    ]


async def _stream(
    room: lab.Room,
    *,
    items: Any,
    play: bool,
    stop: threading.Event,
    forget: Callable[[], object],
    state_of: Callable[[lab.Room], dict[str, Any]],
) -> AsyncIterator[str]:
    """The search's items as Server-Sent Events while a plain thread runs it; when the
    stream ends for any reason (done, stop, the client gone) the search is stopped."""
    found: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()

    def work() -> None:
        try:
            for item in items:
                if item["kind"] == "best" and play:
                    item["state"] = state_of(lab.play_move(room, item["text"]))
                found.put(item)
        except PliesError as exc:
            found.put({"kind": "error", "error": " ".join(str(exc).split())})
        finally:
            found.put(None)

    threading.Thread(target=work, name="plies-room-search", daemon=True).start()
    try:
        while True:
            try:
                item = found.get_nowait()
            except queue.Empty:
                await anyio.sleep(POLL_SECONDS)
                continue
            if item is None:
                return
            yield _event(item)
    finally:
        stop.set()
        forget()
