"""The web lab's ASGI app (Starlette): the pages, their static files and the JSON API.

Routes:

* ``GET /`` the tree lab page, ``GET /practice`` the practice room, ``GET /prune``
  prune-and-search beyond games (selection and 2-D LP), ``GET /play`` the game room;
  ``GET /static/...`` their scripts and style (shipped in the package, no network
  needed);
* ``GET /api`` the API's reference page, ``GET /api/openapi.json`` the same as an
  OpenAPI 3.1 document (:mod:`plies.web._openapi` describes every endpoint);
* ``POST /api/search``: the document ``plies tree --json`` prints for the same tree
  and options;
* ``POST /api/render``: the same search drawn in a ``--draw`` format (``svg``,
  ``png``, ``tex``, ``dot``, ``mmd``, ``html``) or as the trace table (``md``,
  ``csv``), as a download;
* ``POST /api/compare``: every algorithm x ordering x tie rule, as
  ``plies tree --compare --json``;
* ``POST /api/check``: a student's ``answer`` checked against the search, with
  feedback per node (:func:`plies.lab.check_answer`);
* ``POST /api/tree``: the tree alone (drawing and nodes), to answer on;
* ``GET /api/game-tree``: a built-in game's position as tree text (``game``, ``depth``);
* ``GET /api/exercise``: a random practice tree from a seed and a shape;
* ``POST /api/select``, ``POST /api/lp``: selection and 2-D linear programming by
  prune-and-search, every round a step (narration and drawing) for ``/prune``;
* ``GET /api/complexity``: the complexity chart (SVG) for a branching and depths;
* ``POST /api/play/...``: the game room (see :mod:`plies.web._play`).

Every bad request is status 400 (413 for a body over the limit, 429 when the server is
too busy to take it, 404 and 405 for unknown paths and methods) with
``{"error": "one line"}``; a parse error adds its ``line`` and ``column``. A bug is a
500 with the same shape, its traceback in the server's log only.

No request can run away with the server: sizes are checked before work starts, and
the work itself runs in worker processes (:mod:`plies.web._workers`) that are killed
past the request's time limit or their memory budget, every limit set by
:class:`WebSettings`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plies.errors import LimitError, PliesError
from plies.web._api import (
    OPERATIONS,
    QUERY_OPERATIONS,
    Answer,
    BodyTooLarge,
    Limits,
    error_answer,
    prepare,
    read_body,
)
from plies.web._openapi import openapi_document, reference_page
from plies.web._pages import lab_page, play_page, practice_page, prune_page
from plies.web._play import play_routes
from plies.web._workers import BusyError, WorkerCrash, WorkerPool, WorkerTimeout

__all__ = ["WebSettings", "create_app"]

log = logging.getLogger("plies.web")

MB = 2**20


def _default_workers() -> int:
    return max(2, min(4, os.cpu_count() or 2))


@dataclass(frozen=True, kw_only=True)
class WebSettings:
    """Limits that keep one server usable by a whole class.

    ``max_body``: bytes of a request body (413 above it). ``max_nodes``: nodes of a
    tree the API searches. ``max_step_nodes``: nodes of a tree drawn or stepped
    through (drawings and step data grow with the tree). ``max_mcts_iterations``:
    iterations of one Monte-Carlo tree search in the lab. ``max_seconds``: the time a
    request may take (a game-room engine search stops at 80% of it), after which its
    work is stopped. ``max_searches``: game-room engine searches running at once.
    ``workers``: worker processes for the other requests. ``max_memory``: bytes a
    worker may grow by for one request (it is stopped above that).
    """

    max_body: int = Limits.max_body
    max_nodes: int = Limits.max_nodes
    max_step_nodes: int = Limits.max_step_nodes
    max_mcts_iterations: int = Limits.max_mcts_iterations
    max_seconds: float = 10.0
    max_searches: int = 4
    workers: int = _default_workers()
    max_memory: int = 512 * MB


def _sent(answer: Answer) -> Response:
    """An operation's :class:`~plies.web._api.Answer` as the response that sends it."""
    return Response(answer.body, answer.status, answer.headers, answer.media_type)


