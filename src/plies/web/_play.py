"""The game room's endpoints (``/api/play/...``): thin shells over :mod:`plies.lab`'s
room functions.

Every request carries the whole game: ``game`` (``NAME[:key=value,...]``),
``position`` (the start, in the game's POSITION notation; empty: the usual start) and
``moves`` (the texts played since), so the server keeps no games; ``names``
(optional, one per player in turn order) go into the export's header (PGN's White and
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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from plies.errors import LimitError, PliesError
from plies.web import _jobs
from plies.web._request import RequestError
from plies.web._workers import WorkerCrash, WorkerTimeout

__all__ = ["play_routes"]

#: A search ends within this long of its stop request or its client leaving: the
#: engine looks at the request every few milliseconds, the stream polls this often.
POLL_SECONDS = 0.01

Handler = Callable[[Request], Awaitable[Response]]


def _strength(data: dict[str, Any], max_seconds: float) -> dict[str, Any]:
    """The engine's ``depth`` and ``seconds`` from a request, at most ``max_seconds``
    whichever was asked for (a depth alone still stops at the server's limit), and its
    ``algorithm`` (and MCTS's ``iterations``) where the request names them."""
    depth, seconds = data.get("depth"), data.get("seconds")
    if depth is None and seconds is None and data.get("iterations") is None:
        raise RequestError(
            "the request needs a 'depth' or 'seconds' for the engine ('iterations' for mcts)"
        )
    if isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds > max_seconds:
        raise LimitError(f"seconds must be at most {max_seconds:g}, this server's limit")
    strength = {"depth": depth, "seconds": max_seconds if seconds is None else seconds}
    for name in ("algorithm", "iterations"):  # checked by the room (plies.lab.think)
        if data.get(name) is not None:
            strength[name] = data[name]
    return strength


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
    workers: Any,
    max_seconds: float,
    lab_nodes: int,
) -> list[Route]:
    """The room's routes. ``read_body`` reads a bounded JSON body, ``guarded`` turns
    plies' errors into 400s, ``workers`` (:class:`plies.web._app.Workers`) runs the
    work in worker processes under the server's limits: moves on its lab pool,
    engine searches on its engine pool (refused when all of its workers search)."""
    searches: dict[str, _Search] = {}

    async def answer(action: str, data: dict[str, Any]) -> Response:
        return JSONResponse(await workers.call(_jobs.room, action, data, lab_nodes))

    async def state(request: Request) -> Response:
        return await answer("state", await read_body(request))

    async def move(request: Request) -> Response:
        data = await read_body(request)
        if "move" not in data:
            raise RequestError("the request needs a 'move' (text)")
        return await answer("move", data)

    async def undo(request: Request) -> Response:
        return await answer("undo", await read_body(request))

    async def roll(request: Request) -> Response:
        return await answer("roll", await read_body(request))

    async def hint(request: Request) -> Response:
        data = await read_body(request)
        strength = _strength(data, max_seconds)
        return JSONResponse(await workers.call(_jobs.hint, data, strength, engine=True))

    async def think(request: Request) -> Response:
        data = await read_body(request)
        search_id = _search_id(data)
        strength = _strength(data, max_seconds)
        play = data.get("play") is True
        _forget_stale(searches, max_seconds)
        if search_id in searches:
            raise RequestError(f"a search with id {search_id!r} is already running")
        stop = threading.Event()
        items = workers.engine.stream(
            _jobs.think,
            data,
            strength,
            play,
            lab_nodes,
            deadline=workers.deadline(),
            stop=stop,
            patient=False,
        )
        try:  # the worker checks the request before the stream begins
            await anyio.to_thread.run_sync(next, items, abandon_on_cancel=True)
        except WorkerTimeout:
            raise LimitError(workers.time_message()) from None
        searches[search_id] = _Search(stop)
        return StreamingResponse(
            _stream(
                _relay(items, workers.time_message()),
                stop=stop,
                forget=lambda: searches.pop(search_id, None),
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


def _relay(
    items: Iterator[dict[str, Any]], time_message: str
) -> queue.SimpleQueue[dict[str, Any] | None]:
    """A queue that a plain thread fills with the search's items as its worker sends
    them (then None), started now: the worker is read to its end even if the
    response never starts (a client gone before its first byte)."""
    found: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()

    def work() -> None:
        try:
            for item in items:
                found.put(item)
        except WorkerTimeout:
            found.put({"kind": "error", "error": time_message})
        except PliesError as exc:
            found.put({"kind": "error", "error": " ".join(str(exc).split())})
        except WorkerCrash:
            found.put({"kind": "error", "error": "the server failed on this search"})
        finally:
            found.put(None)

    threading.Thread(target=work, name="plies-room-search", daemon=True).start()
    return found


async def _stream(
    found: queue.SimpleQueue[dict[str, Any] | None],
    *,
    stop: threading.Event,
    forget: Callable[[], object],
) -> AsyncIterator[str]:
    """The search's items as Server-Sent Events; when the stream ends for any reason
    (done, stop, the client gone) the search is stopped."""
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