def _error(message: PliesError | str, status: int = 400) -> Response:
    return _sent(error_answer(message, status))


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(f"the request body is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise BodyTooLarge(f"the request body is larger than {limit} bytes")
    return read_body(bytes(body), limit)


def _guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[..., Any]:
    """An endpoint that answers plies' errors with a one-line 400 (413 for a body too
    large, 429 for a server too busy; a parse error adds its line and column)."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except BodyTooLarge as exc:
            return _error(str(exc), 413)
        except BusyError as exc:
            return _sent(replace(error_answer(exc, 429), headers={"Retry-After": "1"}))
        except WorkerCrash as exc:
            log.error("plies web: %s %s failed:\n%s", request.method, request.url.path, exc.detail)
            return _error("the server failed on this request (a bug: see its log)", 500)
        except PliesError as exc:
            return _error(exc)  # a parse error adds its line and column

    return endpoint


class Workers:
    """The app's two worker pools, started when first needed: ``lab`` for the tree
    lab's requests and the room's moves, ``engine`` for engine searches (at most
    ``max_searches`` at once, refused beyond rather than queued)."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self.lab = WorkerPool(size=settings.workers, memory=settings.max_memory)
        self.engine = WorkerPool(
            size=settings.max_searches,
            memory=settings.max_memory,
            name="plies-engine",
            what="engine searches",
        )

    def deadline(self) -> float:
        """When a request that starts now must be answered."""
        return time.monotonic() + self.settings.max_seconds

    async def call(self, function: Callable[..., Any], *args: Any, engine: bool = False) -> Any:
        """``function(*args)`` in a worker, within the request's time limit."""
        pool = self.engine if engine else self.lab
        work = functools.partial(
            pool.call, function, *args, deadline=self.deadline(), patient=not engine
        )
        try:
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except WorkerTimeout:
            raise LimitError(self.time_message()) from None

    def time_message(self) -> str:
        return (
            f"the request took longer than {self.settings.max_seconds:g} s, this server's "
            "limit, and was stopped"
        )

    def start(self) -> None:
        """Start every worker now (the fork server warms plies up first)."""
        self.lab.start()
        self.engine.start(1)

    def close(self) -> None:
        """Stop every worker."""
        self.lab.close()
        self.engine.close()

    def pids(self) -> list[int]:
        """The worker processes alive now."""
        return self.lab.pids() + self.engine.pids()


def _not_found(request: Request, exc: Exception) -> Response:
    """404, 405 and other HTTP errors of Starlette's own: JSON under ``/api``."""
    status = getattr(exc, "status_code", 500)
    detail = getattr(exc, "detail", "") or ""
    headers = getattr(exc, "headers", None)
    if status == 404:
        detail = f"there is no {request.url.path[:80]!r} here"
    elif status == 405:
        detail = f"{request.method} is not allowed on {request.url.path[:80]}"
    if request.url.path.startswith("/api"):
        return JSONResponse({"error": detail}, status_code=status, headers=headers)
    return HTMLResponse(
        f"<!doctype html><title>plies: {status}</title><p>{status}: "
        f"{detail.replace('<', '&lt;')}. <a href='/'>The lab</a></p>",
        status_code=status,
        headers=headers,
    )


def create_app(settings: WebSettings | None = None, *, start: bool = False) -> Starlette:
    """The web lab as an ASGI application (serve it with uvicorn: ``plies serve``).
    Its worker processes start with the first request that needs one, or at once with
    ``start``; they stop when the app shuts down (its lifespan) or the process ends."""
    settings = settings or WebSettings()
    workers = Workers(settings)
    if start:
        workers.start()

    limits = Limits(
        max_body=settings.max_body,
        max_nodes=settings.max_nodes,
        max_step_nodes=settings.max_step_nodes,
        max_mcts_iterations=settings.max_mcts_iterations,
    )

    async def run(operation: str, data: Mapping[str, Any]) -> Response:
        """An operation of :mod:`plies.web._api`, its job in a worker."""
        job, args, finish = prepare(operation, data, limits)
        return _sent(finish(await workers.call(job, *args)))

    async def page(request: Request) -> Response:
        return HTMLResponse(lab_page())

    async def practice(request: Request) -> Response:
        return HTMLResponse(practice_page())

    async def play(request: Request) -> Response:
        return HTMLResponse(play_page())

    async def prune(request: Request) -> Response:
        return HTMLResponse(prune_page())

    async def api_page(request: Request) -> Response:
        return HTMLResponse(reference_page())

    async def api_openapi(request: Request) -> Response:
        return JSONResponse(openapi_document())

    async def read_body(request: Request) -> dict[str, Any]:
        return await _json_body(request, settings.max_body)

    def posted(operation: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return await run(operation, await _json_body(request, settings.max_body))

        return endpoint

    async def queried(request: Request) -> Response:
        return await run(request.url.path.rpartition("/")[2], request.query_params)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            workers.close()

    static = resources.files("plies.web") / "static"
    app = Starlette(
        routes=[
            Route("/", page),
            Route("/practice", practice),
            Route("/prune", prune),
            Route("/play", play),
            Route("/api", api_page),
            Route("/api/openapi.json", api_openapi),
            *(
                Route(f"/api/{operation}", _guarded(posted(operation)), methods=["POST"])
                for operation in OPERATIONS
                if operation not in QUERY_OPERATIONS
            ),
            *(Route(f"/api/{operation}", _guarded(queried)) for operation in QUERY_OPERATIONS),
            *play_routes(
                read_body=read_body,
                guarded=_guarded,
                workers=workers,
                max_seconds=settings.max_seconds * 0.8,
                lab_nodes=settings.max_step_nodes,
            ),
            Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
        ],
        exception_handlers={HTTPException: _not_found},
        lifespan=lifespan,
    )
    app.state.workers = workers
    return app
